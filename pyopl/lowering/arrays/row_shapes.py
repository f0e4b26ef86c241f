"""Which ``forall`` statements the array rows take: the static shape checks of :mod:`.vectorised_rows`.

A statement is taken when its constraint is one comparison (``<=``, ``>=``, ``==``) of two sides, each a
left-to-right chain of ``+``/``-`` terms (:func:`_chain`), and each term is linear data-and-decision
arithmetic, a ``sum`` of such a body (or ``-sum``), a ``?:`` whose branches are such terms, a bracketed
chain of such terms (``y - (sum(...) + x)``), or such a term scaled by data (``k * sum(...)``,
``(sum(...) + x) / k``); sums, ``min`` and ``max`` of data may appear where data
may.  Each ``sum``'s binders name one plain name each, and a domain that depends on the loop's
iterators is a range or a cell of an array of sets (bound per row by :mod:`.ragged`).  These checks are
syntactic (and read the declarations' kinds): what they pass may still go row by row when its data are
not covered, and everything they refuse does.
"""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
from .row_blocks import binder_names, label_indices
from .vectorised import _linear_shape, _names, _walk
from .vectorised_calls import presence_calls


def _fits(ev: Any, s: A.Forall, env: dict) -> bool:
    cons = s.body
    if not isinstance(cons, A.ConsStmt):
        return False
    names = binder_names(s.quals)
    if names is None or set(names) & set(env):
        return False
    if cons.label is not None and not isinstance(cons.label, A.Name):
        indices = label_indices(cons.label)  # `ct[u][t]:`, `ct[t-1]:` data of the loop's iterators
        scope = set(names) | {k for k in env if not k.startswith("$")}
        if indices is None or not all(_linear_shape(i) and all(
                k in scope or getattr(ev.inst.symbols.get(k), "kind", None) in ("param", "set", "range")
                for k in _names(i)) for i in indices):
            return False
    e = cons.expr
    if not (isinstance(e, A.Compare) and len(e.ops) == 1 and e.ops[0] in ("<=", ">=", "==")):
        return False
    for k, b in enumerate(s.quals.binders):
        used = set(_names(b.domain)) & set(names)
        if used and not (used <= set(names[:k]) and isinstance(b.domain, (A.RangeLit, A.Index))):
            return False  # (`j in i+1..n`, `a in out[v]` over earlier iterators: bound per row, ragged.py)
    if not all(_side_fits(side, set(names) | set(env), set(names), ev.inst.symbols) for side in e.operands):
        return False
    symbols = ev.inst.symbols
    used = [symbols.get(n) for n in _names(e)]
    if any(sym is not None and sym.kind == "failed" for sym in used):
        return False  # a declaration that failed: the row path stops at its first use, without more words
    return any(sym is not None and sym.kind in ("dvar", "interval") for sym in used)  # (`presenceOf(t[i])`: CP)


def _side_fits(side: A.Expr, taken: set, loop: set, symbols: Any = None) -> bool:
    """A chain of linear terms and sums whose binders use names not in ``taken`` and domains free of ``loop``
    (a ``?:`` term's branches each such a term; with ``symbols``, a term may hold sums of data too)."""
    terms = _chain(side, symbols)
    return terms is not None and all(_term_fits(t, taken, loop, symbols) for _sign, t in terms)


def _term_fits(t: A.Expr, taken: set, loop: set, symbols: Any) -> bool:
    agg = _sum_of(t)
    if agg is not None:
        return _sum_fits(agg, taken, loop, symbols)
    if isinstance(t, A.Conditional) and _has_sum(t, symbols):  # `t == 1 ? init : sum(s in S) y[s][t-1]`
        return _linear_shape(t.cond, lambda x: _data_sum_fits(x, taken, loop, symbols)) \
            and _term_fits(t.then, taken, loop, symbols) and _term_fits(t.other, taken, loop, symbols)
    scaled = _scaled_parts(t, symbols)
    if scaled is not None:  # `k * sum(...)`, `sum(...) / k`
        return _linear_shape(scaled[1], lambda x: _data_sum_fits(x, taken, loop, symbols)) \
            and _term_fits(scaled[0], taken, loop, symbols)
    if symbols is not None and isinstance(t, A.Binary) and t.op in ("+", "-") and _has_sum(t, symbols):
        return _side_fits(t, taken, loop, symbols)  # `(sum(...) + x) * 3`, `y - (sum(...) + x)`: a bracket
    if symbols is not None and isinstance(t, A.Unary) and t.op == "-" and _has_sum(t, symbols):
        return _term_fits(t.operand, taken, loop, symbols)  # `-(sum(...) + x)`: the bracket's form scaled by -1
    return _linear_shape(t, lambda x: _data_sum_fits(x, taken, loop, symbols))


