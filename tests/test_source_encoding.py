"""Files that are not UTF-8: bytes only inside comments are a warning (OPL1129) and the model
compiles with exact columns; anywhere else they are error OPL1120; `--fix` never rewrites them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyopl

MODEL = ("// Auteur : Andr\xe9, cr\xe9\xe9 le 3 f\xe9vr.\n"
         "/* r\xe9sum\xe9 */ dvar float+ x;\n"
         "minimize x;\n"
         "subject to { x >= 2; }\n")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode("latin-1"))
    return p


def test_latin1_bytes_in_comments_are_a_warning_and_the_model_solves(tmp_path):
    path = _write(tmp_path, "m.mod", MODEL)
    model = pyopl.compile_model(path)
    notes = [d for d in model.diagnostics if d.code == "OPL1129"]
    assert len(notes) == 1
    d = notes[0]
    assert (d.span.line, d.span.column) == (1, 17)  # the `é` of `André`: "// Auteur : Andr" is 16 characters
    assert "6 bytes inside comments" in d.message
    assert model.solve().objective == 2.0


def test_a_latin1_byte_in_a_string_is_an_error_at_the_byte(tmp_path):
    path = _write(tmp_path, "m.mod", '{string} S = {"caf\xe9"};\ndvar float+ x[S];\nminimize sum(s in S) x[s];\n')
    diags = pyopl.check(path)
    errs = [d for d in diags if d.code == "OPL1120"]
    assert len(errs) == 1 and (errs[0].span.line, errs[0].span.column) == (1, 19)


def test_a_latin1_byte_in_a_data_comment_is_a_warning(tmp_path):
    mod = tmp_path / "m.mod"
    mod.write_text("int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n")
    dat = _write(tmp_path, "m.dat", "// donn\xe9es\nn = 3;\n")
    model = pyopl.compile_model(mod, data=dat)
    assert [d.span.line for d in model.diagnostics if d.code == "OPL1129"] == [1]
    assert model.solve().objective == 3.0


def test_fix_leaves_a_file_with_latin1_comments_byte_for_byte(tmp_path):
    path = _write(tmp_path, "m.mod", MODEL.replace("x >= 2", "x >= capacty") + "")
    before = path.read_bytes()
    p = subprocess.run([sys.executable, "-m", "pyopl", "check", str(path), "--fix"], capture_output=True, text=True)
    assert path.read_bytes() == before
    assert "OPL1120" in p.stdout + p.stderr
