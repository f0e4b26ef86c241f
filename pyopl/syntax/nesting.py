"""How deeply a model's expressions nest, measured without recursion, against ``Limits.max_nesting``.

The compiler's passes walk expressions recursively; a chain of one left-associative operator
(``a + b + c``, ``c1 && c2 && c3``), an indexing chain ``a[i][j]`` and a field chain ``t.a.b``
are walked iteratively, so they count as one level whatever their length. Every other child is
one level deeper than its parent (the model's items are at level 0).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..diagnostics.reporter import Reporter
from . import ast as A

_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name != "span")
    return names


def child_nodes(node: Any) -> list[Any]:
    """The AST nodes directly under ``node``, in field order (lists and lists of lists included; the
    span left out): the one step every iterative walk over the AST takes."""
    out: list[Any] = []
    d = node.__dict__
    for f in _child_fields(node.__class__):
        v = d.get(f)
        if isinstance(v, A.Node):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                if isinstance(x, A.Node):
                    out.append(x)
                elif isinstance(x, (list, tuple)):
                    out.extend(y for y in x if isinstance(y, A.Node))
    return out


def _same_level(parent: Any, child: Any) -> bool:
    """A continuation of a chain that the passes walk iteratively."""
    cls = parent.__class__
    if cls is A.Binary:
        return child is parent.left and child.__class__ is A.Binary
    if cls is A.Index or cls is A.Field:
        return child is parent.base
    return False


def too_deep(model: A.Model, max_nesting: int, max_string: int | None = None,
             long_strings: list | None = None) -> list[tuple[A.Node, int]]:
    """For each item of ``model`` whose nesting exceeds ``max_nesting``: (the first node found
    deeper than the limit, the item's deepest level). Linear in the model's size. String
    constants longer than ``max_string`` are appended to ``long_strings``."""
    out = []
    for item in model.items:
        stack: list[tuple[Any, int]] = [(item, 0)]
        first, deepest = None, 0
        while stack:
            node, depth = stack.pop()
            if depth > deepest:
                deepest = depth
            if depth > max_nesting and first is None:
                first = node
            if long_strings is not None and node.__class__ is A.Const and isinstance(node.value, str) \
                    and len(node.value) > max_string:
                long_strings.append(node)
            d = node.__dict__
            for name in _child_fields(node.__class__):
                v = d.get(name)
                if isinstance(v, A.Node):
                    stack.append((v, depth if _same_level(node, v) else depth + 1))
                elif isinstance(v, (list, tuple)):
                    for x in v:
                        if isinstance(x, A.Node):
                            stack.append((x, depth + 1))
                        elif isinstance(x, (list, tuple)):
                            stack.extend((y, depth + 1) for y in x if isinstance(y, A.Node))
        if first is not None:
            out.append((first, deepest))
    return out


def check_nesting(model: A.Model, reporter: Reporter, max_nesting: int, max_string: int = 1 << 62) -> bool:
    """Report every item nested deeper than ``max_nesting`` (OPL1141) and every string literal
    longer than ``max_string`` (OPL1142); True when there is none."""
    long_strings: list = []
    found = too_deep(model, max_nesting, max_string, long_strings)
    for node in long_strings:
        reporter.emit("string-limit", node.span, "this string has %s characters, more than pyopl allows (%s)" % (
            f"{len(node.value):,}", f"{max_string:,}"),
            help="keep long texts out of the model; to allow more, pass `limits=pyopl.Limits(max_string=N)`")
    for node, deepest in found:
        reporter.emit("nesting-limit", node.span,
                      "this expression is nested %d levels deep, more than pyopl allows (%d)" % (deepest, max_nesting),
                      help="name a part with a `dexpr` or a data declaration; a chain of one operator "
                           "(`a + b + c`, `c1 && c2`) counts as one level; to allow more, pass "
                           "`limits=pyopl.Limits(max_nesting=N)`")
    return not found and not long_strings
