"""``syntagm bench`` end to end through the scripted server: scoring, resume, crash recovery, report totals.

The dataset is written here (four problems, one without a numeric answer); the
server answers each problem from its own script (by a marker in the problem
text), so several workers can run at once and the request count per problem
shows whether a problem was asked twice.
"""
from __future__ import annotations

import json

import pytest

from syntagm.bench import is_correct, load_dataset, parse_answer
from syntagm.bench.results import ResultsLog
from syntagm.cli import main
from syntagm_testkit import BROKEN, GOOD, PROBLEM, WRONG, gen, pyopl_ready, verdict

MARKERS = {"a": "[case-a]", "b": "[case-b]", "c": "[case-c]", "d": "[case-d]"}
# a: correct (objective 12); b: wrong answer in the model (8 vs 12); c: no numeric answer; d: never compiles
ANSWERS = {"a": "12", "b": 12, "c": "No Best Solution", "d": 12.0}
STANDARD = {"a": [gen(GOOD)], "b": [gen(WRONG)], "c": [gen(GOOD)], "d": [gen(BROKEN)]}
USAGE = dict(prompt=1000, completion=200, cached=400)


@pytest.fixture(autouse=True)
def compiler_ok(monkeypatch):
    """The real pyopl when importable, else the scripted compiler."""
    if not pyopl_ready():
        import syntagm.assess.compiler as comp
        from syntagm_testkit import ScriptedCompiler
        fake = ScriptedCompiler()
        monkeypatch.setattr(comp, "check", fake.check)
        monkeypatch.setattr(comp, "solve", fake.solve)
        monkeypatch.setattr(comp, "_pyopl", lambda: None)


@pytest.fixture
def dataset(tmp_path):
    rows = [{"id": k, "en_question": f"{PROBLEM} {m}", "en_answer": ANSWERS[k]} for k, m in MARKERS.items()]
    path = tmp_path / "Tiny.json"
    path.write_text(json.dumps(rows))
    return path


def _bench(monkeypatch, tmp_path, server, dataset, *args):
    monkeypatch.chdir(tmp_path)
    for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    base = ["bench", "--dataset", str(dataset), "--retriever", "none", "--out", "out", "--max-retries", "0"]
    if server is not None:
        base += ["--base-url", server.url]
    return main(base + list(args))


def _records(tmp_path):
    return [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines() if line]


def _script(server, scripts, delay_s=0.0):
    server.route_by_marker({MARKERS[k]: v for k, v in scripts.items()}, delay_s=delay_s, **USAGE)


def test_bench_scores_reports_and_sums_telemetry(server, tmp_path, dataset, monkeypatch, capsys):
    scripts = {k: list(v) for k, v in STANDARD.items()}
    for k in scripts:  # syntagm: one generation, then the judge (max 1 iteration)
        scripts[k] = scripts[k] + [gen(GOOD if k != "d" else BROKEN), verdict(k != "b", "profit")]
    _script(server, scripts)
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--strategy", "syntagm",
                "--max-iterations", "1", "--workers", "3")
    out, err = capsys.readouterr()
    assert rc == 0, err
    recs = _records(tmp_path)
    assert len(recs) == 8 and {(r["strategy"], r["id"]) for r in recs} == {
        (s, k) for s in ("standard", "syntagm") for k in MARKERS}
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    std, syn = report["groups"]
    assert (std["strategy"], syn["strategy"]) == ("standard", "syntagm")
    # standard: a correct, b wrong (8 vs 12), d does not compile; c is unscorable
    assert (std["correct"], std["scorable"], std["unscorable"]) == (1, 3, 1)
    assert std["accuracy"] == pytest.approx(1 / 3) and std["compile_rate"] == pytest.approx(0.75)
    assert std["aligned_rate"] is None  # no judge in the standard strategy
    # syntagm: a aligned, b judged unaligned (its objective is still right), c aligned (unscorable), d broken
    assert syn["aligned"] == 2 and syn["aligned_rate"] == pytest.approx(0.5)
    assert syn["llm_calls"] == 2 * 3 + 1  # a, b, c: generate + judge; d: generate only
    assert (syn["correct"], syn["scorable"], syn["compiled"]) == (2, 3, 3)
    # totals are the sums of the per-problem records, which are the scripted usage per call
    calls = sum(r["llm_calls"] for r in recs)
    assert calls == len(server.requests)
    tot = report["totals"]
    assert tot["prompt_tokens"] == sum(r["prompt_tokens"] for r in recs) == USAGE["prompt"] * calls
    assert tot["completion_tokens"] == USAGE["completion"] * calls and tot["cached_tokens"] == USAGE["cached"] * calls
    assert tot["cost_usd"] == pytest.approx(sum(r["cost_usd"] for r in recs))
    assert tot["latency_s"] == pytest.approx(sum(r["latency_s"] for r in recs), abs=1e-5)
    assert tot["iterations"] == sum(r["iterations"] for r in recs) == 8
    assert std["cost_usd"] + syn["cost_usd"] == pytest.approx(tot["cost_usd"])
    assert "standard" in out and "33.3%" in out and "unscorable" in out
    assert "[8/8]" in err


