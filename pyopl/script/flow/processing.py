"""IBM OPL's processing order for script blocks (OPL manual, "Preprocessing and postprocessing").

1. Declarations and external data, in source order.
2. ``execute`` blocks placed *before* the objective and the constraints (pre-processing) run
   when the instance reaches them, so the data they set is what later declarations, the
   objective, the constraints and decision bounds see.
3. The model is generated and solved.
4. ``execute`` blocks placed *after* the objective or the constraints (post-processing) run
   with the solution.

A block that is not run (``--no-scripts``) but assigns data or bounds the model uses is an
error naming them (OPL1059): the model would silently differ from IBM's otherwise.
"""
from __future__ import annotations

import re
from typing import Any

from ...diagnostics.diagnostic import Span
from ...syntax import ast as A
from ..language.budgets import metered
from ..opl.host import ModelHost, ScriptContext, ScriptOptions
from .model_writes import assigns  # noqa: F401  (used here; kept importable from processing)
from .opl_runtime import Runtime, close_files


def context_of(inst: Any) -> ScriptContext:
    """The instance's script context (made on first use)."""
    ctx = getattr(inst, "script_ctx", None)
    if ctx is None:
        # no options given: an analysis (nothing written); only a caller that asks for a run writes files
        opts = getattr(inst, "script_options", None) or ScriptOptions(analysis=True)
        ctx = ScriptContext(inst, inst.reporter, inst.model.file, opts)
        ctx.make_runtime = Runtime
        inst.script_ctx = ctx
    return ctx


def invoke_dat(inst: Any, name: str) -> None:
    """``name = value invoke f;`` in the data: run ``f`` on the element just declared (see
    :mod:`pyopl.script.flow.dat_scripts`)."""
    from .dat_scripts import invoke_dat as run_invoke

    run_invoke(inst, name, context_of)


def block_span(block: A.ScriptBlock) -> Span:
    """The span of the block's keyword (``execute`` / ``main``)."""
    s = block.span
    return Span(s.file, s.line, s.column, s.line, s.column + len(block.kind))


def script_block(inst: Any, block: A.ScriptBlock) -> None:
    """The instance reached ``block`` (in source order): run it now (pre-processing), or keep it
    for after the solve (post-processing) or for ``main``."""
    ctx = context_of(inst)
    if block.kind == "main":
        if ctx.main_block is not None:
            inst.reporter.emit("script-unsupported", block_span(block), "the model has a second `main` block",
                               help="keep one `main` block")
            return
        if not ctx.options.enabled:
            skipped(inst, block)
            return
        ctx.main_block = block
        syntax_check(ctx, block)
        return
    if not ctx.options.enabled:
        skipped(inst, block)
        return
    if inst.after_model:
        # IBM compiles the whole .mod before solving: a syntax error in a block that runs
        # later stops the run now, not after the solve
        if syntax_check(ctx, block):
            ctx.post_blocks.append(block)
        return
    ctx.phase = "pre"
    run_block(ctx, block)
    if ctx.failed and getattr(ctx, "failed_sets", None) is None:
        from .followons import note_failed_block

        note_failed_block(ctx, inst, block)
    ctx.invalidate()


def syntax_check(ctx: ScriptContext, block: A.ScriptBlock) -> bool:
    """Parse a block that runs later (post-processing, ``main``) now; its syntax errors go to the
    instance's reporter (so nothing is solved). Returns whether it parsed."""
    from ..engine.parser import parse_script

    program = parse_script(block.body, block.span.file, block.body_line, block.body_column)
    if isinstance(program, list):
        ctx.reporter.diagnostics.extend(program)
        ctx.failed = True
        return False
    if block.kind == "main":  # the sub-models it loads are checked now too (submodels.py)
        from .main_calls import unsupported_calls
        from .submodels import check_submodels

        # a misspelt `thisOplModel.`/`cplex.` method is the user's mistake: compiling says so (OPL1050);
        # a method or global pyopl does not have (OPL1057) is refused when `main` is about to run
        # (status script_error, nothing solved), and a check (analysis) says so now: it said "no
        # problems found" of a model that `solve` then refused
        analysis = getattr(ctx.options, "analysis", False)
        ctx.reporter.diagnostics.extend(e.to_diagnostic() for e in unsupported_calls(program)
                                        if analysis or e.slug == "script-unknown-name")
        check_submodels(program, block.span.file, ctx.reporter)
    return True


def run_block(ctx: ScriptContext, block: A.ScriptBlock, phase: str | None = None) -> Any:
    """Parse and run one block's body against the model; a script error becomes a diagnostic.

    Returns the value of ``return`` (``main``) or None; sets ``ctx.failed`` on an error."""
    from ..engine.interpreter import Interpreter
    from ..engine.parser import parse_script
    from ..language.values import ScriptError

    if phase is not None:
        ctx.phase = phase
    if ctx.failed and ctx.meter.steps >= ctx.options.max_steps:
        return None  # the model's step budget is spent (OPL1007 said so): the next blocks cannot run
    try:
        program = parse_script(block.body, block.span.file, block.body_line, block.body_column)
        if isinstance(program, list):  # a syntax error, as diagnostics
            ctx.reporter.diagnostics.extend(program)
            ctx.failed = True
            return None
        interp = Interpreter(ModelHost(ctx), ctx.write, max_steps=ctx.options.max_steps,
                             max_memory=ctx.options.max_memory, file=block.span.file)
        with metered(ctx.meter, interp):  # the model's blocks share one step and memory budget
            value = interp.run(program)
        ctx.interpreter = interp
        _share_functions(ctx, program, interp)
        return value
    except ScriptError as e:
        _report(ctx, e)
        ctx.failed = True
        # `fail()` stops only its own block: IBM "reports an error, and goes on" with the next block
        ctx.fail_only = e.slug == "script-fail-called" and getattr(ctx, "fail_only", True)
        return None
    finally:
        try:
            close_files(ctx)  # files the script left open (IBM closes them when the script ends)
        except ScriptError as e:  # script-output-failed, at the file's `new IloOplOutputFile`
            _report(ctx, e)
            ctx.failed = True


