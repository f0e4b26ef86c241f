"""Exact brute force for one-variable piecewise-linear models (tests only; issue 25).

A model ``opt obj(x) s.t. g_i(x) op_i r_i, L <= x <= U`` where ``obj`` and every ``g_i`` are
linear between known kinks has its optimum at a bound, a kink, or a point where some ``g_i``
crosses ``r_i`` (found by linear interpolation inside each piece): all of them are tried.
Independent of pyopl's lowering: the functions are plain Python.
"""
from __future__ import annotations

import math


def opl_piecewise(slopes: list[float], breaks: list[float], x0: float = 0.0, y0: float = 0.0):
    """``piecewise{s_1 -> b_1; ...; s_last}(x0, y0)`` as a Python function: the value at ``x0``
    is ``y0`` and the slope is ``s_k`` between ``b_{k-1}`` and ``b_k`` (IBM OPL manual,
    "Piecewise linear functions")."""
    def slope_at(t: float) -> float:
        k = sum(1 for b in breaks if b <= t)
        return slopes[k]

    def f(x: float) -> float:
        a, b, sign = (x0, x, 1.0) if x >= x0 else (x, x0, -1.0)
        cuts = [a] + [p for p in breaks if a < p < b] + [b]
        total = sum(slope_at((u + v) / 2) * (v - u) for u, v in zip(cuts, cuts[1:]))
        return y0 + sign * total
    return f


def brute(sense: str, obj, cons: list, lo: float, hi: float, kinks: list[float], tol: float = 1e-7):
    """Best objective value (None when infeasible) over ``x in [lo, hi]``.

    ``obj``: function of x; ``cons``: ``[(g, op, r)]`` with ``op`` in ``<=``, ``>=``, ``==``;
    ``kinks``: every x where ``obj`` or a ``g`` may change slope."""
    pts = sorted({lo, hi} | {k for k in kinks if lo < k < hi})
    cand = set(pts)
    for g, _op, r in cons:
        for a, b in zip(pts, pts[1:]):
            ga, gb = g(a) - r, g(b) - r
            if ga * gb < 0:
                cand.add(a + (b - a) * ga / (ga - gb))
    best = None
    for x in cand:
        ok = True
        for g, op, r in cons:
            v = g(x)
            scale = tol * max(1.0, abs(r))
            if (op == "<=" and v > r + scale) or (op == ">=" and v < r - scale) or (op == "==" and abs(v - r) > scale):
                ok = False
                break
        if not ok:
            continue
        val = obj(x)
        if best is None or (val < best if sense == "minimize" else val > best):
            best = val
    return best


def close(a: float, b: float, rel: float = 1e-6) -> bool:
    """``a`` and ``b`` equal within a relative tolerance (absolute near zero)."""
    return math.isclose(a, b, rel_tol=rel, abs_tol=rel)
