"""Issue 44, third round: IBM ILOG Script behaviours real MP models rely on, each with an answer
taken from IBM's documentation or worked out by hand."""
from __future__ import annotations

import pytest

import pyopl


def test_typeof_answers_ibms_class_names():
    """IBM's `typeof.mod` example (AlexFleischerParis/oplscripting) prints, for its declarations:
    number, number, string, IloDiscreteDataCollection (a set), number, string,
    IloDiscreteDataCollection (a set-valued tuple field), IloNumVar (a `dvar int`), IloNumExpr (a
    scalar `dexpr`), IloIntRange. The rest follow IBM's class pages: a tuple set is an IloTupleSet
    with `getNFields`/`getFieldName`, a tuple an IloTuple, arrays (data, decisions) IloMap, a
    labelled constraint IloConstraint, and `typeof this` of the global object stays "object"."""
    model = """
int i1 = 2;
float f1 = 3.4;
string s1 = "s1";
{int} set1 = {1, 2};
dvar int x;
dvar float z[1..2];
dexpr int y = 2 * x;
range r = 1..2;
float a[1..2] = [1, 2];
tuple t { int a; string b; {int} c; }
{t} tupleSet = {<1, "2", {8}>};
execute {
  writeln(typeof(i1), " ", typeof(f1), " ", typeof(s1), " ", typeof(set1));
  var n = tupleSet.getNFields();
  var line = "";
  for (var j = 0; j < n; j++) {
    var f = tupleSet.getFieldName(j);
    line = line + f + ":" + typeof(Opl.first(tupleSet)[f]) + " ";
  }
  writeln(n, " ", line);
  writeln(typeof(x), " ", typeof(y), " ", typeof(r), " ", typeof(tupleSet), " ", typeof(Opl.first(tupleSet)));
  writeln(typeof(a), " ", typeof(z), " ", typeof(z[1]), " ", typeof(thisOplModel), " ", typeof(cplex));
  function g() { var y = 3; return typeof(y); }
  writeln(g());
}
minimize x;
subject to { ct: x >= 1; }
execute { writeln(typeof(ct), " ", typeof(Opl)); }
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == [
        "number number string IloDiscreteDataCollection",
        "3 a:number b:string c:IloDiscreteDataCollection ",
        "IloNumVar IloNumExpr IloIntRange IloTupleSet IloTuple",
        "IloMap IloMap IloNumVar IloOplModel IloCplex",
        "number",  # a function's `var y` shadows the dexpr: a plain number
        "IloConstraint object",
    ]


def test_get_field_name_past_the_last_field_is_a_script_error():
    """IBM's IloTupleSet.getFieldName(i) names field i of the set's tuple type; the type has two."""
    model = """
tuple P { int a; float b; }
{P} S = {<1, 2>};
execute { writeln(S.getFieldName(1)); writeln(S.getFieldName(2)); }
dvar float+ x;
minimize x;
"""
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(model, source="text")
    assert e.value.script_output.splitlines() == ["b"]
    assert [(d.code, d.span.line) for d in e.value.diagnostics] == [("OPL1052", 4)]
    assert "position 2 (it has 2)" in e.value.diagnostics[0].message


def test_a_labelled_constraint_on_data_only_is_a_row_main_can_change():
    """IBM's incremental zoo example keeps spare rows (`ctEmpty: 0 <= 0;`) and gives them coefficients
    and bounds in `main` (IloConstraint.setCoef, setBounds). By hand: x + y <= 8, z free in 0..10: 18;
    `spare` is 0 <= 0, so UB 0 and LB -Infinity; with z's coefficient 1 it says z <= 0: 8; setBounds(1, 3)
    makes 1 <= z <= 3: 11; `two: 2 >= 1` is 0 >= -1 (LB -1); x.setBounds(0, 5) (IloNumVar) keeps
    x + y <= 8, so 11 still."""
    model = """
dvar float+ x in 0..10;
dvar float+ y in 0..10;
dvar float+ z in 0..10;
maximize x + y + z;
subject to { cap: x + y <= 8; spare: 0 <= 0; two: 2 >= 1; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(cplex.getObjValue(), " ", thisOplModel.spare.UB, " ", thisOplModel.spare.LB, " ", thisOplModel.two.LB);
  thisOplModel.spare.setCoef(thisOplModel.z, 1);
  cplex.solve();
  writeln(cplex.getObjValue());
  thisOplModel.spare.setBounds(1, 3);
  thisOplModel.x.setBounds(0, 5);
  cplex.solve();
  writeln(cplex.getObjValue(), " ", thisOplModel.z.solutionValue, " ", thisOplModel.x.UB);
}
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["18 0 -Infinity -1", "8", "11 3 5"]


_CONFLICT = """range r = 1..10;
dvar int+ x[r] in 1..10;
float prefs[i in r] = i;
minimize sum(i in r) x[i];
subject to {
  ct: sum(i in r) x[i] >= 10;
  forall(i in r) cts: x[i] >= i + 5;
}
"""


