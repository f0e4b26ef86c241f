"""Exactness of ``piecewise`` functions, decided from every use once the model is built.

:func:`pyopl.lowering.linearise.piecewise.evaluate_piecewise` models ``y = f(x)`` with one segment column
per piece (``x = lo + sum(seg_k)``, ``y = f(lo) + sum(slope_k seg_k)``, ``y`` itself no column: a
segment of nonzero slope stands for it in the analysis) and leaves the pieces free
to fill in any order: an LP. That relaxation lets ``y`` take any value between the function's
convex and concave envelopes, so it is exact only when nothing in the model gains from moving
``y`` off the function in the direction the relaxation allows (Williams, *Model Building in
Mathematical Programming*, 5th ed., section 9.3; IBM OPL manual, "Piecewise linear functions"):

* a convex ``f`` (slopes increasing): the LP may put ``y`` above ``f(x)``; exact when lowering
  ``y`` never hurts: every row using ``y`` is bounded only on the side that ``y`` pushes up
  (``2 y <= 7``, ``-y >= -7``), and the objective's coefficient of ``y`` is ``>= 0`` when
  minimising (``<= 0`` when maximising);
* a concave ``f``: the mirror image (raising ``y`` never hurts).

The test runs over the finished rows, objectives and quadratic constraints, after signs and
coefficients are folded and a ``dexpr`` has been substituted wherever it is used, so the sense,
the sign of the term, the side of a constraint and ``==`` are all taken into account in one
place. A value used nowhere (only reported, through a ``dexpr``), inside a quadratic term, on
both sides (``==``, a ranged row) or in another linearisation's rows is made exact. Where the
LP is not exact, binaries force the pieces to fill in order (the incremental formulation):
``seg_k >= w_k z_k`` and ``seg_{k+1} <= w_{k+1} z_k``, which needs a finite width for every
piece, so an argument unbounded above gets the usual big-M bound diagnostic.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ...syntax import ast as A
from ..forms.linear import LinExpr, QuadExpr


@dataclass
class PendingPiecewise:
    """One modelled ``piecewise`` whose fill order is still to be decided.

    ``y``: a segment column of nonzero slope ``slope``, which stands for the value (its coefficient
    in every use is ``slope`` times the value's); ``def_row``: the row ``arg = lo + sum(seg)`` (not a
    use); ``segs``, ``pts``,
    ``ends``: segment columns and their pieces' starts and ends (the last end may be ``inf``);
    ``convex``/``concave``: the slopes' order; ``arg``: the argument; ``node``: the call, for
    diagnostics; ``label``/``key``/``stmt``: the statement the rows belong to."""
    y: int
    slope: float
    def_row: int
    segs: list
    pts: list
    ends: list
    convex: bool
    concave: bool
    arg: LinExpr
    node: A.Node
    label: str
    key: tuple
    stmt: int = -1


def pending_piecewise(inst: Any) -> list[PendingPiecewise]:
    """The instance's list of pending piecewise functions (made on first use)."""
    lst = getattr(inst, "_pw_pending", None)
    if lst is None:
        lst = inst._pw_pending = []
    return lst


