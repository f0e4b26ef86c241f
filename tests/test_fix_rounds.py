"""`pyopl check --fix` in one run: fixes a syntax error hid are applied after the re-check, and the
fixes of `.dat` files are applied too, with the model's safety rules (lock, backup, unchanged file)."""
from __future__ import annotations

import os
from pathlib import Path

from pyopl.cli import main

HIDDEN = """int capacity = 3;
range R = 1..capacity;
dvar float+ x[R];
maximize sum(i in R) x[i];
subject to {
  forall(i in R) x[i] =< capacty;
}
"""
# by hand: `=<` is `<=`, and `capacty` is the declared `capacity` one letter off
HIDDEN_FIXED = HIDDEN.replace("=< capacty", "<= capacity")

MODEL = """int capacity = ...;
range R = 1..capacity;
dvar float+ x[R];
maximize sum(i in R) x[i];
subject to {
  forall(i in R) x[i] <= capacity;
}
"""


def _cli(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_name_hidden_by_a_syntax_error_is_fixed_in_the_same_run(tmp_path, capsys):
    """Before: `=<` alone was reported, and its fix was refused because it uncovered `capacty`: 0 fixes."""
    mod = tmp_path / "m.mod"
    mod.write_text(HIDDEN, encoding="utf-8")
    rc, out, err = _cli(["check", "--fix", str(mod)], capsys)
    assert mod.read_text(encoding="utf-8") == HIDDEN_FIXED
    assert rc == 0 and "no problems found" in out
    assert "applied 2 fixes" in err
    assert (tmp_path / "m.mod.bak").read_text(encoding="utf-8") == HIDDEN


def test_a_fix_that_uncovers_an_error_without_a_fix_is_still_refused(tmp_path, capsys):
    """The uncovered `cpcty` is too far from `capacity` for a fix: the `=<` fix alone would trade one
    error for another, so nothing is written (the strict rule of fixes/select.py stays)."""
    text = HIDDEN.replace("capacty", "zzz")
    mod = tmp_path / "m.mod"
    mod.write_text(text, encoding="utf-8")
    _cli(["check", "--fix", str(mod)], capsys)
    assert mod.read_text(encoding="utf-8") == text
    assert not (tmp_path / "m.mod.bak").exists()


def test_fix_rounds_are_bounded():
    """Ten errors, each fix removing one: one run applies FIX_ROUNDS of them, then stops."""
    from pyopl.diagnostics.diagnostic import Diagnostic, Edit, Fix, Span
    from pyopl.fixes.select import FIX_ROUNDS, fix_in_rounds

    calls = []

    def check(texts):
        calls.append(texts["f"])
        n = len(texts["f"])  # 10 - n errors, each fixed by appending a character (one per round)
        return [Diagnostic("OPL0002", "error", "e", Span("f", 1, 1, 1, 2),
                           fix=Fix("add", (Edit(Span("f", 1, n + 1, 1, n + 1), "a"),))) for _ in range(10 - n)]

    texts, n, _ = fix_in_rounds({"f": ""}, check)
    assert n == FIX_ROUNDS == 3 and texts["f"] == "aaa"
    assert len(calls) <= 1 + FIX_ROUNDS * (24 + 1)  # a try per candidate (MAX_TRIES) and a re-check a round


def test_a_dat_fix_is_applied_with_a_backup(tmp_path, capsys):
    """Before: the missing `;` of the .dat was shown as `fix:` but `--fix` never wrote the .dat."""
    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_text(MODEL, encoding="utf-8")
    dat.write_text("capacity = 3\n", encoding="utf-8")
    rc, out, err = _cli(["check", "--fix", str(mod), str(dat)], capsys)
    assert dat.read_text(encoding="utf-8") == "capacity = 3;\n"
    assert rc == 0 and "no problems found" in out and "applied 1 fix to %s" % dat in err
    assert (tmp_path / "m.dat.bak").read_text(encoding="utf-8") == "capacity = 3\n"
    assert mod.read_text(encoding="utf-8") == MODEL and not (tmp_path / "m.mod.bak").exists()


def test_a_read_only_dat_file_is_read_but_not_fixed(tmp_path, capsys):
    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_text(MODEL, encoding="utf-8")
    dat.write_text("capacity = 3\n", encoding="utf-8")
    os.chmod(dat, 0o444)
    try:
        rc, out, _ = _cli(["check", "--fix", str(mod), str(dat)], capsys)
        assert dat.read_text(encoding="utf-8") == "capacity = 3\n" and rc == 1
        assert "OPL0016" in out and not (tmp_path / "m.dat.bak").exists()
    finally:
        os.chmod(dat, 0o644)


def test_a_dat_file_changed_meanwhile_is_not_written(tmp_path, monkeypatch):
    from pyopl.fixes import apply as fixes

    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_text(MODEL, encoding="utf-8")
    dat.write_text("capacity = 3\n", encoding="utf-8")
    real_check = fixes._check_text

    def check_then_edit(text, name, data):
        out = real_check(text, name, data)
        dat.write_text("capacity = 4\n", encoding="utf-8")
        return out

    monkeypatch.setattr(fixes, "_check_text", check_then_edit)
    outcome = fixes.fix_file(str(mod), [Path(dat)])
    assert outcome.applied == 0 and [d.code for d in outcome.problems] == ["OPL1126"]
    assert dat.read_text(encoding="utf-8") == "capacity = 4\n" and not (tmp_path / "m.dat.bak").exists()


def test_a_sub_model_main_loads_is_fixed_too(tmp_path, capsys):
    """Its diagnostics show `fix:` (script/flow/submodels.py), so `--fix` applies them, with a backup."""
    (tmp_path / "main.mod").write_text('int n = 2;\ndvar float+ x in 0..n;\nmaximize x;\nmain {\n'
                                       '  var d = new IloOplModelDefinition(new IloOplModelSource("sub.mod"));\n}\n',
                                       encoding="utf-8")
    sub = tmp_path / "sub.mod"
    sub.write_text(HIDDEN, encoding="utf-8")
    rc, out, err = _cli(["check", "--fix", str(tmp_path / "main.mod")], capsys)
    assert sub.read_text(encoding="utf-8") == HIDDEN_FIXED and rc == 0, out
    assert (tmp_path / "sub.mod.bak").read_text(encoding="utf-8") == HIDDEN
    assert not (tmp_path / "main.mod.bak").exists() and "applied 2 fixes" in err
