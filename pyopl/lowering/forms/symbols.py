"""Run-time values of decision declarations: indexed ``dvar`` columns and lazily evaluated ``dexpr``s."""
from __future__ import annotations

from typing import Any

from ...semantics.values import ProductKeys
from ...syntax import ast as A


class VarArray:
    """An indexed ``dvar``: ``cols[key]`` is the column of ``name[key]``.

    A block whose columns are consecutive over the whole index space is given by ``first``
    instead: its column for the k-th key of :class:`ProductKeys` is ``first + k``, and
    ``cols`` is built on first use (vectorised lowering needs only ``first``).
    """

    __slots__ = ("name", "dims", "_cols", "decl", "first")

    def __init__(self, name: str, dims: list[Any], cols: dict[tuple, int] | None, decl: Any,
                 first: int | None = None):
        self.name = name
        self.dims = dims
        self._cols = cols
        self.decl = decl
        self.first = first

    @property
    def cols(self) -> dict[tuple, int]:
        if self._cols is None:
            keys = ProductKeys(self.dims)
            self._cols = dict(zip(keys, range(self.first, self.first + len(keys))))
        return self._cols


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
