"""The ``IloCP`` methods of a ``main`` block (IBM ILOG Script for OPL, ``IloCP``): the ``cp`` object
solves the current model on CP-SAT, as ``cplex`` does for MP models.

- ``cp.solve()``: solve the model ``thisOplModel.generate()`` made current; true when a solution exists;
- ``cp.startNewSearch()`` then ``while (cp.next()) { ... }``: the solutions one by one (IBM: "searches
  for the next solution"; for a model with an objective each is better than the one before).  pyopl
  solves once, keeping up to :data:`SEARCH_LIMIT` solutions (CP-SAT's solution callback; a model
  without objective enumerates distinct solutions), and each ``next()`` makes the next one the
  model's values; ``cp.endSearch()`` ends it;
- ``cp.getObjValue()``, ``cp.getObjBound()``, ``cp.getObjGap()``: of the current solution;
- ``cp.info.<Name>``: ``SolveTime``, ``NumberOfBranches``, ``NumberOfChoicePoints``, ``NumberOfFails``
  (CP-SAT's conflicts), ``NumberOfSolutions``, ``NumberOfVariables``, ``NumberOfConstraints``;
- ``new IloOplCPSolution()`` with ``sol.setValue(x, v)`` and ``cp.setStartingPoint(sol)``: CP-SAT's
  solution hints for the next solves of the current model;
- ``cp.getObjective().setCoef(x, v)``: an objective coefficient for the next solves;
- ``cp.addKPI(expr, name)``: accepted (KPIs are IBM's display);
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..opl.host_errors import host_error
from ..opl.opl_objects import DvarHost, _arg, _Host, _num, objective_coefficient
from ..language.values import UNDEFINED

#: the most solutions ``cp.startNewSearch()`` keeps for ``cp.next()``
SEARCH_LIMIT = 1000

#: ``cp.info.<Name>`` -> how it is read from a Result (IBM's IloCP info names)
INFO = {
    "SolveTime": lambda r: float(r.solve_time_s or 0.0),
    "TotalTime": lambda r: float(r.solve_time_s or 0.0),
    "NumberOfBranches": lambda r: float(r.nodes or 0),
    "NumberOfChoicePoints": lambda r: float(r.nodes or 0),
    "NumberOfFails": lambda r: float(r.extra.get("cpsat_conflicts", 0)),
    "NumberOfSolutions": lambda r: float(r.extra.get("cpsat_solutions", 1 if r.has_solution else 0)),
    "NumberOfVariables": lambda r: float(r.extra.get("cpsat_variables", 0)),
    "NumberOfConstraints": lambda r: float(r.extra.get("cpsat_constraints", 0)),
}


def _flow(ctx: Any, what: str, span: Any) -> Any:
    flow = getattr(ctx, "flow", None)
    if flow is None:
        raise host_error("script-unsupported", "`cp.%s()` runs only in a `main` block" % what, span,
                         help="without `main`, pyopl solves the model itself; read the solution in an `execute` "
                              "block after the constraints")
    if flow.current is None:
        raise host_error("script-unsupported", "`cp.%s()` before any model was generated" % what, span,
                         help="call `thisOplModel.generate();` first")
    return flow


def solve(ctx: Any, span: Any) -> bool:
    """``cp.solve()``: the current model solved (CP-SAT for a ``using CP;`` model); true with a solution."""
    flow = _flow(ctx, "solve", span)
    flow.cp_search = None
    return bool(flow.run(flow.current, span).has_solution)


def start_new_search(ctx: Any, span: Any) -> Any:
    """``cp.startNewSearch()``: one solve keeping the solutions found, for ``cp.next()``."""
    flow = _flow(ctx, "startNewSearch", span)
    m = flow.current
    result = flow.run(m, span, pool=SEARCH_LIMIT)
    flow.cp_search = {"model": m, "base": result, "next": 0, "pool": list(flow.pool or [])}
    return UNDEFINED


def next_solution(ctx: Any, span: Any) -> bool:
    """``cp.next()``: the next solution of the search becomes the model's values; false when none is left."""
    flow = getattr(ctx, "flow", None)
    search = getattr(flow, "cp_search", None) if flow is not None else None
    if search is None:
        raise host_error("script-unsupported", "`cp.next()` without a search", span,
                         help="call `cp.startNewSearch();` first (after `thisOplModel.generate();`)")
    k = search["next"]
    if k >= len(search["pool"]):
        return False
    search["next"] = k + 1
    obj, x = search["pool"][k]
    m, base = search["model"], search["base"]
    status = base.status if k == len(search["pool"]) - 1 else "feasible"
    res = flow.ctx.solver_services.result_from_solution(m.model.ir, status, x, obj, base.solver)
    res.extra.update({key: v for key, v in base.extra.items() if key != "pool"})
    m.result = res
    m.ctx.result = res
    flow.last_result = res
    return True


