"""``thisOplModel.applyOpsSettings(baseDir, opsFile)`` (IBM ILOG Script for OPL, ``IloOplModel``:
"apply the settings to OPL and the needed engine"): reads an OPL settings file (``.ops``, the XML
file the OPL IDE writes) and applies its CPLEX parameters as ``cplex.NAME = value`` would.

The file is an input beside the model, confined as every file a script reads (the model's folder
or below it; ``baseDir`` may name a subfolder).  Its shape::

    <settings version="2">
      <category name="cplex">
        <setting name="tilim" value="30"/>
      </category>
    </settings>

Settings of the ``cplex`` category become solver parameters (:func:`pyopl.script.solver.settings.record_setting`:
an unknown name or one the solver cannot honour is a warning, OPL1058); ``true``/``false`` are 1/0.
Other categories (OPL's display and run options) and values that are not numbers are warnings
(OPL1058) that name them.  The file is refused (OPL1069) when it is not well-formed XML, has no
``<settings>`` root, is over 1 MB, or declares a DTD (no entity of the file is ever expanded).
"""
from __future__ import annotations

import math
import os
from typing import Any

from ..opl.host_errors import host_error

#: bytes a settings file may have
MAX_BYTES = 1_000_000


def declares_dtd(raw: bytes) -> bool:
    """Whether the XML document ``raw`` declares a DTD or an entity, in whatever encoding it is
    written (UTF-16, UTF-32, a declared encoding: expat decodes it first, so no byte test misses
    one); a document expat cannot read is left to the parser's own error."""
    import xml.parsers.expat

    found: list[bool] = []

    def seen(*_args: object) -> None:
        found.append(True)
        raise _Declared

    p = xml.parsers.expat.ParserCreate()
    p.StartDoctypeDeclHandler = seen
    p.EntityDeclHandler = seen
    try:
        p.Parse(raw, True)
    except _Declared:
        pass
    except xml.parsers.expat.ExpatError:
        pass
    return bool(found)


class _Declared(Exception):
    """Raised by :func:`declares_dtd`'s handlers to stop at the first declaration."""


def _value(text: str) -> float | None:
    t = text.strip().lower()
    if t in ("true", "false"):
        return 1.0 if t == "true" else 0.0
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _path(flow: Any, args: list, span: Any) -> str:
    from .input_paths import confined_input as _confined_input
    from ..opl.opl_objects import _arg
    from ..language.values import NULL, UNDEFINED

    base, name = _arg(args, 0), _arg(args, 1)
    if name is UNDEFINED:  # applyOpsSettings("file.ops"): the file alone
        base, name = None, base
    if not isinstance(name, str):
        raise host_error("script-value-type", "`applyOpsSettings` needs the settings file's name", span,
                         help='write `thisOplModel.applyOpsSettings(null, "model.ops");`')
    if isinstance(base, str) and base and base is not NULL:
        name = os.path.join(base, name)
    return _confined_input(flow.ctx, name, span, ".ops")


def apply_ops_settings(flow: Any, args: list, span: Any) -> Any:
    """Read the ``.ops`` file named by ``args`` (``baseDir``, ``opsFile``) and record its CPLEX settings
    for the next solves; returns undefined.  Raises OPL1061 for a missing file, OPL1065-family
    confinement errors for a file outside the model's folder, OPL1069 for a file it cannot read."""
    import xml.etree.ElementTree as ET

    from ..solver.settings import record_setting
    from ..language.values import UNDEFINED

    path = _path(flow, args, span)
    shown = os.path.basename(path)
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise host_error("script-settings-file-invalid", "the settings file `%s` is over 1 MB" % shown, span,
                         help="a settings file lists parameters; check that this is the right file")
    if b"<!DOCTYPE" in raw.upper() or b"<!ENTITY" in raw.upper() or declares_dtd(raw):
        raise host_error("script-settings-file-invalid", "the settings file `%s` declares a DTD, which pyopl does not read"
                         % shown, span, help="remove the `<!DOCTYPE ...>` part; the OPL IDE writes none")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise host_error("script-settings-file-invalid", "the settings file `%s` is not well-formed XML: %s" % (shown, e),
                         span, help="write it as the OPL IDE does: <settings><category name=\"cplex\">...") from None
    if root.tag != "settings":
        raise host_error("script-settings-file-invalid", "the settings file `%s` has the root `<%s>`, not `<settings>`"
                         % (shown, root.tag), span, help="an OPL settings file starts with `<settings version=\"2\">`")
    ctx = flow.ctx
    for cat in root.iter("category"):
        kind = cat.get("name", "")
        for s in cat.iter("setting"):
            name, text = s.get("name", ""), s.get("value", "")
            if kind != "cplex":
                ctx.reporter.emit("script-setting-ignored", span, "`%s` (category `%s`) of `%s` is not a solver "
                                  "parameter; pyopl ignores it" % (name, kind, shown),
                                  help="only the `cplex` category of a settings file reaches the solver")
                continue
            v = _value(text)
            if v is None:
                ctx.reporter.emit("script-setting-ignored", span, "`%s` = \"%s\" of `%s` is not a number; pyopl ignores it"
                                  % (name, text, shown), help="pyopl maps numeric CPLEX parameters (docs/solvers.md)")
                continue
            record_setting(ctx, name, v, span)
    return UNDEFINED
