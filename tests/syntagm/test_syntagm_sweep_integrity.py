"""Issue 47, part 2: sweeps never lose a failure, and their reports say what they measure.

Endpoint failures are retryable (recorded as such, pending, run again, exit 1); pooled totals of
a complete sweep have nothing pending; ``--replay`` keeps the recorded strategies and samples;
the report's pass@k, dollars per problem, problem-clustered intervals, paired comparison of two
models and per-iteration chart are checked against values worked out by hand.
"""
from __future__ import annotations

import json
import socket

import pytest

from syntagm.bench.report import build_report, curve_figure, text_table
from syntagm.cli import main
from syntagm_testkit import GOOD, WRONG, gen, pyopl_ready, verdict
from test_syntagm_sweeps import MARK, bench, env, records, route  # noqa: F401  (env is a fixture)

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")


def _closed_port_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: every request is refused
    return f"http://127.0.0.1:{port}/v1"


def test_an_endpoint_that_is_down_leaves_every_problem_pending_and_retried(server, env, capsys):
    down = ["bench", "--dataset", "Tiny.json", "--retriever", "none", "--out", "out", "--max-retries", "0",
            "--workers", "1", "--no-plot", "--base-url", _closed_port_url(), "--strategy", "standard",
            "--format", "json"]
    rc = main(down)
    cap = capsys.readouterr()
    rep = json.loads(cap.out)
    assert rc == 1  # the run did not complete
    # each problem's progress line says pending, as the report counts it (it said "wrong (failed, ...)")
    lines = [ln for ln in cap.err.splitlines() if ln.startswith("[") and " standard " in ln]
    assert len(lines) == 3 and all(": pending (failed, no objective" in ln for ln in lines), lines
    recs = records(env / "out" / "results.jsonl")
    assert len(recs) == 3 and all(r["retryable"] and r["endpoint_error"] == "connection" for r in recs)
    g = rep["groups"][0]
    assert (g["recorded"], g["pending"], g["accuracy"]) == (0, 3, None)  # not 0 %: nothing was measured
    assert any("3 problem(s) ended on an endpoint failure (connection)" in n for n in rep["notes"])
    assert main(["report", "out", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["pending"] == 3

    route(server, {k: [gen(GOOD)] for k in MARK})  # the endpoint is back: the same command runs them again
    assert bench(server, "--strategy", "standard", "--format", "json") == 0
    g = json.loads(capsys.readouterr().out)["groups"][0]
    assert len(server.requests) == 3 and (g["recorded"], g["pending"], g["correct"]) == (3, 0, 1)
    assert bench(server, "--strategy", "standard") == 0 and len(server.requests) == 3  # nothing left to run


def test_pooled_totals_of_a_complete_sweep_and_the_judges_rate(server, env, capsys):
    # syntagm (a judge, says aligned to all three) then standard (no judge) on each problem
    route(server, {k: [gen(GOOD), verdict(True), gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "syntagm", "--strategy", "standard", "--max-iterations", "1",
                 "--format", "json") == 0
    rep = json.loads(capsys.readouterr().out)
    t = rep["totals"]
    assert (t["problems"], t["recorded"], t["pending"]) == (6, 6, 0)
    assert [g["aligned_rate"] for g in rep["groups"]] == [1.0, None]
    assert t["aligned_rate"] == 1.0  # 3 of the 3 judged records, not 3 of 6


def test_replay_keeps_the_recorded_strategies_and_samples(server, env, capsys):
    route(server, {k: [gen(GOOD), gen(WRONG), gen(GOOD), gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "standard", "--strategy", "cot", "--samples", "2", "--record",
                 "--format", "json") == 0
    first = json.loads(capsys.readouterr().out)
    server.close()
    assert main(["bench", "--replay", "out", "--out", "again", "--workers", "1", "--no-plot", "--format",
                 "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [(g["strategy"], g["records"], g["samples"]) for g in again["groups"]] == \
        [("standard", 6, 2), ("cot", 6, 2)]
    assert [g["pass_at_k"] for g in again["groups"]] == [g["pass_at_k"] for g in first["groups"]]


def _rec(model: str, pid: str, sample: int, right: bool, cost: float, iters: int = 1, **extra) -> dict:
    obj = 12.0 if right else 8.0
    trace = [{"iteration": k, "objective": obj if k == iters else None, "prompt_tokens": 100, "completion_tokens": 10,
              "cost_usd": cost * k / iters} for k in range(1, iters + 1)]
    return {"dataset": "D", "id": pid, "sample": sample, "model": model, "strategy": "s", "objective": obj,
            "answer": 12.0, "compiled": True, "solved": True, "attempts": iters, "iterations": iters,
            "cost_usd": cost, "latency_s": 1.0, "wall_s": 1.0, "trace": trace, **extra}


def _report():
    # m1: problems p1..p3 right in both samples, p4..p6 wrong in both; m2 (one sample): p1, p4 right
    m1 = [_rec("m1", f"p{i}", k, i <= 3, 0.01, iters=2) for i in range(1, 7) for k in range(2)]
    m1[0]["equivalence"] = {"verdict": "equivalent_by_solutions", "equivalent": None}
    m1[2]["equivalence"] = {"verdict": "equivalent", "equivalent": True}
    m2 = [_rec("m2", f"p{i}", 0, i in (1, 4), 0.02) for i in range(1, 7)]
    groups = [{"run_id": "r", "model": "m1", "dataset": "D", "strategy": "s", "records": m1, "selected": 6},
              {"run_id": "r", "model": "m2", "dataset": "D", "strategy": "s", "records": m2, "selected": 6}]
    return build_report(groups, tol=1e-6)


def test_report_figures_by_hand():
    rep = _report()
    g1, g2 = rep["groups"]
    assert g1["per_problem"]["cost_usd"] == pytest.approx(0.12 / 6)  # both samples of a problem: 2 cents
    assert g1["per_sample"]["cost_usd"] == pytest.approx(0.01)
    # samples of a problem agree, so the bootstrap over problems is that of 3 right out of 6 problems:
    # P(X <= 0) = 1/64 < 2.5 % < P(X <= 1) = 7/64 for X ~ Bin(6, 1/2): the interval is [1/6, 5/6]
    assert g1["accuracy_ci_method"] == "cluster bootstrap by problem"
    assert g1["accuracy_ci95"] == pytest.approx([1 / 6, 5 / 6], abs=1e-6)
    assert g2["accuracy_ci_method"] == "wilson"
    assert g1["correct_equivalence"] == {"checked": 2, "proved_equivalent": 1, "by_solutions_only": 1,
                                         "different": 0, "unknown": 0}
    (c,) = rep["comparisons"]
    # first samples: m1 right on p1..p3, m2 on p1, p4: only m1 right on p2, p3; only m2 on p4
    assert (c["a"], c["b"], c["only_a_right"], c["only_b_right"]) == ("s / m1", "s / m2", 2, 1)
    assert c["mcnemar_p"] == pytest.approx(1.0)  # 2 * P(Bin(3, .5) <= 1) = 2 * 4/8
    text = text_table(rep)
    assert "@2 50.0%" in text and "pass@k" in text
    assert "1 rest only on equivalent_by_solutions" in text
    assert "paired (D, 6 problems): s / m1 50.0% vs s / m2 33.3%" in text


def test_iteration_chart_has_integer_ticks_a_cost_axis_from_zero_and_every_model():
    pytest.importorskip("matplotlib", reason="plots need the optional matplotlib (syntagm[bench])")
    fig = curve_figure(_report())
    ax, cost_ax = fig.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["s / D / m1", "s / D / m2 (one iteration)"]
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert cost_ax.get_ylim()[0] == 0
