"""Which fields of an AST node may hold nodes (a leaf module: the name checker and the static
checks both walk the AST with it)."""
from __future__ import annotations

import dataclasses

from ..syntax import ast as A


#: Field annotations that never hold a node: skipping them keeps every walk's visiting order.
_LEAF_TYPES = frozenset({"Span", "Optional[Span]", "str", "Optional[str]", "bool", "int", "list[str]", "list[Span]"})
_FIELDS: dict[type, tuple[tuple[str, ...], int]] = {}


def child_fields(node: A.Node) -> "tuple[str, ...] | None":
    """Names of ``node``'s fields that may hold nodes, in declaration order (the order of
    ``vars(node)``); None when the node carries attributes besides its fields."""
    cls = node.__class__
    known = _FIELDS.get(cls)
    if known is None:
        fs = dataclasses.fields(cls)
        known = _FIELDS[cls] = (tuple(f.name for f in fs if f.type not in _LEAF_TYPES), len(fs))
    return known[0] if len(node.__dict__) == known[1] else None
