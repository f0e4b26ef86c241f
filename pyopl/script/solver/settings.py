"""CPLEX parameters set by a script (``cplex.tilim = 60;``) mapped onto pyopl's solver options.

The names are CPLEX's short parameter names as OPL scripts write them (IBM CPLEX Parameters
Reference).  With ``--solver cplex`` every parameter of :data:`PARAMETERS` reaches CPLEX one to one
(:data:`CPLEX_PATHS`: the Python API's name of the same parameter).  For HiGHS, SCIP or Gurobi a
parameter pyopl maps reaches the solver as the option in :data:`PARAMETERS`; one the chosen solver
cannot honour is a warning at solve time naming it and the solver (OPL1058), and a name CPLEX does
not have is a warning where it is set.  Explicit ``Model.solve`` / command-line arguments
(``--time-limit``) win over script settings.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..opl.host_errors import host_error


@dataclass(frozen=True)
class Parameter:
    """One CPLEX parameter: ``option`` is the SolveOptions field it sets (or None), ``highs`` /
    ``gurobi`` / ``scip`` the backend option for the rest (a function of the value giving
    (name, value), or None)."""

    default: Any
    option: str | None = None
    highs: Any = None
    gurobi: Any = None
    display_only: bool = False  # affects only the solver's log (accepted, nothing to do)
    scip: Any = None
    # read by pyopl's own ``cplex.populate()`` whatever the solver (the size of the pool it asks
    # for: :func:`pyopl.script.opl.solve_variants.populate`), so no solver "ignores" it
    read_by_populate: bool = False


def _lp_method_highs(v: float):
    return ("solver", {1: "simplex", 2: "simplex", 4: "ipm"}.get(int(v), "choose"))


def _lp_method_gurobi(v: float):
    return ("Method", {0: -1, 1: 0, 2: 1, 3: 3, 4: 2, 6: 3}.get(int(v), -1))


PARAMETERS: dict[str, Parameter] = {
    "tilim": Parameter(1e75, option="time_limit"),
    "epgap": Parameter(1e-4, option="mip_gap"),
    "epagap": Parameter(1e-6, option="mip_gap_abs"),
    "threads": Parameter(0, option="threads"),
    "randomseed": Parameter(201903125, option="seed"),
    "epint": Parameter(1e-5, highs=lambda v: ("mip_feasibility_tolerance", float(v)),
                       gurobi=lambda v: ("IntFeasTol", max(1e-9, float(v)))),  # SCIP: one feastol for all
    "eprhs": Parameter(1e-6, highs=lambda v: ("primal_feasibility_tolerance", float(v)),
                       gurobi=lambda v: ("FeasibilityTol", float(v)), scip=lambda v: ("numerics/feastol", float(v))),
    "epopt": Parameter(1e-6, highs=lambda v: ("dual_feasibility_tolerance", float(v)),
                       gurobi=lambda v: ("OptimalityTol", float(v)), scip=lambda v: ("numerics/dualfeastol", float(v))),
    "nodelim": Parameter(9223372036800000000, highs=lambda v: ("mip_max_nodes", int(min(v, 2 ** 31 - 1))),
                         gurobi=lambda v: ("NodeLimit", float(v)), scip=lambda v: ("limits/nodes", int(min(v, 2 ** 62)))),
    "itlim": Parameter(9223372036800000000, highs=lambda v: ("simplex_iteration_limit", int(min(v, 2 ** 31 - 1))),
                       gurobi=lambda v: ("IterationLimit", float(v))),
    "mipemphasis": Parameter(0, gurobi=lambda v: ("MIPFocus", {0: 0, 1: 1, 2: 2, 3: 3, 4: 1}.get(int(v), 0))),
    "lpmethod": Parameter(0, highs=_lp_method_highs, gurobi=_lp_method_gurobi),
    "rootalg": Parameter(0, highs=_lp_method_highs, gurobi=_lp_method_gurobi),
    "preind": Parameter(1, highs=lambda v: ("presolve", "on" if v else "off"),
                        gurobi=lambda v: ("Presolve", -1 if v else 0),
                        scip=lambda v: ("presolving/maxrounds", -1 if v else 0)),
    "solnpoolcapacity": Parameter(2100000000, gurobi=lambda v: ("PoolSolutions", int(min(v, 2000000000)))),
    "mipdisplay": Parameter(2, display_only=True),
    "simdisplay": Parameter(1, display_only=True),
    "bardisplay": Parameter(1, display_only=True),
    "mipinterval": Parameter(0, display_only=True),
    "workmem": Parameter(2048, scip=lambda v: ("limits/memory", float(v))),
    "treememory": Parameter(1e75),
    "parallelmode": Parameter(0),
    "cutup": Parameter(1e75),
    "cutlo": Parameter(-1e75),
    "mipsearch": Parameter(0),
    "probe": Parameter(0),
    "heurfreq": Parameter(0),
    "varsel": Parameter(0),
    "nodesel": Parameter(1),
    "cliques": Parameter(0), "covers": Parameter(0), "gomory": Parameter(0), "fraccuts": Parameter(0),
    "mircuts": Parameter(0), "flowcovers": Parameter(0), "implbd": Parameter(0), "disjcuts": Parameter(0),
    "zerohalfcuts": Parameter(0), "cutpass": Parameter(0), "aggind": Parameter(-1), "reduce": Parameter(3),
    "numericalemphasis": Parameter(0), "scaind": Parameter(0), "polishtime": Parameter(0),
    "optimalitytarget": Parameter(0), "solutiontype": Parameter(0), "clocktype": Parameter(2),
    "datacheck": Parameter(0), "intsollim": Parameter(
        9223372036800000000, highs=lambda v: ("mip_max_improving_sols", int(min(v, 2 ** 31 - 1))),
        gurobi=lambda v: ("SolutionLimit", int(min(v, 2 ** 31 - 1))), scip=lambda v: ("limits/solutions", int(min(v, 2 ** 31 - 1)))),
    "solnpoolintensity": Parameter(0), "solnpoolagap": Parameter(1e75), "solnpoolgap": Parameter(1e75),
    "populatelim": Parameter(20, read_by_populate=True), "barepcomp": Parameter(1e-8), "barcrossalg": Parameter(0),
    "bendersstrategy": Parameter(0),  # CPLEX's Benders decomposition: the algorithm, not the optimum
    "eplin": Parameter(1e-3, display_only=True),  # used by pyopl's own linearisation (docs/language.md)
}


#: The CPLEX Python API's name (``Cplex.parameters.<path>``) of each parameter of :data:`PARAMETERS`
#: (IBM CPLEX Parameters Reference, "Parameters of CPLEX" table: short name -> Python API name).
CPLEX_PATHS: dict[str, str] = {
    "tilim": "timelimit", "epgap": "mip.tolerances.mipgap", "epagap": "mip.tolerances.absmipgap",
    "threads": "threads", "randomseed": "randomseed", "epint": "mip.tolerances.integrality",
    "eprhs": "simplex.tolerances.feasibility", "epopt": "simplex.tolerances.optimality",
    "nodelim": "mip.limits.nodes", "itlim": "simplex.limits.iterations", "mipemphasis": "emphasis.mip",
    "lpmethod": "lpmethod", "rootalg": "mip.strategy.startalgorithm", "preind": "preprocessing.presolve",
    "solnpoolcapacity": "mip.pool.capacity", "mipdisplay": "mip.display", "simdisplay": "simplex.display",
    "bardisplay": "barrier.display", "mipinterval": "mip.interval", "workmem": "workmem",
    "treememory": "mip.limits.treememory", "parallelmode": "parallel", "cutup": "mip.tolerances.uppercutoff",
    "cutlo": "mip.tolerances.lowercutoff", "mipsearch": "mip.strategy.search", "probe": "mip.strategy.probe",
    "heurfreq": "mip.strategy.heuristicfreq", "varsel": "mip.strategy.variableselect",
    "nodesel": "mip.strategy.nodeselect", "cliques": "mip.cuts.cliques", "covers": "mip.cuts.covers",
    "gomory": "mip.cuts.gomory", "fraccuts": "mip.cuts.gomory", "mircuts": "mip.cuts.mircut",
    "flowcovers": "mip.cuts.flowcovers", "implbd": "mip.cuts.implied", "disjcuts": "mip.cuts.disjunctive",
    "zerohalfcuts": "mip.cuts.zerohalfcut", "cutpass": "mip.limits.cutpasses", "aggind": "preprocessing.aggregator",
    "reduce": "preprocessing.reduce", "numericalemphasis": "emphasis.numerical", "scaind": "read.scale",
    "polishtime": "mip.polishafter.time", "optimalitytarget": "optimalitytarget", "solutiontype": "solutiontype",
    "clocktype": "clocktype", "datacheck": "read.datacheck", "intsollim": "mip.limits.solutions", "bendersstrategy": "benders.strategy",
    "solnpoolintensity": "mip.pool.intensity", "solnpoolagap": "mip.pool.absgap", "solnpoolgap": "mip.pool.relgap",
    "populatelim": "mip.limits.populate", "barepcomp": "barrier.convergetol", "barcrossalg": "barrier.crossover",
    "eplin": "mip.tolerances.linearization",
}

#: Solver names as the warnings write them.
_SOLVER_TITLES = {"highs": "HiGHS", "gurobi": "Gurobi", "scip": "SCIP", "cplex": "CPLEX"}


# Valid ranges of the parameters pyopl passes on (IBM CPLEX Parameters Reference); a value
# outside is an error at the assignment, not a solver refusal pointing at no line.
RANGES: dict[str, tuple[float, float]] = {
    "tilim": (0, math.inf), "epgap": (0, 1), "epagap": (0, math.inf), "threads": (0, 2 ** 31 - 1),
    "randomseed": (0, 2 ** 31 - 1), "epint": (0, 0.5), "eprhs": (1e-9, 1e-1), "epopt": (1e-9, 1e-1),
    "nodelim": (0, math.inf), "itlim": (0, math.inf),
    # the solution pool's ("Any nonnegative integer"; intensity 0 to 4)
    "populatelim": (0, 2 ** 31 - 1), "solnpoolcapacity": (0, 2100000000), "solnpoolintensity": (0, 4),
}


def record_setting(ctx: Any, name: str, value: Any, span: Any) -> None:
    """``cplex.NAME = value`` in a script: kept for the next solve; a warning names a parameter
    CPLEX does not have or that pyopl cannot honour with the chosen solver."""
    if isinstance(value, bool):
        value = float(value)
    if not isinstance(value, (int, float)) or math.isnan(value):
        raise host_error("script-value-type", "`cplex.%s` takes a number, not %s" % (name, _words(value)), span,
                         help="assign a number, e.g. `cplex.%s = 60;`" % name)
    lo, hi = RANGES.get(name, (-math.inf, math.inf))
    if not lo <= value <= hi:
        want = "a number >= %s" % _num(lo) if hi == math.inf else "a number from %s to %s" % (_num(lo), _num(hi))
        raise host_error("script-value-type", "`cplex.%s` takes %s, not %s" % (name, want, _num(value)), span, help="assign a value in that range (IBM CPLEX Parameters Reference)")
    if ctx.phase == "post":
        ctx.reporter.emit("script-setting-ignored", span, "`cplex.%s` is set after the solve, so it has no effect" % name,
                          help="set solver parameters in an `execute` block before the objective and constraints")
        return
    ctx.settings[name] = (value, span)
    p = PARAMETERS.get(name)
    if p is None:
        from ...diagnostics.reporter import did_you_mean

        ctx.reporter.emit("script-setting-ignored", span, "`cplex.%s` is not a CPLEX parameter pyopl knows; it has no effect"
                          % name, help=did_you_mean(name, list(PARAMETERS)) or "see docs/solvers.md for the settings pyopl maps")
    # a known parameter the chosen solver cannot honour is named at solve time (apply_settings)


def _num(v: float) -> str:
    return "%d" % v if float(v).is_integer() and abs(v) < 1e16 else "%g" % v


def _words(v: Any) -> str:
    from ..opl.opl_objects import describe

    return describe(v)


def apply_settings(settings: dict[str, tuple[Any, Any]], solver: str, explicit: dict[str, Any], reporter: Any = None
                   ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The solve arguments that script ``settings`` add: (``SolveOptions`` fields, backend options,
    names not honoured by ``solver``).  ``explicit`` holds the arguments the caller gave (not None),
    which win over the script.  ``solver`` is a backend name (``auto`` already resolved); with
    ``cplex`` every known parameter passes through under its Python API name (:data:`CPLEX_PATHS`).
    A parameter the solver cannot honour is a warning (``script-setting-ignored``) at its assignment."""
    from .cp_object import cp_settings

    ignored: list[str] = []
    fields, extra = cp_settings(settings, solver, explicit, reporter)  # `cp.param.X` (using CP;)
    for name, (value, span) in settings.items():
        p = PARAMETERS.get(name)
        if p is None:
            continue
        if p.option is not None:
            if explicit.get(p.option) is not None:
                continue
            if p.option == "time_limit" and value >= 1e75:
                continue
            if p.option in ("threads", "seed"):
                value = int(value)
                if p.option == "threads" and value <= 0:
                    continue
            fields[p.option] = value
            continue
        if solver == "cplex":
            if not p.display_only and name in CPLEX_PATHS:
                extra[CPLEX_PATHS[name]] = value
            continue
        if p.display_only or p.read_by_populate:
            continue
        conv = getattr(p, solver, None)
        if conv is None:
            ignored.append(name)
            if reporter is not None and span is not None:
                title = _SOLVER_TITLES.get(solver, solver)
                reporter.emit("script-setting-ignored", span, "`cplex.%s` has no equivalent in %s; it is ignored" % (
                    name, title), help="solve with `--solver cplex` to use it, or remove it")
            continue
        k, v = conv(value)
        extra[k] = v
    return fields, extra, ignored


