"""The value types and bail-outs that every array path shares (:mod:`.vectorised` and the modules
beside it), apart so that the helpers the array paths call need not import :mod:`.vectorised`."""
from __future__ import annotations

import numpy as np

from ..syntax import ast as A


class _Fallback(Exception):
    """This sum (or this call of it) is summed term by term."""


class _Small(Exception):
    """Too few iterations for arrays to pay off."""


class _Vec:
    """Data over the iteration space: ``num`` (float64 array) and/or ``objs`` (list), or a loop-invariant ``scalar``.

    ``exact_int``: every value is an integer held exactly.  ``iter``: (domain, positions) when this
    is an iterator, so indexing by it needs no lookup.
    """

    __slots__ = ("_num", "_make", "objs", "scalar", "is_scalar", "exact_int", "iter")

    def __init__(self, num=None, objs=None, scalar=None, is_scalar=False, exact_int=False, it=None, make=None):
        self._num, self.objs, self.scalar, self.is_scalar, self.exact_int, self.iter = (
            num, objs, scalar, is_scalar, exact_int, it)
        self._make = make  # () -> num, for an iterator's values: made when first asked

    @property
    def num(self) -> np.ndarray | None:
        # an iterator that only indexes (`x[i][j]`, the common case) never needs its values
        if self._make is not None:
            self._num, self._make = self._make(), None
        return self._num


class _Lin:
    """A linear form per iteration: blocks of (coefficient, column) arrays, and a constant array."""

    __slots__ = ("blocks", "const")

    def __init__(self, blocks: list, const: np.ndarray):
        self.blocks = blocks
        self.const = const



def _flatten_index(n: A.Index) -> tuple[A.Expr, list[A.Expr]]:
    idx: list[A.Expr] = []
    while isinstance(n, A.Index):
        idx[:0] = n.indices
        n = n.base
    return n, idx
