"""Row keys of array-built ``forall`` families: kept as ProductKeys when the loop is a full product."""
import itertools

import numpy as np
import pytest

import pyopl
from pyopl.lowering.model import build, constraints
from pyopl.lowering.model.instance import KeyList, Rows
from pyopl.lowering.arrays.vectorised_rows import _is_product
from pyopl.semantics.values import OplRange, ProductKeys

MOD = """
{string} W = {"w1", "w2", "w3"};
range C = 1..4;
float d[C] = [3, 1, 4, 1];
dvar float+ x[W][C];
dvar boolean y[W];
minimize sum(w in W, c in C) x[w][c] + sum(w in W) y[w];
subject to {
  forall(w in W, c in C) link: x[w][c] <= d[c] * y[w];
  forall(w in W, c in C : c != 2) some: x[w][c] >= 0.5;
  forall(c in C) dem: sum(w in W) x[w][c] >= d[c];
}
"""


def test_full_product_family_keeps_product_keys_that_equal_the_loop_values():
    ir = pyopl.compile_model(MOD).ir
    link = ir.families["link"]
    assert isinstance(link.keys, ProductKeys)
    expected = list(itertools.product(["w1", "w2", "w3"], [1, 2, 3, 4]))
    assert list(link.keys) == expected and link.rows == list(range(12)) and link.indexed
    assert list(ir.row_key)[:12] == expected and ir.row_key[5] == ("w2", 2)
    # a filter leaves combinations out: the keys of the rows kept
    some = ir.families["some"]
    kept = [k for k in expected if k[1] != 2]  # (made when asked for, from the rows' positions)
    assert list(some.keys) == kept and some.keys == kept and some.keys[4] == kept[4] and some.keys[-1] == kept[-1]
    assert ir.families["dem"].keys == [(1,), (2,), (3,), (4,)]


def test_product_keys_family_gives_the_row_paths_dual_values(monkeypatch):
    lp = MOD.replace("dvar boolean y[W];", "dvar float y[W] in 0..1;")
    on = pyopl.solve(lp)
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    off = pyopl.solve(lp)
    assert on.status == off.status == "optimal" and on.objective == pytest.approx(off.objective)
    assert dict(on.duals["link"]) == pytest.approx(dict(off.duals["link"]))
    assert len(dict(on.duals["link"])) == 12 and ("w3", 4) in dict(on.duals["link"])


def test_is_product_checks_every_position():
    full = [np.repeat(np.arange(2), 3), np.tile(np.arange(3), 2)]
    assert _is_product(full, [2, 3])
    assert not _is_product([full[0], full[1][::-1].copy()], [2, 3])  # same count, another order
    assert not _is_product([np.array([0, 0, 1]), np.array([0, 2, 1])], [2, 3])  # filtered
    assert _is_product([np.arange(4)], [4]) and not _is_product([np.arange(0)], [0])


def test_key_list_cursor_and_block():
    kl = KeyList()
    kl.append(("a",))
    block = ProductKeys([OplRange(1, 3)])
    kl.extend(block)
    kl.extend([("b",), ("c",)])
    key_at = kl.cursor()
    assert [key_at(j) for j in range(6)] == [("a",), (1,), (2,), (3,), ("b",), ("c",)]
    assert kl.block(1, 3) is block  # the part itself
    assert kl.block(2, 2) == [(2,), (3,)]  # not a whole part: copied
    assert kl == [("a",), (1,), (2,), (3,), ("b",), ("c",)]


def test_families_never_extend_a_block_list_in_place():
    rows = Rows()
    keys = [("k1",), ("k2",)]
    rows.add_block(np.array([0, 1, 2]), np.array([0, 1]), np.array([1.0, 1.0]), np.zeros(2), np.ones(2), "ct", keys)
    rows.add({0: 1.0}, 0.0, 1.0, "ct", ("k3",))
    fams = build._families(rows)
    assert fams["ct"].rows == [0, 1, 2] and fams["ct"].keys == [("k1",), ("k2",), ("k3",)]
    assert list(rows.key) == [("k1",), ("k2",), ("k3",)]  # the rows' own keys are untouched


def test_run_list_behaves_as_the_list_of_its_values():
    from pyopl.lowering.model.instance import RunList

    r = RunList()
    r.append(1.5)
    r.extend_run(0.0, 3)
    r.extend_run(7.0, 0)  # nothing
    r.append(float("inf"))
    expected = [1.5, 0.0, 0.0, 0.0, float("inf")]
    assert len(r) == 5 and list(r) == expected and r.tolist() == expected
    assert np.array_equal(r.array(float), np.asarray(expected, dtype=float))
    assert r[3] == 0.0 and r[-1] == float("inf")  # a lookup makes the flat list ...
    r.append(2.0)
    r.extend_run(True, 2)  # ... which later additions extend
    assert r.tolist() == expected + [2.0, True, True] and len(r) == 8
    b = RunList()
    b.extend_run(True, 2)
    b.append(False)
    assert b.array(bool).tolist() == [True, True, False] and RunList().array(float).shape == (0,)


