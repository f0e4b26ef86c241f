"""Issue 44, section 3: forms real MP models (IBM's examples among them) use, each with an answer
worked out by hand from IBM's documented semantics."""
from __future__ import annotations

import pytest

import pyopl


def _codes(r) -> list[str]:
    return [d.code for d in r.diagnostics]


def test_execute_before_a_tuple_declaration_with_external_data():
    """An `execute` block placed before `tuple T` (IBM's `mulprod_change_main`, `lifegame` examples
    open with a settings block): external data of type `T` read after it is initialised before
    the script (IBM's order) and after `T`. x[<1,2.5>] <= 1, x[<2,3.5>] <= 2: 2.5 + 7 = 9.5."""
    model = """
execute { writeln("first"); }
tuple T { int a; float b; }
{T} S = ...;
T one = ...;
dvar float+ x[S] in 0..10;
maximize sum(s in S) s.b * x[s] + one.b;
subject to { forall(s in S) x[s] <= s.a; }
"""
    data = "S = {<1, 2.5>, <2, 3.5>}; one = <3, 1.0>;"
    r = pyopl.solve(model, data, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(10.5)
    assert r.script_output.splitlines() == ["first"]


def test_script_assigns_non_key_fields_of_tuples_in_sets_arrays_and_scalars():
    """IBM ILOG Script for OPL, "Limitations: value assignments": tuple components of type int,
    float or string may be assigned. The loop doubles each job's `dur` (2, 3 -> 4, 6); the array
    `w` indexed by `jobs` keeps its values on the changed tuples (10, 20); `best`, declared without
    a value, gets dur 7; the array item `pair[2]` gets dur 1. Each x <= 1:
    (4 + 10) + (6 + 20) + 7 + 1 = 48."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<1, 2>, <2, 3>};
float w[jobs] = [10, 20];
Job best;
Job pair[1..2] = [<5, 0>, <6, 0>];
execute {
  for (var j in jobs) j.dur = j.dur * 2;
  best.dur = 7;
  pair[2].dur = 1;
  writeln(jobs, " ", best, " ", pair);
}
dvar float+ x[jobs] in 0..1;
maximize sum(j in jobs) (j.dur + w[j]) * x[j] + best.dur + pair[1].dur + pair[2].dur;
subject to { sum(j in jobs) x[j] <= 2; }
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(48.0)
    assert r.script_output.splitlines() == ["{<1 4> <2 6>} <0 7> [<5 0> <6 1>]"]


@pytest.mark.parametrize("body, words", [
    ("for (var j in jobs) j.id = 9;", "key field"),
    ("var t = jobs.get(1); t.tags = 3;", "no field `tags`"),
    ("for (var j in jobs) j.dur = \"long\";", "cannot take"),
])
def test_script_tuple_field_assignments_ibm_refuses(body, words):
    """Key fields are the tuple's identity (arrays and decisions are indexed by them); a field
    that does not exist, or a value of the wrong type, is a script error at the assignment."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<1, 2>, <2, 3>};
execute { %s }
dvar float+ x[jobs] in 0..1;
maximize sum(j in jobs) x[j];
""" % body
    d = pyopl.check(model, source="text")
    errs = [x for x in d if x.severity == "error"]
    assert errs and words in errs[0].message, [str(x) for x in d]


def test_opl_item_takes_a_position_on_an_int_keyed_tuple_set_and_find_takes_keys():
    """IBM "Functions over sets": item(S, n) is the n-th item, from 0, whatever the keys; the keys
    here (7, 3) are not positions. `find` takes the key values, or every component."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<7, 2>, <3, 5>};
execute {
  writeln(Opl.item(jobs, 0), Opl.item(jobs, 1), jobs.find(3), jobs.get(7, 2), jobs.find(3, 4));
}
dvar float+ x in 0..1;
maximize x;
"""
    r = pyopl.solve(model, source="text")
    assert r.script_output.splitlines() == ["<7 2><3 5><3 5><7 2>null"]


def test_dat_matrix_row_broken_across_lines_and_trailing_comma_in_a_tuple():
    """IBM's data files are free-form: white space (line breaks included) separates values, commas
    are optional, a tuple may end with `,` (IBM's diet example data). a = [[1 2 3] [4 5 6]] sums to
    21, n = 1, the tuples' f fields 2.5 + 4: y <= 28.5."""
    model = """
int n = ...;
float a[1..2][1..3] = ...;
tuple T { int x; string s; float f; }
{T} S = ...;
dvar float+ y in 0..100;
maximize y;
subject to { y <= n + sum(i in 1..2, j in 1..3) a[i][j] + sum(t in S) t.f; }
"""
    data = "n = 1;\na = [[1, 2,\n      3],\n     [4\n 5 6]];\nS = {<1, \"a\", 2.5,>, <2, \"b\",\n 4>};\n"
    r = pyopl.solve(model, data, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(28.5)


def test_dat_hash_is_not_a_comment_and_says_so():
    """`#` opens only `#[...]#` and `#<...>#` in IBM's data files; comments are `//` and `/* */`."""
    d = pyopl.check("int n = ...;\ndvar float x in 0..n;\nmaximize x;", "n = 1; # note\n", source="text")
    errs = [x for x in d if x.severity == "error"]
    assert errs[0].code == "OPL0042" and "`#` does not start a comment" in errs[0].message
    assert (errs[0].line, errs[0].column) == (1, 8)


@pytest.mark.parametrize("name, base", [("c:\\\\temp\\\\res.txt", "res.txt"), ("/tmp/pyopl-never-%d.txt", None)])
def test_absolute_output_path_goes_into_the_output_folder_with_a_warning(tmp_path, name, base):
    """IBM's examples write results to `c:\\temp\\...`; pyopl writes only in the output folder, so the
    file goes there under its last part, the warning (OPL1080) says where, and the model solves."""
    import os

    if base is None:
        name = name % os.getpid()
        base = os.path.basename(name)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "m.mod").write_text('dvar float+ x in 0..2;\nmaximize x;\nexecute {\n'
                                    '  var f = new IloOplOutputFile("%s");\n  f.writeln(x);\n  f.close();\n}\n' % name)
    r = pyopl.solve(tmp_path / "m.mod", output_dir=out)
    assert r.status == "optimal" and r.objective == pytest.approx(2.0)
    w = [d for d in r.diagnostics if d.code == "OPL1080"]
    assert len(w) == 1 and w[0].severity == "warning" and (w[0].line, w[0].column) == (4, 11)
    assert str(out / base) in w[0].message
    assert (out / base).read_text() == "2\n"
    assert not os.path.exists(name)


_BUSES = """
int nbKids = 300;
dvar int+ nbBus40;
dvar float+ nbBus30;
dvar int nbBus30i;
minimize 500 * nbBus40 + 400 * nbBus30;
subject to {
  ctKids: 40 * nbBus40 + 30 * nbBus30 >= nbKids;
  ctInt: nbBus30i - nbBus30 == 0;
}
"""


def test_cplex_set_lb_ub_on_a_constraint_and_get_objective_set_coef_in_main():
    """`cplex.setLb(ct, -Infinity)` / `setUb(ct, Infinity)` free the row `nbBus30i == nbBus30`, so
    nbBus30 may be fractional: 40a + 30b >= 300 at cost 500a + 400b is 3800 with b integer (a=6,
    b=2) and 3766.67 without (a=7, b=2/3); putting the bounds back gives 3800 again. Then
    `getObjective().setCoef(nbBus40, 0)` makes 40-seat buses free: b = 0, cost 0."""
    model = _BUSES + """
main {
  thisOplModel.generate();
  cplex.solve(); writeln(cplex.getObjValue());
  cplex.setLb(thisOplModel.ctInt, -Infinity); cplex.setUb(thisOplModel.ctInt, Infinity);
  cplex.solve(); writeln(Math.round(cplex.getObjValue() * 100) / 100);
  cplex.setLb(thisOplModel.ctInt, 0); cplex.setUb(thisOplModel.ctInt, 0);
  cplex.solve(); writeln(cplex.getObjValue());
  var obj = thisOplModel.getObjective();
  obj.setCoef(thisOplModel.nbBus40, 0);
  cplex.solve(); writeln(cplex.getObjValue(), " ", obj.getCoef(thisOplModel.nbBus30));
}
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["3800", "3766.67", "3800", "0 400"]


def test_slack_after_a_mip():
    """After a MIP, `ct.slack` is the distance from the row's value to its bound (CPLEX reports it
    for a MIP too). x = 3, y = 1: x + y = 4 <= 4.5 (slack 0.5), x - y = 2 <= 2 (slack 0)."""
    model = """
dvar int x in 0..10;
dvar int y in 0..10;
maximize 3*x + 2*y;
subject to { c1: x + y <= 4.5; c2: x - y <= 2; }
execute { writeln(c1.slack, " ", c2.slack); }
"""
    r = pyopl.solve(model, source="text")
    assert r.objective == pytest.approx(11.0)
    assert r.script_output.splitlines() == ["0.5 0"]


def test_add_mip_start_and_branching_priorities_reach_the_solver():
    """`cplex.addMIPStart(x, values)` gives the next solve a start (one value per column, NaN
    elsewhere); `x.priority` / `x.direction` set in a script reach CPLEX, Gurobi and SCIP, and HiGHS,
    which has none, says it solves without them (OPL1058). The optimum is unchanged: 3800."""
    model = _BUSES.replace("minimize", "execute { nbBus40.priority = 100; nbBus40.direction = 1; }\nminimize") + """
main {
  thisOplModel.generate();
  cplex.addMIPStart(thisOplModel.nbBus40, 6);
  cplex.solve();
  writeln(cplex.getObjValue());
}
"""
    m = pyopl.compile_model(model, source="text")
    r = m.solve(solver="highs")
    assert r.script_output.splitlines() == ["3800"]
    assert any(d.code == "OPL1058" and "branching priorities" in d.message for d in r.diagnostics)
    assert list(m.last_options.branching.values()) == [(100, 1)]
    start = m.last_options.start
    assert sorted(v for v in start if v == v) == [6.0]


def test_apply_ops_settings_reads_the_path_resolve_path_returns(tmp_path):
    """`applyOpsSettings(null, thisOplModel.resolvePath("m.ops"))`: an absolute path inside the model's
    folder is the model's own file; the time limit it sets reaches the solve options."""
    (tmp_path / "m.ops").write_text('<settings version="2"><category name="cplex">'
                                    '<setting name="tilim" value="37"/></category></settings>')
    (tmp_path / "m.mod").write_text(_BUSES + """
main {
  thisOplModel.applyOpsSettings(null, thisOplModel.resolvePath("m.ops"));
  thisOplModel.generate();
  cplex.solve();
  writeln(cplex.getObjValue());
}
""")
    m = pyopl.compile_model(tmp_path / "m.mod")
    r = m.solve()
    assert r.script_output.splitlines() == ["3800"], [str(d) for d in r.diagnostics]
    assert m.last_options.time_limit == pytest.approx(37.0)


def test_a_date_assigned_to_float_data_is_its_time_in_milliseconds():
    """IBM converts a script value into typed data with ToNumber: `float d = new Date(...)` holds
    the date's time in milliseconds (a `Date`'s valueOf). The days between the two dates are worked
    out with Python's calendar."""
    import datetime

    model = """
float d1;
float d2;
execute {
  d1 = new Date(2030, 2, 3);
  d2 = new Date(2022, 2, 22);
  writeln(Opl.round((d1 - d2) / 86400000));
}
dvar float+ x in 0..1;
maximize x;
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == [str((datetime.date(2030, 3, 3) - datetime.date(2022, 3, 22)).days)]


def test_nonlinear_dexpr_read_only_by_a_script_is_computed_at_the_solution():
    """IBM extracts only what the model uses: a dexpr that is not linear (`x[1] / x[2]`) is no error
    while the objective and constraints do not name it, and a post-processing script reads its value
    at the solution. Maximising x1 + x2 with x1 + x2 <= 5, x1 <= 2, x2 in 1..4 gives x2 = 4, x1 = 1:
    the ratio is 1/4. Used in a constraint, the same dexpr is refused (OPL0503)."""
    model = """
dvar float+ x[1..2] in 1..4;
dexpr float ratio = x[1] / x[2];
maximize x[1] + x[2];
subject to { x[1] + x[2] <= 5; x[1] <= 2; %s }
execute { writeln(ratio); }
"""
    r = pyopl.solve(model % "", source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(5.0)
    assert r.script_output.splitlines() == ["0.25"]
    d = pyopl.check(model % "ratio <= 3;", source="text")
    assert [x.code for x in d if x.severity == "error"] == ["OPL0503"]


def test_this_opl_model_settings_in_an_execute_block():
    """IloOplModel `settings` (IloOplSettings) is reachable from `thisOplModel` in an `execute` block
    too, as IBM's examples set `thisOplModel.settings.run_engineExportExtension` before the model."""
    model = """
execute { thisOplModel.settings.displayPrecision = 3; writeln(thisOplModel.settings.displayPrecision); }
dvar int+ x in 0..4;
maximize x;
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(4.0)
    assert r.script_output.splitlines() == ["3"]


def test_old_constraint_label_assignment_syntax():
    """IBM's older syntax (its `hopcalls.mod`): `constraint ct[M];` declared, then `ct[m] = x[m] <= m;`
    and `tot = ... <= 2.5;` in the constraints label them. max x1 + x2 with x1 <= 1, x2 <= 2 and
    x1 + x2 <= 2.5 is 2.5; the labelled rows keep their bounds (2 and 2.5)."""
    model = """
range M = 1..2;
dvar float+ x[M];
constraint ct[M];
constraint tot;
maximize sum(m in M) x[m];
subject to {
  forall(m in M) ct[m] = x[m] <= m;
  tot = sum(m in M) x[m] <= 2.5;
}
execute { writeln(ct[2].UB, " ", tot.UB); }
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(2.5)
    assert r.script_output.splitlines() == ["2 2.5"]
    d = pyopl.check("dvar float x;\nminimize x;\nsubject to { x = 3; }\n", source="text")
    assert [(e.code, e.line, e.column) for e in d] == [("OPL0003", 3, 16)]  # `x = 3` still meant `==`


def test_data_elements_of_a_model_before_generate():
    """IBM's `calls.mod` reads `hop.dataElements` after adding its data sources and before
    `generate()`: the data the model reads. n = 3 from the elements: max x with x <= n is 3."""
    model = """
int n = ...;
dvar float+ x;
maximize x;
subject to { x <= n; }
main {
  var m = new IloOplModel(thisOplModel.modelDefinition, cplex);
  var d = new IloOplDataElements();
  d.n = 3;
  m.addDataSource(d);
  writeln(m.dataElements.n);
  m.generate();
  cplex.solve();
  writeln(cplex.getObjValue());
}
"""
    r = pyopl.solve(model, "n = 1;", source="text")
    assert r.script_output.splitlines() == ["3", "3"], [str(x) for x in r.diagnostics]


def test_constant_in_a_tuple_pattern_and_a_constraint_as_a_dexpr_value():
    """A constant in a tuple pattern selects the tuples whose component equals it: two diesel buses
    and one 30-seat bus. `dexpr int used[t] = (1 - (n[t] == 0))`: a constraint's truth value as an
    expression (1 when n[t] > 0). Each n in 0..5: diesel buses 5 + 5, the 30-seat bus 5, and
    `used` counts 3 buses with n > 0: 10 + 5 + 3 = 18."""
    model = """
tuple bus { string b; int c; string fuel; }
{bus} buses = {<"a", 40, "diesel">, <"b", 30, "electric">, <"c", 20, "diesel">};
dvar int+ n[buses] in 0..5;
dexpr int used[t in buses] = (1 - (n[t] == 0));
maximize sum(<b, c, "diesel"> in buses) n[<b, c, "diesel">] + sum(<b, 30, f> in buses) n[<b, 30, f>]
         + sum(t in buses) used[t];
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(18.0)


def test_set_valued_tuple_field_in_a_model_literal():
    """IBM "Limitations on tuples": sets of int, float or string are allowed inside tuples, and a
    tuple literal in the model may give one (`<1, "2", {8}>`). card of the fields: 2 + 0, plus x <= 1: 3.
    A number where the field is a set stays an error (OPL0403)."""
    model = """
tuple t { int a; {int} c; }
{t} S = {<1, {8, 9}>, <2, {}>};
execute { for (var e in S) writeln(e.a, e.c); }
dvar float+ x in 0..1;
maximize x + sum(e in S) card(e.c);
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(3.0), [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["1 {8 9}", "2 {}"]  # (IBM: a space before a set after another argument)
    d = pyopl.check(model.replace("<2, {}>", "<2, 8>"), source="text")
    assert [x.code for x in d if x.severity == "error"][0] == "OPL0403"


def test_post_processing_assignment_to_a_decision_value_is_what_later_data_reads():
    """IBM's lazy-evaluation example: after the solve a script may assign a decision (`a = a + 1`);
    post-processing data computed later (`int total = a + b;`, evaluated at its first read) sees the
    assigned values: (6 + 1) + (2 + 1) = 10. The solver's solution, as reported, stays a = 6, b = 2."""
    model = """
dvar int+ a in 0..6;
dvar int+ b in 0..2;
maximize a + b;
subject to { a + b <= 8; }
execute { writeln(a, " ", b); }
int total = a + b;
execute { a = a + 1; b = b + 1; writeln(total); }
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(8.0), [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["6 2", "10"]
    assert r["a"] == pytest.approx(6.0) and r["b"] == pytest.approx(2.0)


def test_write_mip_starts_writes_the_solution_in_cplex_mst_form(tmp_path):
    """`cplex.writeMIPStarts(name)`: the last solution as a CPLEX MIP start file (XML, one variable
    element per column) in the output folder. The optimum of _BUSES: nbBus40 = 6, nbBus30 = 2
    (integer), nbBus30i = 2."""
    import xml.etree.ElementTree as ET

    (tmp_path / "m.mod").write_text(_BUSES + "main {\n  thisOplModel.generate();\n  cplex.solve();\n"
                                    "  cplex.writeMIPStarts(\"start.mst\");\n}\n")
    out = tmp_path / "out"
    out.mkdir()
    r = pyopl.solve(tmp_path / "m.mod", output_dir=out)
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    root = ET.parse(out / "start.mst").getroot()
    got = {v.get("name"): float(v.get("value")) for v in root.iter("variable")}
    assert got == {"nbBus40": 6.0, "nbBus30": 2.0, "nbBus30i": 2.0}


def test_a_function_declared_in_an_included_execute_block_is_called_from_main(tmp_path):
    """IBM's scripting blocks share one global environment: a helper function declared in an
    `execute` block (here of an included file) is called from `main`. max x in 0..3 is 3; twice 6."""
    (tmp_path / "lib.mod").write_text("execute { function twice(v) { return 2 * v; } }\n")
    (tmp_path / "m.mod").write_text('include "lib.mod";\ndvar float x in 0..3;\nmaximize x;\n'
                                    "main { thisOplModel.generate(); cplex.solve(); writeln(twice(cplex.getObjValue())); }\n")
    r = pyopl.solve(tmp_path / "m.mod")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["6"]
def test_main_flow_adds_a_tuple_whose_array_field_is_a_solution_array(tmp_path):
    """The column-generation and TSP flows of IBM's examples: `data.S.add(n, sub.y.solutionValue)`
    (a decision array's values) and `data.S.add(n, opl.arr)` (a data array) fill a tuple's array
    field; a tuple of the data copy then indexes the new model's decision (keyed: by its key). The
    two unit columns cover each row once (cost 2); the sub-model's solution [1 1] covers both
    rows at once, so the optimum becomes 1. A string from `split` fills an int field as a number."""
    (tmp_path / "sub.mod").write_text("dvar int y[1..2] in 0..1;\nmaximize sum(i in 1..2) y[i];\n"
                                      "subject to { y[1] + y[2] <= 2; }\n")
    (tmp_path / "m.mod").write_text("""
range I = 1..2;
tuple Col { key int id; int a[I]; }
{Col} cols = ...;
tuple Pair { int p; int q; }
{Pair} pairs;
dvar float+ u[cols];
minimize sum(c in cols) u[c];
subject to { forall(i in I) cover: sum(c in cols) c.a[i] * u[c] >= 1; }
main {
  var data = thisOplModel.dataElements;
  var def = thisOplModel.modelDefinition;
  var src = new IloOplModelSource("sub.mod");
  var subCplex = new IloCplex();
  var sub = new IloOplModel(new IloOplModelDefinition(src), subCplex);
  sub.generate();
  subCplex.solve();
  data.cols.add(data.cols.size, sub.y.solutionValue);
  var parts = "2,7".split(",");
  pairs.add(parts[0], parts[1]);
  writeln(pairs, " ", typeof Opl.item(pairs, 0).p);
  var opl = new IloOplModel(def, cplex);
  opl.addDataSource(data);
  opl.generate();
  cplex.solve();
  writeln(cplex.getObjValue());
  for (var c in data.cols) if (opl.u[c].solutionValue > 0.5) writeln(c);
}
""")
    (tmp_path / "m.dat").write_text("cols = {<0, [1, 0]>, <1, [0, 1]>};\n")
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.script_output.splitlines() == ["{<2 7>} number", "1", "<2 [1 1]>"]
