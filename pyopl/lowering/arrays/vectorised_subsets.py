"""Computed arrays of subsets, and row families filtered by membership in them, with NumPy.

Subtour-elimination models declare an array of subsets and a row per subset::

    {int} S[k in K] = {i | i in Nodes : (k div ftoi(pow(2, ord(Nodes, i)))) mod 2 == 1};
    forall(k in K)
      sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;

One element at a time, the declaration evaluates its filter ``card(K) * card(Nodes)`` times
and each row runs a sum of its own (a tree walk per candidate, then NumPy per row: 0.5 ms a
row).  This module does both over whole arrays:

- :func:`vector_set_array`: ``{T} S[k in K]... = {i | i in D : filter}`` (``T`` ``int`` or
  ``string``, ``D`` free of the dimensions' names) evaluates the filter over the grid of
  every key and every element of ``D`` at once (:class:`~pyopl.lowering.arrays.vectorised._Sum`'s
  data machinery, with :mod:`.vectorised_calls` for ``div``, ``mod``, ``ord``, ...), and
  keeps the grid as the array's membership mask;
- :func:`vector_number_array`: ``float A[i in I][j in J] = expr;`` (or ``int``) with ``expr`` data
  over the dimensions' names (arithmetic, ``?:``, comparisons, fields, array elements, ``minl``/``maxl``,
  ...: whatever :meth:`~pyopl.lowering.arrays.vectorised._Sum.data` evaluates) over the grid of every key at
  once, kept as one float64 column (``float``) or a list of ints (``int``);
- :func:`vector_domain_bounds`: a ``dvar`` array's per-element bounds ``dvar float+ flow[a in Arcs] in
  0..a.cap`` (both ends of the range over every element at once; the element path walks the range's
  tree once per column, about 30 µs);
- :func:`subset_join`: in a ``forall`` row family (:mod:`.vectorised_rows`), a sum's first
  binder whose filter combines (``&&``, ``||``, ``!``) conditions on the rows' iterators
  only, conditions on the binder only, and memberships ``f(e) in A[rows' iterators]`` of
  the binder (or its field) in an array of sets, is bound from a grid of rows by domain
  elements, evaluated a block of rows at a time (the memberships read from the array's
  mask), so no per-row evaluation and no rows-times-domain index arrays.

Exactness: the sets hold the elements the comprehension would pick, in the domain's
order, as :class:`OplSet` objects of the declared element type; a membership read from
the mask is the dict lookup ``OplSet.__contains__`` makes (values are ints below 2**53,
strings, non-NaN floats or tuples).  Anything else, and any value that would raise one by
one, returns None/False and the one-by-one path runs and reports what it reports.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...data.convert import SetOf, convert_scalar
from ...semantics.values import FloatColumn, OplArray, OplSet, OplTuple, infer_elem_type
from ...syntax import ast as A
from .vectorised import NOT_COVERED, EXACT, _Fallback, _flatten_index, _names, _Sum, vector_cache
from .vectorised import _walk as _walk_nodes
from .vectorised_calls import set_values

MIN_ELEMENTS = 2  # one element: the element path is as fast
MAX_GRID = 50_000_000  # cells of a declaration's grid, or of a membership mask, taken in arrays
BLOCK_CELLS = 1 << 21  # cells of a row family's filter grid evaluated at once (bounded memory)


# ---------------------------------------------------------------------- the declaration
def vector_number_array(inst: Any, d: A.ParamDecl, typ: Any, dims: list[Any]) -> OplArray | None:
    """The value of the generic ``float`` or ``int`` array ``d`` (see the module) over the grid of its keys,
    equal to what the element path builds; None when its shape or data are not covered (nothing is
    spent then, and the element path runs and reports what it reports).

    Exactness: each cell goes through the IEEE operations the Evaluator makes for it; ``int`` cells are
    exact integers (anything else: None); a ``float`` cell that is an exact integer is made as
    ``float(int)`` is, so no ``-0.0`` where the element path converts the int ``0``."""
    if typ not in ("float", "int") or not dims or not all(dim.var is not None for dim in d.dims):
        return None
    dim_names = [dim.var for dim in d.dims]
    total = math.prod(len(x) for x in dims)
    if len(set(dim_names)) != len(dim_names) or total < MIN_ELEMENTS or total > MAX_GRID:
        return None
    from .vectorised import _linear_shape  # (the shapes the data machinery walks)

    if not _linear_shape(d.init) or any(isinstance(x, A.Aggregate) for x in _walk_nodes(d.init)):
        return None
    space = grid_space(inst, d.dims, dims, d.init)
    try:
        with np.errstate(all="ignore"):
            v = space.data(d.init)
            num = np.array(np.broadcast_to(space.num(v), (total,)), dtype=np.float64)
    except NOT_COVERED:
        return None
    if v.exact_int:
        if np.any(np.abs(num) > EXACT):
            return None
        if typ == "int":
            return OplArray(d.name, dims, flat=num.astype(np.int64).tolist())
        num += 0.0  # (-0.0 + 0.0 is 0.0: float(0) has no sign)
    elif typ == "int" or not np.all(np.isfinite(num)):
        return None  # a float for an int (its words), inf/nan (the element path's checks)
    num.flags.writeable = False
    return OplArray(d.name, dims, flat=FloatColumn(num), flat_floats=True)


def grid_space(inst: Any, dim_nodes: list[A.Dim], dims: list[Any], owner: Any) -> _Sum:
    """An iteration space over every key of a declaration's dimensions (the first slowest, as
    ``ProductKeys`` orders them): each dimension's name (``$dimK`` where it has none) bound to its
    positions, for :meth:`~pyopl.lowering.arrays.vectorised._Sum.data` to evaluate an expression at every key."""
    space = _Sum(inst.ev, vector_cache(inst.ev), None, {})
    space.owner = owner
    sizes = [len(x) for x in dims]
    total = int(np.prod(sizes, dtype=np.int64))
    inner = total
    for k, (dim, domain, n) in enumerate(zip(dim_nodes, dims, sizes)):
        inner //= n
        pos = np.tile(np.repeat(np.arange(n, dtype=np.int64), inner), total // (n * inner))
        space.iters[dim.var if dim.var is not None else "$dim%d" % k] = (domain, pos)
    space.size = total
    return space


def vector_domain_bounds(inst: Any, d: A.DvarDecl, dims: list[Any], lo0: float, hi0: float
                         ) -> tuple[np.ndarray, np.ndarray] | None:
    """The lower and upper bound of every element of ``d`` (``dvar float+ flow[a in Arcs] in 0..a.cap``;
    keys in ``ProductKeys(dims)`` order), as float64 arrays equal bit for bit to what the element path
    gives; None when not covered (the element path then reports what it reports).

    The range ``lo..hi`` is an integer range (``OplRange``, ends through ``int``) unless an end is a
    non-integral float or infinite (``FloatRange``, ends kept): so an end of ``-0.0`` becomes ``0.0``
    exactly when both ends are integral and finite (see ``Evaluator.e_range``); the column's bounds
    are Python's ``max(type_lo, lo)`` and ``min(type_hi, hi)``; a NaN end is the element path's error.

    ``dims``: the evaluated index sets; ``lo0``/``hi0``: the bounds of the declared type
    (``float+``: 0 and inf)."""
    if not (isinstance(d.domain, A.RangeLit) and dims and all(dim.pattern is None for dim in d.dims)):
        return None
    total = math.prod(len(x) for x in dims)
    if total < MIN_ELEMENTS:
        return None
    space = grid_space(inst, d.dims, dims, d.domain)
    try:
        with np.errstate(all="ignore"):
            lo = _end(space, d.domain.lo, total)
            hi = _end(space, d.domain.hi, total)
    except NOT_COVERED:
        return None
    if np.isnan(lo).any() or np.isnan(hi).any():  # an error: the element path reports it at the element
        return None
    # an integer range (both ends integral and finite) takes its ends through int(): -0.0 becomes 0.0
    integral = np.isfinite(lo) & np.isfinite(hi) & (lo == np.floor(lo)) & (hi == np.floor(hi))
    lo = np.where(integral, lo + 0.0, lo)
    hi = np.where(integral, hi + 0.0, hi)
    lo = np.where(lo > lo0, lo, lo0)  # Python's max(lo0, lo): lo0 unless lo is greater
    hi = np.where(hi < hi0, hi, hi0)  # min(hi0, hi)
    return lo, hi


def _end(space: _Sum, n: A.Expr, total: int) -> np.ndarray:
    """One end of the range for every element, as float64 (what ``float(eval_number(...))`` gives)."""
    v = space.data(n)
    num = space.num(v)  # raises for strings, booleans and ints beyond 2**53
    return np.array(np.broadcast_to(np.asarray(num, dtype=np.float64), (total,)))


def vector_set_array(inst: Any, d: A.ParamDecl, typ: Any, dims: list[Any]) -> OplArray | None:
    """The value of the generic set array ``d`` (see the module) built from arrays, equal to what the
    element path builds; None when its shape or data are not covered (nothing is spent then).

    ``typ``: the declared type (a :class:`SetOf`); ``dims``: the evaluated index sets."""
    init = d.init
    if not (isinstance(typ, SetOf) and typ.order is None and typ.elem in ("int", "string")
            and isinstance(init, A.SetComp) and dims and all(dim.var is not None for dim in d.dims)):
        return None
    binders = init.quals.binders
    if len(binders) != 1:
        return None
    b = binders[0]
    if len(b.patterns) != 1 or b.patterns[0].name is None or b.ordered:
        return None
    name = b.patterns[0].name
    dim_names = [dim.var for dim in d.dims]
    if not (isinstance(init.value, A.Name) and init.value.id == name) or name in dim_names \
            or len(set(dim_names)) != len(dim_names) or set(_names(b.domain)) & (set(dim_names) | {name}):
        return None
    ev = inst.ev
    total = math.prod(len(x) for x in dims)
    if total < MIN_ELEMENTS:
        return None
    found = _binder_items(ev, b)
    if found is None:
        return None
    domain, cache, items = found
    kind = int if typ.elem == "int" else str
    if not all(type(x) is kind for x in items):
        return None  # (conversions to the element type: the element path makes them)
    n = len(items)
    cells = total * n
    budget = inst.budget
    if cells > MAX_GRID or cells > budget.max_work - budget.used:
        return None  # the element path counts and words the work limit where it is reached
    if b.filter is None:
        mask = np.ones((total, n), dtype=bool)
    else:
        space = _Sum(ev, cache, None, {})
        space.owner = init
        inner = total
        for dim, dom in zip(d.dims, dims):
            size = len(dom)
            inner //= size
            pos = np.repeat(np.arange(size, dtype=np.int64), inner * n)  # first dimension slowest
            space.iters[dim.var] = (dom, np.tile(pos, total // (size * inner)))
        space.iters[name] = (domain, np.tile(np.arange(n, dtype=np.int64), total))
        space.size = cells
        try:
            with np.errstate(all="ignore"):
                mask = space.cond(b.filter).reshape(total, n)
        except NOT_COVERED:
            return None
    budget.charge(cells, init)  # what the element path counts: every element of the domain, per key
    arr = OplArray(d.name, dims, flat=MaskedSets(mask, items, typ.elem))
    where = domain.positions() if isinstance(domain, OplSet) else {v: k for k, v in enumerate(items)}
    _masks(cache)[id(arr)] = (arr, where, _with_false_column(mask))
    return arr


class MaskedSets:
    """The elements of an array of sets, in key order, given by a membership mask over the items of
    one set (``mask[e, j]``: whether ``items[j]`` is in element ``e``), as an :class:`OplArray`'s
    ``flat``.  The OplSets (each in the items' order) are made when the sequence is first read;
    the array paths read the mask instead (``card`` from its row sums, ``in`` from its cells)."""

    __slots__ = ("mask", "candidates", "_elem", "_sets")

    def __init__(self, mask: np.ndarray, items: list, elem: Any):
        self.mask = mask  # bool, (elements, len(items))
        self.candidates = items  # every element of every set is one of these
        self._elem = elem
        self._sets: list | None = None

    def made(self) -> list:
        """The OplSets, made on first use."""
        if self._sets is None:
            items, make, elem = self.candidates, OplSet.distinct, self._elem
            flat = [items[c] for c in np.nonzero(self.mask)[1].tolist()]
            ends = np.cumsum(self.mask.sum(axis=1)).tolist()
            self._sets = [make(flat[a:b], elem) for a, b in zip([0] + ends[:-1], ends)]  # (distinct: from a set)
        return self._sets

    def __len__(self) -> int:
        return self.mask.shape[0]

    def __iter__(self):
        return iter(self.made())

    def __getitem__(self, k: Any) -> Any:
        return self.made()[k]


# ---------------------------------------------------------------------- membership masks
def _masks(cache: Any) -> dict:
    return cache.__dict__.setdefault("subset_masks", {})


def _with_false_column(mask: np.ndarray) -> np.ndarray:
    """The mask with one more column, all False: the code of a value in no set."""
    return np.concatenate([mask, np.zeros((mask.shape[0], 1), dtype=bool)], axis=1)


def subset_mask(cache: Any, arr: OplArray) -> tuple[dict, np.ndarray] | None:
    """(code of each value in the union of the sets, mask[element, code]) for an array of OplSets
    (elements in key order, one more all-False column for values in none); made once per array.
    None when an element is not an OplSet or the mask would be too large."""
    store = _masks(cache)
    hit = store.get(id(arr))
    if hit is None or hit[0] is not arr:
        out = None
        vals = set_values(cache, arr)
        if vals is not None and all(type(v) is OplSet for v in vals):
            where: dict = {}
            elem, code = [], []
            for e, s in enumerate(vals):
                for x in s.items():
                    elem.append(e)
                    code.append(where.setdefault(x, len(where)))
            if len(vals) * (len(where) + 1) <= MAX_GRID:
                mask = np.zeros((len(vals), len(where) + 1), dtype=bool)
                mask[np.asarray(elem, dtype=np.int64), np.asarray(code, dtype=np.int64)] = True
                out = (where, mask)
        hit = (arr, *out) if out is not None else (arr, None)
        store[id(arr)] = hit
    return None if hit[1] is None else (hit[1], hit[2])


def _plain_key(u: Any) -> bool:
    """Whether ``u in s`` is the dict lookup of ``u`` for every OplSet ``s`` (``Evaluator._membership``)."""
    t = type(u)
    if t is int:
        return abs(u) < EXACT  # (an int past 2**53 may also be looked up as a float)
    if t is float:
        return u == u  # (NaN is found by identity only)
    return t is str or t is OplTuple


# ---------------------------------------------------------------------- row families
def subset_join(rows: Any, sub: _Sum, b: A.Binder, domain: Any) -> bool:
    """Bind the first binder ``b`` of a row family's sum from a grid of rows by elements of ``domain``
    (see the module); False when its filter is not covered (then it is bound the general way).

    ``rows``: the :class:`~pyopl.lowering.arrays.vectorised_rows._Rows` being built; ``sub``: the sum's
    space, holding the rows' iterators and ``$row`` only."""
    space = rows.space
    if set(sub.iters) != set(space.iters) | {"$row"} or sub.size != space.size:
        return False
    name = b.patterns[0].name
    row_names = set(space.iters)
    if row_names.isdisjoint(_names(b.filter)):
        return False
    n, m = len(domain), space.size
    try:
        tree = _compile(rows, b.filter, name, row_names, domain, n)
    except _NotHere:
        return False
    budget = rows.ev.inst.budget  # counted as the general binding counts
    budget.refuse_size(m * n, sub.owner)
    budget.charge(m * n, sub.owner)
    sub.scanned += m * n
    block = max(1, BLOCK_CELLS // max(n, 1))
    found_rows, found_pos = [], []
    for r0 in range(0, m, block):
        r1 = min(m, r0 + block)
        g = np.broadcast_to(_grid(tree, r0, r1), (r1 - r0, n))
        rr, cc = np.nonzero(g)
        found_rows.append(rr + r0)
        found_pos.append(cc)
    at = np.concatenate(found_rows) if found_rows else np.zeros(0, np.int64)
    sub.iters = {k: (d, p[at]) for k, (d, p) in sub.iters.items()}
    sub.iters[name] = (domain, np.concatenate(found_pos) if found_pos else np.zeros(0, np.int64))
    sub.size = len(at)
    return True


class _NotHere(Exception):
    """A filter this path does not take."""


def _compile(rows: Any, f: A.Expr, name: str, row_names: set, domain: Any, n: int) -> tuple:
    """The filter as a tree of ("and"|"or", a, b), ("not", a), ("row", bool[m]), ("dom", bool[n]),
    ("member", element per row, code per domain item, mask)."""
    if isinstance(f, A.Binary) and f.op in ("&&", "||"):
        return ("and" if f.op == "&&" else "or", _compile(rows, f.left, name, row_names, domain, n),
                _compile(rows, f.right, name, row_names, domain, n))
    if isinstance(f, A.Unary) and f.op == "!":
        return ("not", _compile(rows, f.operand, name, row_names, domain, n))
    used = set(_names(f))
    if name not in used:
        return ("row", rows.space.cond(f))
    if used.isdisjoint(row_names):
        one = _Sum(rows.ev, rows.cache, None, rows.env)
        one.iters = {name: (domain, np.arange(n, dtype=np.int64))}
        one.size = n
        return ("dom", one.cond(f))
    if isinstance(f, A.Binary) and f.op in ("in", "not in"):
        left = set(_names(f.left))
        tree = _member_rows(rows, f, name, domain) if name not in left and left <= row_names \
            else _member(rows, f, name, domain)
        return tree if f.op == "in" else ("not", tree)
    raise _NotHere()


def _binder_items(ev: Any, b: A.Binder) -> tuple | None:
    """``(domain, cache, items)`` of a comprehension's binder over data free of its names: the set, the
    evaluator's vector cache and the set's elements in order; None where the set is not data here."""
    try:
        domain = ev.eval_set(b.domain, {})
    except NOT_COVERED:
        return None
    cache = vector_cache(ev)
    return domain, cache, cache.domain(domain).items


def _indexed_array(space: Any, base: Any, idx: list) -> OplArray:
    """The data array ``base`` names, indexed by all of its dimensions (``len(idx)`` of them); raises
    :class:`_NotHere` for anything else."""
    try:
        arr = space._global(base)
    except _Fallback:
        raise _NotHere()
    if not isinstance(arr, OplArray) or len(idx) != len(arr.dims):
        raise _NotHere()
    return arr


def _member_rows(rows: Any, f: A.Binary, name: str, domain: Any) -> tuple:
    """``e in A[idx]`` with ``e`` over the rows' iterators and ``idx`` over the binder only (a shift's
    periods: ``sum(s in Shifts : t in covers[s])`` in ``forall(t in Periods)``): each row's value coded
    once, each domain element's set once; the grid reads ``mask[set, code]``."""
    if not isinstance(f.right, A.Index):
        raise _NotHere()
    base, idx = _flatten_index(f.right)
    space = rows.space
    if any(not set(_names(i)) <= {name} for i in idx):
        raise _NotHere()
    arr = _indexed_array(space, base, idx)
    found = subset_mask(rows.cache, arr)
    if found is None:
        raise _NotHere()
    where, mask = found
    v = space.data(f.left)
    vals = space.objs(v) if v.num is None else (
        np.broadcast_to(v.num, (space.size,)).astype(np.int64).tolist() if v.exact_int else v.num.tolist())
    if not all(map(_plain_key, vals)):
        raise _NotHere()
    none = mask.shape[1] - 1
    code = np.fromiter((where.get(u, none) for u in vals), dtype=np.int64, count=len(vals))
    one = _Sum(rows.ev, rows.cache, None, rows.env)
    one.iters = {name: (domain, np.arange(len(domain), dtype=np.int64))}
    one.size = len(domain)
    pos = [np.broadcast_to(np.asarray(p, dtype=np.int64), (one.size,)) for p in one.positions(arr.dims, idx)]
    elem = np.ravel_multi_index(pos, tuple(len(dm) for dm in arr.dims)) if len(pos) > 1 else pos[0]
    return ("cell_has_row", code, elem, mask)


def _member(rows: Any, f: A.Binary, name: str, domain: Any) -> tuple:
    """``e in A[idx]`` / ``e.f in A[idx]`` with ``idx`` over the rows' iterators and ``A`` an array of sets."""
    left = f.left
    if isinstance(left, A.Name) and left.id == name:
        field = None
    elif isinstance(left, A.Field) and isinstance(left.base, A.Name) and left.base.id == name:
        field = left.name
    else:
        raise _NotHere()
    if not isinstance(f.right, A.Index):
        raise _NotHere()
    base, idx = _flatten_index(f.right)
    if any(name in _names(i) for i in idx):
        raise _NotHere()
    space = rows.space
    arr = _indexed_array(space, base, idx)
    coded = rows.cache.codes(domain, field)
    found = subset_mask(rows.cache, arr)
    if coded is None or found is None:
        raise _NotHere()
    where, mask = found
    uniq, codes = coded
    if not all(map(_plain_key, uniq)):
        raise _NotHere()
    none = mask.shape[1] - 1
    ucode = np.fromiter((where.get(u, none) for u in uniq), dtype=np.int64, count=len(uniq))
    shape = tuple(len(dm) for dm in arr.dims)
    pos = [np.broadcast_to(np.asarray(p, dtype=np.int64), (space.size,)) for p in space.positions(arr.dims, idx)]
    elem = np.ravel_multi_index(pos, shape) if len(pos) > 1 else pos[0]
    if len(elem) == mask.shape[0] and np.array_equal(elem, np.arange(len(elem))):
        elem = None  # row r reads element r (`forall(k in K) ... S[k]`): slices, no gather
    return ("member", elem, ucode[codes], mask)


def _grid(t: tuple, r0: int, r1: int) -> np.ndarray:
    """The filter's truth values for rows ``r0:r1`` (broadcastable to (rows, domain))."""
    op = t[0]
    if op == "and":
        return _grid(t[1], r0, r1) & _grid(t[2], r0, r1)
    if op == "or":
        return _grid(t[1], r0, r1) | _grid(t[2], r0, r1)
    if op == "not":
        return ~_grid(t[1], r0, r1)
    if op == "row":
        return t[1][r0:r1, None]
    if op == "dom":
        return t[1][None, :]
    if op == "cell_has_row":  # (rows' value codes, domain's sets)
        return mask_rows(t[3], t[2], t[1][r0:r1])
    _op, elem, code, mask = t
    rows = mask[r0:r1] if elem is None else mask[elem[r0:r1]]  # the rows' sets, then the domain's columns
    return np.take(rows, code, axis=1)


def mask_rows(mask: np.ndarray, elem: np.ndarray, code: np.ndarray) -> np.ndarray:
    """``mask[elem[j], code[r]]`` for every row ``r`` (of ``code``) and domain element ``j`` (of ``elem``)."""
    return mask[elem][:, code].T


# ---------------------------------------------------------------------- grouped by a field
def vector_grouped_sets(inst: Any, d: A.ParamDecl, typ: Any, dims: list[Any]) -> OplArray | None:
    """``{T} S[n in N] = {a | a in D : a.f == n}`` (or ``{a.g | ...}``, ``n == a.f``, ``a == n``, and any
    data expression of the element on either side: ``src[a] == n``, ``{dst[a] | ...}``):
    every element of ``D`` put in the cell of its key in one pass (a group-by: each key's
    elements in ``D``'s order), instead of the filter evaluated for every key and every element
    (about 1 ms a cell for 2,000 arcs).  Each cell is then the set the element path makes
    (``OplSet`` of the picked values, first of equal values kept) converted to ``T`` as the element
    path converts it; equality of the key expression and the key is the dict lookup (ints and strings
    only, so ``==`` and hashing agree).  An expression of the element is evaluated over all of ``D``
    at once (:meth:`~pyopl.lowering.arrays.vectorised._Sum.data`: exact integers or strings only).
    None when not of this shape (nothing spent then); the work counted is the element path's, every
    element of ``D`` per key."""
    init = d.init
    if not (isinstance(typ, SetOf) and isinstance(init, A.SetComp) and len(d.dims) == 1 and d.dims[0].var
            and len(init.quals.binders) == 1):
        return None
    b = init.quals.binders[0]
    if len(b.patterns) != 1 or b.patterns[0].name is None or b.ordered or b.filter is None:
        return None
    name, key = b.patterns[0].name, d.dims[0].var
    f = b.filter
    if not (isinstance(f, A.Compare) and f.ops == ["=="] and len(f.operands) == 2) or name == key \
            or set(_names(b.domain)) & {name, key}:
        return None
    left, right = f.operands
    if isinstance(left, A.Name) and left.id == key:
        left, right = right, left
    if not (isinstance(right, A.Name) and right.id == key) or key in _names(left) or key in _names(init.value):
        return None
    ev = inst.ev
    found = _binder_items(ev, b)
    if found is None:
        return None
    domain, cache, items = found
    total, n = len(dims[0]), len(items)
    budget = inst.budget
    if total < MIN_ELEMENTS or total * n > budget.max_work - budget.used:
        return None  # the element path counts and words the work limit where it is reached
    keys = _element_values(ev, cache, domain, items, left, name, init)
    vals = _element_values(ev, cache, domain, items, init.value, name, init)
    if keys is None or vals is None:
        return None
    names = list(dims[0])
    if not _plain_keys(keys) or not _plain_keys(names):
        return None
    groups: dict = {}
    for k, v in zip(keys, vals):
        groups.setdefault(k, []).append(v)
    budget.charge(total * n, init)
    data = {}
    for k in names:
        picked = groups.get(k, [])
        budget.hold(len(picked), init)
        data[(k,)] = convert_scalar(OplSet(picked, infer_elem_type(picked)), typ, d.name, init.span)
    return OplArray(d.name, dims, data)


def _element_values(ev: Any, cache: Any, domain: Any, items: list, n: A.Expr, name: str, owner: Any) -> list | None:
    """The values of ``n`` for each element ``name`` of ``domain`` (``items``), as the element path makes
    them: the element itself, its field, or a data expression of it evaluated over all elements at once
    (exact integers, as Python ints, or strings only); None when not covered (any error included: the
    element path then evaluates it and words what goes wrong)."""
    own = _own_field(n, name)
    if own is None:
        return items
    if own is not False:
        if not all(isinstance(x, OplTuple) for x in items):
            return None
        try:  # (a field the tuples lack: the element path words it)
            return [x.field(own) for x in items]
        except (ValueError, AttributeError, TypeError):
            return None
    if len(items) < MIN_ELEMENTS:
        return None
    space = _Sum(ev, cache, None, {})
    space.owner = owner
    space.iters[name] = (domain, np.arange(len(items), dtype=np.int64))
    space.size = len(items)
    try:
        with np.errstate(all="ignore"):
            v = space.data(n)
            if v.is_scalar or v.iter is not None:
                return None  # (a constant, or another set's element: rare, the element path)
            if v.objs is not None:
                vals = list(v.objs)
                return vals if all(type(x) is str for x in vals) else None
            num = np.broadcast_to(space.num(v), (len(items),))
    except NOT_COVERED:
        return None
    if not v.exact_int:
        return None
    return num.astype(np.int64).tolist()


def _own_field(n: A.Expr, name: str) -> Any:
    """None for ``name`` itself, the field's name for ``name.f``, False for anything else."""
    if isinstance(n, A.Name) and n.id == name:
        return None
    if isinstance(n, A.Field) and isinstance(n.base, A.Name) and n.base.id == name:
        return n.name
    return False


def _plain_keys(vals: list) -> bool:
    """All ints (not bools) or all strings: ``==`` between them is what a dict lookup finds."""
    kinds = set(map(type, vals))
    return kinds <= {int} or kinds <= {str}
