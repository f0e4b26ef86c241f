"""The Python API: compile a model (path or text) with data (path, text or dict), check, solve.

``compile_text``/``check_text`` never treat a string as a file name (``source="text"``)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterable

from .diagnostics.diagnostic import CompileError, Diagnostic, Span
from .diagnostics.reporter import Reporter, TooManyErrors
from .files.source_io import looks_like_path
from .ir import IR
from .limits import Limits
from .results.result import Result


_SOURCES = ("auto", "text")


class _Named:
    """Model text already read from the file ``name`` (``check --fix`` reads it under a lock)."""

    def __init__(self, text: str, name: str):
        self.text, self.name = text, name


def _read_source(src: Any, default_name: str, source: str = "auto", notes: list | None = None) -> tuple[str, str]:
    """(text, file name) from a Path, a path string (``source="auto"`` only), or text.

    A leading UTF-8 byte-order mark is dropped. Raises :class:`~pyopl.files.source_io.SourceProblem`
    for a file that cannot be read or is not UTF-8, TypeError for anything but str and Path."""
    from .files.source_io import read_source_file

    if isinstance(src, _Named):
        return src.text, src.name
    if isinstance(src, Path):
        return read_source_file(src, notes)[0], str(src)
    if not isinstance(src, str):
        raise TypeError("a model is given as text (str) or a pathlib.Path, not %s" % type(src).__name__)
    if source == "auto" and looks_like_path(src, (".mod", ".dat")):
        name = src.strip()
        return read_source_file(name, notes)[0], name
    return src.lstrip("\ufeff"), default_name


class Model:
    """A compiled model instance: the IR plus the diagnostics (warnings) of its compilation.

    Attributes: ``ir`` (:class:`~pyopl.ir.IR`), ``diagnostics`` (warnings; errors would
    have raised :class:`CompileError`), ``sources`` (file name -> text), ``compile_time_s``
    (seconds from source text to IR, parsing, data and lowering included).
    """

    def __init__(self, ir: IR, diagnostics: list[Diagnostic], sources: dict[str, str], compile_time_s: float = 0.0):
        self.ir = ir
        self.diagnostics = diagnostics
        self.sources = sources
        self.compile_time_s = compile_time_s
        self.script: Any = None  # pyopl.script.opl.host.ScriptContext when the model has script blocks
        self.data: Any = None  # the data it was compiled with (a `main` block's new models reuse it)
        from .files.reads import FilesRead

        #: every file the run read (model, data, includes; what ``main`` loads is added while it runs):
        #: no writer of the run may replace one (docs/safety.md)
        self.files_read: FilesRead = FilesRead()
        #: the data's writes after the solve (SheetWrite, DBUpdate, DBExecute: pyopl.data.connections)
        self.publish: list = []
        self.output_dir: str | None = None  # the run's output folder as given (None: the default)
        #: the compiled instance (declarations, data, decisions), kept for the solution check
        self.instance: Any = None
        self._as_compiled: Any = None  # row bounds and objective as compiled, when scripts may change them

    @property
    def size(self) -> dict[str, int]:
        """``columns``, ``integer_columns``, ``rows`` and ``nonzeros`` (of the constraint matrix) of the IR."""
        return {"columns": self.ir.num_cols, "integer_columns": int(self.ir.col_integer.sum()),
                "rows": self.ir.num_rows, "nonzeros": self.ir.nnz}

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def solve_warnings(self) -> list[Diagnostic]:
        """The compile's warnings to show beside a solve's result (the CLI, ``%%opl``, the MCP
        ``solve`` tool) or an exported file: all but OPL1163, which says where a quadratic model would
        go with no solver named and which the solve settles itself (its ``solver_choice``, or its own
        refusal; export notes the quadratic rows it cannot write)."""
        return [d for d in self.warnings if d.code != "OPL1163"]

    def to_highspy(self, names: bool = True, log: bool = False) -> Any:
        """The model in a ``highspy.Highs`` object, not yet run, to change and re-solve with HiGHS's own
        API (``h.changeColBounds``, ``h.run()``, ``h.getSolution()``); column ``j`` and row ``i`` are
        ``model.ir``'s, named in OPL notation when ``names``.  See :mod:`pyopl.backends.handover`."""
        from .backends.handover import to_highspy

        return to_highspy(self.ir, names=names, log=log)

    def to_gurobipy(self, names: bool = True, log: bool = False) -> Any:
        """The model as a ``gurobipy.Model`` (updated, not optimised), to change and re-solve with
        Gurobi's API (``m.getVars()``, ``m.optimize()``); OPL names as ``VarName``/``ConstrName``.
        Raises ImportError without gurobipy.  See :mod:`pyopl.backends.handover`."""
        from .backends.handover import to_gurobipy

        return to_gurobipy(self.ir, names=names, log=log)

    def solve(self, solver: str = "auto", time_limit: float | None = None, mip_gap: float | None = None,
              threads: int | None = None, seed: int | None = None, log: bool = False, log_file: str | None = None,
              options: dict[str, Any] | None = None, mip_gap_abs: float | None = None, *,
              duals: bool = False, explain_infeasible: bool = True, explain_time_limit: float | None = None,
              progress: Any = None, verify: bool = True) -> Result:
        """Solve with ``solver``: ``"auto"`` (the default: HiGHS for what it takes, else the first installed
        backend that takes the model, see :func:`pyopl.backends.capabilities.choose`), ``"highs"``,
        ``"scip"``, ``"cplex"``, ``"gurobi"`` or ``"cpsat"`` (OR-Tools CP-SAT, where ``using CP;`` models
        go); ``time_limit`` in seconds. ``result.solver`` names the backend that solved it.

        Returns a :class:`~pyopl.results.result.Result` whose status is one of
        ``optimal``, ``feasible``, ``infeasible``, ``unbounded``,
        ``infeasible_or_unbounded``, ``time_limit``, ``interrupted`` (Ctrl-C) or ``error``.
        ``duals``: for a MIP, also report duals, slacks and reduced costs of the LP left when
        the integer variables are fixed at their values (LPs always get them).
        ``explain_infeasible``: when infeasible, compute the conflicting constraints
        (``result.conflict``, an ``OPL0704`` diagnostic); when unbounded, name the variables
        along the ray (``OPL0705``). ``explain_time_limit``: seconds the infeasibility explanation may
        take (default: a quarter of ``time_limit``, or without one the solve's own time within 10 s to
        60 s, :func:`pyopl.backends.explain.iis.explain_budget`); when it runs out ``result.conflict.partial`` is True.
        ``log`` sends the solver's log to stderr.
        ``progress``: a callable fed from the solver's callbacks with ``{"elapsed_s", "incumbent",
        "bound", "gap", "nodes", "iterations"}`` (e.g. :class:`pyopl.backends.progress.ProgressLine`).
        Ctrl-C (SIGINT, in the main thread) stops the solve: the result has status
        ``interrupted`` and the best solution found so far (:mod:`pyopl.backends.interrupt`).
        ``verify`` (default True): check every returned solution against the model (its objective and
        constraints evaluated from the declarations at the point, and the rows in arrays): a point
        that fails gets status ``check_failed`` and error ``OPL0709``
        (:mod:`pyopl.backends.explain.solution_check`); ``verify=False`` is for benchmarking only.
        Raises ValueError for an unknown solver name, or a number out of its range (as the command line's
        options: ``time_limit``, ``mip_gap``, ``mip_gap_abs``, ``explain_time_limit`` 0 or more, ``threads``
        0 to 1024, ``seed`` 0 to 2147483647); TypeError for a ``progress`` that is not callable; and the
        exception ``progress`` raised, if it did, once the solve it stopped has returned.
        """
        _check_solve_numbers(time_limit=time_limit, mip_gap=mip_gap, mip_gap_abs=mip_gap_abs,
                             explain_time_limit=explain_time_limit, threads=threads, seed=seed)
        guard = None
        if progress is not None:
            if not callable(progress):
                raise TypeError("progress is a function of one dict (elapsed_s, incumbent, ...), not %r" % (progress,))
            from .backends.interrupt import GuardedProgress

            progress = guard = GuardedProgress(progress)
        result = self._solve_run(solver, time_limit, mip_gap, threads, seed, log, log_file, options, mip_gap_abs,
                                 duals, explain_infeasible, explain_time_limit, progress, verify)
        if guard is not None and guard.error is not None:
            raise guard.error  # the caller's progress function failed: the solve was stopped there
        return result

    def _solve_run(self, solver, time_limit, mip_gap, threads, seed, log, log_file, options, mip_gap_abs, duals,
                   explain_infeasible, explain_time_limit, progress, verify) -> Result:
        """:meth:`solve` once its arguments are checked: a ``main`` flow, or one solve with the
        scripts' pre- and post-processing and the data's writes."""
        kw = dict(solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads, seed=seed, log=log,
                  log_file=log_file, options=options, mip_gap_abs=mip_gap_abs, duals=duals,
                  explain_infeasible=explain_infeasible, explain_time_limit=explain_time_limit, progress=progress,
                  verify=verify)
        from .files.reads import recording

        with recording(self.files_read):  # scripts check their output files against it
            ctx = self.script
            if ctx is not None:
                ctx.export_model = _export_for_scripts  # `cplex.exportModel` (backends sit above scripts)
                from .backends import script_services

                ctx.solver_services = script_services  # populate, solveFixed, printRelaxation (the same reason)
            if ctx is not None and ctx.main_block is not None:
                from .script.flow.main_flow import run_main

                return run_main(self, kw, compile_model)
            result = self._solve_ir(self.ir, **kw)
            if ctx is not None:
                from .script.flow.postsolve import finish_solve
                from .script.flow.processing import run_post

                post = run_post(ctx, result, self.ir) if ctx.post_blocks else ""
                if ctx.has_scripts:
                    result.script_output = ctx.pre_output + post
                finish_solve(ctx, result, self.ir)
            if self.publish and result.has_solution and not result.run_failed:
                from .data.connections.results import publish_result

                publish_result(self, ctx, result, self._output_root())
            return result

    def _output_root(self) -> str | None:
        """The run's output folder: ``output_dir`` as given, else ``<model stem>.out`` beside the model
        file (as scripts' files go: pyopl/script/files/output_files.py); None for model text without one."""
        from .script.opl.options import OUTPUT_SUFFIX

        model_file = next(iter(self.sources), "<model>")
        if self.output_dir or model_file.startswith("<"):
            return self.output_dir or None
        stem = os.path.splitext(os.path.basename(model_file))[0] or "model"
        return os.path.join(os.path.dirname(os.path.abspath(model_file)), stem + OUTPUT_SUFFIX)

    def _solve_ir(self, ir: IR, solver: str = "auto", time_limit: float | None = None, mip_gap: float | None = None,
                  threads: int | None = None, seed: int | None = None, log: bool = False, log_file: str | None = None,
                  options: dict[str, Any] | None = None, mip_gap_abs: float | None = None, duals: bool = False,
                  explain_infeasible: bool = True, explain_time_limit: float | None = None,
                  progress: Any = None, pool: int = 0, start: Any = None, basis: Any = None,
                  keep_basis: bool = False, verify: bool = True) -> Result:
        """Solve ``ir`` with the arguments of :meth:`solve`, script settings (``cplex.tilim``) filling
        the ones the caller left out; ``pool`` > 0 keeps up to that many solutions in
        ``result.extra["pool"]`` (``cplex.populate()``, backends with a solution pool); ``start``,
        ``basis``, ``keep_basis``: a MIP start and an LP basis to begin from, and whether to return
        the final basis (``IloOplCplexVectors``, ``IloOplCplexBasis``; see
        :class:`pyopl.backends.common.SolveOptions`)."""
        from .backends import SolveOptions, auto_refusal, get_backend, resolve

        model_ir, choice = ir, None
        if solver == "auto" and ir.indicator_alternatives:  # exact indicators rather than an assumed big-M
            ir, pick = _prefer_indicators(ir)
            if pick is not None:
                solver, choice = pick
        if choice is None:
            solver, choice = resolve(solver, ir)  # `auto`: the backend the model's features need
        fields = dict(time_limit=time_limit, mip_gap=mip_gap, mip_gap_abs=mip_gap_abs, threads=threads, seed=seed)
        extra = dict(options or {})
        notes = Reporter(100)
        if self.script is not None and self.script.settings:
            from .script.solver.settings import apply_settings

            more, backend_extra, _ignored = apply_settings(self.script.settings, solver, fields, notes)
            fields.update(more)
            for k, v in backend_extra.items():
                extra.setdefault(k, v)
        branching = getattr(self.script, "branching", None) if self.script is not None else None
        if branching and solver == "highs" and ir.is_mip:
            notes.emit("script-setting-ignored", self.script.branching_span, "HiGHS takes no branching priorities or "
                       "directions: pyopl solves without them (they steer the search only; the optimum is the same)",
                       help="`--solver cplex`, `gurobi` or `scip` use them")
        opts = SolveOptions(log_to_console=log, log_file=log_file, extra=extra, fixed_duals=duals,
                            model_file=next(iter(self.sources), "<model>"), progress=progress, pool=pool,
                            start=start, basis=basis, keep_basis=keep_basis, branching=branching or None, **fields)
        self.last_options = opts
        result = auto_refusal(ir, choice, opts) or get_backend(solver)(ir, opts)
        if choice:
            result.extra["solver_choice"] = "auto: %s, %s" % (solver, choice)
        result.index_names = dict(getattr(ir, "index_names", {}) or {})
        if ir.intervals:  # a CP schedule: what Result.gantt() draws
            from .results.gantt import schedule_of

            result.schedule = schedule_of(ir)
        if getattr(ir, "eplin_used", None) is not None:
            result.extra["eplin"] = ir.eplin_used
        if notes.diagnostics:  # script settings the solver cannot honour
            result.diagnostics = notes.sorted() + list(result.diagnostics)
        if verify:
            from .backends.explain.solution_check import verify_result

            checked = ir
            if result.solver == "cpsat":  # the maxint domain CP-SAT gave a decision without one is an assumption
                import dataclasses

                from .backends.cp.cpsat import default_domain_assumptions

                extra_bounds = default_domain_assumptions(ir, getattr(ir, "objective_span", None))
                if extra_bounds:
                    checked = dataclasses.replace(ir, assumptions=list(ir.assumptions) + extra_bounds)
            try:
                verify_result(result, checked, self._checkable_instance(model_ir))
            except Exception as e:  # a bug in the check itself: said, never hidden behind the solver's status
                result.extra["solution_check"] = {"ok": None, "error": "%s: %s" % (type(e).__name__, e)}
        if explain_infeasible and result.status in ("infeasible", "unbounded"):  # what explain_result explains
            from .backends.explain.iis import explain_result

            explain_result(result, ir, solver, opts, self.sources, budget=explain_time_limit)
        return result


    def _checkable_instance(self, ir: IR) -> Any:
        """The instance to evaluate ``ir``'s solutions with: None when ``ir`` is not the model's own
        problem (the fixed LP of ``solveFixed``) or a script has changed its rows or objective since."""
        if ir is not self.ir or self.instance is None:
            return None
        if self._as_compiled is not None:
            import numpy as np

            lo, hi, obj = self._as_compiled
            if not (np.array_equal(lo, ir.row_lower) and np.array_equal(hi, ir.row_upper) and np.array_equal(obj, ir.obj)):
                return None
        return self.instance


