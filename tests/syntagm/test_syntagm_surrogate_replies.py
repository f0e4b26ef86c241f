"""Issue 33, class 7: a lone surrogate escape (``"\\ud800"``) in an LLM reply never crashes
``syntagm solve`` nor loses the run's outputs.

JSON allows ``\\ud800`` alone; Python decodes it to a lone surrogate, which UTF-8 cannot encode.
It used to end the run in ``UnicodeEncodeError`` while hashing the next request (and the
``openai`` library fails to send such text), leaving only ``transcript.jsonl.partial``.
"""
from __future__ import annotations

import hashlib
import json

import pytest

from syntagm.cli import main
from syntagm.llm.cache import request_key
from syntagm.llm.transcript import request_digest
from syntagm_testkit import GOOD, PROBLEM, gen, pyopl_ready, usage, verdict

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")

OUTPUTS = {"solution.json", "telemetry.json", "transcript.jsonl", "model.mod", "data.dat", "timings.json",
           "attempts.json"}


def _raw(content: str) -> bytes:
    """A chat completion whose content is ``content``, as ASCII JSON (a surrogate as `\\udXXX`)."""
    return json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": "m", "usage": usage(),
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}]}).encode("ascii")


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    for k in ("OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-surrogate-test")
    (tmp_path / "p.txt").write_text(PROBLEM)
    return tmp_path


def _solve(server, *extra):
    return main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--retriever", "none",
                 "--max-iterations", "1", "--max-retries", "0", "--format", "json", *extra])


def test_a_lone_surrogate_in_a_reply_keeps_the_run_and_every_output(env, server, capsys):
    server.push_raw(_raw(gen(GOOD.replace("maximize", "// lone \ud800 here\nmaximize"))))
    server.push_raw(_raw(verdict(True)))
    rc = _solve(server)
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["status"] == "aligned" and json.loads(out)["objective"] == pytest.approx(12.0)
    assert len(server.requests) == 2  # the judge's request (quoting the model) was sent
    assert "\ufffd" in json.dumps(server.requests[1]["body"], ensure_ascii=False)  # sent as U+FFFD
    assert {p.name for p in (env / "o").iterdir()} == OUTPUTS
    for name in ("solution.json", "telemetry.json", "attempts.json", "timings.json"):
        json.loads((env / "o" / name).read_text(encoding="utf-8"))
    lines = (env / "o" / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(l)["type"] for l in lines] == ["header", "exchange", "exchange"]
    # the recorded reply is the text received (the replay then serves the same text)
    assert "\ud800" in json.loads(json.loads(lines[1])["reply"]["content"])["model"]
    capsys.readouterr()
    assert main(["solve", "p.txt", "--replay", "o/transcript.jsonl", "--out", "o2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "aligned"


def test_a_judge_that_fails_at_the_endpoint_keeps_the_solved_run(env, server, capsys):
    # the judge's reply holds a lone surrogate (a broken contract), and its retry meets HTTP 500
    server.push_raw(_raw(gen(GOOD)))
    server.push_raw(_raw(verdict(True)[:-1] + ', "note": "x\udfff"}'))
    server.push_error(500, "judge down")
    rc = _solve(server)
    out, err = capsys.readouterr()
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["status"] == "solved" and doc["objective"] == pytest.approx(12.0)
    assert {p.name for p in (env / "o").iterdir()} == OUTPUTS
    sol = json.loads((env / "o" / "solution.json").read_text())
    assert sol["verdict"]["aligned"] is None and "judge down" in sol["verdict"]["error"]


def test_request_hashes_take_surrogates_and_keep_every_other_digest():
    msgs = [{"role": "user", "content": "caf\u00e9 \U0001F600"}]
    canon = json.dumps([["user", "caf\u00e9 \U0001F600"]], ensure_ascii=False, separators=(",", ":"))
    assert request_digest(msgs) == hashlib.sha256(canon.encode("utf-8")).hexdigest()  # unchanged digest
    bad = [{"role": "assistant", "content": "x\ud800y"}]
    assert len(request_digest(bad)) == 64 and request_digest(bad) != request_digest([{"role": "assistant",
                                                                                        "content": "x\udfffy"}])
    assert len(request_key({"model": "m", "messages": bad})) == 64


def test_an_internal_error_mid_run_keeps_the_exchanges_so_far(env, server, capsys, monkeypatch):
    from syntagm.strategies import presets

    def one_call_then_boom(self, problem, ctx):
        ctx.llm.chat([{"role": "user", "content": "hello"}], purpose="generate")
        raise RuntimeError("a bug after the first call")

    monkeypatch.setattr(presets.PresetStrategy, "solve", one_call_then_boom)
    server.push_raw(_raw(gen(GOOD)))
    rc = main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--retriever", "none", "-q"])
    err = capsys.readouterr().err
    assert rc == 3 and "a bug after the first call" in err
    partial = env / "o" / "transcript.jsonl.partial"
    assert str(partial.relative_to(env)) in err
    lines = partial.read_text(encoding="utf-8").splitlines()
    assert [json.loads(l)["type"] for l in lines] == ["header", "exchange"]
