"""Ragged iteration for the array paths: a ``sum`` whose range depends on the ``forall``'s indices, and
rows in which a column appears more than once.

A unit commitment's minimum up-time row ``sum(s in t-minUp[u]+1..t : s >= 1) start[u][s]`` has a
range of its own in every row ``(u, t)``.  The row-by-row path evaluates the range once per row
and iterates it; here every row's range comes from arrays (``lo`` and ``hi`` per row, evaluated over
the whole ``forall``), and the iteration space is laid out as offsets: row ``r`` gets
``hi[r] - lo[r] + 1`` iterations with the values ``lo[r], lo[r] + 1, ...`` in order, the order the
row path visits them.  Nothing of the size rows x periods is made.  The same layout serves a filter
that bounds an integer range by the outer indices (``s in Periods : s >= t - minUp[u] + 1 && s <= t``):
each row iterates only between its bounds, and the whole filter is then applied to those candidates,
so the bounds only have to contain every value the filter keeps.

Exactness (the rows must equal the row path's bit for bit): the values are the same integers in the
same order.  A range whose bounds are not exact integers, or any value the array evaluation does not
cover, raises ``_Fallback`` and the statement goes row by row, which reports what it reports.

A column twice in one row (``+flow[a][k] - flow[a][k]`` for a self-loop arc ``a``) is summed where
every coefficient involved is an integer of magnitude at most 2**40 (and a group has at most 4096
entries): such sums are exact in any order, so they equal the row path's left-to-right fold. Other
repeats raise ``_Fallback``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..semantics.values import OplRange
from ..syntax import ast as A
from .shapes import conjuncts
from .vectorised_base import _Fallback

_EXACT_COEF = 2.0 ** 40
_MAX_GROUP = 4096


def bind_range_per_row(sub: Any, b: A.Binder) -> None:
    """Bind ``b`` (``s in lo..hi`` with ``lo``/``hi`` over the bound iterators) in the iteration space
    ``sub`` (a :class:`~pyopl.lowering.vectorised._Sum`): each current iteration gets its own range;
    then ``b``'s filter, if any, on the candidates."""
    lo = _ints(sub, b.domain.lo)
    hi = _ints(sub, b.domain.hi)
    counts = np.maximum(hi - lo + 1, 0)
    if not counts.any():
        _bind(sub, b, counts, lo, OplRange(0, -1), 0)
        return
    live = counts > 0
    base = int(lo[live].min())
    _bind(sub, b, counts, lo, OplRange(base, int(hi[live].max())), base)


def bind_filtered_range(sub: Any, b: A.Binder, domain: Any) -> bool:
    """Bind ``b`` (``s in R : ... s >= e ... && ... s <= f ...`` with ``R`` an integer range and ``e``,
    ``f`` over the bound iterators) by iterating each iteration's values between its bounds only; the
    whole filter is then applied to those candidates.  False (nothing bound) where the filter has no
    such bound."""
    if type(domain) is not OplRange or not len(domain):
        return False
    name = b.patterns[0].name
    lo = hi = None
    for f in conjuncts(b.filter):
        if not (isinstance(f, A.Compare) and len(f.ops) == 1 and f.ops[0] in ("<", "<=", ">", ">=")):
            continue
        left, right = f.operands
        op = f.ops[0]
        if isinstance(right, A.Name) and right.id == name:  # `e <= s` is `s >= e`
            left, right, op = right, left, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
        if not (isinstance(left, A.Name) and left.id == name):
            continue
        used = sub.cache.names(right)[1]
        if name in used or used.isdisjoint(sub.iters):
            continue  # (a bound free of the outer indices: the general path filters as well)
        v = sub.data(right)
        x = np.broadcast_to(np.asarray(sub.num(v), dtype=np.float64), (sub.size,))
        if np.isnan(x).any():
            raise _Fallback()
        x = np.clip(x, domain.lo - 1, domain.hi + 1)  # (only the part inside the range matters)
        if op in (">", ">="):
            bound = np.floor(x) + 1 if op == ">" else np.ceil(x)
            lo = bound if lo is None else np.maximum(lo, bound)
        else:
            bound = np.ceil(x) - 1 if op == "<" else np.floor(x)
            hi = bound if hi is None else np.minimum(hi, bound)
    if lo is None and hi is None:
        return False
    lo = np.full(sub.size, domain.lo, dtype=np.int64) if lo is None else np.maximum(lo, domain.lo).astype(np.int64)
    hi = np.full(sub.size, domain.hi, dtype=np.int64) if hi is None else np.minimum(hi, domain.hi).astype(np.int64)
    _bind(sub, b, np.maximum(hi - lo + 1, 0), lo, domain, domain.lo)
    return True


def _ints(sub: Any, n: A.Expr) -> np.ndarray:
    """An integer range bound over the iteration space, as int64 (``_Fallback`` unless exact ints)."""
    v = sub.data(n)
    if not v.exact_int:
        raise _Fallback()  # a float bound: the row path's range rules decide
    return np.broadcast_to(np.asarray(sub.num(v), dtype=np.float64), (sub.size,)).astype(np.int64)


def _bind(sub: Any, b: A.Binder, counts: np.ndarray, lo: np.ndarray, domain: OplRange, base: int) -> None:
    """Lay out ``counts[r]`` iterations after each current iteration ``r``, valued ``lo[r], lo[r]+1, ...``,
    as positions in ``domain`` (value - ``base``); charge them; then apply ``b``'s filter."""
    total = int(counts.sum())
    budget = sub.ev.inst.budget
    budget.refuse_size(total, sub.owner)
    budget.charge(total, sub.owner)
    sub.scanned += total
    before = np.cumsum(counts) - counts  # where each iteration's values start
    offset = np.arange(total, dtype=np.int64) - np.repeat(before, counts)
    sub.iters = {k: (d, np.repeat(p, counts)) for k, (d, p) in sub.iters.items()}
    sub.iters[b.patterns[0].name] = (domain, np.repeat(lo - base, counts) + offset)
    sub.size = total
    if b.filter is not None and total:
        mask = sub.cond(b.filter)
        sub.iters = {k: (d, p[mask]) for k, (d, p) in sub.iters.items()}
        sub.size = int(mask.sum())


def merge_repeats(indptr: np.ndarray, col: np.ndarray, coef: np.ndarray) -> None:
    """Sum, in place, the entries of a column that appears more than once in a row into its first
    entry (the others become 0.0, which the caller drops with the other zeros); ``_Fallback`` where a
    sum might depend on the order of the additions (see the module's docstring)."""
    m = len(indptr) - 1
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
    key = rows * (int(col.max()) + 1) + col
    order = np.argsort(key, kind="stable")  # a row's entries of one column together, in their order
    ranked = key[order]
    starts = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
    sizes = np.diff(np.append(starts, len(ranked)))
    multi = sizes > 1
    if not multi.any():
        return
    if int(sizes.max()) > _MAX_GROUP:
        raise _Fallback()
    in_multi = np.repeat(multi, sizes)
    c = coef[order]
    cm = c[in_multi]
    if not (np.all(np.isfinite(cm)) and np.all(cm == np.round(cm)) and np.all(np.abs(cm) <= _EXACT_COEF)):
        raise _Fallback()  # a sum of these depends on the order of the additions
    sums = np.add.reduceat(c, starts)[multi]
    coef[order[in_multi]] = 0.0
    coef[order[starts[multi]]] = sums
