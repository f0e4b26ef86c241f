"""The generate → compile → solve → judge → revise loop, end to end through the scripted server.

Each test runs twice: with a scripted compiler (the loop's logic alone) and with
the real pyopl compiler and HiGHS (skipped while pyopl is not importable).
"""
from __future__ import annotations

import json

import pytest

from syntagm.loop import LoopOptions, run_loop
from syntagm_testkit import (BROKEN, FIXABLE, GOOD, GOOD_DATA, GOOD_DATA_MODEL, INFEASIBLE, PROBLEM, WRONG, gen,
                             verdict)


def purposes(result):
    return [c.purpose for c in result.telemetry.calls]


def user_prompt(server, n):
    return server.requests[n]["body"]["messages"][-1]["content"]


def test_first_try_success(server, client, compiler_backend):
    server.push_reply(gen(GOOD_DATA_MODEL, GOOD_DATA))
    server.push_reply(verdict(True))
    events = []
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0), progress=events.append)
    assert r.status == "aligned"
    assert r.objective == pytest.approx(12.0)
    assert (r.model, r.data) == (GOOD_DATA_MODEL, GOOD_DATA)
    assert purposes(r) == ["generate", "judge"] and r.iterations == 1
    assert r.verdict == {"aligned": True, "issues": []}
    assert [e["step"] for e in events] == ["generate", "compile", "solve", "judge"]
    assert "variable values" in server.requests[1]["body"]["messages"][-1]["content"]
    assert len(r.attempts) == 1 and r.attempts[0].solved


def test_syntax_error_fixed_by_a_fixit_without_an_llm_call(server, client, compiler_backend):
    if compiler_backend == "pyopl":
        from syntagm.assess import compiler
        rep = compiler.check(FIXABLE, "")
        if not any(d.fix is not None and d.fix.applicability == "machine-applicable" for d in rep.diagnostics):
            pytest.skip("pyopl offers no machine-applicable fix for a missing ';' yet")
    server.push_reply(gen(FIXABLE))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert purposes(r) == ["generate", "judge"]  # no repair call
    assert r.attempts[0].fixes_applied
    assert r.attempts[0].compiled and r.attempts[0].model != FIXABLE


def test_syntax_error_repaired_by_the_llm(server, client, compiler_backend):
    server.push_reply(gen(BROKEN))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert purposes(r) == ["generate", "syntax_repair", "judge"]
    assert r.iterations == 2
    repair = user_prompt(server, 1)
    assert "x * y" in repair  # the previous attempt
    start = repair.index("[")
    diags = json.loads(repair[start: repair.index("\n\nFix every error")])
    assert diags and all({"code", "severity", "line", "column", "message"} <= set(d) for d in diags)
    assert any(d["severity"] == "error" for d in diags)
    assert not r.attempts[0].compiled and r.attempts[1].solved


def test_alignment_repair(server, client, compiler_backend):
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "tables earn 3, not 2"))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert purposes(r) == ["generate", "judge", "alignment_repair", "judge"]
    assert "tables earn 3, not 2" in user_prompt(server, 2)
    assert r.attempts[0].verdict["aligned"] is False


def test_infeasible_first_model_repaired(server, client, compiler_backend):
    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert purposes(r) == ["generate", "alignment_repair", "judge"]
    assert r.attempts[0].outcome["status"] == "infeasible"
    assert "infeasible" in user_prompt(server, 1)


def test_budget_exhaustion_keeps_the_best_attempt(server, client, compiler_backend):
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "wrong profit"))
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "still wrong"))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, max_iterations=2))
    assert r.status == "unaligned" and r.iterations == 2
    assert r.model == WRONG and r.objective == pytest.approx(8.0)
    assert r.verdict["aligned"] is False
    assert len(server.requests) == 4 and not server.queue


def test_budget_exhaustion_without_a_compiling_model(server, client, compiler_backend):
    for _ in range(3):
        server.push_reply(gen(BROKEN))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, max_iterations=3))
    assert r.status == "failed" and r.iterations == 3 and r.solution == {}
    assert r.model == BROKEN and len(r.attempts) == 3


