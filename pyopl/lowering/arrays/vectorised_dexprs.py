"""Every cell of a ``dexpr`` array at once, with the array rows' machinery (issue 31).

``dexpr float inflow[v in Nodes] = sum(a in Arcs : a.dst == v) flow[a];`` has one linear form per
node; :func:`bulk_dexpr` builds them all in one pass (the cells as the rows of a family, see
:mod:`pyopl.lowering.arrays.vectorised_rows`), instead of one evaluation per cell. It applies where the
definition is a chain of sums and linear terms that the row families take, the dimensions bind plain
names, no coefficient is zero and no column repeats in a cell (each of
these has its own fold on the one-by-one path); otherwise it returns None and the cells are evaluated
one by one (as are the cells without decision terms).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterator

import numpy as np

from ...semantics.values import ProductKeys
from ...syntax import ast as A
from ..forms.linear import LinExpr
from ..forms.symbols import DexprArray
from .array_types import one_number


def bulk_dexpr(inst: Any, arr: DexprArray) -> "DexprCells | None":
    """``{key: LinExpr}`` for every cell of ``arr`` in key order (a :class:`DexprCells`, whose forms are
    made when read), or None (then evaluate cell by cell)."""
    from .vectorised import NOT_COVERED, _Small, vector_cache
    from .vectorised_rows import MIN_ROWS, _Rows, _distinct_per_row, _layout, _names, _side_fits

    decl = arr.decl
    names = [d.var for d in decl.dims]
    if any(d.var is None or d.pattern is not None for d in decl.dims) or len(set(names)) != len(names):
        return None
    if not _side_fits(decl.expr, set(names), set(names)):
        return None
    symbols = inst.symbols
    if not any(symbols.get(n) is not None and symbols[n].kind == "dvar" for n in _names(decl.expr)):
        return None
    ev = inst.ev
    rows = _Rows(ev, vector_cache(ev), None, {})
    rows.space.owner = decl
    try:
        with np.errstate(all="ignore"):
            for d, dim in zip(decl.dims, arr.dims):
                rows.space._bind(_binder(d))
                if rows.space.iters[d.var][0] is not dim and list(rows.space.iters[d.var][0]) != list(dim):
                    return None
            m = rows.space.size
            if m < MIN_ROWS:
                return None
            parts, const = rows._side(decl.expr, 1.0)
            indptr, coef, col = _layout(parts, m)
    except (_Small,) + NOT_COVERED:
        return None
    one = one_number(coef)  # (`sum(...) x[p]`: 1.0 in every entry, a view of one number)
    if not len(coef) or (one == 0.0 if one is not None else np.any(coef == 0.0)) or not _distinct_per_row(indptr, col):
        return None
    if not (bool(np.isfinite(one)) if one is not None else np.all(np.isfinite(coef))) or not np.all(np.isfinite(const)):
        return None
    # the cells' own arrays (_layout's may be a term's); a view of one number is kept as it is (read-only)
    coef, col = coef if one is not None else np.array(coef), np.array(col)
    keys = ProductKeys(list(arr.dims))
    if len(keys) != m:
        return None
    consts = np.broadcast_to(const, (m,))
    # a cell without decision terms (an empty sum) is evaluated as written, now: its value is data
    empty = {keys[i]: inst.dexpr_value(arr, keys[i], decl) for i in np.flatnonzero(indptr[1:] == indptr[:-1]).tolist()}
    return DexprCells(keys, indptr, col, coef, consts, empty)


class DexprCells(Mapping):
    """``{key: LinExpr}`` of a dexpr array's cells made by :func:`bulk_dexpr`, in key order, each
    ``LinExpr`` made when it is read (the IR keeps every dexpr's forms for the values reported after a
    solve; making 64,000 of them for every compile cost 0.8 s in issue 31's model).  The cell of
    ``keys[i]`` is ``sum(coef[j] * x[col[j]] for j in indptr[i]:indptr[i + 1]) + consts[i]`` with
    Python ints and floats, as the one-by-one path makes it; ``empty`` holds the cells without
    decision terms (evaluated as written when the cells were made)."""

    def __init__(self, keys: Any, indptr: np.ndarray, col: np.ndarray, coef: np.ndarray, consts: np.ndarray,
                 empty: dict):
        self._keys, self._arrays, self._empty = keys, (indptr, col, coef, consts), empty
        self._lists: tuple | None = None  # the arrays as Python lists, on first read
        self._index: dict | None = None  # key -> position, on first lookup

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator:
        return iter(self._keys)

    def __getitem__(self, key: Any) -> Any:
        if self._index is None:
            self._index = {k: i for i, k in enumerate(self._keys)}
        return self._cell(self._index[key], key)

    def items(self) -> Any:
        return ((k, self._cell(i, k)) for i, k in enumerate(self._keys))

    def values(self) -> Any:
        return (form for _k, form in self.items())

    def _cell(self, i: int, key: Any) -> Any:
        if self._lists is None:
            self._lists = tuple(a.tolist() for a in self._arrays)
        bounds, cols, coefs, consts = self._lists
        a, b = bounds[i], bounds[i + 1]
        if a == b:
            return self._empty[key]
        return LinExpr(dict(zip(cols[a:b], coefs[a:b])), consts[i])


def _binder(d: A.Dim) -> A.Binder:
    return A.Binder(d.span, [A.Pattern(d.span, name=d.var)], d.domain)
