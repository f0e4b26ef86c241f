"""IBM's ``cp`` object in the scripts of ``using CP;`` models (OPL manual, "CP Optimizer parameters"
in ILOG Script): ``cp.param.TimeLimit = 10;`` and the other parameters become CP-SAT settings
(:data:`CP_PARAMETERS`, the table of docs/cp.md); ``cp.setSearchPhases(...)`` and the search-phase
factory are accepted with a warning (CP-SAT chooses its own search)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..opl.host_errors import host_error
from ..opl.opl_objects import _Host
from ..language.values import UNDEFINED


@dataclass(frozen=True)
class CpParameter:
    """One CP Optimizer parameter: ``option`` the SolveOptions field it sets, or ``cpsat`` the
    CP-SAT parameter (a function of the value giving ``(name, value)``); ``display_only`` for
    parameters of the log (accepted, nothing to do); all None: no CP-SAT counterpart (a warning)."""

    default: Any
    option: str | None = None
    cpsat: Any = None
    display_only: bool = False


def _solution_limit(v: Any) -> tuple[str, Any]:
    return ("stop_after_first_solution", True)


#: CP Optimizer parameter -> its CP-SAT counterpart (IBM CP Optimizer Parameters Reference)
CP_PARAMETERS: dict[str, CpParameter] = {
    "TimeLimit": CpParameter(math.inf, option="time_limit"),
    "Workers": CpParameter(0, option="threads"),
    "RandomSeed": CpParameter(0, option="seed"),
    "RelativeOptimalityTolerance": CpParameter(1e-4, option="mip_gap"),
    "OptimalityTolerance": CpParameter(1e-9, option="mip_gap_abs"),
    "FailLimit": CpParameter(math.inf, cpsat=lambda v: ("max_number_of_conflicts", int(min(v, 2 ** 62)))),
    "SolutionLimit": CpParameter(math.inf, cpsat=_solution_limit),
    "LogVerbosity": CpParameter("Normal", display_only=True), "LogPeriod": CpParameter(1000, display_only=True),
    "LogSearchTags": CpParameter("Off", display_only=True), "WarningLevel": CpParameter(2, display_only=True),
    "PrintModelDetailsInMessages": CpParameter("Off", display_only=True),
    "SearchType": CpParameter("Auto"), "DefaultInferenceLevel": CpParameter("Basic"),
    "AllDiffInferenceLevel": CpParameter("Default"), "CountInferenceLevel": CpParameter("Default"),
    "ElementInferenceLevel": CpParameter("Default"), "NoOverlapInferenceLevel": CpParameter("Default"),
    "CumulFunctionInferenceLevel": CpParameter("Default"), "IntervalSequenceInferenceLevel": CpParameter("Default"),
    "PrecedenceInferenceLevel": CpParameter("Default"), "TemporalRelaxation": CpParameter("On"),
    "BranchLimit": CpParameter(math.inf), "ChoicePointLimit": CpParameter(math.inf),
    "MultiPointNumberOfSearchPoints": CpParameter(30), "RestartFailLimit": CpParameter(100),
    "RestartGrowthFactor": CpParameter(1.05), "DynamicProbing": CpParameter("Auto"),
    "ConflictRefinerTimeLimit": CpParameter(math.inf),
}


_BY_LOWER = {name.lower(): name for name in CP_PARAMETERS}


def canonical_parameter(name: str) -> str:
    """IBM's spelling of a CP Optimizer parameter written in any case (``timeLimit``, ``timelimit`` and
    ``TimeLimit`` are the same parameter to ILOG Script, as IBM's "Setting CP parameters" writes them);
    ``name`` itself when it is none."""
    return name if name in CP_PARAMETERS else _BY_LOWER.get(name.lower(), name)


class CpHost(_Host):
    """The ``cp`` object: ``cp.param``, ``cp.setSearchPhases``, ``cp.factory``."""

    type_name = "IloCP"

    def __init__(self, ctx: Any, export: Any = None):
        super().__init__(ctx)
        self.param = CpParamHost(ctx)
        self.factory = _FactoryHost(ctx)
        self.export = export  # `cp.exportModel(args, span)`: given by the flow layer, which writes files

    def _properties(self) -> list[str]:
        return ["param", "factory", "info"]

    def _methods(self) -> dict[str, Any]:
        from . import cp_search as cs

        ctx = self.ctx
        return {"setSearchPhases": self._phases, "solve": lambda a, s: cs.solve(ctx, s),
                "startNewSearch": lambda a, s: cs.start_new_search(ctx, s),
                "next": lambda a, s: cs.next_solution(ctx, s), "endSearch": lambda a, s: cs.end_search(ctx, s),
                "getObjValue": lambda a, s: cs.objective(ctx, s),
                "getObjBound": lambda a, s: cs.objective(ctx, s, "getObjBound"),
                "getObjGap": lambda a, s: cs.objective(ctx, s, "getObjGap"),
                "addKPI": lambda a, s: UNDEFINED, "exportModel": lambda a, s: self.export(a, s) if self.export else UNDEFINED,
                "setStartingPoint": lambda a, s: cs.set_starting_point(ctx, a, s), "end": lambda a, s: UNDEFINED,
                "getObjective": lambda a, s: cs.ObjectiveHost(ctx),
                "refineConflict": lambda a, s: cs.refine_conflict(ctx, s),
                "writeConflict": lambda a, s: cs.write_conflict(ctx, s)}

    def _phases(self, args: list, span: Any) -> Any:
        self.ctx.reporter.emit("script-setting-ignored", span, "`cp.setSearchPhases` is accepted and has no effect: "
                               "CP-SAT chooses its own search (a portfolio of workers)",
                               help="remove it, or keep it for CP Optimizer; see docs/cp.md")
        return UNDEFINED

    def get_member(self, name: str, span: Any) -> Any:
        if name == "param":
            return self.param
        if name == "factory":
            return self.factory
        if name == "info":
            from .cp_search import InfoHost

            return InfoHost(self.ctx)
        fn = self._method(name, span)
        fn.unevaluated = name == "addKPI"  # (it takes a dexpr, which has no value before the solve)
        return fn

    def to_display(self) -> str:
        return "[object IloCP]"


class CpParamHost(_Host):
    """``cp.param``: a parameter assigned here is kept as the setting ``cp.<Name>`` for the solve."""

    type_name = "IloCP.param"

    def _properties(self) -> list[str]:
        return list(CP_PARAMETERS)

    def get_member(self, name: str, span: Any) -> Any:
        name = canonical_parameter(name)
        got = self.ctx.settings.get("cp." + name)
        if got is not None:
            return got[0]
        p = CP_PARAMETERS.get(name)
        if p is None:
            return self._method(name, span)
        return p.default

    def set_member(self, name: str, value: Any, span: Any) -> None:
        ctx = self.ctx
        name = canonical_parameter(name)
        if ctx.phase == "post":
            ctx.reporter.emit("script-setting-ignored", span, "`cp.param.%s` is set after the solve, so it has no "
                              "effect" % name, help="set parameters in an `execute` block before the constraints")
            return
        p = CP_PARAMETERS.get(name)
        if p is None:
            from ...diagnostics.reporter import did_you_mean

            ctx.reporter.emit("script-setting-ignored", span, "`cp.param.%s` is not a CP Optimizer parameter pyopl "
                              "knows; it has no effect" % name,
                              help=did_you_mean(name, list(CP_PARAMETERS)) or "see docs/cp.md for the parameters mapped")
            return
        if (p.option or p.cpsat) and (isinstance(value, bool) or not isinstance(value, (int, float)) or value != value
                                      or value < 0):
            raise host_error("script-value-type", "`cp.param.%s` takes a number >= 0" % name, span,
                             help="assign a number, e.g. `cp.param.%s = 10;`" % name)
        ctx.settings["cp." + name] = (value, span)
        if not (p.option or p.cpsat or p.display_only):
            ctx.reporter.emit("script-setting-ignored", span, "`cp.param.%s` has no counterpart in CP-SAT; it is "
                              "ignored" % name, help="CP-SAT chooses its own search and propagation; see docs/cp.md")

    def to_display(self) -> str:
        return "[object IloCP.param]"


class _FactoryHost(_Host):
    """``cp.factory``: search phases and selectors are made (and ignored, see ``cp.setSearchPhases``)."""

    type_name = "IloCP.factory"

    def get_member(self, name: str, span: Any) -> Any:
        from ..language.values import HostFunction

        return HostFunction(name, lambda interp, this, args, sp: UNDEFINED)


def cp_settings(settings: dict, solver: str, explicit: dict, reporter: Any = None) -> tuple[dict, dict]:
    """The SolveOptions fields and CP-SAT parameters of the ``cp.<Name>`` entries of ``settings``
    (explicit arguments, not None in ``explicit``, win); with another solver than CP-SAT each is a
    warning (``script-setting-ignored``)."""
    fields: dict = {}
    extra: dict = {}
    for key, (value, span) in settings.items():
        if not key.startswith("cp."):
            continue
        p = CP_PARAMETERS.get(key[3:])
        if p is None or p.display_only or not (p.option or p.cpsat):
            continue
        if solver != "cpsat":
            if reporter is not None and span is not None:
                reporter.emit("script-setting-ignored", span, "`cp.param.%s` applies to CP-SAT, and this model is "
                              "solved with %s; it is ignored" % (key[3:], solver), help="add `using CP;`")
            continue
        if p.option is not None:
            if explicit.get(p.option) is not None or (isinstance(value, float) and math.isinf(value)):
                continue
            fields[p.option] = int(value) if p.option in ("threads", "seed") else value
            if p.option == "threads" and not fields[p.option]:
                del fields[p.option]
            continue
        if not (isinstance(value, float) and math.isinf(value)):
            k, v = p.cpsat(value)
            extra[k] = v
    return fields, extra
