"""Sub-models a ``main`` block loads (``new IloOplModelSource("sub.mod")``), checked with the model.

``pyopl check`` does not run ``main`` (it runs when the model is solved), so a sub-model's mistakes
would only show at solve time, in the middle of the flow. The file names are found statically: the
``main`` block's script AST is walked for ``new IloOplModelSource(<string literal>)`` (nothing is
executed; a name computed at run time is left to the run). Each name is confined to the model's
folder as ``include`` is (:func:`pyopl.files.source_io.resolve_include`), and the file is parsed and
its names checked, with its own file name in the diagnostics. Its data come from ``main``'s data
sources at run time, so no data are bound here (`...` declarations are not reported missing).
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Iterator

from ...diagnostics.diagnostic import Span
from ..language import ast as A

#: A sub-model's own ``main`` may load sub-models too: at most this many files are checked per model.
MAX_SUBMODELS = 32


def model_sources(program: A.Node) -> list[tuple[str, Span]]:
    """``(file name, span of the string)`` of every ``new IloOplModelSource("...")`` in ``program``
    whose first argument is a string literal, in source order."""
    out = []
    for node in _walk(program):
        if isinstance(node, A.New) and isinstance(node.callee, A.Name) and node.callee.name == "IloOplModelSource" \
                and node.args and isinstance(node.args[0], A.Literal) and isinstance(node.args[0].value, str):
            out.append((node.args[0].value, node.args[0].span))
    return out


def _walk(node: Any) -> Iterator[Any]:
    """Every AST node under ``node`` (itself included), depth first in field order (iterative)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
            continue
        if not dataclasses.is_dataclass(n) or isinstance(n, type):
            continue
        yield n
        stack.extend(reversed([getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span"]))


def check_submodels(program: A.Node, model_file: str, reporter: Any, seen: set[str] | None = None) -> None:
    """Check the sub-model files named in ``program`` (a parsed ``main`` block of ``model_file``) into
    ``reporter``: a name leading out of the model's folder is OPL1056 and a missing file OPL1061, at the
    string; a file is checked once (``seen``: real paths, the model's own included), at most
    :data:`MAX_SUBMODELS` in all. A model given as text has no folder: nothing is checked."""
    from ...files.source_io import SourceProblem, read_source_file, report_problem, resolve_include

    if model_file.startswith("<"):
        return
    seen = seen if seen is not None else {os.path.realpath(model_file)}
    root = os.path.dirname(os.path.abspath(model_file))
    for name, span in model_sources(program):
        target, why = (None, "outside") if os.path.isabs(name) else resolve_include(root, name)
        if target is None:
            reporter.emit("script-output-outside", span, "`%s` is outside the model's folder" % name,
                          help="keep the sub-models `main` loads in the model's folder (%s) or below it" % root)
            continue
        if target in seen:
            continue
        if len(seen) > MAX_SUBMODELS:
            return
        seen.add(target)
        if not os.path.isfile(target):
            reporter.emit("script-file-not-found", span, "the sub-model `%s` does not exist" % name,
                          help="it is looked up in %s" % root)
            continue
        shown = os.path.join(os.path.dirname(model_file), name)  # as the user would write the path
        try:
            text = read_source_file(target)[0]
        except SourceProblem as p:
            p.message = p.message.replace(target, shown)
            report_problem(reporter, p, "model", span)
            continue
        _check_file(text, shown, reporter, seen)


def _check_file(text: str, name: str, reporter: Any, seen: set[str]) -> None:
    """Parse the sub-model ``text`` (file ``name``), check its names, and check its own sub-models."""
    from ...limits import Limits
    from ...semantics.checker import check_names
    from ...syntax.nesting import check_nesting
    from ...syntax.parser import parse_model
    from ...syntax.ast import ScriptBlock
    from ..engine.parser import parse_script

    reporter.sources[name] = text
    ast = parse_model(text, name, reporter)
    if ast is None or not check_nesting(ast, reporter, Limits().max_nesting):
        return
    check_names(ast, reporter)
    for item in ast.items:
        if isinstance(item, ScriptBlock):
            program = parse_script(item.body, name, item.body_line, item.body_column)
            if isinstance(program, list):
                reporter.diagnostics.extend(program)  # (the block's syntax errors, in the sub-model)
            elif item.kind == "main":
                check_submodels(program, name, reporter, seen)
