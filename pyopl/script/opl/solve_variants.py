"""The solves of a ``main`` block besides ``cplex.solve()`` (IBM ILOG Script for OPL, ``IloCplex`` and
``IloOplModel``):

- ``cplex.populate()``: a solve that also fills the solution pool (IBM: "generates multiple
  solutions to a mixed integer programming model"); ``cplex.solnPoolNsolns`` counts the pool,
  ``cplex.getObjValue(k)`` gives the objective of pool member ``k`` and
  ``thisOplModel.setPoolSolution(k)`` makes member ``k`` the values the model's elements show.
  Gurobi (n-best pool search), CPLEX (populate) and SCIP (the solutions it kept while solving)
  have a pool; with ``--solver auto`` the first of them, in that order, that is installed and
  takes the model solves it (:func:`pyopl.backends.script_services.pool_solver`, reached through
  ``ctx.solver_services``: the backends sit above the scripts).  Without one (HiGHS) the solve
  runs as ``solve()`` and the pool holds its one solution, with a warning (OPL1068) that names
  the method.
- ``cplex.solveFixed()``: after a MIP solve, the LP with every integer variable fixed at its value
  in the incumbent, so that duals, slacks and reduced costs exist (CPLEX's "fixed" problem).
- ``cplex.clearModel()``: ``cplex`` forgets the generated model; the next solve needs ``generate()``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .host_errors import host_error
from .opl_objects import _arg, _Host, _num, objective_coefficient
from ..language.values import UNDEFINED

#: IBM's default for ``cplex.populatelim`` (CPLEX parameter PopulateLim)
POPULATE_LIMIT = 20


def _current(flow: Any, what: str, span: Any) -> Any:
    if flow is None:
        raise host_error("script-unsupported", "`cplex.%s()` runs only in a `main` block" % what, span,
                         help="an `execute` block runs before or after the solve that pyopl does for you")
    if flow.current is None:
        raise host_error("script-unsupported", "`cplex.%s()` before any model was generated" % what, span,
                         help="call `thisOplModel.generate();` first")
    return flow.current


def column_values(ir: Any, result: Any) -> np.ndarray:
    """The value of every column of ``ir`` in ``result`` (the solution by OPL names), in column order."""
    x = np.zeros(ir.num_cols)
    for j in range(ir.num_cols):
        v = result.variables.get(ir.col_name[j])
        key = ir.col_key[j]
        if v is not None:
            x[j] = float(v[key] if key and not isinstance(v, (int, float)) else v)
    return x


def populate(flow: Any, span: Any) -> bool:
    """``cplex.populate()``: solve the current model keeping up to ``cplex.populatelim`` solutions (20
    by default) in the pool; true when a solution exists."""
    m = _current(flow, "populate", span)
    ir = m.model.ir
    limit = flow.ctx.settings.get("populatelim", (POPULATE_LIMIT, None))[0]
    # (the range 0.. is checked where it is set, settings.RANGES; 0 generates no solution beyond the
    # incumbent, which the pool keeps)
    limit = max(1, int(limit)) if isinstance(limit, (int, float)) and math.isfinite(limit) and limit >= 0 else POPULATE_LIMIT
    solver = flow.ctx.solver_services.pool_solver(ir, flow.kw.get("solver", "auto"))
    if solver is None:
        asked = flow.kw.get("solver", "auto")
        flow.ctx.reporter.emit(
            "script-pool-unavailable", span,
            "`cplex.populate()`: %s has no solution pool, so the pool holds the one solution of a plain solve"
            % ("no installed solver" if asked == "auto" else "the solver `%s`" % asked),
            help="run with `--solver gurobi`, `--solver cplex` or `--solver scip` (pip install pyopl[...]) for a pool")
        result = flow.run(m, span)
        if result.has_solution:
            flow.pool = [(result.objective, column_values(ir, result))]
            result.extra["pool_objectives"] = [float(result.objective or 0.0)]
        return bool(result.has_solution)
    result = flow.run(m, span, solver=solver, pool=min(limit, 10_000))
    return bool(result.has_solution)


def _pool(flow: Any, span: Any, what: str) -> list:
    pool = flow.pool if flow is not None else None
    if pool is None:
        raise host_error("script-no-solution", "`%s` has no solution pool to read: call `cplex.populate()` first" % what,
                         span, help="`cplex.solve()` fills no pool; `cplex.populate()` does")
    return pool


def pool_size(flow: Any) -> float:
    """``cplex.solnPoolNsolns``: the number of solutions in the last solve's pool (0 before
    ``populate()``, and after a plain ``solve()``)."""
    return float(len(flow.pool)) if flow is not None and flow.pool is not None else 0.0


def _member(flow: Any, args: list, span: Any, what: str, ctx: Any) -> tuple:
    pool = _pool(flow, span, what)
    k = _num(ctx, _arg(args, 0), span, "the solution's index")
    if not float(k).is_integer() or not 0 <= k < len(pool):
        raise host_error("script-index-out-of-range", "`%s`: the pool has %d solution%s, numbered 0 to %d; %s is not one"
                         % (what, len(pool), "" if len(pool) == 1 else "s", len(pool) - 1, _num_text(k)), span,
                         help="loop `for (var s = 0; s < cplex.solnPoolNsolns; s++)`")
    return pool[int(k)]


def _num_text(k: float) -> str:
    return str(int(k)) if float(k).is_integer() else repr(k)


def pool_objective(flow: Any, args: list, span: Any, ctx: Any) -> float:
    """``cplex.getObjValue(k)``: the objective value of pool member ``k``."""
    obj, _x = _member(flow, args, span, "cplex.getObjValue(k)", ctx)
    return float(obj)


def set_pool_solution(model: Any, args: list, span: Any) -> bool:
    """``thisOplModel.setPoolSolution(k)``: the model's decision variables and dexprs show pool member
    ``k`` (``cplex``'s own values, ``getObjValue()``, stay the incumbent's)."""
    flow = model.flow
    if model.model is None or model.result is None:
        raise host_error("script-no-solution", "`setPoolSolution(k)` before the model was populated", span,
                         help="call `cplex.populate()` first")
    obj, x = _member(flow, args, span, "setPoolSolution(k)", model.flow.ctx)
    base = flow.last_result
    res = flow.ctx.solver_services.result_from_solution(model.model.ir, base.status, x, obj, base.solver)
    model.result = res
    model.ctx.result = res
    return True


def solve_fixed(flow: Any, span: Any) -> bool:
    """``cplex.solveFixed()``: the last solve's integer variables fixed at their values and the LP
    solved again (its duals, slacks and reduced costs then exist); true when it has a solution."""
    m = _current(flow, "solveFixed", span)
    last = m.result
    if last is None or not last.has_solution:
        raise host_error("script-no-solution", "`cplex.solveFixed()` needs a solution of the model to fix", span,
                         help="call `cplex.solve()` first and test its result")
    ir = m.model.ir
    return bool(flow.run(m, span, ir=flow.ctx.solver_services.fixed_ir(ir, column_values(ir, last)) if ir.is_mip else ir).has_solution)


def clear_model(flow: Any, span: Any) -> Any:
    """``cplex.clearModel()``: no model is current until the next ``generate()``."""
    from ..language.values import UNDEFINED

    if flow is None:
        raise host_error("script-unsupported", "`cplex.clearModel()` runs only in a `main` block", span,
                         help="move it into `main { ... }`")
    flow.current = None
    return UNDEFINED


class ObjectiveHost(_Host):
    """``thisOplModel.getObjective()`` in ``main`` (IBM: the model's ``IloObjective``): ``setCoef(x, v)``
    changes the objective coefficient of a decision for the next solves (as ``cplex.setObjCoef``),
    ``getCoef(x)`` reads it; ``sense`` is ``"minimize"`` or ``"maximize"``."""

    type_name = "IloObjective"

    def __init__(self, model: Any):
        super().__init__(model.ctx)
        self.model = model

    def _properties(self) -> list[str]:
        return ["sense"]

    def _methods(self) -> dict[str, Any]:
        return {"setCoef": self._set_coef, "getCoef": self._get_coef}

    def get_member(self, name: str, span: Any) -> Any:
        if name == "sense":
            return self.model.model.ir.sense
        return self._method(name, span)

    def _column(self, args: list, span: Any, what: str) -> int:
        from .opl_objects import DvarHost

        var = _arg(args, 0)
        if not isinstance(var, DvarHost) or not var.is_item or var.ctx is not self.model.ctx:
            raise host_error("script-value-type", "`%s` takes a decision variable item of this model" % what, span,
                             help="write `opl.getObjective().%s(opl.x, ...)`" % what)
        return var.column()

    def _set_coef(self, args: list, span: Any) -> Any:
        j = self._column(args, span, "setCoef")
        v = objective_coefficient(self.ctx, args, span)
        self.model.model.ir.obj[j] = v
        return UNDEFINED

    def _get_coef(self, args: list, span: Any) -> Any:
        return float(self.model.model.ir.obj[self._column(args, span, "getCoef")])
