"""``sum`` evaluated with arrays (pyopl/lowering/arrays/vectorised.py) gives exactly the term-by-term result.

Each model is compiled twice: with the array path on for every size, and
with it off; the IRs must be equal bit for bit (matrix, objective, bounds,
row labels) and the diagnostics identical.  Data are random (hypothesis);
shapes cover ranges, string and tuple sets, filters, shifted indices
(``x[t-1]``), tuple fields, repeated columns and errors inside a sum.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import examples

import pyopl
from ir_compare import assert_same_ir
from pyopl.lowering.arrays import vectorised


def _compile(mod: str, dat: str, monkeypatch, on: bool):
    if on:
        monkeypatch.setattr(vectorised, "MIN_ITERATIONS", 0)
    else:
        monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: None)
    diags = pyopl.check(mod, dat)
    try:
        ir = pyopl.compile_model(mod, dat).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, [(d.code, d.message, d.span) for d in diags]


def _same(a, b) -> None:
    assert_same_ir(a, b)


def _check(mod, dat, monkeypatch, calls=None):
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
minimize sum(i in R, s in S) (a[i] * b[i][s] * y[i][s] - x[i] / w[s]) + sum(e in Arcs) e.cost * f[e] + 0.5 * z;
subject to {
  forall(s in S)
    cap: sum(i in R : i %s k) b[i][s] * y[i][s] + z <= 100;
  forall(i in R : i > 1)
    shift: x[i] - x[i-1] + sum(t in S) (2 * y[i][t] - y[i-1][t]) >= a[i] - 3;
  forall(v in R)
    bal: sum(e in Arcs : e.src == v) f[e] - sum(e in Arcs : e.dst == v) f[e] == 0;
  rep: sum(i in R, s in S) (x[i] + 1) <= 1000;
  mix: sum(i in R, s in S : s != "s0" && a[i] >= 0) (a[i] + i) * x[i] - sum(s in S) z * w[s] >= -50;
}
"""


@st.composite
def _data(draw):
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 4))
    S = ["s%d" % k for k in range(m)]
    num = st.integers(-20, 20) | st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))
    a = [draw(num) for _ in range(n)]
    b = [[draw(st.integers(-5, 9)) for _ in S] for _ in range(n)]
    w = [draw(st.sampled_from([0.5, 1, 2, 3, 7.25, -1.5])) for _ in S]
    arcs = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n), st.integers(1, 9)), max_size=8, unique=True))
    dat = "n = %d;\nS = {%s};\nArcs = {%s};\na = %s;\nb = %s;\nw = %s;\n" % (
        n, ", ".join('"%s"' % s for s in S), ", ".join("<%d, %d, %d>" % t for t in arcs),
        a, "[" + ", ".join(str(r) for r in b) + "]", w)
    op = draw(st.sampled_from(["<=", "<", ">", "==", "!="]))
    k = draw(st.integers(0, n + 1))
    return dat, op, k


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(_data())
def test_array_sum_equals_term_by_term(monkeypatch, case):
    dat, op, k = case
    _check(MODEL.replace("%s k", "%s %d" % (op, k)), dat, monkeypatch)


def test_the_array_path_is_taken_for_large_sums(monkeypatch):
    calls = []
    real = vectorised._Sum.run

    def spy(self):
        out = real(self)
        calls.append(type(out).__name__)
        return out

    monkeypatch.setattr(vectorised._Sum, "run", spy)
    mod = "int n = 50; range R = 1..n; float c[i in R] = i * 1.5; dvar float+ x[R];\n" \
          "minimize sum(i in R) c[i] * x[i]; subject to { sum(i in R : i >= 2) 2 * x[i] >= 3; }"
    ir = pyopl.compile_model(mod).ir
    assert "LinExpr" in calls
    assert ir.obj[:3].tolist() == [1.5, 3.0, 4.5]
    assert ir.A.toarray()[0].tolist() == [0.0] + [2.0] * 49


@pytest.mark.parametrize("body, dat", [
    ("sum(i in R) x[i + 1]", ""),  # index outside its range on the last i: the term-by-term error
    ("sum(i in R) x[i] / d[i]", ""),  # division by zero for i = 2
    ("sum(i in R, j in R) x[i] + sum(i in R) x[i] * x[i]", ""),  # quadratic: not an array shape
])
def test_errors_inside_a_sum_are_the_term_by_term_ones(monkeypatch, body, dat):
    mod = "int n = 12; range R = 1..n; float d[i in R] = (i == 2) ? 0 : i; dvar float+ x[R];\n" \
          "minimize 0; subject to { c: %s <= 5; }" % body
    _check(mod, dat, monkeypatch)


def test_repeated_columns_add_up_in_order(monkeypatch):
    mod = "range R = 1..30; float c[i in R] = 0.1 * i; dvar float+ x[1..3];\n" \
          "minimize sum(i in R) c[i] * x[1 + i mod 3] + sum(i in R, j in 1..3) c[i] * x[j];"
    ir = _check(mod, "", monkeypatch)
    expected = [sum(0.1 * i for i in range(1, 31) if 1 + i % 3 == j) + sum(0.1 * i for i in range(1, 31))
                for j in (1, 2, 3)]
    assert np.allclose(ir.obj, expected, rtol=1e-12)
