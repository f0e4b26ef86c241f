"""Expressions evaluated through compiled closures (pyopl/lowering/evaluate/compiled.py) give exactly what the
tree walk gives: the same rows bit for bit, bounds, labels, keys, columns and diagnostics, on models
whose every constraint goes row by row (the NumPy ``forall`` path is switched off)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.lowering.evaluate import compiled
from pyopl.lowering.model import constraints
from ir_compare import assert_same_bits


def _compile(mod: str, dat: str | None, monkeypatch, closures: bool):
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    if not closures:
        def unsupported(ev, node, depth=0):
            raise compiled._Unsupported
        monkeypatch.setattr(compiled, "compile_expr", unsupported)
    diags = pyopl.check(mod, dat)
    try:
        ir = pyopl.compile_model(mod, dat).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, [(d.code, d.severity, d.message, d.span, d.notes, d.help) for d in diags]


def _check(mod: str, monkeypatch, dat: str | None = None):
    on = _compile(mod, dat, monkeypatch, True)
    off = _compile(mod, dat, monkeypatch, False)
    assert_same_bits(on[0], off[0])
    assert on[1] == off[1]
    return on


DECLS = """
{string} S = {"a", "b", "c"};
range R = 1..4;
tuple T { string s; int k; float w; }
{T} Ts = {<"a", 1, 2.5>, <"b", 2, 0.5>, <"c", 3, -1.0>};
float d[S] = [1.5, 2, 0];
int n[R] = [1, 0, 3, -4];
float m[R][S] = [[1, 2, 3], [0.5, -0.0, 7], [1e-3, 2, 3], [4, 5, 6]];
dvar float+ x[S][R];
dvar int y[R] in -5..10;
dvar boolean b[S];
dvar float z;
dexpr float tot[s in S] = sum(r in R) x[s][r];
dexpr float half = z / 2;
dexpr float pair[s in S][r in R] = x[s][r] + r;
dexpr float ab = abs(y[2] - 1);
minimize sum(s in S, r in R) x[s][r] + z;
"""

CASES = [
    # shapes that the closures cover
    "forall(s in S, r in R : r > 1) ct1: x[s][r] - x[s][r-1] <= d[s] * 2 + r / 2 - m[r][s];",
    "forall(t in Ts) ct2: x[t.s][t.k] >= t.w / 2 - 1;",
    "forall(r in R) ct4: 1 <= y[r] + n[r] <= 8;",
    "forall(r in R) 8 >= y[r] - n[r] >= -1;",
    "forall(r in R) y[r] >= (r > 2 ? 2 : 1) * (r mod 2) - r div 2;",
    "forall(s in S, r in R : s != \"b\" && r in {1, 3} || r == 4) x[s][r] <= 5 * b[s] + 0 * z - -0.0;",
    "forall(s in S, r in R : !(s in {\"a\"}) && m[r][s] != 0) x[s][r] / m[r][s] <= 3 - y[r] / 4;",
    "forall(r in R) z >= y[r] * 1.5 - n[r] mod 2 + (r == 2) - (r >= 3) * 2;",
    "forall(r in R) -y[r] >= -9 + -(n[r]);",
    "forall(r in R) y[r] - 2 * y[r] + y[r] + z >= -100;",
    "forall(r in R) y[r] <= 2 ^ r;",
    "forall(s in S) z - z == 0;",
    "forall(r in R) y[r] < 7;",
    "forall(r in R) y[r] > n[r];",
    "forall(r in R, s in S : m[r][s] > 1.5 || s == \"a\") ctL[r][s]: x[s][r] >= m[r][s] - 1;",
    "forall(r in R) y[r] != 3;",
    "forall(s in S) b[s] == 1 => x[s][1] >= 1;",
    "forall(s in S) x[s][1] >= 1 || x[s][2] >= 1;",
    "forall(s in S) (x[s][1] >= 1) + (x[s][2] >= 1) >= 1;",
    "forall(r in R) z <= infinity;",
    "forall(r in R) z >= -infinity + y[r];",
    "forall(r in R) y[r] <= maxint;",
    "forall(s in S) ct3[s]: tot[s] <= 100 + half;",
    "forall(s in S, r in R) tot[s] - x[s][r] >= half - tot[\"a\"] + pair[s][r] - pair[s][1];",
    "forall(s in S) tot[s] + ab >= 1;",
    "forall(r in R) y[r] >= r == 2;",
    "forall(r in R) y[r] >= true + 1;",
    "forall(r in R) 0 * y[r] >= 1;",
    "forall(i in R, i in R) z >= i;",
    "forall(s in S) s: x[s][1] >= 0;",
    "forall(r in R) z >= y[r] * 10000000000000000000000;",
    "forall(r in R, s in S) lab[s][r]: x[s][r] >= m[r][s];",
    "forall(t in Ts) lab2[t.s, t.k + 1]: x[t.s][t.k] >= 0;",
    "forall(r in R) { if (r > 2) y[r] >= 1; else y[r] <= 5; }",
    "forall(r in R, s in S) if (m[r][s] > 1 && s != \"c\") x[s][r] <= m[r][s];",
    # data-only and failing rows
    "forall(r in R) lab3[y[r]]: y[r] >= 0;",
    "forall(r in R) lab4[S, r > 1]: y[r] >= 0;",
    "forall(r in R) if (n[r]) y[r] >= 1;",
    "forall(r in R) if (y[r] >= 1) y[r] >= 1;",
    "forall(r in R) 2 >= n[r];",
    "forall(r in R) 0.1 + 0.2 == 0.3;",
    "forall(s in S, r in R) x[s][r+1] >= 0;",
    "forall(s in S, r in R) c1: x[s][r] >= 1 / d[s];",
    "forall(s in S, r in R) c2: x[s][r] < d[s];",
    "forall(s in S) c3: x[s][1] >= x[\"e\"][1];",
    "forall(s in S, r in R) c4: x[s][r] >= d[r];",
    "forall(r in R) c5: x[r][1] >= 0;",
    "forall(s in S) c6: x[s][1.5] >= 0;",
    "forall(s in S : d[s]) c7: x[s][1] >= 0;",
    "forall(s in S : x[s][1] >= 0) c8: x[s][1] >= 0;",
    "forall(s in S) c9: x[s] >= 0;",
    "forall(s in S) c10: x[s][1] * x[s][2] <= 1;",
    "forall(s in S) c11: x[s][1] >= s;",
    "forall(s in S) c13: x[s][1] + \"a\" >= 0;",
    "forall(s in S) c14: s.foo >= 0;",
    "forall(t in Ts) c15: x[t.s][t.k] >= t.size;",
    "forall(r in R) c16: y[r] >= n[r] div 0;",
    "forall(r in R) c17: y[r] >= (y[r] ? 1 : 0);",
    "forall(r in R) c18: y[r] >= (n[r] ? 1 : 0);",
    "forall(r in R : r) c19: y[r] >= 0;",
    "forall(r in R) c20: y[r] >= 10 ^ 400;",
    "forall(r in R) c21: y[r] >= undefinedName[r];",
    "forall(r in R) c22: y[r] + S >= 0;",
    "forall(r in R) c23: y[r] / y[r] >= 0;",
    "forall(r in R) c24: y[r] >= -\"a\";",
]


@pytest.mark.parametrize("stmt", CASES)
def test_closures_match_the_tree_walk(stmt, monkeypatch):
    _check(DECLS + "subject to {\n  %s\n}\n" % stmt, monkeypatch)


def test_closures_are_used(monkeypatch):
    """The covered shapes do go through closures (a regression that always fell back would pass the rest)."""
    calls = []
    real = compiled.compile_expr
    monkeypatch.setattr(compiled, "compile_expr", lambda ev, node, depth=0: calls.append(node) or real(ev, node, depth))
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    pyopl.compile_model(DECLS + "subject to {\n  %s\n}\n" % CASES[0])
    assert calls


# --------------------------------------------------------------------------- random expressions
ATOMS = ["r", "n[r]", "d[s]", "m[r][s]", "x[s][r]", "y[r]", "z", "t.w", "t.k", "0", "1", "2.5", "-0.0", "3",
         "(r > 2)", "(s == \"b\")", "half", "x[t.s][r]", "m[t.k][s]"]
OPS = ["+", "-", "*", "/", "div", "mod", "^"]


@st.composite
def expressions(draw, depth: int = 3):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(ATOMS))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return "-(%s)" % draw(expressions(depth - 1))
    if kind == 1:
        return "(%s ? %s : %s)" % (draw(st.sampled_from(["r > 1", "s != \"c\"", "n[r] == 0", "r"])),
                                   draw(expressions(depth - 1)), draw(expressions(depth - 1)))
    return "(%s %s %s)" % (draw(expressions(depth - 1)), draw(st.sampled_from(OPS)), draw(expressions(depth - 1)))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, *SPEED_CHECKS])
@given(lhs=expressions(), rhs=expressions(), op=st.sampled_from(["<=", ">=", "==", "<", "!="]),
       filt=st.sampled_from(["", " : r != 2", " : m[r][s] > 1", " : t.k <= r && s != \"a\""]))
def test_random_constraints_match(lhs, rhs, op, filt, monkeypatch):
    stmt = "forall(t in Ts, r in R, s in S%s) ct: %s %s %s;" % (filt, lhs, op, rhs)
    _check(DECLS + "subject to {\n  %s\n}\n" % stmt, monkeypatch)


@pytest.mark.parametrize("terms", [60, 300, 480, 520])
def test_deep_expressions_fail_or_pass_as_before(terms, monkeypatch):
    """A closure takes fewer interpreter frames than the tree walk: a tree too deep for the tree walk
    must not start compiling through closures (it is left to the tree walk, which fails as it did)."""
    chain = " + ".join("x[%d]" % (k % 5 + 1) for k in range(terms))
    mod = "range R = 1..5;\ndvar float+ x[R];\nminimize sum(r in R) x[r];\nsubject to {\n  forall(r in R) ct: %s >= r;\n}\n"
    _check(mod % chain, monkeypatch)


def test_deep_trees_are_not_compiled():
    from types import SimpleNamespace

    from pyopl.syntax import ast as A

    ev = SimpleNamespace(unary_value=lambda node, v: -v)
    node = A.Const(None, 1)
    for _ in range(compiled.MAX_DEPTH - 1):
        node = A.Unary(None, "-", node)
    assert compiled.compile_expr(ev, node)({}) == (-1) ** (compiled.MAX_DEPTH - 1)
    with pytest.raises(compiled._Unsupported):
        compiled.compile_expr(ev, A.Unary(None, "-", node))
