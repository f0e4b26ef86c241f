"""Any OpenAI-compatible endpoint: rejected parameters, token caps, cut-off replies, bodies that are
not chat completions, visible retries, and the repair prompts' wording (scripted server, real client)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from syntagm.errors import LLMError
from syntagm.llm.client import OpenAIChatClient
from syntagm.loop import CUT_OFF_NOTE, LoopOptions, run_loop
from syntagm_testkit import FIXABLE, GOOD, INFEASIBLE, PROBLEM, WRONG, Item, gen, verdict

MSGS = [{"role": "user", "content": "hello"}]


def _bodies(server):
    return [r["body"] for r in server.requests]


def test_rejected_temperature_is_dropped_for_the_rest_of_the_run(server, llm_config):
    lines = []
    client = OpenAIChatClient(replace(llm_config, temperature=0.0), notify=lines.append)
    server.push_item(Item('{"a": 1}', reject=("temperature",)))
    server.push_item(Item('{"a": 2}', reject=("temperature",)))
    assert client.chat(MSGS, purpose="p").content == '{"a": 1}'
    assert client.chat(MSGS, purpose="p").content == '{"a": 2}'
    bodies = _bodies(server)
    assert len(bodies) == 3  # one refusal, then two requests without temperature
    assert bodies[0]["temperature"] == 0.0 and "temperature" not in bodies[1] and "temperature" not in bodies[2]
    assert client.dropped == ["temperature"]
    assert lines == ["the endpoint rejects temperature; sending requests without it from now on"]


def test_temperature_is_not_sent_when_unset(server, llm_config):
    client = OpenAIChatClient(llm_config)  # the default: unset
    server.push_reply("{}")
    reply = client.chat(MSGS, purpose="p")
    assert "temperature" not in server.requests[0]["body"] and reply.request["temperature"] is None
    assert len(server.requests) == 1  # no refused request first


def test_a_dropped_temperature_is_recorded_as_not_sent(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, temperature=0.0))
    server.push_item(Item('{"a": 1}', reject=("temperature",)))
    assert client.chat(MSGS, purpose="p").request["temperature"] is None


def test_max_tokens_switches_to_max_completion_tokens(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, max_tokens=321))
    server.push_error(400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                      "Use 'max_completion_tokens' instead.")
    server.push_reply("{}")
    server.push_reply("{}")
    client.chat(MSGS, purpose="p")
    client.chat(MSGS, purpose="p")
    b = _bodies(server)
    assert b[0]["max_tokens"] == 321 and "max_completion_tokens" not in b[0]
    assert b[1]["max_completion_tokens"] == 321 and "max_tokens" not in b[1]
    assert b[2]["max_completion_tokens"] == 321 and "max_tokens" not in b[2]
    assert client.token_param == "max_completion_tokens"


def test_max_completion_tokens_rejected_switches_back(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, max_tokens=99))
    client.token_param = "max_completion_tokens"
    server.push_item(Item("{}", reject=("max_completion_tokens",)))
    client.chat(MSGS, purpose="p")
    b = _bodies(server)
    assert b[-1]["max_tokens"] == 99 and "max_completion_tokens" not in b[-1]


def test_a_rejected_seed_named_in_the_param_field_is_dropped(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, seed=7))
    server.queue.append(Item(status=400, error_message="invalid request", error_param="seed"))
    server.push_reply("{}")
    client.chat(MSGS, purpose="p")
    b = _bodies(server)
    assert b[0]["seed"] == 7 and "seed" not in b[1]


def test_a_400_naming_nothing_we_sent_still_fails_at_once(server, client):
    server.push_error(400, "messages: too long")
    with pytest.raises(LLMError) as e:
        client.chat(MSGS, purpose="p")
    assert e.value.kind == "bad_request" and len(server.requests) == 1


def test_an_html_page_is_a_clear_endpoint_error(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, max_retries=0))
    server.push_raw(b"<!DOCTYPE html><html><body>Welcome to nginx</body></html>", content_type="text/html")
    with pytest.raises(LLMError) as e:
        client.chat(MSGS, purpose="p")
    msg = str(e.value)
    assert e.value.kind == "bad_response"
    assert server.url in msg and "HTML page" in msg and "/v1" in msg


@pytest.mark.parametrize("body", [b'{"detail": "Not Found"}', b'"a string"', b'{"choices": []}'])
def test_json_that_is_not_a_chat_completion_is_an_error_not_an_empty_reply(server, llm_config, body):
    client = OpenAIChatClient(replace(llm_config, max_retries=0))
    server.push_raw(body)
    with pytest.raises(LLMError) as e:
        client.chat(MSGS, purpose="p")
    assert e.value.kind == "bad_response" and "choices" in str(e.value) and server.url in str(e.value)


def test_each_retry_is_a_progress_line_with_reason_and_wait(server, llm_config):
    lines = []
    client = OpenAIChatClient(replace(llm_config, backoff_s=0.01), notify=lines.append, sleep=lambda s: None)
    server.push_error(429, headers={"retry-after": "0.02"})
    server.push_error(503)
    server.push_reply("{}")
    client.chat(MSGS, purpose="p")
    assert len(lines) == 2
    assert lines[0].startswith("retry 1/3 after a rate limit (HTTP 429); waiting 0.0 s")
    assert lines[1].startswith("retry 2/3 after a server error (HTTP 503); waiting")


def test_cut_off_reply_is_repaired_by_asking_for_a_shorter_answer(server, client, compiler_backend):
    server.push_item(Item('{"model": "dvar float+ x; dvar float+ y;\\nmaximize 3*x', finish_reason="length"))
    server.push_reply(gen(GOOD))
    res = run_loop(PROBLEM, client, LoopOptions(use_judge=False))
    assert res.status == "solved"
    repair = server.requests[1]["body"]["messages"][-1]["content"]
    assert CUT_OFF_NOTE in repair
    assert res.attempts[0].contract_error.startswith("Your reply was cut off")


def test_a_complete_reply_is_not_called_cut_off(server, client, compiler_backend):
    server.push_reply("not json at all")
    server.push_reply(gen(GOOD))
    run_loop(PROBLEM, client, LoopOptions(use_judge=False))
    assert "cut off" not in server.requests[1]["body"]["messages"][-1]["content"]


def test_judge_retry_says_what_was_wrong(server, client, compiler_backend):
    server.push_reply(gen(GOOD))
    server.push_reply('{"verdict": "looks fine"}')
    server.push_reply(verdict(True))
    res = run_loop(PROBLEM, client, LoopOptions())
    assert res.status == "aligned"
    first, retry = server.requests[1]["body"]["messages"], server.requests[2]["body"]["messages"]
    assert retry[: len(first)] == first  # same conversation, plus the reply and what was wrong with it
    assert retry[len(first)] == {"role": "assistant", "content": '{"verdict": "looks fine"}'}
    assert "could not be used" in retry[-1]["content"] and '"aligned"' in retry[-1]["content"]


def test_failed_call_of_an_unpriced_model_is_unpriced(server, llm_config, compiler_backend):
    client = OpenAIChatClient(replace(llm_config, model="my-own-model"))  # in no price table
    server.push_error(401)
    res = run_loop(PROBLEM, client, LoopOptions())
    assert res.status == "failed" and res.telemetry.calls[0].error == "auth"
    assert res.telemetry.calls[0].cost_usd is None and res.telemetry.totals()["cost_usd"] is None


def test_failed_call_of_a_priced_model_costs_zero(server, client, compiler_backend):
    server.push_error(401)
    res = run_loop(PROBLEM, client, LoopOptions())
    assert res.telemetry.totals()["cost_usd"] == 0.0


def test_fixits_applied_before_a_repair_are_named_in_it(server, client, monkeypatch):
    import syntagm.assess.compiler as comp
    from syntagm_testkit import ScriptedCompiler

    fake = ScriptedCompiler()
    monkeypatch.setattr(comp, "check", fake.check)
    monkeypatch.setattr(comp, "solve", fake.solve)
    monkeypatch.setattr(comp, "apply_machine_fixes",
                        lambda m, d, r: (GOOD.replace("3*x", "2*x"), d, ["OPL0101 model:1:14 insert `;`"])
                        if m == FIXABLE else (m, d, []))
    server.push_reply(gen(FIXABLE))
    server.push_reply(verdict(False, "profit of a table is 3"))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    res = run_loop(PROBLEM, client, LoopOptions())
    assert res.status == "aligned"
    repair = server.requests[2]["body"]["messages"][-1]["content"]
    assert "Fix-its already applied by the compiler" in repair and "OPL0101 model:1:14 insert `;`" in repair
    # a repair after an attempt without fix-its says nothing of them
    assert "Fix-its" not in server.requests[0]["body"]["messages"][-1]["content"]


def test_solver_explanation_appears_once_in_the_repair_prompt(server, client, compiler_backend):
    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    res = run_loop(PROBLEM, client, LoopOptions())
    assert res.status == "aligned"
    repair = server.requests[1]["body"]["messages"][-1]["content"]
    explanation = res.attempts[0].outcome["message"]
    assert explanation and repair.count(explanation) == 1
    assert repair.count("infeasible") >= 1


def test_conflict_summary_is_said_once_with_the_real_compiler(server, client):
    # ctA: x + y <= 4 and ctC: x + y >= 10 conflict; HiGHS's IIS names both. The solver's message,
    # the conflict record and the OPL0704 warning all carry the same summary: it must appear once
    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    res = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert res.status == "aligned"
    repair = server.requests[1]["body"]["messages"][-1]["content"]
    assert repair.count("cannot hold together") == 1
    assert "ctA: x + y <= 4" in repair and "ctC: x + y >= 10" in repair


def test_cli_max_tokens_reaches_the_request(server, tmp_path, monkeypatch, compiler_backend):
    from syntagm.cli import main

    p = tmp_path / "p.txt"
    p.write_text(PROBLEM)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for k in ("OPENAI_API_KEY", "SYNTAGM_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(k, raising=False)
    server.push_reply(gen(WRONG))
    rc = main(["solve", str(p), "--base-url", server.url, "--max-tokens", "777", "--strategy", "standard",
               "--retriever", "none", "-q", "--out", str(tmp_path / "o")])
    assert rc == 0
    assert server.requests[0]["body"]["max_tokens"] == 777
