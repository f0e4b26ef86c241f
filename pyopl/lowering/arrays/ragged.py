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

A column twice in one row (``+flow[a][k] - flow[a][k]`` for a self-loop arc ``a``, ``0.9 * x[a] - x[a]``
for a lossy one) is summed in the row path's order of additions, fractions included: within one
iteration at each ``+``/``-`` as ``LinExpr.iadd`` adds (:func:`merged_blocks`), within a row term by
term, side by side (:func:`merge_repeats`). Only a repeat inside a flattened nest of sums (whose row
path adds each inner sum first) must be exact in any order (integers of magnitude at most 2**40), and a
column at most 4096 times in one row; otherwise ``_Fallback``.  A ``?:`` whose branches hold decision
terms is laid out the same way, each branch's entries dead where it is not picked
(:func:`picked_blocks`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import OplArray, OplRange, OplSet, TupleType
from ...syntax import ast as A
from ..forms.shapes import conjuncts
from .array_types import _Fallback, _flatten_index, _Vec
from .vectorised_calls import set_values

_EXACT_COEF = 2.0 ** 40
_MAX_GROUP = 4096


def bind_range_per_row(sub: Any, b: A.Binder) -> None:
    """Bind ``b`` (``s in lo..hi`` with ``lo``/``hi`` over the bound iterators) in the iteration space
    ``sub`` (a :class:`~pyopl.lowering.arrays.vectorised._Sum`): each current iteration gets its own range;
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


def bind_after(sub: Any, b: A.Binder, before: str, per_row: bool = False) -> None:
    """Bind ``b``, the second name of ``ordered i, j in S`` (split by ``vectorised_inline.split_binders``),
    in ``sub``: each current iteration gets the elements of ``S`` after ``before``'s (``i``'s) position,
    in order, as the row path's ordered product; then ``b``'s filter.

    ``per_row``: ``S`` depends on earlier iterators (``ordered i, j in 1..k``, ``in members[k]``), and
    ``i`` was bound ragged (:func:`bind_range_per_row`, :func:`bind_cells`): ``j`` runs from ``i``'s
    position to the end of this iteration's own range or cell, the bound evaluated again over the
    iterations as they are now (the domain node is ``i``'s)."""
    domain, pos = sub.iters[before]
    if not per_row:
        end = len(domain)
    elif isinstance(b.domain, A.RangeLit):  # values lo..hi of this iteration, positions value - domain.lo
        end = _ints(sub, b.domain.hi) - domain.lo + 1 if len(domain) else pos + 1
    else:  # this iteration's cell: positions offsets[cell] .. offsets[cell] + lens[cell] - 1
        _items, offsets, lens, cell = _cells(sub, b.domain)
        end = offsets[cell] + lens[cell]
    counts = np.maximum(end - 1 - pos, 0)
    _bind(sub, b, counts, pos + 1, domain, 0)


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


def merged_blocks(a: list, b: list, size: int) -> list:
    """The blocks of ``a + b`` per iteration as :class:`~pyopl.lowering.forms.linear.LinExpr` adds them: a block
    of ``b`` whose column an ``a`` block has at an iteration is added into that block there
    (``a_coef + b_coef``, as ``LinExpr.iadd`` adds, and at that block's place: the dict keeps the first
    key's place), and its own entry there is dead (column -1); the other entries follow ``a``'s blocks.
    ``b``'s coefficients carry their sign already. Within ``a`` and within ``b`` no column is live twice
    at one iteration (each was made so), so neither is the result: a scaling of it is then
    ``LinExpr.scaled`` of the merged form, bit for bit."""
    out = list(a)
    spans = [_span(j) for _c, j in out]
    for c, j in b:
        lo, hi = _span(j)
        for k, (ac, aj) in enumerate(out):
            if lo > spans[k][1] or hi < spans[k][0]:
                continue  # (different dvars, or disjoint stretches of one: nothing to compare)
            same = (np.broadcast_to(aj, (size,)) == j) & (np.broadcast_to(j, (size,)) >= 0)
            if not same.any():
                continue
            ac = np.array(np.broadcast_to(ac, (size,)), dtype=np.float64)
            cb = np.broadcast_to(np.asarray(c, dtype=np.float64), (size,))
            ac[same] = ac[same] + cb[same]
            out[k] = (ac, aj)
            j = np.where(same, -1, np.broadcast_to(j, (size,)))
            lo, hi = _span(j)
        if hi >= 0:  # (a block dead everywhere is left out)
            out.append((c, j))
            spans.append((lo, hi))
    return out


def _span(j: Any) -> tuple[int, int]:
    """(smallest, largest) live column of a block's columns; (0, -1) when none is live."""
    j = np.asarray(j)
    if j.ndim == 0 or not j.strides or j.strides[0] == 0:  # one column everywhere (a view of one number)
        v = int(j.flat[0]) if j.size else -1
        return (v, v) if v >= 0 else (0, -1)
    live = j[j >= 0]
    return (int(live.min()), int(live.max())) if len(live) else (0, -1)


def picked_blocks(mask: np.ndarray, then: Any, other: Any, size: int) -> tuple[list, np.ndarray]:
    """``c ? a : b`` with decision terms, each branch evaluated on its own iterations only (``then`` on
    ``mask``, ``other`` on the rest, as the row path evaluates only the branch it picks): the blocks of
    both laid out over the whole space, each dead (column -1) where its branch is not picked, and the
    constant of the picked branch. ``then``/``other``: a ``_Lin`` over its iterations, or None where
    the branch is picked nowhere."""
    blocks = []
    const = np.zeros(size)
    for lin, where in ((then, np.flatnonzero(mask)), (other, np.flatnonzero(~mask))):
        if lin is None:
            continue
        k = len(where)
        for c, j in lin.blocks:
            coef = np.zeros(size)
            col = np.full(size, -1, dtype=np.int64)
            coef[where] = np.broadcast_to(c, (k,))
            col[where] = np.broadcast_to(j, (k,))
            blocks.append((coef, col))
        const[where] = np.broadcast_to(lin.const, (k,))
    return blocks, const


def picked_rows(rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The entries of a ``?:`` term whose branches were evaluated on their own rows (``rows``: each
    branch's entries' rows in the family, non-decreasing within a branch; a row belongs to one branch):
    (every entry's row, non-decreasing, and the permutation that puts the branches' entries, concatenated,
    in that order; each row's entries keep their branch's order)."""
    row = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    order = np.argsort(row, kind="stable")
    return row[order], order


def rows_without_entries(e: Any, m: int) -> np.ndarray:
    """The rows (of ``m``) without an entry in the term ``e`` (``vectorised_rows._Entries``): there the row
    path's value of the term may be a number (a ``sum`` with no iteration is the int 0, a ``?:`` may pick
    data), which it divides or negates as a number."""
    if e.per_row is not None or m == 0:
        return np.zeros(0, dtype=np.int64)
    seen = np.zeros(m, dtype=bool)
    seen[e.row] = True
    return np.flatnonzero(~seen)


def data_aggregate(space: Any, agg: A.Aggregate) -> Any:
    """``sum``, ``min``, ``max`` or ``prod`` (``binders``) ``body`` of data for every row of a ``forall``'s space
    (``x[t] >= sum(s in 1..t) d[s]``, ``t > 1 ? sum(k in 1..t-1) d[k] : 0``, ``max(s in 1..t) d[s]``): the
    aggregate's iterations over all rows at once, bound as a row's ``sum`` of decision terms is
    (``space.per_row_sum``, set by the row family: ragged ranges, cells, joins), the body evaluated over
    all of them, then reduced per row (:func:`_per_row_extreme` for ``min``/``max``,
    :func:`_per_row_product` for ``prod``). A ``sum`` is folded
    per row with ``np.bincount``, which adds each row's values in iteration order from 0.0 as the
    Evaluator's ``acc += v`` does (from the int 0: equal while the partial sums of integers stay below
    2**53, which is checked). Integers beyond OPL's 32 bits, a decision in the body and a space that is
    not a row family's raise ``_Fallback``."""
    bind = space.__dict__.get("per_row_sum")
    if bind is None or space._has_decision(agg):
        raise _Fallback()
    m = space.size
    sub = bind(space, agg)
    if agg.op == "prod":
        return _per_row_product(sub, agg, m)
    if agg.op != "sum":
        return _per_row_extreme(sub, agg, m)
    if sub.size == 0:
        return _Vec(num=np.zeros(m), exact_int=True)
    v = sub.data(agg.body)
    num = np.broadcast_to(np.asarray(sub.num(v), dtype=np.float64), (sub.size,))
    if not np.isfinite(num).all() or np.abs(num).sum() >= 2.0 ** 53:
        raise _Fallback()  # (big integers are exact in Python only; inf and nan: the row path's words)
    sums = np.bincount(sub.iters["$row"][1], weights=num, minlength=m)
    if v.exact_int and len(sums) and np.abs(sums).max() > 2 ** 31 - 1:
        raise _Fallback()  # OPL sums ints in 32 bits: the row path words the overflow
    return _Vec(num=sums, exact_int=v.exact_int)


