"""The parts a :class:`~pyopl.lowering.model.instance.RowValues` keeps instead of a per-row list: a
block's one label or statement (:class:`Run`) and a braced body's rows' codes into its statements'
table (:class:`Coded`). Each is a read-only sequence (``len``, ``part[k]``, iteration) with
``array(dtype)``, the values as one NumPy array."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np


class Run:
    """``count`` copies of ``value``: a part of :class:`RowValues` (every row of a block has its label)."""

    __slots__ = ("value", "count")

    def __init__(self, value: Any, count: int):
        self.value, self.count = value, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, k: int) -> Any:
        return self.value

    def __iter__(self):
        return itertools.repeat(self.value, self.count)

    def array(self, dtype: Any) -> np.ndarray:
        return np.full(self.count, self.value, dtype=dtype)


class Coded:
    """The values ``table[codes[k]]``: a part of :class:`RowValues` (a braced body's rows, each row
    the label or statement of one of a few families)."""

    __slots__ = ("codes", "table")

    def __init__(self, codes: np.ndarray, table: list):
        self.codes, self.table = codes, table

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, k: int) -> Any:
        return self.table[int(self.codes[k])]

    def __iter__(self):
        return map(self.table.__getitem__, self.codes.tolist())

    def array(self, dtype: Any) -> np.ndarray:
        return np.asarray(self.table, dtype=dtype)[self.codes]