def _prefer_indicators(ir: IR) -> tuple[IR, tuple | None]:
    """For ``--solver auto``: when logical constraints of ``ir`` rest on assumed bounds and a backend
    that takes indicator constraints is installed (and takes the model), ``ir`` with those constraints
    as indicators (exact, no assumption) and ``(backend, why)``; else ``ir`` as it is and None."""
    from .backends.capabilities import choose
    from .ir import with_indicators

    exact = with_indicators(ir)
    chosen, _why = choose(exact)
    if chosen is None or chosen == "highs":
        return ir, None
    return exact, (chosen, "chosen because %s; %s takes them as exact indicator constraints" % (
        "the model's logical constraints would rest on bounds it does not state (a big-M from an assumed bound)"
        if any(alt.assumption_ids for alt in ir.indicator_alternatives)
        else "the big-M of the model's logical constraints would exceed 1e8, which integrality tolerances defeat",
        chosen))


def _export_for_scripts(ir: IR, path: str) -> None:
    """``cplex.exportModel(path)`` in a script: ``ir`` as LP or MPS (by the extension) at the confined ``path``."""
    from .backends.export import write_model

    write_model(ir, path, "mps" if path.lower().endswith(".mps") else "lp")


def _compile(model: Any, data: Any, reporter: Reporter, source: str = "auto", include_dir: Any = None,
             scripts: Any = None, keep: dict | None = None, solver: str | None = None,
             limits: Limits | None = None) -> tuple[IR | None, dict[str, str]]:
    from .data.loader import load_data
    from .lowering.model.build import build_ir, check_numbers
    from .lowering.model.driver import run as lower_items
    from .lowering.model.instance import Instance
    from .script import HOST as script_host  # the interpreter loads only for a model with scripts
    from .semantics.checker import check_names
    from .syntax.nesting import check_nesting
    from .files.source_io import SourceProblem, report_problem
    from .syntax.parser import parse_model

    limits = limits or Limits()
    if _swapped_files(model, data, reporter):
        return None, {}
    try:
        notes: list = []
        text, name = _read_source(model, "<model>", source, notes)
    except SourceProblem as p:
        sources = {}
        report_problem(reporter, p, "model", sources=sources)
        return None, sources
    sources = {name: text}
    for note in notes:  # bytes that are not UTF-8, only inside comments: a warning
        report_problem(reporter, note, "model")
    try:
        first = len(reporter.diagnostics)
        ast = parse_model(text, name, reporter)
        if any(d.is_error for d in reporter.diagnostics[first:]):
            _data_as_model(text, name, reporter, first)
        if ast is None or not check_nesting(ast, reporter, limits.max_nesting, limits.max_string):
            return None, sources
        if not ast.items and not reporter.has_errors:
            reporter.emit("empty-model", Span(name, 1, 1, 1, 2), "the model is empty: it declares nothing to solve",
                          help="declare decision variables, an objective and constraints, e.g. "
                               "`dvar float+ x; minimize x; subject to { x >= 1; }`")
            return None, sources
        check_names(ast, reporter)
        base_dir = os.path.dirname(os.path.abspath(name)) if name != "<model>" else os.getcwd()
        n_before = len(reporter.diagnostics)
        reporter.max_string = limits.max_string  # (data strings: pyopl/data/loader.py)
        items = load_data(data, reporter, sources, base_dir, source=source,
                          include_dir=None if include_dir is None else os.fspath(include_dir),
                          allow_db_writes=getattr(scripts, "allow_db_writes", False))
        publish = list(getattr(items, "publish", ()))  # SheetWrite/DBUpdate/DBExecute: run after the solve
        if any(d.is_error for d in reporter.diagnostics[n_before:]):
            return None, sources  # values would be missing: evaluating now would only add noise
        inst = Instance(ast, items, reporter, limits, script_host=script_host)
        if keep is not None:
            keep["instance"] = inst  # what its scripts wrote is shown even when the compile fails
        inst.script_options = scripts
        mark = (len(reporter.diagnostics), set(reporter._seen), set(reporter._error_at))
        lower_items(inst)
        if inst._assumed and not inst.has_scripts and not reporter.has_errors:
            inst = _relower_with_model_bounds(inst, ast, items, reporter, limits, script_host, mark) or inst
            if keep is not None:
                keep["instance"] = inst
        if reporter.has_errors:
            from .semantics.data_names import merge_undeclared_data_names

            merge_undeclared_data_names(ast, items, reporter)
            return None, sources
        ir = build_ir(inst)
        from .results.dataframes import index_level_names

        ir.index_names = index_level_names(ast)
        ir.eplin_used = inst.eplin_used  # the linearisation tolerance logical constraints used (a note on results)
        ir.assumptions = list(inst.assumptions)  # bounds a big-M assumed: a solution at one is not proved optimal
        ir.indicator_alternatives = list(inst.indicator_alternatives)  # their exact form, for a backend with indicators
        check_numbers(ir, reporter)
        if ir.qcons or ir.q is not None:
            from .lowering.linearise.quadratic import report_solver_needs

            report_solver_needs(ir, reporter, solver)
        if reporter.has_errors:
            return None, sources
        post_items = inst.post_asserts or any(s.kind == "postproc" for s in inst.symbols.values())
        if keep is not None and publish:
            keep["publish"] = publish
        if keep is not None and (inst.script_ctx is not None or post_items or publish or
                                 getattr(scripts, "keep_instance", False)):
            from .script.flow.processing import context_of

            ctx = context_of(inst)
            ctx.has_scripts = inst.has_scripts
            if ctx.post_blocks or ctx.main_block is not None or post_items or publish or \
                    getattr(scripts, "keep_instance", False):
                ctx.ir = ir
            else:  # pre-processing only: its output and settings are all a solve needs
                ctx.inst = None
            keep["script"] = ctx  # post-processing and `main` read the instance after the solve
        return ir, sources
    except TooManyErrors:
        return None, sources


