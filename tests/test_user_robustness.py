"""Mistakes and edge cases a new user hit (fresh-clone test): each must be a clear answer, never a crash."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import pyopl


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyopl", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_unicode_names_compile():
    r = pyopl.compile_model('{string} Städte = {"Köln", "Zürich"};\nfloat coût[Städte] = [2, 3];\n'
                            "dvar float x[Städte] in 1..4;\nminimize sum(s in Städte) coût[s] * x[s];").solve()
    assert r.objective == pytest.approx(5.0) and r["x"]["Köln"] == 1


def test_byte_order_mark_is_ignored(tmp_path: Path):
    mod = tmp_path / "m.mod"
    mod.write_bytes(b"\xef\xbb\xbfdvar float x in 0..2;\nmaximize x;")
    dat = tmp_path / "m.dat"
    dat.write_bytes(b"\xef\xbb\xbf")
    assert pyopl.compile_model(mod, dat).solve().objective == pytest.approx(2.0)


def test_infinity_as_a_bound_is_dropped_or_infeasible():
    r = pyopl.compile_model("dvar float+ y in 0..5;\nmaximize y;\nsubject to { y <= infinity; }").solve()
    assert r.status == "optimal" and r.objective == pytest.approx(5.0)
    r = pyopl.compile_model("dvar float+ y;\nminimize y;\nsubject to { ct: y >= infinity; }").solve()
    assert r.status == "infeasible"


@pytest.mark.parametrize("decl, code", [("int n = 99999999999999999999999;", "OPL1101"),  # beyond 32-bit int first
                                        ("float n = 1e300 * 1e300;", "OPL0431")])
def test_numbers_no_solver_takes_are_a_diagnostic(decl, code):
    diags = pyopl.check(decl + "\ndvar float+ y;\nminimize y;\nsubject to { n * y >= 1; }")
    assert [d.code for d in diags.errors] == [code]


def test_a_short_unknown_name_is_not_renamed_without_review():
    (d,) = pyopl.check("dvar float+ x;\nmaximize 3 * x + 2 * y;\nsubject to { x <= 4; }").errors
    assert d.code == "OPL0101" and d.fix.applicability == "maybe-incorrect"
    (d,) = pyopl.check("float capacity = 3;\ndvar float+ x;\nmaximize x;\nsubject to { x <= capacty; }").errors
    assert d.fix.applicability == "machine-applicable"


def test_check_fix_does_not_change_meaning(tmp_path: Path):
    mod = tmp_path / "ren.mod"
    mod.write_text("dvar float+ x;\nmaximize 3 * x + 2 * y;\nsubject to { x <= 4; }\n")
    p = _cli("check", str(mod), "--fix")
    assert p.returncode == 1 and "2 * y" in mod.read_text()


def test_model_must_be_text_or_path():
    with pytest.raises(TypeError):
        pyopl.check(b"dvar float x;")


@pytest.mark.parametrize("data, words", [(b"n = 2;", "not bytes (decode it to str first)"), (2, "not int"),
                                         # a list's element is named as one ("not int" of `[1, 2]` before)
                                         ([1, 2], "not a list holding int (item 1) (put it in a dict"),
                                         (["n = 2;", 7.5], "not a list holding float (item 2)")])
def test_data_must_be_text_a_path_a_dict_or_a_list_of_them(data, words):
    """Bytes (or any other object) given as data were read as the text of their str(): b"n = 2;" gave
    OPL0042 at a quote the user never wrote; a TypeError says what data takes, as for the model."""
    model = "int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }\n"
    for call in (pyopl.check, pyopl.compile_model, pyopl.solve):
        with pytest.raises(TypeError, match="a dict {name: value}") as err:
            call(model, data)
        assert words in str(err.value)
    assert pyopl.solve(model, ["n = 2;"]).objective == 2 and pyopl.solve(model, ({"n": 3},)).objective == 3


def test_export_reports_model_errors_as_json(tmp_path: Path):
    mod = tmp_path / "bad.mod"
    mod.write_text("dvar float+ x;\nminimize y;")
    p = _cli("export", str(mod), "--lp", str(tmp_path / "x.lp"), "--format", "json")
    doc = json.loads(p.stdout)
    assert p.returncode == 1 and doc["status"] == "error" and doc["diagnostics"][0]["code"] == "OPL0101"


def test_export_to_a_folder_is_refused(tmp_path: Path):
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float x in 0..1;\nmaximize x;")
    p = _cli("export", str(mod), "--lp", str(tmp_path))
    assert p.returncode == 2 and "is a folder" in p.stderr


def test_negative_time_limit_is_a_usage_error(tmp_path: Path):
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float x in 0..1;\nmaximize x;")
    p = _cli("solve", str(mod), "--time-limit", "-1")
    assert p.returncode == 2 and "must be zero or more" in p.stderr


def test_closed_pipe_is_not_reported_as_a_bug():
    examples = Path(__file__).resolve().parents[1] / "examples"
    p = subprocess.run("%s -m pyopl solve %s | head -1" % (sys.executable, examples / "facility.mod"),
                       shell=True, capture_output=True, text=True, timeout=120)
    assert p.stdout.startswith("status: optimal") and "internal error" not in p.stderr


def test_version():
    p = _cli("--version")
    assert p.returncode == 0 and p.stdout.startswith("pyopl ")


@pytest.mark.parametrize("data, line", [("a = [1, 2];\n/* never closed\n", 2), ("a = [1, /* closed */ 2];\n\n/* not\n", 3),
                                        ("a = [1, /* never closed\n 2];\n", 1)])
def test_an_unclosed_comment_in_a_data_file_says_so_as_in_the_model(data, line):
    """A `/*` never closed in a .dat gave OPL0015 'unexpected `/`; expected `;` or a name'; the model
    says OPL0009 for the same mistake, with the fix."""
    model = "int a[1..2] = ...;\ndvar float x;\nminimize x;\nsubject to { x >= a[1]; }\n"
    [d] = pyopl.check(model, data)
    col = data.splitlines()[line - 1].index("/*") + 1
    assert (d.code, d.line, d.column) == ("OPL0009", line, col) and "`/*` comment is never closed" in d.message
    assert "`*/`" in d.help


@pytest.mark.parametrize("kw, error, words", [
    ({"time_limit": -1}, ValueError, "time_limit must be 0 or more seconds, not -1"),
    ({"time_limit": float("nan")}, ValueError, "time_limit must be 0 or more seconds"),
    ({"mip_gap": -0.1}, ValueError, "mip_gap must be 0 or more"),
    ({"explain_time_limit": -5}, ValueError, "explain_time_limit must be 0 or more seconds"),
    ({"threads": 1.5}, ValueError, "threads must be a whole number from 0 to 1024"),
    ({"seed": -1}, ValueError, "seed must be a whole number from 0 to 2147483647"),
    ({"time_limit": "soon"}, TypeError, "time_limit is a number, not 'soon'"),
])
def test_solve_arguments_out_of_range_say_which(kw, error, words):
    """`time_limit=-1` reached HiGHS, whose refusal (OPL0707) pointed at `--option ?=` and said option
    names are lower case; `explain_time_limit=-5` reported a search that 'ran out of its -5 s budget'."""
    m = pyopl.compile_text("dvar float x in 0..1;\nminimize x;\nsubject to { x >= 0.5; }\n")
    with pytest.raises(error) as e:
        m.solve(**kw)
    assert words in str(e.value)
    assert m.solve(time_limit=30, threads=2.0, seed=7).objective == 0.5


def test_the_cli_refuses_a_negative_explain_time_limit(capsys):
    from pyopl.cli import main

    with pytest.raises(SystemExit) as e:
        main(["solve", "m.mod", "--explain-time-limit", "-5"])
    assert e.value.code == 2 and "must be zero or more, got -5" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, words, help_words", [
    ("timelimit", 3, "HiGHS has no option `timelimit`", "did you mean `time_limit`?"),
    ("time_limit", "abc", "takes a double value, got `abc`", "give a number: `time_limit=N`"),
    # a fraction for a whole-number option was truncated (1.5 nodes ran as 1), not refused
    ("mip_max_nodes", 1.5, "takes a int value, got `1.5`", "give a whole number: `mip_max_nodes=N`"),
])
def test_a_refused_highs_option_says_how_to_fix_it(option, value, words, help_words):
    """A refused `--option` said "option names are lower case with underscores" whatever was wrong."""
    m = pyopl.compile_text("dvar float x in 0..1;\nminimize x;\nsubject to { x >= 0.5; }\n")
    r = m.solve(solver="highs", options={option: value})
    d = r.diagnostics[0]
    assert r.status == "error" and d.code == "OPL0707" and words in d.message and d.help == help_words
    assert m.solve(solver="highs", options={"mip_max_nodes": 2.0}).objective == 0.5  # a whole float is fine


def test_a_command_line_argument_is_not_rendered_as_a_file_position(tmp_path: Path):
    """The place of a refused option printed as `--> --option foo=1:1:1`, a file that does not exist."""
    (tmp_path / "m.mod").write_text("dvar float x in 0..1;\nminimize x;\nsubject to { x >= 0.5; }\n")
    r = _cli("solve", "m.mod", "--solver", "highs", "--option", "foo=1", cwd=tmp_path)
    assert r.returncode == 8
    assert " --> command line: `--option foo=1`\n" in r.stderr and "foo=1:1:1" not in r.stderr


TRANSPORT = Path(__file__).resolve().parents[1] / "examples" / "transport.mod"


def test_a_workbook_or_database_given_as_data_says_what_it_is(tmp_path: Path):
    """A workbook given where a .dat goes was "not UTF-8: byte 0xc7 ..." with a line of the ZIP
    archive's bytes as the snippet; a SQLite file alike."""
    import sqlite3

    book = Path(__file__).resolve().parents[1] / "examples" / "data-sources" / "transport.xlsx"
    db = tmp_path / "plan.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t(x)")
    con.close()
    for data, what, how in ((book, "is a ZIP archive (an Excel .xlsx workbook is one), not OPL text",
                             'SheetConnection book("transport.xlsx")'),
                            (db, "is a SQLite database, not OPL text", 'DBConnection db("sqlite", "plan.db")')):
        r = _cli("check", str(TRANSPORT), str(data))
        assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
        assert "error[OPL1120]: `%s` %s" % (data, what) in r.stdout and how in r.stdout
        assert "PK\\x03" not in r.stdout and "SQLite format" not in r.stdout  # no bytes shown as a line
        [d] = pyopl.check(TRANSPORT, data)
        assert (d.code, d.file, d.line, d.column) == ("OPL1120", str(data), 1, 1)