def end_search(ctx: Any, span: Any) -> Any:
    """``cp.endSearch()``: the search is over (the last solution stays the model's)."""
    flow = getattr(ctx, "flow", None)
    if flow is not None:
        flow.cp_search = None
    return UNDEFINED


def current_result(ctx: Any) -> Any:
    """The result the ``cp`` object reports: the current model's (after ``next()``), else the run's."""
    flow = getattr(ctx, "flow", None)
    if flow is not None:
        cur = flow.current
        return getattr(cur, "result", None) or flow.last_result
    return getattr(ctx, "result", None)


def objective(ctx: Any, span: Any, what: str = "getObjValue") -> float:
    """``cp.getObjValue()`` (``getObjBound``, ``getObjGap``) of the current solution."""
    r = current_result(ctx)
    value = None if r is None else {"getObjValue": r.objective, "getObjBound": r.best_bound,
                                    "getObjGap": r.mip_gap}[what]
    if value is None:
        raise host_error("script-no-solution", "`cp.%s()` has no value%s" % (
            what, " before a solution" if r is None or not r.has_solution else " for this model"), span,
            help="call it after `cp.solve()` returned true (or in an `execute` block after the constraints)")
    return float(value)


def info(ctx: Any, name: str, span: Any) -> float:
    """``cp.info.<name>`` of the last solve (:data:`INFO`)."""
    get = INFO.get(name)
    if get is None:
        from ...diagnostics.reporter import did_you_mean

        raise host_error("script-unknown-name", "`cp.info.%s` is not a piece of solve information pyopl has" % name,
                         span, help=did_you_mean(name, list(INFO)) or "pyopl has %s" % ", ".join(sorted(INFO)))
    r = current_result(ctx)
    if r is None:
        raise host_error("script-no-solution", "`cp.info.%s` has no value before a solve" % name, span,
                         help="read it after `cp.solve()`")
    return get(r)


class InfoHost(_Host):
    """``cp.info``: solve information by IBM's names (:data:`INFO`)."""

    type_name = "IloCP.info"

    def _properties(self) -> list[str]:
        return list(INFO)

    def get_member(self, name: str, span: Any) -> Any:
        return info(self.ctx, name, span)

    def to_display(self) -> str:
        return "[object IloCP.info]"