def _relower_with_model_bounds(inst: Any, ast: Any, items: Any, reporter: Reporter, limits: Limits,
                               script_host: Any, mark: tuple) -> Any:
    """When a big-M assumed a bound that the model's rows imply after all (a row later in the model,
    or several rows together: :func:`pyopl.lowering.linearise.bounds.model_implied_bounds`), lower the model
    again with those bounds, so that M comes from the model and not from the assumption (issue 43,
    class 1); the first lowering's diagnostics are taken back. Returns the new instance, or None
    when the rows imply nothing new."""
    from .lowering.linearise.bounds import model_implied_bounds
    from .lowering.model.driver import run as lower_items
    from .lowering.model.instance import Instance

    seed = model_implied_bounds(inst)
    if not seed:
        return None
    n, seen, error_at = mark
    del reporter.diagnostics[n:]
    reporter._seen, reporter._error_at = seen, error_at
    again = Instance(ast, items, reporter, limits, script_host=script_host)
    again.script_options = inst.script_options
    again.seed_bounds = seed
    lower_items(again)
    return again


def _swapped_files(model: Any, data: Any, reporter: Reporter) -> bool:
    """``pyopl solve data.dat model.mod``: a ``.dat`` file where the model goes and a ``.mod`` among the
    data. Reported (OPL1166) rather than parsing the data as a model. So is a ``.mod`` file given as
    data after a ``.mod`` model (``pyopl solve a.mod b.mod``: nine syntax errors of the model read as
    data before)."""
    def named(x: Any, suffix: str) -> bool:
        return isinstance(x, (str, Path)) and str(x).endswith(suffix) and "\n" not in str(x)

    items = data if isinstance(data, (list, tuple)) else [data]
    mods = [str(d) for d in items if named(d, ".mod")]
    if not mods:
        return False
    if named(model, ".mod"):
        reporter.emit("files-swapped", Span(mods[0], 1, 1, 1, 2),
                      "`%s` is given as data, but it looks like a model: one model is given, then its data files"
                      % mods[0], help="give the model first and only data files after it: `pyopl solve %s DATA.dat`"
                      % model)
        return True
    if not named(model, ".dat"):
        return False
    reporter.emit("files-swapped", Span(str(model), 1, 1, 1, 2),
                  "`%s` looks like a data file and `%s` like the model: the files look swapped" % (model, mods[0]),
                  help="give the model first: `pyopl solve %s %s`" % (mods[0], model))
    return True


