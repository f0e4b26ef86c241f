"""IBM ILOG Script's OPL globals: ``writeln``/``write``, ``Opl.*``, ``cplex``, ``thisOplModel``,
``IloOplOutputFile`` and the ``main`` classes (IBM OPL manual, "IBM ILOG Script for OPL",
reference of ``IloOplModel``, ``IloCplex``, ``IloOplOutputFile``).

What a script writes is captured in the context (never printed directly).  Output files are
confined to the run's output folder (:mod:`pyopl.script.files.output_files`).
"""
from __future__ import annotations

import math
import os
import random
import time
from typing import Any

from ..solver.cp_object import CpHost
from .cp_export import export_cp_model
from ..opl.host_errors import host_error
from ..language.budgets import charge_chars, hold
from ..files.output_files import confined_path, write_confined
from ..opl import opl_arrays
from ..opl.opl_objects import describe as _words, objective_coefficient, SetHost, TupleHost, _arg, _Host, _num, display, js_number, to_key, to_script
from ..language.values import NULL, HostFunction, HostObject, UNDEFINED

#: Names IBM offers that pyopl does not run (an error naming the name, never a silent skip).
UNSUPPORTED_GLOBALS = ("IloOplCallJava", "IloOplImportExcel", "IloOplProject",
                       "IloOplRunConfiguration", "IloOplSettings", "IloCP", "IloOplProfiler",
                       "stop")  # IBM's "Miscellaneous functions": stop() halts the program for the debugger


MAX_OUTPUT = 20_000_000  # characters a model's scripts may print in all


def _fn(name: str, body, constructor: bool = False) -> HostFunction:
    """A host function whose Python body takes ``(args, span)``."""
    return HostFunction(name, lambda interp, this, args, span: body(args, span), constructor)


