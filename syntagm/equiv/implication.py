"""Do two problems with a known column correspondence have the same feasible set?

Every row and every column bound of one problem is tested against the other problem: the
largest (smallest) value of the row over the other's feasible set, found by LP over its
relaxation, must not pass the row's upper (lower) side.  When every test holds both ways and
the columns' integrality agrees, the LP relaxations are the same polyhedron, so the feasible
sets (the relaxation intersected with the same integrality) are the same.  When a test fails,
the point it found is a witness: it satisfies the other problem (the relaxation; for a problem
with integer columns the test is repeated as a MIP so the witness is integral) and violates the
row.  A column integer in one problem and continuous in the other is a witness too when the
continuous problem lets that column take two different values (it then takes a fractional one).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .problem import Problem

TOL = 1e-7


def _bounds(p: Problem) -> list[tuple[Any, Any]]:
    return list(zip([None if not np.isfinite(v) else v for v in p.lb],
                    [None if not np.isfinite(v) else v for v in p.ub]))


def _extreme(p: Problem, direction: np.ndarray, integral: bool) -> tuple[str, float | None, np.ndarray | None]:
    """max ``direction @ x`` over ``p`` (relaxed unless ``integral``): (status, value, point)."""
    from scipy.optimize import LinearConstraint, linprog, milp, Bounds

    if integral and p.integer.any():
        cons = [LinearConstraint(p.A, p.rl, p.ru)] if p.m else []
        res = milp(-direction, constraints=cons, integrality=p.integer.astype(int), bounds=Bounds(p.lb, p.ub),
                   options={"time_limit": 10.0, "mip_rel_gap": 0.0})
        if res.status == 0:
            return "optimal", float(-res.fun), res.x
        return ("unbounded" if res.status == 3 else "unknown"), None, None
    up, lo = np.isfinite(p.ru), np.isfinite(p.rl)
    A_ub = np.vstack([p.A[up], -p.A[lo]]) if p.m and (up.any() or lo.any()) else None
    b_ub = np.concatenate([p.ru[up], -p.rl[lo]]) if A_ub is not None else None
    res = linprog(-direction, A_ub=A_ub, b_ub=b_ub, bounds=_bounds(p), method="highs")
    if res.status == 0:
        return "optimal", float(-res.fun), res.x
    return ("unbounded" if res.status == 3 else "unknown"), None, None


def _side_tests(q: Problem) -> list[tuple[str, np.ndarray, float]]:
    """Every finite side of ``q``'s rows and bounds as ``(name, a, u)`` meaning ``a x <= u``."""
    out = []
    for i in range(q.m):
        if np.isfinite(q.ru[i]):
            out.append((f"row {q.row_names[i]} (<= {q.ru[i]:g})", q.A[i], q.ru[i]))
        if np.isfinite(q.rl[i]):
            out.append((f"row {q.row_names[i]} (>= {q.rl[i]:g})", -q.A[i], -q.rl[i]))
    for j in range(q.n):
        e = np.zeros(q.n)
        e[j] = 1.0
        if np.isfinite(q.ub[j]):
            out.append((f"the bound {q.names[j]} <= {q.ub[j]:g}", e, q.ub[j]))
        if np.isfinite(q.lb[j]):
            out.append((f"the bound {q.names[j]} >= {q.lb[j]:g}", -e, -q.lb[j]))
    return out


def _permute(q: Problem, cmap: dict[int, int], n: int) -> Problem:
    """``q`` with its columns renumbered by ``cmap`` (q's column -> the other's column)."""
    from dataclasses import replace

    order = np.empty(n, dtype=int)
    for jq, jp in cmap.items():
        order[jp] = jq
    return replace(q, c=q.c[order], A=q.A[:, order], lb=q.lb[order], ub=q.ub[order], integer=q.integer[order],
                   names=[q.names[k] for k in order])


def _contained(p: Problem, q: Problem) -> dict[str, Any] | None:
    """None when p's feasible set lies in q's (both on the same columns), else a witness."""
    for name, a, u in _side_tests(q):
        status, best, x = _extreme(p, a, integral=False)
        if status == "optimal" and best <= u + TOL * max(1.0, abs(u)):
            continue
        if p.integer.any():
            status, best, x = _extreme(p, a, integral=True)
            if status == "optimal" and best <= u + TOL * max(1.0, abs(u)):
                continue
        if status == "unknown":
            return {"proved": False, "constraint": name, "why": "the test did not finish"}
        point = None if x is None else {p.names[j]: float(v) for j, v in enumerate(x) if abs(v) > 1e-12}
        return {"proved": True, "constraint": name, "value": best, "point": point,
                "why": "unbounded over the other model" if status == "unbounded" else "exceeded"}
    return None


def compare_feasible_sets(a: Problem, b: Problem, cmap: dict[int, int]) -> dict[str, Any]:
    """``{"same": True}`` when ``a`` and ``b`` (b's columns mapped to a's by ``cmap``) have the
    same feasible set; ``{"same": False, "witness": {...}}`` when a point of one violates the
    other (``in``: the model the point satisfies, ``violates``: the row or bound it breaks);
    ``{"same": None, ...}`` when a test did not finish."""
    b2 = _permute(b, cmap, a.n)
    for j in range(a.n):
        if a.integer[j] != b2.integer[j]:
            cont, label = (b2, "B") if a.integer[j] else (a, "A")
            e = np.zeros(a.n)
            e[j] = 1.0
            s1, hi, _ = _extreme(cont, e, False)
            s2, lo, _ = _extreme(cont, -e, False)
            if s1 == "unbounded" or s2 == "unbounded" or (hi is not None and lo is not None and hi + lo > TOL):
                return {"same": False, "witness": {"in": label, "violates": f"integrality of {a.names[j]}",
                                                    "why": f"{a.names[j]} is continuous in {label} and can take "
                                                           "more than one value there, so a fractional one"}}
    for p, q, label in ((a, b2, "A"), (b2, a, "B")):
        w = _contained(p, q)
        if w is not None:
            w = dict(w, **{"in": label})
            return {"same": False if w.pop("proved") else None, "witness": w}
    return {"same": True}
