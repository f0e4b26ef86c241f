"""Diagnostics of `main` flows that pointed at the wrong place or gave the wrong cause (issue 30)."""
from __future__ import annotations

import pyopl

FLOW = """int n = ...;
dvar float+ x in 0..n;
maximize x;
main {
  var data = thisOplModel.dataElements;
  data.nn = 4;
  var m = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m.addDataSource(data);
  m.generate();
  cplex.solve();
  var m2 = new IloOplModel(thisOplModel.modelDefinition, cplex);
  m2.addDataSource(data);
  m2.generate();
  %s
}
"""


def _solve(tmp_path, last=""):
    (tmp_path / "m.mod").write_text(FLOW % last, encoding="utf-8")
    (tmp_path / "m.dat").write_text("n = 2;\n", encoding="utf-8")
    return pyopl.compile_model(tmp_path / "m.mod", tmp_path / "m.dat").solve()


def test_a_misspelt_data_element_set_in_main_is_reported_once_at_the_script_line(tmp_path):
    """Before: OPL0402 at `<data dict>:1:1`, once per model made with the data."""
    r = _solve(tmp_path)
    ds = [d for d in r.diagnostics if d.code == "OPL0402"]
    assert len(ds) == 1
    assert (ds[0].file, ds[0].line, ds[0].column) == (str(tmp_path / "m.mod"), 6, 8)  # `nn` in `data.nn = 4;`
    assert ds[0].help == "did you mean `n`?"
    assert r.objective == 2  # the flow itself still runs: n = 2 from m.dat


def test_a_misspelt_method_of_a_model_made_in_main_names_the_method(tmp_path):
    """Before: "`generat` is not declared in the model or the script", with `var generat` as the help."""
    r = _solve(tmp_path, "m2.generat();")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert d.code == "OPL1050" and d.message == "IloOplModel has no method `generat`; did you mean `generate`?"
    assert (d.line, d.column) == (14, 6)


def _check(tmp_path, last):
    (tmp_path / "m.mod").write_text(FLOW % last, encoding="utf-8")
    (tmp_path / "m.dat").write_text("n = 2;\n", encoding="utf-8")
    return pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")


def test_a_misspelt_method_of_this_model_names_the_method_and_check_finds_it(tmp_path):
    """Before: `check` said nothing, and `solve` said "`thisOplModel.generat()` is not supported by pyopl"
    (a missing feature, not a typo)."""
    [d] = _check(tmp_path, "thisOplModel.generat();").errors
    assert d.code == "OPL1050" and d.message == "IloOplModel has no method `generat`; did you mean `generate`?"
    assert (d.line, d.column) == (14, 16) and d.help == "write `thisOplModel.generate`"
    [d] = _check(tmp_path, "cplex.solv();").errors
    assert d.message == "IloCplex has no method `solv`; did you mean `solve`?"


def test_a_method_far_from_any_is_still_unsupported(tmp_path):
    r = _solve(tmp_path, "thisOplModel.tuneParam();")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert d.code == "OPL1057" and "is not supported by pyopl" in d.message


def test_a_constraint_label_close_to_a_method_name_is_read_as_the_constraint():
    """Before: `thisOplModel.demand["c1"].dual` in `main` was OPL1050 "IloOplModel has no method
    `demand`; did you mean `end`?" (the labels were not counted as elements). The duals by hand:
    minimising x[c1] + x[c2] with x[c] >= 1, each `demand` row has dual 1, the loose `cap` row 0."""
    r = pyopl.solve("""{string} C = {"c1", "c2"};
dvar float+ x[C];
minimize sum(c in C) x[c];
subject to {
  forall(c in C) demand: x[c] >= 1;
  ends: x["c1"] <= 5;
}
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(thisOplModel.demand["c1"].dual, " ", thisOplModel.demand["c2"].dual, " ", thisOplModel.ends.dual);
}""", solver="highs")
    assert [d.code for d in r.diagnostics if d.is_error] == []
    assert r.script_output.strip() == "1 1 0"


def test_a_name_three_letters_off_a_method_is_not_called_a_misspelling():
    """Before: `thisOplModel.demand` with no such element said "IloOplModel has no method `demand`; did
    you mean `end`?" (difflib's ratio, 0.67); docs/scripting.md promises one or two letters off."""
    r = pyopl.solve("""dvar float+ x;
minimize x;
subject to { lowx: x >= 1; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(thisOplModel.demand);
}""", solver="highs")
    [d] = [d for d in r.diagnostics if d.is_error]
    assert d.code == "OPL1050" and (d.line, d.column) == (7, 24)
    assert d.message == "`demand` is not declared in the model or the script" and "`end`" not in (d.help or "")


def test_benders_annotations_and_importmodel_of_a_new_engine_are_named_before_anything_is_solved(tmp_path):
    """ibm-benders-main (opl-corpus2): `var sub = new IloCplex(); sub.newLongAnnotation(...)` ran two
    solves and then stopped on "`IloCplex` has no member `newLongAnnotation`" (help: the first twelve
    members in alphabetical order), and `sub.importModel` was called a misspelling of `exportModel`."""
    r = _solve(tmp_path, 'var sub = new IloCplex();\n  sub.newLongAnnotation("cpxBendersPartition");\n'
                         '  sub.importModel("m.lp");\n  sub.solve();')
    errors = [d for d in r.diagnostics if d.is_error]
    assert [(d.code, d.line, d.column) for d in errors] == [("OPL1057", 15, 7), ("OPL1057", 16, 7)]
    assert errors[0].message.startswith("`sub.newLongAnnotation()` is not supported by pyopl: CPLEX's Benders")
    assert errors[0].help.startswith("remove the annotation calls: they do not change the model or its optimum")
    assert "new IloOplModel(thisOplModel.modelDefinition, sub)" in errors[1].help
    assert r.status == "script_error" and r.objective is None  # refused before the first solve of the flow