def _per_row_extreme(sub: Any, agg: A.Aggregate, m: int) -> Any:
    """Each row's ``min``/``max`` of ``agg.body`` over its iterations in ``sub`` (``$row``: each iteration's
    row, non-decreasing). Python's ``max(vals)`` keeps the first of equal values, which differs from any
    other only for 0.0 and -0.0, so a zero with its sign bit set goes row by row, as do NaN (whose answer
    depends on the order), a row with no iteration (the row path's ``-inf``/``inf``, a float) and an
    infinity (the row path's words on an infinite bound)."""
    row = sub.iters["$row"][1]
    if sub.size == 0 or np.any(row[1:] < row[:-1]):
        raise _Fallback()
    starts = np.flatnonzero(np.concatenate(([True], row[1:] != row[:-1])))
    if len(starts) != m:
        raise _Fallback()
    v = sub.data(agg.body)
    num = np.broadcast_to(np.asarray(sub.num(v), dtype=np.float64), (sub.size,))
    if not np.isfinite(num).all() or np.any(np.signbit(num) & (num == 0)):
        raise _Fallback()
    return _Vec(num=(np.maximum if agg.op == "max" else np.minimum).reduceat(num, starts), exact_int=v.exact_int)


def _per_row_product(sub: Any, agg: A.Aggregate, m: int) -> Any:
    """Each row's ``prod`` of ``agg.body`` over its iterations in ``sub`` (``$row``: each iteration's row,
    non-decreasing), folded as the Evaluator folds it: from the int 1, ``acc * v`` iteration by
    iteration (a row with none is 1). The same IEEE products in the same order, one step per position
    within the rows. Where the row path multiplies ints (in 32 bits, wording an overflow) the partial
    products must stay within 32 bits, which is checked at every step (they are then exact in
    float64, and a float among them is multiplied as Python multiplies it); an int product of 0 is
    ``+0`` (Python's ``0 * -3`` is ``0``, not ``-0.0``), and where ints and floats may mix a zero, whose
    sign would depend on which were ints, goes row by row, as do NaN and infinities."""
    row = sub.iters["$row"][1]
    if np.any(row[1:] < row[:-1]):
        raise _Fallback()
    counts = np.bincount(row, minlength=m)
    acc = np.ones(m)
    if sub.size == 0:
        return _Vec(num=acc, exact_int=True)
    v = sub.data(agg.body)
    num = np.broadcast_to(np.asarray(sub.num(v), dtype=np.float64), (sub.size,))
    if not np.isfinite(num).all():
        raise _Fallback()
    starts = np.cumsum(counts) - counts
    for k in range(int(counts.max())):
        live = np.flatnonzero(counts > k)
        step = acc[live] * num[starts[live] + k]
        if np.abs(step).max() > 2 ** 31 - 1 or (not v.exact_int and np.any(step == 0)):
            raise _Fallback()  # (an int overflow is the row path's to word; a zero's sign, see above)
        acc[live] = step
    return _Vec(num=acc + 0.0 if v.exact_int else acc, exact_int=v.exact_int)


