"""LP and MPS export: OPL-derived names (legal, unique), the objective constant kept, and a round trip
through highspy's own reader that gives every acceptance model's optimum back."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import highspy
import pytest

import pyopl
from pyopl.backends.export import _sanitise, column_names, row_names, write_model
from shared_material import SHARED, load_cases, needs_shared

ACCEPTANCE = load_cases("acceptance")
LEGAL = re.compile(r"^[A-Za-z_][A-Za-z0-9_.(),]*$")


def _reread(path):
    """(model status name, objective, column names) of the file as highspy reads it, without pyopl."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    lp = h.getLp()
    return str(h.getModelStatus()).split(".")[-1], h.getInfo().objective_function_value, list(lp.col_names_)


@needs_shared
@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("case", ACCEPTANCE, ids=[c["name"] for c in ACCEPTANCE])
def test_round_trip_through_highspy_gives_the_same_optimum(case, fmt, tmp_path):
    base = SHARED / "acceptance"
    model = pyopl.compile_model(base / case["model"], data=(base / case["data"]) if case["data"] else None)
    path = tmp_path / ("model." + fmt)
    assert write_model(model.ir, str(path), fmt) == []
    status, obj, names = _reread(path)
    want = {"optimal": "kOptimal", "infeasible": "kInfeasible", "unbounded": "kUnbounded"}[case["status"]]
    assert status == want or (case["status"] == "unbounded" and status == "kUnboundedOrInfeasible")
    if case["objective"] is not None:
        assert obj == pytest.approx(case["objective"], rel=1e-6, abs=1e-6)
    # the OPL-derived names survive the trip (an LP reader numbers columns in order of appearance)
    assert sorted(names) == sorted(column_names(model.ir))


def test_objective_constant_is_kept(tmp_path):
    text = "dvar float+ x;\ndvar float+ y;\nminimize 7.5 + 2*x + 3*y;\nsubject to { ct: x + y >= 4; }\n"
    model = pyopl.compile_model(text)
    assert model.ir.obj_constant == 7.5
    for fmt in ("lp", "mps"):
        path = tmp_path / ("m." + fmt)
        write_model(model.ir, str(path), fmt)
        assert _reread(path)[1] == pytest.approx(7.5 + 2 * 4)  # x = 4, y = 0


def test_names_are_opl_derived_legal_and_unique():
    text = """
{string} A = {"a", "a_b", "New York", "1st"};
{string} B = {"b_c", "c", "x"};
tuple P { int i; string s; }
{P} Ps = {<1, "p">, <2, "q r">};
dvar float+ x[A][B];
dvar float+ z[Ps];
dvar float+ e1;
minimize sum(a in A, b in B) x[a][b] + sum(p in Ps) z[p] + e1;
subject to {
  forall(a in A) ctRow: sum(b in B) x[a][b] >= 1;
  forall(p in Ps) ctTuple: z[p] >= p.i;
  e1 >= 0;
}
"""
    ir = pyopl.compile_model(text).ir
    cols, rows = column_names(ir), row_names(ir)
    for names in (cols, rows):
        assert len(set(names)) == len(names)
        assert all(LEGAL.match(n) and len(n) <= 255 for n in names), names
    # x["a"]["b_c"] and x["a_b"]["c"] stay apart (keys are never joined into one string)
    assert "x(a,b_c)" in cols and "x(a_b,c)" in cols
    assert "x(New_York,x)" in cols and "z((2,q_r))" in cols
    assert "ne1" in cols  # `e1` reads as a number in LP files
    assert "ctRow(a)" in rows and "ctTuple((1,p))" in rows
    assert any(r.startswith("c") and r[1:].isdigit() for r in rows)  # the unlabelled row


def test_sanitiser_keeps_names_unique_and_avoids_lp_keywords():
    out = _sanitise(["a b", "a_b", "a?b", "st", "free", "1x", ".y", "e", "E12", "end"])
    assert len(set(out)) == len(out)
    assert out[:3] == ["a_b", "a_b_1", "a_b_2"]
    assert out[3:] == ["nst", "nfree", "n1x", "n.y", "ne", "nE12", "nend"]


