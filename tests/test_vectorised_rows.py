"""``forall`` constraint families built with arrays (pyopl/lowering/arrays/vectorised_rows.py) give exactly the
rows the one-by-one path gives: same matrix bit for bit, bounds, labels, keys, statements and diagnostics."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import examples

import pyopl
from ir_compare import assert_same_ir
from pyopl.lowering.model import constraints
from pyopl.lowering.arrays import vectorised_rows


def _compile(mod: str, dat: str, monkeypatch, on: bool):
    if on:
        monkeypatch.setattr(vectorised_rows, "MIN_ROWS", 0)
    else:
        monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
        monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: None)
    diags = pyopl.check(mod, dat)
    try:
        ir = pyopl.compile_model(mod, dat).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, [(d.code, d.message, d.span) for d in diags]


def _same(a, b) -> None:
    assert_same_ir(a, b)


def _check(mod, dat, monkeypatch):
    on = _compile(mod, dat, monkeypatch, True)
    off = _compile(mod, dat, monkeypatch, False)
    _same(on[0], off[0])
    assert on[1] == off[1]
    return on[0]


MODEL = """
int n = ...;
range R = 1..n;
{string} S = ...;
tuple Arc { int src; int dst; float cost; }
{Arc} Arcs = ...;
float a[R] = ...;
int b[R][S] = ...;
float w[S] = ...;
dvar float+ x[R];
dvar int+ y[R][S];
dvar float z;
dvar float+ f[Arcs];
minimize sum(i in R, s in S) a[i] * b[i][s] * y[i][s] - sum(e in Arcs) e.cost * f[e] + sum(i in R, s in S) w[s] * x[i] + z - 1;
subject to {
  forall(s in S)
    cap: sum(i in R : i %s k) b[i][s] * y[i][s] + z <= w[s] + 100;
  forall(i in R : i > 1)
    shift: x[i] - x[i-1] + sum(t in S) (2 * y[i][t] - y[i-1][t]) >= a[i] - 3;
  forall(v in R)
    bal: sum(e in Arcs : e.src == v) f[e] - sum(e in Arcs : e.dst == v) f[e] == a[v];
  forall(i in R, s in S : b[i][s] != 0)
    link: y[i][s] <= b[i][s] * x[i] - w[s] * z;
  forall(i in R, s in S)
    a[i] + 2 * x[i] - y[i][s] >= -sum(t in S : t != s) y[i][t];
  forall(e in Arcs)
    arc: f[e] - e.cost * x[e.src] <= e.cost - a[e.dst];
  forall(s in S)
    forall(i in R : i != 2)
      nested: -y[i][s] + w[s] * x[i] == 1;
}
"""


@st.composite
def _data(draw):
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 4))
    S = ["s%d" % k for k in range(m)]
    num = st.integers(-20, 20) | st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))
    a = [draw(num) for _ in range(n)]
    b = [[draw(st.integers(-3, 5)) for _ in S] for _ in range(n)]
    w = [draw(st.sampled_from([0, 0.5, 1, 2, 3, 7.25, -1.5, 0.1])) for _ in S]
    arcs = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n), st.integers(0, 9)), max_size=8, unique=True))
    dat = "n = %d;\nS = {%s};\nArcs = {%s};\na = %s;\nb = %s;\nw = %s;\n" % (
        n, ", ".join('"%s"' % s for s in S), ", ".join("<%d, %d, %d>" % t for t in arcs),
        a, "[" + ", ".join(str(r) for r in b) + "]", w)
    op = draw(st.sampled_from(["<=", "<", ">", "==", "!="]))
    k = draw(st.integers(0, n + 1))
    return dat, op, k


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(_data())
def test_array_rows_equal_row_by_row(monkeypatch, case):
    dat, op, k = case
    _check(MODEL.replace("%s k", "%s %d" % (op, k)), dat, monkeypatch)


def test_the_array_path_is_taken_and_right(monkeypatch):
    added = []
    real = vectorised_rows._add
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append(len(r["keys"])), real(inst, cons, r)))
    mod = """int n = 40; range R = 1..n; float c[i in R] = i * 1.5; dvar float+ x[R]; dvar float+ y[R];
    minimize sum(i in R) (x[i] + y[i]);
    subject to { forall(i in R : i > 1) ct: x[i] - c[i] * y[i-1] >= i; }"""
    ir = pyopl.compile_model(mod).ir
    assert added == [39]
    assert ir.row_lower[:2].tolist() == [2.0, 3.0] and ir.row_key[:2] == [(2,), (3,)]
    row = ir.A.tocsr()[[0]]
    assert dict(zip(row.indices.tolist(), row.data.tolist())) == {1: 1.0, 40: -3.0}


@pytest.mark.parametrize("stmt, dat", [
    ("forall(i in R) c: x[i] + x[1] <= 4;", ""),  # x[1] twice in row 1: merged by the row path
    ("forall(i in R) c: d[i] * x[i] + y <= 4;", ""),  # d[2] = 0: a dropped coefficient
    ("forall(i in R) c: d[i] * x[i] <= 4;", ""),  # row 2 has no decision left: its own words
    ("forall(i in R) c: x[i + 1] <= 4;", ""),  # index outside its range on the last i
    ("forall(i in R) c: x[i] / d[i] <= 4;", ""),  # division by zero for i = 2
    ("forall(i in R) c: x[i] <= h[i];", ""),  # infinite bound: the row path's handling
    ("forall(i in R) c: 1 + 2 + x[i] <= 4;", ""),  # a leading run of data terms
    ("forall(i in R) c: sum(j in R : j < i) x[j] <= i;", ""),  # an empty sum for i = 1
    ("forall(i in R) c: sum(j in R : j < i) x[j] + 0 * y >= 1;", ""),  # empty sum and a zero term
    ("forall(i in R) c[i]: x[i] <= 4;", ""),  # an indexed label: row by row
    ("forall(i in R) x[i] < 4;", ""),  # a strict inequality: row by row
    ("forall(i in R) c: sum(j in R) (x[j] + 1) <= i;", ""),  # a constant inside the sum
    ("forall(i in R) c: y <= -sum(j in R : j >= i) x[j] + i;", ""),
    ("forall(i in R) forall(j in R : j > i) c: x[i] - x[j] <= j;", ""),  # outer loop values in the key
])
def test_edge_cases_equal_row_by_row(monkeypatch, stmt, dat):
    mod = "int n = 12; range R = 1..n; float d[i in R] = (i == 2) ? 0 : i; float h[i in R] = (i == 3) ? infinity : i;\n" \
          "dvar float+ x[R]; dvar float y;\nminimize sum(i in R) x[i]; subject to { %s }" % stmt
    _check(mod, dat, monkeypatch)


def test_a_sum_filtered_by_the_loop_value_joins_through_an_index(monkeypatch):
    # `sum(a in Arcs : a.src == v)` inside `forall(v in Nodes)`: matched per node from an index, same rows
    joins = []
    real = vectorised_rows._Rows._join
    monkeypatch.setattr(vectorised_rows._Rows, "_join", lambda self, *a: joins.append(real(self, *a)) or joins[-1])
    arcs = [(i, (i * 7 + k) % 40, 1 + (i + k) % 5) for i in range(40) for k in (1, 3)]
    mod = """{int} Nodes = asSet(0..39); tuple Arc { int src; int dst; float cost; } {Arc} Arcs = {%s};
    float supply[v in Nodes] = v mod 3 - 1; dvar float+ flow[Arcs];
    minimize sum(a in Arcs) a.cost * flow[a];
    subject to { forall(v in Nodes) bal: sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : v == a.dst) flow[a] == supply[v]; }
    """ % ", ".join("<%d, %d, %d>" % a for a in arcs)
    ir = _check(mod, "", monkeypatch)
    assert joins == [True, True] * 2  # both sums, in check() and in compile_model()
    assert ir.A.shape == (40, 80) and ir.A.nnz == 160


def _objective_both(mod, monkeypatch):
    on = pyopl.compile_model(mod).ir
    monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: None)
    off = pyopl.compile_model(mod).ir
    monkeypatch.undo()
    return on, off


@pytest.mark.parametrize("objective, expected", [
    # repeated columns across and within sums fold in order, as the dict of the term-by-term path does
    ("sum(i in R, j in 1..3) c[i] * x[j] - sum(j in 1..3, i in R : i <= j) 0.1 * x[j] + 2.5",
     [sum(0.1 * i for i in range(1, 41)) - 0.1 * j * 1 for j in (1, 2, 3)]),
    ("-sum(i in R) c[i] * y[i] + 3 * x[2]", None),
])
def test_objective_kept_as_arrays_equals_the_dict_path(monkeypatch, objective, expected):
    mod = "range R = 1..40; float c[i in R] = 0.1 * i; dvar float+ x[1..3]; dvar float+ y[R];\n" \
          "minimize %s; subject to { forall(j in 1..3) x[j] <= 1; }" % objective
    on, off = _objective_both(mod, monkeypatch)
    assert np.array_equal(on.obj, off.obj) and on.obj_constant == off.obj_constant
    if expected is not None:
        assert np.allclose(on.obj[:3], expected, rtol=1e-12) and on.obj_constant == 2.5


def test_array_lin_expr_terms_fold_in_order_and_then_own_the_value():
    e = vectorised_rows.ArrayLinExpr(np.array([4, 1, 4, 4]), np.array([0.1, 2.0, 0.2, 0.3]), 1.5)
    assert e.cols is not None and not e.is_constant
    assert e.terms == {4: (0.0 + 0.1 + 0.2) + 0.3, 1: 2.0} and list(e.terms) == [4, 1]
    assert e.cols is None  # the dict is the value from now on
    e.iadd(pyopl.lowering.forms.linear.LinExpr({1: 1.0}, 0.5))
    assert e.terms[1] == 3.0 and e.const == 2.0


def test_distinct_per_row_agrees_with_scipy_on_random_rows():
    # (NumPy only in the compiler; SciPy's sum_duplicates is the independent reference here)
    import scipy.sparse as sp
    from pyopl.lowering.arrays.vectorised_rows import _distinct_per_row

    rng = np.random.default_rng(7)
    seen = {True: 0, False: 0}
    for _ in range(2000):
        m, n = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        indptr = np.concatenate([[0], np.cumsum(rng.integers(0, 5, size=m))])
        if indptr[-1] == 0:
            continue
        col = rng.integers(0, n, size=int(indptr[-1]))
        a = sp.csr_array((np.ones(len(col)), col.copy(), indptr.copy()), shape=(m, n))
        a.sum_duplicates()
        want = a.nnz == len(col)
        assert _distinct_per_row(indptr, col) == want, (indptr, col)
        seen[want] += 1
    assert min(seen.values()) > 100  # both answers were exercised
