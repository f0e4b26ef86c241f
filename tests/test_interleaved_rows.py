"""Issue 46 (unitcommit "one body per unit"): how a braced body's rows join the model without per-row
Python lists. Each new path is checked against the row-by-row path (IR bit for bit) or against a plain
list built alongside: the rows' places as one number or as columns (``row_blocks.body_order``), rows
sorted before they are interleaved (``sparse_order``), labels and statements kept as runs and codes
(``instance.RowValues``), a statement's rows as an array (``ir.RowArray``)."""
from __future__ import annotations

import numpy as np
import pytest

import pyopl
from pyopl.ir import RowArray, RowRange
from pyopl.lowering.arrays import row_blocks
from pyopl.lowering.model.build import _canonical
from pyopl.lowering.model.instance import Coded, RowValues, Run
from pyopl.sparse_order import sort_uniform_blocks
from test_array_rows_general import BRACED, HEAD, _families_added
from test_vectorised_rows import _check

# bodies whose families come with their columns out of order (a later dvar first, a window's sum
# before the column it bounds, `t-1` after `t`), of one length per row and of several
UNSORTED = [
    "forall(i in R) { w: y + sum(j in 1..i) x[j] <= 9; v: x[i] - x[(i mod 3) + 1] + y >= -1; }",
    "forall(s in S) { forall(i in R) { lo[s][i]: z[s] >= x[i]; if (i > 1) { r[s][i]: x[i] - x[i-1] <= d[i]; "
    "q: y + sum(j in i-m[i]..i : j >= 1) x[j] <= 4; } else f[s]: y - x[1] >= 0; } }",
]


@pytest.mark.parametrize("stmt", UNSORTED + BRACED[2:4] + BRACED[7:9])
def test_rows_out_of_order_equal_the_row_path(monkeypatch, stmt):
    assert _families_added(monkeypatch, stmt) == [len(row_blocks.body_families(_forall(stmt)))]  # one piece
    _check(HEAD % stmt, "", monkeypatch)


@pytest.mark.parametrize("stmt", UNSORTED + BRACED[5:8] + BRACED[10:])
def test_places_sorted_as_columns_equal_the_row_path(monkeypatch, stmt):
    """Where a row's place does not fit one int64 its digits are sorted as columns: the same order."""
    lexsorts = []
    real = np.lexsort
    monkeypatch.setattr(row_blocks, "_ONE_NUMBER", 0.0)
    monkeypatch.setattr(row_blocks.np, "lexsort", lambda keys: lexsorts.append(1) or real(keys))
    _check(HEAD % stmt, "", monkeypatch)  # (the array path first, with these patches; then the row path)
    assert lexsorts


def _forall(stmt: str):
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.syntax import ast as A
    from pyopl.syntax.parser import parse_model

    model = parse_model(HEAD % stmt, "m.mod", Reporter())
    block = next(i for i in model.items if isinstance(i, A.ConstraintsBlock))
    return block.stmts[0]


def test_a_braced_body_leaves_the_build_nothing_to_sort():
    """The families are sorted before they are interleaved: every row's columns already rise."""
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.lowering.model.driver import run
    from pyopl.lowering.model.instance import Instance
    from pyopl.syntax.parser import parse_model

    reporter = Reporter()
    inst = Instance(parse_model(HEAD % UNSORTED[1], "m.mod", reporter), {}, reporter)
    run(inst)
    _vals, cols, indptr, _lo, _hi = inst.rows.arrays()
    assert len(indptr) > 30 and _canonical(cols, indptr)


def _ragged(rng, rows: int, repeat: bool):
    counts = rng.integers(0, 6, size=rows)
    cols = []
    for c in counts:
        row = rng.choice(40, size=int(c), replace=False)
        if repeat and c >= 2 and rng.random() < 0.3:
            row[-1] = row[0]  # a column twice: left to sum_duplicates, in its written order
        cols.append(row)
    indptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return np.concatenate(cols).astype(np.int64), rng.normal(size=int(indptr[-1])), indptr


@pytest.mark.parametrize("seed", range(8))
def test_rows_of_several_lengths_are_sorted_row_by_row(seed):
    rng = np.random.default_rng(seed)
    cols, vals, indptr = _ragged(rng, 30, repeat=seed % 2 == 1)
    before = [(cols[a:b].tolist(), vals[a:b].tolist()) for a, b in zip(indptr[:-1], indptr[1:])]
    sort_uniform_blocks([(0, len(indptr) - 1)], vals, cols, indptr)
    for (c, v), a, b in zip(before, indptr[:-1], indptr[1:]):
        if len(set(c)) < len(c):  # unchanged
            assert cols[a:b].tolist() == c and vals[a:b].tolist() == v
        else:
            want = sorted(zip(c, v))
            assert cols[a:b].tolist() == [p[0] for p in want] and vals[a:b].tolist() == [p[1] for p in want]


