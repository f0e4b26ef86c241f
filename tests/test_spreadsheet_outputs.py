"""Files a spreadsheet opens (``solve --csv``, ``Result.to_csv``, ``SheetWrite``'s copy of a
workbook) hold the model's text as text: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is never read as a formula (OWASP, "CSV Injection": such CSV text cells get a
leading single quote; numbers, negative ones included, stay numbers), and an index value holding
a quote is escaped in OPL notation (``["q\\"uote"]``). Everything is read back with the csv module
or openpyxl; the expected values follow from the models by hand (each x at a bound)."""
from __future__ import annotations

import csv
import io

import pytest

import pyopl
from tree_state import run_cli

STRINGS = ["=1+2", "+cmd", "-x", "@SUM(A1)", "\tt", "\rr", 'q"uote', "a,b", "back\\slash", "plain"]

MODEL = r"""
{string} S = {"=1+2", "+cmd", "-x", "@SUM(A1)", "\tt", "\rr", "q\"uote", "a,b", "back\\slash", "plain"};
tuple P { string s; int k; }
{P} Ps = {<"q\"uote", 2>, <"=HYPERLINK(1)", -3>};
dvar float x[S] in -5..5;
dvar float y[Ps] in 1..2;
dvar float z[-2..-1] in -4..7;
minimize sum(s in S) x[s] + sum(p in Ps) y[p] + sum(i in -2..-1) z[i];
"""


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_cli_csv_text_cells_are_not_formulas_and_numbers_stay_numbers(tmp_path):
    (tmp_path / "m.mod").write_text(MODEL)
    rc, _, err = run_cli(["solve", str(tmp_path / "m.mod"), "--csv", str(tmp_path / "r.csv"), "-q"])
    assert rc == 0, err
    rows = [r for r in _rows(open(tmp_path / "r.csv", newline="", encoding="utf-8").read()) if r["kind"] == "variable"]
    x = {r["index_1"]: r for r in rows if r["name"] == "x"}
    for s in STRINGS:
        cell = "'" + s if s[0] in "=+-@\t\r" else s
        assert cell in x, (s, sorted(x))
        assert float(x[cell]["value"]) == -5.0  # a negative number, written as a number
        assert not x[cell]["value"].startswith("'")
    assert x['q"uote']["index"] == r'["q\"uote"]'  # OPL notation: the quote escaped
    assert x["back\\slash"]["index"] == r'["back\\slash"]'
    assert x["'\tt"]["index"] == r'["\tt"]'
    y = {(r["index_1"], r["index_2"]): r for r in rows if r["name"] == "y"}
    assert y[('q"uote', "2")]["index"] == r'[<"q\"uote",2>]'
    assert y[("'=HYPERLINK(1)", "-3")]["index"] == '[<"=HYPERLINK(1)",-3>]'  # -3: an int field, no quote
    z = {r["index_1"]: float(r["value"]) for r in rows if r["name"] == "z"}
    assert z == {"-2": -4.0, "-1": -4.0}


def test_no_csv_text_cell_starts_a_formula():
    text = pyopl.solve(MODEL).to_csv()
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            try:
                float(cell)
                continue
            except ValueError:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row


def test_sheet_write_puts_formula_like_text_as_text(tmp_path):
    openpyxl = pytest.importorskip("openpyxl", reason="openpyxl (the `sheets` extra, in `dev`) is not installed")
    wb = openpyxl.Workbook()
    wb.active.title = "out"
    wb.save(tmp_path / "book.xlsx")
    (tmp_path / "m.mod").write_text('{string} Names = {"=1+2", "@cmd", "-5", "ok"};\n'
                                    'dvar float v in 0..3;\nmaximize v;\n')
    (tmp_path / "m.dat").write_text('SheetConnection book("book.xlsx");\nNames to SheetWrite(book, "out!A1:A4");\n'
                                    'v to SheetWrite(book, "out!B1");\n')
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    copy = openpyxl.load_workbook(tmp_path / "m.out" / "book.xlsx")
    ws = copy["out"]
    assert sorted(ws.cell(row=i, column=1).value for i in range(1, 5)) == sorted(["=1+2", "@cmd", "-5", "ok"])
    assert all(ws.cell(row=i, column=1).data_type == "s" for i in range(1, 5))  # text, not a formula
    assert ws["B1"].value == 3 and ws["B1"].data_type == "n"


