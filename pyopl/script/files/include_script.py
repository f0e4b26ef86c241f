"""``includeScript("file.js")`` and ``loadFile("file.js")`` (IBM ILOG Script, "Miscellaneous functions":
load a script file and run it): the file's text runs as global code, as an indirect ``eval`` of it
would, so the functions and ``var``s it declares become globals of the script.

The file is an input beside the model, confined as every file a script reads (the model's folder
or below it).  Its text is parsed by the script parser (never by Python); errors point into the
file.  At most :data:`MAX_INCLUDES` files per model run, so a file that includes itself ends.
"""
from __future__ import annotations

from typing import Any

from ..opl.host_errors import host_error

#: files one model's scripts may load in all
MAX_INCLUDES = 256


def include_script(ctx: Any, interp: Any, args: list, span: Any, fn: str) -> Any:
    """Run the script file ``args[0]`` in the global scope of ``interp``; returns the value of its last
    expression statement.  Raises OPL1061 (missing file), OPL1065's family (outside the model's
    folder), OPL1057 (more than :data:`MAX_INCLUDES` loads)."""
    from ...diagnostics.diagnostic import Span
    from ...files.source_io import SourceProblem, read_source_file
    from .input_paths import confined_input as _confined_input
    from ..opl.opl_objects import _arg

    path = _confined_input(ctx, _arg(args, 0), span, ".js")
    ctx.script_includes = getattr(ctx, "script_includes", 0) + 1
    if ctx.script_includes > MAX_INCLUDES:
        raise host_error("script-unsupported", "`%s` loaded more than %d script files" % (fn, MAX_INCLUDES), span,
                         help="check for a file that loads itself")
    try:
        text = read_source_file(path, [])[0]
    except SourceProblem as p:
        raise host_error("script-file-not-found", "the script file `%s` cannot be read: %s" % (_arg(args, 0), p.message),
                         span, help="put the file beside the model, or check its name")
    from ..engine.parser import parse_script
    from ..language.values import ScriptError

    parsed = parse_script(text, path, 1, 1)
    if isinstance(parsed, list):  # at its place in the file, not at the call
        d = parsed[0]
        raise ScriptError("script-syntax-error", "in the script file `%s` loaded by `%s`: %s" % (_arg(args, 0), fn, d.message),
                          d.span, d.help or "fix the script file", error_name="SyntaxError")
    return interp.eval_text(text, Span(path, 1, 1, 1, 2), direct=False)