def test_conflict_iterator_with_preferences_and_excluded_conflicts():
    """IBM's conflictIterator example: x[i] in 1..10 and cts[i]: x[i] >= i + 5, so each of cts[6..10] alone
    conflicts with its variable's domain (the domain always holds: only labelled constraints take part).
    By default CPLEX keeps "the first constraint in the declared order": cts[6] (IBM's page shows it);
    with prefs[i] = i (the preference of seeing cts[i] in the conflict) the highest, cts[10]. Excluding a
    conflict gives the next one: cts[7], then cts[8]. A preference of 0 forces cts[1] in (a possible
    member, not proven)."""
    main = """main {
  var m = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m.generate();
  var it = m.conflictIterator;
  for (var c in it) writeln(c.ct.name, " ", c.status);
  it.excludeConflict();
  for (c in it) writeln(c.ct.name);
  it.excludeConflict();
  for (c in it) writeln(c.ct.name);
  var m2 = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m2.generate();
  m2.conflictIterator.attach(m2.cts, m2.prefs);
  for (c in m2.conflictIterator) writeln(c.ct.name);
  m2.conflictIterator.attach(m2.cts[1], 0);
  for (c in m2.conflictIterator) writeln(c.ct.name, " ", c.status);
  m2.conflictIterator.clearAttachments();
  for (c in m2.conflictIterator) writeln(c.ct.name);
}"""
    r = pyopl.solve(_CONFLICT + main, source="text")
    assert r.script_output.splitlines() == [
        "cts[6] ConflictMember", "cts[7]", "cts[8]", "cts[10]",
        "cts[1] ConflictPossibleMember", "cts[10] ConflictMember", "cts[6]"]


def test_relaxation_iterator_with_preferences_prices_each_unit_one_over_the_preference():
    """feasOpt with preferences: relaxing a constraint costs 1 / preference per unit, and only the attached
    constraints may be relaxed. c1: x >= 5 and c2: x <= 2 with x in 0..10 need 3 units of relaxation:
    prefs c1 = 1, c2 = 3 make c2 cheaper (1/3 per unit): c2 relaxed to [-infinity, 5]; c1 = 3, c2 = 1: c1
    to [2, infinity]; only c1 attached: c2 holds, c1 relaxed to [2, infinity] whatever its preference."""
    model = """dvar float x in 0..10;
minimize x;
subject to { c1: x >= 5; c2: x <= 2; }
float p[1..2] = [1, 3];
main {
  var m = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m.generate();
  m.relaxationIterator.attach(m.c1, m.p[1]);
  m.relaxationIterator.attach(m.c2, m.p[2]);
  write(m.relaxationIterator.printRelaxation());
  var n = new IloOplModel(thisOplModel.modelDefinition, cplex);
  n.generate();
  n.relaxationIterator.attach(n.c1, 3);
  n.relaxationIterator.attach(n.c2, 1);
  for (var e in n.relaxationIterator) writeln(e.ct.name, " ", e.relaxedLB, " ", e.relaxedUB);
  var o = new IloOplModel(thisOplModel.modelDefinition, cplex);
  o.generate();
  o.relaxationIterator.attach(o.c1, 0.001);
  for (e in o.relaxationIterator) writeln(e.ct.name, " ", e.relaxedLB);
}"""
    r = pyopl.solve(model, source="text")
    assert r.script_output.splitlines() == [
        "c2: bounds [-infinity, 2] relaxed to [-infinity, 5]", "c1 2 Infinity", "c1 2"]


def _lex_full(abstol: str, reltol: str, prios: str = "[2, 1]", weights: str = "[1, 1]") -> str:
    return """dvar float x in 0..10;
dvar float y in 0..10;
dexpr float g[i in 1..2] = (i == 1) ? x : y;
float w[1..2] = %s;
int p[1..2] = %s;
float at[1..2] = %s;
float rt[1..2] = %s;
maximize staticLexFull(g, w, p, at, rt);
subject to { x + y <= 10; }
""" % (weights, prios, abstol, reltol)


@pytest.mark.parametrize("solver", ["highs", "gurobi", "cplex"])
@pytest.mark.parametrize("abstol,reltol,prios,weights,want", [
    ("[0, 0]", "[0, 0]", "[2, 1]", "[1, 1]", [10.0, 0.0]),   # x first: x = 10, then y = 0
    ("[3, 0]", "[0, 0]", "[2, 1]", "[1, 1]", [7.0, 3.0]),    # x may give up 3: x = 7, y = 3
    ("[0, 0]", "[0.2, 0]", "[2, 1]", "[1, 1]", [8.0, 2.0]),  # 20% of 10: x = 8, y = 2
    ("[0, 0]", "[0, 0]", "[1, 2]", "[1, 1]", [10.0, 0.0]),   # y first (priority 2): y = 10, x = 0 (levels y, x)
])
def test_static_lex_full_orders_by_priority_and_keeps_each_level_within_its_tolerance(
        solver, abstol, reltol, prios, weights, want):
    """IBM, staticLexFull(goals, weights, priorities, abstol, reltol): CPLEX's multi-objective policy, the
    highest priority first, each level allowed to degrade by max(abstol, reltol * |optimum|) for the next.
    x + y <= 10 with the goals x, y maximised: each case worked out by hand beside it."""
    from tests.solver_support import gurobi_reason

    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())
    # integer goals: Gurobi applies the tolerances of an LP through reduced costs (not CPLEX's rule), so it
    # is refused for one (test below); on a MIP both follow CPLEX's rule
    r = pyopl.compile_model(_lex_full(abstol, reltol, prios, weights).replace("dvar float", "dvar int")).solve(solver=solver)
    assert r.status == "optimal"
    assert r.extra["objectives"] == pytest.approx(want, abs=1e-6)