def _data_as_model(text: str, name: str, reporter: Reporter, first: int) -> None:
    """A model text with syntax errors that is, read as data, clean `.dat` data (``pyopl solve
    plan.dat`` without the model): the syntax errors from ``first`` on (one per line, "unexpected
    `=`") become one OPL1166 saying what the file is."""
    from .data.parser import parse_data

    scratch = Reporter(1)
    try:
        items = parse_data(text, name, scratch)
    except Exception:  # only a hint: a data parse that fails says nothing
        return
    if not items or scratch.diagnostics:
        return
    del reporter.diagnostics[first:]
    shown = name if name != "<model>" else "the model text"
    reporter.emit("files-swapped", Span(name, 1, 1, 1, 2),
                  "%s is OPL data (`name = value;` statements), not a model" % ("`%s`" % shown if name != "<model>"
                                                                               else shown),
                  help="give the model first, then the data: `pyopl solve MODEL.mod %s`" % (
                      name if name != "<model>" else "DATA.dat"))


#: the whole-number arguments of Model.solve and their ranges (the command line's --threads and --seed)
_WHOLE_RANGES = {"threads": (0, 1024), "seed": (0, 2 ** 31 - 1)}


def _check_solve_numbers(**values: Any) -> None:
    """ValueError naming the first argument of :meth:`Model.solve` out of its range, TypeError for one
    that is no number. ``time_limit=-1`` reached HiGHS, whose refusal (OPL0707) pointed at
    ``--option ?=`` and said option names are lower case; ``explain_time_limit=-5`` reported a
    conflict search that 'ran out of its -5 s budget'."""
    import math

    for name, v in values.items():
        if v is None:
            continue
        if isinstance(v, bool):
            raise TypeError("%s is a number, not %r" % (name, v))
        if name in _WHOLE_RANGES:
            lo, hi = _WHOLE_RANGES[name]
            if not isinstance(v, int) and not (isinstance(v, float) and v.is_integer()) or not lo <= v <= hi:
                raise ValueError("%s must be a whole number from %d to %d, not %r" % (name, lo, hi, v))
            continue
        try:
            f = float(v)
        except (TypeError, ValueError):
            raise TypeError("%s is a number, not %r" % (name, v)) from None
        if math.isnan(f) or f < 0:
            raise ValueError("%s must be 0 or more%s, not %r" % (
                name, " seconds" if name.endswith("time_limit") else "", v))


