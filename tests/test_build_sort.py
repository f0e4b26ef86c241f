"""sparse_order.sort_uniform_blocks (build's sort of array-built blocks): the CSR rows scipy's sort would give, for blocks of k entries per row."""
import numpy as np
import pytest
import scipy.sparse as sp

from pyopl.sparse_order import sort_uniform_blocks as _sort_uniform_blocks


def _reference(vals, cols, indptr, n):
    A = sp.csr_array((vals.copy(), cols.copy(), indptr.copy()), shape=(len(indptr) - 1, n))
    A.sort_indices()
    return A


@pytest.mark.parametrize("seed", range(12))
def test_sorted_like_scipy(seed):
    rng = np.random.default_rng(seed)
    n = 50
    counts, blocks, first = [], [], 0
    for _ in range(rng.integers(1, 4)):
        rows, k = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        blocks.append((first, rows))
        counts += [k] * rows
        first += rows
    counts += [3, 1]  # rows added one at a time: left to scipy
    indptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    cols = np.concatenate([rng.choice(n, size=c, replace=False) for c in counts]).astype(np.int64)
    if seed % 3 == 0:  # some blocks already sorted, row by row
        for i in range(len(counts) - 2):
            if i % 2:
                cols[indptr[i]:indptr[i + 1]].sort()
    vals = rng.normal(size=len(cols))
    want = _reference(vals, cols, indptr, n)
    _sort_uniform_blocks(blocks, vals, cols, indptr)
    got = sp.csr_array((vals, cols, indptr), shape=(len(counts), n))
    got.sum_duplicates()
    assert np.array_equal(got.indices, want.indices) and np.array_equal(got.data, want.data)
    # inside the blocks the rows are sorted already, before scipy looks at them
    for first, rows in blocks:
        for i in range(first, first + rows):
            assert np.all(np.diff(cols[indptr[i]:indptr[i + 1]]) > 0)


def test_read_only_arrays_are_left_alone():
    cols = np.array([3, 1, 2, 0], dtype=np.int64)
    vals = np.array([1.0, 2.0, 3.0, 4.0])
    cols.flags.writeable = False
    _sort_uniform_blocks([(0, 2)], vals, cols, np.array([0, 2, 4]))
    assert cols.tolist() == [3, 1, 2, 0] and vals.tolist() == [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("k", [2, 3])
def test_every_row_out_of_order(k):
    # `x[i] <= d * y[i]` with y's columns before x's: every row arrives as [x col, y col]
    rows = 4
    cols = np.array([[10 + i * k + j for j in range(k - 1)] + [i] for i in range(rows)], dtype=np.int64).ravel()
    vals = np.arange(rows * k, dtype=np.float64)
    indptr = np.arange(0, rows * k + 1, k)
    want = _reference(vals, cols, indptr, 30)
    _sort_uniform_blocks([(0, rows)], vals, cols, indptr)
    assert cols.tolist() == want.indices.tolist() and vals.tolist() == want.data.tolist()
    assert cols[:k].tolist() == [0] + list(range(10, 10 + k - 1))
