"""`model.to_highspy()` and `model.to_gurobipy()` hand the compiled model to the solvers' own objects
(issue 30); the tests re-solve through the solver's API, change the model there, and compare
with optima worked out by hand."""
from __future__ import annotations

import pytest

import pyopl

MODEL = """{string} Plants = {"A", "B"};
float cap[Plants] = [30, 50];
float cost[Plants] = [2, 3];
dvar float+ make[Plants];
dvar int+ trucks in 0..10;
minimize sum(p in Plants) cost[p] * make[p] + 7 * trucks;
subject to {
  forall(p in Plants) ctCap: make[p] <= cap[p];
  ctDemand: sum(p in Plants) make[p] >= 60;
  ctTrucks: 20 * trucks >= sum(p in Plants) make[p];
}
"""
# by hand: 60 units need 3 trucks (21); the cheapest 30 from A (60), 30 from B (90): 171


def test_highspy_object_solves_to_the_same_optimum_and_can_be_changed():
    import highspy

    model = pyopl.compile_model(MODEL)
    h = model.to_highspy()
    assert isinstance(h, highspy.Highs)
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(171)
    lp = h.getLp()
    assert list(lp.col_names_) == ['make["A"]', 'make["B"]', "trucks"]
    assert 'ctCap["A"]' in list(lp.row_names_) and "ctDemand" in list(lp.row_names_)
    # tweak with HiGHS's own API: A's capacity 30 -> 60, so all 60 come from A: 120 + 21
    ok, row = h.getRowByName('ctCap["A"]')
    h.changeRowBounds(row, -highspy.kHighsInf, 60.0)
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(141)


def test_gurobipy_model_solves_to_the_same_optimum_and_can_be_changed():
    gp = pytest.importorskip("gurobipy")
    m = pyopl.compile_model(MODEL).to_gurobipy()
    assert isinstance(m, gp.Model)
    m.optimize()
    assert m.ObjVal == pytest.approx(171)
    names = [v.VarName for v in m.getVars()]
    assert names == ['make["A"]', 'make["B"]', "trucks"]
    # tweak with Gurobi's API: trucks cost nothing now -> 60 + 90
    m.getVarByName("trucks").Obj = 0.0
    m.optimize()
    assert m.ObjVal == pytest.approx(150)
    assert m.getConstrByName("ctDemand") is not None


def test_a_staticlex_model_is_refused_by_the_highspy_handover():
    text = "dvar float+ x in 0..5;\ndvar float+ y in 0..5;\nminimize staticLex(x, y);\nsubject to { c: x + y >= 3; }\n"
    with pytest.raises(ValueError, match="staticLex"):
        pyopl.compile_model(text).to_highspy()