def _check_source_type(model: Any, source: str = "auto", data: Any = None) -> None:
    """TypeError for a model that is not text or a path, or data that is none of what ``data`` takes
    (bytes, a number, a DataFrame on its own were read as the text of their ``str()``: ``b'n=2;'`` gave
    OPL0042 at a quote the user never wrote); ValueError for an unknown ``source``."""
    if not isinstance(model, (str, Path, _Named)):
        raise TypeError("a model is given as text (str) or a pathlib.Path, not %s" % type(model).__name__)
    if source not in _SOURCES:
        raise ValueError("source must be one of %s, not %r" % (", ".join(map(repr, _SOURCES)), source))
    listed = isinstance(data, (list, tuple))
    for k, item in enumerate(data if listed else [data]):
        if item is not None and not isinstance(item, (str, os.PathLike, dict, _Named)):
            # (`data=[1, 2, 3]` said "not int", of a list: the element is named)
            raise TypeError("data is given as .dat text (str), a pathlib.Path, a dict {name: value} or a list of "
                            "these, not %s%s%s" % (
                                "a %s holding " % type(data).__name__ if listed else "", type(item).__name__,
                                " (item %d)" % (k + 1) if listed else "",
                            ) + (" (decode it to str first)" if isinstance(item, (bytes, bytearray))
                                 else " (put it in a dict under its OPL name)" if hasattr(item, "shape")
                                 or listed and not isinstance(item, (list, tuple)) else ""))


