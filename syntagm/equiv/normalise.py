"""Normalisation of a :class:`~.problem.Problem`: transformations that keep the set of optimal
solutions (projected on the remaining columns) and the optimal value, so that two formulations
of one model come out the same before their structure is matched.

Each step is applied until none changes anything; every change is logged in words (the
evidence :func:`.compare.compare_models` reports):

1. integer columns get integral bounds (``ceil(lb)``, ``floor(ub)``);
2. a column fixed by its bounds (``lb == ub``) is substituted by its value;
3. a row with one nonzero becomes a bound of its column;
4. an empty or free row is dropped (an empty row that cannot hold makes the problem infeasible: noted);
5. a continuous column that appears in exactly one row, an equality, is an auxiliary variable
   defined by it (``profit == 3x + 2y``): it is substituted out of the objective, and the row
   becomes the column's bounds expressed on the rest of the row;
6. a column in no row and with a zero objective coefficient is dropped (any value in its bounds
   does);
7. a row proved redundant by LP is dropped: each finite side ``a x <= u`` whose maximum over the
   LP relaxation of the other rows and the bounds is at most ``u`` (and likewise for ``>=``).
   The LP relaxation contains the integer feasible set, so a row redundant for it is redundant
   for the problem.  At most :data:`MAX_LP_ROWS` rows are tested.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .problem import Problem

TOL = 1e-9
#: the most rows tested for LP redundancy (one or two LPs each)
MAX_LP_ROWS = 400


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def _drop_cols(p: Problem, keep: np.ndarray) -> Problem:
    return replace(p, c=p.c[keep], A=p.A[:, keep], lb=p.lb[keep], ub=p.ub[keep], integer=p.integer[keep],
                   names=[nm for nm, k in zip(p.names, keep) if k])


def _drop_rows(p: Problem, keep: np.ndarray) -> Problem:
    return replace(p, A=p.A[keep], rl=p.rl[keep], ru=p.ru[keep], row_names=[nm for nm, k in zip(p.row_names, keep) if k])


def _round_integer_bounds(p: Problem, log: list[str]) -> Problem:
    lb, ub = p.lb.copy(), p.ub.copy()
    with np.errstate(invalid="ignore"):
        lb[p.integer] = np.ceil(lb[p.integer] - 1e-9)
        ub[p.integer] = np.floor(ub[p.integer] + 1e-9)
    return replace(p, lb=lb, ub=ub)


def _substitute_fixed(p: Problem, log: list[str]) -> Problem:
    fixed = np.isfinite(p.lb) & (np.abs(p.ub - p.lb) <= TOL * np.maximum(1.0, np.abs(p.lb)))
    if not fixed.any():
        return p
    v = np.where(fixed, p.lb, 0.0)
    shift = p.A @ v
    for j in np.flatnonzero(fixed):
        log.append(f"substituted {p.names[j]} = {p.lb[j]:g} (fixed by its bounds)")
    p = replace(p, rl=p.rl - shift, ru=p.ru - shift, c0=p.c0 + float(p.c @ v))
    return _drop_cols(p, ~fixed)


def _singleton_rows(p: Problem, log: list[str]) -> Problem:
    nnz = (p.A != 0).sum(axis=1)
    single = np.flatnonzero(nnz == 1)
    if not len(single):
        return p
    lb, ub = p.lb.copy(), p.ub.copy()
    for i in single:
        j = int(np.flatnonzero(p.A[i])[0])
        a = p.A[i, j]
        lo, hi = (p.rl[i] / a, p.ru[i] / a) if a > 0 else (p.ru[i] / a, p.rl[i] / a)
        lb[j], ub[j] = max(lb[j], lo), min(ub[j], hi)
        log.append(f"row {p.row_names[i]} became a bound of {p.names[j]}")
    keep = np.ones(p.m, dtype=bool)
    keep[single] = False
    return _drop_rows(replace(p, lb=lb, ub=ub), keep)


def _empty_and_free_rows(p: Problem, log: list[str]) -> Problem:
    empty = ~(p.A != 0).any(axis=1)
    free = ~np.isfinite(p.rl) & ~np.isfinite(p.ru)
    drop = empty | free
    for i in np.flatnonzero(empty):
        if p.rl[i] > TOL * max(1.0, abs(p.rl[i])) or p.ru[i] < -TOL * max(1.0, abs(p.ru[i])):
            p.notes.append(f"row {p.row_names[i]} has no variables and cannot hold: the problem is infeasible")
    for i in np.flatnonzero(free & ~empty):
        log.append(f"dropped row {p.row_names[i]} (no finite side)")
    return _drop_rows(p, ~drop) if drop.any() else p


def _eliminate_auxiliary(p: Problem, log: list[str]) -> Problem:
    nz = p.A != 0
    count = nz.sum(axis=0)
    used_rows: set[int] = set()
    for j in range(p.n):
        if p.integer[j] or count[j] != 1:
            continue
        i = int(np.flatnonzero(nz[:, j])[0])
        if i in used_rows or not (np.isfinite(p.rl[i]) and _close(p.rl[i], p.ru[i])):
            continue
        a, b = p.A[i, j], p.rl[i]
        rest = p.A[i].copy()
        rest[j] = 0.0
        # x_j = (b - rest x) / a  ⇒  objective c_j x_j = c_j b / a - (c_j / a) rest x
        c = p.c - (p.c[j] / a) * rest
        c[j] = 0.0
        c0 = p.c0 + p.c[j] * b / a
        # lb_j <= (b - rest x) / a <= ub_j  on rest x
        if a > 0:
            lo, hi = b - a * p.ub[j], b - a * p.lb[j]
        else:
            lo, hi = b - a * p.lb[j], b - a * p.ub[j]
        A = p.A.copy()
        A[i] = rest
        rl, ru = p.rl.copy(), p.ru.copy()
        rl[i], ru[i] = lo, hi
        log.append(f"substituted {p.names[j]} out through its defining equality {p.row_names[i]}")
        used_rows.add(i)
        lb, ub = p.lb.copy(), p.ub.copy()
        lb[j], ub[j] = 0.0, 0.0  # now in no row and with no cost: dropped below (its name cleared: logged here)
        names = list(p.names)
        names[j] = ""
        p = replace(p, c=c, c0=c0, A=A, rl=rl, ru=ru, lb=lb, ub=ub, names=names)
        nz = p.A != 0
    return p


def _unused_columns(p: Problem, log: list[str]) -> Problem:
    unused = ~(p.A != 0).any(axis=0) & (p.c == 0)
    if not unused.any():
        return p
    for j in np.flatnonzero(unused):
        if p.lb[j] > p.ub[j] + TOL:
            p.notes.append(f"column {p.names[j]} has empty bounds: the problem is infeasible")
        elif p.names[j]:
            log.append(f"dropped {p.names[j]} (in no row and not in the objective)")
    return _drop_cols(p, ~unused)


def _lp_redundant_rows(p: Problem, log: list[str]) -> Problem:
    from scipy.optimize import linprog

    if p.m > MAX_LP_ROWS:
        log.append(f"LP redundancy test skipped: {p.m} rows, more than {MAX_LP_ROWS}")
        return p
    keep = np.ones(p.m, dtype=bool)
    bounds = list(zip([None if not np.isfinite(v) else v for v in p.lb],
                      [None if not np.isfinite(v) else v for v in p.ub]))
    for i in range(p.m):
        others = keep.copy()
        others[i] = False
        A, rl, ru = p.A[others], p.rl[others], p.ru[others]
        up = np.isfinite(ru)
        lo = np.isfinite(rl)
        A_ub = np.vstack([A[up], -A[lo]]) if (up.any() or lo.any()) else None
        b_ub = np.concatenate([ru[up], -rl[lo]]) if A_ub is not None else None

        def side_redundant(sign: float, limit: float) -> bool:
            res = linprog(-sign * p.A[i], A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
            if res.status != 0:
                return False  # unbounded, infeasible or unsolved: not proved redundant
            best = -res.fun
            return best <= sign * limit + 1e-7 * max(1.0, abs(limit))

        ok = True
        if np.isfinite(p.ru[i]):
            ok = side_redundant(1.0, p.ru[i])
        if ok and np.isfinite(p.rl[i]):
            ok = side_redundant(-1.0, p.rl[i])
        if ok:
            keep[i] = False
            log.append(f"dropped row {p.row_names[i]}: implied by the other rows and the bounds (LP)")
    return _drop_rows(p, keep) if not keep.all() else p


def normalise(p: Problem, max_rounds: int = 20) -> tuple[Problem, list[str]]:
    """The normalised problem of the module docstring and the log of what was changed, in words."""
    log: list[str] = []
    p = replace(p, notes=list(p.notes))
    for _ in range(max_rounds):
        before = (p.m, p.n, p.lb.tobytes(), p.ub.tobytes())
        for step in (_round_integer_bounds, _substitute_fixed, _singleton_rows, _empty_and_free_rows,
                     _eliminate_auxiliary, _unused_columns):
            p = step(p, log)
        if (p.m, p.n, p.lb.tobytes(), p.ub.tobytes()) == before:
            break
    p = _lp_redundant_rows(p, log)
    return p, log
