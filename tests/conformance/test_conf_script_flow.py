"""Script objects of IBM's ILOG Script for OPL reference that the conformance table listed as not
supported before: IloOplOutputString, iterating a model's elements, solveFixed, clearModel, the
solution pool (populate / solnPoolNsolns / setPoolSolution / getObjValue(k)), printRelaxation and
applyOpsSettings.  Each example is ours, after the one on IBM's page; expected values by hand."""
from __future__ import annotations

import pytest

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


# Three sites, two to open: the pairs cost {1,3}: 3 + 4 = 7, {1,2}: 8, {2,3}: 9 (by hand).
_SITES = """range W = 1..3;
float cost[W] = [3, 5, 4];
dvar boolean open[W];
minimize sum(w in W) cost[w] * open[w];
subject to { sum(w in W) open[w] == 2; }
main {
  %s
  thisOplModel.generate();
  cplex.solve();
  if (cplex.populate()) {
    var n = cplex.solnPoolNsolns;
    var lines = new Array();
    for (var s = 0; s < n; s++) {
      thisOplModel.setPoolSolution(s);
      var c = 0;
      for (var w in thisOplModel.W) c += thisOplModel.cost[w] * thisOplModel.open[w];
      lines[s] = cplex.getObjValue(s) + " " + c;
    }
    writeln(n, ": ", lines.sort().join(", "));
  }
}"""


def test_populate_fills_gurobis_pool():
    """IBM page "How the flow control script works" (solpoolscript.mod: populate, solnPoolNsolns,
    setPoolSolution(s), getObjValue(s)); Gurobi's n-best pool holds all three pairs, and each member's
    values give its own objective."""
    pytest.importorskip("gurobipy")
    r = pyopl.solve(_SITES % "", solver="gurobi")
    assert r.script_output.strip() == "3: 7 7, 8 8, 9 9"


def test_populatelim_sizes_gurobis_pool_without_a_warning():
    """`cplex.populatelim = 2` is read by `populate()` on every solver (Gurobi's PoolSolutions), so no
    "has no equivalent in Gurobi" warning (OPL1058) may name it; the pool keeps the two best pairs,
    7 and 8 (by hand, as above)."""
    pytest.importorskip("gurobipy")
    r = pyopl.solve(_SITES % "cplex.populatelim = 2;", solver="gurobi")
    assert r.script_output.strip() == "2: 7 7, 8 8"
    assert [d.code for d in r.diagnostics if d.code == "OPL1058"] == []


def test_populatelim_out_of_range_is_an_error_and_zero_keeps_the_incumbent():
    """IBM's CPLEX Parameters Reference, PopulateLim: "Any nonnegative integer" (populate generates no
    more solutions at 0). Before: a negative value, or 0, was silently read as the default 20."""
    r = pyopl.solve(_SITES % "cplex.populatelim = -3;", solver="highs")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert (d.code, d.span.line, d.span.column) == ("OPL1055", 7, 9)
    assert d.message == "`cplex.populatelim` takes a number from 0 to 2147483647, not -3"
    pytest.importorskip("gurobipy")
    assert pyopl.solve(_SITES % "cplex.populatelim = 0;", solver="gurobi").script_output.strip() == "1: 7 7"


def test_populate_on_cplex_with_aggressive_intensity():
    """The same example on CPLEX: with the pool intensity at 4 (IBM's parameter page: "enumerates all
    practical solutions") its populate finds the three pairs."""
    pytest.importorskip("cplex")
    r = pyopl.solve(_SITES % "cplex.solnpoolintensity = 4;", solver="cplex")
    assert r.script_output.strip() == "3: 7 7, 8 8, 9 9"


def test_populate_on_highs_warns_and_keeps_one_solution():
    """HiGHS has no solution pool: the solve runs as `solve()`, the pool holds its solution and a
    warning (OPL1068) at the call names the method."""
    r = pyopl.solve(_SITES % "", solver="highs")
    assert r.script_output.strip() == "1: 7 7"
    warns = [d for d in r.diagnostics if d.code == "OPL1068"]
    assert len(warns) == 1 and warns[0].severity == "warning" and (warns[0].span.line, warns[0].span.column) == (10, 7)
    assert "`cplex.populate()`" in warns[0].message and "highs" in warns[0].message


