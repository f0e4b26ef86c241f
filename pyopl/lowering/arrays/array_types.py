"""The value types and bail-outs that every array path shares (:mod:`.vectorised` and the modules
beside it), apart so that the helpers the array paths call need not import :mod:`.vectorised`."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import OplRange, OplSet, OplTuple, TupleType
from ...sparse_order import stable_order
from ...syntax import ast as A

EXACT = 2.0 ** 53


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


class Domain:
    """One index set as the array paths read it, each view made on first use: ``items`` (a list),
    ``where`` (each item's position; None for a range), ``num``/``exact`` (the items as float64 and
    whether all are exact ints, or None), ``ttype`` (the first item's tuple type, or None).

    A columnar tuple set (``OplSet.from_columns``) answers ``len``, ``ttype``, ``num`` and
    :meth:`field_values` from its columns: its tuples are made only if ``items`` or ``where`` is read.
    ``dom[k]`` is ``items[k]``, and iterating it iterates ``items``."""

    __slots__ = ("set", "_items", "_where", "_num")

    def __init__(self, d: Any):
        self.set = d
        self._items = self._where = self._num = None

    def _columnar(self) -> bool:
        d = self.set
        return type(d) is OplSet and isinstance(d.elem_type, TupleType) and len(d) > 0 and d.column(0) is not None

    @property
    def items(self) -> list:
        if self._items is None:
            d = self.set
            self._items = list(d.items()) if isinstance(d, (OplSet, OplRange)) else list(d)
        return self._items

    @property
    def where(self) -> dict | None:
        if self._where is None and not isinstance(self.set, OplRange):
            # a set's own position dict: the same, without hashing every item again
            self._where = self.set.positions() if isinstance(self.set, OplSet) else \
                {v: k for k, v in enumerate(self.items)}
        return self._where

    def _numbers(self) -> tuple:
        if self._num is None:
            self._num = (None, False) if self._columnar() else _numeric(self.items)
        return self._num

    @property
    def num(self) -> np.ndarray | None:
        return self._numbers()[0]

    @property
    def exact(self) -> bool:
        return self._numbers()[1]

    @property
    def ttype(self) -> TupleType | None:
        if self._columnar():
            return self.set.elem_type
        items = self.items
        t0 = items[0] if items else None
        return t0.ttype if isinstance(t0, OplTuple) else None

    def field_values(self, k: int, positions: list[int]) -> list:
        """Field ``k`` of the items at ``positions``, as the tuples hold it (an int or a float)."""
        if self._items is None and self._columnar():
            col, ints = self.set.column(k)
            vals = col[positions]
            return vals.astype(np.int64).tolist() if ints else vals.tolist()
        items = self.items
        return [items[p][k] for p in positions]

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self.set)

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, k: int) -> Any:
        if self._items is None and isinstance(self.set, (OplSet, OplRange)):
            return self.set.item(k)  # (a columnar set makes this one tuple only)
        return self.items[k]


def _numeric(vals: list) -> tuple[np.ndarray | None, bool]:
    """Float64 array of ``vals`` when all are int/float (not bool) and ints are below 2**53."""
    kinds = set(map(type, vals))
    if not kinds <= {int, float}:
        return None, False
    num = np.asarray(vals, dtype=np.float64) if vals else np.zeros(0)
    if int in kinds and len(num) and np.abs(num).max() >= EXACT:
        return None, False
    return num, kinds == {int} or not vals


def consecutive_columns(arr: Any, at: tuple, size: int, checked: bool) -> np.ndarray | None:
    """The columns of ``x[p]`` for a one-dimensional dvar block of consecutive columns (``first + k`` for
    its k-th key) at the positions ``at`` (one array, ``size`` long): ``first + at``, the values a gather
    from the block's dense column array gives, without making that array (3.2M entries for a dvar over
    the pairs of a sparse assignment) or reading it in the positions' order; ``at`` itself where
    ``first`` is 0 (the callers never write to columns: they copy what they change).  ``checked``: the
    positions are an iterator's over the block's own index set, so within it.  None: gather."""
    if len(at) != 1 or arr.first is None or arr._cols is not None:
        return None
    pos = at[0]
    if not (isinstance(pos, np.ndarray) and pos.ndim == 1 and len(pos) == size and size and pos.dtype == np.int64):
        return None
    if not checked and (pos.min() < 0 or pos.max() >= len(arr.dims[0])):
        return None  # (a negative position counts from the end in a gather: leave it to that)
    return pos if arr.first == 0 else np.add(pos, arr.first, dtype=np.int64)


def one_number(a: np.ndarray) -> float | None:
    """The number every entry of ``a`` holds where ``a`` is a view of one number (stride 0: a coefficient
    1.0 broadcast over a family's entries), so that a test of every entry is a test of it; else None."""
    return float(a[0]) if a.ndim == 1 and len(a) and a.strides[0] == 0 else None


def _stable_order(num: np.ndarray, exact: bool) -> np.ndarray:
    """``np.argsort(num, kind="stable")``; for integers spanning less than 2**32 the same permutation (a
    stable sort has only one) by one sort of packed int64 keys (:func:`~pyopl.sparse_order.stable_order`:
    0.035 s for 3.2M task ids, where the stable radix sort of their 16-bit codes takes 0.048 s and of
    32-bit codes, two passes, 0.11 s); for values already in order (a field the data lists sorted: no
    NaN, the callers leave those out) the identity."""
    if len(num) and not np.any(num[1:] < num[:-1]):
        return np.arange(len(num))
    if exact and len(num):
        lo = num.min()
        width = num.max() - lo  # exact: integers below 2**53
        if width < 2.0 ** 32:
            return stable_order((num - lo).astype(np.int64), int(width) + 1, owned=True)
    return np.argsort(num, kind="stable")


def whole_or_gathered(cache: Any, num: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``num[pos]``; where ``pos`` is the positions ``0..n-1`` of a binder over a whole domain in order (kept in
    ``cache.whole`` by ``_Sum._bind``), ``num`` itself as a read-only view (`p.c` of every pair: no gather)."""
    ref = cache.__dict__.get("whole", {}).get(id(pos))  # (a weak reference: the positions are not kept alive)
    if ref is not None and ref() is pos and len(pos) == len(num):
        out = num.view()
        out.flags.writeable = False
        return out
    return num[pos]


def all_live(j: Any) -> bool:
    """Every column of a block is live (>= 0): one number's test for a view of one number, else the
    smallest one's (no array of comparisons)."""
    j = np.asarray(j)
    one = one_number(j) if j.ndim == 1 else None
    return bool(one >= 0) if one is not None else bool(j.size == 0 or j.min() >= 0)
