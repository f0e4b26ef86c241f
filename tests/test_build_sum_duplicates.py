"""The row matrix's repeated columns are merged in NumPy (pyopl/lowering/model/build.py, _sum_duplicates)
exactly as SciPy's ``sum_duplicates`` merges them, so a compile need not import SciPy."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from pyopl.lowering.model.build import _SHORT_RUN, _sum_duplicates


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


def test_rows_under_16_entries_give_scipys_bits():
    rng = np.random.default_rng(11)
    values = [0.1, 0.2, 0.3, -0.0, 0.0, 1e16, -1e16, 1.0, 3.0, 0.7]
    merged = 0
    for _ in range(3000):
        m, n = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        indptr = np.concatenate([[0], np.cumsum(rng.integers(0, 12, size=m))])
        col = rng.integers(0, n, size=int(indptr[-1]))
        vals = rng.choice(values, size=len(col))
        ref = sp.csr_array((vals.copy(), col.copy(), indptr.copy()), shape=(m, n))
        ref.sum_duplicates()
        got_vals, got_cols, got_indptr = _sum_duplicates(vals.copy(), col.copy(), indptr.copy(), m)
        assert np.array_equal(got_indptr, ref.indptr) and np.array_equal(got_cols, ref.indices)
        assert _bits(got_vals) == _bits(ref.data)
        merged += len(got_cols) < len(col)
    assert merged > 1000  # repeated columns were exercised


def test_a_long_run_of_one_column_is_added_left_to_right():
    rng = np.random.default_rng(3)
    for length in (_SHORT_RUN - 1, _SHORT_RUN + 1, 5000):
        vals = rng.choice([0.1, 0.2, 0.3, 1e16, -1e16, 0.7], size=length)
        got, cols, indptr = _sum_duplicates(vals, np.zeros(length, dtype=np.int64), np.array([0, length]), 1)
        want = vals[0]
        for v in vals[1:]:  # the order the terms were written in
            want += v
        assert list(cols) == [0] and list(indptr) == [0, 1] and _bits(got) == _bits(np.array([want]))