def test_resume_after_interrupt_asks_nothing_twice(server, tmp_path, dataset, monkeypatch, capsys):
    # two replies each: a problem still running at Ctrl-C is abandoned and asked again on resume
    _script(server, {k: v * 2 for k, v in STANDARD.items()}, delay_s=0.25)
    import syntagm.bench.command as command
    real = command._progress_line
    seen = []

    def interrupt_after_two(*a, **k):
        seen.append(1)
        if len(seen) == 2:
            raise KeyboardInterrupt  # Ctrl-C right after the second problem was recorded
        return real(*a, **k)

    monkeypatch.setattr(command, "_progress_line", interrupt_after_two)
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--workers", "1")
    assert rc == 130
    first = [r["id"] for r in _records(tmp_path)]
    assert first == ["a", "b"]
    assert "interrupted" in capsys.readouterr().err
    monkeypatch.setattr(command, "_progress_line", real)
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--workers", "2")
    assert rc == 0
    recs = _records(tmp_path)
    assert sorted(r["id"] for r in recs) == ["a", "b", "c", "d"]
    for k in first:
        assert len(server.requests_for(MARKERS[k])) == 1, k  # finished problems are never asked again
    assert len(server.requests_for(MARKERS["d"])) == 1  # never started before the interrupt
    asked = len(server.requests)
    capsys.readouterr()
    # a third run has nothing left to do and asks nothing
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--format", "json")
    assert rc == 0 and len(server.requests) == asked
    doc = json.loads(capsys.readouterr().out)
    assert doc["totals"]["recorded"] == 4 and "correct" not in doc["totals"]  # pooled: sums only
    assert doc["groups"][0]["recorded"] == 4 and doc["groups"][0]["correct"] == 1


def test_corrupt_last_line_is_reported_and_its_problem_rerun(server, tmp_path, dataset, monkeypatch, capsys):
    # a reply left for each problem's rerun (an exhausted script is an endpoint failure: retryable, exit 1)
    _script(server, {"a": [gen(GOOD)] * 2, "b": [gen(WRONG)] * 2, "c": [gen(GOOD)] * 2, "d": [gen(BROKEN)] * 3})
    assert _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard") == 0
    path = tmp_path / "out" / "results.jsonl"
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])["id"]
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])  # a crash mid-write
    log = ResultsLog.open(path)
    assert len(log.records) == 3 and len(log.corrupt) == 1 and log.corrupt[0].last
    capsys.readouterr()
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--format", "json")
    out, err = capsys.readouterr()
    assert rc == 0
    assert "the last line (invalid JSON" in err and "run again" in err
    assert len(server.requests_for(MARKERS[last])) == 2 and len(server.requests) == 5
    report = json.loads(out)
    assert report["totals"]["recorded"] == 4 and any("the last line" in n for n in report["notes"])
    again = ResultsLog.open(path)  # the torn line is gone once its problem ran again
    assert len(again.records) == 4 and again.corrupt == []
    assert path.read_text().count("\n") == 4 and all(json.loads(x) for x in path.read_text().splitlines())
    rc = _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--format", "json")
    out, err = capsys.readouterr()
    assert rc == 0 and "warning" not in err and len(server.requests) == 5  # no warning, nothing asked


def test_tolerance_is_stated_and_applied(server, tmp_path, dataset, monkeypatch, capsys):
    rows = json.loads(dataset.read_text())
    rows[0]["en_answer"] = "12.0005"  # the model reaches 12: wrong at 1e-6, right at 1e-4
    dataset.write_text(json.dumps(rows))
    _script(server, STANDARD)
    args = ("--strategy", "standard", "--ids", "a", "--format", "json")
    assert _bench(monkeypatch, tmp_path, server, dataset, *args) == 0
    strict = json.loads(capsys.readouterr().out)
    assert strict["tolerance"] == 1e-6 and strict["groups"][0]["correct"] == 0
    assert _bench(monkeypatch, tmp_path, server, dataset, *args, "--tolerance", "1e-4") == 0  # re-scored, no calls
    loose = json.loads(capsys.readouterr().out)
    assert loose["tolerance"] == 1e-4 and loose["groups"][0]["correct"] == 1 and len(server.requests) == 1
    assert "|objective - answer| <= tolerance * max(1, |answer|)" == loose["scoring"]