def merge_repeats(indptr: np.ndarray, col: np.ndarray, coef: np.ndarray, part: np.ndarray | None = None,
                  n_left: int | None = None, flat: Any = ()) -> None:
    """Sum, in place, the entries of a column that appears more than once in a row into its first
    entry (the others become 0.0, which the caller drops with the other zeros), in the row path's order
    of additions: each term's own entries first (a ``sum`` folds its iterations from 0.0), then the
    terms of each side left to right (``t1 + t2 - t3``: ``LinExpr.iadd`` into the first), then the two
    sides (``lhs - rhs``). ``part``: the term of each entry (terms numbered left to right, the left
    side's first ``n_left``; None: one term); ``flat``: terms that are flattened nests of sums (whose
    row path adds each inner sum first: a repeat within one is summed only where exact in any order,
    see the module). ``_Fallback`` where that cannot be done here."""
    m = len(indptr) - 1
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
    width = int(col.max()) + 1
    if m * width >= 2 ** 62:
        raise _Fallback()
    key = rows * width + col
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
    sel = order[in_multi]  # the entries of repeated columns, each column's in the row's order
    group = ranked[in_multi]
    term = np.zeros(len(sel), dtype=np.int64) if part is None else part[sel]
    c = coef[sel]
    # each term's own entries (a `sum`'s iterations), then each side's terms, then the two sides
    c, group, term = _fold_runs(c, (group, term), flat_terms=np.isin(term, list(flat)) if len(flat) else None)
    side = term >= (n_left if n_left is not None else len(sel) + 1)
    c, group, side = _fold_runs(c, (group, side))
    c, group = _fold_runs(c, (group,))
    coef[sel] = 0.0
    coef[order[starts[multi]]] = c


