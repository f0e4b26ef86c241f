"""`cp.param.*` and `cp.setSearchPhases` in the scripts of `using CP;` models, mapped to CP-SAT."""
from __future__ import annotations

import math

import pytest

import pyopl

pytest.importorskip("ortools")

MODEL = """using CP;
dvar int x[1..4] in 1..4;
execute {
  cp.param.TimeLimit = 30;
  cp.param.Workers = 2;
  cp.param.RandomSeed = 5;
  cp.param.FailLimit = 100000;
  cp.param.LogVerbosity = "Quiet";
  var f = cp.factory;
  cp.setSearchPhases(f.searchPhase(x));
  cp.param.DefaultInferenceLevel = "Extended";
  writeln(cp.param.TimeLimit, " ", cp.param.Workers);
}
maximize sum(i in 1..4) i * x[i];
subject to { allDifferent(x); }"""


def test_cp_parameters_reach_cpsat_and_unmapped_ones_are_warned_about():
    model = pyopl.compile_model(MODEL)
    r = model.solve()
    assert r.status == "optimal" and r.objective == 1 * 1 + 2 * 2 + 3 * 3 + 4 * 4
    opts = model.last_options
    assert (opts.time_limit, opts.threads, opts.seed) == (30, 2, 5)
    assert opts.extra["max_number_of_conflicts"] == 100000
    assert r.extra["workers"] == 2
    assert r.script_output.strip() == "30 2"
    warned = {(d.code, d.line) for d in model.diagnostics if d.severity == "warning"}
    assert ("OPL1058", 10) in warned and ("OPL1058", 11) in warned  # setSearchPhases, DefaultInferenceLevel
    assert not any(line in (4, 5, 6, 7, 8) for _c, line in warned)  # the mapped ones and the log's are quiet


def test_explicit_arguments_win_over_cp_param():
    model = pyopl.compile_model(MODEL)
    model.solve(threads=1, time_limit=5)
    assert (model.last_options.threads, model.last_options.time_limit) == (1, 5)


def test_a_cp_parameter_needs_a_number_and_an_unknown_one_is_named():
    model = pyopl.compile_model("using CP;\ndvar int x in 0..3;\nexecute { cp.param.TimeLimt = 3; }\nminimize x;")
    w = [d for d in model.diagnostics if d.code == "OPL1058"]
    assert w and w[0].help == "did you mean `TimeLimit`?" and (w[0].line, w[0].column) == (3, 20)
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model('using CP;\ndvar int x in 0..3;\nexecute { cp.param.TimeLimit = "ten"; }\nminimize x;')
    d = e.value.diagnostics[0]
    assert "takes a number" in d.message and d.line == 3


def test_cp_parameters_in_any_case_ibm_accepts():
    # IBM's "Setting CP parameters" writes cp.param.timeLimit; scripts also write timelimit and workers
    model = pyopl.compile_model("""using CP;
    dvar int x in 0..3;
    execute { cp.param.timelimit = 7; cp.param.workers = 1; cp.param.logPeriod = 1000;
              cp.param.optimalityTolerance = 0; writeln(cp.param.TimeLimit); }
    minimize x;""")
    r = model.solve()
    assert (model.last_options.time_limit, model.last_options.threads) == (7, 1)
    assert r.script_output.strip() == "7"
    assert not [d for d in model.diagnostics if d.code == "OPL1058"]


SEARCH = """using CP;
dvar int x[1..3] in 0..3;
%s
subject to { x[1] + x[2] + x[3] == 4; x[1] != x[2]; }
main {
  thisOplModel.generate();
  %s
}"""


def test_cp_solve_in_main_resolves_after_a_bound_change():
    # maximise x[1]*x[3], then again with x[1] <= 1 (brute force below)
    text = SEARCH % ("maximize x[1] * x[3];", """
      cp.solve(); var a = cp.getObjValue();
      thisOplModel.x[1].UB = 1;
      cp.solve(); writeln(a, " ", cp.getObjValue(), " ", cp.getObjBound());""")
    r = pyopl.compile_model(text).solve(threads=1)
    sols = [x for x in __import__("itertools").product(range(4), repeat=3) if sum(x) == 4 and x[0] != x[1]]
    a = max(x[0] * x[2] for x in sols)
    b = max(x[0] * x[2] for x in sols if x[0] <= 1)
    assert r.script_output.split() == [str(a), str(b), str(b)] and r.status == "optimal" and r.objective == b