# IBM CPLEX solution status codes (``cplex.status``, ``cplex.getCplexStatus()``): CPLEX Callable Library
# reference, group optim.cplex.solutionstatus. Continuous problems (LP, QP, QCP) take the CPX_STAT_*
# codes, problems with integer variables the CPXMIP_* codes.
_LP_STATUS = {"optimal": 1, "unbounded": 2, "infeasible": 3, "infeasible_or_unbounded": 4, "time_limit": 11,
              "interrupted": 13, "feasible": 6, "error": 0}
_LP_STOPPED = {"iteration_limit": 10, "objective_limit": 12}
_MIP_STATUS = {"optimal": 101, "infeasible": 103, "unbounded": 118, "infeasible_or_unbounded": 119, "error": 0}
# (with an incumbent, without one) for the limits that stop a MIP search
_MIP_STOPPED = {"time_limit": (107, 108), "node_limit": (105, 106), "interrupted": (113, 114),
                "solution_limit": (104, 104), "iteration_limit": (113, 114)}
#: A relative gap at or below this counts as closed (CPXMIP_OPTIMAL rather than CPXMIP_OPTIMAL_TOL).
CLOSED_GAP = 1e-9


def cplex_status(status: str, is_mip: bool, has_solution: bool = True, *, gap: float | None = None,
                 stopped_by: str | None = None, native: int | None = None) -> int:
    """IBM's numeric ``cplex.status`` for a pyopl outcome, by problem type.

    ``status``: pyopl's word (:data:`pyopl.result.STATUSES`); ``is_mip``: whether the problem has
    integer variables (CPLEX's MIP codes 1xx) or not (LP/QP codes); ``gap``: the final relative MIP
    gap (an optimal MIP with a gap left open is 102, CPXMIP_OPTIMAL_TOL, a closed one 101,
    CPXMIP_OPTIMAL); ``stopped_by``: the limit that ended a search (``solution_limit`` 104,
    ``node_limit`` 105/106, ``iteration_limit`` 10 for an LP); ``native``: the code CPLEX itself
    returned (``--solver cplex``), used as it is."""
    if native is not None:
        return int(native)
    if not is_mip:
        if status == "feasible" and stopped_by in _LP_STOPPED:
            return _LP_STOPPED[stopped_by]
        return _LP_STATUS.get(status, 0)
    if status == "optimal":
        return 102 if gap is not None and gap > CLOSED_GAP else 101
    why = stopped_by if status == "feasible" else status
    if why in _MIP_STOPPED:
        return _MIP_STOPPED[why][0 if has_solution else 1]
    if status == "feasible":  # stopped by a limit the backend did not name: CPLEX's "feasible, aborted"
        return 113
    return _MIP_STATUS.get(status, 0)


def result_cplex_status(result: Any, is_mip: bool) -> int:
    """:func:`cplex_status` of a :class:`~pyopl.result.Result` (its status, gap, stop reason, and the
    code CPLEX returned when CPLEX solved it)."""
    extra = getattr(result, "extra", {}) or {}
    return cplex_status(result.status, is_mip, bool(result.variables), gap=result.mip_gap,
                        stopped_by=extra.get("stopped_by"), native=extra.get("cplex_status"))