def _compile_guarded(model: Any, data: Any, reporter: Reporter, source: str = "auto", include_dir: Any = None,
                     scripts: Any = None, keep: dict | None = None, solver: str | None = None,
                     limits: Limits | None = None) -> tuple[IR | None, dict[str, str]]:
    """:func:`_compile`, with pyopl's own failures turned into one internal-error diagnostic
    that asks for a report (never dressed as a mistake of the user's)."""
    import gc

    # Compiling allocates many small objects and frees few: the cyclic collector's passes
    # cost 20-30% on large models and find nothing, so it is paused while compiling.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        ir, sources = _compile(model, data, reporter, source, include_dir, scripts, keep, solver, limits)
        # included files' and sub-models' text too, for their snippets; the model's own file first
        # (`main` takes the first as the model's name)
        return ir, {**sources, **reporter.sources, **sources}
    except RecursionError:
        reporter.diagnostics.append(_internal("the model nests too deeply to compile"))
    except FileNotFoundError as e:
        from .diagnostics.registry import BY_SLUG

        kind = BY_SLUG["cli-file-not-found"]
        reporter.diagnostics.append(Diagnostic(kind.code, "error", "file not found: %s" % (e.filename or e),
                                               Span(str(e.filename or "<model>"), 1, 1, 1, 2),
                                               help="check the path (relative paths start at the current folder)"))
    except Exception as e:  # a bug in pyopl
        reporter.diagnostics.append(_internal("internal error in pyopl (%s: %s); this is a bug in pyopl, not in your "
                                              "model; please report it with the model and data" % (type(e).__name__, e)))
    finally:
        if was_enabled:
            gc.enable()
    return None, {}


