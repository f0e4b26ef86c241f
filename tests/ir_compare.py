"""One IR equality for the tests that compile a model two ways (array paths on and off)."""
from __future__ import annotations

import numpy as np


def assert_same_ir(a, b) -> None:
    """``a`` and ``b`` (IRs, or both None) are equal bit for bit: bounds, objective, the matrix in
    CSR form, and every row's label, key and statement, and the row families."""
    assert (a is None) == (b is None)
    if a is None:
        return
    for f in ("obj", "col_lower", "col_upper", "row_lower", "row_upper", "col_integer"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert a.obj_constant == b.obj_constant
    A, B = a.A.tocsr(), b.A.tocsr()
    A.sort_indices(), B.sort_indices()
    assert A.shape == B.shape and np.array_equal(A.indptr, B.indptr)
    assert np.array_equal(A.indices, B.indices) and np.array_equal(A.data, B.data)
    assert list(a.row_label) == list(b.row_label) and list(a.row_key) == list(b.row_key)
    assert list(a.row_stmt) == list(b.row_stmt)
    assert {k: (f.rows, f.keys, f.indexed) for k, f in a.families.items()} == \
        {k: (f.rows, f.keys, f.indexed) for k, f in b.families.items()}


def assert_same_bits(a, b) -> None:
    """:func:`assert_same_ir`, and also the dtypes, the sign of every zero, the names and keys of
    columns (for paths that may differ only there: closures against the tree walk)."""
    assert (a is None) == (b is None)
    if a is None:
        return
    for f in ("obj", "col_lower", "col_upper", "row_lower", "row_upper", "col_integer"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y), f
        assert np.array_equal(np.signbit(x), np.signbit(y)), f  # -0.0 and 0.0 are told apart
    A, B = a.A.tocsr(), b.A.tocsr()
    assert A.shape == B.shape and np.array_equal(A.indptr, B.indptr)
    assert np.array_equal(A.indices, B.indices) and np.array_equal(A.data, B.data)
    assert np.array_equal(np.signbit(A.data), np.signbit(B.data))
    assert list(a.col_name) == list(b.col_name) and list(a.col_key) == list(b.col_key)
    assert list(a.row_label) == list(b.row_label) and list(a.row_key) == list(b.row_key)
    assert list(a.row_stmt) == list(b.row_stmt)
    assert {k: (list(f.rows), list(f.keys), f.indexed) for k, f in a.families.items()} == \
        {k: (list(f.rows), list(f.keys), f.indexed) for k, f in b.families.items()}


def array_paths_off(monkeypatch) -> None:
    """Switch every array path of the lowering off (sums, row families, objectives, per-element
    bounds, computed subset arrays, generic number arrays): the model is then built term by term."""
    from pyopl.lowering.model import constraints, declarations
    from pyopl.lowering.arrays import vectorised, vectorised_rows, vectorised_subsets

    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    monkeypatch.setattr(constraints, "precedence_forall", lambda inst, s, env: False)
    monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: None)
    monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: None)
    monkeypatch.setattr(declarations, "vector_domain_bounds", lambda *a: None)
    monkeypatch.setattr(vectorised_subsets, "vector_set_array", lambda *a: None)
    monkeypatch.setattr(vectorised_subsets, "vector_number_array", lambda *a: None)


def check_and_compile(mod: str, dat: str | None, monkeypatch) -> tuple:
    """(the IR or None on a compile error, the diagnostics of ``pyopl.check``) of ``mod`` with
    ``dat``, then the monkeypatches made for it undone."""
    import pyopl

    diags = [(d.code, d.message, d.span) for d in pyopl.check(mod, dat)]
    try:
        ir = pyopl.compile_model(mod, dat).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, diags
