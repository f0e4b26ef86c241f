"""Run-time values of decision declarations: indexed ``dvar`` columns and lazily evaluated ``dexpr``s."""
from __future__ import annotations

from typing import Any

from ..syntax import ast as A


class VarArray:
    """An indexed ``dvar``: ``cols[key]`` is the column of ``name[key]``."""

    __slots__ = ("name", "dims", "cols", "decl")

    def __init__(self, name: str, dims: list[Any], cols: dict[tuple, int], decl: Any):
        self.name = name
        self.dims = dims
        self.cols = cols
        self.decl = decl


class DexprArray:
    """An indexed ``dexpr``: evaluated on demand for each index key (and cached)."""

    __slots__ = ("name", "dims", "decl", "cache")

    def __init__(self, name: str, dims: list[Any], decl: A.DexprDecl):
        self.name = name
        self.dims = dims
        self.decl = decl
        self.cache: dict[tuple, Any] = {}


class DexprScalar:
    __slots__ = ("name", "decl", "value")

    def __init__(self, name: str, decl: A.DexprDecl):
        self.name = name
        self.decl = decl
        self.value: Any = None