def _share_functions(ctx: ScriptContext, program: Any, interp: Any) -> None:
    """The functions a block declares at its top level become globals of the model's later blocks and
    of ``main`` (IBM's scripting blocks share one global environment: a helper declared in an `execute`
    block, of an included file too, is called from `main`); a name already global is kept."""
    from ..language.values import JSFunction

    for fd in getattr(program, "functions", ()):
        name = fd.func.name
        v = interp.globals.get(name)
        if isinstance(v, JSFunction) and name not in ctx.script_globals:
            ctx.script_globals[name] = v


def stops_processing(ctx: Any) -> bool:
    """Whether the blocks after a failed one are skipped: yes after a script error, no when every
    error so far was a ``fail()`` call (IBM ILOG Script, "Miscellaneous functions": ``fail()``
    "stops the execution of the scripting block at the current statement, reports an error, and
    goes on")."""
    return bool(getattr(ctx, "failed", False)) and not getattr(ctx, "fail_only", False)


def _report(ctx: ScriptContext, e: Any) -> None:
    ctx.reporter.diagnostics.append(e.to_diagnostic())


def finish_pre(inst: Any) -> None:
    """After the instance is built: the pre-processing output is kept; data declared without
    initializer that the model uses and no script assigns keeps its warning (OPL0413/OPL0414)."""
    from ...lowering.model.defaults import warn_defaults

    ctx = getattr(inst, "script_ctx", None)
    later = (ctx.post_blocks + ([ctx.main_block] if ctx.main_block else [])) if ctx is not None else []

    def assigned(name: str) -> bool:
        return ctx is not None and (name in ctx.assigned or any(assigns(b.body, name) for b in later))

    warn_defaults(inst, assigned)
    if ctx is not None:
        from .followons import drop_followons

        drop_followons(ctx, inst)
        ctx.pre_output = ctx.output()
        ctx.out = []
        ctx.phase = "post"


def skipped(inst: Any, block: A.ScriptBlock) -> None:
    """``--no-scripts``: a block that would assign model data or bounds is an error naming them;
    one that would not (printing, settings) is a warning that it was skipped."""
    from .model_writes import may_set
    from ..engine.parser import parse_script

    model_names = [n for n, s in inst.symbols.items() if s.kind in ("param", "set", "dvar")]
    program = parse_script(block.body, block.span.file, block.body_line, block.body_column)
    scalars = [n for n in model_names if isinstance(inst.symbols[n].value, (bool, int, float, str))]
    found = may_set(program, model_names, scalars) if not isinstance(program, list) else set()
    names = [n for n in model_names if n in found or assigns(block.body, n)]
    what = ("`main` block" if block.kind == "main" else
            "`execute %s` block" % block.name if block.name else "`execute` block")
    if block.kind == "main" and not names and re.search(r"\bIloOplModel\b", block.body):
        inst.reporter.emit("script-not-run", block_span(block),
                           "the `main` block was not run, but it solves other model instances (`new IloOplModel`)",
                           help="run the scripts (drop `--no-scripts`)")
    elif names and (block.kind == "main" or not inst.after_model):
        shown = ", ".join("`%s`" % n for n in names[:6]) + (" and %d more" % (len(names) - 6) if len(names) > 6 else "")
        inst.reporter.emit("script-not-run", block_span(block),
                           "the %s was not run, but it sets %s, which the model uses" % (what, shown),
                           help="run the scripts (drop `--no-scripts`), or move the computation into OPL declarations")
    else:
        inst.reporter.emit("script-skipped", block_span(block), "the %s was not run (scripts are turned off)" % what,
                           help="drop `--no-scripts` to run it")


def run_post(ctx: ScriptContext, result: Any, ir: Any) -> str:
    """Run the post-processing blocks with ``result``; returns what they printed.

    A script error adds its diagnostic to ``result.diagnostics``, stops the remaining blocks (not
    after ``fail()``, which stops only its own block) and marks the run failed (``result.status`` ``script_error``, the solve's in ``last_solve_status``).
    Without a solution (infeasible, unbounded, a time limit without incumbent) the blocks do not
    run, as ``oplrun`` skips post-processing then."""
    from ...diagnostics.reporter import Reporter

    if not result.has_solution:
        return ""
    ctx.result = result
    ctx.ir = ir
    ctx.phase = "post"
    ctx.out = []
    ctx.failed = False
    ctx.fail_only = True
    rep = Reporter(100)
    ctx.reporter = rep
    for block in ctx.post_blocks:
        run_block(ctx, block, "post")
        if stops_processing(ctx):
            break
    result.diagnostics = list(result.diagnostics) + rep.sorted()
    if getattr(ctx, "failed", False):  # the run failed, whatever the solve said (docs/cli.md, "Run status")
        from ...results.result import mark_script_failed

        mark_script_failed(result)
    return ctx.output()
