"""The kind of value an evaluated expression gave: the type tests every evaluation path shares.

A leaf module (it imports only :mod:`.linear`), so the tree walk, the closures, the built-ins and
the declaration code can all use the same tests without importing one another.
"""
from __future__ import annotations

from typing import Any

from .linear import LinExpr, QuadExpr


def is_number(v: Any) -> bool:
    """True for an ``int`` or ``float`` value (a ``bool`` is not a number here: OPL keeps them apart)."""
    t = type(v)
    if t is int or t is float:  # (the common case, without the two isinstance calls)
        return True
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_decision(v: Any) -> bool:
    """True for an expression over decision variables (a linear or quadratic form)."""
    return isinstance(v, (LinExpr, QuadExpr))
