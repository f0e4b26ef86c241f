"""Stable orders of sparse-matrix entries by one or two integer keys, in NumPy (no SciPy).

A CSR-to-CSC transpose (:meth:`pyopl.ir.IR.csc`) needs the entries in order of column with ties
left in their input (row) order.  NumPy's stable ``argsort`` of 32- and 64-bit integers is a
timsort (radix sort is used only up to 16 bits): fast on keys that come in long ascending runs
(a row sort's ``row * n + column``, which ``lowering/build.py`` keeps), slow on keys in no order
(netflow's column indices: 85 ms for 1.5M).  Its plain ``sort`` of int64 uses the SIMD sorting
network.  Packing ``major``, ``minor`` and the entry's own position into one int64 makes every
number distinct, so any sort of them is stable, and the position comes back out of the low bits
(22 ms for the same 1.5M).
"""
from __future__ import annotations

import numpy as np


def _bits(size: int) -> int:
    """Bits that hold the values ``0 .. size - 1``."""
    return max(int(size) - 1, 0).bit_length()


def stable_order(major: np.ndarray, major_size: int, minor: np.ndarray | None = None,
                 minor_size: int = 1) -> np.ndarray:
    """Indices that put the entries in order of ``(major, minor)``, entries equal in both kept in
    their input order: what ``np.lexsort((minor, major))`` gives (``np.argsort(major, kind="stable")``
    without ``minor``).

    ``major`` holds integers in ``[0, major_size)``, ``minor`` (same length) in ``[0, minor_size)``.
    Returns an int64 array of ``len(major)`` positions.  One sort of packed int64 keys where
    ``major``, ``minor`` and the position fit in 63 bits; NumPy's ``lexsort`` otherwise."""
    count = len(major)
    pos_bits = _bits(count)
    minor_bits = _bits(minor_size) if minor is not None else 0
    if _bits(major_size) + minor_bits + pos_bits > 63:
        return np.lexsort((minor, major)) if minor is not None else np.argsort(major, kind="stable")
    key = major.astype(np.int64) << (minor_bits + pos_bits)
    if minor is not None:
        key |= minor.astype(np.int64) << pos_bits
    key |= np.arange(count, dtype=np.int64)
    key.sort()
    key &= (1 << pos_bits) - 1  # the positions, now in order
    return key


def shared_row_order(table: np.ndarray) -> np.ndarray | None:
    """The column permutation that puts every row of ``table`` (shape (m, k)) in strictly increasing
    order when it is the one that sorts the first row, else None.  In a family of rows written by one
    statement (`x[w][c] <= d[c] * y[w]`) every row usually has the same order, so one gather sorts
    them all instead of a sort per row; a row with a repeated column or another order gives None."""
    perm = np.argsort(table[0], kind="stable")
    moved = table[:, perm]
    return perm if np.all(moved[:, 1:] > moved[:, :-1]) else None