def test_malformed_replies_are_fed_back(server, client, compiler_backend):
    server.push_reply("Sorry, I can only describe the model in words.")
    server.push_reply('```json\n{"model": ' + json.dumps(GOOD) + ', "data": "",}\n```')  # fenced, trailing comma
    server.push_reply("The model looks right to me.")  # judge breaks its contract once
    server.push_reply("Verdict: " + verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert purposes(r) == ["generate", "contract_repair", "judge", "judge"]
    assert r.attempts[0].contract_error and "no '{'" in r.attempts[0].contract_error
    assert "could not be used" in user_prompt(server, 1)


def test_missing_key_is_a_contract_error(server, client, compiler_backend):
    server.push_reply(json.dumps({"mod": GOOD}))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, max_iterations=1))
    assert r.status == "failed"
    assert 'missing key "model"' in r.attempts[0].contract_error


def test_telemetry_totals_equal_the_scripted_usage(server, client, compiler_backend):
    script = [(gen(BROKEN), 900, 120, 0), (gen(WRONG), 1500, 200, 1024), (verdict(False, "profit"), 700, 40, 0),
              (gen(GOOD), 1600, 210, 1024), (verdict(True), 720, 12, 512)]
    for content, p, c, cached in script:
        server.push_reply(content, prompt=p, completion=c, cached=cached)
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    t = r.telemetry.totals()
    assert t["prompt_tokens"] == sum(s[1] for s in script)
    assert t["completion_tokens"] == sum(s[2] for s in script)
    assert t["cached_tokens"] == sum(s[3] for s in script)
    assert t["llm_calls"] == 5 and not t["usage_estimated"]
    assert t["cost_usd"] == pytest.approx(sum(c.cost_usd for c in r.telemetry.calls))
    per_it = r.telemetry.by_iteration()
    assert [i["iteration"] for i in per_it] == [1, 2, 3]
    assert sum(i["prompt_tokens"] for i in per_it) == t["prompt_tokens"]


def test_endpoint_failure_ends_the_run_without_an_exception(server, client, compiler_backend):
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "profit"))
    for _ in range(4):
        server.push_error(500)
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "unaligned" and r.error and "server error" in r.error
    assert r.model == WRONG
    failed = r.telemetry.calls[-1]
    assert failed.error == "server_error" and failed.retries == 3 and failed.prompt_tokens == 0
    assert r.telemetry.totals()["retries"] == 3


def test_retrieved_exemplars_go_into_the_generation_prompt(server, client, compiler_backend, tmp_path):
    from syntagm.rag import BM25Retriever, load_knowledge_base
    d = tmp_path / "van_loading"
    d.mkdir()
    (d / "description.md").write_text("A workshop loads tables and chairs into a van to maximise profit.")
    (d / "model.mod").write_text("// EXEMPLAR-MARKER\ndvar float+ t;\nmaximize t;\nsubject to { c: t <= 1; }\n")
    retriever = BM25Retriever(load_knowledge_base(tmp_path))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=2), retriever=retriever)
    assert r.retrieved == ["van_loading"]
    assert "EXEMPLAR-MARKER" in user_prompt(server, 0)


def test_standard_strategy_is_single_shot(server, client, compiler_backend):
    from syntagm.strategies import StrategyContext, get_strategy
    server.push_reply(gen(WRONG))
    r = get_strategy("standard").solve(PROBLEM, StrategyContext(client, overrides={"max_iterations": 5, "exemplars": 0}))
    assert r.status == "solved" and purposes(r) == ["generate"] and r.objective == pytest.approx(8.0)


def test_reflexion_strategy_reflects_on_compiler_feedback(server, client, compiler_backend):
    from syntagm.strategies import StrategyContext, get_strategy
    server.push_reply(gen(BROKEN))
    server.push_reply(json.dumps({"reflection": "x*y is not linear", "model": GOOD, "data": ""}))
    r = get_strategy("reflexion").solve(PROBLEM, StrategyContext(client, overrides={"exemplars": 0}))
    assert r.status == "solved" and purposes(r) == ["generate", "reflect"]
    assert "reflect" in user_prompt(server, 1).lower()
