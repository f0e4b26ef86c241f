"""Named piecewise-linear functions: ``pwlFunction f = piecewise{...}(x0, y0);`` then ``f(e)``.

OPL declares the function once and applies it to several expressions (OPL manual,
"Piecewise linear functions", the ``pwlFunction`` type). Each call ``f(e)`` is the
same as writing the ``piecewise{...}`` literal in front of ``e``, so the calls are
replaced by :class:`~pyopl.syntax.ast.Piecewise` nodes here, right after parsing,
and the declarations leave the item list: later stages know one piecewise form.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..diagnostics.reporter import Reporter
from . import ast as A


def expand_pwl_functions(items: list, reporter: Reporter) -> list:
    """``items`` with each call of a declared ``pwlFunction`` made a ``Piecewise`` node.

    A call before the declaration stays a call (the checker reports it); a call with other
    than one argument is OPL1161; an indexed declaration ``pwlFunction f[i in I]`` is the
    unsupported-feature diagnostic OPL0603 naming it.
    """
    known: dict[str, A.PwlDecl] = {}
    out = []
    for item in items:
        if isinstance(item, A.PwlDecl):
            if item.dims:
                reporter.emit("unsupported-feature", item.name_span,
                              "an indexed `pwlFunction` array (`%s[...]`) is not supported" % item.name,
                              help="declare one `pwlFunction` per index, or write `piecewise(...){...} x[i]` "
                                   "inside the `forall`")
                continue
            known[item.name] = item
            continue
        if known:
            _rewrite(item, known, reporter)
        out.append(item)
    return out


#: CP Optimizer's expressions that take a piecewise-linear function itself (OPL Language Quick Reference, "startEval")
_TAKES_FUNCTION = {"startEval", "endEval", "sizeEval", "lengthEval"}


def _rewrite(node: Any, known: dict[str, A.PwlDecl], reporter: Reporter) -> Any:
    """Replace calls of ``known`` functions under ``node`` (in place); returns the node to use.  The name
    of a known function given to ``startEval`` and the like becomes its ``Piecewise`` without argument."""
    if isinstance(node, A.Call) and node.func in _TAKES_FUNCTION and len(node.args) > 1 \
            and isinstance(node.args[1], A.Name) and node.args[1].id in known:
        node.args[1] = known[node.args[1].id].fn
    if isinstance(node, A.Call) and node.func in known:
        for a in node.args:
            _rewrite(a, known, reporter)
        decl = known[node.func]
        if len(node.args) != 1:
            reporter.emit("pwl-function-arity", node.func_span or node.span,
                          "the piecewise-linear function `%s` takes one argument, but %d are given" % (
                              node.func, len(node.args)),
                          help="apply it to one expression, e.g. `%s(x)`" % node.func)
            return node
        fn = decl.fn
        return A.Piecewise(node.span, fn.quals, fn.slopes, fn.breaks, fn.last_slope, fn.anchor, node.args[0])
    if isinstance(node, list):
        for k, v in enumerate(node):
            node[k] = _rewrite(v, known, reporter)
        return node
    if isinstance(node, tuple):
        return tuple(_rewrite(v, known, reporter) for v in node)
    if isinstance(node, A.Node):
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            if isinstance(v, (A.Node, list, tuple)):
                setattr(node, f.name, _rewrite(v, known, reporter))
    return node
