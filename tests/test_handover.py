"""The last two stages of a compile, pinned against the slower ways they replaced.

- ``build``: only the rows out of order are sorted and merged (``_canonical_rows``), which must give
  the arrays ``_sum_duplicates`` of the whole matrix gives (itself pinned to SciPy's bits in
  test_build_sum_duplicates.py) and never write to the caller's arrays;
- ``ir.csc()``: the NumPy transpose by one sort of packed keys (``stable_order``) equals SciPy's
  ``tocsc()`` + ``sort_indices()``;
- the HiGHS hand-over passes the matrix by rows while SciPy is not loaded (by SciPy's columns when it
  is): the model HiGHS holds afterwards (matrix, costs, bounds) and its solution are, both ways, the
  ones the column-wise hand-over of SciPy's CSC arrays gives.
"""
from __future__ import annotations

import sys

import highspy
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.backends.common import SolveOptions
from pyopl.backends.mp.highs import _matrix, _new_solver, _pass
from pyopl.ir import IR, CSRParts
from pyopl.lowering.model.build import _canonical, _canonical_rows, _sum_duplicates, _unsorted_rows
from pyopl.sparse_order import stable_order

# coefficients a model can hold: explicit zeros (kept by the IR), signed zero, tiny and large values
VALUES = st.sampled_from([1.0, -1.0, 0.5, 0.1, 0.2, 0.3, -0.0, 0.0, 1e-12, 3e5, -7.25, 1e14])


@st.composite
def raw_rows(draw, max_rows=12, max_cols=9, max_len=20):
    """``(vals, cols, indptr, n)`` of rows as lowering writes them: any column order, columns may repeat;
    some rows already canonical so that both of ``_canonical_rows``'s ways are taken."""
    n = draw(st.integers(1, max_cols))
    m = draw(st.integers(0, max_rows))
    cols, vals, indptr = [], [], [0]
    for _ in range(m):
        k = draw(st.integers(0, max_len))
        if draw(st.booleans()):  # canonical: increasing, distinct
            row = sorted(draw(st.sets(st.integers(0, n - 1), max_size=min(k, n))))
        else:
            row = draw(st.lists(st.integers(0, n - 1), max_size=k))
        cols += row
        vals += [draw(VALUES) for _ in row]
        indptr.append(len(cols))
    return (np.array(vals, dtype=np.float64), np.array(cols, dtype=np.int64), np.array(indptr, dtype=np.int64), n)


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


