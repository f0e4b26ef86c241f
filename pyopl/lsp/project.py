"""Which data files go with which model: the project setting of the language server.

Without a setting, a model ``x.mod`` goes with the ``x.dat`` beside it (and back).  A workspace
folder may say otherwise in ``pyopl.toml`` at its root::

    [[run]]
    model = "models/plan.mod"            # a path or a glob, relative to the folder
    data = ["data/common.dat", "data/week1.dat"]

or the client may send the same in its initialization options, ``{"data": {"models/*.mod":
["data/common.dat"]}}`` (also accepted under a ``"pyopl"`` key).  The first rule whose model
matches wins; a rule from ``pyopl.toml`` comes before one from the options.

Every path is resolved (symbolic links followed) and must stay inside the workspace folder:
nothing outside it is ever read.  A bad setting is a diagnostic, never an exception: a
``pyopl.toml`` that is not TOML or has the wrong shape (OPL1220, OPL1221), a data file that does
not exist (OPL1222), a path outside the folder (OPL1223), a model path that names no file
(OPL1224, a warning).  Diagnostics about ``pyopl.toml`` are placed in it; those about a model's
data are also shown on the model.
"""
from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from ..diagnostics.diagnostic import Diagnostic, Span
from ..diagnostics.registry import BY_SLUG

PROJECT_FILE = "pyopl.toml"
_GLOB = re.compile(r"[*?\[]")
_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass
class Rule:
    """``model`` (a glob, relative to the root, with ``/``) pairs with ``data`` (real paths inside
    the root that exist); ``span`` is where the rule is in ``pyopl.toml`` (None: from the options)."""

    model: str
    data: list[str]
    span: Optional[Span]
    problems: list[Diagnostic] = field(default_factory=list)  # about this rule's data, for its model


@dataclass
class Project:
    """The settings of one workspace folder (``root``: its real path)."""

    root: str
    rules: list[Rule] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # about pyopl.toml (file: its real path)
    stamp: Any = None  # (mtime, size) of pyopl.toml when read, None when there is none
    text: str = ""  # the text of pyopl.toml as read (where its problems are placed)

    def rule_for_model(self, path: str) -> Optional[Rule]:
        """The first rule whose model glob matches ``path`` (inside the root), or None."""
        rel = relative(self.root, path)
        if rel is None:
            return None
        for rule in self.rules:
            if fnmatch.fnmatchcase(rel, rule.model):
                return rule
        return None

    def models_for_data(self, path: str) -> list[str]:
        """The model paths (real, inside the root) of the rules listing the data file ``path``:
        a rule's model when it is a plain path (not a glob)."""
        real = os.path.realpath(path)
        out = []
        for rule in self.rules:
            if real in rule.data and not _GLOB.search(rule.model):
                out.append(os.path.join(self.root, *rule.model.split("/")))
        return out


def relative(root: str, path: str) -> Optional[str]:
    """``path`` (followed to its real path) relative to ``root`` with ``/``, or None if outside."""
    real = os.path.realpath(path)
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(real, root).replace(os.sep, "/")


def _diag(slug: str, message: str, span: Span, help: str) -> Diagnostic:
    kind = BY_SLUG[slug]
    return Diagnostic(kind.code, kind.severity, message, span, help=help)


def _place(text: str, needle: str, after: int = 0) -> tuple[int, int, int]:
    """1-based (line, column, end column) of the first ``needle`` at or after offset ``after``
    (the whole text when it is not there: line 1)."""
    at = text.find(needle, after) if needle else -1
    if at < 0:
        return 1, 1, 2
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col, col + len(needle.split("\n")[0])


def load_project(root: str, options: Any = None) -> Project:
    """Read ``pyopl.toml`` at ``root`` and the ``data`` initialization option; never raises."""
    from ..diagnostics import codes  # noqa: F401  (fills the registry)

    root = os.path.realpath(root)
    project = Project(root)
    path = os.path.join(root, PROJECT_FILE)
    if os.path.lexists(path):
        _read_file(project, path)
    _read_options(project, options)
    return project


