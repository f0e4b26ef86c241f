"""A terminal's regular expression as a GBNF expression over its JSON-escaped text.

The expression is read with Python's own regex parser (``re._parser``, the parser ``re`` compiles
with), so what is converted is what Lark matches. Supported: literals, classes (ranges, ``\\d``
``\\w`` ``\\s`` and their negations), ``.``, alternation, groups, greedy, lazy and possessive
repeats. A context-free grammar has no lookaround: lookaheads (``(?=...)``, ``(?!...)``) and
``\\b`` are dropped, so the grammar accepts a little more than the lexer (``1..2`` may also read
as ``1.`` ``.2``); a lazy ``[\\s\\S]*?`` before a two-character terminator (a block comment's
``*/``) becomes the exact "anything without the terminator" construction. Anything else raises
:class:`UnsupportedRegex`, so a change in pyopl's grammar that this module cannot follow fails
the tests rather than drift.
"""
from __future__ import annotations

import contextvars
import re
from re import _constants as C  # noqa: the constants of Python's regex parser
from re import _parser as P  # noqa: Python's own regex parser

from . import charsets as cs


class UnsupportedRegex(ValueError):
    """A construct of a terminal's pattern with no GBNF counterpart here."""


_CATEGORIES = {
    C.CATEGORY_DIGIT: cs.DIGIT, C.CATEGORY_NOT_DIGIT: cs.NOT_DIGIT,
    C.CATEGORY_WORD: cs.WORD, C.CATEGORY_NOT_WORD: cs.NOT_WORD,
    C.CATEGORY_SPACE: cs.SPACE, C.CATEGORY_NOT_SPACE: cs.NOT_SPACE,
}
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


#: set while a case-insensitive pattern (``re.IGNORECASE``, Lark's ``/.../i``) is converted
_FOLD: contextvars.ContextVar[bool] = contextvars.ContextVar("gbnf_fold_case", default=False)


def regex_to_gbnf(pattern: str, flags: int = 0) -> str:
    """The GBNF expression (no rule name) of ``pattern``'s JSON-escaped matches.

    ``re.IGNORECASE`` adds the other case of every ASCII letter a class or literal holds (a negated
    class then accepts a little more, as lookarounds do). Raises :class:`UnsupportedRegex` for a
    construct not listed in the module's docstring (back-references, the verbose flag, an empty set)."""
    if flags & re.VERBOSE:
        raise UnsupportedRegex(f"flags {flags} in /{pattern}/")
    token = _FOLD.set(bool(flags & re.IGNORECASE))
    try:
        return _seq(list(P.parse(pattern, flags & ~re.IGNORECASE)), pattern)
    finally:
        _FOLD.reset(token)


def fold_case(s: cs.Ranges) -> cs.Ranges:
    """``s`` with the other case of each ASCII letter it holds."""
    extra = [((c ^ 0x20, c ^ 0x20),) for lo, hi in s for c in range(max(lo, 0x41), min(hi, 0x7A) + 1)
             if 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A]
    return cs.union(s, *extra) if extra else s


def char_set(item, pattern: str = "") -> cs.Ranges | None:
    """The character set one parsed item matches (a literal, a class, ``.``), or ``None``."""
    op, av = item
    if op == C.LITERAL:
        return ((av, av),)
    if op == C.NOT_LITERAL:
        return cs.complement(((av, av),))
    if op == C.ANY:
        return cs.complement(cs.of_chars("\n"))
    if op == C.IN:
        negate = False
        parts: list[cs.Ranges] = []
        for sub_op, sub_av in av:
            if sub_op == C.NEGATE:
                negate = True
            elif sub_op == C.LITERAL:
                parts.append(((sub_av, sub_av),))
            elif sub_op == C.RANGE:
                parts.append((tuple(sub_av),))
            elif sub_op == C.CATEGORY and sub_av in _CATEGORIES:
                parts.append(_CATEGORIES[sub_av])
            else:
                raise UnsupportedRegex(f"{sub_op} in a class of /{pattern}/")
        s = cs.union(*parts)
        return cs.complement(s) if negate else s
    return None


