"""Files that are not UTF-8 are read as Windows-1252 with a warning naming the file and the first
byte that decided it (OPL1131), columns exact; a byte Windows-1252 leaves undefined is error OPL1120
(only inside comments: warning OPL1129); `--fix` never rewrites them."""
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
    notes = [d for d in model.diagnostics if d.code == "OPL1131"]
    assert len(notes) == 1
    d = notes[0]
    assert (d.span.line, d.span.column) == (1, 17)  # the `é` of `André`: "// Auteur : Andr" is 16 characters
    assert str(path) in d.message and "0xe9" in d.message
    assert model.solve().objective == 2.0


def test_a_windows_1252_string_is_read_with_a_warning_at_the_byte(tmp_path):
    """IBM OPL on Windows reads sources in the platform encoding: a Windows-1252 string keeps its
    accents (0x80 is the euro sign there); a byte it leaves undefined is error OPL1120."""
    path = _write(tmp_path, "m.mod", '{string} S = {"caf\xe9", "5\x80"};\ndvar float+ x[S];\nminimize sum(s in S) x[s];\n'
                  'subject to { forall(s in S) x[s] >= 1; }\nexecute { writeln(S); }\n'.replace("\x80", "\x00"))
    path.write_bytes(path.read_bytes().replace(b"\x00", b"\x80"))
    model = pyopl.compile_model(path)
    warn = [d for d in model.diagnostics if d.code == "OPL1131"]
    assert len(warn) == 1 and (warn[0].span.line, warn[0].span.column) == (1, 19)
    assert model.solve().script_output == '{"caf\u00e9" "5\u20ac"}\n'
    path.write_bytes(b'{string} S = {"caf\x90"};\ndvar float+ x[S];\nminimize sum(s in S) x[s];\n')
    errs = [d for d in pyopl.check(path) if d.code == "OPL1120"]
    assert len(errs) == 1 and (errs[0].span.line, errs[0].span.column) == (1, 19)


def test_a_latin1_byte_in_a_data_comment_is_a_warning(tmp_path):
    mod = tmp_path / "m.mod"
    mod.write_text("int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n")
    dat = _write(tmp_path, "m.dat", "// donn\xe9es\nn = 3;\n")
    model = pyopl.compile_model(mod, data=dat)
    assert [d.span.line for d in model.diagnostics if d.code == "OPL1131"] == [1]
    assert model.solve().objective == 3.0


def test_fix_leaves_a_file_with_latin1_comments_byte_for_byte(tmp_path):
    path = _write(tmp_path, "m.mod", MODEL.replace("x >= 2", "x >= capacty") + "")
    before = path.read_bytes()
    p = subprocess.run([sys.executable, "-m", "pyopl", "check", str(path), "--fix"], capture_output=True, text=True)
    assert path.read_bytes() == before
    assert "OPL1120" in p.stdout + p.stderr