_SOURCE_DOC = """
    Which strings are files: a ``pathlib.Path`` is always a file. With ``source="auto"`` (the
    default) a string is a file name when it is one line ending in ``.mod`` (model) or ``.dat``
    (data) with no ``;``, ``{`` or ``}`` in it (:func:`looks_like_path`), so
    ``compile_model("plan.mod", data="plan.dat")`` reads both files; any other string is text.
    With ``source="text"`` a string is always text, never opened: use it (or
    :func:`compile_text` / :func:`check_text`) for text from users, programs or LLMs.
    ``include_dir``: the folder where data ``include`` statements of data *text* are looked up
    (and must stay inside). Without it, data text given in ``source="text"`` mode may not
    ``include`` anything, and in ``"auto"`` mode includes resolve in the model file's folder
    (the current folder for model text). Files always include relative to their own folder."""


def _script_options(scripts: Any, script_steps: int | None, output_dir: Any, analysis: bool = False) -> Any:
    """The :class:`~pyopl.script.opl.options.ScriptOptions` of a call; ``analysis``: a check, whose scripts
    write no file (docs/safety.md, "What runs when")."""
    from .script.opl.options import ScriptOptions

    if isinstance(scripts, ScriptOptions):
        if analysis and not scripts.analysis:
            return scripts.for_analysis()
        return scripts
    return ScriptOptions(max_steps=script_steps, output_dir=os.fspath(output_dir) if output_dir is not None else None,
                         enabled=scripts, analysis=analysis)



def compile_model(model: Any, data: Any = None, *, source: str = "auto", include_dir: Any = None,
                  max_errors: int = 100, scripts: bool = True, script_steps: int | None = None,
                  output_dir: Any = None, limits: Limits | None = None, allow_db_writes: bool = False) -> Model:
    """Compile OPL model text or a model file with data into a :class:`Model`.

    ``data``: None, a ``.dat`` file (see below), ``.dat`` text, a dict ``{name: value}``, or a
    list of these (applied in order).
    IBM ILOG Script blocks run in IBM's processing order (``execute`` blocks before the
    model while compiling, those after it when solving, ``main`` instead of the plain solve;
    see docs/scripting.md): ``scripts=False`` skips them (an error when a skipped block sets
    data or bounds the model uses), ``script_steps`` raises each script's step budget,
    ``output_dir`` is the only folder where ``IloOplOutputFile`` may write (default: ``<model stem>.out``
    beside the model file, made on the first file; a model given as text writes no files unless
    ``output_dir`` is given); dot-files, links, devices and every file the run reads are refused
    there too (docs/safety.md).
    Raises :class:`CompileError` (with ``.diagnostics``) when the model or data has errors,
    a file cannot be read or is not UTF-8; TypeError for a model that is neither str nor Path, or
    data that is none of the above (bytes, a DataFrame not in a dict), ValueError for an unknown ``source``.
    ``limits``: the work budgets (:class:`~pyopl.limits.Limits`; None: the defaults, see docs/limits.md).
    Data files may read spreadsheets, CSV files and databases and write results to them after the
    solve (docs/data-sources.md); ``allow_db_writes`` lets their ``DBExecute`` statements change
    tables that no ``DBUpdate`` of the file writes (refused otherwise, ``OPL0435``).
    """
    _check_source_type(model, source, data)
    reporter = Reporter(max_errors)
    start = time.perf_counter()
    keep: dict = {}
    from .files.reads import recording

    opts = _script_options(scripts, script_steps, output_dir)
    opts.allow_db_writes = allow_db_writes
    with recording() as reads:
        ir, sources = _compile_guarded(model, data, reporter, source, include_dir, opts, keep, limits=limits)
    ctx = getattr(keep.get("instance"), "script_ctx", None)
    if ir is None:
        raise CompileError(reporter.sorted(), sources, script_output=ctx.pre_output + ctx.output() if ctx else "")
    m = Model(ir, reporter.sorted(), sources, time.perf_counter() - start)
    m.files_read = reads
    m.script = keep.get("script")
    m.instance = keep.get("instance") if keep.get("instance") is not None else getattr(m.script, "inst", None)
    if m.script is not None:  # a script may change bounds of rows or the objective before a solve
        m._as_compiled = (ir.row_lower.copy(), ir.row_upper.copy(), ir.obj.copy())
    m.data = data
    m.publish = keep.get("publish") or []
    m.output_dir = opts.output_dir
    return m