def unsafe_directions(inst: Any, ys: list[int], skip: dict[int, int],
                      objective_vector: Callable[[Any], tuple], scale: dict[int, float] | None = None
                      ) -> tuple[set[int], set[int]]:
    """Columns of ``ys`` whose value must not be lowered, and those whose value must not be raised.

    ``skip[y]``: the row defining ``y`` (ignored); ``scale[y]``: the column's coefficient per unit
    of the value it stands for (1 when absent); ``objective_vector(obj)`` -> ``(c, const, q)``
    as :func:`pyopl.lowering.model.build._objective_arrays` gives. A column used nowhere is in both sets.
    Returns ``(no_lower, no_raise)``."""
    no_lower: set[int] = set()
    no_raise: set[int] = set()
    used: set[int] = set()
    yarr = np.asarray(ys, dtype=np.int64)
    vals, cols, indptr, lower, upper = inst.rows.arrays()
    hit = np.nonzero(np.isin(cols, yarr))[0]
    if len(hit):
        row_of = np.searchsorted(indptr, hit, side="right") - 1
        for k, r in zip(hit.tolist(), row_of.tolist()):
            j = int(cols[k])
            if skip.get(j) == r:
                continue
            a = float(vals[k]) / (scale or {}).get(j, 1.0)
            lo_fin, hi_fin = math.isfinite(lower[r]), math.isfinite(upper[r])
            used.add(j)
            if (a > 0 and lo_fin) or (a < 0 and hi_fin):
                no_lower.add(j)
            if (a > 0 and hi_fin) or (a < 0 and lo_fin):
                no_raise.add(j)
    objectives = list(inst.objectives) if getattr(inst, "objectives", None) else [inst.objective]
    for obj in objectives:
        if obj is None:
            continue
        c = objective_vector(obj)[0]
        quad = obj.quad if isinstance(obj, QuadExpr) else {}
        in_quad = {j for pair in (quad or {}) for j in pair}
        for j in ys:
            cj = (float(c[j]) if j < len(c) else 0.0) / (scale or {}).get(j, 1.0)
            if j in in_quad:
                used.add(j)
                no_lower.add(j)
                no_raise.add(j)
            if cj == 0:
                continue
            used.add(j)
            grows = cj > 0 if inst.sense == "minimize" else cj < 0  # raising y worsens the objective
            (no_raise if grows else no_lower).add(j)
    yset = set(ys)
    for q in getattr(inst, "qcons", ()):
        names = set(getattr(q, "lin", {}) or {}) | {j for pair in (getattr(q, "quad", {}) or {}) for j in pair}
        for j in names & yset:
            used.add(j)
            no_lower.add(j)
            no_raise.add(j)
    for j in ys:
        if j not in used:  # only reported (a dexpr): its value must be the function's
            no_lower.add(j)
            no_raise.add(j)
    return no_lower, no_raise


def settle_piecewise(inst: Any, objective_vector: Callable[[Any], tuple]) -> int:
    """Add the fill-order binaries to every pending piecewise whose LP form is not exact.

    Returns how many were made exact with binaries. Raises :class:`~pyopl.lowering.forms.errors.EvalError`
    (``bigm-missing-bound``) when such a function's argument has no finite upper bound."""
    pending = pending_piecewise(inst)
    if not pending:
        return 0
    inst._pw_pending = []
    no_lower, no_raise = unsafe_directions(inst, [p.y for p in pending], {p.y: p.def_row for p in pending},
                                           objective_vector, {p.y: p.slope for p in pending})
    made = 0
    for p in pending:
        if (p.convex and p.y not in no_lower) or (p.concave and p.y not in no_raise):
            continue
        _fill_in_order(inst, p)
        made += 1
    return made


def _fill_in_order(inst: Any, p: PendingPiecewise) -> None:
    ends = list(p.ends)
    if math.isinf(ends[-1]) and len(p.segs) > 1:
        hi = inst.finite_bounds(p.arg, p.node.span, "a `piecewise` function in a position where its LP form "
                                "is not exact (its convexity does not match its use)", need_lo=False, need_hi=True)[1]
        ends[-1] = max(hi, p.pts[-1])
    widths = [max(0.0, b - a) for a, b in zip(p.pts, ends)]
    saved = inst._aux_label, inst._aux_key, inst.rows.current
    inst._aux_label, inst._aux_key, inst.rows.current = p.label, p.key, p.stmt
    try:
        for k in range(len(p.segs) - 1):
            z = inst.new_column(0.0, 1.0, True, "pw_fill")
            inst.add_aux_row(LinExpr({p.segs[k]: 1.0, z: -widths[k]}), 0.0, math.inf, p.node.span)  # seg_k >= w_k z
            inst.add_aux_row(LinExpr({p.segs[k + 1]: 1.0, z: -widths[k + 1]}), -math.inf, 0.0, p.node.span)
    finally:
        inst._aux_label, inst._aux_key, inst.rows.current = saved
