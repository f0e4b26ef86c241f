"""Exact linearisations of ``abs``, ``min``/``max`` (and ``minl``/``maxl``) of decision expressions.

Each introduces an auxiliary column ``t`` equal to the function's value, with
binaries choosing the active piece and big-M rows whose M comes from the
variables' bounds (Williams, *Model Building in Mathematical Programming*,
5th ed., section 9.3).  Without finite bounds the diagnostic says which
variable needs one.
"""
from __future__ import annotations

import math
from typing import Any

from ...syntax import ast as A
from .epigraph import _pick_rows, epigraph_abs
from ..forms.errors import EvalError
from ..forms.cp_record import CpConstraint
from ..forms.linear import LinExpr, QuadExpr


def _lin(v: Any, node: A.Node) -> LinExpr:
    if isinstance(v, LinExpr):
        return v
    if isinstance(v, QuadExpr):
        raise EvalError("nonlinear-expression", node.span, "a quadratic expression inside `abs`/`min`/`max` is not linear",
                        help="apply the function to linear expressions only")
    return LinExpr(None, float(v))


def _bounds_or_error(ev: Any, node: A.Node, e: LinExpr, what: str) -> tuple[float, float]:
    lo, hi = ev.inst.bounds(e)
    if (math.isinf(lo) or math.isinf(hi)) and cp_integral(ev.inst, [e]):
        from .cp_arith import int_bounds  # CP-SAT's default domain: OPL's maxint

        return tuple(float(b) for b in int_bounds(ev.inst, e))
    if math.isinf(lo) or math.isinf(hi):
        lo, hi = ev.inst.finite_bounds(e, node.span, "%s of a decision expression" % what)
    return lo, hi


def cp_integral(inst: Any, exprs: list) -> bool:
    """In a ``using CP;`` model, whether every expression of ``exprs`` takes integer values only, so
    that the column standing for their ``abs``/``min``/``max`` can be an integer one (exact, and
    what CP-SAT needs); always False in other models (their columns stay as they were)."""
    return getattr(inst, "engine", "mp") == "cp" and all(inst.is_integral(e) for e in exprs)


def decision_abs(ev: Any, node: A.Node, v: Any) -> LinExpr:
    e = _lin(v, node)
    inst = ev.inst
    if getattr(inst, "engine", "mp") == "cp" and e.terms and not inst.is_integral(e):
        from .cp_arith import scaled_integral  # |e| = |e * s| / s: CP-SAT's abs over integers

        n, s = scaled_integral(inst, e, node.span, "the argument of `abs`")
        return decision_abs(ev, node, n).scaled(1.0 / s)
    ctx = getattr(inst, "abs_context", None)
    if ctx is not None:
        ctx.saw(e.terms)  # an epigraph variable inside another `abs` must be exact
        blo, bhi = inst.bounds(e)
        if blo >= 0:
            return e
        if bhi <= 0:
            return e.scaled(-1.0)
        # where `abs` is minimised the epigraph needs no bounds and no binary (settle() adds them where
        # the finished statement turns out to push it up); a bounded argument keeps its bound on t.
        # A bounded integer argument in a CP model goes to CP-SAT's own abs equality below instead.
        if not cp_integral(inst, [e]):  # (CP-SAT's domains are finite: maxint where none is declared)
            return epigraph_abs(inst, ctx, e, node, max(-blo, bhi))
    lo, hi = _bounds_or_error(ev, node, e, "`abs`")
    if lo >= 0:
        return e
    if hi <= 0:
        return e.scaled(-1.0)
    if cp_integral(inst, [e]):  # CP-SAT's own abs equality
        t = inst.new_column(0.0, max(-lo, hi), True, "abs")
        inst.cp_constraints.append(CpConstraint("abs", [(dict(e.terms), float(e.const))], node.span,
                                                data={"target": t}))
        return LinExpr.var(t)
    # e = p - n, 0 <= p <= hi*z, 0 <= n <= -lo*(1-z), abs = p + n
    whole = cp_integral(inst, [e])  # CP-SAT takes integer columns only: |e| of an integer e is an integer
    p = inst.new_column(0.0, hi, whole, "abs_pos")
    n = inst.new_column(0.0, -lo, whole, "abs_neg")
    z = inst.new_column(0.0, 1.0, True, "abs_sign")
    row = e.copy()
    row.iadd(LinExpr({p: 1.0, n: -1.0}), -1.0)
    inst.add_aux_row(row, 0.0, 0.0, node.span)
    inst.add_aux_row(LinExpr({p: 1.0, z: -hi}), -math.inf, 0.0, node.span)
    inst.add_aux_row(LinExpr({n: 1.0, z: -lo}), -math.inf, -lo, node.span)
    return LinExpr({p: 1.0, n: 1.0})


