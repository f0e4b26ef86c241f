"""`main` flow control, solver settings from scripts, and confined output files."""
from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

import pyopl
from pyopl.cli import main as cli


def test_main_loop_solves_three_times_with_changed_bounds():
    # maximize x + 2y, x, y in 0..10, x + y <= 12; with y <= k: y = k, x = 10 (k <= 2) or 12 - k:
    # k=1: 10 + 2 = 12; k=2: 10 + 4 = 14; k=3: 9 + 6 = 15.
    text = """
dvar float+ x in 0..10;
dvar float+ y in 0..10;
maximize x + 2*y;
subject to { x + y <= 12; }
execute { writeln("  post x=", x); }
main {
  thisOplModel.generate();
  for (var k = 1; k <= 3; k++) {
    thisOplModel.y.UB = k;
    if (cplex.solve()) {
      writeln("k=", k, " obj=", cplex.getObjValue());
      thisOplModel.postProcess();
    }
  }
}
"""
    r = pyopl.solve(text)
    assert r.script_output.splitlines() == ["k=1 obj=12", "  post x=10", "k=2 obj=14", "  post x=10",
                                            "k=3 obj=15", "  post x=9"]
    assert r.objective == pytest.approx(15.0) and r.script_exit == 0


@pytest.mark.parametrize("stmt,message", [
    ("x.LB = NaN;", "the lower bound of `x` cannot be NaN"),
    ("x.LB = Infinity;", "the lower bound of `x` cannot be Infinity"),
    ("x.UB = -Infinity;", "the upper bound of `x` cannot be -Infinity"),
    ("x.UB = 1e18;", "the upper bound of `x` is 1000000000000000000, which no solver can take"),  # (1e20 and more: infinite)
    ("x.UB = y;", "the upper bound of `x` cannot be NaN"),  # a decision's value before any solve
])
def test_a_bound_no_solver_takes_is_refused_at_the_assignment_in_main(stmt, message):
    # the bounds `main` changes go to the solver without the builder's check (OPL0431): before this
    # they ended in OPL0605, "internal error ... please report it"
    text = ("dvar float+ x in 0..10;\ndvar float+ y in 0..10;\nmaximize x + y;\nmain {\n  thisOplModel.generate();\n"
            "  " + stmt + "\n  cplex.solve();\n}\n")
    r = pyopl.solve(text)
    d = [d for d in r.diagnostics if d.is_error]
    assert [x.code for x in d] == ["OPL1055"] and d[0].message == message and (d[0].line, d[0].column) == (6, 5)  # at `LB`/`UB`
    assert r.status == "script_error" and r.last_solve_status is None  # the run failed before any solve


def test_an_upper_bound_of_1e30_in_main_is_no_bound_as_in_cplex():
    # CPLEX reads bounds of 1e20 and more as infinite (issue 34, item 3): x is then bounded by c only
    text = ("dvar float+ x in 0..10;\nmaximize x;\nsubject to { c: x <= 25; }\nmain {\n  thisOplModel.generate();\n"
            "  x.UB = 1e30;\n  cplex.solve();\n}\n")
    r = pyopl.solve(text)
    assert [d.code for d in r.diagnostics if d.is_error] == [] and r.objective == 25


@pytest.mark.parametrize("value,status", [("Infinity", 0), ("-Infinity", 0), ("NaN", 0), ("2.9", 2), ("-0.5", 0),
                                          ("4294967299", 3), ("true", 1)])
def test_main_return_value_is_converted_as_the_script_engine_does(value, status):
    # ECMAScript ToInt32 (9.5); `return Infinity;` was "internal error in pyopl" (exit 3)
    text = "dvar float+ x in 0..1;\nmaximize x;\nmain {\n  thisOplModel.generate();\n  cplex.solve();\n  return %s;\n}\n"
    assert pyopl.solve(text % value).script_exit == status


