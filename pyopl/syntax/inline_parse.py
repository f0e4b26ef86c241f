"""The parser that builds the AST as Lark reduces, instead of a parse tree transformed afterwards.

:func:`_ast_parser` gives ``lark_parser("opl")`` with one callback per grammar rule
(:func:`_make_callback`), each mirroring what Lark's tree builder would do and calling the rule's
handler (:mod:`.handlers`) on the children; the handlers of the parse in progress are in ``_CTX``.
:func:`_trial_stack` copies the value stack for error recovery's trial parses.
"""
from __future__ import annotations

import contextvars
import copy
import functools
import operator

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Lark, Token, Tree
from lark.grammar import Rule

from .handlers import _HANDLERS, _InlineHandlers
from .parser_cache import lark_parser

_CTX: contextvars.ContextVar[_InlineHandlers] = contextvars.ContextVar("pyopl_parse_handlers")


class _Unsupported(Exception):
    """A rule shape this grammar does not have, which :func:`_make_callback` does not mirror."""


def _check_shape(rule) -> None:
    """Raise :class:`_Unsupported` for a rule shape :func:`_make_callback` does not mirror."""
    opts = rule.options
    if opts.template_source is not None:
        raise _Unsupported(rule)
    expand1 = opts.expand1 and not rule.alias
    if rule.origin.name.startswith("_") and (expand1 or rule.alias):
        raise _Unsupported(rule)  # Lark would splice a non-tree: not a shape this grammar has


class _Callbacks(dict):
    """Rule -> AST callback, each made (:func:`_make_callback`) when a parse first reduces the rule:
    a small model reduces a fifth of the grammar's 320 rules."""

    def __bool__(self) -> bool:
        return True  # (Lark's parser reduces without callbacks when its dict is empty)

    def __missing__(self, rule):
        callback = self[rule] = _make_callback(rule)
        return callback


def _make_callback(rule):
    """Lark's tree builder for one rule, making AST values instead of trees.

    A value on Lark's stack is a Token, None (a ``[x]`` placeholder) or, where the builder
    would have made a Tree, ``(value, first, last, container_first, container_last)``: the
    tokens whose start and end ``propagate_positions`` would copy.  Handlers get the children
    and spans of the tree path (lark/parse_tree_builder.py's ``ChildFilter``,
    ``ExpandSingleChild`` and ``PropagatePositions``, mirrored step by step).
    """
    opts = rule.options
    if opts.template_source is not None:
        raise _Unsupported(rule)
    name = rule.alias or rule.origin.name
    n_sym = len(rule.expansion)
    empty = "".join(str(int(b)) for b in opts.empty_indices) or "0" * n_sym
    nones = [len(run) for run in empty.split("0")]  # placeholders before each symbol, and after the last
    plan, pending = [], 0
    for i, sym in enumerate(rule.expansion):
        pending += nones[i]
        if opts.keep_all_tokens or not (sym.is_term and sym.filter_out):
            plan.append((i, not sym.is_term and sym.name.startswith("_"), pending))
            pending = 0
    tail = pending + nones[n_sym]
    expand1 = opts.expand1 and not rule.alias
    inline = rule.origin.name.startswith("_")
    if inline and (expand1 or rule.alias):
        raise _Unsupported(rule)  # Lark would splice a non-tree: not a shape this grammar has
    if expand1 and n_sym == 1 and len(plan) == 1 and not plan[0][1] and not tail and not plan[0][2]:
        return operator.itemgetter(0)  # `?a: b`: b itself, its positions unchanged
    handler = _HANDLERS.get(name)
    keep = [i for i, _x, _n in plan]
    simple = not tail and not any(x or n for _i, x, n in plan)
    whole = simple and len(keep) == n_sym

    def callback(s):
        first = last = None
        for c in s:
            if c is not None:
                if c.__class__ is tuple:
                    if c[3] is None:
                        continue
                    first = c[3]
                else:
                    first = c
                break
        if first is not None:
            for c in reversed(s):
                if c is not None:
                    if c.__class__ is tuple:
                        if c[4] is None:
                            continue
                        last = c[4]
                    else:
                        last = c
                    break
        if whole:
            raw = s
        elif simple:
            raw = [s[i] for i in keep]
        else:
            raw = []
            for i, splice, n in plan:
                if n:
                    raw += [None] * n
                if not splice:
                    raw.append(s[i])
                elif raw:
                    raw += s[i][0]
                else:  # left recursion: extend the child's list (it is on no other stack)
                    raw = s[i][0]
            if tail:
                raw += [None] * tail
        if expand1 and len(raw) == 1:
            c = raw[0]
            if c.__class__ is not tuple:
                return c
            if c[3] is None:
                return (c[0], first, last, first, last)
            return (c[0], c[1], c[2], first, last)
        if inline:
            return (raw, first, last, first, last)
        vals = [c[0] if c.__class__ is tuple else c for c in raw]
        if handler is None:
            return (Tree(name, vals), first, last, first, last)
        return (handler(_CTX.get(), (first, last), vals), first, last, first, last)

    return callback


def _trial_stack(stack: list) -> list:
    """The value stack for a trial parse, as Lark's deep copy would leave the tree path's.

    Handlers never change a child, so the AST is shared; the lists that later reductions extend
    in place (``raw = s[i][0]`` above) are copied.  Lark's ``Token.__deepcopy__`` drops a token's
    end, which shows in spans after a repair at the end of the file: copied tokens do so too.
    Positions already taken (a Tree's Meta, our first/last tokens) are shared, as with Lark.
    """
    out = []
    for v in stack:
        if v.__class__ is tuple and v[0].__class__ is list:
            v = ([copy.deepcopy(x) if isinstance(x, Token) else x for x in v[0]],) + v[1:]
        elif isinstance(v, Token):
            v = copy.deepcopy(v)
        out.append(v)
    return out


@functools.lru_cache(maxsize=None)
def _ast_parser() -> "Lark | None":
    """``lark_parser("opl")`` building the AST as it parses; None if Lark's internals are not
    the known ones (then the parse tree is built and transformed, as before).

    The tree (a Tree, a Meta and a position pass per reduction) and the walk that transformed
    it were most of a parse's time.  Lark's ``transformer=`` option would hide the positions of
    filtered tokens, which spans include, so the LALR parser gets our per-rule callbacks; the
    parse table, lexer and error recovery are Lark's, shared with ``lark_parser("opl")``.
    """
    base = lark_parser("opl")
    try:
        frontend = copy.copy(base.parser)
        lalr = copy.copy(frontend.parser)
        inner = copy.copy(lalr.parser)
        rules = list(base.rules)  # (the keys of Lark's callbacks: the decoded parser makes those on first use)
        if not rules or not all(isinstance(r, Rule) for r in rules):
            return None
        for r in rules:  # every shape checked now, so a parse never meets one it cannot build
            _check_shape(r)
        inner.callbacks = _Callbacks()
        lalr.parser = inner
        frontend.parser = lalr
        parser = copy.copy(base)
        parser.parser = frontend
        return parser
    except (AttributeError, TypeError, _Unsupported):
        return None