def _fold_runs(vals: np.ndarray, keys: tuple, flat_terms: np.ndarray | None = None) -> tuple:
    """Left-fold ``vals`` over runs of equal ``keys`` (consecutive): (one value per run, and each key's
    value at the run's start). ``flat_terms``: entries whose runs must be exact in any order (else
    ``_Fallback``)."""
    change = np.zeros(len(vals), dtype=bool)
    change[0] = True
    for k in keys:
        change[1:] |= k[1:] != k[:-1]
    starts = np.flatnonzero(change)
    sizes = np.diff(np.append(starts, len(vals)))
    if flat_terms is not None:
        long = np.repeat(sizes > 1, sizes) & flat_terms
        x = vals[long]
        if not (np.all(np.isfinite(x)) and np.all(x == np.round(x)) and np.all(np.abs(x) <= _EXACT_COEF)):
            raise _Fallback()  # a nest adds each inner sum first: only an exact sum is the same flat
    acc = vals[starts].copy()
    k = 1
    while True:
        live = np.flatnonzero(sizes > k)
        if not len(live):
            break
        acc[live] = acc[live] + vals[starts[live] + k]
        k += 1
    return (acc,) + tuple(x[starts] for x in keys)


class CellItems(list):
    """The elements of every cell of an array of sets, cell after cell in key order, each cell in its
    own order (duplicates across cells kept): the one domain a ``sum(a in outArcs[v])`` iterates, each
    row reading its cell's slice.  ``elem_type`` is the cells' declared element type (a tuple's type
    is checked against an array's index set as the cells' own tuples would be)."""

    def __init__(self, items: list, elem_type: Any):
        super().__init__(items)
        self.elem_type = elem_type


def cell_layout(cache: Any, arr: Any) -> tuple | None:
    """(``CellItems``, offsets, lengths) of the array of sets ``arr``, made once per array (offsets
    and lengths int64, one per cell in key order); None when a cell is not an OplSet or OplRange.
    A membership mask (``MaskedSets``) is read as it is: its non-zero cells, row by row, are the
    cells' elements in order, no set made."""
    store = cache.__dict__.setdefault("cell_layouts", {})
    hit = store.get(id(arr))
    if hit is None or hit[0] is not arr:
        mask = getattr(arr.flat, "mask", None)
        if mask is not None:
            rows, picks = np.nonzero(mask)
            lens = np.bincount(rows, minlength=mask.shape[0]).astype(np.int64)
            cands = arr.flat.candidates
            items = CellItems([cands[p] for p in picks.tolist()], arr.flat._elem)
            hit = (arr, (items, np.cumsum(lens) - lens, lens))
        else:
            hit = (arr, _layout(set_values(cache, arr)))
        store[id(arr)] = hit
    return hit[1]


