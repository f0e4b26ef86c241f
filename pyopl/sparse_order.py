"""Stable orders of sparse-matrix entries by one or two integer keys, in NumPy (no SciPy).

A CSR-to-CSC transpose (:meth:`pyopl.ir.IR.csc`) needs the entries in order of column with ties
left in their input (row) order.  NumPy's stable ``argsort`` of 32- and 64-bit integers is a
timsort (radix sort is used only up to 16 bits): fast on keys that come in long ascending runs
(a row sort's ``row * n + column``, which ``lowering/model/build.py`` keeps), slow on keys in no order
(netflow's column indices: 85 ms for 1.5M).  Its plain ``sort`` of int64 uses the SIMD sorting
network.  Packing ``major``, ``minor`` and the entry's own position into one int64 makes every
number distinct, so any sort of them is stable, and the position comes back out of the low bits
(22 ms for the same 1.5M).

:func:`csr_to_csc` is the transpose by SciPy's compiled counting sort, loaded without importing
``scipy.sparse`` (where SciPy is installed), which costs less than either.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys

import numpy as np


def _bits(size: int) -> int:
    """Bits that hold the values ``0 .. size - 1``."""
    return max(int(size) - 1, 0).bit_length()


def stable_order(major: np.ndarray, major_size: int, minor: np.ndarray | None = None,
                 minor_size: int = 1, owned: bool = False) -> np.ndarray:
    """Indices that put the entries in order of ``(major, minor)``, entries equal in both kept in
    their input order: what ``np.lexsort((minor, major))`` gives (``np.argsort(major, kind="stable")``
    without ``minor``).

    ``major`` holds integers in ``[0, major_size)``, ``minor`` (same length) in ``[0, minor_size)``.
    Returns an int64 array of ``len(major)`` positions.  One sort of packed int64 keys where
    ``major``, ``minor`` and the position fit in 63 bits; NumPy's ``lexsort`` otherwise.
    ``owned``: ``major`` (int64) is the caller's to give up, and becomes the keys (no copy)."""
    count = len(major)
    pos_bits = _bits(count)
    minor_bits = _bits(minor_size) if minor is not None else 0
    if _bits(major_size) + minor_bits + pos_bits > 63:
        return np.lexsort((minor, major)) if minor is not None else np.argsort(major, kind="stable")
    key = major if owned and major.dtype == np.int64 else major.astype(np.int64)  # (shifted in place)
    key <<= minor_bits + pos_bits
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


_TOCSC: list = []  # [function or None] once looked up


def _compiled_tocsc():
    """SciPy's compiled ``csr_tocsc`` (the routine under ``tocsc()``), or None without SciPy.

    Where ``scipy.sparse`` is loaded already it is taken from there.  Otherwise only its extension
    module ``scipy/sparse/_sparsetools`` is loaded, under a private name: about 1 ms, where importing
    ``scipy.sparse`` costs 0.1-0.2 s of a compile's start.  Looked up once per process."""
    if not _TOCSC:
        fn = None
        try:
            if "scipy.sparse" in sys.modules:
                from scipy.sparse import _sparsetools

                fn = _sparsetools.csr_tocsc
            else:
                spec = importlib.util.find_spec("scipy")
                if spec is not None and spec.submodule_search_locations:
                    for folder in spec.submodule_search_locations:
                        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                            path = os.path.join(folder, "sparse", "_sparsetools" + suffix)
                            if os.path.exists(path):
                                tools = importlib.util.spec_from_file_location("_sparsetools", path)
                                module = importlib.util.module_from_spec(tools)
                                tools.loader.exec_module(module)
                                fn = module.csr_tocsc
                                break
                        if fn is not None:
                            break
        except (ImportError, OSError, AttributeError):
            fn = None
        _TOCSC.append(fn)
    return _TOCSC[0]


