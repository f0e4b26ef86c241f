"""CPLEX parameters set by a script (``cplex.tilim = 60;``) mapped onto pyopl's solver options.

The names are CPLEX's short parameter names as OPL scripts write them (IBM CPLEX Parameters
Reference).  A parameter pyopl maps reaches HiGHS or Gurobi as the option in :data:`PARAMETERS`;
one it cannot honour, or a name CPLEX does not have, is a warning naming it (OPL1058).
Explicit ``Model.solve`` / command-line arguments (``--time-limit``) win over script settings.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .host_errors import host_error


@dataclass(frozen=True)
class Parameter:
    """One CPLEX parameter: ``option`` is the SolveOptions field it sets (or None), ``highs`` /
    ``gurobi`` the backend option for the rest (a function of the value giving (name, value), or None)."""

    default: Any
    option: str | None = None
    highs: Any = None
    gurobi: Any = None
    display_only: bool = False  # affects only the solver's log (accepted, nothing to do)


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
                       gurobi=lambda v: ("IntFeasTol", max(1e-9, float(v)))),
    "eprhs": Parameter(1e-6, highs=lambda v: ("primal_feasibility_tolerance", float(v)),
                       gurobi=lambda v: ("FeasibilityTol", float(v))),
    "epopt": Parameter(1e-6, highs=lambda v: ("dual_feasibility_tolerance", float(v)),
                       gurobi=lambda v: ("OptimalityTol", float(v))),
    "nodelim": Parameter(9223372036800000000, highs=lambda v: ("mip_max_nodes", int(min(v, 2 ** 31 - 1))),
                         gurobi=lambda v: ("NodeLimit", float(v))),
    "itlim": Parameter(9223372036800000000, highs=lambda v: ("simplex_iteration_limit", int(min(v, 2 ** 31 - 1))),
                       gurobi=lambda v: ("IterationLimit", float(v))),
    "mipemphasis": Parameter(0, gurobi=lambda v: ("MIPFocus", {0: 0, 1: 1, 2: 2, 3: 3, 4: 1}.get(int(v), 0))),
    "lpmethod": Parameter(0, highs=_lp_method_highs, gurobi=_lp_method_gurobi),
    "rootalg": Parameter(0, highs=_lp_method_highs, gurobi=_lp_method_gurobi),
    "preind": Parameter(1, highs=lambda v: ("presolve", "on" if v else "off"),
                        gurobi=lambda v: ("Presolve", -1 if v else 0)),
    "solnpoolcapacity": Parameter(2100000000, gurobi=lambda v: ("PoolSolutions", int(min(v, 2000000000)))),
    "mipdisplay": Parameter(2, display_only=True),
    "simdisplay": Parameter(1, display_only=True),
    "bardisplay": Parameter(1, display_only=True),
    "mipinterval": Parameter(0, display_only=True),
    "workmem": Parameter(2048),
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
    "datacheck": Parameter(0), "intsollim": Parameter(9223372036800000000),
    "solnpoolintensity": Parameter(0), "solnpoolagap": Parameter(1e75), "solnpoolgap": Parameter(1e75),
    "populatelim": Parameter(20), "barepcomp": Parameter(1e-8), "barcrossalg": Parameter(0),
}


# Valid ranges of the parameters pyopl passes on (IBM CPLEX Parameters Reference); a value
# outside is an error at the assignment, not a solver refusal pointing at no line.
RANGES: dict[str, tuple[float, float]] = {
    "tilim": (0, math.inf), "epgap": (0, 1), "epagap": (0, math.inf), "threads": (0, 2 ** 31 - 1),
    "randomseed": (0, 2 ** 31 - 1), "epint": (0, 0.5), "eprhs": (1e-9, 1e-1), "epopt": (1e-9, 1e-1),
    "nodelim": (0, math.inf), "itlim": (0, math.inf),
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
        from ..diagnostics.reporter import did_you_mean

        ctx.reporter.emit("script-setting-ignored", span, "`cplex.%s` is not a CPLEX parameter pyopl knows; it has no effect"
                          % name, help=did_you_mean(name, list(PARAMETERS)) or "see docs/solvers.md for the settings pyopl maps")
    elif p.option is None and p.highs is None and p.gurobi is None and not p.display_only:
        ctx.reporter.emit("script-setting-ignored", span, "`cplex.%s` has no equivalent in HiGHS or Gurobi; pyopl ignores it"
                          % name, help="remove it, or pass a solver option with `--option NAME=VALUE`")


def _num(v: float) -> str:
    return "%d" % v if float(v).is_integer() and abs(v) < 1e16 else "%g" % v


def _words(v: Any) -> str:
    from .opl_objects import describe

    return describe(v)


def apply_settings(settings: dict[str, tuple[Any, Any]], solver: str, explicit: dict[str, Any], reporter: Any = None
                   ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The solve arguments that script ``settings`` add: (``SolveOptions`` fields, backend options,
    names not honoured by ``solver``).  ``explicit`` holds the arguments the caller gave (not None),
    which win over the script."""
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    ignored: list[str] = []
    for name, (value, span) in settings.items():
        p = PARAMETERS.get(name)
        if p is None or p.display_only:
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
        conv = p.highs if solver == "highs" else p.gurobi
        if conv is None:
            if p.highs is not None or p.gurobi is not None:
                ignored.append(name)
                if reporter is not None and span is not None:
                    reporter.emit("script-setting-ignored", span, "`cplex.%s` has no equivalent in %s; it is ignored" % (
                        name, "HiGHS" if solver == "highs" else "Gurobi"),
                        help="solve with %s to use it, or remove it" % ("--solver gurobi" if solver == "highs" else "HiGHS"))
            continue
        k, v = conv(value)
        extra[k] = v
    return fields, extra, ignored


# IBM CPLEX status codes (``cplex.status``; CPLEX Callable Library, "Solution status codes").
_LP_STATUS = {"optimal": 1, "unbounded": 2, "infeasible": 3, "infeasible_or_unbounded": 4, "time_limit": 11,
              "feasible": 1, "error": 0}
_MIP_STATUS = {"optimal": 101, "infeasible": 103, "unbounded": 118, "infeasible_or_unbounded": 119,
               "feasible": 102, "error": 0}


def cplex_status(status: str, is_mip: bool, has_solution: bool = True) -> int:
    """IBM's numeric ``cplex.status`` for a pyopl status (time limit: 107 with an incumbent, 108 without)."""
    if status == "time_limit":
        return (107 if has_solution else 108) if is_mip else 11
    return (_MIP_STATUS if is_mip else _LP_STATUS).get(status, 0)
