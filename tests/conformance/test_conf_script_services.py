"""IBM ILOG Script for OPL's service classes: `IloOplCplexVectors` (MIP starts), `IloOplCplexBasis`
(LP bases), `IloOplConflictIterator`, `IloOplRelaxationIterator`, and `fail()`.  Each test is
written from the example or the description of the class on IBM's page (cited), in our own words;
expected values are worked out by hand or with SciPy."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import pyopl

# ---------------------------------------------------------------------- IloOplCplexVectors
_CAP_MOD = """int cap = ...;
dvar int y in 0..100;
maximize y;
subject to { lim: y <= cap; }
main {
  var vec = new IloOplCplexVectors();
  var def = thisOplModel.modelDefinition;
  var m1 = new IloOplModel(def, cplex);
  m1.addDataSource(new IloOplDataSource("cap.dat"));
  m1.generate();
  if (cplex.solve()) writeln("first ", cplex.getObjValue());
  writeln("saved ", vec.getStart(cplex), " ", vec.status);
  var m2 = new IloOplModel(def, cplex);
  var d = new IloOplDataElements();
  d.cap = 12;
  m2.addDataSource(d);
  m2.generate();
  writeln("set ", vec.setStart(cplex), " ", vec.Nrows, "x", vec.Ncols);
  if (cplex.solve()) writeln("second ", cplex.getObjValue());
  var other = new IloOplModel(new IloOplModelDefinition(new IloOplModelSource("two.mod")), cplex);
  other.generate();
  writeln("other shape ", vec.setStart(cplex), " ", vec.status);
}
"""


def test_vectors_save_a_solution_and_restore_it_on_a_model_of_the_same_shape(tmp_path):
    """IBM page "IloOplCplexVectors" (example: getStart after a solve, a second model with other data,
    setStart, Nrows x Ncols, status); restoring needs the same rows and columns (OplCplexVectors
    SetStart: "exactly the number of rows and columns")."""
    (tmp_path / "m.mod").write_text(_CAP_MOD)
    (tmp_path / "cap.dat").write_text("cap = 7;\n")
    (tmp_path / "two.mod").write_text("dvar int a in 0..3;\ndvar int b in 0..3;\nmaximize a + b;\n")
    r = pyopl.solve(tmp_path / "m.mod", data=tmp_path / "cap.dat")
    # by hand: max y <= 7 is 7, then y <= 12 is 12; the model has 1 row and 1 column; two.mod has 2 columns
    assert r.script_output.splitlines() == ["first 7", "saved true 0", "set true 1x1", "second 12",
                                            "other shape false 1"]


# a 0-1 knapsack: weights and values; by hand the optimum is 25 (every value is its weight plus 0,
# 1 or 2; a load of exactly 20 with the extras 2+2+1, e.g. items 3, 6, 2: 9 + 10 + 6); the start
# (items 1 and 2) is worth 4 + 6 = 10
_KNAP = """range I = 1..8;
int w[I] = [3, 5, 7, 4, 6, 8, 2, 9];
int v[I] = [4, 6, 9, 5, 7, 10, 2, 11];
float s[i in I] = (i == 1 || i == 2) ? 1 : 0;
dvar boolean x[I];
maximize sum(i in I) v[i] * x[i];
subject to { cap: sum(i in I) w[i] * x[i] <= 20; }
main {
  %s
  thisOplModel.generate();
  var vec = new IloOplCplexVectors();
  vec.attach(thisOplModel.x, thisOplModel.s);
  %s
  cplex.solve();
  writeln(cplex.getObjValue());
}
"""
# HiGHS stops after the root node with `nodelim = 0` (its incumbent then is the start: without one it
# has none); Gurobi, CPLEX and SCIP solve this model at the root, so they stop at their first
# solution (`intsollim = 1`), which is the start when one is given
_LIMIT = {"highs": "cplex.nodelim = 0;", "gurobi": "cplex.intsollim = 1;", "cplex": "cplex.intsollim = 1;",
          "scip": "cplex.intsollim = 1;"}
_MODULE = {"highs": "highspy", "gurobi": "gurobipy", "cplex": "cplex", "scip": "pyscipopt"}


@pytest.mark.parametrize("solver", ["highs", "gurobi", "cplex", "scip"])
def test_attached_start_values_are_the_solvers_first_incumbent(solver):
    """IBM page "Setting the initial solution" (warmstart example: `attach(opl2.x, opl2.values)` then
    `setVectors(cplex)`; the CPLEX log shows the MIP start as the initial solution)."""
    if importlib.util.find_spec(_MODULE[solver]) is None:
        pytest.skip("%s is not installed" % solver)
    with_start = pyopl.solve(_KNAP % (_LIMIT[solver], "vec.setVectors(cplex);"), solver=solver)
    assert with_start.script_output.strip() == "10"
    without = pyopl.solve(_KNAP % (_LIMIT[solver], ""), solver=solver)
    assert without.script_output.strip() != "10"  # (no start: no incumbent, or another one)


def test_attach_with_values_of_another_shape_is_an_error():
    """IloOplCplexVectors.attach pairs variables with values over the same indices."""
    r = pyopl.solve(_KNAP % ("", "vec.attach(thisOplModel.x, 3); vec.setVectors(cplex);"))
    assert [(d.code, d.span.line, d.message) for d in r.diagnostics if d.is_error] == [
        ("OPL1055", 13, "`attach`: the values for `x` must be an array with its indices, not the number 3")]
    # a constraint where the variables go: named with its article ("an IloConstraint", not "a IloConstraint")
    r = pyopl.solve(_KNAP % ("", "vec.attach(thisOplModel.cap, 3);"))
    assert [(d.code, d.span.line, d.message) for d in r.diagnostics if d.is_error] == [
        ("OPL1055", 13, "`attach(vars, values)` needs decision variables first, not an IloConstraint")]


# ---------------------------------------------------------------------- IloOplCplexBasis
_LP_MOD = """float cap = ...;
range I = 1..4;
float c[I] = [3, 5, 4, 6];
float a[I] = [2, 3, 1, 4];
float b[I] = [1, 2, 3, 1];
dvar float+ x[I] in 0..4;
maximize sum(i in I) c[i] * x[i];
subject to {
  r1: sum(i in I) a[i] * x[i] <= cap;
  r2: sum(i in I) b[i] * x[i] <= 12;
}
main {
  var basis = new IloOplCplexBasis();
  var def = thisOplModel.modelDefinition;
  var m1 = new IloOplModel(def, cplex);
  m1.addDataSource(new IloOplDataSource("lp.dat"));
  m1.generate();
  cplex.solve();
  writeln(cplex.getObjValue(), " ", cplex.getNiterations() > 0);
  writeln(basis.getBasis(cplex), " ", basis.Nrows, "x", basis.Ncols, " ", basis.status);
  var m2 = new IloOplModel(def, cplex);
  var d = new IloOplDataElements();
  d.cap = 16;
  m2.addDataSource(d);
  m2.generate();
  %s
  cplex.solve();
  writeln(cplex.getObjValue(), " ", cplex.getNiterations());
}
"""


def _lp_optimum(cap: float) -> float:
    from scipy.optimize import linprog

    c = np.array([3, 5, 4, 6.0])
    res = linprog(-c, A_ub=[[2, 3, 1, 4], [1, 2, 3, 1]], b_ub=[cap, 12], bounds=[(0, 4)] * 4, method="highs")
    return -res.fun


def test_basis_of_one_solve_warm_starts_the_next_with_no_simplex_iteration(tmp_path):
    """IBM page "IloOplCplexBasis" (example: getBasis after a solve, a second model with other data,
    setBasis, then solve): the saved basis stays optimal when only the right-hand side moves a little,
    so HiGHS's simplex starts at the optimum (0 iterations, `simplex_iteration_count`); without the
    basis the same solve needs iterations."""
    (tmp_path / "lp.dat").write_text("cap = 15;\n")
    (tmp_path / "m.mod").write_text(_LP_MOD % 'writeln(basis.setBasis(cplex));')
    r = pyopl.solve(tmp_path / "m.mod", data=tmp_path / "lp.dat", solver="highs")
    first, saved, restored, warm = r.script_output.splitlines()
    obj1, iterated = first.split()
    assert float(obj1) == pytest.approx(_lp_optimum(15)) and iterated == "true"
    assert saved == "true 2x4 0" and restored == "true"
    obj2, iters = warm.split()
    assert float(obj2) == pytest.approx(_lp_optimum(16)) and iters == "0"
    (tmp_path / "m.mod").write_text(_LP_MOD % "")
    cold = pyopl.solve(tmp_path / "m.mod", data=tmp_path / "lp.dat", solver="highs").script_output.splitlines()[-1].split()
    assert float(cold[0]) == pytest.approx(_lp_optimum(16)) and int(cold[1]) > 0


def test_basis_of_a_mip_is_not_saved():
    """IloOplCplexBasis is for linear programs ("warm start functionality for linear programming
    models"): after a MIP, getBasis returns false with a nonzero status."""
    r = pyopl.solve("dvar int x in 0..3;\nmaximize x;\nmain { thisOplModel.generate(); cplex.solve(); "
                    "var b = new IloOplCplexBasis(); writeln(b.getBasis(cplex), \" \", b.status); }")
    assert r.script_output.strip() == "false 1"


# ---------------------------------------------------------------------- conflict and relaxation iterators
# by hand: 2x + 2y >= 30 needs x + y >= 15, but hx and hy allow 4 + 6 = 10 (the bounds x <= 10,
# y <= 20 alone allow it): {lo, hx, hy} is the only conflict.  The cheapest relaxation (sum of the
# bound changes): moving hx's bound by 5 costs 5, hy's or lo's would cost 10: hx becomes x <= 9
_INFEASIBLE = """dvar float x in 0..10;
dvar float y in 0..20;
minimize x + y;
subject to {
  lo: 2 * x + 2 * y >= 30;
  hx: x <= 4;
  hy: 2 * y <= 12;
}
"""


def test_conflict_iterator_visits_the_conflicting_constraints_with_their_status():
    """IBM page "IloOplConflictIterator" (properties `ct`, the conflicting constraint, and `status`,
    ConflictMember or ConflictPossibleMember; the conflict is computed when first iterated, then
    cached; `printConflict` gives it as a string)."""
    r = pyopl.solve(_INFEASIBLE + """main {
  thisOplModel.generate();
  var it = thisOplModel.conflictIterator;
  for (var c in it) writeln(c.ct.name, " ", c.status);
  writeln(it == thisOplModel.conflictIterator, " ", it.printConflict().indexOf("hy") >= 0);
}""")
    assert r.script_output.splitlines() == ["lo ConflictMember", "hx ConflictMember", "hy ConflictMember",
                                            "true true"]


def test_conflict_iterator_of_a_feasible_model_is_empty_and_attach_takes_constraints():
    """IloOplConflictIterator: a feasible model has no conflict; `attach(cts, prefs)` takes a labelled
    constraint (or an array of them): a number in its place is a script value error (OPL1055)."""
    ok = pyopl.solve("dvar float+ x;\nminimize x;\nsubject to { c: x >= 1; }\nmain { thisOplModel.generate(); "
                     "cplex.solve(); var n = 0; for (var c in new IloOplConflictIterator(thisOplModel)) n++; writeln(n); }")
    assert ok.script_output.strip() == "0"
    bad = pyopl.solve(_INFEASIBLE + "main { thisOplModel.generate(); thisOplModel.conflictIterator.attach(1, 2); }")
    assert [d.code for d in bad.diagnostics if d.is_error] == ["OPL1055"]
    assert "takes a labelled constraint" in [d for d in bad.diagnostics if d.is_error][0].message


def test_relaxation_iterator_gives_each_relaxed_constraint_with_its_bounds():
    """IBM page "IloOplRelaxationIterator" (properties `ct`, `LB`, `UB`, `relaxedLB`, `relaxedUB` of each
    relaxation; IBM's relaxationIterator example iterates `opl.relaxationIterator` with for-in and
    prints them); `printRelaxation()` returns the text."""
    r = pyopl.solve(_INFEASIBLE + """main {
  thisOplModel.generate();
  var it = thisOplModel.relaxationIterator;
  for (var e in it) writeln(e.ct.name, " ", e.LB, " ", e.UB, " ", e.relaxedLB, " ", e.relaxedUB);
  write(it.printRelaxation());
}""")
    assert r.script_output.splitlines() == ["hx -Infinity 4 -Infinity 9",
                                            "hx: bounds [-infinity, 4] relaxed to [-infinity, 9]"]


# ---------------------------------------------------------------------- fail()
def test_fail_stops_its_block_reports_an_error_and_the_next_block_runs():
    """IBM page "Miscellaneous functions" (fail(): "Stops the execution of the scripting block at the
    current statement, reports an error, and goes on"; its example prints A then C)."""
    r = pyopl.solve('dvar float+ x;\nminimize x;\nexecute b1 { writeln("A"); fail(); writeln("B"); }\n'
                    'execute b2 { writeln("C"); }')
    assert r.script_output.splitlines() == ["A", "C"]
    assert [(d.code, d.span.line, d.span.column) for d in r.diagnostics if d.is_error] == [("OPL1067", 3, 28)]
    assert r.status == "script_error"


# ---------------------------------------------------------------------- printExternalData / printInternalData
_DATA_MOD = """tuple Arc { string o; string d; float cost; }
{string} Cities = ...;
{Arc} Arcs = ...;
int n = ...;
float cap[Cities] = ...;
range R = 1..n;
float w[i in R] = i / 2;
{string} Far = {a.d | a in Arcs : a.cost > 3};
string label = "a \\"q\\"";
dvar float+ x[Arcs] in 1..10;
minimize sum(a in Arcs) a.cost * x[a];
subject to { forall(c in Cities) sum(a in Arcs : a.o == c) x[a] <= cap[c]; }
main {
  thisOplModel.generate();
  write(thisOplModel.printExternalData());
  writeln("--");
  write(thisOplModel.printInternalData());
  cplex.solve();
}
"""
_DATA = """Cities = {"Rome", "Oslo"};
Arcs = {<"Rome", "Oslo", 2.5>, <"Oslo", "Rome", 4>};
n = 3;
cap = [10, 7.5];
"""


def test_print_external_and_internal_data_in_dat_syntax(tmp_path):
    """IBM page "Printing data to a stream" (IloOplModel prints all the data "using the .dat file
    syntax": the external data, given by data sources, and the internal data the model computes,
    IBM's "Exporting external data" / "Exporting internal data"); the external text read back as a
    data file gives the same model."""
    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_text(_DATA_MOD)
    dat.write_text(_DATA)
    r = pyopl.solve(mod, data=dat)
    external, internal = r.script_output.split("--\n")
    # by hand: the data as given; w[i] = i / 2; the arcs of cost over 3 end in Rome
    assert external.splitlines() == ['Cities = {"Rome", "Oslo"};', 'Arcs = {<"Rome", "Oslo", 2.5>, <"Oslo", "Rome", 4>};',
                                     "n = 3;", "cap = [10, 7.5];"]
    assert internal.splitlines() == ["R = 1..3;", "w = [0.5, 1, 1.5];", 'Far = {"Rome"};', 'label = "a \\"q\\"";']
    again = tmp_path / "again.dat"
    again.write_text(external)
    assert pyopl.solve(mod, data=again).objective == pytest.approx(2.5 + 4)  # each x at its lower bound 1


def test_printed_data_with_infinity_and_control_characters_reads_back(tmp_path):
    """Before: `inf = Infinity;` (as a script prints the number), which a .dat file reads as a string
    (OPL0403), and a tab written raw. The .dat keyword is `infinity`; strings take C escapes."""
    mod = tmp_path / "m.mod"
    mod.write_text('float big = ...;\nfloat low = ...;\n{string} S = ...;\ndvar float x in low..big;\n'
                   'maximize x;\nsubject to { x <= card(S); }\n'
                   'execute { write(thisOplModel.printExternalData()); }\n')
    (tmp_path / "m.dat").write_text('big = infinity;\nlow = -infinity;\nS = {"a\\tb", "c\\\\d\\"e"};\n')
    r = pyopl.solve(mod, data=tmp_path / "m.dat")
    assert r.script_output.splitlines() == ["big = infinity;", "low = -infinity;", 'S = {"a\\tb", "c\\\\d\\"e"};']
    (tmp_path / "again.dat").write_text(r.script_output)
    again = pyopl.solve(mod, data=tmp_path / "again.dat")
    assert again.script_output == r.script_output  # (the same data: the same text again)
    assert r.objective == again.objective == 2  # x up to card(S), two strings


def test_basis_for_a_solve_by_another_solver_is_left_unused_with_a_warning():
    """pyopl's bases are HiGHS's: a basis set before a solve that Gurobi runs (`populate()` goes to a
    solver with a solution pool) is not used, and OPL1058 says so."""
    if importlib.util.find_spec("gurobipy") is None:
        pytest.skip("gurobipy is not installed")
    r = pyopl.solve("dvar float+ x in 0..4;\ndvar float+ y in 0..4;\nmaximize x + 2 * y;\nsubject to { c: x + y <= 5; }\n"
                    "main { thisOplModel.generate(); var b = new IloOplCplexBasis(); cplex.solve(); "
                    "writeln(b.getBasis(cplex), \" \", b.setBasis(cplex)); cplex.populate(); writeln(cplex.getObjValue()); }")
    # by hand: y = 4, x = 1: 9
    assert r.script_output.splitlines() == ["true true", "9"]
    warns = [d for d in r.diagnostics if d.code == "OPL1058"]
    assert len(warns) == 1 and "the solver `gurobi` runs this solve" in warns[0].message
