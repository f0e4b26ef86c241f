"""Strict comparisons and `!=` on continuous expressions inside logical constraints (CPLEX's eplin),
and constraints as 0/1 values on a side of a comparison."""
from __future__ import annotations

import itertools

import pytest

import pyopl
from pyopl.cli import main as cli


def test_not_equal_on_a_float_holds_with_eplin_default_and_settable():
    """IBM CPLEX Parameters Reference, "epsilon used in linearization" (eplin, default 1e-3):
    `x != 10` on a continuous x holds as `x <= 10 - eplin || x >= 10 + eplin`."""
    base = "dvar float x in 0..10;\nmaximize x;\nsubject to { x != 10; }\n"
    r = pyopl.solve(base)
    assert r.objective == pytest.approx(10 - 1e-3, abs=1e-7)
    assert r.extra["eplin"] == pytest.approx(1e-3)
    r = pyopl.solve("execute { cplex.eplin = 0.25; }\n" + base)
    assert r.objective == pytest.approx(9.75, abs=1e-7)
    model = pyopl.compile_model(base, limits=pyopl.Limits(eplin=0.5))
    assert model.solve().objective == pytest.approx(9.5, abs=1e-7)
    notes = [d for d in pyopl.check(base) if d.code == "OPL0511"]
    assert len(notes) == 1 and notes[0].severity == "note" and "0.001" in notes[0].message


def test_eplin_from_the_command_line(tmp_path, capsys):
    """The command line's `--eplin` sets the same tolerance (docs/language.md)."""
    f = tmp_path / "m.mod"
    f.write_text("dvar float x in 0..10;\nminimize x;\nsubject to { (x <= 2) => (x >= 11); }\n")
    # x >= 11 is impossible, so `x <= 2` must be false: x > 2, that is x >= 2 + eplin
    assert cli(["solve", str(f), "--eplin", "0.01", "--format", "json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["objective"] == pytest.approx(2.01) and out["eplin"] == pytest.approx(0.01)


def test_counting_nonzero_flows_with_strict_comparison():
    """IBM page "Logical constraints" (constraints as expressions): counting the flows that are
    nonzero with `(f[i] > 0)` on continuous flows; at most two may be used, each carries at most 5,
    total demand 8, cost per unit 1, 2, 3: the cheapest is f = (5, 3, 0), cost 11."""
    text = """
range A = 1..3;
float cost[A] = [1, 2, 3];
dvar float f[A] in 0..5;
minimize sum(a in A) cost[a] * f[a];
subject to {
  sum(a in A) f[a] == 8;
  sum(a in A) (f[a] > 0) <= 2;
  f[1] <= 5;
}
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(11.0, abs=1e-6)


def test_top_level_strict_inequality_on_a_float_stays_an_error():
    """As in OPL, `x > 3` as a constraint of its own on a continuous x is refused (OPL0506)."""
    r = pyopl.check("dvar float+ x;\nminimize x;\nsubject to { x > 3; }")
    assert [d.code for d in r if d.is_error] == ["OPL0506"]


def test_constraints_as_values_on_both_sides():
    """IBM page "Constraints as expressions" (logical constraints): a 0/1 decision equal to a
    logical constraint, two constraints compared by `==` and `!=`; optimum checked by brute force."""
    text = """
range I = 1..2;
range J = 1..5;
int s[I] = [2, 3];
int e[I] = [3, 5];
dvar boolean y[I][J];
dvar int x in 0..10;
dvar int z in 0..10;
dvar boolean b;
maximize x + z + b - sum(i in I, j in J) y[i][j];
subject to {
  forall(i in I, j in J) y[i][j] == ((j >= s[i]) && (j <= e[i]));
  (x >= 3) == (z >= 2);
  b == (x <= 4);
  (x <= 8) != (z <= 7);
  x + z <= 15;
}
"""
    r = pyopl.solve(text)
    best = max(xv + zv + int(xv <= 4) for xv, zv in itertools.product(range(11), range(11))
               if (xv >= 3) == (zv >= 2) and (xv <= 8) != (zv <= 7) and xv + zv <= 15)
    ones = sum(1 for i, (si, ei) in enumerate([(2, 3), (3, 5)]) for j in range(1, 6) if si <= j <= ei)
    assert r.objective == pytest.approx(best - ones)
    for (i, j), v in r["y"].items():
        assert round(v) == int([(2, 3), (3, 5)][i - 1][0] <= j <= [(2, 3), (3, 5)][i - 1][1])
    assert round(r["b"]) == int(r["x"] <= 4 + 1e-6)


def test_equality_of_a_float_comparison_as_value():
    """`(x == 3) * 2 <= y` with a continuous x: its negation holds with eplin, so it is accepted."""
    r = pyopl.solve("dvar float x in 0..5;\ndvar int y in 0..1;\nmaximize x + 10 * y;\n"
                    "subject to { (x == 3) * 2 <= y; }")
    assert r.objective == pytest.approx(15.0)