def _data_sum_fits(n: A.Expr, taken: set, loop: set, symbols: Any) -> bool:
    """``n`` is a ``sum``, ``min``, ``max`` or ``prod`` of data (no decision named in it) that :func:`_sum_fits`
    (per row: ``ragged.data_aggregate``), or a ``min``/``max``/``prod`` of data free of the loop's iterators
    (evaluated once: ``vectorised_calls.pure_invariant``)."""
    if symbols is None or not (isinstance(n, A.Aggregate) and n.op in ("sum", "min", "max", "prod")):
        return False
    if any(symbols.get(x) is not None and symbols[x].kind in ("dvar", "dexpr", "interval") for x in _names(n)):
        return False
    return _sum_fits(n, taken, loop) or (n.op != "sum" and not (set(_names(n)) & taken))


def _sum_fits(agg: A.Aggregate, taken: set, loop: set, symbols: Any = None) -> bool:
    """``agg``'s binders name plain names not in ``taken``, their domains are free of its own names and,
    where they use the loop's (``loop``), a range or a cell (bound per row); its body is linear, with
    (given ``symbols``) aggregates of data in it: free of every loop's names (``x[j] * a[j] / sum(k in K)
    a[k]``: evaluated once, ``vectorised_calls.pure_invariant``), or over its own iterators or the loop's
    (``(max(k in K) a[j][k]) * x[j]``: per iteration of this sum, ``ragged.data_aggregate``); with ``using
    CP;``, ``presenceOf`` of an interval array as the body or times data (``vectorised_calls.presence_calls``)."""
    inner = binder_names(agg.quals)
    if inner is None or set(inner) & taken:
        return False
    bound = taken | set(inner)
    presence = presence_calls(agg.body, symbols) if symbols is not None else ()  # `presenceOf(t[i]) * w[i]`
    if not _linear_shape(agg.body, None if symbols is None else lambda x: id(x) in presence or isinstance(x, A.Aggregate)
                         and x.op in ("sum", "min", "max", "prod") and _data_sum_fits(
                             x, bound, loop | set(inner) if set(_names(x)) & bound else set(), symbols)):
        return False
    for b in agg.quals.binders:
        used = set(_names(b.domain))
        if used & set(inner) or (used & loop and not isinstance(b.domain, (A.RangeLit, A.Index))):
            return False  # (`s in t-minUp[u]+1..t`, `a in outArcs[v]`: per row, bound ragged by ragged.py)
    return True


def _chain(n: A.Expr, symbols: Any = None) -> list[tuple[float, A.Expr]] | None:
    """``t1 ± t2 ± ...`` (left-associative, as parsed) -> [(sign, term)]; a side without ``sum`` is one term.

    Walked along the left spine in a loop, bottom-up, each right operand looked at once (a side may
    have thousands of terms): a part of the spine without ``sum`` is one term, a right operand with
    a ``sum`` in it must be a ``sum`` (or ``-sum``), else None."""
    spine = []
    m = n
    while isinstance(m, A.Binary) and m.op in ("+", "-"):
        spine.append(m)
        m = m.left
    has = _has_sum(m, symbols)
    out = [(1.0, m)] if not has or _whole_term(m) else None
    if out is None:
        return None
    for x in reversed(spine):
        right_has = _has_sum(x.right, symbols)
        has = has or right_has
        if not has:
            out = [(1.0, x)]  # no `sum` below here yet: the whole operand is one term
            continue
        if right_has and not _whole_term(x.right):
            return None
        out.append((1.0 if x.op == "+" else -1.0, x.right))
    return out


def _sum_of(n: A.Expr) -> A.Aggregate | None:
    """The ``sum`` aggregate of a term ``sum(...)`` or ``-sum(...)``."""
    if isinstance(n, A.Unary) and n.op == "-":
        n = n.operand
    return n if isinstance(n, A.Aggregate) and n.op == "sum" else None


def _whole_term(n: A.Expr) -> bool:
    """A term of a chain that may hold a ``sum`` of decisions: a ``sum``, ``-sum``, a ``?:``, a product
    or quotient of one by data (:func:`_scaled_parts`), a bracketed chain (``y - (sum(...) + x)``), or the
    negation of one of these (``-(sum(...) + x)``)."""
    return _sum_of(n) is not None or isinstance(n, A.Conditional) or (isinstance(n, A.Binary) and n.op in ("*", "/", "+", "-")) \
        or (isinstance(n, A.Unary) and n.op == "-")


def _scaled_parts(t: A.Expr, symbols: Any) -> tuple[A.Expr, A.Expr] | None:
    """(the part with a ``sum`` of decisions, the data it is scaled by) of ``k * S``, ``S * k``, ``S / k``."""
    if symbols is None or not (isinstance(t, A.Binary) and t.op in ("*", "/")):
        return None
    left, right = _has_sum(t.left, symbols), _has_sum(t.right, symbols)
    if left and not right:
        return t.left, t.right
    if right and not left and t.op == "*":
        return t.right, t.left
    return None


def _has_sum(n: A.Expr, symbols: Any = None) -> bool:
    """A ``sum`` in ``n``; with ``symbols``, a ``sum`` naming a decision (a sum of data is data)."""
    if symbols is None:
        return any(isinstance(x, A.Aggregate) for x in _walk(n))
    return any(isinstance(x, A.Aggregate) and any(symbols.get(k) is not None and symbols[k].kind in ("dvar", "dexpr", "interval")
                                                  for k in _names(x)) for x in _walk(n))