def test_the_text_report_lists_the_pools_objectives():
    """docs/scripting.md: "The run's report lists the last pool's objectives"; before, only the JSON
    (`pool_objectives`) had them. On HiGHS the pool is the one solution, 7 (by hand, as above)."""
    from pyopl.results.report import text_report

    r = pyopl.solve(_SITES % "", solver="highs")
    assert r.extra["pool_objectives"] == [7.0]
    assert "solution pool: 1 solution, objectives 7" in text_report(r, None).splitlines()


def test_pool_index_outside_the_pool():
    """`getObjValue(k)` with k past the pool: an error naming the pool's size (OPL1052)."""
    text = _SITES.replace("lines[s] = cplex.getObjValue(s)", "lines[s] = cplex.getObjValue(s + 5)")
    r = pyopl.solve(text % "", solver="highs")
    errs = [d for d in r.diagnostics if d.is_error]
    assert r.status == "script_error" and [(d.code, d.span.line) for d in errs] == [("OPL1052", 17)]
    assert "the pool has 1 solution, numbered 0 to 0; 5 is not one" in errs[0].message


_FIXED = """dvar int x in 0..10;
dvar float+ y;
maximize 3 * x + y;
subject to { ct: x + y <= 4.5; cap: y <= 2; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(cplex.getObjValue());
  cplex.solveFixed();
  writeln(cplex.getObjValue(), " ", thisOplModel.ct.dual, " ", thisOplModel.cap.dual, " ", thisOplModel.x);
}"""


def test_solve_fixed_gives_the_duals_of_the_fixed_lp():
    """IBM ILOG Script for OPL reference, IloCplex "solveFixed" (solves the fixed active model: the
    integers at the incumbent). By hand: x = 4, y = 0.5, objective 12.5; with x fixed, one more unit
    of `ct` gives one more unit of y: dual 1; `cap` is slack: dual 0."""
    r = pyopl.solve(_FIXED)
    assert r.script_output.splitlines() == ["12.5", "12.5 1 0 4"]


def test_a_mip_dual_read_without_solve_fixed_points_to_it():
    """Reading `ct.dual` after a MIP solve is OPL1060; its help names `cplex.solveFixed()` (the
    script's way to those duals, test above) before the command-line `--duals`."""
    r = pyopl.solve(_FIXED.replace("  cplex.solveFixed();\n", ""), solver="highs")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert d.code == "OPL1060" and (d.span.line, d.span.column) == (9, 53)  # `dual` of `ct.dual`
    assert d.message == "the solver reported no dual for `ct` (a MIP has no duals)"
    assert "`cplex.solveFixed()`" in d.help


def test_clear_model_forgets_the_generated_model():
    """IBM ILOG Script for OPL reference, IloCplex "clearModel": after it `cplex` has no model until
    the next `generate()`."""
    r = pyopl.solve("""dvar float x in 0..3;
maximize x;
main {
  thisOplModel.generate();
  cplex.clearModel();
  try { cplex.solve(); } catch (e) { writeln("no model"); }
  thisOplModel.generate();
  writeln(cplex.solve(), " ", cplex.getObjValue());
}""")
    assert r.script_output.splitlines() == ["no model", "true 3"]


def test_print_relaxation_moves_the_cheapest_bound():
    """IBM support page "Display conflict and relaxation information for infeasible models using OPL
    script" (printRelaxation after a failed solve) and the OPL manual ("only labeled constraints are
    considered by the relaxation"). By hand: with x = t between 20 and 40 the relaxation costs
    (t - 20) for `cap` plus 2 (40 - t) for `demand`, least at t = 40: `cap` goes up to 40 and
    nothing else moves; the unlabelled `x <= 90` is never relaxed."""
    r = pyopl.solve("""dvar int x in 0..100;
dvar int+ y;
maximize x + 2 * y;
subject to {
  cap: x <= 20;
  demand: 2 * x >= 80;
  other: y <= 5;
  x <= 90;
}
main {
  thisOplModel.generate();
  if (!cplex.solve()) {
    var n = thisOplModel.printRelaxation();
    writeln("relaxed: ", n);
  }
}""")
    assert r.script_output.splitlines() == ["cap: bounds [-infinity, 20] relaxed to [-infinity, 40]", "relaxed: 1"]


