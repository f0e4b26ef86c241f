"""Issue 42, major 7: a results record with a field of an unexpected type is skipped and reported by
`syntagm bench` (resume) and `syntagm report`, the other records kept; never an internal error for
the whole folder (16 of 27 corruptions tried did that)."""
from __future__ import annotations

import json

import pytest

from syntagm.bench.results import ResultsLog
from syntagm.cli import main
from syntagm_testkit import GOOD, PROBLEM, WRONG, gen, pyopl_ready

MARKERS = {"a": "[case-a]", "b": "[case-b]", "c": "[case-c]"}

# one damaged field per case: (field, value); each made an internal error of `report` or of the resume
CORRUPTIONS = [
    ("sample", "x"), ("sample", [1]), ("sample", -1), ("sample", True), ("id", {"a": 1}), ("id", [1]),
    ("run_id", 5), ("model", ["m"]), ("strategy", {}), ("dataset", 3), ("status", 7), ("objective", "abc"),
    ("objective", [1]), ("answer", "twelve"), ("answer", {}), ("cost_usd", "1$"), ("cost_usd", [0.1]),
    ("latency_s", "slow"), ("wall_s", {}), ("prompt_tokens", "many"), ("completion_tokens", 1.5),
    ("llm_calls", None), ("iterations", "3"), ("settings", [1, 2]), ("settings", "x"), ("trace", {"a": 1}),
    ("solved", "yes"), ("compiled", 1), ("aligned", "maybe"), ("retries", -3), ("error", 404),
]


@pytest.fixture(autouse=True)
def compiler_ok(monkeypatch):
    if not pyopl_ready():
        import syntagm.assess.compiler as comp
        from syntagm_testkit import ScriptedCompiler
        fake = ScriptedCompiler()
        monkeypatch.setattr(comp, "check", fake.check)
        monkeypatch.setattr(comp, "solve", fake.solve)
        monkeypatch.setattr(comp, "_pyopl", lambda: None)


def _bench(monkeypatch, tmp_path, server, dataset, *args):
    monkeypatch.chdir(tmp_path)
    for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return main(["bench", "--dataset", str(dataset), "--retriever", "none", "--out", "out", "--max-retries", "0",
                 "--base-url", server.url, "--strategy", "standard", "--workers", "1"] + list(args))


def test_a_record_with_a_field_of_the_wrong_type_is_skipped_and_reported(server, tmp_path, monkeypatch, capsys):
    rows = [{"id": k, "en_question": f"{PROBLEM} {m}", "en_answer": "12"} for k, m in MARKERS.items()]
    dataset = tmp_path / "Tiny.json"
    dataset.write_text(json.dumps(rows))
    server.route_by_marker({MARKERS["a"]: [gen(GOOD)] * 2, MARKERS["b"]: [gen(WRONG)],
                            MARKERS["c"]: [gen(GOOD)]}, prompt=10, completion=5, cached=0)
    assert _bench(monkeypatch, tmp_path, server, dataset) == 0
    path = tmp_path / "out" / "results.jsonl"
    pristine = path.read_text().splitlines()
    first = json.loads(pristine[0])  # the record of problem `a`: line 1
    assert first["id"] == "a"
    capsys.readouterr()
    for name, value in CORRUPTIONS:
        bad = dict(first, **{name: value})
        path.write_text("\n".join([json.dumps(bad)] + pristine[1:]) + "\n")
        log = ResultsLog.open(path)
        assert len(log.records) == 2 and [c.line for c in log.corrupt] == [1], (name, value)
        assert f"field `{name}`" in log.corrupt[0].reason
        rc = main(["report", str(tmp_path / "out"), "--format", "json", "--no-plot"])
        out, err = capsys.readouterr()
        assert rc == 0 and "internal error" not in err, (name, value, err)
        report = json.loads(out)
        assert report["totals"]["recorded"] == 2, (name, value)
        assert any("line 1" in n and f"field `{name}`" in n for n in report["notes"]), report["notes"]
    # a resume runs the damaged record's problem again and keeps the other two
    path.write_text("\n".join([json.dumps(dict(first, sample="x"))] + pristine[1:]) + "\n")
    asked = len(server.requests)
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--format", "json")
    out, err = capsys.readouterr()
    assert rc == 0 and "internal error" not in err and "line 1 (field `sample`" in err
    assert len(server.requests) == asked + 1 and len(server.requests_for(MARKERS["a"])) == 2
    assert json.loads(out)["totals"]["recorded"] == 3
