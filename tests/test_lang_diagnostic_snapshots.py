"""Diagnostics that name the real cause (issue 15, second group): golden snapshots of the full rendered
text (tests/snapshots/diagnostics/lang_*.txt; rerun with PYOPL_BLESS=1 after a deliberate change),
plus the facts each one must keep (code, place, applicability)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import pyopl
from pyopl.syntax.recovery import _after_header

SNAP = Path(__file__).parent / "snapshots" / "diagnostics"

CASES = {
    "semicolon_after_external": ("int n = ...\ndvar float x;\nmaximize x;\nsubject to { x <= n; }", "n = 3;"),
    "labelled_equals": ("dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to {\n  c1: x + y = 3;\n}", None),
    "labelled_reversed_le": ("dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to {\n  c1: x + y =< 3;\n}", None),
    "indexed_label_equals": ("dvar float+ x[1..2];\nminimize sum(i in 1..2) x[i];\nsubject to {\n"
                             "  forall(i in 1..2) c[i]: x[i] = 3;\n}", None),
    "product_names_only_factors": ("dvar float make[1..2] in 0..9;\ndvar float ot[1..2] in 0..9;\n"
                                   "minimize sum(t in 1..2) make[t];\nsubject to {\n"
                                   "  forall(t in 1..2) make[t] + ot[t]*ot[t] >= 1;\n}", None),
    "failed_declaration_no_followon": ("{string} S = ...;\nint n[S] = ...;\ndvar float x;\nmaximize x;\n"
                                       "subject to { x <= sum(s in S) n[s]; }", 'S = {"a", 3};\nn = [1, 2];'),
    "forall_without_braces": ("dvar float x[1..3] in 0..1;\nmaximize sum(i in 1..3) x[i];\nsubject to {\n"
                              "  forall(i in 1..3)\n    x[i] <= 1;\n    x[i] >= 0;\n}", None),
    "missing_subject_to_labelled": ("dvar float x in 0..5;\nmaximize x;\nc1: x <= 3;\n", None),
    "missing_subject_to_forall": ("dvar float x[1..2] in 0..1;\nmaximize sum(i in 1..2) x[i];\n"
                                  "forall(i in 1..2) x[i] <= 1;", None),
    "colon_equals_in_data": ("int n = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= n; }", "n := 3;"),
    "empty_model": ("// nothing yet", None),
    "empty_data_field": ("tuple T { int a; int b; }\n{T} S = ...;\ndvar float x;\nmaximize x;\n"
                               "subject to { x <= card(S); }", "S = {<1,,2>, <3, 4>} plus a long tail of words;"),
    "nonconvex_objective": ("dvar float x in 0..5;\nminimize -x^2;\nsubject to { x <= 3; }", None),
    "unclosed_block_at_end": ("dvar float x in 0..1;\nmaximize x;\nsubject to {\n  x <= 1;", None),
    "comment_before_dvar_type": ("// decisions\ndvar integer x in 0..1;\nmaximize x;\nsubject to { x <= 1; }", None),
}


def _render(tmp_path, model: str, data: str | None) -> tuple[str, list]:
    (tmp_path / "model.mod").write_text(model + "\n")
    if data:
        (tmp_path / "data.dat").write_text(data + "\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        # checked for HiGHS: under `auto` (the default) an installed SCIP takes the quadratic cases
        d = pyopl.check(Path("model.mod"), Path("data.dat") if data else None, solver="highs")
    finally:
        os.chdir(cwd)
    return d.render() + "\n", list(d)


@pytest.mark.parametrize("name", sorted(CASES))
def test_rendered_text_matches_snapshot(name, tmp_path):
    text, _ = _render(tmp_path, *CASES[name])
    snap = SNAP / ("lang_%s.txt" % name)
    if os.environ.get("PYOPL_BLESS") or not snap.exists():
        snap.write_text(text)
    assert text == snap.read_text(), "rendered text changed; rerun with PYOPL_BLESS=1 if deliberate"


FACTS = {  # name -> (code, file, line, column, fix applicability or None)
    "semicolon_after_external": ("OPL0002", "model.mod", 1, 12, "machine-applicable"),
    "labelled_equals": ("OPL0003", "model.mod", 5, 13, "machine-applicable"),
    "labelled_reversed_le": ("OPL0018", "model.mod", 5, 13, "machine-applicable"),
    "indexed_label_equals": ("OPL0003", "model.mod", 4, 32, "machine-applicable"),
    "product_names_only_factors": ("OPL1163", "model.mod", 5, 31, None),
    "failed_declaration_no_followon": ("OPL0403", "data.dat", 1, 5, None),
    "forall_without_braces": ("OPL1164", "model.mod", 6, 7, None),
    "missing_subject_to_forall": ("OPL0033", "model.mod", 3, 1, None),
    "missing_subject_to_labelled": ("OPL0033", "model.mod", 3, 3, None),
    "colon_equals_in_data": ("OPL0017", "data.dat", 1, 3, "machine-applicable"),
    "empty_model": ("OPL1165", "model.mod", 1, 1, None),
    "empty_data_field": ("OPL1162", "data.dat", 1, 9, "maybe-incorrect"),
    "nonconvex_objective": ("OPL1163", "model.mod", 2, 10, None),
    "unclosed_block_at_end": ("OPL0007", "model.mod", 3, 12, "machine-applicable"),
    "comment_before_dvar_type": ("OPL0027", "model.mod", 2, 6, "machine-applicable"),
}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_each_case_is_one_diagnostic_at_its_place(name, tmp_path):
    _, diags = _render(tmp_path, *CASES[name])
    assert len(diags) == 1, [(d.code, d.line, d.column, d.message) for d in diags]
    d = diags[0]
    code, file, line, col, fix = FACTS[name]
    assert (d.code, Path(d.file).name, d.line, d.column) == (code, file, line, col)
    assert (d.fix.applicability if d.fix else None) == fix


def test_product_warning_names_the_squared_variable_only(tmp_path):
    _, [d] = _render(tmp_path, *CASES["product_names_only_factors"])
    assert "`ot`" in d.message and "make" not in d.message


def test_a_semicolon_after_an_if_or_forall_header_is_never_machine_applicable():
    text = "subject to {\n  if (a == 2)\n  forall(i in I)  \n  x <= 1"
    assert _after_header(text, text.index("\n  forall"))
    assert _after_header(text, text.index("  \n  x"))
    assert not _after_header(text, len(text))


def test_swapped_files_are_named_as_such(tmp_path):
    mod, dat = tmp_path / "m.mod", tmp_path / "d.dat"
    mod.write_text("int n = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= n; }\n")
    dat.write_text("n = 3;\n")
    [d] = pyopl.check(dat, mod)
    assert d.code == "OPL1166" and "swapped" in d.message and "m.mod" in d.help


def test_a_data_file_alone_or_a_model_given_as_data_is_named_as_such(tmp_path):
    """`pyopl solve d.dat` (no model) gave one "unexpected `=`" per line of the data, and `pyopl solve
    m.mod m2.mod` nine syntax errors of the second model read as data."""
    mod, dat = tmp_path / "m.mod", tmp_path / "d.dat"
    mod.write_text("int n = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= n; }\n")
    dat.write_text("n = 3;\nm = {1, 2};\ncost = [[1, 2], [3, 4]];\n")
    [d] = pyopl.check(dat)
    assert (d.code, d.file, d.line) == ("OPL1166", str(dat), 1)
    assert d.message == "`%s` is OPL data (`name = value;` statements), not a model" % dat
    assert d.help == "give the model first, then the data: `pyopl solve MODEL.mod %s`" % dat
    [d] = pyopl.check(mod, mod)
    assert d.code == "OPL1166" and d.message.startswith("`%s` is given as data, but it looks like a model" % mod)
    # a model with a syntax error is still that syntax error (it is no data either)
    [d] = pyopl.check("int n = 3\ndvar float x;\nmaximize x;\nsubject to { x <= n; }\n")
    assert d.code == "OPL0002"


def test_an_unknown_solver_option_points_at_the_option_not_at_the_model():
    r = pyopl.compile_model("dvar float x in 0..1;\nmaximize x;").solve(options={"nosuchoption": 1})
    [d] = r.diagnostics
    assert d.code == "OPL0707" and d.file == "--option nosuchoption=1"
