"""The cells of a large dexpr array at the solution, for post-processing declarations: computed one by
one when read, not all at once (IBM creates a dexpr cell where it is used; ``dexpr float v[i in
1..200][j in 1..200][k in 1..200]`` read once must not cost 8 million evaluations)."""
from __future__ import annotations

from typing import Any

from .host_errors import HostError


def product_size(dims: list) -> int:
    """How many cells the index sets ``dims`` make."""
    n = 1
    for d in dims:
        n *= len(d)
    return n


class LazyCells(dict):
    """The cells of a large dexpr array at the solution, each computed when first read."""

    def __init__(self, ctx: Any, name: str, dims: list):
        super().__init__()
        self.ctx, self.name, self.dims = ctx, name, dims

    def _inside(self, key: Any) -> bool:
        return isinstance(key, tuple) and len(key) == len(self.dims) and all(k in d for k, d in zip(key, self.dims))

    def __missing__(self, key: Any) -> Any:
        if not self._inside(key):
            raise KeyError(key)
        try:
            v = self.ctx.dexpr_value(self.name, key, None)
        except HostError:
            raise KeyError(key) from None
        self[key] = v
        return v

    def __contains__(self, key: Any) -> bool:
        return dict.__contains__(self, key) or self._inside(key)

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default
