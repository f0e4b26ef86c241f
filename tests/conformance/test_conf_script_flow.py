"""Script objects of IBM's ILOG Script for OPL reference that the conformance table listed as not
supported before: IloOplOutputString, iterating a model's elements, solveFixed, clearModel, the
solution pool (populate / solnPoolNsolns / setPoolSolution / getObjValue(k)), printRelaxation and
applyOpsSettings.  Each example is ours, after the one on IBM's page; expected values by hand."""
from __future__ import annotations

import pyopl


def test_output_string_collects_text_in_memory():
    """IBM ILOG Script for OPL reference, class IloOplOutputString (write, writeln, getString; the
    page's example writes into it inside `with (str) { ... }`)."""
    r = pyopl.solve("""range R = 1..4;
int group[R] = [2, 1, 2, 1];
execute {
  var s = new IloOplOutputString();
  with (s) { writeln("first"); }
  s.write("a", 1, " ");
  writeln("[", s.getString(), "]");
  var per = new Array();
  for (var g = 1; g <= 2; g++) { per[g] = new IloOplOutputString(); per[g].write(g, ":"); }
  for (var k in R) per[group[k]].write(" ", k);
  writeln(per[1].getString(), "|", per[2].getString());
}
dvar float+ x;
minimize x;""")
    # by hand: group 1 holds 2 and 4, group 2 holds 1 and 3
    assert r.script_output.splitlines() == ["[first", "a1 ]", "1: 2 4|2: 1 3"]


def test_for_in_visits_the_elements_declared_so_far():
    """IBM ILOG Script for OPL reference, class IloOplModel ("Iterating properties: iterates on the
    OPL elements declared before the current execute or main block"); the names, as for-in gives
    the property names of an object, so `thisOplModel[e]` reads the element."""
    r = pyopl.solve("""tuple P { int a; }
int n = 3;
range R = 1..n;
execute { var s = ""; for (var e in thisOplModel) s += e + " "; writeln(s); writeln(thisOplModel["n"] * 2); }
dvar float+ x[R];
minimize sum(i in R) x[i];
subject to { low: x[1] >= 2; }
execute { var s = ""; for (var e in thisOplModel) s += e + " "; writeln(s); }""")
    # the tuple type P is a type, not an element; the constraint label comes with the generated model
    assert r.script_output.splitlines() == ["n R ", "6", "n R x low "]


def test_for_in_over_data_elements_gives_their_names(tmp_path):
    """IBM ILOG Script for OPL reference, class IloOplDataElements ("iterates on the OPL data
    elements available in this data source")."""
    mod = tmp_path / "m.mod"
    mod.write_text("""int n = ...;
float w = ...;
dvar float+ x;
minimize x;
subject to { x >= n * w; }
main {
  thisOplModel.generate();
  var d = thisOplModel.dataElements;
  for (var k in d) writeln(k, "=", d[k]);
}""")
    (tmp_path / "m.dat").write_text("n = 4;\nw = 2.5;\n")
    r = pyopl.solve(mod, tmp_path / "m.dat")
    assert sorted(r.script_output.splitlines()) == ["n=4", "w=2.5"]