def test_syntagm_report_csv_keeps_run_ids_and_model_names_as_text():
    from syntagm.bench.tables import COLUMNS, csv_table

    group = {"run_id": "=HYPERLINK(\"x\")", "dataset": "-data", "strategy": "@once", "model": "m\rx",
             "problems": 2, "recorded": 2, "scorable": 2, "correct": 1, "accuracy": 0.5, "accuracy_ci95": [-0.25, 0.9],
             "per_problem": {"iterations": 1.0, "cost_usd": 0.0, "latency_s": 1.5}, "compile_rate": 1.0,
             "aligned_rate": 1.0, "prompt_tokens": 10, "completion_tokens": 5, "cached_tokens": 0, "cost_usd": 0.0}
    rows = list(csv.DictReader(io.StringIO(csv_table({"groups": [group]}), newline="")))
    assert len(rows) == 1 and list(rows[0]) == list(COLUMNS)
    r = rows[0]
    assert (r["run_id"], r["dataset"], r["strategy"], r["model"]) == ("'=HYPERLINK(\"x\")", "'-data", "'@once", "m\rx")
    assert float(r["ci95_low"]) == -0.25 and r["accuracy"] == "0.5"  # numbers stay numbers


def test_syntagm_plot_draws_names_with_dollars_as_written(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib (extra `bench`) draws the plots")
    from syntagm.bench.report import write_plot

    group = {"run_id": None, "dataset": "a$\\frac{$b", "strategy": "once", "model": "m$1$",
             "accuracy": 0.5, "accuracy_ci95": [0.2, 0.8], "per_problem": {"cost_usd": 0.01}}
    path = write_plot({"groups": [group], "model": "m$1$", "tolerance": 1e-6}, tmp_path)
    assert path is not None and path.read_bytes()[:4] == b"\x89PNG"  # (was a mathtext ValueError)


def test_csv_to_dev_stdout_through_a_pipe(tmp_path):
    # /dev/stdout -> /proc/self/fd/1 -> `pipe:[N]`, which has no path: it was OPL1124 "a symbolic
    # link to ... which does not exist"; it is written in place, as a device is
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/stdout"):
        pytest.skip("no /dev/stdout on this system")
    (tmp_path / "m.mod").write_text("dvar int x in 0..4;\nmaximize x;\n")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(tmp_path / "m.mod"), "--csv", "/dev/stdout", "-q"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "kind,name,index,value\nvariable,x,,4\n" in p.stdout
    (tmp_path / "nowhere").symlink_to(tmp_path / "missing" / "file.csv")  # a dangling link is still refused
    rc, _, err = run_cli(["solve", str(tmp_path / "m.mod"), "--csv", str(tmp_path / "nowhere"), "-q"])
    assert rc != 0 and "OPL1124" in err and "does not exist" in err


@pytest.mark.parametrize("argv", [["solve", "--csv", "-"], ["solve", "-o", "-"], ["export", "--lp", "-"]])
def test_a_dash_output_is_a_usage_error_not_a_file_named_dash(tmp_path, monkeypatch, argv):
    (tmp_path / "m.mod").write_text("dvar int x in 0..4;\nmaximize x;\n")
    monkeypatch.chdir(tmp_path)
    rc, _, err = run_cli([argv[0], "m.mod"] + argv[1:])
    assert rc == 2 and "`%s -` would write a file named `-`" % argv[1] in err
    assert not (tmp_path / "-").exists()