def field_layout(cache: Any, domain: Any, field: str) -> tuple | None:
    """(``CellItems``, offsets, lengths) of the set-valued field ``field`` of the tuples of ``domain``
    (``{int} succs`` of ``tuple Task``), one cell per tuple in the set's order, made once per set and
    field; None when the set holds no one tuple type with that field or a value is not a set."""
    store = cache.__dict__.setdefault("field_layouts", {})
    hit = store.get((id(domain), field))
    if hit is None or hit[0] is not domain:
        dom = cache.domain(domain)
        tt = dom.ttype
        vals = None
        if tt is not None and field in tt.fields and cache._one_tuple_type(domain):
            vals = dom.field_values(tt.index(field), list(range(len(dom))))
            if not all(type(v) is OplSet or type(v) is OplRange for v in vals):
                vals = None
        hit = (domain, _layout(vals))
        store[(id(domain), field)] = hit
    return hit[1]


def _layout(vals: list | None) -> tuple | None:
    """(``CellItems``, offsets, lengths) of a list of sets, each set's elements in its own order."""
    if vals is None:
        return None
    lens = np.fromiter(map(len, vals), dtype=np.int64, count=len(vals))
    types = {getattr(v, "elem_type", None) for v in vals if type(v) is OplSet}
    flat: list = []
    for v in vals:
        flat.extend(v.items())
    return CellItems(flat, types.pop() if len(types) == 1 else None), np.cumsum(lens) - lens, lens


def cell_positions(cache: Any, items: CellItems, d: Any) -> np.ndarray | None:
    """The position in the index set ``d`` of every element of ``items`` (int64), looked up once per
    pair and kept; None where the general lookup must decide (an element not in ``d``, a tuple of
    another type, a value that is not an integer of a range): it then reports or falls back."""
    store = cache.__dict__.setdefault("cell_positions", {})
    key = (id(items), id(d))
    hit = store.get(key)
    if hit is None or hit[0] is not items or hit[1] is not d:
        at = None
        et = getattr(d, "elem_type", None)
        if isinstance(et, TupleType) and not (isinstance(items.elem_type, TupleType) and items.elem_type.name == et.name):
            pass  # (a tuple of another type, or cells of no one type: the general lookup checks each)
        elif isinstance(d, OplRange):
            if all(type(x) is int for x in items):
                x = np.fromiter(items, dtype=np.int64, count=len(items))
                if not len(x) or (x.min() >= d.lo and x.max() <= d.hi):
                    at = x - d.lo
        elif isinstance(d, OplSet) and all(type(x) is not bool for x in items):
            where = d.positions()
            try:
                at = np.fromiter((where[x] for x in items), dtype=np.int64, count=len(items))
            except (KeyError, TypeError):
                at = None
        hit = (items, d, at)
        store[key] = hit
    return hit[2]


def _cells(sub: Any, node: A.Expr) -> tuple:
    """(the cells' items, offsets and lengths (:func:`cell_layout`, :func:`field_layout`), each current
    iteration's cell) of ``node``: ``S[e...]``, an array of sets indexed over the bound iterators, or
    ``t.f``, a bound iterator's tuple's set-valued field (``t2 in t1.succs``: one cell per tuple);
    ``_Fallback`` where it is neither."""
    if isinstance(node, A.Field) and isinstance(node.base, A.Name) and node.base.id in sub.iters:
        domain, cell = sub.iters[node.base.id]
        layout = field_layout(sub.cache, domain, node.name)
        if layout is None:
            raise _Fallback()
        return layout + (cell,)
    if not isinstance(node, A.Index):
        raise _Fallback()
    base, idx = _flatten_index(node)
    arr = sub._global(base)
    if not isinstance(arr, OplArray) or len(idx) != len(arr.dims):
        raise _Fallback()
    layout = cell_layout(sub.cache, arr)
    if layout is None:
        raise _Fallback()
    shape = tuple(len(d) for d in arr.dims)
    where = [np.broadcast_to(np.asarray(p, dtype=np.int64), (sub.size,)) for p in sub.positions(arr.dims, idx)]
    cell = np.ravel_multi_index(tuple(where), shape) if shape else np.zeros(sub.size, dtype=np.int64)
    return layout + (cell,)


