"""Source files in the platform encoding: not UTF-8 is read as Windows-1252 with a warning."""
from __future__ import annotations

import pyopl


def test_windows_file_with_accents_in_comment_and_string(tmp_path):
    """IBM page "Selecting an encoding" (CPLEX reads files in a single-byte Western code page,
    ISO-8859-1, by default; OPL files from Windows are in Windows-1252, its superset for printable
    characters): a model saved so keeps its accented strings; the warning names the file and the
    first byte that is not UTF-8."""
    mod = tmp_path / "w.mod"
    mod.write_bytes('// r\xe9sum\xe9 du mod\xe8le\n{string} V = {"Montr\xe9al"};\ndvar float+ x[V];\n'
                    'minimize sum(v in V) x[v];\nsubject to { forall(v in V) x[v] >= 2; }\n'
                    'execute { writeln(V); }\n'.encode("cp1252"))
    model = pyopl.compile_model(mod)
    warn = [d for d in model.diagnostics if d.code == "OPL1131"]
    assert len(warn) == 1 and str(mod) in warn[0].message and "0xe9" in warn[0].message
    assert (warn[0].span.line, warn[0].span.column) == (1, 5)
    r = model.solve()
    assert r.objective == 2.0 and r.script_output == '{"Montr\u00e9al"}\n'


def test_valid_utf8_stays_utf8(tmp_path):
    """A file that is valid UTF-8 is read as UTF-8 (no warning, no reinterpretation)."""
    mod = tmp_path / "u.mod"
    mod.write_bytes('string s = "Montr\u00e9al";\ndvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n'
                    'execute { writeln(s.length); }\n'.encode("utf-8"))
    model = pyopl.compile_model(mod)
    assert not [d for d in model.diagnostics if d.code.startswith("OPL11")]
    assert model.solve().script_output == "8\n"  # 8 characters, not the 9 bytes


def test_undefined_windows_1252_byte_only_in_a_comment_is_a_warning(tmp_path):
    """A byte Windows-1252 leaves undefined (0x81) inside a comment: warning OPL1129, the model compiles."""
    mod = tmp_path / "c.mod"
    mod.write_bytes(b"// odd \x81 byte\ndvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n")
    model = pyopl.compile_model(mod)
    assert [d.code for d in model.diagnostics] == ["OPL1129"]
