"""Native indicator constraints: a logical constraint over an expression with a free variable
(no big-M exists) becomes an :class:`pyopl.ir.Indicator` that SCIP, CPLEX and Gurobi take and
HiGHS refuses (OPL0703), and ``--solver auto`` sends such a model to SCIP.

Every optimum is worked out by hand in the comment next to its model."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

import pyopl
from pyopl.backends.capabilities import choose, model_features
from solver_support import gurobi_reason

INDICATOR_BACKENDS = ["scip", "cplex", pytest.param("gurobi", marks=pytest.mark.skipif(
    gurobi_reason() is not None, reason=gurobi_reason() or ""))]

# x, y free: max(x - y) is unbounded, so `x - y <= 3` has no big-M.
# b = 1: x - y <= 3 and x - y >= 6 - z give z >= 3, objective 5 - 3 = 2 (x - y = 3, x + y = 0: x = 1.5).
# b = 0: z = 0, objective 0.  Optimum 2 at b = 1, z = 3, x = 1.5, y = -1.5.
LE = """dvar float x; dvar float y; dvar float z in 0..10; dvar boolean b;
maximize 5*b - z;
subject to {
  ct: x - y + z >= 6;
  x + y == 0;
  link: b == 1 => x - y <= 3;
}"""

# b = 1: x - y >= 8 and z >= x - y - 4 give z >= 4, objective 5 - 4 = 1 (x = 4, y = -4).
# b = 0: z = 0, objective 0.  Optimum 1.
GE = """dvar float x; dvar float y; dvar float z in 0..10; dvar boolean b;
maximize 5*b - z;
subject to {
  x - y - z <= 4;
  x + y == 0;
  b == 1 => x - y >= 8;
}"""

# z >= |x - y - 2|.  b = 1: x - y = 6 gives z >= 4, objective 1 (x = 3, y = -3).  b = 0: x - y = 2,
# z = 0, objective 0.  Optimum 1; a solver that dropped either side of the `==` would find 5.
EQ = """dvar float x; dvar float y; dvar float z in 0..10; dvar boolean b;
maximize 5*b - z;
subject to {
  z - x + y >= -2;
  z + x - y >= 2;
  x + y == 0;
  b == 1 => x - y == 6;
}"""

# !b => x - y <= 3 (b = 0 makes the indicator active).  Objective rewards b = 0 by 5:
# b = 0: z >= 3, objective 5 - 3 = 2; b = 1: z = 0, objective 0.  Optimum 2 at b = 0.
NEG = """dvar float x; dvar float y; dvar float z in 0..10; dvar boolean b;
maximize 5 - 5*b - z;
subject to {
  x - y + z >= 6;
  x + y == 0;
  !(b == 1) => x - y <= 3;
}"""

CASES = {"le": (LE, 2.0, {"x": 1.5, "y": -1.5, "z": 3.0, "b": 1}),
         "ge": (GE, 1.0, {"x": 4.0, "y": -4.0, "z": 4.0, "b": 1}),
         "eq": (EQ, 1.0, {"x": 3.0, "y": -3.0, "z": 4.0, "b": 1}),
         "neg": (NEG, 2.0, {"x": 1.5, "y": -1.5, "z": 3.0, "b": 0})}


def test_free_variable_gives_an_indicator_not_a_big_m_row():
    model = pyopl.compile_model(LE)
    ir = model.ir
    [ind] = ir.indicators
    x, y = ir.dvars["x"].first, ir.dvars["y"].first
    assert ind.terms == {x: 1.0, y: -1.0} and ind.hi == 3.0 and ind.lo == -np.inf and ind.active == 1
    assert ind.label == "link" and "`x` and `y` are unbounded" in ind.why
    assert ir.col_integer[ind.binary] and (ir.col_lower[ind.binary], ir.col_upper[ind.binary]) == (0, 1)
    assert (ind.span.line, ind.span.column) == (6, 19)  # the `x - y <= 3` of line 6
    assert "indicators" in model_features(ir)


def test_bounded_model_keeps_its_big_m_rows_and_no_indicator():
    # x in 0..10: b = 1 => x <= 3 is the one big-M row x + 7 b <= 10 (M = 10 - 3), no new column
    model = pyopl.compile_model("dvar float x in 0..10; dvar boolean b;\nmaximize x + 20*b;\n"
                                "subject to { b == 1 => x <= 3; }")
    ir = model.ir
    assert ir.indicators == [] and "indicators" not in model_features(ir)
    assert choose(ir)[0] == "highs"
    r = model.solve(solver="highs")
    assert r.status == "optimal" and r.objective == pytest.approx(23)  # b = 1, x = 3 (vs b = 0, x = 10: 10)


@pytest.mark.parametrize("solver", INDICATOR_BACKENDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_indicator_optimum_on_each_backend(case, solver):
    text, objective, values = CASES[case]
    r = pyopl.compile_model(text).solve(solver=solver)
    assert r.status == "optimal" and r.solver == solver, (r.status, r.message)
    assert r.objective == pytest.approx(objective, abs=1e-6)
    for name, v in values.items():
        assert r[name] == pytest.approx(v, abs=1e-6), name


def test_auto_sends_an_indicator_model_to_scip():
    r = pyopl.compile_model(LE).solve()
    assert r.solver == "scip" and r.objective == pytest.approx(2.0, abs=1e-6)


def test_highs_refuses_an_indicator_naming_the_capability_and_the_solvers():
    r = pyopl.compile_model(LE).solve(solver="highs")
    assert r.status == "error"
    [d] = r.diagnostics
    assert d.code == "OPL0703" and (d.line, d.column) == (6, 19)
    assert "HiGHS takes no indicator constraints" in d.message and "`x` and `y` are unbounded" in d.message
    for s in ("--solver scip", "--solver gurobi", "--solver cplex", "finite bounds"):
        assert s in d.help


@pytest.mark.parametrize("solver", INDICATOR_BACKENDS)
def test_fixed_duals_turn_an_active_indicator_into_a_row(solver):
    # with b fixed at 1 the indicator is the row x - y <= 3; one more unit on ct's right-hand side
    # costs one more unit of z, so ct's dual is -1 (per unit increase of its bound, maximising)
    r = pyopl.compile_model(LE).solve(solver=solver, duals=True)
    assert r.status == "optimal" and r.duals["ct"] == pytest.approx(-1.0, abs=1e-6)


def test_lp_export_writes_the_indicator_and_mps_says_it_is_not_in_the_file(tmp_path):
    """Before: the LP file left the indicator out (a note said so, exit status 0), so CPLEX, Gurobi or
    SCIP reading it solved another model. It is now written in the LP format's indicator syntax, and
    each solver that reads it back finds the model's optimum, 2 (CASES["le"], worked by hand)."""
    from pyopl.backends.export import write_model

    path = tmp_path / "m.lp"
    notes = write_model(pyopl.compile_model(LE).ir, str(path), "lp")
    [line] = [t for t in path.read_text().splitlines() if "->" in t]
    assert notes == [] and line.startswith(" link") and line.endswith(" = 1 -> +1 x -1 y <= +3")
    solved = 0
    with contextlib.suppress(ImportError):
        import cplex

        c = cplex.Cplex()
        for stream in (c.set_results_stream, c.set_log_stream, c.set_warning_stream):
            stream(None)
        c.read(str(path))
        c.solve()
        assert c.solution.get_objective_value() == pytest.approx(2.0)
        solved += 1
    with contextlib.suppress(ImportError):
        from pyscipopt import Model

        m = Model()
        m.hideOutput()
        m.readProblem(str(path))
        m.optimize()
        assert m.getStatus() == "optimal" and m.getObjVal() == pytest.approx(2.0)
        solved += 1
    if not solved:
        pytest.skip("neither cplex nor pyscipopt is installed to read the file back")
    mps = tmp_path / "m.mps"
    notes = write_model(pyopl.compile_model(LE).ir, str(mps), "mps")
    assert mps.exists() and any("1 indicator constraint(s) are NOT written" in n for n in notes)