def test_record_then_replay_offline(server, tmp_path, dataset, monkeypatch, capsys):
    _script(server, STANDARD)
    assert _bench(monkeypatch, tmp_path, server, dataset, "--strategy", "standard", "--record", "--limit", "2") == 0
    run_id = _records(tmp_path)[0]["run_id"]
    assert (tmp_path / "out" / "transcripts" / run_id / "gpt-4o-mini" / "Tiny" / "standard" / "a.jsonl").is_file()
    recorded = {r["id"]: r for r in _records(tmp_path)}
    server.close()
    monkeypatch.chdir(tmp_path)
    rc = main(["bench", "--dataset", str(dataset), "--strategy", "standard", "--limit", "2", "--retriever", "none",
               "--replay", "out", "--out", "again", "--format", "json"])
    assert rc == 0
    lines = (tmp_path / "again" / "results.jsonl").read_text().splitlines()
    again = {r["id"]: r for r in map(json.loads, lines)}
    assert set(again) == {"a", "b"}
    for k in again:
        for f in ("objective", "prompt_tokens", "completion_tokens", "cost_usd", "latency_s", "model", "status"):
            assert again[k][f] == recorded[k][f], f


@pytest.mark.parametrize("raw, value", [(684000.0, 684000.0), ("3050.0", 3050.0), (" -12 ", -12.0), ("1,200", 1200.0),
                                        (7, 7.0), ("No Best Solution", None), ("", None), (None, None), (True, None),
                                        ("nan", None), ("inf", None), ([1], None)])
def test_parse_answer(raw, value):
    assert parse_answer(raw) == value


def test_is_correct_uses_a_relative_tolerance_floored_at_one():
    assert is_correct(1000.0009, 1000.0, 1e-6)  # 9e-4 <= 1e-6 * 1000
    assert not is_correct(1000.0011, 1000.0, 1e-6)
    assert is_correct(0.0000009, 0.0, 1e-6) and not is_correct(0.0000011, 0.0, 1e-6)  # absolute below 1
    assert is_correct(-50.00004, -50.0, 1e-6)
    assert is_correct(None, 5.0) is False and is_correct(5.0, None) is None and is_correct(float("nan"), 5.0) is False


def test_dataset_ids_and_errors(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"en_question": "q1", "en_answer": 1}, {"en_question": "q2"}]))
    probs = load_dataset(p)
    assert [q.id for q in probs] == ["0", "1"] and probs[1].answer is None and probs[0].dataset == "x"
    p.write_text(json.dumps([{"index": 5, "en_question": "q", "en_answer": 1}, {"index": 7, "en_question": "r",
                                                                               "en_answer": 2}]))
    assert [q.id for q in load_dataset(p)] == ["5", "7"]
    from syntagm.errors import SyntagmError
    p.write_text(json.dumps([{"en_answer": 1}]))
    with pytest.raises(SyntagmError, match="entry 0 .* no \"en_question\""):
        load_dataset(p)
    with pytest.raises(SyntagmError, match="does not exist"):
        load_dataset(tmp_path / "nope.json")


def test_bench_usage_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["bench", "--dataset", "missing.json"]) == 2
    assert "dataset missing.json does not exist" in capsys.readouterr().err
    (tmp_path / "d.json").write_text(json.dumps([{"en_question": "q", "en_answer": 1}]))
    assert main(["bench", "--dataset", "d.json"]) == 2
    assert "no LLM endpoint is configured" in capsys.readouterr().err
    assert main(["bench", "--dataset", "d.json", "--replay", "nowhere"]) == 2
    assert "replay needs the --out of a run made with --record" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_run_id_is_a_usage_error(tmp_path, monkeypatch, capsys, name):
    """``--run-id ''`` silently ran under the derived id, not the (empty) name given."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text(json.dumps([{"en_question": "q", "en_answer": 1}]))
    with pytest.raises(SystemExit) as e:
        main(["bench", "--dataset", "d.json", "--run-id", name, "--base-url", "http://127.0.0.1:9/v1"])
    assert e.value.code == 2
    assert "--run-id: expected a name, got an empty one" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
