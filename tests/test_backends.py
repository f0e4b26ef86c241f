"""Both backends agree, Gurobi's licence and missing package become diagnostics, capabilities
refuse what a backend cannot take, solver options reach the solver, and an incumbent survives a
time limit with its bound and gap."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import pyopl
from pyopl.backends.capabilities import CAPABILITIES, model_features, refusal
from shared_material import SHARED, challenge_references, load_cases, needs_shared
from solver_support import gurobi_reason, needs_gurobi, within_licence

TOL = 1e-6
ACCEPTANCE = load_cases("acceptance")
CHALLENGE = challenge_references()


def _agree(a, b):
    assert a.status == b.status, (a.status, b.status, a.message, b.message)
    if a.objective is None:
        assert b.objective is None
    else:
        assert abs(a.objective - b.objective) <= TOL * max(1.0, abs(a.objective)), (a.objective, b.objective)


@needs_shared
@needs_gurobi
@pytest.mark.parametrize("case", ACCEPTANCE, ids=[c["name"] for c in ACCEPTANCE])
def test_backends_agree_on_acceptance_models(case):
    base = SHARED / "acceptance"
    model = pyopl.compile_model(base / case["model"], data=(base / case["data"]) if case["data"] else None)
    h, g = model.solve(solver="highs"), model.solve(solver="gurobi")
    _agree(h, g)
    assert g.status == case["status"]
    if case["objective"] is not None:
        assert abs(g.objective - case["objective"]) <= TOL * max(1.0, abs(case["objective"]))


@pytest.fixture(scope="module")
def challenge_models():
    out = {}
    for e in CHALLENGE:
        try:
            out[str(e["id"])] = pyopl.compile_model(e["model"], data=e["data"])
        except pyopl.CompileError:
            out[str(e["id"])] = None
    return out


@needs_gurobi
@pytest.mark.skipif(not CHALLENGE, reason="../shared/benchmarks/ChallengeOR.json is not present")
def test_backends_agree_on_challengeor_references(challenge_models):
    compared, over = [], []
    for key, model in challenge_models.items():
        if model is None:
            continue
        if not within_licence(model.ir):
            over.append(key)
            continue
        _agree(model.solve(solver="highs", time_limit=60), model.solve(solver="gurobi", time_limit=60))
        compared.append(key)
    assert len(compared) >= 35, compared  # 39 of the 40 references fit the licence today
    assert over, "expected at least one reference over the licence (id 50 has 40,800 variables)"


@needs_gurobi
@pytest.mark.skipif(not CHALLENGE, reason="../shared/benchmarks/ChallengeOR.json is not present")
def test_real_model_over_the_licence_gets_the_licence_diagnostic(challenge_models):
    big = [m for m in challenge_models.values() if m is not None and not within_licence(m.ir)]
    res = big[0].solve(solver="gurobi")
    assert res.status == "error"
    assert [d.code for d in res.diagnostics] == ["OPL0701"]
    assert "size-limited licence" in res.diagnostics[0].message and "HiGHS" in res.diagnostics[0].help


BIG = "range R = 1..2001;\ndvar float+ x[R] in 0..1;\nmaximize sum(r in R) x[r];\n"


@needs_gurobi
def test_licence_limit_is_a_diagnostic_and_highs_solves_it(tmp_path):
    model = pyopl.compile_model(BIG)
    res = model.solve(solver="gurobi")
    assert res.status == "error" and res.objective is None
    d = res.diagnostics[0]
    assert d.code == "OPL0701" and "2001 variables" in d.message and "--solver highs" in d.help
    assert model.solve(solver="highs").objective == 2001.0
    # the CLI: clean JSON on stdout, no traceback, the diagnostic in it
    path = tmp_path / "big.mod"
    path.write_text(BIG)
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path), "--solver", "gurobi", "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "error" and out["diagnostics"][0]["code"] == "OPL0701"
    assert "Traceback" not in p.stderr and "Restricted license" not in p.stdout


@needs_gurobi
def test_quadratic_licence_limit_names_the_quadratic_limit():
    text = "range R = 1..201;\ndvar float x[R] in -1..1;\nminimize sum(r in R) (x[r]*x[r] - x[r]);\n"
    res = pyopl.compile_model(text).solve(solver="gurobi")
    assert res.diagnostics[0].code == "OPL0701" and "200 variables with a quadratic objective" in res.diagnostics[0].message


def test_missing_gurobipy_is_a_diagnostic(monkeypatch):
    from pyopl.backends.mp import gurobi

    monkeypatch.setattr(gurobi, "_gurobipy", lambda: None)
    res = pyopl.compile_model("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }").solve(solver="gurobi")
    assert res.status == "error" and res.diagnostics[0].code == "OPL0702"
    assert "gurobipy" in res.diagnostics[0].message and "highs" in res.diagnostics[0].help


MIQP = "dvar int x in 0..5;\ndvar float+ y;\nminimize x*x + y;\nsubject to { x + y >= 2.5; }\n"
NONCONVEX = "dvar float x in 0..5;\nminimize 4*x - x*x;\nsubject to { x >= 1; }\n"


def test_capabilities_are_declared_and_checked_before_solving():
    assert {"lp", "mip", "qp"} <= CAPABILITIES["highs"].features and "miqp" not in CAPABILITIES["highs"].features
    assert "miqp" in CAPABILITIES["gurobi"].features
    ir = pyopl.compile_model(MIQP).ir
    assert model_features(ir) == {"lp", "mip", "miqp", "qp"}
    assert refusal(ir, "gurobi") is None
    msg, help = refusal(ir, "highs")
    assert "MIQP" in msg and "--solver gurobi" in help
    res = pyopl.compile_model(MIQP).solve(solver="highs")
    assert res.status == "error" and res.diagnostics[0].code == "OPL0703"
    res = pyopl.compile_model(NONCONVEX).solve(solver="highs")
    assert res.status == "error" and "non-convex" in res.diagnostics[0].message


@needs_gurobi
def test_gurobi_takes_what_highs_refuses():
    # x integer in 0..5, y = max(0, 2.5 - x): x*x + max(0, 2.5-x) is 2.5, 2.5, 4.5 for x = 0, 1, 2: optimum 2.5
    # (the continuous relaxation would reach 2.25 at x = 0.5)
    assert pyopl.compile_model(MIQP).solve(solver="gurobi").objective == pytest.approx(2.5, abs=1e-6)
    # 4x - x^2 on [1, 5] is smallest at x = 5: -5
    assert pyopl.compile_model(NONCONVEX).solve(solver="gurobi").objective == pytest.approx(-5.0, abs=1e-6)


@pytest.mark.parametrize("solver", ["highs", "gurobi"])
def test_unknown_option_is_a_diagnostic(solver):
    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())
    model = pyopl.compile_model("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }")
    res = model.solve(solver=solver, options={"no_such_option": 3})
    assert res.status == "error" and res.diagnostics[0].code == "OPL0707"
    assert "no_such_option" in res.diagnostics[0].message
    ok = model.solve(solver=solver, options={"presolve": "off"} if solver == "highs" else {"Presolve": 0})
    assert ok.status == "optimal" and ok.objective == 1.0


def _market_split(m: int = 5, n: int = 40, seed: int = 7) -> str:
    """A market-split problem (Cornuéjols and Dawande, 1999): tiny, and famously slow to prove optimal."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 100, size=(m, n))
    rows = ",\n".join("[" + ", ".join(map(str, r)) + "]" for r in a)
    return ("int m = %d;\nint n = %d;\nint a[1..m][1..n] = [%s];\n" % (m, n, rows) +
            "int d[i in 1..m] = (sum(j in 1..n) a[i][j]) div 2;\n"
            "dvar boolean x[1..n];\ndvar float+ over[1..m];\ndvar float+ under[1..m];\n"
            "minimize sum(i in 1..m) (over[i] + under[i]);\n"
            "subject to { forall(i in 1..m) ctSplit: sum(j in 1..n) a[i][j] * x[j] - over[i] + under[i] == d[i]; }\n")


