"""The LLM client against the scripted OpenAI-compatible server: telemetry, retries, timeouts, JSON mode."""
from __future__ import annotations

import logging

import pytest

from syntagm.errors import LLMError
from syntagm.llm.client import OpenAIChatClient
from syntagm.prices import load_prices

MSGS = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


def test_reply_and_telemetry_from_usage(server, client):
    server.push_reply('{"ok": true}', prompt=1200, completion=300, cached=1000)
    r = client.chat(MSGS, purpose="generate", iteration=1, prompt_version="generate.v1")
    assert r.content == '{"ok": true}'
    t = r.telemetry
    assert (t.prompt_tokens, t.completion_tokens, t.cached_tokens) == (1200, 300, 1000)
    assert not t.usage_estimated and t.retries == 0 and t.latency_s > 0
    assert (t.purpose, t.iteration, t.prompt_version) == ("generate", 1, "generate.v1")
    price = load_prices().lookup("gpt-4o-mini")
    expected = (200 * price.input + 1000 * price.cached_input + 300 * price.output) / 1e6
    assert t.cost_usd == pytest.approx(expected)
    body = server.requests[0]["body"]
    assert body["messages"] == MSGS and body["model"] == "gpt-4o-mini"
    assert body["response_format"] == {"type": "json_object"}


def test_missing_usage_is_estimated_and_flagged(server, llm_config):
    from dataclasses import replace

    from syntagm.llm.client import OpenAIChatClient

    client = OpenAIChatClient(replace(llm_config, model="local-llama"))  # no tokenizer for it offline
    server.push_reply("x" * 400, with_usage=False)
    t = client.chat(MSGS, purpose="judge").telemetry
    assert t.usage_estimated and t.usage_source.startswith("estimate")
    assert t.completion_tokens == 100  # 400 characters / 4
    assert t.prompt_tokens == 3 + (4 + 2) + (4 + 2)  # priming + per-message framing + ceil(len/4)


@pytest.mark.parametrize("usage", [
    {"prompt_tokens": -1_000_000, "completion_tokens": 10},   # would lower the run's cost under its cap
    {"prompt_tokens": 10 ** 30, "completion_tokens": 10},     # printed a cost of $1.5e23
    {"prompt_tokens": 100, "completion_tokens": 1e308},
    {"prompt_tokens": 100, "completion_tokens": "many"},
    {"prompt_tokens": 12.5, "completion_tokens": 3},
    {"prompt_tokens": 100, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 500}},
])
@pytest.mark.filterwarnings("error:Pydantic serializer warnings:UserWarning")  # was printed on the terminal
def test_a_malformed_usage_block_is_counted_here_not_believed(server, llm_config, usage):
    from dataclasses import replace

    from syntagm.llm.client import OpenAIChatClient
    from syntagm_testkit import Item

    client = OpenAIChatClient(replace(llm_config, model="local-llama"))  # counted by the chars/4 estimate
    server.push_item(Item("x" * 400, usage=usage))
    t = client.chat(MSGS, purpose="judge").telemetry
    assert t.usage_estimated and (t.prompt_tokens, t.completion_tokens, t.cached_tokens) == (3 + 6 + 6, 100, 0)


def test_missing_usage_is_counted_exactly_where_a_tokenizer_exists(server, client):
    pytest.importorskip("bpe_openai", reason="the optional exact tokenizer (syntagm[tokens]) is not installed")
    server.push_reply("Hello world", with_usage=False)
    t = client.chat(MSGS, purpose="judge").telemetry
    assert t.usage_estimated and t.usage_source == "exact: o200k_base"  # counted here, not by the endpoint
    assert t.completion_tokens == 2  # o200k: "Hello" 13225, " world" 2375
    # priming 3 + per message (3 + role 1 token + content): "be brief" 2 tokens, "hello" 1 token
    assert t.prompt_tokens == 3 + (3 + 1 + 2) + (3 + 1 + 1)


def test_429_then_success_is_retried(server, client):
    server.push_error(429, "slow down", headers={"retry-after": "0"})
    server.push_error(429, "slow down")
    server.push_reply("{}")
    r = client.chat(MSGS, purpose="generate")
    assert r.telemetry.retries == 2
    assert len(server.requests) == 3


def test_500_until_retries_run_out(server, client):
    for _ in range(4):
        server.push_error(500, "boom")
    with pytest.raises(LLMError) as e:
        client.chat(MSGS, purpose="generate")
    assert e.value.kind == "server_error" and e.value.attempts == 4
    assert "4 requests" in str(e.value)
    assert len(server.requests) == 4


def test_timeout_is_retried(server, llm_config):
    llm_config.timeout_s = 0.3
    c = OpenAIChatClient(llm_config)
    server.push_delay(1.5)
    server.push_reply('{"a": 1}')
    r = c.chat(MSGS, purpose="generate")
    assert r.content == '{"a": 1}' and r.telemetry.retries == 1
    assert r.telemetry.latency_s >= 0.3


def test_timeout_exhausted_is_a_clear_error(server, llm_config):
    llm_config.timeout_s = 0.2
    llm_config.max_retries = 1
    c = OpenAIChatClient(llm_config)
    server.push_delay(1.0)
    server.push_delay(1.0)
    with pytest.raises(LLMError) as e:
        c.chat(MSGS, purpose="generate")
    assert e.value.kind == "timeout" and "did not answer within 0.2 s" in str(e.value)


def test_json_mode_fallback_when_endpoint_rejects_response_format(server, client):
    server.push_error(400, "response_format is not supported by this model")
    server.push_reply("{}")
    server.push_reply("{}")
    client.chat(MSGS, purpose="generate")
    client.chat(MSGS, purpose="generate")
    first, second, third = (r["body"] for r in server.requests)
    assert "response_format" in first
    assert "response_format" not in second and "response_format" not in third


def test_auth_error_does_not_leak_the_key(server, client, caplog):
    caplog.set_level(logging.DEBUG)
    server.push_error(401, "invalid api key")
    with pytest.raises(LLMError) as e:
        client.chat(MSGS, purpose="generate")
    assert e.value.kind == "auth" and e.value.attempts == 1
    assert "SECRET" not in str(e.value) and "SECRET" not in caplog.text
    assert "SECRET" not in repr(client.config) and "SECRET" not in str(client.config.describe())
    assert server.requests[0]["authorization"] == "Bearer sk-test-SECRET-KEY"  # it was sent, only never shown


def test_connection_refused(llm_config):
    llm_config.base_url = "http://127.0.0.1:9/v1"
    llm_config.max_retries = 1
    with pytest.raises(LLMError) as e:
        OpenAIChatClient(llm_config).chat(MSGS, purpose="generate")
    assert e.value.kind == "connection" and "cannot connect" in str(e.value)


def test_unpriced_model_has_no_cost(server, llm_config):
    llm_config.model = "my-local-llama"
    server.push_reply("{}")
    assert OpenAIChatClient(llm_config).chat(MSGS, purpose="generate").telemetry.cost_usd is None
