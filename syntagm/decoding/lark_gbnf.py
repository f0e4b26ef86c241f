"""A Lark grammar as GBNF rules (llama.cpp's grammar format) over JSON-escaped text.

The rules come from Lark itself: :func:`lark_to_gbnf` builds the grammar with Lark
(``Lark(text).rules``, ``.terminals``, ``.ignore_tokens``: EBNF already expanded into plain
alternatives), so the GBNF follows ``grammar/*.lark`` whenever they change and never drifts.

A context-free grammar has no lexer, so what the lexer did is spelt out:

- every terminal is followed by the ignored tokens (``%ignore``: whitespace and comments), and the
  text may start with them; a token that runs to the end of a line (``//`` comments) must end with
  its newline, except as the text's last token, so that a comment cannot also be read as code;
- keywords are not reserved and token boundaries are not enforced (``dvarfloat`` is accepted where
  ``dvar float`` is meant): the grammar accepts a superset of what pyopl reads, never less;
- a terminal's text is converted by :mod:`.regex_gbnf` (lookaheads dropped), or replaced by an
  ``override`` (the placeholder ``SCRIPT_BODY`` of ``opl.lark`` stands for a brace-balanced
  ILOG Script body, which pyopl cuts out before parsing).

All rule names get ``prefix`` so that two grammars (model and data) can share one GBNF file.
"""
from __future__ import annotations

import re
from re import _constants as C  # noqa: the constants of Python's regex parser
from re import _parser as P  # noqa: Python's own regex parser

from lark import Lark

from . import charsets as cs
from .regex_gbnf import char_set, regex_to_gbnf


def rule_name(prefix: str, name: str) -> str:
    """A GBNF rule name (letters, digits, ``-``) for Lark's ``name``."""
    body = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return f"{prefix}{body}"


def terminal_expr(pattern) -> str:
    """The GBNF expression of one Lark terminal pattern (a ``PatternStr`` or ``PatternRE``)."""
    flags = set(pattern.flags or ())
    if flags - {"i"}:  # Lark's flags are letters: only `i` has a GBNF form here
        raise ValueError(f"flags {sorted(flags)} on the terminal {pattern.value!r}")
    if type(pattern).__name__ == "PatternStr":
        if not flags:
            return cs.json_literal(pattern.value)
        return regex_to_gbnf(re.escape(pattern.value), re.IGNORECASE)  # `"and"i`: each letter either case
    return regex_to_gbnf(pattern.value, re.IGNORECASE if flags else 0)


def _repeated_body(pattern: str) -> str:
    """For ``(?:X)+`` or ``X+`` (one item repeated one or more times), the pattern of ``X``;
    else ``pattern`` itself: the ignored-token loop repeats it already, and repeating a repeat
    would make the grammar ambiguous (a run of three spaces read in four ways)."""
    items = list(P.parse(pattern))
    if len(items) == 1 and items[0][0] == C.MAX_REPEAT:
        lo, hi, body = items[0][1]
        if lo == 1 and hi == C.MAXREPEAT:
            body = list(body)
            if len(body) == 1 and body[0][0] == C.SUBPATTERN:
                body = list(body[0][1][3])
            if len(body) == 1 and char_set(body[0]) is not None:
                return _single_char(body)
    return regex_to_gbnf(pattern)


def _single_char(items) -> str:
    """GBNF of an already-parsed single-character item (used for whitespace runs)."""
    return cs.json_class(char_set(items[0]))


def _runs_to_line_end(pattern: str) -> bool:
    """Whether ``pattern`` ends with a greedy ``*`` of a set without a newline (``//...``)."""
    items = list(P.parse(pattern))
    if not items or items[-1][0] != C.MAX_REPEAT:
        return False
    lo, hi, body = items[-1][1]
    body = list(body)
    s = char_set(body[0]) if len(body) == 1 else None
    return lo == 0 and hi == C.MAXREPEAT and s is not None and not cs.contains(s, 0x0A)


