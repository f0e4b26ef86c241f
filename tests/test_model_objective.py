"""The reported objective of a whole (every decision an integer), checked solution is the model's
objective at that point, not the solver's figure with its interpolation columns' tolerance in it:
a piecewise objective over integers whose optimum is -2 (brute force over the grid, the function
in plain Python: tests/pwl_brute.py) is reported -2, where HiGHS said -2.000001. A fractional point
keeps the solver's objective; the solver's figure is kept in ``extra["solver_objective"]``."""
from __future__ import annotations

from types import SimpleNamespace

import pyopl
from pwl_brute import opl_piecewise
from pyopl.backends.explain.solution_check import CheckReport, _model_objective

MODEL = """dvar int x in -5..8;
dvar int y in -5..8;
minimize piecewise{-3->4; 1->5; -1}(3, -2) x + y;
subject to {
  piecewise{-3->4; 1->5; -1}(3, -2) y <= 0;
  x + y <= 9;
}
"""


def test_a_piecewise_objective_over_integers_is_the_models_value_at_the_point():
    f = opl_piecewise([-3, 1, -1], [4, 5], 3, -2)
    best = min(f(x) + y for x in range(-5, 9) for y in range(-5, 9) if f(y) <= 0 and x + y <= 9)
    assert best == -2
    r = pyopl.solve(MODEL)
    assert r.status == "optimal"
    x, y = r["x"], r["y"]
    assert r.objective == f(x) + y == best  # exactly: the objective of the solution shown
    assert abs(r.extra.get("solver_objective", r.objective) - best) <= 1e-5


def test_only_a_whole_checked_point_evaluated_from_the_model_changes_the_objective():
    def result(obj):
        return SimpleNamespace(objective=obj, extra={})

    for integral, source, expect in [(True, "model", -2.0), (False, "model", -2.000001),
                                     (True, "compiled", -2.000001)]:
        r = result(-2.000001)
        _model_objective(r, CheckReport(objective=-2.0, objective_from=source, integral=integral))
        assert r.objective == expect
        assert ("solver_objective" in r.extra) == (expect == -2.0)


def test_an_lp_with_a_fractional_point_keeps_the_solvers_objective():
    r = pyopl.solve("dvar float x in 0..1;\ndvar float y in 0..1;\nmaximize x + y;\n"
                    "subject to { 2 * x + 2 * y <= 1; }\n")
    assert r.objective == 0.5 and "solver_objective" not in r.extra