def test_print_relaxation_names_a_model_only_unlabelled_rows_make_infeasible():
    """An infeasibility no labelled constraint can lift (the unlabelled rows conflict): an error at the
    call that says so (OPL1057), never a made-up relaxation."""
    r = pyopl.solve("""dvar float x in 0..10;
minimize x;
subject to { x >= 20; lab: x <= 8; }
main { thisOplModel.generate(); if (!cplex.solve()) thisOplModel.printRelaxation(); }""")
    errs = [d for d in r.diagnostics if d.is_error]
    assert [(d.code, d.span.line) for d in errs] == [("OPL1057", 4)]
    assert "relaxing the labelled constraints cannot make the model feasible" in errs[0].message


_OPS = """<?xml version="1.0" encoding="UTF-8"?>
<settings version="2">
  <category name="cplex">
    <setting name="tilim" value="30"/>
    <setting name="epgap" value="0.25"/>
  </category>
  <category name="opl">
    <setting name="displayWidth" value="80"/>
  </category>
</settings>
"""


def test_apply_ops_settings_reads_the_cplex_category(tmp_path):
    """IBM OplModel reference, applyOpsSettings ("apply the settings to OPL and the needed engine",
    e.g. `applyOpsSettings(0, "mytrans.ops")`): the `cplex` settings become parameters as
    `cplex.tilim = 30` would; the `opl` display setting is named in a warning (OPL1058)."""
    (tmp_path / "m.mod").write_text("""dvar float x in 0..10;
maximize x;
main {
  thisOplModel.applyOpsSettings(null, "m.ops");
  writeln(cplex.tilim, " ", cplex.epgap);
  thisOplModel.generate();
  writeln(cplex.solve(), " ", cplex.getObjValue());
}""")
    (tmp_path / "m.ops").write_text(_OPS)
    r = pyopl.solve(tmp_path / "m.mod")
    assert r.script_output.splitlines() == ["30 0.25", "true 10"]
    warns = [d for d in r.diagnostics if d.code == "OPL1058"]
    assert len(warns) == 1 and "`displayWidth` (category `opl`)" in warns[0].message and warns[0].span.line == 4


def test_apply_ops_settings_refuses_a_file_it_cannot_read(tmp_path):
    """A settings file with a DTD or broken XML is refused at the call (OPL1069), a missing one is
    OPL1061, one outside the model's folder OPL1065's family (confined as every input)."""
    main = 'dvar float x;\nminimize x;\nmain { thisOplModel.applyOpsSettings(null, "%s"); }'
    cases = {"dtd.ops": ('<!DOCTYPE s [<!ENTITY a "b">]><settings/>', "OPL1069", "declares a DTD"),
             "bad.ops": ("<settings><category>", "OPL1069", "not well-formed XML"),
             "root.ops": ("<project/>", "OPL1069", "has the root `<project>`"),
             "none.ops": (None, "OPL1061", "does not exist")}
    # issue 42 (minor): the same DTD saved as UTF-16 passed the byte test and reached the parser (expat
    # reads UTF-16); UTF-32, which expat does not read, is refused as unreadable XML
    for enc, words in (("utf-16", "declares a DTD"), ("utf-32", "not well-formed XML")):
        cases["dtd-%s.ops" % enc] = ('<?xml version="1.0" encoding="%s"?>\n<!DOCTYPE s [<!ENTITY a "b">]>'
                                     '<settings>&a;</settings>' % enc, "OPL1069", words)
    for name, (text, code, words) in cases.items():
        if text is not None:
            enc = "utf-16" if "utf-16" in name else "utf-32" if "utf-32" in name else "utf-8"
            (tmp_path / name).write_bytes(text.encode(enc))
        (tmp_path / "m.mod").write_text(main % name)
        errs = [d for d in pyopl.solve(tmp_path / "m.mod").diagnostics if d.is_error]
        assert [(d.code, d.span.line, d.span.column) for d in errs] == [(code, 3, 8)], name
        assert words in errs[0].message, (name, errs[0].message)


