"""``piecewise`` linear functions of a decision expression.

OPL's form ``piecewise{s_1 -> b_1; ...; s_n -> b_n; s_last}(x0, y0) x`` gives
slopes between breakpoints and the value ``y0`` at ``x0`` (OPL manual,
"Piecewise linear functions"; the anchor defaults to ``(0, 0)``).  The
function is modelled with one continuous segment variable per piece and a
value; :mod:`pyopl.lowering.linearise.pw_exact` decides, from every use of the
value once the model is built, whether the pieces may fill in any order (an
LP) or binaries must force them to fill in order.
"""
from __future__ import annotations

import math
from typing import Any

from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr
from .pw_exact import PendingPiecewise, pending_piecewise


def piecewise_data(ev: Any, node: A.Piecewise, env: dict) -> tuple[list, list, float, float]:
    """The slopes, breakpoints (checked not to decrease) and anchor ``(x0, y0)`` of ``node`` (data)."""
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
    return slopes, breaks, x0, y0


def evaluate_piecewise(ev: Any, node: A.Piecewise, env: dict) -> Any:
    if node.arg is None:
        raise EvalError("type-expected-number", node.span, "`piecewise{...}(x0, y0)` without an argument is a "
                        "function, which `startEval`, `endEval`, `sizeEval` and `lengthEval` take",
                        help="apply it to an expression: `piecewise{...}(x0, y0) x`")
    slopes, breaks, x0, y0 = piecewise_data(ev, node, env)
    arg = ev.evaluate(node.arg, env)
    slopes, breaks, steps = split_steps(slopes, breaks)
    if is_number(arg):
        return _value(slopes, breaks, x0, y0, float(arg)) + _jump(steps, float(arg)) - _jump(steps, x0)
    if not isinstance(arg, LinExpr):
        raise EvalError("type-expected-number", node.arg.span, "the argument of `piecewise` must be linear",
                        help="apply piecewise to a variable or a linear expression")
    if steps:
        b, h = steps[0]
        raise EvalError("piecewise-step-of-decision", node.span,
                        "this piecewise function jumps by %s at %s (the breakpoint %s is given twice), and pyopl does "
                        "not yet linearise a discontinuous function of a decision" % (_num(h), _num(b), _num(b)),
                        help="model the step with a binary variable `z` (`y == ... + %s * z`, with `z == 1` exactly "
                             "when the argument is past %s), or remove the repeated breakpoint" % (_num(h), _num(b)))
    return _model(ev, node, slopes, breaks, x0, y0, arg)


def _num(v: float) -> str:
    return "%g" % v


def split_steps(slopes: list[float], breaks: list[float]) -> tuple[list, list, list]:
    """The continuous part of a piecewise function and its steps: where a breakpoint repeats the one
    before it, the slope between them is the height of a step there (OPL manual, "Discontinuous
    piecewise-linear functions"). Returns (slopes, breakpoints) without those pairs, and the
    ``(breakpoint, height)`` of each step."""
    keep_s, keep_b, steps = [], [], []
    for i, (s, b) in enumerate(zip(slopes, breaks)):
        if i > 0 and b == breaks[i - 1]:
            steps.append((b, s))
        else:
            keep_s.append(s)
            keep_b.append(b)
    return keep_s + slopes[len(breaks):], keep_b, steps


def _jump(steps: list, t: float) -> float:
    """The steps' contribution at ``t``: a step counts from its breakpoint on (the right limit, as CP
    Optimizer's stepwise functions: ``stepwise{0 -> 3; 2}`` is 2 at 3, and at a breakpoint the value after it)."""
    return sum(h for b, h in steps if t >= b)


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
    """The function's value ``f(lo) + sum(slope_k seg_k)`` over one segment column per piece, with
    ``arg = lo + sum(seg_k)``. Whether the pieces may fill in
    any order (an LP) or must fill in order (binaries) is decided once the whole model is built, from
    every place ``y`` is used: see :mod:`pyopl.lowering.linearise.pw_exact`."""
    inst = ev.inst
    lo, hi = inst.bounds(arg)
    if math.isinf(lo):
        lo = inst.finite_bounds(arg, node.arg.span, "the argument of `piecewise`", need_lo=True, need_hi=False)[0]
    hi = None if math.isinf(hi) else hi
    pts, ends, piece_slopes = _pieces(slopes, breaks, lo, hi)
    segs = [inst.new_column(0.0, b - a, False, "pw_seg") for a, b in zip(pts, ends)]
    row = arg.copy()
    row.iadd(LinExpr({s: 1.0 for s in segs}), -1.0)
    first = len(inst.rows)
    inst.add_aux_row(row, lo, lo, node.span)  # arg = lo + sum(seg)
    value = LinExpr({s: sl for s, sl in zip(segs, piece_slopes)}, _value(slopes, breaks, x0, y0, lo))
    if all(s == piece_slopes[0] for s in piece_slopes):  # linear: any fill gives the same value
        return value
    # a segment of nonzero slope stands for the value: its coefficient in any use is slope * (the value's)
    probe = next(k for k, sl in enumerate(piece_slopes) if sl != 0)
    convex = all(s1 <= s2 for s1, s2 in zip(piece_slopes, piece_slopes[1:]))
    concave = all(s1 >= s2 for s1, s2 in zip(piece_slopes, piece_slopes[1:]))
    pending_piecewise(inst).append(PendingPiecewise(segs[probe], piece_slopes[probe], first, segs, pts, ends, convex,
                                                    concave, arg.copy(), node, inst._aux_label, inst._aux_key,
                                                    inst.rows.current))
    return value