def test_static_lex_full_tolerances_of_an_lp_are_refused_by_gurobi_and_solved_by_highs():
    """An LP with a tolerance: HiGHS (sequential solves, CPLEX's rule) gives [7, 3] (x may give up 3);
    Gurobi is refused (OPL0703) rather than answering with its reduced-cost rule."""
    from tests.solver_support import gurobi_reason

    model = pyopl.compile_model(_lex_full("[3, 0]", "[0, 0]"))
    assert model.solve(solver="highs").extra["objectives"] == pytest.approx([7.0, 3.0])
    assert model.solve(solver="cplex").extra["objectives"] == pytest.approx([7.0, 3.0])  # CPLEX's own multiobj
    if gurobi_reason():
        pytest.skip(gurobi_reason())
    r = model.solve(solver="gurobi")
    assert r.status == "error" and [d.code for d in r.diagnostics] == ["OPL0703"]


def test_static_lex_full_with_one_priority_is_a_blended_objective():
    """Goals of one priority are blended: maximise 1 * x + 3 * y with x + y <= 10: y = 10, 30 (by hand)."""
    r = pyopl.solve(_lex_full("[0, 0]", "[0, 0]", "[1, 1]", "[1, 3]"), source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(30.0)
    assert "objectives" not in r.extra


def test_static_lex_full_needs_five_arrays_of_one_length():
    """A reltol array of 3 values for 2 goals is named at the argument; 4 arguments at the call."""
    model = _lex_full("[0, 0]", "[0, 0]").replace("float rt[1..2] = [0, 0];", "float rt[1..3] = [0, 0, 0];")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(model, source="text")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("OPL0212", 8, 37)
    assert d.message == "the reltol of `staticLexFull` must be 2 numbers, one per goal"
    short = _lex_full("[0, 0]", "[0, 0]").replace("at, rt);", "at);")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(short, source="text")
    assert [(d.code, d.span.line) for d in e.value.diagnostics if d.is_error] == [("OPL0210", 8)]


def test_data_changed_after_a_solve_then_a_new_model_generated_from_it():
    """IBM's mulprod_main pattern: after a solve, `thisOplModel.dataElements` is changed (an array item, a
    tuple added to a set) and a new IloOplModel of the same definition is generated from it, then a bound of
    the new model is changed. By hand: max x1 + x2 with 2 x1 + 4 x2 <= 20: 10; capacity 30 and a pattern of
    weight 0.5: x3 = 60 (3 patterns); ct["flour"].UB = 10: 20."""
    model = """{string} Res = ...;
float Capacity[Res] = ...;
tuple P { key int id; float w; }
{P} Pats = ...;
dvar float+ x[Pats];
maximize sum(p in Pats) x[p];
subject to { forall(r in Res) ct[r]: sum(p in Pats) p.w * x[p] <= Capacity[r]; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(cplex.getObjValue());
  var data = thisOplModel.dataElements;
  data.Capacity["flour"] = 30;
  data.Pats.add(3, 0.5);
  var m = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m.addDataSource(data);
  m.generate();
  cplex.solve();
  writeln(cplex.getObjValue(), " ", m.Pats.size);
  m.ct["flour"].UB = 10;
  cplex.solve();
  writeln(cplex.getObjValue());
}"""
    data = 'Res = {"flour"};\nCapacity = [20];\nPats = {<1, 2>, <2, 4>};'
    r = pyopl.solve(model, data, source="text")
    assert r.script_output.splitlines() == ["10", "60 3", "20"]


def test_a_large_dexpr_array_over_data_is_built_only_where_it_is_used():
    """IBM's dexpr tip (AlexFleischerParis): `dexpr float v[i][j][k] = (i+0.5)*j*k` over 200^3 cells, of which
    the model uses one; IBM creates a cell where it is used, and prints x = res = res2 = 9 ((1.5)*2*3). A
    post-processing script reading another cell gets it computed: v[2][3][4] = 2.5*3*4 = 30. Before, every
    one of the 8 million cells was evaluated (minutes)."""
    import time

    model = """int n = 200;
dexpr float v[i in 1..n][j in 1..n][k in 1..n] = (i + 0.5) * j * k;
dvar float x;
subject to { x == v[1][2][3]; }
float res1 = v[1][2][3];
float res2;
execute { writeln("x=", x, " res=", res1); res2 = v[1][2][3]; writeln("res2=", res2, " ", v[2][3][4]); }
assert x == res1;
"""
    t = time.perf_counter()
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["x=9 res=9", "res2=9 30"]
    assert time.perf_counter() - t < 30
