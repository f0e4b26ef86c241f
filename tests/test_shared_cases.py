"""The shared acceptance and diagnostics cases (../shared), through the Python API and the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import pyopl
from shared_material import SHARED, load_cases, needs_shared

ACCEPTANCE = load_cases("acceptance")
DIAGNOSTICS = load_cases("diagnostics")


@needs_shared
@pytest.mark.parametrize("case", ACCEPTANCE, ids=[c["name"] for c in ACCEPTANCE])
def test_acceptance_case_on_highs(case):
    base = SHARED / "acceptance"
    data = base / case["data"] if case["data"] else None
    result = pyopl.compile_model(base / case["model"], data).solve(solver="highs")
    assert result.status == case["status"]
    if case["objective"] is not None:
        assert result.objective == pytest.approx(case["objective"], rel=1e-6)


def _diag_case_passes(case) -> tuple[bool, list]:
    base = SHARED / "diagnostics"
    data = base / case["data"] if case["data"] else None
    diags = pyopl.check(base / case["model"], data)
    ok_sev = ("error",) if case["expect"] == "error" else ("error", "warning")
    want = {(a["file"], a["line"]) for a in case["at"]}
    for d in diags:
        rendered = d.to_dict(diags.sources)["rendered"]
        if d.severity in ok_sev and (os.path.basename(d.file), d.line) in want and \
                all(m in rendered for m in case["must_mention"]):
            return True, diags
    return False, diags


@needs_shared
@pytest.mark.parametrize("case", [c for c in DIAGNOSTICS if c["expect"] != "ok"],
                         ids=[c["name"] for c in DIAGNOSTICS if c["expect"] != "ok"])
def test_diagnostics_case(case):
    ok, diags = _diag_case_passes(case)
    assert ok, [str(d) for d in diags]


@needs_shared
def test_valid_feasibility_model_solves():
    case = next(c for c in DIAGNOSTICS if c["expect"] == "ok")
    result = pyopl.compile_model(SHARED / "diagnostics" / case["model"]).solve()
    assert result.status == "optimal"
    assert result["x"] == 4 and result["y"] == 3


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyopl", *args], capture_output=True, text=True, timeout=120)


@needs_shared
def test_cli_solve_json_contract_and_clean_stdout():
    base = SHARED / "acceptance" / "transport"
    p = _cli("solve", str(base / "model.mod"), str(base / "model.dat"), "--format", "json")
    out = json.loads(p.stdout)  # fails if the HiGHS banner leaked onto stdout
    assert p.returncode == 0
    assert out["status"] == "optimal"
    assert out["objective"] == pytest.approx(2017.5)
    assert set(out["variables"]["ship"]) == {"Seattle", "SanDiego", "Denver"}
    assert isinstance(out["solve_time_s"], float)


@needs_shared
def test_cli_check_json_contract_and_exit_status():
    p = _cli("check", str(SHARED / "diagnostics" / "misspelled_name.mod"), "--format", "json")
    assert p.returncode != 0
    diags = json.loads(p.stdout)["diagnostics"]
    d = diags[0]
    assert {"code", "severity", "message", "file", "line", "column", "help", "rendered"} <= set(d)
    assert d["line"] == 7 and "capacity" in d["rendered"] and "Traceback" not in p.stderr


@needs_shared
def test_cli_reports_infeasible_and_unbounded():
    for name, status in (("infeasible", "infeasible"), ("unbounded", "unbounded")):
        p = _cli("solve", str(SHARED / "acceptance" / name / "model.mod"), "--format", "json")
        assert json.loads(p.stdout)["status"] == status