def test_start_new_search_and_next_enumerate_every_solution():
    text = SEARCH % ("", """
      cp.startNewSearch(); var n = 0;
      while (cp.next()) { n++; write(thisOplModel.x[1], thisOplModel.x[2], thisOplModel.x[3], " "); }
      cp.endSearch(); writeln(); writeln(n);""")
    r = pyopl.compile_model(text).solve(threads=1)
    lines = r.script_output.strip().splitlines()
    sols = {"%d%d%d" % x for x in __import__("itertools").product(range(4), repeat=3)
            if sum(x) == 4 and x[0] != x[1]}
    assert set(lines[0].split()) == sols and int(lines[1]) == len(sols)


def test_start_new_search_with_an_objective_ends_at_the_optimum():
    text = SEARCH % ("minimize 5 * x[1] + 3 * x[2] + x[3];", """
      cp.startNewSearch(); var last = -1; var better = true;
      while (cp.next()) { if (last >= 0 && cp.getObjValue() >= last) better = false; last = cp.getObjValue(); }
      writeln(last, " ", better, " ", cp.info.NumberOfSolutions >= 1);""")
    r = pyopl.compile_model(text).solve(threads=1)
    best = min(5 * x[0] + 3 * x[1] + x[2] for x in __import__("itertools").product(range(4), repeat=3)
               if sum(x) == 4 and x[0] != x[1])
    assert r.script_output.split() == [str(best), "true", "true"]


def test_starting_point_kpi_and_export_are_accepted(tmp_path):
    text = SEARCH % ("dexpr float ratio = x[1] / (x[2] + 1);\nminimize x[1] + 2 * x[2];", """
      var sol = new IloOplCPSolution();
      sol.setValue(thisOplModel.x[1], 3); sol.setValue(thisOplModel.x[2], 1);
      cp.setStartingPoint(sol);
      cp.addKPI(ratio, "ratio");
      cp.exportModel("m.cpo");
      if (cp.solve()) writeln(cp.getObjValue());""")
    model = pyopl.compile_model(text, output_dir=str(tmp_path))
    r = model.solve(threads=1)
    best = min(x[0] + 2 * x[1] for x in __import__("itertools").product(range(4), repeat=3)
               if sum(x) == 4 and x[0] != x[1])
    assert r.script_output.strip() == str(best)
    assert [d.code for d in r.diagnostics if d.severity == "warning"] == []
    assert "minimize(x_1 + 2*x_2);" in (tmp_path / "m.cpo").read_text()  # exportModel: the .cpo (cpo_export.py)


def test_cp_solve_outside_main_says_where_it_runs():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\ndvar int x in 0..3;\nexecute { cp.solve(); }\nminimize x;")
    d = e.value.diagnostics[0]
    assert "only in a `main` block" in d.message and d.line == 3


def test_print_conflict_on_an_infeasible_cp_model():
    linear = SEARCH.replace("x[1] + x[2] + x[3] == 4;", "x[1] + x[2] + x[3] >= 10;") % (
        "", "if (!cp.solve()) write(thisOplModel.printConflict());")
    out = pyopl.compile_model(linear).solve(threads=1).script_output
    assert out.startswith("infeasible: x[1] + x[2] + x[3] >= 10 and the bounds x[1] <= 3, x[2] <= 3, x[3] <= 3")
    glob = SEARCH.replace("x[1] != x[2];", "allDifferent(x); x[1] + x[2] + x[3] == 9;").replace(
        "x[1] + x[2] + x[3] == 4;", "") % ("", "if (!cp.solve()) write(thisOplModel.printConflict());")
    r = pyopl.compile_model(glob).solve(threads=1)  # 0..3 distinct sums to 6 at most: infeasible
    # both take part (pyopl/backends/cp/conflict.py): without the sum any distinct values do, and
    # without allDifferent 3 + 3 + 3 == 9
    assert r.status == "infeasible" and r.script_output.startswith(
        "infeasible: x[1] + x[2] + x[3] == 9, allDifferent(...) over 3 expressions cannot hold together")


def test_strings_added_to_numeric_tuple_fields_become_numbers():
    # IBM's CSV-reading examples split a line and add the strings to a tuple set with float fields
    model = pyopl.compile_model("""using CP;
    tuple P { int id; float w; string tag; }
    {P} ps;
    execute { var ar = "7;2.5;x".split(";"); ps.add(ar[0], ar[1], ar[2]); ps.add(8, "0.25", "y"); }
    float total = sum(p in ps) p.w * p.id;
    dvar int z in 0..100;
    minimize z;
    subject to { z >= total; }""")
    r = model.solve(threads=1)
    assert r.status == "optimal" and r.objective == math.ceil(7 * 2.5 + 8 * 0.25)