def _seq(items: list, pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(items):
        op, av = items[i]
        lazy_end = _lazy_terminator(items, i)
        if lazy_end is not None:
            out.append(_until(lazy_end))
            i += 3
            continue
        piece = _item(items[i], pattern)
        if piece:
            out.append(piece)
        i += 1
    return " ".join(out) if out else '""'


def _lazy_terminator(items: list, i: int) -> str | None:
    """``"ab"`` when ``items[i:]`` is ``<anything>*? a b`` with ``a != b``, else ``None``."""
    op, av = items[i]
    if op != C.MIN_REPEAT or i + 2 >= len(items):
        return None
    lo, hi, body = av
    body = list(body)
    if lo != 0 or hi != C.MAXREPEAT or len(body) != 1 or char_set(body[0]) != cs.ANY:
        return None
    (op1, a), (op2, b) = items[i + 1], items[i + 2]
    if op1 != C.LITERAL or op2 != C.LITERAL or a == b:
        return None
    return chr(a) + chr(b)


def _until(end: str) -> str:
    """Any text up to and including the first ``end`` (two different characters ``ab``)."""
    a, b = (cs.of_chars(c) for c in end)
    not_a = cs.json_class(cs.complement(a))
    not_ab = cs.json_class(cs.complement(cs.union(a, b)))
    lit_a, lit_b = cs.json_literal(end[0]), cs.json_literal(end[1])
    return f"({not_a} | {lit_a}+ {not_ab})* {lit_a}+ {lit_b}"


def _item(item, pattern: str) -> str:
    op, av = item
    s = char_set(item, pattern)
    if s is not None:
        return cs.json_class(fold_case(s) if _FOLD.get() else s)
    if op == C.SUBPATTERN:
        return _group(_seq(list(av[3]), pattern))
    if op == C.ATOMIC_GROUP:
        return _group(_seq(list(av), pattern))
    if op == C.BRANCH:
        return "(" + " | ".join(_seq(list(alt), pattern) for alt in av[1]) + ")"
    if op in _REPEATS:
        lo, hi, body = av
        return _repeat(_group(_seq(list(body), pattern)), lo, hi)
    if op in (C.ASSERT, C.ASSERT_NOT, C.AT):
        return ""  # no lookaround in a context-free grammar: the grammar accepts a little more
    raise UnsupportedRegex(f"{op} in /{pattern}/")


def _group(expr: str) -> str:
    return expr if _is_atom(expr) else f"({expr})"


def _is_atom(expr: str) -> bool:
    """Whether ``expr`` is one literal, one class or one parenthesised group."""
    if re.fullmatch(r'"(?:[^"\\]|\\.)*"', expr) or re.fullmatch(r"\[(?:[^\]\\]|\\.)*\]", expr):
        return True
    if expr.startswith("(") and expr.endswith(")"):
        depth = 0
        for m in _SCAN.finditer(expr):
            depth += m.group() == "("
            depth -= m.group() == ")"
            if depth == 0 and m.end() < len(expr):
                return False
        return True
    return False


#: literals and classes whole (their parentheses do not count), else one character
_SCAN = re.compile(r'"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]|.', re.DOTALL)


def _repeat(atom: str, lo: int, hi: int) -> str:
    """``atom`` repeated ``lo`` to ``hi`` times (``hi`` may be ``MAXREPEAT``)."""
    unbounded = hi == C.MAXREPEAT
    if (lo, unbounded) == (0, True):
        return atom + "*"
    if (lo, unbounded) == (1, True):
        return atom + "+"
    if (lo, hi) == (0, 1):
        return atom + "?"
    if unbounded:
        return " ".join([atom] * lo) + f" {atom}*"
    return " ".join([atom] * lo + [atom + "?"] * (hi - lo)) or '""'
