"""`abs` of decisions in a convex position, linearised with an epigraph variable and no bounds.

``minimize sum(i in I) abs(e[i])`` and ``abs(x - y) <= 3`` need only ``t >= e`` and ``t >= -e``
(the optimiser, or the `<=`, keeps ``t`` down to ``|e|``); bounds and binaries are needed only
where ``t`` could be pushed up (maximised, on the large side of a constraint, inside `==`, a
logical constraint or another linearisation). Reference: Boyd and Vandenberghe, *Convex
Optimization*, section 4.1.3 (epigraph form); Williams, *Model Building*, 5th ed., section 9.3.

The position is judged after the statement is evaluated, from the sign of ``t`` in the finished
objective or row: while an objective or a constraint is evaluated, :class:`AbsContext` holds the
epigraph variables made for it, and :func:`settle` adds the exact (big-M) rows for any whose
position turned out not to be convex.
"""
from __future__ import annotations

import math
from typing import Any

from ...syntax import ast as A
from ..forms.linear import LinExpr


class AbsContext:
    """Epigraph variables made while one objective or constraint statement is evaluated."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, LinExpr, A.Node]] = []  # (column t, argument e, the `abs` call)
        self.cols: set[int] = set()
        self.escaped: set[int] = set()  # used inside another linearisation's rows: must be exact

    def saw(self, terms: dict) -> None:
        """A row other than an epigraph row uses these columns."""
        if self.cols:
            self.escaped.update(j for j in terms if j in self.cols)


def epigraph_abs(inst: Any, ctx: AbsContext, e: LinExpr, node: A.Node, upper: float = math.inf) -> LinExpr:
    """``t >= e``, ``t >= -e``, ``0 <= t <= upper``: a new column ``t`` kept for :func:`settle`
    (``upper``: the largest ``|e|`` its bounds allow, or infinity)."""
    # integral when its argument is (integer variables, integer coefficients): |e| is then an integer, the
    # model a MIP already, and `--solver cpsat` can take it without `using CP;` (it takes integers only)
    t = inst.new_column(0.0, upper, inst.is_integral(e), "abs")
    label = inst._aux_label + "#aux" if inst._aux_label else "#aux"
    for sign in (1.0, -1.0):
        row = e.scaled(-sign)
        row.iadd(LinExpr({t: 1.0}))  # t - sign*e >= 0
        inst.rows.add(row.terms, -row.const, math.inf, label, inst._aux_key)
    ctx.pending.append((t, e.copy(), node))
    ctx.cols.add(t)
    return LinExpr({t: 1.0})


def settle(inst: Any, ctx: AbsContext, ok) -> None:
    """Make exact every pending ``t`` for which ``ok(t, sign)`` is False or that another row used.

    ``ok(t)`` says the finished statement only pushes ``t`` down (``ok(t, -1.0)``: only up, what a
    ``min`` hypograph needs). Exactness needs bounds on the argument (the usual big-M diagnostic
    names the variable when there are none): ``t <= e + M1 (1 - z)`` and ``t <= -e + M2 z`` with a
    binary ``z``; for ``max``/``min``, the rows of :func:`exact_minmax_rows`."""
    for t, e, node in ctx.pending:
        if isinstance(e, tuple):  # ("max" | "min", [e_1, ..., e_k]): an epigraph (hypograph) of max (min)
            op, exprs = e
            if t not in ctx.escaped and ok(t, 1.0 if op == "max" else -1.0):
                continue
            exact_minmax_rows(inst, t, op, exprs, node)
            continue
        if t not in ctx.escaped and ok(t):
            continue
        lo, hi = inst.bounds(e)
        if math.isinf(lo) or math.isinf(hi):
            lo, hi = inst.finite_bounds(e, node.span, "`abs` of a decision expression where it is not minimised")
        m1, m2 = max(0.0, -2.0 * lo), max(0.0, 2.0 * hi)
        z = inst.new_column(0.0, 1.0, True, "abs_sign")
        r1 = LinExpr({t: 1.0, z: m1})
        r1.iadd(e, -1.0)  # t - e + M1 z <= M1
        inst.add_aux_row(r1, -math.inf, m1, node.span)
        r2 = LinExpr({t: 1.0, z: -m2})
        r2.iadd(e, 1.0)  # t + e - M2 z <= 0
        inst.add_aux_row(r2, -math.inf, 0.0, node.span)


def objective_ok(sense: str, lin_terms: dict, quad: dict | None):
    """``ok(t, sign)`` for an objective: ``sign * t`` has a coefficient of the optimising sign and no quadratic term."""
    in_quad = {j for pair in (quad or {}) for j in pair}

    def ok(t: int, sign: float = 1.0) -> bool:
        c = sign * lin_terms.get(t, 0.0)
        return t not in in_quad and (c >= 0 if sense == "minimize" else c <= 0)
    return ok


def row_ok(terms: dict, lo: float, hi: float):
    """``ok(t, sign)`` for a row ``lo <= terms <= hi``: ``sign * t`` can only be pushed toward its bounded side."""
    def ok(t: int, sign: float = 1.0) -> bool:
        c = sign * terms.get(t, 0.0)
        if c == 0:
            return True
        return (c > 0 and lo == -math.inf) or (c < 0 and hi == math.inf)
    return ok


def exact_minmax_rows(inst: Any, t: int, op: str, exprs: list, node: A.Node) -> None:
    """The rows that keep an epigraph ``t >= e_i`` of ``max`` (``t <= e_i`` of ``min``) from moving
    away from the largest (smallest) ``e_i``: binaries choosing the active one, big-M from the
    bounds of the ``e_i`` (declared, implied, or assumed with OPL0901; OPL0510 without any)."""
    what = "`%s` of a decision expression where it is not %s" % (op, "minimised" if op == "max" else "maximised")
    bounds = []
    for e in exprs:
        lo, hi = inst.bounds(e)
        if math.isinf(lo) or math.isinf(hi):
            lo, hi = inst.finite_bounds(e, node.span, what)
        bounds.append((lo, hi))
    if op == "max":
        t_lo, t_hi = max(b[0] for b in bounds), max(b[1] for b in bounds)
    else:
        t_lo, t_hi = min(b[0] for b in bounds), min(b[1] for b in bounds)
    _pick_rows(inst, t, op, exprs, bounds, t_lo, t_hi, node)


def _pick_rows(inst: Any, t: int, op: str, exprs: list, bounds: list, t_lo: float, t_hi: float, node: A.Node) -> None:
    """``t <= e_i + M_i (1 - z_i)`` (max; ``t >= e_i - M_i (1 - z_i)`` for min), ``sum z_i = 1``."""
    zs = [inst.new_column(0.0, 1.0, True, op + "_pick") for _ in exprs]
    for e, (lo, hi), z in zip(exprs, bounds, zs):
        d = LinExpr({t: 1.0})
        d.iadd(e, -1.0)  # d = t - e
        if op == "max":
            m = t_hi - lo
            d.iadd(LinExpr({z: m}))  # t - e + M z <= M
            inst.add_aux_row(d, -math.inf, m, node.span)
        else:
            m = hi - t_lo
            d.iadd(LinExpr({z: -m}))  # t - e - M z >= -M
            inst.add_aux_row(d, -m, math.inf, node.span)
    inst.add_aux_row(LinExpr({z: 1.0 for z in zs}), 1.0, 1.0, node.span)
