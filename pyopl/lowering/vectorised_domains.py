"""Per-element bounds of a ``dvar`` array from arrays: ``dvar float+ flow[a in Arcs] in 0..a.cap``.

A generic ``dvar`` whose domain reads its own index (``in lo..hi`` with ``lo``/``hi`` over the
dimension names) is otherwise lowered one element at a time: an expression-tree walk of the range
per column (about 30 µs).  Here both ends are evaluated once over all elements with the data
machinery of :mod:`pyopl.lowering.vectorised` (tuple fields as columns, data arrays as dense
copies), and the bounds are made as the element path makes them:

- the range ``lo..hi`` is an integer range (``OplRange``, ends through ``int``) unless an end is a
  non-integral float or infinite (``FloatRange``, ends kept): so an end of ``-0.0`` becomes ``0.0``
  exactly when both ends are integral and finite (see ``Evaluator.e_range``);
- the column's bounds are Python's ``max(type_lo, lo)`` and ``min(type_hi, hi)`` (the first
  argument unless the second is strictly beyond it).  A NaN end is an error (``value-out-of-range``,
  never the type's bound): the element path reports it with the element's index.

Only dimensions ``[S]`` and ``[i in S]`` and a domain written as a range literal are taken; anything
the array evaluation does not cover (strings, booleans, ints beyond 2**53, division by zero, a
missing array element) returns None, and the declaration is lowered element by element, reporting
exactly what it reported before.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..syntax import ast as A
from .vectorised import NOT_COVERED, _Sum, vector_cache

MIN_ELEMENTS = 2  # one element: the element path is as fast


def vector_domain_bounds(inst: Any, d: A.DvarDecl, dims: list[Any], lo0: float, hi0: float
                         ) -> tuple[np.ndarray, np.ndarray] | None:
    """The lower and upper bound of every element of ``d`` (keys in ``ProductKeys(dims)`` order), as
    float64 arrays equal bit for bit to what the element path gives; None when not covered.

    ``dims``: the evaluated index sets; ``lo0``/``hi0``: the bounds of the declared type
    (``float+``: 0 and inf)."""
    if not (isinstance(d.domain, A.RangeLit) and dims and all(dim.pattern is None for dim in d.dims)):
        return None
    sizes = [len(x) for x in dims]
    total = int(np.prod(sizes, dtype=np.int64))
    if total < MIN_ELEMENTS:
        return None
    space = _Sum(inst.ev, vector_cache(inst.ev), None, {})
    inner = total
    for k, (dim, domain, n) in enumerate(zip(d.dims, dims, sizes)):
        inner //= n
        pos = np.tile(np.repeat(np.arange(n, dtype=np.int64), inner), total // (n * inner))  # first dim slowest
        space.iters[dim.var if dim.var is not None else "$dim%d" % k] = (domain, pos)
    space.size = total
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
