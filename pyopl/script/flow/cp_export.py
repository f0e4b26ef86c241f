"""``cp.exportModel(file)`` (IloCP): the generated ``using CP;`` model written in CP Optimizer's
``.cpo`` format into the run's output folder. A flow module because it writes a file (the ``cp``
object itself, :mod:`..solver.cp_object`, sits below the script's files layer and is handed this
function when :mod:`.opl_runtime` makes it)."""
from __future__ import annotations

from typing import Any

from ...files.safe_write import write_text_safely
from ..files.output_files import confined_path
from ..language.values import UNDEFINED
from ..opl.host_errors import host_error
from ..opl.opl_objects import _arg


def export_cp_model(ctx: Any, args: list, span: Any) -> Any:
    """``cp.exportModel(file)``: the generated model written in CP Optimizer's ``.cpo`` format into the
    run's output folder (``ctx.solver_services.write_cpo``: :mod:`pyopl.backends.cp.cpo_export`; the checks of
    :mod:`..files.output_files`); a model with
    a part that format writer does not write gets the warning OPL1058 naming it, and nothing is written."""
    name = _arg(args, 0)
    if not isinstance(name, str) or not name:
        raise host_error("script-value-type", "`cp.exportModel` needs a file name", span,
                         help='write `cp.exportModel("model.cpo");`')
    flow = getattr(ctx, "flow", None)
    cur = getattr(flow, "current", None) if flow is not None else None
    ir = getattr(getattr(cur, "model", None), "ir", None) if flow is not None else getattr(ctx, "ir", None)
    services = getattr(ctx, "solver_services", None)
    if ir is None or services is None:
        raise host_error("script-unsupported", "`cp.exportModel` needs the generated model: call it in `main` "
                         "after `generate()`", span, help="write `thisOplModel.generate();` first")
    try:
        text = services.write_cpo(ir)
    except services.CpoUnsupported as e:
        ctx.reporter.emit("script-setting-ignored", span, "`cp.exportModel`: pyopl's `.cpo` writer does not write "
                          "%s yet; nothing is written" % e.what,
                          help="it writes integer decisions, linear constraints, `allDifferent` and a linear "
                               "objective; a CP model is solved by CP-SAT as it is")
        return UNDEFINED
    path = confined_path(ctx, name, span)
    if path is None or getattr(ctx.options, "analysis", False):
        return UNDEFINED
    try:
        write_text_safely(path, text)
    except OSError as e:
        raise host_error("script-output-failed", "the model could not be written to `%s`: %s" % (name, e), span,
                         help="check the output folder's permissions and free space")
    ctx.files_written.append(path)
    return UNDEFINED
