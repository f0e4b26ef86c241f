"""Which side of a comparison over decisions is the constant of its range (``k <= e`` is
``k <= e <= +inf``, Concert's IloRange(k, e, +inf)), shared by the row path
(:mod:`pyopl.lowering.evaluate.comparisons`) and the forall family path (:mod:`pyopl.lowering.arrays.vectorised_rows`)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ...syntax import ast as A

#: the operator of ``b op a`` for ``a op b``
MIRROR = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


@functools.lru_cache(maxsize=None)
def constant_side(node: A.Node) -> bool:
    """Whether ``node`` is a two-operand comparison whose left operand is data written without an
    aggregate (``nbKids <= 40*x``): such a side is the constant of the range ``k <= e <= +inf``.
    (A ``sum`` on the left may be empty on some rows and is kept as ``lhs - rhs``, on every path alike.)"""
    return isinstance(node, A.Compare) and len(node.operands) == 2 and not _has_aggregate(node.operands[0])


def _has_aggregate(n: Any) -> bool:
    if isinstance(n, A.Aggregate):  # (`card({v | v in D : f})` the array paths count as a sum: still the call)
        return not getattr(n, "written_as_card", False) or _has_aggregate(n.quals)
    if isinstance(n, A.Node):
        return any(_has_aggregate(getattr(n, f.name)) for f in dataclasses.fields(n))
    if isinstance(n, (list, tuple)):
        return any(_has_aggregate(x) for x in n)
    return False