def lark_to_gbnf(text: str, prefix: str, overrides: dict[str, str] | None = None) -> tuple[dict[str, str], str]:
    """``(rules, root)``: GBNF rules ``{name: expression}`` for the Lark grammar ``text`` and the
    name of its root rule (leading ignored tokens, ``start``, then an optional last line comment).

    ``overrides`` maps a terminal name to the GBNF expression to use instead of its pattern.
    Raises :class:`~syntagm.decoding.regex_gbnf.UnsupportedRegex` (a ``ValueError``) for a
    terminal that cannot be converted and has no override, and :class:`ValueError` when a rule
    stays left-recursive through other rules (which llama.cpp would refuse)."""
    overrides = overrides or {}
    lark = Lark(text, parser="earley", lexer="dynamic", start="start")
    terminals = {t.name: t for t in lark.terminals}
    ignored = list(lark.ignore_tokens)
    ws = f"{prefix}ws"
    rules: dict[str, str] = {}
    loop, tails = [], []
    for name in ignored:
        pat = terminals[name].pattern
        if _runs_to_line_end(pat.value):
            expr = terminal_expr(pat)
            loop.append(f"{expr} {cs.json_literal(chr(10))}")
            tails.append(expr)
        else:
            loop.append(_repeated_body(pat.value) if type(pat).__name__ == "PatternRE" else terminal_expr(pat))
    rules[ws] = "(" + " | ".join(loop) + ")*" if loop else '""'
    used_terminals: set[str] = set()
    alternatives: dict[str, list[str]] = {}
    for r in lark.rules:
        seq = []
        for sym in r.expansion:
            if sym.is_term:
                used_terminals.add(sym.name)
                seq.append(rule_name(prefix + "t-", sym.name))
            else:
                seq.append(rule_name(prefix, sym.name))
        alternatives.setdefault(rule_name(prefix, r.origin.name), []).append(" ".join(seq))
    for name, alts in alternatives.items():
        rules[name] = _without_left_recursion(name, list(dict.fromkeys(alts)))
    _check_no_left_recursion(alternatives)
    for tname in sorted(used_terminals):
        expr = overrides.get(tname) or terminal_expr(terminals[tname].pattern)
        rules[rule_name(prefix + "t-", tname)] = f"{_parenthesise(expr)} {ws}"
    tail = f"{prefix}tail"
    rules[tail] = "(" + " | ".join(tails) + ")?" if tails else '""'
    root = f"{prefix}root"
    rules[root] = f"{ws} {rule_name(prefix, 'start')} {tail}"
    return rules, root


def _without_left_recursion(name: str, alts: list[str]) -> str:
    """``A ::= A x | A y | b | c`` as ``A ::= (b | c) (x | y)*``: the same language without direct
    left recursion, which llama.cpp refuses (its grammar engine expands rules depth first; Lark
    writes ``x*`` and the expression levels left-recursively)."""
    head = name + " "
    tails = [a[len(head):] for a in alts if a.startswith(head)]
    bases = [a for a in alts if not a.startswith(head) and a != name]
    if not tails:
        return factor([a.split() for a in bases])
    return f"{_group(factor([a.split() for a in bases]))} {_group(factor([t.split() for t in tails]))}*"


def factor(alts: list[list[str]]) -> str:
    """Alternatives (symbol sequences) as one expression with their common prefixes written once:
    ``a b c | a b d | e`` becomes ``a b (c | d) | e``. The language is the same; llama.cpp (which
    follows every alternative in parallel) no longer follows ``a b`` once per alternative."""
    groups: dict[str, list[list[str]]] = {}
    empty = False
    for a in alts:
        if a:
            groups.setdefault(a[0], []).append(a[1:])
        else:
            empty = True
    parts = []
    for first, rests in groups.items():
        if len(rests) == 1:
            parts.append(" ".join([first, *rests[0]]))
            continue
        rest_empty = any(not r for r in rests)
        inner = factor([r for r in rests if r])
        parts.append(f"{first} {_group(inner)}{'?' if rest_empty else ''}")
    if empty:
        if len(parts) == 1:
            return f"{_group(parts[0])}?"
        parts.append('""')
    return " | ".join(parts) if parts else '""'


def _group(expr: str) -> str:
    """``expr`` parenthesised unless it is one symbol or one group."""
    if " " not in expr or (expr.startswith("(") and _balanced_inside(expr[1:-1]) and expr.endswith(")")):
        return expr
    return f"({expr})"


def _balanced_inside(body: str) -> bool:
    depth = 0
    for ch in body:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _check_no_left_recursion(alternatives: dict[str, list[str]]) -> None:
    """Raise :class:`ValueError` if a rule can still begin with itself (indirectly, or through
    symbols that may be empty), which direct elimination does not remove."""
    nullable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, alts in alternatives.items():
            if name not in nullable and any(all(s in nullable for s in a.split()) for a in alts):
                nullable.add(name)
                changed = True
    first: dict[str, set[str]] = {}
    for name, alts in alternatives.items():
        heads = first.setdefault(name, set())
        for a in alts:
            for sym in a.split():
                if sym in alternatives and sym != name:
                    heads.add(sym)
                if sym not in nullable:
                    break
    for start in first:
        seen, todo = set(), list(first[start])
        while todo:
            cur = todo.pop()
            if cur == start:
                raise ValueError(f"the rule {start} is left-recursive through other rules")
            if cur not in seen:
                seen.add(cur)
                todo.extend(first.get(cur, ()))


def _parenthesise(expr: str) -> str:
    return f"({expr})" if " | " in expr else expr
