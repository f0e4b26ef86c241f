r"""OPL0931: a backslash before a character OPL's string escapes do not define (IBM's OPL language
reference, "Strings": \b \t \n \f \r \" \\ \ooo \xXX and a backslash ending a line). The value stays
IBM's (the backslash dropped), and a warning names the escape at its two characters, in a model, a
data file (by the full parser and the fast path's fallback) and a data source's arguments."""
from __future__ import annotations

import pyopl

MODEL = r'''string city = "Montr\u00e9al";
{string} S = {"a\qb", "line\
two\zz", "ok\'", "tab\tend", "\x41\101"};
dvar float+ x;
minimize x;
'''


def _escapes(diags):
    return [(d.span.file.rsplit("/", 1)[-1], d.span.line, d.span.column, d.span.end_column, d.message)
            for d in diags if d.code == "OPL0931"]


def test_model_strings_warn_at_each_unknown_escape_and_keep_ibms_value(tmp_path):
    (tmp_path / "m.mod").write_text(MODEL)
    r = pyopl.solve(tmp_path / "m.mod")
    got = _escapes(r.diagnostics)
    assert [g[1:4] for g in got] == [(1, 21, 23), (2, 17, 19), (3, 4, 6)]
    assert "`\\u`" in got[0][4] and "`\\q`" in got[1][4] and "`\\z`" in got[2][4]
    assert all(d.severity == "warning" and d.help for d in r.diagnostics if d.code == "OPL0931")
    assert "write the character itself" in [d.help for d in r.diagnostics if d.code == "OPL0931"][0]
    assert r.status == "optimal"
    from pyopl.syntax.handlers import _unquote

    assert _unquote(r'"Montr\u00e9al"') == "Montru00e9al"  # IBM's reading, unchanged
    assert _unquote(r'"a\qb"') == "aqb" and _unquote('"\\x41\\101"') == "AA" and _unquote(r'"ok\'"') == "ok'"


def test_defined_escapes_give_no_warning():
    diags = pyopl.check(r'{string} S = {"\b\t\n\f\r\"\\", "\101\x41", "ok\'", "a\
b"};' + "\ndvar float+ x;\nminimize x;\n")
    assert _escapes(diags) == []


def test_data_files_warn_at_the_escape(tmp_path):
    (tmp_path / "m.mod").write_text("{string} S = ...;\nstring p = ...;\ntuple T { string a; int b; }\n{T} Ts = ...;\n"
                                    "int n = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('n = 3;\nS = {"a\\qb", "ok"};\np = "C:\\data\\x.dat";\nTs = {<"\\u00e9", 1>};\n')
    r = pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")
    assert [g[:4] for g in _escapes(r)] == [("m.dat", 2, 8, 10), ("m.dat", 3, 8, 10), ("m.dat", 3, 13, 15),
                                             ("m.dat", 4, 9, 11)]
    assert "takes one or two hex digits" in [d.help for d in r if d.code == "OPL0931"][2]


def test_a_data_source_path_warns(tmp_path):
    (tmp_path / "m.mod").write_text("{string} S = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('SheetConnection book("sub\\data.xlsx");\nS from SheetRead(book, "A1:A2");\n')
    r = pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")
    assert [g[:4] for g in _escapes(r)] == [("m.dat", 1, 26, 28)]
    assert "`/` in a file path" in [d.help for d in r if d.code == "OPL0931"][0]