def csr_to_csc(shape: tuple[int, int], indptr: np.ndarray, indices: np.ndarray,
               data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(indptr, indices, data)`` of the CSR matrix ``shape`` by columns, with each column's entries
    in their row order (rows increasing in a canonical CSR): what SciPy's ``tocsc()`` +
    ``sort_indices()`` give, by SciPy's compiled counting sort (one pass over the entries, 0.1 s for
    6.4M where HiGHS's own transpose in ``passModel`` takes 0.2 s).

    The index arrays come back in the type of ``indices`` (int32 or int64), ``data`` as float64.
    Returns None where SciPy's routine is not available or refuses the arrays (the caller then
    transposes another way)."""
    fn = _compiled_tocsc()
    if fn is None:
        return None
    m, n = shape
    index = np.int64 if indices.dtype == np.int64 or indptr.dtype == np.int64 else np.int32
    ap = np.ascontiguousarray(indptr, dtype=index)
    aj = np.ascontiguousarray(indices, dtype=index)
    ax = np.ascontiguousarray(data, dtype=np.float64)
    nnz = int(ap[-1]) if len(ap) else 0
    bp = np.empty(n + 1, dtype=index)
    bi = np.empty(nnz, dtype=index)
    same = _one_value(ax[:nnz])
    # every entry the same double (an assignment's or a cover's 1s): the positions alone are sorted, with
    # bytes for values (an eighth of the memory scattered), and the values written in order afterwards
    bx = np.empty(nnz, dtype=np.int8 if same is not None else np.float64)
    try:
        fn(m, n, ap, aj, np.zeros(nnz, dtype=np.int8) if same is not None else ax, bp, bi, bx)
    except (TypeError, ValueError):  # a SciPy whose routine takes other arguments
        return None
    return bp, bi, (bx if same is None else np.full(nnz, same, dtype=np.float64))


def _one_value(data: np.ndarray) -> float | None:
    """The value of every entry of ``data`` (float64) where all are the same double, bit for bit
    (``-0.0`` is not ``0.0``); else None (looked at in the first entries before all of them)."""
    if not len(data):
        return None
    bits = data.view(np.uint64)
    if not np.all(bits[:256] == bits[0]) or not np.all(bits == bits[0]):
        return None
    return data[:1].copy()[0]


def sort_uniform_blocks(blocks: list, vals: np.ndarray, cols: np.ndarray, indptr: np.ndarray) -> None:
    """Sort, in place, the columns of each row in the array-built blocks (rows of k entries; others by length).

    Such a block (``x[w][c] <= d[c] * y[w]`` over a million rows) is a (rows, k) table, sorted
    row-wise by NumPy far faster than scipy's per-row sort; rows keep distinct columns, so
    the result is the one ``sum_duplicates`` gives.  ``blocks``: (first row, row count) of each
    block.  Arrays that are not writeable (a read-only view) are left as they are (to
    ``sum_duplicates``, by the IR's build).  A block of rows of several lengths (a window's sum,
    ``sum(s in t-w+1..t : s >= 1)``) has its unsorted rows sorted by :func:`_sort_ragged`.  Used by :mod:`pyopl.lowering.model.build` on the
    blocks of rows, and on a braced body's families before their rows are interleaved."""
    if not cols.flags.writeable or not vals.flags.writeable:
        return
    for first, count in blocks:
        a, b = int(indptr[first]), int(indptr[first + count])
        k = (b - a) // count if count > 1 else 0
        if k * count != b - a or not np.all(np.diff(indptr[first:first + count + 1]) == k):
            _sort_ragged(vals[a:b], cols[a:b], indptr[first:first + count + 1] - a)
            continue
        if k < 2:
            continue
        c, v = cols[a:b].reshape(count, k), vals[a:b].reshape(count, k)
        bad = np.any(c[:, 1:] < c[:, :-1], axis=1)  # rows not yet sorted (most families have none)
        if not bad.any():
            continue
        if not bad.all():
            rows = np.flatnonzero(bad)
            c_rows, v_rows = c[rows], v[rows]
            order = np.argsort(c_rows, axis=1)
            c[rows] = np.take_along_axis(c_rows, order, axis=1)
            v[rows] = np.take_along_axis(v_rows, order, axis=1)
            continue
        perm = shared_row_order(c)
        if perm is not None:  # one gather of columns puts every row in order
            c[:] = c[:, perm]
            v[:] = v[:, perm]
            continue
        if k == 2:
            swap = c[:, 0] > c[:, 1]
            if swap.any():
                c[swap] = c[swap][:, ::-1]
                v[swap] = v[swap][:, ::-1]
        else:
            order = np.argsort(c, axis=1)
            c[:] = np.take_along_axis(c, order, axis=1)
            v[:] = np.take_along_axis(v, order, axis=1)


def _sort_ragged(vals: np.ndarray, cols: np.ndarray, indptr: np.ndarray) -> None:
    """Sort, in place, the rows (``indptr`` from 0) whose columns do not rise strictly, the rows of each
    length as one (rows, k) table; a row that still has a column twice is left as it is (for
    ``sum_duplicates``, which adds repeated columns in their written order)."""
    if len(cols) < 2:
        return
    falling = np.zeros(len(cols), dtype=bool)  # an entry not above the one before it in its row
    np.less_equal(cols[1:], cols[:-1], out=falling[1:])
    counts = np.diff(indptr)
    filled = np.flatnonzero(counts)
    falling[indptr[filled]] = False  # (a row's first entry)
    if not falling.any():
        return
    bad = filled[np.logical_or.reduceat(falling, indptr[filled])]  # (no np.unique: NumPy's hashes cost more)
    lengths = counts[bad]
    for k in np.flatnonzero(np.bincount(lengths)).tolist():
        rows = bad[lengths == k]
        where = indptr[rows][:, None] + np.arange(k, dtype=np.int64)
        c, v = cols[where], vals[where]
        perm = shared_row_order(c)
        if perm is not None:  # one order sorts every row (`sum(s in window) start[s] <= on[t]`)
            c, v = c[:, perm], v[:, perm]
        else:  # one sort of (row, column) numbers (a sort per row costs a call per row)
            low = int(c.min())
            key = np.arange(len(rows), dtype=np.int64)[:, None] * (int(c.max()) - low + 1) + (c - low)
            order = np.argsort(key.ravel(), kind="stable").reshape(len(rows), k) - (np.arange(len(rows)) * k)[:, None]
            c, v = np.take_along_axis(c, order, axis=1), np.take_along_axis(v, order, axis=1)
        strict = np.all(c[:, 1:] > c[:, :-1], axis=1)
        if not strict.all():
            where, c, v = where[strict], c[strict], v[strict]
        cols[where], vals[where] = c, v
