"""Where an input file a script names lies: inside the model's folder (or below it) and existing
(``new IloOplModelSource``, ``IloOplDataSource``, ``applyOpsSettings``, ``includeScript``)."""
from __future__ import annotations

import os
from typing import Any

from .host_errors import host_error
from .opl_objects import describe


def confined_input(ctx: Any, name: Any, span: Any, ext: str) -> str:
    """The real path of an input file named by a script: inside the model's folder, existing."""
    if not isinstance(name, str) or not name:
        raise host_error("script-value-type", "a file name is needed, not %s" % describe(name), span,
                         help='give a name such as `"sub%s"`' % ext)
    if ctx.model_file.startswith("<"):
        raise host_error("script-output-outside", "`%s` cannot be read: the model was given as text, so it has no "
                         "folder" % name, span, help="compile the model from its file so that files beside it can be found")
    root = ctx.model_dir
    target = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, target]) != root:  # (an absolute name inside it, from `resolvePath`, is fine)
        raise host_error("script-output-outside", "`%s` is outside the model's folder" % name, span,
                         help="keep the files a script reads in the model's folder (%s) or below it" % root)
    if not os.path.isfile(target):
        raise host_error("script-file-not-found", "the file `%s` does not exist" % name, span,
                         help="it is looked up in %s" % root)
    return target
