"""``piecewise`` linear functions of a decision expression.

OPL's form ``piecewise{s_1 -> b_1; ...; s_n -> b_n; s_last}(x0, y0) x`` gives
slopes between breakpoints and the value ``y0`` at ``x0`` (OPL manual,
"Piecewise linear functions"; the anchor defaults to ``(0, 0)``).  The
function is modelled with one continuous segment variable per piece: for a
convex function (slopes increasing, under minimisation) an LP suffices;
otherwise binaries force the pieces to fill in order.
"""
from __future__ import annotations

import math
from typing import Any

from ..syntax import ast as A
from .errors import EvalError
from .kinds import is_number
from .linear import LinExpr


def evaluate_piecewise(ev: Any, node: A.Piecewise, env: dict) -> Any:
    slopes, breaks = [], []
    if node.quals is not None:
        for e in ev.iterate(node.quals, env, node):
            for s, b in zip(node.slopes, node.breaks):
                slopes.append(ev.eval_number(s, e, "a piecewise slope"))
                breaks.append(ev.eval_number(b, e, "a piecewise breakpoint"))
    else:
        for s, b in zip(node.slopes, node.breaks):
            slopes.append(ev.eval_number(s, env, "a piecewise slope"))
            breaks.append(ev.eval_number(b, env, "a piecewise breakpoint"))
    slopes.append(ev.eval_number(node.last_slope, env, "the last piecewise slope"))
    if any(b2 < b1 for b1, b2 in zip(breaks, breaks[1:])):
        raise EvalError("piecewise-breakpoints-order", node.span, "piecewise breakpoints must not decrease",
                        help="list the breakpoints in increasing order")
    x0, y0 = 0.0, 0.0
    if node.anchor is not None:
        x0 = ev.eval_number(node.anchor[0], env, "the piecewise anchor")
        y0 = ev.eval_number(node.anchor[1], env, "the piecewise anchor")
    arg = ev.evaluate(node.arg, env)
    if is_number(arg):
        return _value(slopes, breaks, x0, y0, float(arg))
    if not isinstance(arg, LinExpr):
        raise EvalError("type-expected-number", node.arg.span, "the argument of `piecewise` must be linear",
                        help="apply piecewise to a variable or a linear expression")
    return _model(ev, node, slopes, breaks, x0, y0, arg)


def _value(slopes: list[float], breaks: list[float], x0: float, y0: float, x: float) -> float:
    def f(t: float) -> float:  # value relative to f(0) = 0 by integrating slopes from 0
        total, prev = 0.0, 0.0
        pts = breaks + [math.inf]
        if t >= 0:
            for s, b in zip(slopes, pts):
                lo, hi = max(prev, 0.0), min(b, t)
                if hi > lo:
                    total += s * (hi - lo)
                prev = b
            # segment before the first breakpoint when it is positive
            return total
        prev = -math.inf
        for s, b in zip(slopes, pts):
            lo, hi = max(prev, t), min(b, 0.0)
            if hi > lo:
                total -= s * (hi - lo)
            prev = b
        return total
    return y0 + f(x) - f(x0)


def _pieces(slopes, breaks, lo: float, hi: float | None) -> tuple[list, list, list]:
    """Starts, ends and slopes of the pieces of the domain ``[lo, hi]`` cut at the breakpoints."""
    pts = [lo] + [b for b in breaks if lo < b < (hi if hi is not None else math.inf)]
    piece_slopes = []
    for a in pts:
        idx = sum(1 for b in breaks if b <= a)  # slope index active right after a
        piece_slopes.append(slopes[min(idx, len(slopes) - 1)])
    ends = pts[1:] + [hi if hi is not None else math.inf]
    return pts, ends, piece_slopes


def _model(ev: Any, node: A.Piecewise, slopes, breaks, x0, y0, arg: LinExpr) -> LinExpr:
    inst = ev.inst
    lo, hi = inst.bounds(arg)
    if math.isinf(lo):
        lo = inst.finite_bounds(arg, node.arg.span, "the argument of `piecewise`", need_lo=True, need_hi=False)[0]
    hi = None if math.isinf(hi) else hi
    pts, ends, piece_slopes = _pieces(slopes, breaks, lo, hi)
    convex = all(s1 <= s2 for s1, s2 in zip(piece_slopes, piece_slopes[1:]))
    concave = all(s1 >= s2 for s1, s2 in zip(piece_slopes, piece_slopes[1:]))
    # Filling pieces in any order is exact only when the solver's own pressure fills the
    # cheap pieces first: convex under minimisation, concave under maximisation.
    lp_ok = (convex and inst.sense == "minimize") or (concave and inst.sense == "maximize")
    if not lp_ok and hi is None and len(pts) > 1:
        # the last piece is unbounded and must be forced to fill after the others: it needs a bound
        hi = inst.finite_bounds(arg, node.arg.span, "a non-convex `piecewise`", need_lo=False, need_hi=True)[1]
        pts, ends, piece_slopes = _pieces(slopes, breaks, lo, hi)
    segs = []
    for a, b in zip(pts, ends):
        segs.append(inst.new_column(0.0, b - a, False, "pw_seg"))
    # arg = lo + sum(seg)
    row = arg.copy()
    row.iadd(LinExpr({s: 1.0 for s in segs}), -1.0)
    inst.add_aux_row(row, lo, lo, node.span)
    if not lp_ok:
        # fill in order: seg_k full before seg_{k+1} starts (z_k = 1 when seg_k is full)
        for k in range(len(segs) - 1):
            width = ends[k] - pts[k]
            z = inst.new_column(0.0, 1.0, True, "pw_fill")
            inst.add_aux_row(LinExpr({segs[k]: 1.0, z: -width}), 0.0, math.inf, node.span)
            nxt = ends[k + 1] - pts[k + 1]
            inst.add_aux_row(LinExpr({segs[k + 1]: 1.0, z: -nxt}), -math.inf, 0.0, node.span)
    return LinExpr({s: sl for s, sl in zip(segs, piece_slopes)}, _value(slopes, breaks, x0, y0, lo))
