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
   rows whose coefficients are multiples of each other (an equality written as two inequalities,
   a repeated row) are merged into one row with the intersection of their sides;
   a column whose bounds cross, an empty row that cannot hold, proves the problem infeasible:
   recorded in ``Problem.infeasible`` and normalisation stops there (such a problem is never
   matched by structure: an infeasible model is not equivalent to a feasible one);
7. a row proved redundant by LP is dropped: each finite side ``a x <= u`` whose maximum over the
   LP relaxation of the other rows and the bounds is at most ``u`` (and likewise for ``>=``).
   The LP relaxation contains the integer feasible set, so a row redundant for it is redundant
   for the problem.  At most :data:`MAX_LP_ROWS` rows are tested;
8. a finite column bound implied by the rows and the other bounds (LP) is dropped, so a bound
   written in one model and implied in the other reads the same.

Every step keeps the feasible set (projected on the remaining columns, for step 5) and the
objective value of every feasible point; no step changes a model that is infeasible into one
that is feasible, since infeasibility found on the way is kept in ``Problem.infeasible``.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .problem import Problem

TOL = 1e-9
#: the most rows tested for LP redundancy (one or two LPs each)
MAX_LP_ROWS = 400


def _close(a: float, b: float) -> bool:
    """Whether two sides are equal within :data:`TOL` (relative); an infinite side is close only
    to the same infinity (``abs(x - inf) <= TOL * inf`` would hold for every ``x``)."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return bool(a == b)
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


def _crossed(p: Problem, log: list[str]) -> Problem:
    """Record (in ``p.infeasible``) a column whose bounds cross or a row whose sides cross."""
    for j in np.flatnonzero(p.lb > p.ub + TOL * np.maximum(1.0, np.abs(np.where(np.isfinite(p.lb), p.lb, 0.0)))):
        why = f"column {p.names[j]} has crossing bounds ({p.lb[j]:g} > {p.ub[j]:g})"
        if why not in p.infeasible:
            p.infeasible.append(why)
    for i in np.flatnonzero(p.rl > p.ru + TOL * np.maximum(1.0, np.abs(np.where(np.isfinite(p.rl), p.rl, 0.0)))):
        why = f"row {p.row_names[i]} has crossing sides ({p.rl[i]:g} > {p.ru[i]:g})"
        if why not in p.infeasible:
            p.infeasible.append(why)
    return p


def _parallel_rows(p: Problem, log: list[str]) -> Problem:
    """Merge rows whose coefficients are multiples of each other (``a x <= b`` and ``-2 a x <= c``,
    an equality written as two inequalities) into one row with both rows' sides intersected."""
    if p.m < 2:
        return p
    groups: dict[tuple, list[tuple[int, float]]] = {}
    for i in range(p.m):
        cols = np.flatnonzero(p.A[i])
        if not len(cols):
            continue
        lead = p.A[i, cols[0]]
        key = (tuple(int(j) for j in cols), tuple(float(f"{v / lead:.12g}") for v in p.A[i, cols]))
        groups.setdefault(key, []).append((i, lead))
    keep = np.ones(p.m, dtype=bool)
    A, rl, ru = p.A.copy(), p.rl.copy(), p.ru.copy()
    for rows in groups.values():
        if len(rows) < 2:
            continue
        i, lead = rows[0]
        for k, lead_k in rows[1:]:
            lam = lead_k / lead  # row k = lam * row i
            if np.max(np.abs(p.A[k] - lam * p.A[i])) > 1e-12 * np.max(np.abs(p.A[k])):
                continue
            lo, hi = (p.rl[k] / lam, p.ru[k] / lam) if lam > 0 else (p.ru[k] / lam, p.rl[k] / lam)
            rl[i], ru[i] = max(rl[i], lo), min(ru[i], hi)
            keep[k] = False
            log.append(f"merged row {p.row_names[k]} into {p.row_names[i]} (the same coefficients up to a factor)")
    if keep.all():
        return p
    return _drop_rows(replace(p, A=A, rl=rl, ru=ru), keep)