def test_an_empty_set_declared_for_results_is_filled_after_the_solve():
    # IBM's floatexpr example: {solutionT} solution = {}; then solution.add(i, j, k) after the solve;
    # a set holding model data still cannot change then
    text = """using CP;
    dvar int i in 1..100; dvar int j in 1..100; dvar int k in 1..99;
    minimize k;
    subject to { i * (100 + k) == 100 * j; }
    tuple S { int i; int j; int k; }
    {S} solution = {};
    {int} used = {1};
    execute { solution.add(i, j, k); writeln(solution); }
    %s"""
    r = pyopl.compile_model(text % "").solve(threads=1)
    assert r.status == "optimal" and r.script_output.strip() == "{<50 51 2>}"  # i (100 + k) = 100 j, k least
    r = pyopl.compile_model(text % "execute { used.add(2); }").solve(threads=1)
    assert r.status == "script_error"
    assert any("after the solve it cannot change" in d.message for d in r.diagnostics)


def test_get_objective_set_coef_changes_the_next_solve():
    text = SEARCH % ("minimize 5 * x[1] + 3 * x[2] + x[3];", """
      cp.solve(); var a = cp.getObjValue();
      cp.getObjective().setCoef(thisOplModel.x[3], 7);
      cp.solve(); writeln(a, " ", cp.getObjValue(), " ", cp.getObjective().getValue());""")
    r = pyopl.compile_model(text).solve(threads=1)
    sols = [x for x in __import__("itertools").product(range(4), repeat=3) if sum(x) == 4 and x[0] != x[1]]
    a = min(5 * x[0] + 3 * x[1] + x[2] for x in sols)
    b = min(5 * x[0] + 3 * x[1] + 7 * x[2] for x in sols)
    assert r.script_output.split() == [str(a), str(b), str(b)]


def test_indexing_by_a_decision_after_a_solve_without_solution_says_so():
    # issue 45 (challenge2019july): `letters[x[i]]` in post-processing after a solve that found no
    # solution said "index x[1] is outside the index set"; x[1] + x[2] >= 7 over 1..3 is infeasible
    r = pyopl.solve("""using CP;
string letters[1..3] = ["a", "b", "c"];
dvar int x[1..2] in 1..3;
subject to { x[1] + x[2] >= 7; }
execute { writeln(letters[x[1]]); }
main { thisOplModel.generate(); cp.solve(); thisOplModel.postProcess(); }""")
    d = [d for d in r.diagnostics if d.code == "OPL1060"]
    assert d and d[0].message == "`x[1]` has no value: the solve ended `infeasible` without a solution"
    assert d[0].span.line == 5


def test_opl_interval_functions_read_the_solution_in_a_script():
    """`Opl.presenceOf(a)`, `Opl.startOf(a[, absVal])`, `endOf`, `sizeOf`, `lengthOf` after a CP solve (IBM's
    VRP example reads `Opl.presenceOf(truck[veh])`). By hand: `a` (size 3) must end by 3, so it is [0, 3);
    `b` is optional and absent because its presence would cost 10; startOf(b, -1) is the absent value -1."""
    r = pyopl.solve("""using CP;
dvar interval a size 3;
dvar interval b optional size 2;
minimize endOf(a) + 10 * presenceOf(b);
subject to { endOf(a) <= 3; }
execute {
  writeln(Opl.presenceOf(a), " ", Opl.startOf(a), " ", Opl.endOf(a), " ", Opl.sizeOf(a), " ", Opl.lengthOf(a));
  writeln(Opl.presenceOf(b), " ", Opl.startOf(b, -1), " ", Opl.endOf(b));
  if (1 == Opl.presenceOf(a)) writeln("a is present");
}
""", source="text")
    assert r.status == "optimal"
    assert r.script_output.splitlines() == ["true 0 3 3 3", "false -1 0", "a is present"]


def test_opl_interval_function_of_a_number_is_named():
    r = pyopl.solve("using CP;\ndvar int x in 0..2;\nminimize x;\nexecute { writeln(Opl.startOf(x)); }\n",
                    source="text")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert (d.code, d.line, d.column) == ("OPL1055", 4, 19)
    assert "`Opl.startOf` takes one interval variable" in d.message