def _read_file(project: Project, path: str) -> None:
    import tomllib

    root = project.root
    here = Span(path, 1, 1, 1, 2)
    if relative(root, path) is None:
        project.problems.append(_diag("project-path-outside", "`%s` leads outside the workspace folder" % PROJECT_FILE,
                                      here, help="make `%s` a regular file inside %s" % (PROJECT_FILE, root)))
        return
    try:
        st = os.stat(path)
        project.stamp = (st.st_mtime_ns, st.st_size)
        with open(path, "rb") as fh:
            raw = fh.read(1 << 20)
        text = raw.decode("utf-8")
        project.text = text
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as e:
        project.problems.append(_diag("project-file-invalid", "`%s` cannot be read: %s" % (PROJECT_FILE, e),
                                      here, help="save it as UTF-8 text"))
        return
    except tomllib.TOMLDecodeError as e:
        m = _TOML_PLACE.search(str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        project.problems.append(_diag("project-file-invalid", "`%s` is not valid TOML: %s"
                                      % (PROJECT_FILE, _TOML_PLACE.sub("", str(e)).strip()),
                                      Span(path, line, col, line, col + 1),
                                      help='write each pairing as `[[run]]` with `model = "x.mod"` and '
                                           '`data = ["x.dat"]` (TOML: strings in double quotes)'))
        return
    runs = doc.get("run", [])
    if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
        line, col, end = _place(text, "run")
        project.problems.append(_diag("project-setting-invalid", "`run` in `%s` must be a list of `[[run]]` tables"
                                      % PROJECT_FILE, Span(path, line, col, line, end),
                                      help='write `[[run]]` then `model = "x.mod"` and `data = ["x.dat"]`'))
        return
    offset = 0
    for k, run in enumerate(runs):
        at = text.find("[[run]]", offset)
        offset = at + 1 if at >= 0 else offset
        line, col, end = _place(text, "[[run]]", max(at, 0))
        span = Span(path, line, col, line, end)
        _add_rule(project, run.get("model"), run.get("data"), span, text, max(at, 0), "`[[run]]` number %d" % (k + 1))


def _read_options(project: Project, options: Any) -> None:
    if not isinstance(options, dict):
        return
    if isinstance(options.get("pyopl"), dict):
        options = options["pyopl"]
    setting = options.get("data")
    if setting is None:
        return
    here = Span("<initializationOptions>", 1, 1, 1, 2)
    if not isinstance(setting, dict):
        project.problems.append(_diag("project-setting-invalid", "the `data` setting must map model globs to data files",
                                      here, help='send `{"data": {"*.mod": ["common.dat"]}}`'))
        return
    for model, data in setting.items():
        _add_rule(project, model, data, None, None, 0, "the `data` setting for `%s`" % model)


def _add_rule(project: Project, model: Any, data: Any, span: Optional[Span], text: Optional[str], at: int,
              what: str) -> None:
    root = project.root
    where = span or Span("<initializationOptions>", 1, 1, 1, 2)
    if isinstance(data, str):
        data = [data]
    if not isinstance(model, str) or not model.strip() or not isinstance(data, list) \
            or not all(isinstance(d, str) for d in data):
        project.problems.append(_diag("project-setting-invalid", "%s needs `model` (a path or glob) and `data` "
                                      "(a list of paths)" % what, where,
                                      help='write `model = "x.mod"` and `data = ["x.dat"]`'))
        return

    def place(needle: str) -> Span:
        if text is None:
            return where
        line, col, end = _place(text, '"%s"' % needle, at)
        return Span(where.file, line, col, line, end) if line > 1 or col > 1 else where

    pattern = re.sub(r"^(?:\./)+", "", model.replace("\\", "/"))
    if os.path.isabs(model) or ".." in pattern.split("/"):
        rel = relative(root, model if os.path.isabs(model) else os.path.join(root, model))
        if rel is None:
            project.problems.append(_diag("project-path-outside", "the model `%s` is outside the workspace folder"
                                          % model, place(model), help="name models inside %s" % root))
            return
        pattern = rel
    elif not _GLOB.search(pattern) and not os.path.isfile(os.path.join(root, pattern)):
        project.problems.append(_diag("project-model-missing", "the model `%s` does not exist" % model, place(model),
                                      help="check the path; it is relative to %s" % root))
    rule = Rule(pattern, [], span)
    for d in data:
        full = d if os.path.isabs(d) else os.path.join(root, d)
        if "\0" in d or relative(root, full) is None:
            diag = _diag("project-path-outside", "the data file `%s` is outside the workspace folder" % d, place(d),
                         help="keep data files inside %s (symbolic links followed)" % root)
            project.problems.append(diag)
            rule.problems.append(diag)
            continue
        real = os.path.realpath(full)
        if not os.path.isfile(real):
            diag = _diag("project-data-missing", "the data file `%s` does not exist" % d, place(d),
                         help="check the path; it is relative to %s" % root)
            project.problems.append(diag)
            rule.problems.append(diag)
            continue
        rule.data.append(real)
    project.rules.append(rule)
