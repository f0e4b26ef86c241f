"""Quadratic constraints (convex QCP on Gurobi's matrix API; HiGHS refuses them at the product, naming only the
decisions multiplied there) and non-convex quadratic objectives found by `pyopl check` at the objective."""
from __future__ import annotations

import pytest

import pyopl
from solver_support import needs_gurobi

DISC = "dvar float x in -5..5;\ndvar float y in -5..5;\nmaximize x + y;\nsubject to {\n  disc: x^2 + y^2 <= 2;\n}"


@needs_gurobi
def test_convex_qcp_on_gurobi():
    # max x + y on the disc x^2 + y^2 <= 2: by Cauchy-Schwarz x + y <= sqrt(2) * sqrt(2) = 2, at x = y = 1
    r = pyopl.compile_model(DISC).solve(solver="gurobi")
    assert r.status == "optimal"
    assert r.objective == pytest.approx(2.0, abs=1e-5)
    assert r.variables["x"] == pytest.approx(1.0, abs=1e-4) and r.variables["y"] == pytest.approx(1.0, abs=1e-4)


@needs_gurobi
def test_ranged_and_indexed_quadratic_constraints_on_gurobi():
    # min sum x[i] with x[i]^2 >= i is non-convex; the convex part: x[i]^2 <= 4 - i, maximise sum x[i]
    # -> x[1] = sqrt(3), x[2] = sqrt(2): objective sqrt(3) + sqrt(2)
    m = "dvar float x[1..2] in 0..9;\nmaximize sum(i in 1..2) x[i];\nsubject to { forall(i in 1..2) x[i] * x[i] <= 4 - i; }"
    r = pyopl.compile_model(m).solve(solver="gurobi")
    assert r.objective == pytest.approx(3 ** 0.5 + 2 ** 0.5, abs=1e-5)


def test_highs_refuses_a_quadratic_constraint_at_the_square_naming_one_variable():
    r = pyopl.compile_model(DISC).solve(solver="highs")  # forced: `auto` would send it to SCIP
    [d] = r.diagnostics
    assert (d.code, d.line, d.column, d.end_column) == ("OPL0703", 5, 9, 12)
    assert "squares `x`" in d.message and "`y`" not in d.message and "gurobi" in d.help and "scip" in d.help


def test_check_reports_at_the_product_naming_only_the_multiplied_decisions():
    m = ("dvar float make[1..2] in 0..9;\ndvar float ot[1..2] in 0..9;\nminimize sum(t in 1..2) make[t];\n"
         "subject to { forall(t in 1..2) make[t] + ot[t]*ot[t] >= 1; }")
    [w] = pyopl.check(m, solver="highs")  # checked for HiGHS: an error
    assert (w.code, w.severity, w.line, w.column, w.end_column) == ("OPL1163", "error", 4, 42, 53)
    assert "squares `ot`" in w.message and "make" not in w.message and "--solver scip" in w.help
    assert [d.severity for d in pyopl.check(m, solver=None)] == ["warning"]  # the model alone
    assert pyopl.check(m, solver="gurobi") == []


def test_check_finds_a_nonconvex_objective_at_the_objective():
    m = "dvar float x in 0..5;\nminimize -x^2;\nsubject to { x <= 3; }"
    [w] = pyopl.check(m, solver="highs")
    assert (w.code, w.line, w.column) == ("OPL1163", 2, 10) and "not convex" in w.message
    [d] = pyopl.compile_model(m).solve(solver="highs").diagnostics
    assert (d.code, d.line, d.column) == ("OPL0703", 2, 10)
    # auto sends it to SCIP, which finds the global minimum of -x^2 on [0, 3]: -9
    assert pyopl.compile_model(m).solve().objective == pytest.approx(-9.0, abs=1e-6)


def test_a_quadratic_constraint_inside_a_logical_constraint_is_an_error():
    m = "dvar float x in 0..9;\ndvar float y in 0..9;\nminimize x;\nsubject to { x*y >= 1 => x >= 2; }"
    [e] = pyopl.check(m).errors
    assert (e.code, e.line, e.column) == ("OPL0502", 4, 14)
