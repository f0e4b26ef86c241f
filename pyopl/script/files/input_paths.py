"""Where an input file a script names lies: inside the model's folder (or below it) and existing
(``new IloOplModelSource``, ``IloOplDataSource``, ``applyOpsSettings``, ``includeScript``), and
where ``new IloOplInputFile(name)`` reads (:func:`script_input`).

A model given as text has no folder (:attr:`pyopl.script.opl.host.ScriptContext.model_dir` is None
unless the language server names the document's folder): it reads only inside the output folder
the user named, never the process's current folder (docs/safety.md, "What a script may read")."""
from __future__ import annotations

import os
from typing import Any

from ..opl.host_errors import host_error
from ..opl.opl_objects import describe


def confined_input(ctx: Any, name: Any, span: Any, ext: str) -> str:
    """The real path of an input file named by a script: inside the model's folder, existing."""
    if not isinstance(name, str) or not name:
        raise host_error("script-value-type", "a file name is needed, not %s" % describe(name), span,
                         help='give a name such as `"sub%s"`' % ext)
    root = ctx.model_dir
    if root is None:
        raise host_error("script-output-outside", "`%s` cannot be read: the model was given as text, so it has no "
                         "folder" % name, span, help="compile the model from its file so that files beside it can be found")
    target = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, target]) != root:  # (an absolute name inside it, from `resolvePath`, is fine)
        raise host_error("script-output-outside", "`%s` is outside the model's folder" % name, span,
                         help="keep the files a script reads in the model's folder (%s) or below it" % root)
    if not os.path.isfile(target):
        raise host_error("script-file-not-found", "the file `%s` does not exist" % name, span,
                         help="it is looked up in %s" % root)
    return target


def sink_key(name: str) -> str:
    """The name of an output file as the analysis sink keeps it (``./a//b`` and ``a/b`` are one file)."""
    return "/".join(p for p in name.replace("\\", "/").split("/") if p not in ("", "."))


def _inside(root: str, name: str) -> str | None:
    """The real path of ``name`` joined to the folder ``root`` when it stays inside it, else None."""
    target = os.path.realpath(os.path.join(root, name))
    return target if os.path.commonpath([root, target]) == root and target != root else None


def script_input(ctx: Any, name: str, span: Any) -> tuple[str | None, str | None]:
    """Where ``new IloOplInputFile(name)`` of ``ctx`` reads: ``(path, None)`` for a file, ``(None, text)``
    for a file this analysis wrote (its text kept by the sink), ``(None, None)`` when it does not exist.

    The rule (IBM resolves a script's input and output files against one folder; pyopl writes into
    the output folder): a file this run wrote is read from the output folder (or the sink); any
    other name from the model's folder, then from the output folder. A model given as text has no
    folder: it reads only inside the output folder the user named. Refused (a host error at
    ``span``): an absolute name or a NUL (OPL1056), a name leading out of its folder (OPL1056), a
    text model without an output folder (OPL1056), a dot-file of the output folder (OPL1065)."""
    from .output_files import _name_problem, output_root, written_name

    name = written_name(ctx, name)  # `c:\\temp\\res.txt` that this run wrote into the output folder as `res.txt`
    if "\x00" in name or os.path.isabs(name) or name.startswith(("\\", "~")) or (len(name) > 1 and name[1] == ":"):
        raise host_error("script-output-outside", "the input file `%s` is an absolute path" % name.replace("\x00", "\\0"),
                         span, help="read files by a name relative to the model's folder, inside it")
    folder, out = ctx.model_dir, output_root(ctx)
    problem = _name_problem(name)
    key = sink_key(name)
    sink = getattr(ctx, "sink_files", None) or {}
    if problem is None and key in sink:
        return None, sink[key]
    out_target = _inside(out, name) if out is not None and problem is None else None
    written = {os.path.realpath(p) for p in ctx.files_written}
    if out_target is not None and out_target in written and os.path.isfile(out_target):
        return out_target, None
    if folder is None:
        if out is None:
            raise host_error("script-output-outside", "the input file `%s` cannot be read: the model was given as "
                             "text, so it has no folder to read from" % name, span,
                             help="compile the model from its file, or give `output_dir=` (`--output-dir DIR`): a "
                                  "model given as text reads only the files inside that folder")
        if problem is not None:
            raise host_error(problem[0], "the input file `%s` %s" % (name, problem[1].replace("output folder", "folder")),
                             span, help="a model given as text reads only files inside its output folder %s, by a "
                                        "plain name" % out)
        if out_target is None:
            raise host_error("script-output-outside", "the input file `%s` leads out of the output folder" % name,
                             span, help="a model given as text reads only files inside its output folder %s" % out)
        return (out_target if os.path.exists(out_target) else None), None
    target = _inside(folder, name)
    if target is None:
        raise host_error("script-output-outside", "the input file `%s` is outside the model's folder" % name, span,
                         help="read files by a name relative to the model's folder, inside it")
    if os.path.exists(target):
        return target, None
    if out_target is not None and os.path.exists(out_target):
        return out_target, None
    return None, None
