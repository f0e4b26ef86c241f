"""A conflict refiner for ``using CP;`` models on CP-SAT: which constraints of an infeasible model
cannot hold together, global constraints (``allDifferent``, ``noOverlap``, ``pack`` ...) included, as
CP Optimizer's conflict refiner answers (``cp.refineConflict()``, ``printConflict()``).

The candidates are the model's constraints as OPL states them: the rows of one constraint statement
at one ``forall`` index together (a logical constraint's rows and its helper literals are one
candidate), each logical constraint over an unbounded expression, and each global constraint.
Decision domains and interval declarations stay hard, as in CP Optimizer's default refiner.

1. The rows and logical constraints are enforced by one literal each and solved with those literals
   as assumptions (CP-SAT's ``add_assumptions``): an infeasible answer names a sufficient subset of
   them (``sufficient_assumptions_for_infeasibility``), with every global constraint held.
2. A deletion filter (J. W. Chinneck, *Feasibility and Infeasibility in Optimization*, 2008, ch. 6)
   over that subset and the global constraints makes it irreducible: a candidate whose removal
   leaves the rest infeasible (proved) is dropped; one whose removal makes it feasible, or whose test
   runs out of time, stays (the latter marks the answer "may not be minimal").

All of it shares one time budget; the result is what :mod:`.iis` reports (:class:`~.iis.Conflict`).
"""
from __future__ import annotations

import math
import time
from typing import Any


from ...ir import IR, opl_label

#: the CP-SAT constraint records that belong to a declaration (an interval's absent values), not to
#: a constraint the user stated: never candidates
_STRUCTURAL = ("linear_if",)


class _Part:
    """What :func:`pyopl.backends.cpsat.build` adds: the candidates in ``keep`` (``(kind, k)``; every
    other row, indicator and global constraint is left out), each enforced by its group's literal
    where ``guarded``; no objective."""

    objective = False

    def __init__(self, groups: dict, keep: set, guarded: bool):
        self.group_of = {item: g for g, items in groups.items() for item in items}
        self.keep = keep
        self.guarded = guarded
        self.literals: dict = {}  # group -> CP-SAT literal

    def keeps(self, kind: str, k: int) -> bool:
        g = self.group_of.get((kind, k))
        return g is None or g in self.keep

    def guard(self, m: Any, kind: str, k: int) -> Any:
        g = self.group_of.get((kind, k))
        if not self.guarded or g is None:
            return None
        if g not in self.literals:
            self.literals[g] = m.new_bool_var("conflict%d" % len(self.literals))
        return self.literals[g]


def candidate_groups(ir: IR) -> dict:
    """The candidates of ``ir``: ``{group: [(kind, k), ...]}`` with kind ``"row"``, ``"indicator"``
    or ``"global"``; a group is ``("rows", statement, label, key)`` (one statement at one index, or
    one row where no statement is known), ``("indicator", k)`` or ``("global", k)``."""
    groups: dict = {}
    stmts = ir.row_stmt if ir.row_stmt is not None else [-1] * ir.num_rows
    for i in range(ir.num_rows):
        s = int(stmts[i]) if i < len(stmts) else -1
        g = ("rows", s, ir.row_label[i].split("#", 1)[0], tuple(ir.row_key[i])) if s >= 0 else ("rows", -1 - i, "", ())
        groups.setdefault(g, []).append(("row", i))
    for k, _ind in enumerate(getattr(ir, "indicators", None) or ()):
        groups[("indicator", k)] = [("indicator", k)]
    for k, c in enumerate(ir.cp_constraints):
        if c.kind not in _STRUCTURAL:
            groups[("global", k)] = [("global", k)]
    return groups


def _solve(cp_model: Any, ir: IR, groups: dict, keep: set, seconds: float, guarded: bool = False) -> tuple:
    """Solve the part ``keep`` of ``ir`` for a solution: ``(True | False | None, part, solver)``
    (feasible, infeasible, undecided within ``seconds``)."""
    from .cpsat import build

    part = _Part(groups, keep, guarded)
    m = build(cp_model, ir, part)[0]
    if guarded:
        m.add_assumptions(list(part.literals.values()))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    solver.parameters.num_workers = 1  # (assumption cores come from the sequential search)
    code = solver.solve(m)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True, part, solver
    if code == cp_model.INFEASIBLE:
        return False, part, solver
    return None, part, solver


def refine_conflict(ir: IR, time_limit: float) -> tuple[list, list, bool, bool] | None:
    """The conflict of the infeasible CP model ``ir`` within ``time_limit`` seconds:
    ``(rows [(row, side)], other lines [(label, key, text, expression, span)] (global and logical
    constraints), irreducible, partial)``,
    or None when the
    model is not shown infeasible (or ``ortools`` is missing). Raises nothing for the user's model:
    a model CP-SAT refuses gives None."""
    from .cpsat import Refused, _cp_model

    cp_model = _cp_model()
    if cp_model is None:
        return None
    start = time.monotonic()

    def left() -> float:
        return time_limit - (time.monotonic() - start)

    groups = candidate_groups(ir)
    everything = set(groups)
    try:
        state, part, solver = _solve(cp_model, ir, groups, everything, left(), guarded=True)
        if state is not False:
            return None
        index = {lit.index: g for g, lit in part.literals.items()}
        core = {index[k] for k in solver.sufficient_assumptions_for_infeasibility() if k in index}
        keep = core | {g for g in groups if g[0] == "global"}
        irreducible = True
        for g in sorted(keep, key=_order):  # deletion filter: drop what the rest does not need
            if left() <= 0:
                return _answer(ir, groups, keep, False, True)
            state = _solve(cp_model, ir, groups, keep - {g}, left())[0]
            if state is False:
                keep = keep - {g}
            elif state is None:
                irreducible = False
    except Refused:
        return None
    return _answer(ir, groups, keep, irreducible, False)


def _order(g: tuple) -> tuple:
    """Global constraints first (fewer, and each covers much), then rows in model order."""
    return (0, g[1], 0) if g[0] == "global" else (1, g[1] if g[0] == "indicator" else abs(g[1]), 0)


def _side(ir: IR, i: int) -> str:
    """Which bound of row ``i`` takes part: ``both`` for a ranged row or an equation."""
    lo, up = ir.row_lower[i], ir.row_upper[i]
    return "both" if math.isfinite(lo) and math.isfinite(up) else "lower" if math.isfinite(lo) else "upper"


def _answer(ir: IR, groups: dict, keep: set, irreducible: bool, partial: bool) -> tuple:
    rows = sorted((k, _side(ir, k)) for g in keep if g[0] == "rows" for _kind, k in groups[g])
    others = [_global_line(ir, g[1]) for g in sorted(keep) if g[0] == "global"]
    others += [("", (), "logical constraint", "a logical constraint (=>)", ir.indicators[g[1]].span)
               for g in sorted(keep) if g[0] == "indicator"]
    return rows, others, irreducible, partial


def _global_line(ir: IR, k: int) -> tuple:
    """``(label, key, text, expression, span)`` of global constraint ``k`` for the conflict's lines."""
    c = ir.cp_constraints[k]
    n = len(c.exprs) or len(c.data.get("intervals", ()) or ())
    what = "%s(...) over %d %s" % (c.kind, n, "intervals" if c.data.get("intervals") else "expressions") if n \
        else "%s(...)" % c.kind
    what = c.data.get("text") or what  # the constraint as written (`stock >= 0`), where the lowering kept it
    return c.label, tuple(c.key), opl_label(c.label, c.key) if c.label else what, what, c.span