@given(raw_rows())
@settings(max_examples=examples(150), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_canonical_rows_equals_sum_duplicates_of_the_whole_matrix(case):
    vals, cols, indptr, n = case
    m = len(indptr) - 1
    want_vals, want_cols, want_indptr = _sum_duplicates(vals.copy(), cols.copy(), indptr.copy(), m)
    before = (vals.copy(), cols.copy(), indptr.copy())
    got_vals, got_cols, got_indptr = _canonical_rows(vals, cols, indptr)
    assert np.array_equal(got_indptr, want_indptr) and np.array_equal(got_cols, want_cols)
    assert _bits(got_vals) == _bits(want_vals)  # signed zeros and sums to the bit
    for a, b in zip((vals, cols, indptr), before):  # the caller's arrays are left as they were
        assert np.array_equal(a, b) and _bits(a) == _bits(b)


@given(raw_rows())
@settings(max_examples=examples(100), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_unsorted_rows_are_the_rows_not_strictly_increasing(case):
    vals, cols, indptr, n = case
    want = [i for i in range(len(indptr) - 1) if np.any(np.diff(cols[indptr[i]:indptr[i + 1]]) <= 0)]
    assert _unsorted_rows(cols, indptr).tolist() == want
    assert _canonical(cols, indptr) == sp.csr_array((vals, cols, indptr), shape=(len(indptr) - 1, n)).has_canonical_format


def test_few_rows_out_of_order_are_sorted_in_place_of_a_copy():
    # a netflow-like matrix: 40 one-entry rows, then 3 rows of two ascending runs each, one with a repeat
    cols = np.concatenate([np.arange(40), [5, 9, 1, 2], [7, 3], [8, 8, 0]]).astype(np.int32)
    vals = np.concatenate([np.ones(40), [1.0, 2.0, 3.0, 4.0], [5.0, 6.0], [0.1, 0.2, 7.0]])
    indptr = np.concatenate([np.arange(41), [44, 46, 49]]).astype(np.int64)
    v, c, p = _canonical_rows(vals, cols, indptr)
    assert p.tolist() == list(range(41)) + [44, 46, 48]
    assert c[40:].tolist() == [1, 2, 5, 9, 3, 7, 0, 8]
    assert v[40:].tolist() == [3.0, 4.0, 1.0, 2.0, 6.0, 5.0, 7.0, 0.1 + 0.2]
    assert c[:40].tolist() == list(range(40)) and cols[40:44].tolist() == [5, 9, 1, 2]  # input untouched
    owned = cols[:46].copy()  # no repeat: the sorted rows are written back into an owned array
    v2, c2, p2 = _canonical_rows(vals[:46], owned, indptr[:43], cols_owned=True)
    assert c2 is owned and owned[40:].tolist() == [1, 2, 5, 9, 3, 7] and p2 is not None


@st.composite
def int_keys(draw):
    count = draw(st.integers(0, 60))
    major_size = draw(st.sampled_from([1, 2, 7, 1000, 2**40]))
    minor_size = draw(st.sampled_from([1, 3, 2**20, 2**30]))
    major = np.array(draw(st.lists(st.integers(0, min(major_size, 9) - 1), min_size=count, max_size=count)), np.int64)
    minor = np.array(draw(st.lists(st.integers(0, min(minor_size, 5) - 1), min_size=count, max_size=count)), np.int64)
    if major_size == 2**40 and count:
        major[0] = major_size - 1  # the largest value: the packed key must not overflow into another field
    return major, major_size, minor, minor_size


@given(int_keys(), st.booleans())
@settings(max_examples=examples(150), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_stable_order_is_lexsort(keys, with_minor):
    major, major_size, minor, minor_size = keys
    if with_minor:
        got = stable_order(major.astype(np.int32) if major_size < 2**31 else major, major_size, minor, minor_size)
        want = np.lexsort((minor, major))
    else:
        got = stable_order(major, major_size)
        want = np.argsort(major, kind="stable")
    assert got.tolist() == want.tolist()


def _ir(A: sp.csr_array, rng: np.random.Generator) -> IR:
    m, n = A.shape
    lower = -rng.integers(0, 5, size=n).astype(float)
    return IR(sense="minimize", col_lower=lower, col_upper=lower + rng.integers(1, 9, size=n),
              col_integer=np.zeros(n, bool), col_name=["x"] * n, col_key=[(j,) for j in range(n)],
              obj=rng.normal(size=n).round(3), obj_constant=1.5,
              A=CSRParts(A.data.copy(), A.indices.astype(np.int32), A.indptr.astype(np.int32), (m, n)),
              row_lower=np.full(m, -np.inf), row_upper=rng.integers(1, 30, size=m).astype(float),
              row_label=[""] * m, row_key=[()] * m)


@given(raw_rows(max_rows=15, max_cols=12, max_len=10))
@settings(max_examples=examples(100), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_numpy_csc_equals_scipy(case):
    vals, cols, indptr, n = case
    v, c, p = _canonical_rows(vals, cols, indptr)
    A = sp.csr_array((v, c, p), shape=(len(p) - 1, n))
    ir = _ir(A, np.random.default_rng(0))
    import pyopl.ir as ir_module

    assert ir_module.NUMPY_CSC_LIMIT > A.nnz
    import pyopl.sparse_order as so

    saved = sys.modules.pop("scipy.sparse")  # the NumPy path runs only while SciPy is not loaded
    compiled, so._TOCSC[:] = so._TOCSC[:], [None]  # nor its compiled transpose found
    try:
        got = ir.csc()
    finally:
        sys.modules["scipy.sparse"] = saved
        so._TOCSC[:] = compiled
    ref = A.tocsc()
    ref.sort_indices()
    assert np.array_equal(got[0], ref.indptr) and np.array_equal(got[1], ref.indices)
    assert _bits(got[2]) == _bits(ref.data)


def _lp_arrays(h) -> dict:
    lp = h.getLp()
    a = lp.a_matrix_
    return {"format": str(a.format_), "start": np.asarray(a.start_).tolist(), "index": np.asarray(a.index_).tolist(),
            "value": _bits(np.asarray(a.value_)), "cost": _bits(np.asarray(lp.col_cost_)),
            "col": _bits(np.concatenate([lp.col_lower_, lp.col_upper_])),
            "row": _bits(np.concatenate([lp.row_lower_, lp.row_upper_])), "offset": lp.offset_}


def _colwise(ir: IR, A: sp.csr_array):
    """The hand-over as it was: SciPy's CSC arrays, rows sorted in each column, ``MatrixFormat.kColwise``."""
    h = _new_solver(SolveOptions())
    A = A.tocsc()  # (not ir.A, which would leave the IR a SciPy matrix in place of its arrays)
    A.sort_indices()
    h.passModel(ir.num_cols, ir.num_rows, int(A.nnz), int(highspy.MatrixFormat.kColwise), 1, ir.obj_constant, ir.obj,
                ir.col_lower, ir.col_upper, ir.row_lower, ir.row_upper, A.indptr.astype(np.int32),
                A.indices.astype(np.int32), A.data.astype(np.float64), ir.col_integer.astype(np.int32))
    return h


@pytest.mark.parametrize("path", ["rows", "compiled", "scipy"])
@pytest.mark.parametrize("seed", range(12))
def test_highs_holds_the_same_model_and_finds_the_same_solution(seed, path, monkeypatch):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(0, 30)), int(rng.integers(1, 30))
    density = float(rng.uniform(0.05, 0.6))
    dense = (rng.random((m, n)) < density) * rng.integers(-4, 9, size=(m, n)).astype(float)
    if seed % 3 == 0 and m:
        dense[0, :] = 0.0  # an empty row
        dense[:, -1] = 0.0  # an empty column
    rows, cols = np.nonzero(dense != 0)
    vals = dense[rows, cols]
    if seed % 4 == 1 and len(vals):
        vals[::5] = 0.0  # explicit zeros, as the IR may hold
        vals[1::7] = 1e-12  # below HiGHS's small_matrix_value: dropped, the same way both ways
    A = sp.csr_array((vals, (rows, cols)), shape=(m, n))
    ir = _ir(A, rng)
    ref = _colwise(ir, A)
    h = _new_solver(SolveOptions())
    import pyopl.sparse_order as so

    if path != "scipy":  # SciPy not loaded
        monkeypatch.delitem(sys.modules, "scipy.sparse")
    # "rows": nor SciPy's compiled transpose found, so the IR's row arrays go as they are;
    # "compiled": the compiled transpose loaded on its own (a fresh look-up, not the cached one)
    monkeypatch.setattr(so, "_TOCSC", [None] if path == "rows" else [])
    fmt = _matrix(ir)[0]
    _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
    if path == "compiled":
        assert so._TOCSC[0] is not None and "scipy.sparse" not in sys.modules
    monkeypatch.undo()
    assert fmt == int((highspy.MatrixFormat.kRowwise if path == "rows" else highspy.MatrixFormat.kColwise))
    assert _lp_arrays(h) == _lp_arrays(ref)
    assert _lp_arrays(h)["format"].endswith("kColwise")  # HiGHS made its column copy inside passModel
    h.run()
    ref.run()
    assert h.getModelStatus() == ref.getModelStatus()
    a, b = h.getSolution(), ref.getSolution()
    assert _bits(np.asarray(a.col_value)) == _bits(np.asarray(b.col_value))
    assert _bits(np.asarray(a.row_dual)) == _bits(np.asarray(b.row_dual))


def test_a_family_built_in_one_block_keeps_a_range_of_its_rows():
    import pyopl
    from pyopl.ir import RowRange

    ir = pyopl.compile_model("range I = 1..4;\ndvar float+ x[I];\nminimize sum(i in I) x[i];\n"
                             "subject to {\n  forall(i in I) ct: x[i] >= i;\n  one: x[1] + x[2] <= 9;\n}\n").ir
    fam = ir.families["ct"]
    assert isinstance(fam.rows, RowRange) and fam.rows == [0, 1, 2, 3] and [0, 1, 2, 3] == fam.rows
    assert fam.rows != [0, 1, 2] and fam.rows != [1, 2, 3, 4] and fam.rows == range(4) and fam.rows == (0, 1, 2, 3)
    assert fam.rows[-1] == 3 and fam.rows[1:3] == [1, 2] and 2 in fam.rows and 4 not in fam.rows
    assert ir.families["one"].rows == [4] and ir.row_text(fam.rows[2]) == "ct[3]"


@given(raw_rows(max_rows=15, max_cols=12, max_len=10), st.sampled_from([np.int32, np.int64]))
@settings(max_examples=examples(60), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_compiled_csc_equals_scipy(case, index):
    """SciPy's compiled transpose loaded on its own gives SciPy's ``tocsc()`` + ``sort_indices()``
    arrays, in the index type it was given."""
    from pyopl.sparse_order import csr_to_csc

    vals, cols, indptr, n = case
    v, c, p = _canonical_rows(vals, cols, indptr)
    A = sp.csr_array((v, c, p), shape=(len(p) - 1, n))
    got = csr_to_csc(A.shape, A.indptr.astype(index), A.indices.astype(index), A.data)
    ref = A.tocsc()
    ref.sort_indices()
    assert got is not None and all(x.dtype == index for x in got[:2])
    assert np.array_equal(got[0], ref.indptr) and np.array_equal(got[1], ref.indices)
    assert _bits(got[2]) == _bits(ref.data)


@given(raw_rows(max_rows=15, max_cols=12, max_len=10), st.sampled_from([1.0, -1.0, 0.1, -0.0, 0.0]),
       st.sampled_from([None, 0, -1]))
@settings(max_examples=examples(60), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_compiled_csc_of_one_value_equals_scipy(case, value, other):
    """A matrix whose entries are all one double (sorted by position alone, the values written
    afterwards) gives SciPy's arrays bit for bit; one entry of another double (``-0.0`` among ``0.0``
    too) takes the general way, with the same result."""
    from pyopl.sparse_order import csr_to_csc

    vals, cols, indptr, n = case
    _v, c, p = _canonical_rows(vals, cols, indptr)
    v = np.full(len(c), value)
    if other is not None and len(v):
        v[other] = -value if value == 0.0 else 2.5  # (0.0 and -0.0: equal, not the same double)
    A = sp.csr_array((v, c, p), shape=(len(p) - 1, n))
    got = csr_to_csc(A.shape, A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data)
    ref = A.tocsc()
    ref.sort_indices()
    assert got is not None and got[2].dtype == np.float64
    assert np.array_equal(got[0], ref.indptr) and np.array_equal(got[1], ref.indices)
    assert _bits(got[2]) == _bits(ref.data)


def test_compiled_transpose_does_not_import_scipy_sparse():
    import subprocess

    code = ("import sys, numpy as np; from pyopl.sparse_order import csr_to_csc; "
            "r = csr_to_csc((2, 3), np.array([0, 2, 3], np.int32), np.array([0, 2, 1], np.int32), np.array([1., 2., 3.])); "
            "print([a.tolist() for a in r], 'scipy.sparse' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[[0, 1, 2, 3], [0, 1, 0], [1.0, 3.0, 2.0]] False"
