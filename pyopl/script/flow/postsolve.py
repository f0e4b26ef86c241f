"""After the solve, without any script: OPL post-processing declarations and assertions.

IBM OPL ("Postprocessing of data", "assert"): a data declaration placed after the objective and
the constraints whose value uses decision variables or ``dexpr``s is computed from the solution;
an ``assert`` placed there is checked on the solution. pyopl computes both once the solve has a
solution: the values go to ``result.extra["postprocessing"]`` (name -> value as OPL's ``writeln``
shows it; numbers as numbers) and the text report, and a failed assertion is an error
(``assert-failed``) on the result, which is then not reported as a success.
"""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplArray, OplSet, OplTuple
from ...results.result import mark_script_failed


def finish_solve(ctx: Any, result: Any, ir: Any) -> None:
    """Compute ``ctx.inst``'s post-processing declarations and check its post-solve assertions on
    ``result`` (a solved :class:`~pyopl.results.result.Result`, changed in place); nothing without a
    solution (as ``oplrun`` skips post-processing then)."""
    inst = getattr(ctx, "inst", None)
    if inst is None or not result.has_solution:
        return
    names = [n for n, s in inst.symbols.items() if s.kind == "postproc"]
    if not names and not getattr(inst, "post_asserts", None):
        return
    ctx.result, ctx.ir = result, ir
    values = ctx.postsolve_values()
    shown: dict[str, Any] = {}
    diags = []
    for name in names:
        v = values.get(name)
        sym = inst.symbols[name]
        if hasattr(v, "message") and not isinstance(v, Exception):
            diags.append(_diag("postprocessing-skipped", sym.decl.name_span,
                               "`%s` is computed from the solution, and pyopl could not compute it: %s" % (name, v.message),
                               "compute it in a post-processing `execute` block from the decision values"))
            continue
        shown[name] = _plain(v)
    for a in getattr(inst, "post_asserts", ()):
        e = values.get(("#assert", id(a)))
        if e is not None:
            from ...diagnostics.reporter import Reporter

            rep = Reporter(10)
            e.report(rep)
            diags += rep.diagnostics
    if shown:
        result.extra["postprocessing"] = shown
    if diags:
        result.diagnostics = list(result.diagnostics) + diags
        if any(d.severity == "error" for d in diags):
            result.extra["postprocessing_failed"] = True
            mark_script_failed(result)  # a failed run is never reported as optimal (docs/cli.md, "Run status")


def _diag(slug: str, span: Any, message: str, help: str) -> Any:
    from ...diagnostics.reporter import Reporter

    rep = Reporter(10)
    rep.emit(slug, span, message, help=help)
    return rep.diagnostics[0]


def _plain(v: Any) -> Any:
    """A post-processing value for JSON: numbers and strings as they are, anything else as OPL's
    ``writeln`` shows it."""
    if isinstance(v, bool) or isinstance(v, (int, float, str)):
        return v
    if isinstance(v, (OplArray, OplSet, OplTuple)):
        from ..opl.opl_objects import display

        return display(v)
    return str(v)
