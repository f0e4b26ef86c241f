"""`pyopl check` checks the sub-models a `main` loads (`new IloOplModelSource("sub.mod")`), found
statically in the script, confined to the model's folder, with their own file names."""
from __future__ import annotations

import os
from pathlib import Path

import pyopl

MAIN = """int n = 2;
dvar float+ x in 0..n;
maximize x;
main {
  var def = new IloOplModelDefinition(new IloOplModelSource(%s));
  var m = new IloOplModel(def, cplex);
  m.generate();
  cplex.solve();
}
"""
SUB = "int capacity = ...;\ndvar float+ y in 0..capacty;\nmaximize y;\n"


def _check(folder: Path, sub_name: str = '"sub.mod"'):
    (folder / "main.mod").write_text(MAIN % sub_name, encoding="utf-8")
    return pyopl.check(folder / "main.mod")


def test_a_mistake_in_a_sub_model_is_reported_in_its_own_file(tmp_path):
    """Before: `check` said nothing (the sub-model is read only when `main` runs)."""
    (tmp_path / "sub.mod").write_text(SUB, encoding="utf-8")
    diags = _check(tmp_path)
    [d] = diags.errors
    assert d.code == "OPL0101" and "`capacty`" in d.message
    assert d.file == str(tmp_path / "sub.mod") and (d.span.line, d.span.column) == (2, 21)
    assert d.fix.edits[0].replacement == "capacity"
    assert "capacty" in diags.render() and "sub.mod:2:21" in diags.render()


def test_a_correct_sub_model_gives_no_diagnostic_and_its_data_are_not_asked_for(tmp_path):
    (tmp_path / "sub.mod").write_text(SUB.replace("capacty", "capacity"), encoding="utf-8")
    assert list(_check(tmp_path)) == []


def test_a_missing_sub_model_is_reported_at_its_name(tmp_path):
    diags = _check(tmp_path, '"gone.mod"')
    [d] = diags.errors
    assert d.code == "OPL1061" and d.file == str(tmp_path / "main.mod")
    assert (d.span.line, d.span.column) == (5, 61)  # the string literal (counted by hand)


def test_a_sub_model_outside_the_folder_is_refused_and_not_read(tmp_path):
    inner = tmp_path / "m"
    inner.mkdir()
    (tmp_path / "sub.mod").write_text(SUB, encoding="utf-8")  # would give OPL0101 if it were read
    os.symlink(tmp_path / "sub.mod", inner / "link.mod")
    for name in ('"../sub.mod"', '"link.mod"', '"%s"' % (tmp_path / "sub.mod")):
        codes = [d.code for d in _check(inner, name).errors]
        assert codes == ["OPL1056"], (name, codes)


def test_a_sub_model_loading_itself_or_its_parent_ends(tmp_path):
    """Sub-models loading each other in a cycle are each checked once."""
    (tmp_path / "sub.mod").write_text(SUB + 'main { var s = new IloOplModelSource("main.mod"); '
                                            'var t = new IloOplModelSource("sub.mod"); }\n', encoding="utf-8")
    codes = [d.code for d in _check(tmp_path).errors]
    assert codes == ["OPL0101"]


def test_a_name_computed_at_run_time_is_left_to_the_run(tmp_path):
    (tmp_path / "sub.mod").write_text(SUB, encoding="utf-8")
    assert list(_check(tmp_path, '"su" + "b.mod"')) == []