def _empty_and_free_rows(p: Problem, log: list[str]) -> Problem:
    empty = ~(p.A != 0).any(axis=1)
    free = ~np.isfinite(p.rl) & ~np.isfinite(p.ru)
    drop = empty | free
    for i in np.flatnonzero(empty):
        if p.rl[i] > TOL * max(1.0, abs(p.rl[i])) or p.ru[i] < -TOL * max(1.0, abs(p.ru[i])):
            p.infeasible.append(f"row {p.row_names[i]} has no variables and cannot hold")
    for i in np.flatnonzero(free & ~empty):
        log.append(f"dropped row {p.row_names[i]} (no finite side)")
    return _drop_rows(p, ~drop) if drop.any() else p


def _auxiliary_candidate(p: Problem, done: set[int]) -> tuple[int, int] | None:
    """The (row, column) to substitute next: over every equality row not yet used, the continuous
    columns in that row only; the most auxiliary-looking first, by values only (never by name or
    position): fewest finite bounds (an auxiliary is usually free), then bounds, cost and the
    coefficient relative to the row's largest."""
    nz = p.A != 0
    count = nz.sum(axis=0)
    best = None
    for i in range(p.m):
        if i in done or not (np.isfinite(p.rl[i]) and _close(p.rl[i], p.ru[i])):
            continue
        big = float(np.max(np.abs(p.A[i]))) if nz[i].any() else 1.0
        for j in np.flatnonzero(nz[i]):
            if p.integer[j] or count[j] != 1:
                continue
            key = (int(np.isfinite(p.lb[j])) + int(np.isfinite(p.ub[j])), p.lb[j], p.ub[j], p.c[j],
                   abs(p.A[i, j]) / big)
            if best is None or key < best[0]:
                best = (key, i, int(j))
    return None if best is None else (best[1], best[2])


def _eliminate_auxiliary(p: Problem, log: list[str]) -> Problem:
    done: set[int] = set()
    while (found := _auxiliary_candidate(p, done)) is not None:
        i, j = found
        done.add(i)
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
        A[i] = rest if (np.isfinite(lo) or np.isfinite(hi)) else 0.0  # a free row binds nothing: emptied
        rl, ru = p.rl.copy(), p.ru.copy()
        rl[i], ru[i] = lo, hi
        log.append(f"substituted {p.names[j]} out through its defining equality {p.row_names[i]}")
        lb, ub = p.lb.copy(), p.ub.copy()
        lb[j], ub[j] = 0.0, 0.0  # now in no row and with no cost: dropped below (its name cleared: logged here)
        names = list(p.names)
        names[j] = ""
        p = replace(p, c=c, c0=c0, A=A, rl=rl, ru=ru, lb=lb, ub=ub, names=names)
    return p


def _unused_columns(p: Problem, log: list[str]) -> Problem:
    unused = ~(p.A != 0).any(axis=0) & (p.c == 0)
    if not unused.any():
        return p
    for j in np.flatnonzero(unused):
        if p.lb[j] > p.ub[j] + TOL * max(1.0, abs(p.lb[j])):
            p.infeasible.append(f"column {p.names[j]} has crossing bounds ({p.lb[j]:g} > {p.ub[j]:g})")
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