def decision_minmax(ev: Any, node: A.Node, op: str, vals: list) -> LinExpr:
    """``t = max(e_1, ..., e_k)`` (mirrored for ``min``). Inside an objective or a constraint that
    pushes ``t`` down (``max``; up for ``min``) only ``t >= e_i`` is needed, with no bounds (an
    epigraph, exact: Boyd and Vandenberghe, *Convex Optimization*, 4.1.3), kept pending for
    :func:`pyopl.lowering.linearise.epigraph.settle`, which makes it exact where the finished statement turns
    out not to; elsewhere :func:`exact_minmax_rows` at once. ``t`` is an integer column when every
    ``e_i`` is integral (integer variables, whole coefficients), as ``abs``'s is: the max of integers is
    an integer (OPL types ``maxl`` of ints as int), so ``max(x, y) < 2`` is ``<= 1``, not OPL0506."""
    inst = ev.inst
    exprs = [_lin(v, node) for v in vals]
    if getattr(inst, "engine", "mp") == "cp" and not cp_integral(inst, exprs):
        from .cp_arith import common_scale  # min(e) = min(e * s) / s: CP-SAT's min/max over integers

        s = common_scale(inst, exprs, node.span, "an operand of `%s`" % op)
        scaled = [LinExpr({j: float(round(c * s)) for j, c in e.terms.items()}, float(round(e.const * s)))
                  for e in exprs]
        return decision_minmax(ev, node, op, scaled).scaled(1.0 / s)
    raw = [inst.bounds(e) for e in exprs]
    if op == "max":
        t_lo, t_hi = max(b[0] for b in raw), max(b[1] for b in raw)
    else:
        t_lo, t_hi = min(b[0] for b in raw), min(b[1] for b in raw)
    cp = getattr(inst, "engine", "mp") == "cp"
    ctx = getattr(inst, "abs_context", None)
    if ctx is not None and not (cp and cp_integral(inst, exprs)):
        for e in exprs:
            ctx.saw(e.terms)  # an epigraph variable inside this one must be exact
        t = inst.new_column(t_lo, t_hi, all(inst.is_integral(e) for e in exprs), op)
        label = inst._aux_label + "#aux" if inst._aux_label else "#aux"
        for e in exprs:
            row = LinExpr({t: 1.0})
            row.iadd(e, -1.0)  # t - e >= 0 (max) or <= 0 (min)
            lo, hi = (-row.const, math.inf) if op == "max" else (-math.inf, -row.const)
            inst.rows.add(row.terms, lo, hi, label, inst._aux_key)
        ctx.pending.append((t, (op, [e.copy() for e in exprs]), node))
        ctx.cols.add(t)
        return LinExpr({t: 1.0})
    bounds = [_bounds_or_error(ev, node, e, "`%s`" % op) for e in exprs]
    if op == "max":
        t_lo, t_hi = max(b[0] for b in bounds), max(b[1] for b in bounds)
    else:
        t_lo, t_hi = min(b[0] for b in bounds), min(b[1] for b in bounds)
    if cp and cp_integral(inst, exprs):
        return native_minmax(inst, op, exprs, t_lo, t_hi, node.span)
    t = inst.new_column(t_lo, t_hi, all(inst.is_integral(e) for e in exprs), op)
    for e in exprs:
        d = LinExpr({t: 1.0})
        d.iadd(e, -1.0)  # d = t - e
        if op == "max":
            inst.add_aux_row(d, 0.0, math.inf, node.span)  # t >= e
        else:
            inst.add_aux_row(d, -math.inf, 0.0, node.span)  # t <= e
    _pick_rows(inst, t, op, exprs, bounds, t_lo, t_hi, node)
    return LinExpr({t: 1.0})


def native_minmax(inst: Any, op: str, exprs: list, lo: float, hi: float, span: Any) -> LinExpr:
    """``max``/``min`` of integer expressions in a CP model: a column equal to it through CP-SAT's
    ``add_max_equality`` / ``add_min_equality`` (exact, with CP-SAT's own propagation)."""
    t = inst.new_column(lo, hi, True, op)
    inst.cp_constraints.append(CpConstraint(op, [(dict(e.terms), float(e.const)) for e in exprs], span,
                                            data={"target": t}))
    return LinExpr.var(t)