def bind_cells(sub: Any, b: A.Binder) -> None:
    """Bind ``b`` (``a in S[e...]`` with ``S`` an array of sets and ``e`` over the bound iterators, or
    ``a in t.f`` with ``t`` a bound iterator over tuples whose field ``f`` is a set) in the iteration
    space ``sub``: each current iteration iterates its own cell, laid out as offsets into the cells'
    elements (:func:`_cells`), never cells times elements; then ``b``'s filter."""
    items, offsets, lens, cell = _cells(sub, b.domain)
    counts = lens[cell]
    total = int(counts.sum())
    budget = sub.ev.inst.budget
    budget.refuse_size(total, sub.owner)
    budget.charge(total, sub.owner)
    sub.scanned += total
    before = np.cumsum(counts) - counts
    offset = np.arange(total, dtype=np.int64) - np.repeat(before, counts)
    sub.iters = {k: (d, np.repeat(p, counts)) for k, (d, p) in sub.iters.items()}
    sub.iters[b.patterns[0].name] = (items, np.repeat(offsets[cell], counts) + offset)
    sub.size = total
    if b.filter is not None and total:
        mask = sub.cond(b.filter)
        sub.iters = {k: (d, p[mask]) for k, (d, p) in sub.iters.items()}
        sub.size = int(mask.sum())


def cell_member(sub: Any, n: A.Binary) -> np.ndarray:
    """``e in S[idx]`` (or ``not in``) at every iteration of ``sub``, ``S`` an array of sets and ``idx`` over
    the iterators (``sum(j in I : j in nb[i] && j != i)``, ``x[i][j] * (j in nb[i])``): each iteration's
    own cell (:func:`_cells`). The row path's ``v in cell`` looks ``v`` up in the cell's dict (a range's
    ints likewise), so the values and the cells' elements are coded with one dict, and each iteration's
    (cell, code) is looked up among the cells' with ``searchsorted``. Only ints, floats (not NaN) and
    strings; anything else raises ``_Fallback``. A set literal of the iterators (``j not in {i, i + 1}``):
    :func:`_literal_member`."""
    if isinstance(n.right, A.SetLit):
        return _literal_member(sub, n)
    items, offsets, lens, cell = _cells(sub, n.right)
    v = sub.data(n.left)
    inum = _numbers(items)
    if inum is not None and v.num is not None:  # numbers on both sides: float64 equality is the dict's
        x = np.broadcast_to(v.num, (sub.size,))
        if np.isnan(x).any():
            raise _Fallback()
        uniq = np.unique(inum)
        item_code = np.searchsorted(uniq, inum)
        at = np.minimum(np.searchsorted(uniq, x), max(len(uniq) - 1, 0))
        val_code = np.where(uniq[at] == x, at, -1) if len(uniq) else np.full(sub.size, -1, dtype=np.int64)
        return _in_cells(lens, item_code, len(uniq) + 1, cell, val_code, n.op == "in")
    vals = sub.objs(v) if v.num is None else (
        np.broadcast_to(v.num, (sub.size,)).astype(np.int64).tolist() if v.exact_int
        else np.broadcast_to(v.num, (sub.size,)).tolist())
    plain = (int, float, str)
    if not (all(type(u) in plain for u in items) and all(type(u) in plain for u in vals)) \
            or any(u != u for u in items) or any(u != u for u in vals):
        raise _Fallback()
    codes: dict = {}
    item_code = np.fromiter((codes.setdefault(u, len(codes)) for u in items), dtype=np.int64, count=len(items))
    val_code = np.fromiter((codes.get(u, -1) for u in vals), dtype=np.int64, count=len(vals))
    return _in_cells(lens, item_code, len(codes) + 1, cell, val_code, n.op == "in")