@pytest.mark.parametrize("solver", ["highs", "gurobi"])
def test_time_limit_keeps_the_incumbent_with_bound_and_gap(solver):
    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())
    model = pyopl.compile_model(_market_split())
    res = model.solve(solver=solver, time_limit=0.5, threads=1, seed=1)
    if res.status == "optimal":
        pytest.skip("the solver proved this instance optimal within the limit")
    assert res.status == "time_limit"
    assert res.objective is not None and res.variables["x"]  # the incumbent
    assert res.best_bound is not None and res.best_bound <= res.objective + 1e-9
    assert res.mip_gap is not None and res.mip_gap > 0
    assert res.nodes is not None and res.nodes >= 0
    d = res.to_dict()
    assert {"best_bound", "mip_gap", "nodes"} <= set(d)
    from pyopl.results.report import text_report

    text = text_report(res)
    assert "best bound:" in text and "gap:" in text


@needs_gurobi
def test_gurobi_log_goes_to_a_file_and_never_to_stdout(tmp_path):
    log = tmp_path / "gurobi.log"
    path = tmp_path / "m.mod"
    path.write_text("dvar int x in 0..10;\nmaximize x;\nsubject to { 2*x <= 7; }\n")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path), "--solver", "gurobi", "--format", "json",
                        "--log", "--log-file", str(log), "--mip-gap", "0", "--mip-gap-abs", "0", "--threads", "1",
                        "--seed", "2", "--time-limit", "10"], capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)  # the log went to stderr, not into the JSON
    assert out["status"] == "optimal" and out["objective"] == 3.0
    assert "Gurobi" in p.stderr and "Gurobi" in log.read_text()


def test_highs_log_goes_to_a_file_and_stdout_stays_json(tmp_path):
    log = tmp_path / "highs.log"
    path = tmp_path / "m.mod"
    path.write_text("dvar int x in 0..10;\nmaximize x;\nsubject to { 2*x <= 7; }\n")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path), "--format", "json", "--log",
                        "--log-file", str(log), "--option", "presolve=off"], capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "optimal" and out["objective"] == 3.0
    assert "HiGHS" in log.read_text()


LEX = "dvar float+ x;\ndvar float+ y;\nminimize staticLex(x + y, x - y);\nsubject to { c1: x + y >= 2; c2: y <= 1.5; }\n"


@pytest.mark.parametrize("solver", ["highs", "gurobi"])
def test_static_lex_objectives_in_priority_order(solver):
    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())
    # by hand: x + y is at least 2; among those points x - y is smallest at y = 1.5, x = 0.5: -1
    res = pyopl.compile_model(LEX).solve(solver=solver)
    assert res.status == "optimal" and res.objective == pytest.approx(2.0)
    assert res.extra["objectives"] == pytest.approx([2.0, -1.0])
    assert res.variables == pytest.approx({"x": 0.5, "y": 1.5})
