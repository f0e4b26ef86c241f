"""`cp.param.*` and `cp.setSearchPhases` in the scripts of `using CP;` models, mapped to CP-SAT."""
from __future__ import annotations

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