@needs_shared
def test_cli_export_writes_the_file_and_reports_in_json(tmp_path):
    out = tmp_path / "transport.mps"
    base = SHARED / "acceptance" / "transport"
    p = subprocess.run([sys.executable, "-m", "pyopl", "export", str(base / "model.mod"), str(base / "model.dat"),
                        "--mps", str(out), "--format", "json"], capture_output=True, text=True, timeout=120)
    doc = json.loads(p.stdout)
    assert doc["status"] == "ok" and doc["file"] == str(out)
    assert _reread(doc["file"])[1] == pytest.approx(2017.5)
    assert "ship(Seattle,Chicago)" in open(doc["file"]).read()
    # a name without the format's extension is kept as given (the file is still MPS)
    plain = tmp_path / "transport.txt"
    subprocess.run([sys.executable, "-m", "pyopl", "export", str(base / "model.mod"), str(base / "model.dat"),
                    "--mps", str(plain)], capture_output=True, text=True, timeout=120)
    assert plain.exists() and "ROWS" in plain.read_text() and not (tmp_path / "transport.txt.mps").exists()
    bad = subprocess.run([sys.executable, "-m", "pyopl", "export", str(base / "model.mod"), str(base / "model.dat"),
                          "--lp", str(tmp_path / "missing" / "x.lp"), "--format", "json"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and json.loads(bad.stdout)["status"] == "error" and "Traceback" not in bad.stderr


# A CP model whose optimum depends on what LP cannot hold: x a permutation of 1..3 (allDifferent),
# maximise x[1] + 2*x[2]. Brute force over the 6 permutations: x = (2, 3, 1) gives 8; the rows alone
# (no allDifferent) would give 3 + 2*3 = 9, the wrong optimum an LP file used to carry (issue 43).
CP_MODEL = """using CP;
dvar int x[1..3] in 1..3;
maximize x[1] + 2*x[2];
subject to { allDifferent(x); }
"""


def _cp_brute_force() -> int:
    from itertools import permutations

    return max(p[0] + 2 * p[1] for p in permutations((1, 2, 3)))


@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_cli_export_refuses_a_cp_model_at_its_using_line(tmp_path, capsys, fmt):
    from pyopl.cli import main

    mod = tmp_path / "perm.mod"
    mod.write_text(CP_MODEL, encoding="utf-8")
    out = tmp_path / ("perm." + fmt)
    assert main(["export", str(mod), "--" + fmt, str(out), "--format", "json"]) == 8
    doc = json.loads(capsys.readouterr().out)
    d = doc["diagnostics"][0]
    assert doc["status"] == "error" and (d["code"], d["line"], d["column"], d["end_column"]) == ("OPL1201", 1, 1, 10)
    assert "using CP;" in d["help"] and not out.exists()
    assert main(["export", str(mod), "--" + fmt, str(out)]) == 8
    assert "error[OPL1201]" in capsys.readouterr().err and not out.exists()
    # what the refusal protects: the CP model's own optimum is the brute-force one
    assert pyopl.compile_model(CP_MODEL).solve().objective == _cp_brute_force() == 8


def test_mcp_export_and_script_export_refuse_a_cp_model_too(tmp_path, monkeypatch):
    from pyopl.mcp import work

    monkeypatch.chdir(tmp_path)  # the MCP worker writes its file in the current folder
    out = work.export(CP_MODEL, None, "lp")
    assert out["status"] == "error" and "text" not in out and out["diagnostics"][0]["code"] == "OPL1201"
    scripted = CP_MODEL + 'execute { cplex.exportModel("perm.lp"); }\n'
    r = pyopl.compile_model(scripted, output_dir=str(tmp_path)).solve()
    assert r.status == "script_error" and "an LP or MPS file cannot hold it" in r.diagnostics[-1].message
    assert not (tmp_path / "perm.lp").exists() and not (tmp_path / "model.lp").exists()


def test_export_says_when_the_file_rests_on_an_assumed_big_m_bound(tmp_path):
    """The file of `b == 1 => x <= 3` with `x` unbounded above holds `x <= 1e6` through its big-M row,
    a bound the model does not have (by hand: maximising x, the model is unbounded, the file is not);
    export printed only `wrote`, without the compile's OPL0901."""
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float+ x; dvar boolean b;\nmaximize x;\nsubject to { c1: b == 1 => x <= 3; }\n")
    out = tmp_path / "m.lp"
    p = subprocess.run([sys.executable, "-m", "pyopl", "export", str(mod), "--lp", str(out), "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    doc = json.loads(p.stdout)
    assert doc["status"] == "ok" and [d["code"] for d in doc["diagnostics"]] == ["OPL0901"]
    assert any("assumed" in n and "x <= 1e+06" in n for n in doc["notes"])
    _status, obj, _names = _reread(str(out))
    assert obj == pytest.approx(1e6)  # the file's optimum is the assumed bound itself


QC = """dvar float x in -5..5;
dvar float y in -5..5;
dvar int k in 0..3;
maximize x + 2*y + k;
subject to {
  disk: x*x + y^2 <= 4;
  mix: 1 <= x*y + x <= 3;
  k*k + x <= 5;
}
"""


def test_lp_export_writes_quadratic_constraints_and_scip_reads_back_the_optimum(tmp_path):
    """Before: the quadratic constraints were left out of the file (a note, exit status 0): the file
    was another model (unbounded by them, x + 2y + k reached 5 + 10 + 3 = 18). Each is now written
    in the LP format's `[ ... ]` syntax. The optimum, by a grid over k and the circle: k = 2 (k^2 + x
    <= 5 needs x <= 1), and x + 2y on the disk of radius 2 is at most 2*sqrt(5) at (2, 4)/sqrt(5),
    where x = 0.894 <= 1 and x*y + x = 1.6 + 0.894 lies in [1, 3]: 2 + 2*sqrt(5) = 6.4721."""
    pyscipopt = pytest.importorskip("pyscipopt")
    path = tmp_path / "qc.lp"
    notes = write_model(pyopl.compile_model(QC).ir, str(path), "lp")
    lines = path.read_text().splitlines()
    assert notes == [] and " disk: [ +1 x ^2 +1 y ^2 ] <= +4" in lines
    assert " mix: +1 x + [ +1 x * y ] >= +1" in lines and " mix_hi: +1 x + [ +1 x * y ] <= +3" in lines
    m = pyscipopt.Model()
    m.hideOutput()
    m.readProblem(str(path))
    m.optimize()
    assert m.getStatus() == "optimal" and m.getObjVal() == pytest.approx(2 + 2 * 5 ** 0.5, rel=1e-6)
    notes = write_model(pyopl.compile_model(QC).ir, str(tmp_path / "qc.mps"), "mps")
    assert any("3 quadratic constraint(s) are NOT written" in n for n in notes)
