"""Issue 33, class 6: an endpoint that echoes the API key (or any header value the client sent)
in its replies never gets it into a recorded file.

The scripted OpenAI-compatible server builds each reply from the request's own headers
(``Authorization: Bearer <key>`` and the ``OpenAI-Organization`` / ``OpenAI-Project`` headers the
``openai`` client sends from the environment), putting them in the model text, the data and the
judge's verdict. Every file the run writes is then searched for each value. Redaction is done
once, in :mod:`syntagm.safeio` (the recording layer), so the test covers every writer.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from syntagm.cli import main
from syntagm.redact import REDACTED, redact_secrets, register_client_headers
from syntagm_testkit import GOOD, PROBLEM, Item, gen, pyopl_ready, usage, verdict

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")

KEY = "sk-echo-SECRET-KEY-4711"
ORG = "org-SECRET-ORGANISATION-99"
PROJECT = "proj-SECRET-PROJECT-42"
SECRETS = (KEY, ORG, PROJECT)


def _echo_model(headers: dict) -> str:
    headers = {k.lower(): v for k, v in headers.items()}
    auth = headers.get("authorization") or ""
    org = headers.get("openai-organization") or ""
    proj = headers.get("openai-project") or ""
    assert KEY in auth and org == ORG and proj == PROJECT  # the client really sent them
    model = GOOD.replace("maximize", "// echoed: %s | %s | %s\nmaximize" % (auth, org, proj))
    return gen(model, "// the key again: %s\n" % KEY)


def _echo_verdict(headers: dict) -> str:
    auth = {k.lower(): v for k, v in headers.items()}.get("authorization")
    return verdict(True)[:-1] + ', "note": "seen %s %s"}' % (auth, ORG)


def _echoing(server, n_problems: int = 1) -> None:
    for _ in range(n_problems):
        server.push_item(Item(content_from=_echo_model, usage=usage()))
        server.push_item(Item(content_from=_echo_verdict, usage=usage()))


def _written(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def _assert_no_secret(files: list[Path]) -> None:
    assert files
    for p in files:
        raw = p.read_bytes()
        for s in SECRETS:
            assert s.encode() not in raw, (p, s)
            # nor in an escaped form (JSON written as ASCII)
            assert json.dumps(s)[1:-1].encode() not in raw, (p, s)


@pytest.fixture
def env(monkeypatch, tmp_path, server):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    for k in ("OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_ORG_ID", ORG)
    monkeypatch.setenv("OPENAI_PROJECT_ID", PROJECT)
    (tmp_path / "p.txt").write_text(PROBLEM)
    return tmp_path


def test_an_echoed_key_and_headers_never_reach_a_solve_s_files(env, server, capsys):
    _echoing(server)
    rc = main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--record", "rec/t.jsonl",
               "--retriever", "none", "--max-iterations", "1", "--max-retries", "0", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["status"] == "aligned"  # the echo did not break the run
    for s in SECRETS:
        assert s not in out and s not in err
    files = _written(env / "o") + _written(env / "rec")
    names = {p.name for p in files}
    assert {"transcript.jsonl", "attempts.json", "model.mod", "t.jsonl"} <= names, names
    _assert_no_secret(files)
    # the echo reached the recording layer and was replaced there (not merely absent)
    assert REDACTED in (env / "o" / "transcript.jsonl").read_text()
    assert REDACTED in (env / "o" / "attempts.json").read_text()


def test_a_redacted_transcript_replays_the_same_run(env, server, capsys):
    """The replay digest is taken over the recorded (redacted) messages, so a run whose prompts
    quoted an echoed key still replays strictly, offline."""
    _echoing(server)
    assert main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--retriever", "none",
                 "--max-iterations", "1", "--max-retries", "0", "-q"]) == 0
    capsys.readouterr()
    rc = main(["solve", "p.txt", "--replay", "o/transcript.jsonl", "--out", "o2", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["status"] == "aligned"
    assert len(server.requests) == 2  # nothing asked again
    _assert_no_secret(_written(env / "o2"))


def test_an_echoed_key_never_reaches_bench_results_caches_or_reports(env, server, capsys):
    (env / "d.json").write_text(json.dumps([{"id": 1, "en_question": PROBLEM, "en_answer": 12}]))
    _echoing(server)
    rc = main(["bench", "--dataset", "d.json", "--strategy", "syntagm", "--base-url", server.url,
               "--retriever", "none", "--out", "out", "--max-iterations", "1", "--max-retries", "0",
               "--temperature", "0", "--cache", "cache", "--record", "--no-plot"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    files = _written(env / "out") + _written(env / "cache")
    names = {p.name for p in files}
    assert "results.jsonl" in names and "run.json" in names and any(p.suffix == ".json" and p.parent.parent.name
                                                                   == "cache" for p in files), names
    assert any("transcripts" in p.parts for p in files), names
    _assert_no_secret(files)
    for s in SECRETS:
        assert s not in out and s not in err


def test_redaction_helpers_take_substrings_and_header_tokens():
    register_client_headers({"Authorization": "Bearer tok-SECRET-123456", "X-Custom-Auth": "custom-SECRET-7",
                             "User-Agent": "OpenAI/Python 3.57.0", "Accept": "application/json"})
    text = "a%sb custom-SECRET-7c OpenAI/Python 3.57.0 application/json" % "tok-SECRET-123456"
    assert redact_secrets(text) == "a%sb %sc OpenAI/Python 3.57.0 application/json" % (REDACTED, REDACTED)
    # ordinary words the error scrubber's patterns would touch are left alone in recorded text
    assert redact_secrets("a basic solution; Authorization: none") == "a basic solution; Authorization: none"