def test_run_list_keeps_a_float_array_as_its_python_floats():
    from pyopl.lowering.model.instance import RunList

    r = RunList()
    r.append(2.5)
    r.extend(np.array([-0.0, 1.0, np.inf]))  # (kept as the array until a list is asked for)
    r.extend(np.array([]))
    r.extend_run(3.0, 2)
    r.extend([4.0])
    expected = [2.5, -0.0, 1.0, float("inf"), 3.0, 3.0, 4.0]
    assert len(r) == 7 and r.tolist() == expected and all(type(v) is float for v in r.tolist())
    a = r.array(float)
    assert a.tolist() == expected and np.signbit(a[1]) and not np.signbit(a[2])
    assert r[1] == 0.0 and str(r[1]) == "-0.0"  # the flat list: Python floats, the sign of zero kept
    r.extend(np.array([5.0]))  # after the flat list: extends it with Python floats
    assert r.tolist() == expected + [5.0] and type(r[-1]) is float


def test_block_columns_keep_bounds_and_names_as_runs():
    ir = pyopl.compile_model(MOD).ir
    assert ir.col_name == ["x"] * 12 + ["y"] * 3
    assert ir.col_upper.tolist() == [float("inf")] * 12 + [1.0] * 3 and ir.col_integer.tolist() == [False] * 12 + [True] * 3


def test_a_lent_block_is_copied_where_it_would_be_the_matrixs_own():
    # the array path hands its terms' arrays over as they are (Rows.add_block(owned=False)): read-only
    # views, or arrays a cache shares; the matrix's build sorts its rows in place, so the only part is
    # copied before, and the arrays lent stay as they were
    shared_cols = np.array([3, 1, 2, 0])  # (rows of two entries, each out of order)
    ones = np.broadcast_to(1.0, (4,))  # (a read-only, zero-stride view of one number)
    rows = Rows()
    rows.add_block(np.array([0, 2, 4]), shared_cols, ones, np.zeros(2), np.ones(2), "ct", [(0,), (1,)], owned=False)
    vals, cols, indptr, _lo, _hi = rows.arrays(np.int32)
    assert cols.dtype == np.int32 and vals.flags.writeable and cols.flags.writeable
    assert not np.shares_memory(cols, shared_cols) and not np.shares_memory(vals, ones)
    cols[:] = 7
    assert shared_cols.tolist() == [3, 1, 2, 0]
    # with a second part the parts are joined into new arrays: the lent ones are not copied first
    rows = Rows()
    rows.add_block(np.array([0, 2, 4]), shared_cols, ones, np.zeros(2), np.ones(2), "ct", [(0,), (1,)], owned=False)
    rows.add_block(np.array([0, 1]), np.array([5]), np.array([2.0]), np.zeros(1), np.ones(1), "cu", [()])
    vals, cols, indptr, _lo, _hi = rows.arrays(np.int32)
    assert cols.tolist() == [3, 1, 2, 0, 5] and vals.tolist() == [1.0, 1.0, 1.0, 1.0, 2.0] and indptr.tolist() == [0, 2, 4, 5]


def test_a_model_of_one_family_out_of_order_builds_its_sorted_rows():
    # one family of one term (a sum: the matrix's only part, lent by the array path), its rows' columns
    # falling: the build sorts a copy of the lent arrays, and the same compile again gives the same rows
    mod = """
    int n = 300;
    range I = 1..n;
    range J = 1..2;
    int q[I][J] = ...;
    dvar float+ x[I];
    minimize sum(i in I) x[i];
    subject to { forall(k in I) ct: sum(j in J) x[q[k][j]] >= 1; }
    """
    q = [[(7 * k) % 150 + 151, (7 * k) % 150 + 1] for k in range(300)]  # (each row: the larger column first)
    seen = []
    real = Rows.add_block

    def add_block(self, *a, **k):
        seen.append(k.get("owned", True))
        return real(self, *a, **k)

    Rows.add_block = add_block
    try:
        m = pyopl.compile_model(mod, {"q": q})
    finally:
        Rows.add_block = real
    assert seen == [False]  # (the array path took it)
    A = m.ir.A
    assert [A.indices[A.indptr[r]:A.indptr[r + 1]].tolist() for r in range(300)] == [[b - 1, a - 1] for a, b in q]
    assert pyopl.compile_model(mod, {"q": q}).ir.A.indices.tolist() == A.indices.tolist()
