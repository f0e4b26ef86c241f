"""Script objects real `main` and `execute` blocks use: timing, `fail()`, whole-array solution
values, output files' `exists`, `resolvePath`, `printConflict`, `writeln` of tuples with arrays."""
from __future__ import annotations

import os

import pyopl

_LP = """range I = 1..3;
dvar float+ x[I] in 0..5;
maximize sum(i in I) i * x[i];
subject to { sum(i in I) x[i] <= 7; }
"""
# by hand: x[3] = 5 (best ratio), then x[2] = 2: values [0 2 5]


def test_get_cplex_time_measures_elapsed_seconds():
    """IBM page "Using the timing interface in callbacks" (getCplexTime returns the current time
    stamp in seconds; two stamps give the elapsed time)."""
    r = pyopl.solve(_LP + """execute {
  var t0 = cplex.getCplexTime();
  var s = 0; for (var k = 0; k < 2000; k++) s += k;
  var dt = cplex.getCplexTime() - t0;
  writeln(typeof t0, " ", dt >= 0, " ", dt < 60);
}""")
    assert r.script_output.strip() == "number true true"


def test_solution_value_of_a_whole_array():
    """IBM ILOG Script for OPL reference, IloNumVar "solutionValue" (read on a whole array of
    decisions it is an array of values, as IBM's column-generation example reads it)."""
    r = pyopl.solve(_LP + 'execute { var v = x.solutionValue; writeln(v, " ", v[2] + v[3]); }')
    assert r.script_output.strip() == "[0 2 5] 7"


def test_fail_stops_the_block_with_an_error():
    """IBM page "Miscellaneous functions" (fail(): stops the block at the call and reports an error)."""
    text = 'int n = 0;\nexecute { writeln("A"); if (n <= 0) fail(); writeln("B"); }\ndvar float+ x;\nminimize x;'
    errs = [d for d in pyopl.check(text) if d.is_error]
    assert [(d.code, d.span.line) for d in errs] == [("OPL1067", 2)]
    assert pyopl.solve(text.replace("n = 0", "n = 1")).script_output.splitlines() == ["A", "B"]


def test_output_file_exists_and_resolve_path(tmp_path):
    """IBM ILOG Script for OPL reference, IloOplOutputFile ("exists") and IloOplModel ("resolvePath")."""
    mod = tmp_path / "m.mod"
    mod.write_text(_LP + """execute {
  var f = new IloOplOutputFile("res.txt");
  writeln(f.exists);
  f.writeln(x.solutionValue); f.close();
  writeln(f.exists, " ", thisOplModel.resolvePath("res.txt") == "%s");
}""" % os.path.realpath(tmp_path / "res.txt"))
    r = pyopl.solve(mod)
    assert r.script_output.splitlines() == ["false", "true true"]
    assert (tmp_path / "m.out" / "res.txt").read_text() == "[0 2 5]\n"  # the output folder beside the model


def test_print_conflict_after_an_infeasible_solve():
    """IBM ILOG Script for OPL reference, IloOplModel "printConflict" (the conflicting constraints,
    "to a string": IBM's conflictIterator and support samples print it with `writeln(...printConflict())`).
    By hand: `low` (x >= 3) and `high` (x <= 1) cannot both hold, so both are in the conflict; the
    call returns the text (a string) and prints nothing itself, so the conflict shows once."""
    text = """dvar float+ x;
minimize x;
subject to { low: x >= 3; high: x <= 1; }
main {
  thisOplModel.generate();
  if (!cplex.solve()) {
    var text = thisOplModel.printConflict();
    writeln(typeof text, " ", text.indexOf("low") >= 0, " ", text.indexOf("high") >= 0);
    writeln(thisOplModel.printConflict());
  }
}"""
    r = pyopl.solve(text)
    lines = r.script_output.splitlines()
    assert lines[0] == "string true true"
    rest = "\n".join(lines[1:])
    assert rest.count("cannot hold") == 1 and "low" in rest and "high" in rest  # printed once, by writeln
    feasible = "dvar float+ x;\nminimize x;\nsubject to { x >= 3; }\nmain { thisOplModel.generate(); cplex.solve(); " \
               "writeln(\"[\", thisOplModel.printConflict(), \"]\"); }"
    assert pyopl.solve(feasible).script_output == "[]\n"  # no infeasible solve: no conflict


