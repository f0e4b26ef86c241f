"""The values a solved run publishes (``x to SheetWrite(...)``, ``x to DBUpdate(...)``): a decision
variable's or ``dexpr``'s solution values, a post-processing element computed from the solution,
or a data element as the run ended."""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplArray
from .sources import SourceError


def publish_result(model: Any, ctx: Any, result: Any, root: str | None) -> None:
    """Run ``model.publish`` for ``result`` (solved, not failed), workbook copies going into the output
    folder ``root`` (None: a model given as text without one): diagnostics go to
    ``result.diagnostics`` (an error marks the run failed, as a failed post-processing step does)
    and the files written to ``result.extra["published"]``."""
    from ...diagnostics.reporter import Reporter
    from ...results.result import mark_script_failed
    from .publish import publish

    inst = getattr(ctx, "inst", None)
    post = None

    def value_of(t: Any) -> Any:
        nonlocal post
        name = t.target
        sym = inst.symbols.get(name) if inst is not None else None
        if sym is None:
            raise SourceError("data-connection-failed", "`%s` is written to a data source, but the model declares no `%s`"
                              % (name, name), t.target_span, help="write an element the model declares")
        if sym.kind in ("dvar", "dexpr"):
            v = result[name]
            return dict(v) if isinstance(v, dict) else v
        if sym.kind == "postproc":
            if post is None:
                ctx.result, ctx.ir = result, model.ir
                post = ctx.postsolve_values()
            v = post.get(name)
            if v is None or (hasattr(v, "message") and not isinstance(v, Exception)):
                raise SourceError("data-connection-failed", "`%s` could not be computed from the solution, so it is not "
                                  "written" % name, t.target_span, help="see the warning on its declaration")
            return v
        v = sym.value
        if isinstance(v, OplArray) or not callable(v):
            return v
        raise SourceError("data-connection-failed", "`%s` has no value to write" % name, t.target_span,
                          help="write a decision variable, a dexpr or a data element")

    rep = Reporter(100)
    written = publish(model.publish, value_of, root, rep)
    if written:
        result.extra["published"] = written
    if rep.diagnostics:
        result.diagnostics = list(result.diagnostics) + rep.sorted()
        if rep.has_errors:
            mark_script_failed(result)
