"""Every cell of a ``dexpr`` array at once, with the array rows' machinery (issue 31).

``dexpr float inflow[v in Nodes] = sum(a in Arcs : a.dst == v) flow[a];`` has one linear form per
node; :func:`bulk_dexpr` builds them all in one pass (the cells as the rows of a family, see
:mod:`pyopl.lowering.vectorised_rows`), instead of one evaluation per cell. It applies where the
definition is a chain of sums and linear terms that the row families take, the dimensions bind plain
names, no coefficient is zero and no column repeats in a cell (each of
these has its own fold on the one-by-one path); otherwise it returns None and the cells are evaluated
one by one (as are the cells without decision terms).
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..syntax import ast as A
from .linear import LinExpr
from .symbols import DexprArray


def bulk_dexpr(inst: Any, arr: DexprArray) -> dict | None:
    """``{key: LinExpr}`` for every cell of ``arr`` in key order, or None (then evaluate cell by cell)."""
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
    if not len(coef) or np.any(coef == 0.0) or not _distinct_per_row(indptr, col):
        return None
    if not (np.all(np.isfinite(coef)) and np.all(np.isfinite(const))):
        return None
    keys = list(itertools.product(*[list(d) for d in arr.dims]))
    if len(keys) != m:
        return None
    bounds, cols, coefs = indptr.tolist(), col.tolist(), coef.tolist()
    consts = np.broadcast_to(const, (m,)).tolist()
    out = {}
    for i, k in enumerate(keys):
        a, b = bounds[i], bounds[i + 1]
        # a cell without decision terms (an empty sum) is evaluated as written: its value is data
        out[k] = LinExpr(dict(zip(cols[a:b], coefs[a:b])), consts[i]) if b > a else inst.dexpr_value(arr, k, decl)
    return out


def _binder(d: A.Dim) -> A.Binder:
    return A.Binder(d.span, [A.Pattern(d.span, name=d.var)], d.domain)