def _implied_fixed(p: Problem, log: list[str]) -> Problem:
    """Columns that the rows and bounds fix to one value (their LP minimum equals their maximum:
    ``x + y == 0`` with ``x, y >= 0``) get that value as both bounds, so step 2 substitutes them
    whichever rows fix them.  Returns ``p`` itself when no column is fixed this way."""
    from scipy.optimize import linprog

    if not p.m or p.n > MAX_LP_ROWS:
        return p
    up, lo = np.isfinite(p.ru), np.isfinite(p.rl)
    A_ub = np.vstack([p.A[up], -p.A[lo]]) if (up.any() or lo.any()) else None
    b_ub = np.concatenate([p.ru[up], -p.rl[lo]]) if A_ub is not None else None
    bounds = list(zip([None if not np.isfinite(v) else v for v in p.lb],
                      [None if not np.isfinite(v) else v for v in p.ub]))
    lb, ub = p.lb.copy(), p.ub.copy()
    changed = False
    for j in range(p.n):
        if _close(p.lb[j], p.ub[j]):
            continue
        e = np.zeros(p.n)
        e[j] = 1.0
        hi = linprog(-e, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
        low = linprog(e, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
        if hi.status == 0 and low.status == 0 and abs(-hi.fun - low.fun) <= 1e-9 * max(1.0, abs(low.fun)):
            v = float(low.fun)
            if p.integer[j]:
                v = float(round(v))
            lb[j] = ub[j] = v
            changed = True
            log.append(f"{p.names[j]} = {v:g}: fixed by the rows and bounds (LP)")
    return replace(p, lb=lb, ub=ub) if changed else p


def _implied_bounds(p: Problem, log: list[str]) -> Problem:
    """Drop each finite column bound that the rows and the other bounds imply (LP, as for rows):
    a bound written in one model and only implied in the other then reads the same."""
    from scipy.optimize import linprog

    if p.n > MAX_LP_ROWS or not p.m:
        return p
    lb, ub = p.lb.copy(), p.ub.copy()
    up, lo = np.isfinite(p.ru), np.isfinite(p.rl)
    A_ub = np.vstack([p.A[up], -p.A[lo]]) if (up.any() or lo.any()) else None
    b_ub = np.concatenate([p.ru[up], -p.rl[lo]]) if A_ub is not None else None
    for j in range(p.n):
        for side in ("ub", "lb"):
            limit = ub[j] if side == "ub" else lb[j]
            if not np.isfinite(limit):
                continue
            trial_lb, trial_ub = lb.copy(), ub.copy()
            (trial_ub if side == "ub" else trial_lb)[j] = np.inf if side == "ub" else -np.inf
            bounds = list(zip([None if not np.isfinite(v) else v for v in trial_lb],
                              [None if not np.isfinite(v) else v for v in trial_ub]))
            e = np.zeros(p.n)
            e[j] = 1.0 if side == "ub" else -1.0
            res = linprog(-e, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
            if res.status != 0:
                continue
            sign_limit = limit if side == "ub" else -limit
            if -res.fun <= sign_limit + 1e-9 * max(1.0, abs(limit)):
                lb, ub = trial_lb, trial_ub
                log.append(f"dropped the bound {p.names[j]} {'<=' if side == 'ub' else '>='} {limit:g}: "
                           "implied by the rows and the other bounds (LP)")
    return replace(p, lb=lb, ub=ub)


def normalise(p: Problem, max_rounds: int = 20) -> tuple[Problem, list[str]]:
    """The normalised problem of the module docstring and the log of what was changed, in words."""
    log: list[str] = []
    p = replace(p, notes=list(p.notes), infeasible=list(p.infeasible))
    for _ in range(max_rounds):
        before = (p.m, p.n, p.lb.tobytes(), p.ub.tobytes(), p.rl.tobytes(), p.ru.tobytes())
        for step in (_round_integer_bounds, _crossed, _substitute_fixed, _singleton_rows, _empty_and_free_rows,
                     _parallel_rows, _eliminate_auxiliary, _unused_columns):
            p = step(p, log)
        if (p.m, p.n, p.lb.tobytes(), p.ub.tobytes(), p.rl.tobytes(), p.ru.tobytes()) == before:
            break
    p = _crossed(p, log)
    if p.infeasible:
        return p, log
    fixed = _implied_fixed(p, log)
    if fixed is not p:
        again, more = normalise(fixed, max_rounds - 1) if max_rounds > 1 else (fixed, [])
        return again, log + more
    p = _lp_redundant_rows(p, log)
    p = _implied_bounds(p, log)
    return p, log