class Runtime:
    """The globals of one script context (made once; the objects are cheap and stateless but for ``cplex``)."""

    def __init__(self, ctx: Any):
        self.ctx = ctx
        self.rng = random.Random(0)
        self.cplex = CplexHost(ctx)
        self.opl = OplNamespace(ctx, self)
        self.settings = SettingsHost(ctx)
        self.this_model: Any = ThisModelHost(ctx)
        self._globals: dict[str, Any] | None = None
        self.written = 0  # characters printed so far (bounded by MAX_OUTPUT)

    def globals(self) -> dict[str, Any]:
        if self._globals is None:
            ctx = self.ctx
            g = {
                "writeln": _fn("writeln", lambda a, s: self._write(a, "\n", s)),
                "write": _fn("write", lambda a, s: self._write(a, "", s)),
                "Opl": self.opl,
                "cplex": self.cplex,
                "cp": CpHost(ctx, export=lambda a, s: export_cp_model(ctx, a, s)),
                "thisOplModel": self.this_model,
                "settings": self.settings,
                "IloOplOutputFile": _fn("IloOplOutputFile", lambda a, s: OutputFileHost(ctx, a, s), True),
                "fail": _fn("fail", lambda a, s: _fail(s)),
                "IloOplInputFile": _fn("IloOplInputFile", lambda a, s: _input_file(ctx, a, s), True),
                "IloOplOutputString": _fn("IloOplOutputString", lambda a, s: _output_string(ctx), True),
                "includeScript": _include("includeScript", ctx), "loadFile": _include("loadFile", ctx),
            }
            g["IloOplExec"] = _fn("IloOplExec", lambda a, s: _exec_not_run(ctx, a, s))
            for name in UNSUPPORTED_GLOBALS + SEGMENT_READERS:
                g[name] = _fn(name, lambda a, s, n=name: _unsupported(n, s), True)
            g.update(main_classes(ctx))
            self._globals = g
        return self._globals

    def _write(self, args: list, end: str, span: Any = None) -> Any:
        from ..opl.host import show_values

        text = show_values(args) + end
        self.written += len(text)
        charge_chars(len(text), span)
        if self.written > MAX_OUTPUT:
            from ..language.values import ScriptError

            raise ScriptError("script-memory-budget", "the script printed more than %d million characters" % (
                MAX_OUTPUT // 1_000_000), span, help="print less (a summary instead of every value)", catchable=False)
        self.ctx.write(text)
        return UNDEFINED


#: the classes a ``main`` block makes with ``new`` (built by ``main_flow.Flow.construct``)
MAIN_CLASSES = ("IloOplModel", "IloOplModelSource", "IloOplModelDefinition", "IloOplDataSource",
                "IloOplDataElements", "IloCplex", "IloOplCplexVectors", "IloOplCplexBasis", "IloOplConflictIterator",
                "IloOplRelaxationIterator", "IloOplCPSolution")


def main_classes(ctx: Any) -> dict[str, Any]:
    """The ``main`` classes as script globals; outside ``main`` each says it runs only there.  Inside,
    ``new X(...)`` is ``ctx.flow.construct("X", args, span)`` (the flow is set by ``main_flow``, which
    imports this module)."""
    def cons(name: str) -> HostFunction:
        def body(interp, this, args, span):
            flow = getattr(ctx, "flow", None)
            if flow is None:
                raise host_error("script-unsupported", "`new %s(...)` runs only in a `main` block" % name, span,
                                 help="move the flow control into `main { ... }`")
            return flow.construct(name, args, span)
        return HostFunction(name, body, True)

    return {name: cons(name) for name in MAIN_CLASSES}


_CLOCK_START = time.perf_counter()


def cplex_time() -> float:
    """``cplex.getCplexTime()``: a time stamp in seconds (IBM, "Using the timing interface": compare
    two stamps for the elapsed wall-clock time); counted from when pyopl's script runtime loaded."""
    return time.perf_counter() - _CLOCK_START


def _input_file(ctx: Any, args: list, span: Any) -> Any:
    from ..files.input_files import InputFileHost

    return InputFileHost(ctx, args, span)


def _include(name: str, ctx: Any) -> HostFunction:
    """``includeScript(file)`` / ``loadFile(file)`` (:mod:`pyopl.script.files.include_script`)."""
    def body(interp, this, args, span):
        from ..files.include_script import include_script

        return include_script(ctx, interp, args, span, name)
    return HostFunction(name, body)


def _output_string(ctx: Any) -> Any:
    from ..files.output_string import OutputStringHost

    return OutputStringHost(ctx)


def _fail(span: Any) -> Any:
    """``fail()`` (IBM ILOG Script, "Miscellaneous functions"): stops the block at this statement and
    reports an error."""
    e = host_error("script-fail-called", "`fail()` called: the script block stops here", span,
                   help="remove the call, or the condition that leads to it, once the model's data is right")
    e.catchable = False
    raise e


_UNSUPPORTED_HELP = {
    "IloCP": "use the model's own `cp` object (`cp.param`), or solve a sub-model with `new IloOplModel(def, cplex)`",
    "stop": "pyopl has no script debugger to stop in; remove it (or use `fail()` to end the block with an error)",
    "IloOplProject": "run each model with its data: `new IloOplModel(new IloOplModelDefinition(src), cplex)`",
    "IloOplRunConfiguration": "run each model with its data: `new IloOplModel(new IloOplModelDefinition(src), cplex)`",
}
#: OPL functions that read a fixed cumul or state function after a CP solve (Quick Reference): script globals
#: that refuse with ``script-unsupported`` (a script's own function of the same name replaces them).
SEGMENT_READERS = ("cumulFunctionValue", "stateFunctionValue", "segmentStart", "segmentEnd", "segmentValue",
                   "numberOfSegments")


def unsupported_help(name: str) -> str:
    """What to do instead of a name of :data:`UNSUPPORTED_GLOBALS` or :data:`SEGMENT_READERS`."""
    if name in SEGMENT_READERS:
        return "read the interval variables instead (`a.start`, `a.end`, `a.present`)"
    return _UNSUPPORTED_HELP.get(name, "remove it; pyopl runs no external programs and reads no files from scripts")


def _exec_not_run(ctx: Any, args: list, span: Any) -> Any:
    """``IloOplExec(command[, wait])``: IBM's OPL runs ``command`` as a separate program (models call
    it after the solve, mostly to plot what a script wrote). pyopl runs no program (docs/safety.md):
    the call is a warning (OPL1081) naming the command, the script goes on and the call's value is
    ``undefined``; nothing else of the run changes."""
    command = _arg(args, 0)
    shown = '"%s"' % command if isinstance(command, str) else display(command)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    ctx.reporter.emit("script-program-not-run", span, "`IloOplExec(%s)` was not run: pyopl runs no external "
                      "program, so the script goes on without it (the call's value is `undefined`)" % shown,
                      help="run the command yourself after pyopl, on the files the script wrote to its output folder")
    return UNDEFINED


def _unsupported(name: str, span: Any) -> Any:
    """The error for a name of :data:`UNSUPPORTED_GLOBALS` or :data:`SEGMENT_READERS` (``script-unsupported``)."""
    raise host_error("script-unsupported", "`%s` is not supported by pyopl" % name, span, help=unsupported_help(name))


# ---------------------------------------------------------------------- Opl.*
class OplNamespace(_Host):
    """``Opl.abs``, ``Opl.ceil``, ``Opl.card``, ``Opl.ord``, ``Opl.item``, ``Opl.rand``, ... (OPL's
    functions, as IBM's ``Opl`` script object gives them)."""

    type_name = "Opl"

    def __init__(self, ctx: Any, runtime: Runtime):
        super().__init__(ctx)
        self.rt = runtime

    def _properties(self) -> list[str]:
        return ["maxint", "minint", "infinity"]

    def get_member(self, name: str, span: Any) -> Any:
        if name == "maxint":
            return float(2 ** 31 - 1)
        if name == "minint":
            return float(-(2 ** 31) + 1)
        if name == "infinity":
            return math.inf
        return self._method(name, span)

    def _methods(self) -> dict[str, Any]:
        def n(a, s, k=0):
            return _num(self.ctx, _arg(a, k), s, "the argument")

        def setarg(a, s) -> SetHost:
            v = _arg(a, 0)
            if not isinstance(v, SetHost):
                raise host_error("script-value-type", "the first argument must be an OPL set or range, not %s" %
                                 _words(v), s, help="pass a set declared in the model")
            return v

        def rnd(a, s):
            if a:
                hi = int(n(a, s))
                if hi <= 0:
                    raise host_error("script-value-type", "`Opl.rand(n)` needs n > 0, got %d" % hi, s,
                                     help="give a positive bound: the result is an integer in 0..n-1")
                return float(self.rt.rng.randrange(hi))
            return self.rt.rng.random()

        def srand(a, s):
            self.rt.rng.seed(int(n(a, s)))
            return UNDEFINED

        def rounded(a, s):
            from ..stdlib.builtins import _round

            return _round(n(a, s))

        return {
            "abs": lambda a, s: abs(n(a, s)), "fabs": lambda a, s: abs(n(a, s)),
            "ceil": lambda a, s: float(math.ceil(n(a, s))), "floor": lambda a, s: float(math.floor(n(a, s))),
            "round": rounded, "trunc": lambda a, s: float(math.trunc(n(a, s))),
            "sqrt": lambda a, s: math.sqrt(n(a, s)) if n(a, s) >= 0 else math.nan,
            # the OPL functions (base 10, natural, base 2), not JavaScript's Math.log (natural)
            "log": lambda a, s: _log(n(a, s), math.log10), "ln": lambda a, s: _log(n(a, s), math.log),
            "lg": lambda a, s: _log(n(a, s), math.log2),
            "exp": lambda a, s: _exp(n(a, s)), "pow": lambda a, s: _pow(n(a, s), n(a, s, 1)),
            "max": lambda a, s: max(_num(self.ctx, x, s, "an argument") for x in a) if a else -math.inf,
            "min": lambda a, s: min(_num(self.ctx, x, s, "an argument") for x in a) if a else math.inf,
            "maxl": lambda a, s: max(_num(self.ctx, x, s, "an argument") for x in a) if a else -math.inf,
            "minl": lambda a, s: min(_num(self.ctx, x, s, "an argument") for x in a) if a else math.inf,
            "card": lambda a, s: float(len(setarg(a, s).value)),
            "ord": lambda a, s: float(setarg(a, s)._position(_arg(a, 1), s, "ord")[1]),
            "item": lambda a, s: setarg(a, s).item_at(a[1:], s),
            "first": lambda a, s: setarg(a, s)._first([], s), "last": lambda a, s: setarg(a, s)._last([], s),
            "next": lambda a, s: setarg(a, s)._next(a[1:], s), "prev": lambda a, s: setarg(a, s)._prev(a[1:], s),
            "nextc": lambda a, s: setarg(a, s)._nextc(a[1:], s), "prevc": lambda a, s: setarg(a, s)._prevc(a[1:], s),
            "rand": rnd, "srand": srand,
            "intValue": lambda a, s: float(math.trunc(n(a, s))),
            # OPL's frac, sgn and ftoi (IBM: every OPL function is reachable as Opl.xxx in scripts)
            "frac": lambda a, s: n(a, s) - math.trunc(n(a, s)) if math.isfinite(n(a, s)) else math.nan,
            "sgn": lambda a, s: float((n(a, s) > 0) - (n(a, s) < 0)),
            "ftoi": lambda a, s: float(math.trunc(n(a, s))) if math.isfinite(n(a, s)) else math.nan,
            "distToInt": lambda a, s: abs(n(a, s) - round(n(a, s))),
            "element": lambda a, s: opl_arrays.element(self.ctx, a, s),
            "standardDeviation": lambda a, s: opl_arrays.std_dev(self.ctx, a, s),
            "append": lambda a, s: opl_arrays.append(a, s),
            # an interval's solution (OPL's presenceOf/startOf/... in a script: IBM's VRP example reads
            # `Opl.presenceOf(truck[veh])` after the solve); an absent interval gives absVal (0)
            "presenceOf": lambda a, s: _interval_arg(self.ctx, a, s, "presenceOf").get_member("present", s),
            **{fn: (lambda a, s, fn=fn, member=member: _interval_value(self.ctx, a, s, fn, member))
               for fn, member in (("startOf", "start"), ("endOf", "end"), ("sizeOf", "size"), ("lengthOf", "length"))},
        }


def _interval_arg(ctx: Any, args: list, span: Any, fn: str) -> Any:
    """The one interval variable ``Opl.<fn>`` reads (a script error naming what was given instead)."""
    from ..opl.intervals import IntervalHost

    iv = _arg(args, 0)
    if not isinstance(iv, IntervalHost) or not iv.is_item:
        raise host_error("script-value-type", "`Opl.%s` takes one interval variable, not %s" % (fn, _words(iv)), span,
                         help="write `Opl.%s(a)` with `a` one interval of the solved model" % fn)
    return iv


def _interval_value(ctx: Any, args: list, span: Any, fn: str, member: str) -> Any:
    """``Opl.startOf(a[, absVal])`` and its kin after a solve: the interval's value, ``absVal`` (0) when absent
    (OPL Language Reference, "startOf")."""
    iv = _interval_arg(ctx, args, span, fn)
    if not iv.get_member("present", span):
        return _num(ctx, args[1], span, "the absent value of `Opl.%s`" % fn) if len(args) > 1 else 0.0
    return iv.get_member(member, span)


def _log(v: float, fn: Any) -> float:
    """A logarithm as a script number: -Infinity at 0, NaN below (as ``Math.log`` gives them)."""
    return fn(v) if v > 0 else (-math.inf if v == 0 else math.nan)


def _exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _pow(a: float, b: float) -> float:
    try:
        return float(a ** b) if not (a < 0 and not float(b).is_integer()) else math.nan
    except (OverflowError, ZeroDivisionError):
        return math.inf


# ---------------------------------------------------------------------- cplex
class CplexHost(_Host):
    """IBM's ``cplex`` object: parameters (``cplex.tilim = 60``) become solver settings (see
    :mod:`pyopl.script.solver.settings`); after a solve, ``getObjValue()``, ``getBestObjValue()``,
    ``status``; in ``main``, ``solve()``."""

    type_name = "IloCplex"

    def __init__(self, ctx: Any):
        super().__init__(ctx)
        self.flow: Any = None  # main_flow.Flow when running `main`

    def _properties(self) -> list[str]:
        from ..solver.settings import PARAMETERS

        return ["status", "solnPoolNsolns"] + list(PARAMETERS)

    def _methods(self) -> dict[str, Any]:
        from ..opl import solve_variants as variants

        return {"getObjValue": self._obj, "getBestObjValue": self._best, "getMIPRelativeGap": self._gap,
                "getCplexStatus": lambda a, s: self._status(s), "getStatus": lambda a, s: self._status(s),
                "solve": self._solve, "end": lambda a, s: UNDEFINED, "getNiterations": self._iters,
                "getNnodes": self._nodes, "setParam": self._set_param, "getParam": self._get_param,
                "getObjective": self._obj, "getCplexTime": lambda a, s: cplex_time(),
                "setObjCoef": self._set_obj_coef, "setLb": lambda a, s: self._set_bound(a, s, "LB"),
                "setUb": lambda a, s: self._set_bound(a, s, "UB"), "exportModel": self._export,
                "addMIPStart": self._add_mip_start, "writeMIPStarts": self._write_mip_starts,
                "populate": lambda a, s: variants.populate(self.flow, s),
                "solveFixed": lambda a, s: variants.solve_fixed(self.flow, s),
                "clearModel": lambda a, s: variants.clear_model(self.flow, s)}

    def _export(self, args: list, span: Any) -> Any:
        """``cplex.exportModel("m.lp")`` (or ``.mps``): the generated model written, as `pyopl export`
        writes it, into the run's output folder (the checks of :mod:`pyopl.script.files.output_files`)."""
        from ..files.output_files import confined_path

        name = _arg(args, 0)
        if not isinstance(name, str) or not name.lower().endswith((".lp", ".mps")):
            raise host_error("script-value-type", "`cplex.exportModel` needs a file name ending in .lp or .mps", span,
                             help='write `cplex.exportModel("model.lp");`')
        cur = self.flow.current if self.flow is not None else None
        ir = cur.model.ir if cur is not None and cur.model is not None else (None if self.flow is not None else self.ctx.ir)
        export = getattr(self.ctx, "export_model", None)
        if ir is None or export is None:
            raise host_error("script-unsupported", "`cplex.exportModel` needs the generated model: call it in `main` "
                             "after `generate()`, or after the constraints", span, help="or use `pyopl export --lp`")
        path = confined_path(self.ctx, name, span)
        if path is None or getattr(self.ctx.options, "analysis", False):
            return UNDEFINED
        if getattr(ir, "engine", "mp") == "cp":  # the file would be another model (OPL1201 on `pyopl export`)
            raise host_error("script-unsupported", "`cplex.exportModel`: this is a `using CP;` model, and an LP or "
                             "MPS file cannot hold it (interval variables, sequences, cumul functions and global "
                             "constraints have no rows there)", span,
                             help="solve it; to export the linear form instead, remove `using CP;`")
        try:
            export(ir, path)
        except OSError as e:
            raise host_error("script-output-failed", "the model could not be written to `%s`: %s" % (name, e), span,
                             help="check the output folder's permissions and free space")
        self.ctx.files_written.append(path)
        return UNDEFINED

    def _var(self, args: list, span: Any, what: str) -> Any:
        from ..opl.opl_objects import DvarHost

        var = _arg(args, 0)
        if self.flow is None or not isinstance(var, DvarHost) or not var.is_item:
            raise host_error("script-unsupported", "`cplex.%s(x, v)` takes a decision variable item, in `main` "
                             "after `generate()`" % what, span, help="write `cplex.%s(x[i], 2);` in `main`" % what)
        return var

    def _set_obj_coef(self, args: list, span: Any) -> Any:
        """``cplex.setObjCoef(x, v)``: the objective coefficient of ``x`` for the next solve."""
        var = self._var(args, span, "setObjCoef")
        v = objective_coefficient(self.ctx, args, span)
        var.ctx.ir.obj[var.column()] = v
        return UNDEFINED

    def _set_bound(self, args: list, span: Any, which: str) -> Any:
        """``cplex.setLb(x, v)`` / ``cplex.setUb(x, v)``: as ``x.LB = v`` / ``x.UB = v``; on a labelled
        constraint ``ct``, as ``ct.LB = v`` / ``ct.UB = v`` (its row's bound for the next solves)."""
        from ..opl.constraint_host import ConstraintHost

        ct = _arg(args, 0)
        if isinstance(ct, ConstraintHost) and self.flow is not None:
            ct.set_member(which, _arg(args, 1), span)
            return UNDEFINED
        var = self._var(args, span, "setLb" if which == "LB" else "setUb")
        var.set_member(which, _arg(args, 1), span)
        return UNDEFINED

    def _add_mip_start(self, args: list, span: Any) -> Any:
        """``cplex.addMIPStart(dvars, values[, effort, name])`` (flow control): the values start the next
        solves of the model ``cplex`` solves (a partial start is completed by the solver; several
        calls add up, the last value of a variable counting); returns the start's number."""
        import numpy as np

        from ..solver.warm_start import mip_start_values

        if self.flow is None:
            raise host_error("script-unsupported", "`cplex.addMIPStart(...)` runs only in a `main` block", span,
                             help="call it in `main`, after `generate()` and before `cplex.solve()`")
        m = self.flow.current
        if m is None or m.model is None:
            raise host_error("script-unsupported", "`cplex.addMIPStart(...)` needs a generated model", span,
                             help="call `generate()` on the model first")
        x = mip_start_values(m, _arg(args, 0), _arg(args, 1), span)
        if m.start is not None and len(m.start) == len(x):
            x = np.where(np.isnan(x), m.start, x)
        m.start = x
        self.__dict__["_starts"] = self.__dict__.get("_starts", 0) + 1
        return float(self.__dict__["_starts"] - 1)

    def _write_mip_starts(self, args: list, span: Any) -> Any:
        """``cplex.writeMIPStarts(name)``: the last solve's solution as a MIP start file in CPLEX's MST
        format (XML: one ``<variable name value>`` per column, OPL names), in the output folder."""
        from xml.sax.saxutils import quoteattr

        from ..opl.solve_variants import column_values

        name = _arg(args, 0)
        if not isinstance(name, str) or not name:
            raise host_error("script-value-type", "`cplex.writeMIPStarts` needs a file name", span,
                             help='write `cplex.writeMIPStarts("start.mst");`')
        res = self._need("writeMIPStarts", span)
        cur = self.flow.current if self.flow is not None else None
        ir = cur.model.ir if cur is not None and cur.model is not None else self.ctx.ir
        if ir is None or not res.has_solution:
            raise host_error("script-no-solution", "`cplex.writeMIPStarts()`: the last solve has no solution", span,
                             help="test the result of `cplex.solve()` first")
        x = column_values(ir, res)
        rows = ['  <variable name=%s index="%d" value="%s"/>' % (quoteattr(ir.column_label(j)), j, js_number(float(v)))
                for j, v in enumerate(x)]
        text = "\n".join(['<?xml version = "1.0" encoding="UTF-8" standalone="yes"?>', '<CPLEXSolutions version="1.2">',
                          ' <CPLEXSolution version="1.2">', '  <header solutionName="m1" MIPStartIndex="0"/>',
                          '  <variables>'] + rows + ['  </variables>', ' </CPLEXSolution>', '</CPLEXSolutions>', ""])
        path = confined_path(self.ctx, name, span)
        write_confined(self.ctx, path, name, text, False, span)
        if path is not None and not getattr(self.ctx.options, "analysis", False):
            self.ctx.files_written.append(path)
        return UNDEFINED

    def _result(self) -> Any:
        if self.flow is not None:
            return self.flow.last_result
        return self.ctx.result

    def _need(self, what: str, span: Any) -> Any:
        res = self._result()
        if res is None:
            raise host_error("script-no-solution", "`cplex.%s()` has no value before the model is solved" % what, span,
                             help="call it in an `execute` block after the constraints, or after `cplex.solve()` in `main`")
        return res

    def _obj(self, args: list, span: Any) -> Any:
        if args and args[0] is not UNDEFINED:  # getObjValue(k): pool member k (IBM's solution pool example)
            from ..opl.solve_variants import pool_objective

            return pool_objective(self.flow, args, span, self.ctx)
        res = self._need("getObjValue", span)
        if res.objective is None:
            raise host_error("script-no-solution", "`cplex.getObjValue()`: the solve ended `%s` without a solution" %
                             res.status, span, help="test the result of `cplex.solve()` first")
        return float(res.objective)

    def _best(self, args: list, span: Any) -> Any:
        res = self._need("getBestObjValue", span)
        if res.best_bound is not None:
            return float(res.best_bound)
        if res.status == "optimal" and res.objective is not None:
            return float(res.objective)
        raise host_error("script-no-solution", "`cplex.getBestObjValue()`: the solver reported no bound", span,
                         help="test the result of `cplex.solve()` first")

    def _gap(self, args: list, span: Any) -> Any:
        res = self._need("getMIPRelativeGap", span)
        return float(res.mip_gap) if res.mip_gap is not None else 0.0

    def _iters(self, args: list, span: Any) -> Any:
        res = self._need("getNiterations", span)
        return float(res.iterations or 0)

    def _nodes(self, args: list, span: Any) -> Any:
        res = self._need("getNnodes", span)
        return float(res.nodes or 0)

    def _status(self, span: Any) -> Any:
        from ..solver.settings import result_cplex_status

        res = self._result()
        if res is None:
            return 0.0
        cur = self.flow.current if self.flow is not None else None
        ir = cur.model.ir if cur is not None and cur.model is not None else (None if self.flow is not None else self.ctx.ir)
        return float(result_cplex_status(res, bool(ir is not None and ir.is_mip)))

    def _solve(self, args: list, span: Any) -> Any:
        if self.flow is None:
            raise host_error("script-unsupported", "`cplex.solve()` runs only in a `main` block", span,
                             help="an `execute` block runs before or after the solve that pyopl does for you")
        return self.flow.solve(span)

    def _set_param(self, args: list, span: Any) -> Any:
        raise host_error("script-unsupported", "`cplex.setParam(...)` is not supported", span,
                         help="assign the parameter by name, e.g. `cplex.tilim = 60;`")

    def _get_param(self, args: list, span: Any) -> Any:
        raise host_error("script-unsupported", "`cplex.getParam(...)` is not supported", span,
                         help="read the parameter by name, e.g. `cplex.tilim`")

    def get_member(self, name: str, span: Any) -> Any:
        from ..solver.settings import PARAMETERS

        if name == "status":
            return self._status(span)
        if name == "solnPoolNsolns":
            from ..opl.solve_variants import pool_size

            return pool_size(self.flow)
        if name in self.ctx.settings:
            return self.ctx.settings[name][0]
        if name in PARAMETERS:
            return PARAMETERS[name].default
        return self._method(name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        from ..solver.settings import record_setting

        record_setting(self.ctx, name, value, span)

    def to_display(self) -> str:
        return "[object IloCplex]"


class SettingsHost(_Host):
    """OPL's ``settings`` object (display settings such as ``displayWidth``): accepted, no effect on results."""

    type_name = "IloOplSettings"

    def __init__(self, ctx: Any):
        super().__init__(ctx)
        self.values: dict[str, Any] = {}

    def _properties(self) -> list[str]:
        return ["displayComponentName", "displayWidth", "displayPrecision", "run_engineLog"]

    def get_member(self, name: str, span: Any) -> Any:
        if name in self.values:
            return self.values[name]
        if name in self._properties():
            return UNDEFINED
        return self._method(name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        self.values[name] = value


# ---------------------------------------------------------------------- thisOplModel
class ThisModelHost(_Host):
    """``thisOplModel`` outside ``main``: the model's elements by name, ``printSolution()``."""

    type_name = "IloOplModel"

    def _methods(self) -> dict[str, Any]:
        return {"printSolution": self._print_solution, "generate": self._main_only("generate"),
                "postProcess": self._main_only("postProcess"), "end": lambda a, s: UNDEFINED,
                "addDataSource": self._main_only("addDataSource"), "getObjValue": self._obj,
                "resolvePath": self._resolve_path, "printConflict": self._print_conflict,
                "printExternalData": lambda a, s: self._data_text(True, s),
                "printInternalData": lambda a, s: self._data_text(False, s)}

    def _data_text(self, external: bool, span: Any) -> str:
        from ..opl.data_print import data_text

        return data_text(self.ctx, external, span, MAX_OUTPUT)

    def _resolve_path(self, args: list, span: Any) -> Any:
        return resolve_path(self.ctx, args, span)

    def _print_conflict(self, args: list, span: Any) -> Any:
        return print_conflict(self.ctx, self.ctx.result)

    def _properties(self) -> list[str]:
        from ..opl.host import ModelHost

        return ModelHost(self.ctx).member_names()

    def _main_only(self, name: str):
        def fail(args: list, span: Any) -> Any:
            raise host_error("script-unsupported", "`thisOplModel.%s()` runs only in a `main` block" % name, span,
                             help="an `execute` block is already part of the generated model's processing")
        return fail

    def _obj(self, args: list, span: Any) -> Any:
        return self.ctx.runtime.cplex._obj(args, span)

    def _print_solution(self, args: list, span: Any) -> Any:
        self.ctx._need_solution("`thisOplModel.printSolution()`", span)
        self.ctx.write(solution_text(self.ctx))
        return UNDEFINED

    def get_member(self, name: str, span: Any) -> Any:
        m = self._methods()
        if name in m:
            return self._method(name, span)
        if name == "settings" and "settings" not in self.ctx.inst.symbols:  # IloOplModel.settings, as in `main`
            return self.ctx.runtime.settings
        from ..opl.host import element

        return element(self.ctx, name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        from ..opl.host import ModelHost

        ModelHost(self.ctx).set_member(name, value, span)

    def iter_keys(self):
        from ..opl.host import element_names

        return element_names(self.ctx)

    def get_index(self, key: Any, span: Any) -> Any:
        """``thisOplModel["n"]``: the element by name, as ``thisOplModel.n`` (what a for-in gives)."""
        return self.get_member(key, span) if isinstance(key, str) else super().get_index(key, span)

    def to_display(self) -> str:
        return "thisOplModel"


def resolve_path(ctx: Any, args: list, span: Any) -> Any:
    """``thisOplModel.resolvePath(name)``: the file name resolved against the model's folder (a
    string; reading or writing the file stays confined as every script file is)."""
    name = _arg(args, 0)
    if not isinstance(name, str):
        raise host_error("script-value-type", "`resolvePath` needs a file name, not %s" % _words(name), span,
                         help='give a name such as `"data.txt"`')
    folder = ctx.model_dir  # None for a model given as text: the name as given, never the current folder
    return name if os.path.isabs(name) or folder is None else os.path.join(folder, name)


def print_conflict(ctx: Any, result: Any) -> str:
    """``thisOplModel.printConflict()``: the conflicting constraints of the last infeasible solve
    (the conflict pyopl computed, OPL0704) as a string, which the call returns without printing it
    (IBM's reference: it "prints the conflicting constraints ... to a string"; IBM's samples print it
    with ``writeln(opl.printConflict())``); a line saying that none is available when the solve was
    infeasible and the search found none (a CP model infeasible through its global constraints); the
    empty string when the last solve was not infeasible."""
    conflict = getattr(result, "conflict", None) if result is not None else None
    if conflict is not None:
        return conflict.text() + "\n"
    if result is not None and result.status == "infeasible":
        cp = result.solver == "cpsat"
        return "infeasible: no conflict available: %s\n" % (
            "pyopl's CP conflict refiner (CP-SAT assumptions and a deletion filter over the constraints, global "
            "ones included) found none within its time" if cp else "the conflict search found none within its time")
    return ""


def solution_text(ctx: Any) -> str:
    """``printSolution()``: each decision variable as ``name = value;`` (arrays ``[1 2 3]``), as oplrun prints it."""
    from ..opl.opl_objects import DvarHost

    res = ctx.result
    lines = ["// solution (%s) with objective %s" % (res.status, js_number(res.objective) if res.objective is not None
                                                     else "none")]
    for name in ctx.inst.dvar_blocks:
        lines.append("%s = %s;" % (name, DvarHost(ctx, name).to_display()))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- output files
class OutputFileHost(_Host):
    """``new IloOplOutputFile(name[, append])``: text collected and written on ``close()`` (or
    when the script ends), into the run's output folder only (:mod:`pyopl.script.files.output_files`)."""

    type_name = "IloOplOutputFile"

    def __init__(self, ctx: Any, args: list, span: Any):
        super().__init__(ctx)
        self.path: str | None = None  # None in an analysis without a folder: the text goes to a sink
        self.last_path: str | None = None  # the file's path once opened (for `exists` after `close`)
        self.name = ""
        self.is_open = False
        self.parts: list[str] = []
        self.size = 0  # characters in ``parts``
        self.append = False
        self.span = span  # where the file was made: a write failing at the script's end points here
        if args and args[0] is not UNDEFINED:
            self._open(args, span)

    def _open(self, args: list, span: Any) -> Any:
        name = _arg(args, 0)
        if not isinstance(name, str):
            raise host_error("script-value-type", "`IloOplOutputFile` needs a file name, not %s" % _words(name), span,
                             help='give a name such as `"results.txt"`')
        self.name = name
        self.path = self.last_path = confined_path(self.ctx, name, span)
        self.is_open = True
        self.append = len(args) > 1 and bool(args[1]) and args[1] is not UNDEFINED
        self.parts, self.size = [], 0
        self.ctx.open_files = getattr(self.ctx, "open_files", [])
        self.ctx.open_files.append(self)
        return UNDEFINED

    def _methods(self) -> dict[str, Any]:
        return {"write": lambda a, s: self._write(a, ""), "writeln": lambda a, s: self._write(a, "\n"),
                "close": lambda a, s: self.close(s), "open": self._open}

    def _properties(self) -> list[str]:
        return ["exists", "isOpen"]

    def get_member(self, name: str, span: Any) -> Any:
        if name == "exists":  # the file is on disk (written by an earlier close, or there before)
            target = self.path or self.last_path
            return bool(target is not None and os.path.isfile(target))
        if name == "isOpen":  # a property (IBM: deprecated, "use exists instead")
            return self.is_open
        return self._method(name, span)

    def _write(self, args: list, end: str) -> Any:
        from ..opl.host import show_values

        if not self.is_open:
            return UNDEFINED
        text = show_values(args) + end
        self.size += len(text)  # (a running count: summing the parts at every write was quadratic)
        charge_chars(len(text), None)
        hold(len(text), None)  # the text kept until `close()` counts against the script's memory budget
        if self.size > 50_000_000:
            raise host_error("script-output-outside", "the output file `%s` grew past 50 MB" % self.name,
                             None, help="write less, or write the results with `pyopl solve --output`")
        self.parts.append(text)
        return UNDEFINED

    def close(self, span: Any = None) -> Any:
        if not self.is_open:
            return UNDEFINED
        path, self.path, self.is_open = self.path, None, False  # closed even when the write fails (no second try)
        text, self.parts, self.size = "".join(self.parts), [], 0
        if getattr(self.ctx.options, "analysis", False):  # nothing written: the sink keeps it for a read-back
            keep_in_sink(self.ctx, self.name, path, text, self.append, span if span is not None else self.span)
        write_confined(self.ctx, path, self.name, text, self.append, span if span is not None else self.span)
        if path is not None and not getattr(self.ctx.options, "analysis", False):
            self.ctx.files_written.append(path)
        return UNDEFINED


def keep_in_sink(ctx: Any, name: str, path: str | None, text: str, append: bool, span: Any = None) -> None:
    """Keep the text an analysis would have written to output file ``name`` (``path`` None when the
    output folder does not exist yet), so that an ``IloOplInputFile`` of the same run reads it back."""
    from ..files.input_paths import sink_key

    from ..files.output_files import written_name

    sink = ctx.__dict__.setdefault("sink_files", {})
    key = sink_key(written_name(ctx, name))
    if append:
        before = sink.get(key)
        if before is None and path is not None and os.path.isfile(path) and not os.path.islink(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                before = f.read()
        text = (before or "") + text
    from ..files.output_files import count_written

    count_written(ctx, len(text.encode("utf-8", "surrogatepass")), name, span)  # as a solve would count it
    sink[key] = text


def close_files(ctx: Any) -> None:
    """Write every output file a script left open (IBM closes them when the script ends)."""
    for f in list(getattr(ctx, "open_files", [])):
        f.close()
    ctx.open_files = []
