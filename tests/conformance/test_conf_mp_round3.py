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
