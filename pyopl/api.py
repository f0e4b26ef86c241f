"""The Python API: compile a model (path or text) with data (path, text or dict), check, solve."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterable

from .diagnostics.diagnostic import CompileError, Diagnostic, Span
from .diagnostics.reporter import Reporter, TooManyErrors
from .ir import IR
from .result import Result


def _read_source(src: Any, default_name: str) -> tuple[str, str]:
    """(text, file name) from a Path, a path string, or text; a leading UTF-8 byte-order mark is dropped.

    Raises TypeError for anything else (bytes, numbers): a model is text or a path.
    """
    if isinstance(src, Path):
        return src.read_text(encoding="utf-8-sig", errors="replace"), str(src)
    if not isinstance(src, str):
        raise TypeError("a model is given as text (str) or a pathlib.Path, not %s" % type(src).__name__)
    if "\n" not in src and len(src) < 4096 and src.strip().endswith((".mod", ".dat")) and os.path.exists(src):
        return Path(src).read_text(encoding="utf-8-sig", errors="replace"), src
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

    @property
    def size(self) -> dict[str, int]:
        """``columns``, ``integer_columns``, ``rows`` and ``nonzeros`` (of the constraint matrix) of the IR."""
        return {"columns": self.ir.num_cols, "integer_columns": int(self.ir.col_integer.sum()),
                "rows": self.ir.num_rows, "nonzeros": int(self.ir.A.nnz)}

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def solve(self, solver: str = "highs", time_limit: float | None = None, mip_gap: float | None = None,
              threads: int | None = None, seed: int | None = None, log: bool = False, log_file: str | None = None,
              options: dict[str, Any] | None = None, mip_gap_abs: float | None = None, *,
              duals: bool = False, explain_infeasible: bool = True) -> Result:
        """Solve with ``solver`` (``"highs"`` or ``"gurobi"``); ``time_limit`` in seconds.

        Returns a :class:`~pyopl.result.Result` whose status is one of
        ``optimal``, ``feasible``, ``infeasible``, ``unbounded``,
        ``infeasible_or_unbounded``, ``time_limit`` or ``error``.
        ``duals``: for a MIP, also report duals, slacks and reduced costs of the LP left when
        the integer variables are fixed at their values (LPs always get them).
        ``explain_infeasible``: when infeasible, compute the conflicting constraints
        (``result.conflict``, an ``OPL0704`` diagnostic); when unbounded, name the variables
        along the ray (``OPL0705``). ``log`` sends the solver's log to stderr.
        Raises ValueError for an unknown solver name.
        """
        from .backends import SolveOptions, get_backend

        opts = SolveOptions(time_limit=time_limit, mip_gap=mip_gap, mip_gap_abs=mip_gap_abs, threads=threads, seed=seed,
                            log_to_console=log, log_file=log_file, extra=dict(options or {}), fixed_duals=duals,
                            model_file=next(iter(self.sources), "<model>"))
        result = get_backend(solver)(self.ir, opts)
        if explain_infeasible:
            from .iis import explain_result

            explain_result(result, self.ir, solver, opts, self.sources)
        return result


def _compile(model: Any, data: Any, reporter: Reporter, solver: str | None = None) -> tuple[IR | None, dict[str, str]]:
    from .data.loader import load_data
    from .lowering.build import build_ir, check_numbers
    from .lowering.instance import Instance
    from .semantics.checker import check_names
    from .syntax.parser import parse_model

    if _swapped_files(model, data, reporter):
        return None, {}
    text, name = _read_source(model, "<model>")
    sources = {name: text}
    try:
        ast = parse_model(text, name, reporter)
        if ast is None:
            return None, sources
        if not ast.items and not reporter.has_errors:
            reporter.emit("empty-model", Span(name, 1, 1, 1, 2), "the model is empty: it declares nothing to solve",
                          help="declare decision variables, an objective and constraints, e.g. "
                               "`dvar float+ x; minimize x; subject to { x >= 1; }`")
            return None, sources
        check_names(ast, reporter)
        base_dir = os.path.dirname(os.path.abspath(name)) if name != "<model>" else os.getcwd()
        n_before = len(reporter.diagnostics)
        items = load_data(data, reporter, sources, base_dir)
        if any(d.is_error for d in reporter.diagnostics[n_before:]):
            return None, sources  # values would be missing: evaluating now would only add noise
        inst = Instance(ast, items, reporter)
        inst.run()
        if reporter.has_errors:
            from .semantics.data_names import merge_undeclared_data_names

            merge_undeclared_data_names(ast, items, reporter)
            return None, sources
        ir = build_ir(inst)
        check_numbers(ir, reporter)
        if ir.qcons or ir.q is not None:
            from .lowering.quadratic import report_solver_needs

            report_solver_needs(ir, reporter, solver)
        if reporter.has_errors:
            return None, sources
        return ir, sources
    except TooManyErrors:
        return None, sources


def _swapped_files(model: Any, data: Any, reporter: Reporter) -> bool:
    """``pyopl solve data.dat model.mod``: a ``.dat`` file where the model goes and a ``.mod`` among the
    data. Reported (OPL1166) rather than parsing the data as a model."""
    if not (isinstance(model, (str, Path)) and str(model).endswith(".dat") and "\n" not in str(model)):
        return False
    items = data if isinstance(data, (list, tuple)) else [data]
    mods = [str(d) for d in items if isinstance(d, (str, Path)) and str(d).endswith(".mod") and "\n" not in str(d)]
    if not mods:
        return False
    reporter.emit("files-swapped", Span(str(model), 1, 1, 1, 2),
                  "`%s` looks like a data file and `%s` like the model: the files look swapped" % (model, mods[0]),
                  help="give the model first: `pyopl solve %s %s`" % (mods[0], model))
    return True


def _check_source_type(model: Any) -> None:
    if not isinstance(model, (str, Path)):
        raise TypeError("a model is given as text (str) or a pathlib.Path, not %s" % type(model).__name__)


def _compile_guarded(model: Any, data: Any, reporter: Reporter, solver: str | None = None) -> tuple[IR | None, dict[str, str]]:
    """:func:`_compile`, with pyopl's own failures turned into one internal-error diagnostic
    that asks for a report (never dressed as a mistake of the user's)."""
    import gc

    # Compiling allocates many small objects and frees few: the cyclic collector's passes
    # cost 20-30% on large models and find nothing, so it is paused while compiling.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile(model, data, reporter, solver)
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


def compile_model(model: Any, data: Any = None, *, max_errors: int = 100) -> Model:
    """Compile OPL model text (or a ``Path``/``.mod`` path) with data into a :class:`Model`.

    ``data``: None, a ``.dat`` path (``Path`` or string ending in ``.dat``),
    ``.dat`` text, a dict ``{name: value}``, or a list of these (applied in order).
    Raises :class:`CompileError` (with ``.diagnostics``) when the model or data has errors.
    """
    _check_source_type(model)
    reporter = Reporter(max_errors)
    start = time.perf_counter()
    ir, sources = _compile_guarded(model, data, reporter)
    if ir is None:
        raise CompileError(reporter.sorted(), sources)
    return Model(ir, reporter.sorted(), sources, time.perf_counter() - start)


def check(model: Any, data: Any = None, *, max_errors: int = 100, solver: str | None = "highs") -> "Diagnostics":
    """Every diagnostic for the model and data (errors and warnings), sorted by place; never raises for user mistakes.

    ``solver`` (default ``"highs"``, the default of ``solve``): what that solver cannot take (a quadratic
    constraint, a non-convex quadratic objective) is an error (OPL1163) at the construct; ``None`` checks
    the model alone (those become warnings)."""
    _check_source_type(model)
    reporter = Reporter(max_errors)
    _ir, sources = _compile_guarded(model, data, reporter, solver)
    return Diagnostics(reporter.sorted(), sources)


def solve(model: Any, data: Any = None, **kw: Any) -> Result:
    """Compile and solve in one call; keyword arguments go to :meth:`Model.solve`."""
    return compile_model(model, data).solve(**kw)


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


def _internal(message: str) -> Diagnostic:
    from .diagnostics.registry import BY_SLUG
    from .diagnostics import codes  # noqa: F401

    kind = BY_SLUG["internal-error"]
    return Diagnostic(kind.code, "error", message, Span("<model>", 1, 1, 1, 2),
                      help="simplify the expression; if this persists, please report it")