class CPSolution(_Host):
    """``new IloOplCPSolution()``: values for decision variables, a starting point (``setValue(x, v)``)."""

    type_name = "IloOplCPSolution"

    def __init__(self, flow: Any):
        super().__init__(flow.ctx)
        self.flow = flow
        self.values: dict[int, float] = {}

    def _methods(self) -> dict[str, Any]:
        return {"setValue": self._set, "setPresent": lambda a, s: UNDEFINED, "setAbsent": lambda a, s: UNDEFINED,
                "end": lambda a, s: UNDEFINED}

    def _set(self, args: list, span: Any) -> Any:
        var = _arg(args, 0)
        if not isinstance(var, DvarHost) or not var.is_item:
            raise host_error("script-value-type", "`setValue(x, v)` takes a decision variable item first", span,
                             help="write `sol.setValue(thisOplModel.x[i], 3);`")
        v = _num(self.ctx, _arg(args, 1), span, "the value")
        if not math.isfinite(v):
            raise host_error("script-value-type", "the value of `setValue` must be a finite number", span,
                             help="check the computation that gave it")
        self.values[var.column()] = v
        return UNDEFINED

    def to_display(self) -> str:
        return "[object IloOplCPSolution]"


def set_starting_point(ctx: Any, args: list, span: Any) -> Any:
    """``cp.setStartingPoint(sol)``: the values of ``sol`` become CP-SAT's hints for the current model's solves."""
    flow = _flow(ctx, "setStartingPoint", span)
    sol = _arg(args, 0)
    if not isinstance(sol, CPSolution):
        raise host_error("script-value-type", "`cp.setStartingPoint` takes an `IloOplCPSolution`", span,
                         help="write `var sol = new IloOplCPSolution(); sol.setValue(x, 1); cp.setStartingPoint(sol);`")
    m = flow.current
    start = np.full(m.model.ir.num_cols, np.nan)
    for j, v in sol.values.items():
        if 0 <= j < len(start):
            start[j] = v
    m.start = start
    return UNDEFINED


def refine_conflict(ctx: Any, span: Any) -> bool:
    """``cp.refineConflict()`` (IloCP): true when the last solve was infeasible and a conflict was found
    (pyopl's CP conflict refiner, :mod:`pyopl.backends.cp.conflict`), which ``cp.writeConflict()``
    and ``printConflict()`` then print; false otherwise (no solve yet, or the model has a solution)."""
    res = current_result(ctx)
    if res is None or res.status != "infeasible":
        return False
    if getattr(res, "conflict", None) is None:
        flow = getattr(ctx, "flow", None)
        cur = getattr(flow, "current", None) if flow is not None else None
        ir = getattr(getattr(cur, "model", None), "ir", None)
        if ir is not None:
            res.conflict = ctx.solver_services.explain_infeasible(ir, "cpsat", time_limit=60.0)
    return res.conflict is not None


def write_conflict(ctx: Any, span: Any) -> Any:
    """``cp.writeConflict()``: the conflict that :func:`refine_conflict` found (as ``printConflict()``
    prints it), or a line saying that there is none."""
    res = current_result(ctx)
    conflict = getattr(res, "conflict", None) if res is not None else None
    ctx.write(conflict.text() + "\n" if conflict is not None else "no conflict: %s\n" % (
        "the last solve was not infeasible" if res is None or res.status != "infeasible" else
        "the conflict refiner found none within its time"))
    return UNDEFINED


class ObjectiveHost(_Host):
    """``cp.getObjective()``: the model's objective; ``setCoef(x, v)`` sets the coefficient of the decision
    variable item ``x`` for the next solves (as ``cplex.setObjCoef``), ``getValue()`` its value now."""

    type_name = "IloObjective"

    def _methods(self) -> dict:
        return {"setCoef": self._set_coef, "getValue": lambda a, s: objective(self.ctx, s)}

    def _set_coef(self, args: list, span: Any) -> Any:
        var = _arg(args, 0)
        if getattr(self.ctx, "flow", None) is None or not isinstance(var, DvarHost) or not var.is_item:
            raise host_error("script-unsupported", "`setCoef(x, v)` takes a decision variable item, in `main` after "
                             "`generate()`", span, help="write `cp.getObjective().setCoef(thisOplModel.x[i], 2);`")
        v = objective_coefficient(self.ctx, args, span)
        var.ctx.ir.obj[var.column()] = v
        return UNDEFINED

    def to_display(self) -> str:
        return "[object IloObjective]"
