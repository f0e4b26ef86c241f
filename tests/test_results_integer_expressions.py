"""Values of integer expressions of integer decisions are integers (issue 30): a `dexpr int` printed
as `9.000000000000007` and an all-integer objective as `2520.0000000000005`.  The solver's column
values are given here with the noise a solver returns, so the rule is tested without depending on
one solver's rounding."""
from __future__ import annotations

import numpy as np

import pyopl
from pyopl.backends.common import result_from_solution

MODEL = """range I = 1..3;
float w[I] = [0.1, 0.7, 2.2];
dvar int+ n[I] in 0..10;
dvar float+ f;
dexpr int total = sum(i in I) 3 * n[i];
dexpr float weighted = sum(i in I) w[i] * n[i];
dexpr float mixed = sum(i in I) n[i] + f;
maximize sum(i in I) 7 * n[i] + 3;
subject to { sum(i in I) w[i] * n[i] <= 9.1; f >= 0.5; }
"""


def test_integer_dexprs_and_objective_are_integers_at_the_rounded_decisions():
    ir = pyopl.compile_model(MODEL).ir
    x = np.array([2.9999999999, 3.0000000001, 0.0000000002, 0.5])  # n[1..3], f
    r = result_from_solution(ir, "optimal", x, 7 * 6.0000000000000004 + 3, "highs")
    # by hand: n = (3, 3, 0); total = 3 * 6 = 18; objective = 7 * 6 + 3 = 45
    assert r.dexprs["total"] == 18 and type(r.dexprs["total"]) is int
    assert r.objective == 45 and type(r.objective) is int
    # fractional coefficients or a continuous variable: the float as computed, not rounded
    assert type(r.dexprs["weighted"]) is float and abs(r.dexprs["weighted"] - (0.1 * 3 + 0.7 * 3)) < 1e-8
    assert type(r.dexprs["mixed"]) is float and abs(r.dexprs["mixed"] - 6.5) < 1e-8


def test_an_objective_with_a_continuous_term_keeps_its_float():
    ir = pyopl.compile_model(MODEL.replace("maximize sum(i in I) 7 * n[i] + 3;", "maximize sum(i in I) 7 * n[i] + f;")).ir
    r = result_from_solution(ir, "optimal", np.array([3.0, 3.0, 0.0, 0.5]), 42.5, "highs")
    assert r.objective == 42.5 and type(r.objective) is float


def test_a_solved_model_reports_them_as_integers():
    r = pyopl.compile_model(MODEL).solve()
    # by hand: n[1] + 7 n[2] + 22 n[3] <= 91 (times 10), each n <= 10, maximise 7 (sum n) + 3:
    # n = (10, 10, 0) uses 80 of 91 and sum n = 20 is the most (n[3] costs more than the others)
    assert r.objective == 143 and type(r.objective) is int
    assert r.dexprs["total"] == 60 and type(r.dexprs["total"]) is int
