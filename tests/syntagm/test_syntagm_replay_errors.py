"""Issue 42 (minor): a malformed replay transcript (a field of the wrong type in the header, an
exchange, its reply, error or telemetry) is a usage error naming the line, never an internal error."""
from __future__ import annotations

import json

import pytest

from syntagm.cli import main
from syntagm_testkit import GOOD, PROBLEM, gen

DAMAGE = [
    (0, "run", "fast"), (0, "run", {"max_iterations": "many"}), (0, "run", {"settings": [1]}), (0, "model", 5),
    (1, "reply", "text"), (1, "reply", {"content": 5}), (1, "telemetry", 3), (1, "telemetry", {"prompt_tokens": None}),
    (1, "telemetry", {"purpose": "g", "model": "m", "prompt_tokens": "ten", "completion_tokens": 1}),
    (1, "error", {"attempts": "x"}), (1, "error", "boom"), (1, "request_sha256", 7), (1, "purpose", ["generate"]),
]


@pytest.fixture
def recorded(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    for k in ("OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    (tmp_path / "p.txt").write_text(PROBLEM)
    server.push_reply(gen(GOOD))
    assert main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--retriever", "none", "--strategy",
                 "standard", "--max-retries", "0", "-q"]) == 0
    return [json.loads(line) for line in (tmp_path / "o" / "transcript.jsonl").read_text().splitlines()]


def test_a_malformed_transcript_is_a_usage_error_naming_the_line(recorded, tmp_path, capsys):
    assert main(["solve", "p.txt", "--replay", "o/transcript.jsonl", "--out", "r", "-q"]) == 0  # as recorded
    capsys.readouterr()
    for line, field, value in DAMAGE:
        lines = [dict(x) for x in recorded]
        if isinstance(value, dict) and isinstance(lines[line].get(field), dict) and field != "run":
            lines[line][field] = dict(lines[line][field], **value)
        else:
            lines[line][field] = value
        (tmp_path / "bad.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
        rc = main(["solve", "p.txt", "--replay", "bad.jsonl", "--out", "r2", "-q"])
        err = capsys.readouterr().err
        assert rc == 2 and "internal error" not in err, (field, value, err)
        assert "bad.jsonl:%d" % (line + 1) in err and "not a transcript line" in err, (field, value, err)


def test_a_transcript_that_is_not_utf8_is_a_usage_error_naming_the_line(recorded, tmp_path, capsys):
    """A byte that is not UTF-8 (a damaged copy) ended the replay with ``internal error: UnicodeDecodeError``."""
    good = (tmp_path / "o" / "transcript.jsonl").read_bytes()
    (tmp_path / "bad.jsonl").write_bytes(good.replace(b'"reply"', b'"re\xffply"', 1))
    rc = main(["solve", "p.txt", "--replay", "bad.jsonl", "--out", "r2", "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "internal error" not in err
    assert "bad.jsonl:2: not a transcript line (not UTF-8 text)" in err, err