def _literal_member(sub: Any, n: A.Binary) -> np.ndarray:
    """``e in {a, b, ...}`` (or ``not in``) with the literal's elements over the iterators, at every iteration:
    the row path makes the set of the values and looks ``e`` up in its dict, which for ints, floats
    (not NaN) and strings is ``e == a or e == b ...`` (``2.0`` finds ``2``; a number never equals a
    string); each compared over the whole space. Anything else raises ``_Fallback``."""
    v = sub.data(n.left)
    found = np.zeros(sub.size, dtype=bool)
    for item in n.right.items:
        w = sub.data(item)
        a, b = sub._numeric_or_none(v), sub._numeric_or_none(w)
        if a is not None and b is not None:
            x, y = np.broadcast_to(sub.num(v), (sub.size,)), np.broadcast_to(sub.num(w), (sub.size,))
            if np.isnan(x).any() or np.isnan(y).any():
                raise _Fallback()
            found |= x == y
            continue
        xs, ys = sub.objs(v), sub.objs(w)
        if not (all(type(u) is str for u in xs) and all(type(u) is str for u in ys)):
            raise _Fallback()
        found |= np.fromiter((p == q for p, q in zip(xs, ys)), dtype=bool, count=sub.size)
    return found if n.op == "in" else ~found


def _numbers(items: Any) -> np.ndarray | None:
    """The cells' elements as float64 when all are ints below 2**53 or floats (not NaN), else None; made
    once per layout."""
    got = items.__dict__.get("numbers", False)
    if got is False:
        got = None
        if all(type(u) is int or type(u) is float for u in items):
            a = np.array(items, dtype=np.float64)
            if not np.isnan(a).any() and not (len(a) and np.abs(a).max() >= 2.0 ** 53):
                got = a
        items.numbers = got
    return got


def _in_cells(lens: np.ndarray, item_code: np.ndarray, width: int, cell: np.ndarray, val_code: np.ndarray,
              member: bool) -> np.ndarray:
    """Whether code ``val_code[r]`` (-1: none) is among the codes of cell ``cell[r]`` (the cells' elements
    coded ``item_code``, cell after cell, ``lens`` each); its negation where not ``member``."""
    if len(lens) * width >= 2 ** 62:
        raise _Fallback()
    keys = np.sort(np.repeat(np.arange(len(lens), dtype=np.int64), lens) * width + item_code)
    want = cell * width + val_code
    at = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
    found = (val_code >= 0) & (keys[at] == want) if len(keys) else np.zeros(len(cell), dtype=bool)
    return found if member else ~found


def bind_matches(sub: Any, name: str, domain: Any, sorted_groups: tuple, x: np.ndarray) -> None:
    """Bind ``name`` to the items of ``domain`` whose value equals ``x`` at each iteration (in the
    domain's order), with ``searchsorted`` over the distinct values: the dict lookups of
    :meth:`VectorCache.group` for a whole array at once (``==`` on float64: 3.0 finds 3, -0.0 finds
    0.0, NaN finds nothing)."""
    uniq, starts, ends, order = sorted_groups
    x = np.asarray(x, dtype=np.float64)
    if len(x) == len(uniq) and np.array_equal(x, uniq):  # each distinct value once, in order (`forall(k in
        counts = ends - starts  # Tasks)` over a field holding every task): the matches are `order` itself
        sub.iters = _repeated(sub.iters, counts)
        sub.iters[name] = (domain, order)
        sub.size = len(order)
        return
    at = np.minimum(np.searchsorted(uniq, x), len(uniq) - 1)
    counts = np.where(uniq[at] == x, ends[at] - starts[at], 0)
    total = int(counts.sum())
    before = np.cumsum(counts) - counts  # where each iteration's matches start in the result
    offset = np.arange(total, dtype=np.int64) - np.repeat(before, counts)
    sub.iters = _repeated(sub.iters, counts)
    sub.iters[name] = (domain, order[np.repeat(starts[at], counts) + offset])
    sub.size = total


def _repeated(iters: dict, counts: np.ndarray) -> dict:
    """``iters`` with each iteration's positions repeated ``counts`` times (its matches in a join); an
    array of positions equal to one already repeated (a ``forall``'s iterator over ``1..n`` and the rows
    ``$row``, both ``0..n-1``) shares that one's result (positions are never written to in place)."""
    out: dict = {}
    made: list = []
    for k, (d, p) in iters.items():
        for q, r in made:
            if q is p or (len(q) == len(p) and q.dtype == p.dtype and np.array_equal(q, p)):
                out[k] = (d, r)
                break
        else:
            r = np.repeat(p, counts)
            made.append((p, r))
            out[k] = (d, r)
    return out