def test_export_of_a_model_with_main_says_main_is_not_run(tmp_path, capsys):
    # the LP file holds y <= 10; `main` would solve with y <= 1: the export must not pass for that model
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float+ y in 0..10;\nmaximize y;\nmain {\n  thisOplModel.generate();\n"
                   "  thisOplModel.y.UB = 1;\n  cplex.solve();\n}\n", encoding="utf-8")
    assert cli(["export", str(mod), "--lp", str(tmp_path / "m.lp"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["notes"] == ["the model's `main` block is not run by export: the file holds the model as declared, "
                            "before any bound or data `main` changes"]
    assert cli(["export", str(mod), "--lp", str(tmp_path / "m2.lp")]) == 0
    assert "is not run by export" in capsys.readouterr().err


def test_two_models_and_changed_data_elements(tmp_path):
    # base: maximize x with x in 0..n, n = 2 from the data -> 2; sub.mod picks the largest c -> 5;
    # the base model again with n = 4 through dataElements -> 4; main returns 3 (the exit status).
    (tmp_path / "sub.mod").write_text("int n = ...;\nfloat c[1..n] = ...;\ndvar float+ z[1..n] in 0..1;\n"
                                      "maximize sum(i in 1..n) c[i]*z[i];\nsubject to { sum(i in 1..n) z[i] <= 1; }\n")
    (tmp_path / "sub.dat").write_text("n = 3;\nc = [1, 5, 2];\n")
    (tmp_path / "base.dat").write_text("n = 2;\n")
    (tmp_path / "base.mod").write_text("""
int n = ...;
dvar float+ x in 0..n;
maximize x;
subject to { x <= 5; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln("first ", cplex.getObjValue());
  var sub = new IloOplModel(new IloOplModelDefinition(new IloOplModelSource("sub.mod")), cplex);
  sub.addDataSource(new IloOplDataSource("sub.dat"));
  sub.generate();
  cplex.solve();
  writeln("sub ", cplex.getObjValue(), " z=", sub.z);
  var data = thisOplModel.dataElements;
  data.n = 4;
  var again = new IloOplModel(thisOplModel.modelDefinition, cplex);
  again.addDataSource(data);
  again.generate();
  cplex.solve();
  writeln("again ", cplex.getObjValue(), " n=", again.n);
  return 3;
}
""")
    r = pyopl.compile_model(tmp_path / "base.mod", tmp_path / "base.dat").solve()
    assert r.script_output.splitlines() == ["first 2", "sub 5 z=[0 1 0]", "again 4 n=4"]
    assert r.objective == pytest.approx(4.0)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli(["solve", str(tmp_path / "base.mod"), str(tmp_path / "base.dat")]) == 3


def test_main_model_source_outside_the_folder_is_refused(tmp_path):
    """The sub-model names of `main` are checked with the model (script/flow/submodels.py): refused at
    compile time, at the name, before anything runs."""
    (tmp_path / "m.mod").write_text('dvar float+ x in 0..1;\nmaximize x;\nmain {\n'
                                    '  var s = new IloOplModelSource("../other.mod");\n}\n')
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(tmp_path / "m.mod")
    d = [d for d in e.value.diagnostics if d.code == "OPL1056"][0]
    assert (d.line, d.column) == (4, 33) and "outside the model's folder" in d.message


@pytest.mark.parametrize("data", ["n = 2;", {"n": 2}])
def test_this_model_s_definition_of_a_model_given_as_text_is_its_text(data):
    """A model given as text has no file: `new IloOplModel(thisOplModel.modelDefinition, cplex)`
    compiles the same text again (it reported `file not found: <model>`)."""
    text = """int n = ...;
dvar float x;
maximize x;
subject to { x <= n; }
main {
  thisOplModel.generate(); cplex.solve(); writeln("first ", cplex.getObjValue());
  var data = thisOplModel.dataElements;
  data.n = 5;
  var again = new IloOplModel(thisOplModel.modelDefinition, cplex);
  again.addDataSource(data);
  again.generate(); cplex.solve(); writeln("again ", cplex.getObjValue(), " n=", again.n);
}
"""
    r = pyopl.compile_model(text, data).solve()
    assert [d.code for d in r.diagnostics] == [] and r.script_output.splitlines() == ["first 2", "again 5 n=5"]


def test_main_that_solves_nothing_says_so():
    r = pyopl.solve("dvar float+ x in 0..1;\nmaximize x;\nmain {\n  writeln(1);\n}\n")
    assert (r.status, r.message, r.script_exit) == ("not_solved", "the `main` block solved nothing", 0)


def test_cplex_tilim_reaches_the_solver_and_the_command_line_wins(monkeypatch):
    seen = []
    import pyopl.backends.mp.highs as highs

    real = highs.solve

    def spy(ir, options):
        seen.append(options)
        return real(ir, options)

    monkeypatch.setattr(highs, "solve", spy)
    text = ("execute { cplex.tilim = 42; cplex.epgap = 0.05; cplex.threads = 2; cplex.epint = 1e-6; }\n"
            "dvar int x in 0..3;\nmaximize x;\n")
    m = pyopl.compile_model(text)
    assert m.solve().objective == pytest.approx(3.0)
    o = seen[-1]
    assert (o.time_limit, o.mip_gap, o.threads) == (42, 0.05, 2)
    assert o.extra["mip_feasibility_tolerance"] == 1e-6
    m.solve(time_limit=7, mip_gap=0.5)
    assert (seen[-1].time_limit, seen[-1].mip_gap) == (7, 0.5)


@pytest.mark.parametrize("setting, message", [
    ("tilim = -1", "`cplex.tilim` takes a number >= 0, not -1"),
    ("threads = 1e12", "`cplex.threads` takes a number from 0 to 2147483647, not 1000000000000"),
    ("epgap = 2", "`cplex.epgap` takes a number from 0 to 1, not 2"),
])
def test_setting_out_of_its_range_is_an_error_at_the_assignment(setting, message):
    # before: the solver refused it at solve time, reported at `--option ?=:1:1` with a help about option names
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("dvar int x in 0..3;\nexecute {\n  cplex.%s;\n}\nmaximize x;\n" % setting)
    d = [d for d in e.value.diagnostics if d.code == "OPL1055"][0]
    assert d.message == message
    assert (d.line, d.column) == (3, 9)


def test_tilim_infinity_is_no_limit():
    m = pyopl.compile_model("execute { cplex.tilim = Infinity; }\ndvar int x in 0..3;\nmaximize x;\n")
    assert m.solve().objective == pytest.approx(3.0)


def test_unknown_setting_is_a_warning_naming_it():
    m = pyopl.compile_model("execute { cplex.tilimm = 5; }\ndvar float+ x in 0..1;\nmaximize x;\n")
    d = [d for d in m.diagnostics if d.code == "OPL1058"][0]
    assert "`cplex.tilimm`" in d.message and "tilim" in d.help and d.severity == "warning"


def test_setting_without_highs_equivalent_warns_at_solve():
    m = pyopl.compile_model("execute { cplex.mipemphasis = 1; }\ndvar int x in 0..1;\nmaximize x;\n")
    r = m.solve()
    d = [d for d in r.diagnostics if d.code == "OPL1058"][0]
    assert d.message == "`cplex.mipemphasis` has no equivalent in HiGHS; it is ignored" and d.line == 1


def test_output_file_is_written_in_the_models_output_folder(tmp_path):
    # the default output folder is `<model stem>.out` beside the model (docs/safety.md), made on the first file
    (tmp_path / "m.mod").write_text('dvar float+ x in 0..2;\nmaximize x;\nexecute {\n'
                                    '  var f = new IloOplOutputFile("res.txt");\n  f.writeln("x=", x);\n  f.close();\n}\n')
    pyopl.compile_model(tmp_path / "m.mod").solve()
    assert (tmp_path / "m.out" / "res.txt").read_text() == "x=2\n"
    assert sorted(os.listdir(tmp_path)) == ["m.mod", "m.out"]
    assert os.listdir(tmp_path / "m.out") == ["res.txt"]


def test_script_strings_with_surrogates_print_and_write(tmp_path, capsys):
    # a script string is UTF-16 code units: "\uD83D\uDE00" is one emoji and a lone surrogate is legal
    # (U+FFFD when printed); before, printing either was "internal error in pyopl" (exit 3)
    (tmp_path / "m.mod").write_text(
        '{string} S = {"a"};\nexecute { S.add("\\uD83D\\uDE00"); S.add("\\uDFFF"); }\n'
        'dvar float+ x[S] in 0..1;\nmaximize sum(s in S) x[s];\n'
        'execute {\n  writeln("<\\uD800>", "\\uD83D" + "\\uDE00");\n'
        '  var f = new IloOplOutputFile("res.txt");\n  f.writeln("\\uD83D\\uDE00|\\uDC00");\n  f.close();\n}\n',
        encoding="utf-8")
    rc = cli(["solve", str(tmp_path / "m.mod")])
    out = capsys.readouterr().out
    assert rc == 0
    assert 'x["\U0001F600"] = 1' in out and 'x["\uFFFD"] = 1' in out
    assert out.endswith("script output:\n<\uFFFD>\U0001F600\n")
    assert (tmp_path / "m.out" / "res.txt").read_text(encoding="utf-8") == "\U0001F600|\uFFFD\n"


def test_output_file_that_cannot_be_written_is_a_diagnostic(tmp_path, monkeypatch):
    import pyopl.files.safe_write as sw

    def full_disk(path, data, *, mode=None):
        raise sw.WriteError("OPL1123", str(path), "no space left on the device")

    monkeypatch.setattr(sw, "write_bytes_safely", full_disk)
    (tmp_path / "m.mod").write_text('execute {\n  var f = new IloOplOutputFile("o.txt");\n  f.write(7);\n'
                                    '  f.close();\n}\ndvar float+ x in 0..2;\nmaximize x;\n')
    assert not [d for d in pyopl.check(tmp_path / "m.mod") if d.is_error]  # check writes nothing: no failure
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(tmp_path / "m.mod")
    diags = e.value.diagnostics
    d = [d for d in diags if d.code == "OPL1064"][0]  # a diagnostic at the close(), not an internal error
    assert "`o.txt` could not be written: no space left on the device" in d.message
    assert d.line == 4 and not [x for x in diags if x.code == "OPL0605"]
    assert not (tmp_path / "m.out" / "o.txt").exists()
    (tmp_path / "m.mod").write_text('execute {\n  var f = new IloOplOutputFile("o.txt");\n  f.write(7);\n}\n'
                                    'dvar float+ x in 0..2;\nmaximize x;\n')  # left open: written at the end
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(tmp_path / "m.mod")
    assert [(d.code, d.line) for d in e.value.diagnostics if d.is_error] == [("OPL1064", 2)]


def test_output_dir_option(tmp_path):
    (tmp_path / "m.mod").write_text('execute { var f = new IloOplOutputFile("o.txt"); f.write(7); }\n'
                                    'dvar float+ x in 0..2;\nmaximize x;\n')
    out = tmp_path / "out"
    out.mkdir()
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli(["solve", str(tmp_path / "m.mod"), "--output-dir", str(out)]) == 0
    assert (out / "o.txt").read_text() == "7"
    assert not (tmp_path / "o.txt").exists()


@pytest.mark.parametrize("name,why", [("../o.txt", "leads out of the output folder (`..`)"),
                                      ("link/o.txt", "leads out of the output folder (through a symbolic link)"),
                                      ("nodir/o.txt", "does not exist")])
@pytest.mark.parametrize("how", ["check", "solve"])
def test_output_files_are_confined(tmp_path, name, why, how):
    outside = tmp_path.parent / ("outside-" + tmp_path.name)
    outside.mkdir()
    (tmp_path / "m.out").mkdir()
    os.symlink(outside, tmp_path / "m.out" / "link")
    text = 'execute {\n  var f = new IloOplOutputFile("%s");\n  f.close();\n}\ndvar float+ x in 0..2;\nmaximize x;\n' % name
    (tmp_path / "m.mod").write_text(text)
    if how == "check":
        diags = pyopl.check(tmp_path / "m.mod")
    else:
        with pytest.raises(pyopl.CompileError) as e:
            pyopl.compile_model(tmp_path / "m.mod")
        diags = e.value.diagnostics
    d = [d for d in diags if d.code == "OPL1056"][0]
    assert why in d.message and (d.line, d.column) == (2, 11)
    assert os.listdir(outside) == [] and os.listdir(tmp_path / "m.out") == ["link"]


def test_execute_cannot_call_solve_and_unsupported_globals_are_named():
    assert pyopl.check("dvar float+ x in 0..1;\nmaximize x;\nexecute { cplex.solve(); }\n") == []  # runs after a solve
    r = pyopl.solve("dvar float+ x in 0..1;\nmaximize x;\nexecute { cplex.solve(); }\n")
    d = [d for d in r.diagnostics if d.code == "OPL1057"][0]
    assert "`cplex.solve()` runs only in a `main` block" in d.message
    diags = pyopl.check('execute { IloOplCallJava("ls"); }\ndvar float+ x in 0..1;\nmaximize x;\n')
    assert "`IloOplCallJava` is not supported" in [d for d in diags if d.code == "OPL1057"][0].message


def test_iloplexec_runs_no_program_and_the_run_goes_on(tmp_path):
    """`IloOplExec(command)` runs nothing (docs/safety.md): a warning (OPL1081) names the command, the
    call's value is `undefined`, the script and the solve go on (optimum 0.5 by hand), and the file the
    command would have made does not exist."""
    marker = tmp_path / "made_by_the_command"
    mod = tmp_path / "m.mod"
    mod.write_text('dvar float+ x in 0..1;\nmaximize x;\nsubject to { x <= 0.5; }\n'
                   'execute { var r = IloOplExec("touch %s", true); writeln("after ", r); }\n' % marker)
    r = pyopl.solve(mod)
    assert r.status == "optimal" and r.objective == 0.5
    assert r.script_output == "after undefined\n"
    [w] = [d for d in r.diagnostics if d.code == "OPL1081"]
    assert w.severity == "warning" and w.line == 4 and w.message.startswith('`IloOplExec("touch /')
    assert not marker.exists()


def test_step_budget_ends_a_runaway_loop_and_can_be_raised():
    text = "execute { var i = 0; while (true) { i++; } }\ndvar float+ x in 0..1;\nmaximize x;\n"
    diags = pyopl.check(text, script_steps=10_000)
    assert [d.code for d in diags if d.is_error] == ["OPL1007"]
    ok = "execute { var s = 0; for (var i = 0; i < 30000; i++) s += i; }\ndvar float+ x in 0..1;\nmaximize x;\n"
    assert [d.code for d in pyopl.check(ok, script_steps=10_000) if d.is_error] == ["OPL1007"]
    assert not [d for d in pyopl.check(ok, script_steps=1_000_000) if d.is_error]


def test_dat_prepare_and_invoke_run(tmp_path):
    # OPL Language Quick Reference, "prepare": a function of the data's `prepare` block called by
    # `invoke` on the element once it is read (a brace inside a string does not end the block)
    (tmp_path / "m.mod").write_text("int n = ...;\nfloat c[1..n] = ...;\ndvar float+ x in 0..1;\nmaximize c[1]*x;\n")
    (tmp_path / "d.dat").write_text('prepare {\n  function f(v, name) { v[1] = v[1] * 10; return "}" != name; }\n}\n'
                                    'n = 2;\nc = [1, 2] invoke f;\n')
    m = pyopl.compile_model(tmp_path / "m.mod", tmp_path / "d.dat")
    assert not [d for d in m.diagnostics if d.is_error]
    assert m.solve().objective == 10.0
    (tmp_path / "d.dat").write_text('n = 2;\nc = [1, 2] invoke g;\n')
    diags = pyopl.check(tmp_path / "m.mod", tmp_path / "d.dat")
    assert [(d.code, d.line, d.column) for d in diags if d.is_error] == [("OPL1063", 2, 12)]
    assert "no `prepare` block defines a function `g`" in diags[0].message


def test_a_model_given_as_text_writes_no_file_without_an_output_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = 'execute {\n  var f = new IloOplOutputFile("o.txt");\n}\ndvar float+ x in 0..1;\nmaximize x;\n'
    d = [d for d in pyopl.check(text) if d.code == "OPL1056"][0]
    assert "the model was given as text" in d.message and d.line == 2
    assert os.listdir(tmp_path) == []
    pyopl.compile_model(text.replace("\n}", "  f.write(1);\n}"), output_dir=tmp_path)
    assert (tmp_path / "o.txt").read_text() == "1"


def test_unsupported_main_method_is_refused_before_anything_is_solved(monkeypatch):
    import pyopl.backends.mp.highs as highs

    calls = []
    monkeypatch.setattr(highs, "solve", lambda ir, o: calls.append(1))
    text = ("dvar float+ x in 0..1;\nmaximize x;\nmain {\n  thisOplModel.generate();\n  cplex.solve();\n"
            "  thisOplModel.tuneParam();\n  cplex.feasOpt();\n}\n")
    r = pyopl.solve(text)
    assert calls == [] and r.status == "script_error" and r.script_exit == 1
    msgs = [(d.code, d.line, d.column, d.message) for d in r.diagnostics]
    assert msgs == [("OPL1057", 6, 16, "`thisOplModel.tuneParam()` is not supported by pyopl"),
                    ("OPL1057", 7, 9, "`cplex.feasOpt()` is not supported by pyopl")]
    # `check` reports what `solve` refuses (it said "no problems found" of this model)
    assert [(d.code, d.line, d.column, d.message) for d in pyopl.check(text)] == msgs


def test_check_exits_as_solve_does_for_an_unsupported_main_method(tmp_path, capsys):
    (tmp_path / "m.mod").write_text("dvar float x;\nminimize x;\nsubject to { c: x >= 1; }\n"
                                    "main { thisOplModel.generate(); cplex.addCut(thisOplModel.c); cplex.solve(); }\n")
    assert cli(["check", str(tmp_path / "m.mod")]) == 1
    assert "error[OPL1057]: `cplex.addCut()` is not supported by pyopl" in capsys.readouterr().out  # (check reports on stdout)
    assert cli(["solve", str(tmp_path / "m.mod")]) == 1


def test_post_processing_is_skipped_without_a_solution():
    r = pyopl.solve("dvar float+ x in 0..1;\nmaximize x;\nsubject to { x >= 2; }\nexecute { writeln(x); }\n")
    assert r.status == "infeasible" and r.script_output == ""
    assert not [d for d in r.diagnostics if d.code.startswith("OPL10")]


def test_missing_files_and_failing_models_in_main(tmp_path):
    # statically sound (check reads sub-models: submodels.py), it fails when generated without data
    (tmp_path / "bad.mod").write_text("int n = ...;\ndvar float+ y in 0..n;\nminimize y;\n")
    (tmp_path / "m.mod").write_text(
        'dvar float+ x in 0..1;\nmaximize x;\nmain {\n'
        '  try { new IloOplDataSource("none.dat"); } catch (e) { writeln("caught"); }\n'
        '  var m = new IloOplModel(new IloOplModelDefinition(new IloOplModelSource("bad.mod")), cplex);\n'
        '  m.generate();\n}\n')
    r = pyopl.compile_model(tmp_path / "m.mod").solve()
    assert r.script_output == "caught\n" and r.script_exit == 1
    d = [d for d in r.diagnostics if d.code == "OPL1062"][0]
    assert (d.line, d.column) == (6, 3) and "the model `bad.mod` did not compile" in d.message
    assert any(x.code == "OPL0401" and x.file.endswith("bad.mod") for x in r.diagnostics)
    (tmp_path / "n.mod").write_text('dvar float+ x in 0..1;\nmaximize x;\nmain {\n  new IloOplDataSource("none.dat");\n}\n')
    r = pyopl.compile_model(tmp_path / "n.mod").solve()
    d = [d for d in r.diagnostics if d.code == "OPL1061"][0]
    assert d.line == 4 and d.message == "the file `none.dat` does not exist"


def test_solution_read_before_the_solve_and_tuple_type_as_value():
    text = "tuple P { int a; }\n{P} ps = {<1>};\ndvar float+ x in 0..1;\nexecute {\n  writeln(x.solutionValue);\n}\n" \
           "execute { writeln(P); }\nmaximize x;\n"
    diags = pyopl.check(text)
    assert [(d.code, d.line, d.column) for d in diags if d.is_error] == [("OPL1060", 5, 13), ("OPL1050", 7, 19)]
    assert diags[0].message == "`x` has no value before the model is solved"
    assert [d for d in diags if d.code == "OPL1050"][0].message == "`P` is a tuple type, not a value"


def test_find_on_a_set_of_strings_names_the_alternative():
    d = [d for d in pyopl.check('{string} S = {"a"};\nexecute { S.find("a"); }\ndvar float+ x;\nminimize x;\n')
         if d.is_error][0]
    assert d.code == "OPL1051" and "`find` needs a tuple set with key fields; `S` is not one" == d.message