def test_writeln_of_a_tuple_with_an_array_field():
    """IBM page "Tuples" (a tuple field may be an array); writeln shows it as OPL prints arrays,
    never an internal name."""
    text = """tuple Pattern { int id; int fill[1..3]; }
{Pattern} P = ...;
execute { for (var p in P) writeln(p); }
dvar float+ x;
minimize x;"""
    r = pyopl.solve(text, data="P = {<1, [2, 0, 1]>, <2, [0, 3, 0]>};", source="text")
    assert r.script_output.splitlines() == ["<1 [2 0 1]>", "<2 [0 3 0]>"]


def test_input_file_beside_the_model_is_read_and_confined(tmp_path):
    """IBM ILOG Script for OPL reference, IloOplInputFile (readline, eof): a script reads values from
    a file beside the model; a name leading out of the model's folder is refused (OPL1056)."""
    (tmp_path / "vals.txt").write_text("3\n4.5\n")
    mod = tmp_path / "m.mod"
    mod.write_text("""float v[1..2];
execute {
  var f = new IloOplInputFile("vals.txt");
  var k = 1;
  while (!f.eof) { v[k] = parseFloat(f.readline()); k++; }
  f.close();
}
dvar float+ x;
minimize x;
subject to { x >= v[1] + v[2]; }
""")
    assert pyopl.solve(mod).objective == 7.5
    mod.write_text('execute { var f = new IloOplInputFile("../outside.txt"); }\ndvar float+ x;\nminimize x;\n')
    assert [d.code for d in pyopl.check(mod) if d.is_error] == ["OPL1056"]


def test_constraint_bounds_and_coefficients_change_between_solves():
    """IBM ILOG Script for OPL reference, IloConstraint (LB, UB, setCoef) and IloCplex (setObjCoef):
    the cutting-stock style loop changes the model between solves; optima worked out by hand."""
    text = """dvar float+ x in 0..10;
dvar float+ y in 0..10;
maximize x + 2 * y;
subject to { cap: x + y <= 12; }
main {
  thisOplModel.generate();
  cplex.solve(); writeln(cplex.getObjValue());
  thisOplModel.cap.UB = 8; cplex.solve(); writeln(cplex.getObjValue());
  thisOplModel.cap.setCoef(thisOplModel.y, 2); cplex.solve(); writeln(cplex.getObjValue());
  cplex.setObjCoef(thisOplModel.x, 5); cplex.solve(); writeln(cplex.getObjValue());
}"""
    # 22: y = 10, x = 2; 16: y = 8; x + 2y <= 8: 8; 5x + 2y with x + 2y <= 8, x <= 8: 40
    assert pyopl.solve(text).script_output.splitlines() == ["22", "16", "8", "40"]


def test_constraint_bounds_cannot_change_after_the_solve():
    """Outside `main` a constraint is fixed once generated (IBM: its bounds change only in flow control)."""
    text = "dvar float+ x;\nminimize x;\nsubject to { c: x >= 1; }\nexecute { c.UB = 3; }"
    r = pyopl.solve(text)
    assert [d.code for d in r.diagnostics if d.is_error] == ["OPL1053"]


def test_export_model_to_the_output_folder(tmp_path):
    """IBM ILOG Script for OPL reference, IloCplex "exportModel": the generated model written as LP,
    into the run's output folder (beside the model, `m.out/`), never elsewhere."""
    mod = tmp_path / "m.mod"
    mod.write_text("""dvar float+ x in 0..10;
maximize x;
subject to { c: x <= 4; }
main { thisOplModel.generate(); cplex.exportModel("m.lp"); cplex.solve(); writeln(cplex.getObjValue()); }
""")
    r = pyopl.solve(mod)
    assert r.script_output.strip() == "4"
    lp = (tmp_path / "m.out" / "m.lp").read_text()
    assert "c:" in lp and "x <= +4" in lp.replace("+1 x", "x")
    mod.write_text(mod.read_text().replace('"m.lp"', '"../escape.lp"'))
    r = pyopl.solve(mod)
    assert "OPL1056" in [d.code for d in r.diagnostics] and not (tmp_path.parent / "escape.lp").exists()