def test_rows_in_one_order_are_sorted_by_one_permutation():
    # `sum(s in window) start[s] <= on[t]`: the window's columns above the one it bounds, in every row
    lengths = [1, 2, 3, 2, 3, 3, 1, 4]
    cols, first = [], 100
    for t, k in enumerate(lengths):
        cols += list(range(first, first + k - 1)) + [t]
        first += 10
    indptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    cols = np.array(cols, dtype=np.int64)
    vals = np.arange(len(cols), dtype=np.float64)
    want = [sorted(zip(cols[a:b].tolist(), vals[a:b].tolist())) for a, b in zip(indptr[:-1], indptr[1:])]
    sort_uniform_blocks([(0, len(lengths))], vals, cols, indptr)
    assert [list(zip(cols[a:b].tolist(), vals[a:b].tolist())) for a, b in zip(indptr[:-1], indptr[1:])] == want


def test_row_values_behave_as_the_list():
    values, plain = RowValues(), []
    values.append("a"); plain.append("a")
    values.add_part(Run("b", 3)); plain += ["b"] * 3
    values.add_part(Run("z", 0))
    values.add_part(Coded(np.array([1, 0, 1, 2]), ["c", "", "d"])); plain += ["", "c", "", "d"]
    values.append("e"); values.append("f"); plain += ["e", "f"]
    assert len(values) == len(plain) and list(values) == plain and values == plain
    assert [values[k] for k in range(len(plain))] == plain and values[-1] == "f"
    assert values[2:6] == plain[2:6]
    at = values.cursor()
    assert [at(k) for k in range(len(plain))] == plain
    frozen = values.snapshot()
    values.append("g")
    assert list(frozen) == plain and len(values) == len(plain) + 1
    stmts = RowValues()
    stmts.append(-1); stmts.add_part(Run(4, 2)); stmts.add_part(Coded(np.array([0, 1, 0]), [7, 2])); stmts.append(3)
    assert stmts.array(np.int64).tolist() == [-1, 4, 4, 7, 2, 7, 3] and stmts.array(np.int64).dtype == np.int64
    assert RowValues().array(np.int64).tolist() == []
    assert np.asarray(stmts, dtype=np.int64).tolist() == [-1, 4, 4, 7, 2, 7, 3]  # (one array, as the list gives)
    assert np.asarray(values).tolist() == np.asarray(plain + ["g"]).tolist()


def test_row_array_behaves_as_the_list():
    rows = RowArray(np.array([3, 5, 8], dtype=np.int64))
    assert rows == [3, 5, 8] and [3, 5, 8] == rows and rows == (3, 5, 8) and rows != [3, 5]
    assert rows == RowArray(np.array([3, 5, 8])) and RowArray(np.arange(2, 5)) == RowRange(2, 5)
    assert RowRange(2, 5) == RowArray(np.arange(2, 5))
    assert type(rows[0]) is int and rows[-1] == 8 and rows[1:] == [5, 8] and len(rows) == 3
    assert all(type(k) is int for k in rows) and np.asarray(rows).tolist() == [3, 5, 8]
    assert {"c": (rows, [(1,), (2,), (3,)])} == {"c": ([3, 5, 8], [(1,), (2,), (3,)])}


def test_a_statements_family_keeps_its_rows_and_keys_whole():
    ir = pyopl.compile_model(HEAD % BRACED[5]).ir  # a[i], b[s][i] for each s, c: per i
    fam = ir.families["b"]
    assert isinstance(fam.rows, RowArray) and fam.indexed
    assert list(fam.rows) == [5 * (i - 1) + 1 + k for i in range(1, 10) for k in range(3)]
    assert list(fam.keys) == [(s, i) for i in range(1, 10) for s in "abc"]


def test_rows_added_one_at_a_time_and_in_blocks_keep_their_labels_and_statements():
    from pyopl.lowering.model.instance import Rows

    rows = Rows()
    one, two, three = object(), object(), object()
    rows.set_statement(one)
    rows.add({0: 1.0}, 0.0, 1.0, "a", ())
    rows.add({1: 1.0}, 0.0, 1.0, "", ())
    assert list(rows.label) == ["a", ""] and list(rows.stmt) == [0, 0]  # (read between additions)
    rows.set_statement(two)
    rows.add_block(np.array([0, 1, 2]), np.array([0, 1]), np.array([1.0, 2.0]), np.zeros(2), np.ones(2),
                   "b", [(1,), (2,)])
    rows.set_statement(three)
    rows.add_interleaved(np.array([0, 1, 2, 3]), np.array([0, 1, 2]), np.ones(3), np.zeros(3), np.ones(3),
                         np.array([1, 0, 1], dtype=np.int8), ["c", "d"], [(1,), (5,), (2,)], [7, 8])
    rows.add({2: 1.0}, 0.0, 1.0, "e", ())
    assert list(rows.label) == ["a", "", "b", "b", "d", "c", "d", "e"]
    assert rows.stmt.array(np.int64).tolist() == [0, 0, 1, 1, 8, 7, 8, 2]
    assert len(rows.label) == len(rows) == 8 and rows.label[-1] == "e" and rows.stmt[4] == 8