def check(model: Any, data: Any = None, *, source: str = "auto", include_dir: Any = None,
          max_errors: int = 100, scripts: bool = True, script_steps: int | None = None,
          output_dir: Any = None, solver: str | None = "auto",
          limits: Limits | None = None, allow_db_writes: bool = False) -> "Diagnostics":
    """Every diagnostic for the model and data (errors and warnings), sorted by place; never raises
    for user mistakes (a missing or unreadable file is a diagnostic too). Pre-processing scripts
    run (they may change data the model uses), but write no file: every output file name is
    checked as :func:`compile_model` would (``output_dir`` included) and its text discarded
    (docs/safety.md, "What runs when"); see :func:`compile_model`.

    ``solver`` (default ``"auto"``, the default of ``solve``): what that solver cannot take (a quadratic
    constraint, a non-convex quadratic objective) is an error (OPL1163) at the construct; under ``"auto"``
    only when no installed backend takes it (``solve`` would give it to SCIP, Gurobi or CPLEX: check
    agrees); ``None`` checks the model alone (those become warnings). ``limits``: the work budgets (:class:`~pyopl.limits.Limits`)."""
    _check_source_type(model, source, data)
    reporter = Reporter(max_errors)
    from .files.reads import recording

    opts = _script_options(scripts, script_steps, output_dir, analysis=True)
    opts.allow_db_writes = allow_db_writes
    with recording():
        _ir, sources = _compile_guarded(model, data, reporter, source, include_dir, opts, solver=solver, limits=limits)
    return Diagnostics(reporter.sorted(), sources)


def compile_text(model_text: str, data: Any = None, *, include_dir: Any = None, max_errors: int = 100,
                 **kw: Any) -> Model:
    """:func:`compile_model` with ``source="text"``: strings are only ever text, never file names
    (the entry point for text that came from a user, a program or an LLM)."""
    return compile_model(model_text, data, source="text", include_dir=include_dir, max_errors=max_errors, **kw)


def check_text(model_text: str, data: Any = None, *, include_dir: Any = None, max_errors: int = 100,
               **kw: Any) -> "Diagnostics":
    """:func:`check` with ``source="text"``: strings are only ever text, never file names."""
    return check(model_text, data, source="text", include_dir=include_dir, max_errors=max_errors, **kw)


def solve(model: Any, data: Any = None, *, source: str = "auto", include_dir: Any = None, output_dir: Any = None,
          scripts: bool = True, script_steps: int | None = None, allow_db_writes: bool = False, **kw: Any) -> Result:
    """Compile and solve in one call: ``output_dir``, ``scripts``, ``script_steps`` and ``allow_db_writes`` go
    to :func:`compile_model`, the other keyword arguments to :meth:`Model.solve`. The result's
    ``diagnostics`` end with the compile's warnings (``Model.solve_warnings``: a name the data sets
    that the model does not declare, an unused declaration...), as the CLI's, ``%%opl``'s and the MCP
    ``solve`` tool's do (docs/safety.md, "One outcome on every front end"): the compiled model is not
    returned, so they would be lost. Raises :class:`CompileError` as :func:`compile_model` does."""
    compiled = compile_model(model, data, source=source, include_dir=include_dir, output_dir=output_dir,
                             scripts=scripts, script_steps=script_steps, allow_db_writes=allow_db_writes)
    result = compiled.solve(**kw)
    result.diagnostics = list(result.diagnostics) + list(compiled.solve_warnings)
    return result


for _f in (compile_model, check):
    _f.__doc__ += _SOURCE_DOC
del _f


def _check_named(text: str, name: str, data: Any = None, max_errors: int = 100) -> "Diagnostics":
    """:func:`check` of model text already read from the file ``name`` (includes resolve beside it)."""
    from .files.reads import recording

    reporter = Reporter(max_errors)
    with recording():
        _ir, sources = _compile_guarded(_Named(text, name), data, reporter,
                                        scripts=_script_options(True, None, None, analysis=True))
    return Diagnostics(reporter.sorted(), sources)


class Diagnostics(list):
    """A list of :class:`Diagnostic` that also knows the source texts (for rendering)."""

    def __init__(self, items: Iterable[Diagnostic], sources: dict[str, str]):
        super().__init__(items)
        self.sources = sources

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.is_error]

    def to_json(self) -> list[dict]:
        return [d.to_dict(self.sources) for d in self]

    def render(self) -> str:
        from .diagnostics.render import render_all

        return render_all(list(self), self.sources)

    def _repr_html_(self) -> str:
        """A table (severity, code, place, message, help) for notebooks."""
        from .results.notebook import diagnostics_html

        return diagnostics_html(self)


def _internal(message: str) -> Diagnostic:
    from .diagnostics.registry import BY_SLUG
    from .diagnostics import codes  # noqa: F401

    kind = BY_SLUG["internal-error"]
    return Diagnostic(kind.code, "error", message, Span("<model>", 1, 1, 1, 2),
                      help="simplify the expression; if this persists, please report it")