def test_input_file_exists_and_is_open_are_properties(tmp_path):
    """IBM ILOG Script for OPL reference, class IloOplInputFile (its example tests `f.exists` of a file
    that may be missing before reading it to `eof`; `isOpen` is a property) and IloOplOutputFile
    (`isOpen`, a property too)."""
    (tmp_path / "m.mod").write_text("""dvar float+ x;
minimize x;
execute {
  var g = new IloOplInputFile("missing.txt");
  writeln(g.exists, " ", g.isOpen);
  var f = new IloOplInputFile("notes.txt");
  if (f.exists) { var n = 0; while (!f.eof) { f.readline(); n++; } writeln(n, " ", f.isOpen); f.close(); writeln(f.isOpen); }
  var o = new IloOplOutputFile("out.txt");
  writeln(o.isOpen); o.close(); writeln(o.isOpen);
}""")
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    r = pyopl.solve(tmp_path / "m.mod")
    assert r.script_output.splitlines() == ["false false", "3 true", "false", "true", "false"]


def test_include_script_runs_a_file_as_global_code(tmp_path):
    """IBM page "Miscellaneous functions" (includeScript(string): loads the script file and runs it;
    loadFile does the same): its functions and vars become globals; a syntax error in the file points
    into the file (OPL1000)."""
    (tmp_path / "lib.js").write_text('function twice(v) { return 2 * v; }\nvar greeting = "hi";\n')
    (tmp_path / "bad.js").write_text("var ok = 1;\nfunction broken( { }\n")
    (tmp_path / "m.mod").write_text('int n = 4;\nexecute { includeScript("lib.js"); loadFile("lib.js"); '
                                    'writeln(greeting, " ", twice(n)); }\ndvar float+ x;\nminimize x;\n')
    assert pyopl.solve(tmp_path / "m.mod").script_output.strip() == "hi 8"
    (tmp_path / "m.mod").write_text('execute { includeScript("bad.js"); }\ndvar float+ x;\nminimize x;\n')
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(tmp_path / "m.mod")
    errs = [d for d in e.value.diagnostics if d.is_error]
    assert [(d.code, d.span.file.endswith("bad.js"), d.span.line) for d in errs] == [("OPL1000", True, 2)]
    assert "loaded by `includeScript`" in errs[0].message


def test_populate_on_scip_reads_the_solutions_it_kept():
    """SCIP has no populate search: its pool is the solutions it kept while solving, the optimum among
    them; every member's values give its own objective (the lines pair them)."""
    pytest.importorskip("pyscipopt")
    out = pyopl.solve(_SITES % "", solver="scip").script_output.strip()
    n, rest = out.split(": ")
    pairs = rest.split(", ")
    assert int(n) == len(pairs) >= 1 and "7 7" in pairs
    assert all(p.split()[0] == p.split()[1] and p.split()[0] in ("7", "8", "9") for p in pairs)


def test_a_populate_run_reports_as_json(tmp_path):
    """The pool's column values stay out of the result; its JSON report (`--format json`) lists the
    pool's objectives (here HiGHS's one solution, 7)."""
    import json
    import subprocess
    import sys

    (tmp_path / "m.mod").write_text(_SITES % "")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(tmp_path / "m.mod"), "--solver", "highs",
                        "--format", "json"], capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "optimal" and out["pool_objectives"] == [7.0]


def test_print_relaxation_of_a_feasible_model_prints_nothing():
    """A feasible model needs no relaxation: nothing printed, 0 returned."""
    r = pyopl.solve("""dvar float x in 0..10;
maximize x;
subject to { cap: x <= 4; }
main { thisOplModel.generate(); cplex.solve(); writeln("n=", thisOplModel.printRelaxation()); }""")
    assert r.script_output.splitlines() == ["n=0"]