def test_json_given_as_data_says_it_is_json(tmp_path: Path):
    """A JSON file given as data was "unexpected `{`; expected `;` or a name"."""
    (tmp_path / "d.json").write_text('{"Plants": ["Lyon"], "supply": [400]}\n')
    r = _cli("check", str(TRANSPORT), str(tmp_path / "d.json"))
    assert r.returncode == 1
    assert "error[OPL0015]: this data is JSON, not OPL data (`.dat`)" in r.stdout
    assert "json.load(open(...))" in r.stdout
    [d] = pyopl.check("int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }\n", "[1, 2]")
    assert (d.code, d.line, d.column, d.message) == ("OPL0015", 1, 1, "this data is JSON, not OPL data (`.dat`)")
    # data that only starts like JSON is still a plain syntax error
    [d] = pyopl.check("int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }\n", "{ n = 3; }")
    assert d.message.startswith("unexpected")


def test_a_python_value_of_another_type_is_named_as_one():
    """`the value is a object` (of `object()` given from Python): named as a Python type."""
    [d] = pyopl.check("float s[1..2] = ...;\ndvar float x;\nminimize x;\nsubject to { x >= s[1]; }\n",
                      {"s": [object(), 1]})
    assert d.code == "OPL0403"
    assert d.message == "`s[1]` (an element of `s`) is declared `float`, but the value is a Python `object`"


def test_the_script_memory_advice_works():
    """The help of OPL1008 named `Interpreter(..., max_memory=N)`, which no user calls; the advice it
    gives now raises the budget: a string of 2^23 = 8,388,608 characters is over the default 5,000,000."""
    from pyopl.script.opl.options import ScriptOptions

    text = ('dvar float x;\nminimize x;\nsubject to { x >= 0; }\n'
            'execute { var s = "a"; for (var i = 0; i < 23; i++) s = s + s; writeln(s.length); }\n')
    r = pyopl.compile_model(text).solve()
    [d] = [d for d in r.diagnostics if d.is_error]
    assert d.code == "OPL1008" and "scripts=ScriptOptions(max_memory=N)" in d.help
    r = pyopl.compile_model(text, scripts=ScriptOptions(max_memory=10_000_000)).solve()
    assert r.status == "optimal" and r.script_output == "8388608\n"
