"""Issue 18: bench runs that are what they say (identity, transcripts per model and settings,
offline re-scoring, reports) and what a method comparison needs (samples, statistics,
taxonomy, per-iteration curves), through the scripted OpenAI-compatible server."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from syntagm.bench.analysis import failure_class
from syntagm.bench.stats import mcnemar_exact, pass_at_k, wilson_interval
from syntagm.cli import main
from syntagm_testkit import BROKEN, GOOD, PROBLEM, WRONG, gen, pyopl_ready, verdict

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")

MARK = {"a": "[case-a]", "b": "[case-b]", "c": "[case-c]"}


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    rows = [{"id": "a", "en_question": f"{PROBLEM} {MARK['a']}", "en_answer": 12, "difficulty": "Easy"},
            {"id": "b", "en_question": f"{PROBLEM} {MARK['b']}", "en_answer": "12.0005", "difficulty": "Hard"},
            {"id": "c", "en_question": f"{PROBLEM} {MARK['c']}", "en_answer": "No Best Solution",
             "difficulty": "Hard"}]
    (tmp_path / "Tiny.json").write_text(json.dumps(rows))
    return tmp_path


def bench(server, *args, out="out"):
    base = ["bench", "--dataset", "Tiny.json", "--retriever", "none", "--out", out, "--max-retries", "0",
            "--workers", "1", "--no-plot"]
    if server is not None:
        base += ["--base-url", server.url]
    return main(base + list(args))


def records(path):
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def route(server, replies):
    server.route_by_marker({MARK[k]: list(v) for k, v in replies.items()})


# -- runs that are what they say -----------------------------------------------------------------

def test_other_settings_never_reuse_old_results(server, env, capsys):
    route(server, {k: [gen(GOOD)] * 2 for k in MARK})
    assert bench(server, "--strategy", "standard") == 0
    first = records(env / "out" / "results.jsonl")
    assert len(server.requests) == 3
    assert all("temperature" not in r["body"] for r in server.requests)  # unset: not sent at all
    capsys.readouterr()
    rc = bench(server, "--strategy", "standard", "--exemplars", "0", "--max-iterations", "1", "--temperature",
               "0.7", "--format", "json")
    report = json.loads(capsys.readouterr().out)
    assert rc == 0 and len(server.requests) == 6  # every problem asked again
    assert all(r["body"]["temperature"] == 0.7 for r in server.requests[3:])
    recs = records(env / "out" / "results.jsonl")
    runs = {r["run_id"] for r in recs}
    assert len(recs) == 6 and len(runs) == 2
    new = next(iter(runs - {first[0]["run_id"]}))
    assert report["run_ids"] == [new] and report["groups"][0]["run_id"] == new
    assert report["groups"][0]["records"] == 3  # the old run's records are not in this report
    assert report["settings"][new]["temperature"] == 0.7 and report["settings"][new]["exemplars"] == 0
    run = json.loads((env / "out" / "run.json").read_text())
    assert run["run_id"] == new and run["choices"]["temperature"] == 0.7 and run["settings"]["max_iterations"] == 1
    for r in recs:
        if r["run_id"] == new:
            assert r["settings"]["temperature"] == 0.7 and r["settings"]["exemplars"] == 0
        else:
            assert r["settings"]["temperature"] is None  # unset is recorded as null


def test_a_named_run_with_other_settings_is_refused_naming_them(server, env, capsys):
    route(server, {k: [gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "standard", "--run-id", "base") == 0
    capsys.readouterr()
    rc = bench(server, "--strategy", "standard", "--run-id", "base", "--temperature", "0.5", "--exemplars", "1")
    err = capsys.readouterr().err
    assert rc == 2 and len(server.requests) == 3
    assert "run id 'base' already holds results made with other settings" in err
    assert "temperature: null → 0.5" in err and "exemplars: null → 1" in err


def test_a_problem_whose_question_changed_in_the_dataset_is_run_again(server, env, capsys):
    # a dataset corrected in place: the old record answers another question, so it is not reused
    route(server, {"a": [gen(WRONG), gen(GOOD)], "b": [gen(GOOD)], "c": [gen(GOOD)]})
    assert bench(server, "--strategy", "standard") == 0
    rows = json.loads((env / "Tiny.json").read_text())
    rows[0]["en_question"] = rows[0]["en_question"].replace("profit 3 each", "profit 3 each, corrected")
    (env / "Tiny.json").write_text(json.dumps(rows))
    capsys.readouterr()
    assert bench(server, "--strategy", "standard", "--format", "json") == 0
    out, err = capsys.readouterr()
    assert len(server.requests) == 4 and len(server.requests_for(MARK["a"])) == 2  # only `a` asked again
    assert "1 recorded problem(s) have another question text in the dataset now (first: Tiny #a)" in err
    rep = json.loads(out)
    a = [r for r in records(env / "out" / "results.jsonl") if r["id"] == "a"]
    assert len(a) == 2 and a[-1]["objective"] == 12 and a[0]["question_sha256"] != a[-1]["question_sha256"]
    assert rep["groups"][0]["records"] == 3 and rep["groups"][0]["correct"] == 1  # a, now right (b: 12.0005 is off)


def test_two_models_keep_their_transcripts_apart_and_replay_checks_them(server, env, capsys):
    route(server, {k: [gen(GOOD), gen(WRONG)] for k in MARK})
    rc = bench(server, "--strategy", "standard", "--model", "m-one", "--model", "m-two", "--record",
               "--format", "json")
    report = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [(g["model"], g["correct"]) for g in report["groups"]] == [("m-one", 1), ("m-two", 0)]
    assert [r["body"]["model"] for r in server.requests] == ["m-one"] * 3 + ["m-two"] * 3
    run_id = report["run_ids"][0]
    root = env / "out" / "transcripts" / run_id
    one, two = root / "m-one" / "Tiny" / "standard" / "a.jsonl", root / "m-two" / "Tiny" / "standard" / "a.jsonl"
    assert json.loads(one.read_text().splitlines()[0])["model"] == "m-one"
    assert json.loads(two.read_text().splitlines()[0])["model"] == "m-two"
    assert "maximize 3*x" in one.read_text() and "maximize 2*x" not in one.read_text()
    assert "maximize 2*x" in two.read_text()

    server.close()
    assert main(["bench", "--dataset", "Tiny.json", "--replay", "out", "--out", "again", "--model", "m-two",
                 "--strategy", "standard", "--workers", "1", "--no-plot", "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [(g["model"], g["correct"]) for g in again["groups"]] == [("m-two", 0)]

    shutil.copy(one, two)  # m-one's exchanges where m-two's should be: replay refuses them
    rc = main(["bench", "--dataset", "Tiny.json", "--replay", "out", "--out", "again2", "--model", "m-two",
               "--strategy", "standard", "--ids", "a", "--no-plot"])
    err = capsys.readouterr().err
    assert rc == 1 and "recorded for another run (model: recorded 'm-one', this run 'm-two')" in err

    rc = main(["bench", "--dataset", "Tiny.json", "--replay", "out", "--out", "again3", "--model", "m-two",
               "--strategy", "standard", "--ids", "b", "--max-iterations", "2", "--no-plot"])
    err = capsys.readouterr().err
    assert rc == 1 and "no recorded transcript for run" in err
    assert f"{run_id} (models m-one, m-two; settings differ: max_iterations: null → 2)" in err


def test_changing_tolerances_rescores_without_an_endpoint(server, env, capsys):
    route(server, {k: [gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "standard", "--format", "json") == 0
    strict = json.loads(capsys.readouterr().out)["groups"][0]
    assert (strict["correct"], strict["scorable"]) == (1, 2)  # b's answer is 12.0005: wrong at 1e-6
    server.close()
    # no endpoint configured at all: the bench re-scores what is recorded
    assert bench(None, "--strategy", "standard", "--tolerance", "1e-4", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["correct"] == 2
    assert main(["report", "out", "--abs-tol", "0.001", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["groups"][0]["correct"] == 2 and rep["abs_tol"] == 0.001
    assert rep["scoring"] == "|objective - answer| <= max(tolerance * max(1, |answer|), abs_tol)"
    assert main(["report", "out", "--abs-tol", "0.0001", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["correct"] == 1


def test_pooled_totals_carry_no_accuracy_and_unscorable_counts_problems(server, env, capsys):
    route(server, {k: [gen(GOOD), gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "standard", "--strategy", "cot", "--out", "o2") == 0
    out = capsys.readouterr().out
    rep = json.loads((env / "o2" / "report.json").read_text())
    assert "accuracy" not in rep["totals"] and "correct" not in rep["totals"]
    assert rep["totals"]["pooled_over"]["strategy"] == ["cot", "standard"]
    assert rep["totals"]["unscorable"] == 1 and rep["totals"]["records"] == 6  # one problem, two records
    assert "pooled" in out and "no accuracy is given for a pool" in out
    assert "1 problem(s) have no numeric reference answer" in out
    for name in ("report.md", "report.csv"):
        assert (env / "o2" / name).stat().st_size > 0
    csv_lines = (env / "o2" / "report.csv").read_text().splitlines()
    assert len(csv_lines) == 3 and csv_lines[0].startswith("run_id,dataset,strategy,model")


# -- what a method comparison needs --------------------------------------------------------------

def test_statistics_against_hand_computed_values():
    low, high = wilson_interval(8, 10)  # p = .8, z = 1.96: centre .716737, half-width .226580
    assert low == pytest.approx(0.490157, abs=1e-5) and high == pytest.approx(0.943317, abs=1e-5)
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 5)[0] == 0.0
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)  # 2 * (C(7,0) + C(7,1)) / 2^7
    assert mcnemar_exact(0, 5) == pytest.approx(0.0625)
    assert mcnemar_exact(3, 3) == 1.0 and mcnemar_exact(0, 0) == 1.0
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)  # 1 - C(3,2)/C(5,2)
    assert pass_at_k(3, 2, 2) == 1.0 and pass_at_k(3, 0, 1) == 0.0 and pass_at_k(2, 1, 3) is None


def test_samples_pass_at_k_seeds_and_agreement(server, env, capsys):
    route(server, {"a": [gen(GOOD), gen(WRONG), gen(GOOD)], "b": [gen(WRONG)] * 3, "c": [gen(GOOD)] * 3})
    rc = bench(server, "--strategy", "standard", "--samples", "3", "--seed", "7", "--format", "json")
    g = json.loads(capsys.readouterr().out)["groups"][0]
    assert rc == 0
    assert [r["body"]["seed"] for r in server.requests] == [7, 8, 9] * 3
    recs = records(env / "out" / "results.jsonl")
    assert sorted((r["id"], r["sample"]) for r in recs) == [(i, k) for i in "abc" for k in range(3)]
    # a: 2 of 3 right, b: 0 of 3 (c is unscorable)
    assert g["samples"] == 3
    assert g["pass_at_k"]["1"] == pytest.approx((2 / 3 + 0) / 2, abs=1e-6)
    assert g["pass_at_k"]["2"] == pytest.approx((1.0 + 0) / 2)  # a: 1 - C(1,2)/C(3,2) = 1
    assert g["pass_at_k"]["3"] == pytest.approx(0.5)
    assert g["agreement"] == pytest.approx(0.5)  # b's samples agree, a's do not
    assert (env / "out" / "results.jsonl").read_text().count('"sample": 2') == 3


def test_paired_comparison_says_when_methods_are_not_distinguishable(server, env, capsys):
    route(server, {"a": [gen(GOOD), gen(WRONG)], "b": [gen(WRONG), gen(WRONG)], "c": [gen(GOOD), gen(GOOD)]})
    assert bench(server, "--strategy", "standard", "--strategy", "cot", "--format", "json") == 0
    (comp,) = json.loads(capsys.readouterr().out)["comparisons"]
    assert (comp["a"], comp["b"], comp["problems"]) == ("standard", "cot", 2)
    assert (comp["only_a_right"], comp["only_b_right"]) == (1, 0)
    assert comp["mcnemar_p"] == 1.0 and comp["distinguishable"] is False
    assert comp["difference"] == pytest.approx(0.5)
    assert "not distinguishable at 5 %" in (env / "out" / "report.md").read_text()


def test_failure_taxonomy_on_scripted_outcomes(server, env, capsys):
    base = {"answer": 12.0, "compiled": True, "solved": True, "attempts": 1}
    cases = [
        ({"objective": 12.0, "aligned": True}, "correct"),
        ({"objective": 12.0, "aligned": None}, "correct"),
        ({"objective": 12.0, "aligned": False}, "right_but_judged_misaligned"),
        ({"objective": 8.0, "aligned": True}, "aligned_but_wrong"),
        ({"objective": 8.0, "aligned": False}, "wrong_and_judged_misaligned"),
        ({"objective": 8.0, "aligned": None}, "wrong_objective"),
        ({"objective": None, "solved": False, "solver_status": "infeasible"}, "solver_infeasible"),
        ({"objective": None, "solved": False, "compiled": False}, "compile_error"),
        ({"objective": None, "solved": False, "compiled": False, "contract_only": True}, "contract_error"),
        ({"objective": None, "solved": False, "compiled": False, "attempts": 0, "error": "down"}, "endpoint_error"),
        ({"objective": 8.0, "answer": None}, "unscorable"),
    ]
    for fields, expected in cases:
        assert failure_class({**base, **fields}, 1e-6) == expected, fields
    # and from a real run: the judge accepts a wrong model (b), rejects nothing, a is right, c unscorable
    route(server, {"a": [gen(GOOD), verdict(True)], "b": [gen(WRONG), verdict(True)],
                   "c": [gen(BROKEN), gen(BROKEN)]})
    assert bench(server, "--strategy", "syntagm", "--max-iterations", "1", "--format", "json") == 0
    g = json.loads(capsys.readouterr().out)["groups"][0]
    assert g["taxonomy"]["counts"] == {"aligned_but_wrong": 1, "compile_error": 1, "correct": 1}
    assert g["taxonomy"]["judge_calibration"]["aligned_but_wrong_rate"] == pytest.approx(0.5)
    assert g["breakdowns"]["difficulty"]["Easy"]["accuracy"] == 1.0
    assert g["breakdowns"]["difficulty"]["Hard"]["correct"] == 0


def test_per_iteration_accuracy_and_cost(server, env, capsys):
    route(server, {"a": [gen(BROKEN), gen(WRONG), verdict(False, "tables earn 3"), gen(GOOD), verdict(True)],
                   "b": [gen(GOOD), verdict(True)], "c": [gen(GOOD), verdict(True)]})
    assert bench(server, "--strategy", "syntagm", "--max-iterations", "3", "--format", "json") == 0
    g = json.loads(capsys.readouterr().out)["groups"][0]
    recs = {r["id"]: r for r in records(env / "out" / "results.jsonl")}
    assert [t["objective"] for t in recs["a"]["trace"]] == [None, 8.0, 12.0]
    curve = g["curves"]
    assert [c["iteration"] for c in curve] == [1, 2, 3]
    # a becomes right only at iteration 3; b (answer 12.0005) is wrong at 1e-6 throughout
    assert [c["correct"] for c in curve] == [0, 0, 1] and all(c["scorable"] == 2 for c in curve)
    # tokens: 100 prompt per call; a makes 1, 3 and 5 calls by iterations 1..3, b and c 2 each
    assert [c["prompt_tokens_per_problem"] for c in curve] == [pytest.approx((100 + 200 + 200) / 3, abs=0.05),
                                                              pytest.approx((300 + 200 + 200) / 3, abs=0.05),
                                                              pytest.approx((500 + 200 + 200) / 3, abs=0.05)]


def test_models_from_config_tables_get_their_endpoint_key_and_price(server, env, capsys, monkeypatch):
    monkeypatch.setenv("BETA_KEY", "sk-beta-123456")
    (env / "sweep.toml").write_text(f"""
[models.alpha]
base_url = "{server.url}"
model = "served-alpha"
prices = {{ input = 1000.0, output = 0.0 }}

[models.beta]
base_url = "{server.url}"
api_key_env = "BETA_KEY"
""")
    route(server, {k: [gen(GOOD), gen(GOOD)] for k in MARK})
    rc = main(["bench", "--dataset", "Tiny.json", "--retriever", "none", "--out", "out", "--workers", "1",
               "--no-plot", "--strategy", "standard", "--model", "alpha", "--model", "beta", "--config", "sweep.toml",
               "--format", "json"])
    rep = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [r["body"]["model"] for r in server.requests] == ["served-alpha"] * 3 + ["beta"] * 3
    assert [r["authorization"] for r in server.requests[3:]] == ["Bearer sk-beta-123456"] * 3
    alpha, beta = rep["groups"]
    assert (alpha["model"], beta["model"]) == ("alpha", "beta")
    assert alpha["cost_usd"] == pytest.approx(3 * 100 * 1000 / 1e6)  # 100 prompt tokens a call at $1000/M
    assert beta["cost_usd"] is None  # "beta" is in no price table: unpriced, not free


PRICED = """
[models.alpha]
base_url = "{url}"
prices = {{ input = 1000.0, output = 0.0 }}
"""  # 100 prompt tokens a call: $0.10 a call


def priced_bench(server, env, *args, out="out"):
    (env / "priced.toml").write_text(PRICED.format(url=server.url))
    return main(["bench", "--dataset", "Tiny.json", "--retriever", "none", "--out", out, "--workers", "1",
                 "--no-plot", "--model", "alpha", "--config", "priced.toml", "--max-retries", "0", *args])


def test_the_sweep_cost_cap_stops_starting_problems(server, env, capsys):
    route(server, {k: [gen(GOOD)] for k in MARK})
    rc = priced_bench(server, env, "--strategy", "standard", "--max-cost-usd", "0.15", "--format", "json")
    rep = json.loads(capsys.readouterr().out)
    assert rc == 1  # not every problem was run
    assert len(server.requests) == 2 and rep["groups"][0]["records"] == 2
    assert rep["skipped"] == [{"model": "alpha", "strategy": "standard", "dataset": "Tiny", "id": "c", "sample": 0}]
    assert any("cost cap $0.15 reached ($0.200000 spent" in n for n in rep["notes"])


@pytest.mark.parametrize("cap", ["--max-cost-usd", "--max-cost-usd-per-problem"])
def test_a_cost_cap_on_an_unpriced_model_is_refused_before_any_call(server, env, capsys, cap):
    # an unpriced call counts as $0 against the cap, so the cap would never stop the sweep
    route(server, {k: [gen(GOOD)] for k in MARK})
    rc = bench(server, "--strategy", "standard", "--model", "qwen2.5-7b-instruct", cap, "0.0001")
    err = capsys.readouterr().err
    assert rc == 2 and len(server.requests) == 0
    assert f"{cap} needs a price for every model, and 'qwen2.5-7b-instruct' has none" in err


def test_the_problem_cost_cap_ends_a_run_keeping_what_it_has(server, env, capsys):
    route(server, {"a": [gen(BROKEN)] * 5, "b": [gen(GOOD), verdict(True)], "c": [gen(GOOD), verdict(True)]})
    rc = priced_bench(server, env, "--strategy", "syntagm", "--max-cost-usd-per-problem", "0.15",
                      "--max-iterations", "5", "--format", "json")
    capsys.readouterr()
    assert rc == 0
    recs = {r["id"]: r for r in records(env / "out" / "results.jsonl")}
    assert len(server.requests_for(MARK["a"])) == 2  # $0.10 + $0.10, then the cap refuses the third call
    assert "cost cap of $0.15 is spent" in recs["a"]["error"] and recs["a"]["cost_usd"] == pytest.approx(0.2)
    assert recs["b"]["error"] is None and recs["b"]["cost_usd"] == pytest.approx(0.2)


def test_cache_hits_cost_nothing_and_are_counted(server, env, capsys):
    route(server, {k: [gen(GOOD)] * 3 for k in MARK})
    assert priced_bench(server, env, "--strategy", "standard", "--cache", "llm-cache", "--temperature", "0") == 0
    assert len(server.requests) == 3
    capsys.readouterr()
    # the same requests in another run (another folder): answered from the cache
    assert priced_bench(server, env, "--strategy", "standard", "--cache", "llm-cache", "--out", "o2",
                        "--temperature", "0", "--format", "json") == 0
    g = json.loads(capsys.readouterr().out)["groups"][0]
    assert len(server.requests) == 3
    assert g["cache_hits"] == 3 and g["cost_usd"] == 0.0 and g["correct"] == 1
    assert g["prompt_tokens"] == 300  # the tokens the method needed are still reported
    # sampling at temperature 0.7 without a seed is never served from the cache
    assert priced_bench(server, env, "--strategy", "standard", "--cache", "llm-cache", "--out", "o3",
                        "--temperature", "0.7", "--ids", "a") == 0
    assert len(server.requests) == 4
    # nor is an unset temperature (the endpoint samples at its own default), and the run says so
    capsys.readouterr()
    assert priced_bench(server, env, "--strategy", "standard", "--cache", "llm-cache", "--out", "o4",
                        "--ids", "a") == 0
    assert len(server.requests) == 5
    assert "without --temperature 0 or --seed the requests are sampled and none is cached" in capsys.readouterr().err


def test_prompt_size_says_how_it_counted(env, capsys):
    (env / "q.json").write_text(json.dumps([{"en_question": PROBLEM}]))
    assert main(["prompt-size", "q.json", "--retriever", "none", "--model", "local-llama", "--format", "json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert est["method"].startswith("estimate: ceil(characters/4)")
    pytest.importorskip("bpe_openai", reason="the optional exact tokenizer (syntagm[tokens]) is not installed")
    assert main(["prompt-size", "q.json", "--retriever", "none", "--model", "gpt-4o-mini", "--format", "json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert exact["method"] == "exact: o200k_base" and exact["model"] == "gpt-4o-mini"
    from syntagm.loop import LoopOptions, _Run
    from syntagm.tokens import encoding_for

    class NoLLM:
        model = "none"

    messages, _p, _t = _Run(PROBLEM, NoLLM(), LoopOptions(), None, None).first_prompt()
    enc = encoding_for("gpt-4o-mini")[1]
    by_hand = 3 + sum(3 + len(enc.encode(m["role"])) + len(enc.encode(m["content"])) for m in messages)
    assert exact["max"] == by_hand


def test_shards_split_a_sweep_and_report_joins_them(server, env, capsys):
    from syntagm.bench.command import in_shard
    from syntagm.bench.datasets import load_dataset

    problems = load_dataset(env / "Tiny.json")
    owners = [[i for i in (1, 2, 3) if in_shard(p, (i, 3))] for p in problems]
    assert all(len(o) == 1 for o in owners)  # each problem in exactly one shard
    route(server, {k: [gen(GOOD)] for k in MARK})
    for i in (1, 2, 3):
        if any(o == [i] for o in owners):
            assert bench(server, "--strategy", "standard", "--shard", f"{i}/3", out=f"s{i}") == 0
    capsys.readouterr()
    assert len(server.requests) == 3  # every problem once across the shards
    dirs = [f"s{i}" for i in (1, 2, 3) if (env / f"s{i}").is_dir()]
    assert main(["report", *dirs, "--format", "json", "--out", "joined", "--no-plot"]) == 0
    rep = json.loads(capsys.readouterr().out)
    (g,) = rep["groups"]
    assert (g["recorded"], g["correct"], g["scorable"], g["unscorable"]) == (3, 1, 2, 1)
    assert (env / "joined" / "report.md").read_text().startswith("# syntagm bench report")


def test_report_over_overlapping_folders_counts_each_problem_once_and_says_so(server, env, capsys):
    """Two folders holding the same run's problems (a sweep run twice) were joined silently."""
    route(server, {k: [gen(GOOD), gen(GOOD)] for k in MARK})
    assert bench(server, "--strategy", "standard", out="a") == 0
    assert bench(server, "--strategy", "standard", out="b") == 0
    capsys.readouterr()
    assert main(["report", "a", "b", "--format", "json", "--no-plot"]) == 0
    rep = json.loads(capsys.readouterr().out)
    (g,) = rep["groups"]
    assert g["recorded"] == 3
    (note,) = [n for n in rep["notes"] if "replace" in n]
    assert note.startswith(str(Path("b") / "results.jsonl") + ": 3 record(s) replace")
    assert main(["report", "a", "--format", "json", "--no-plot"]) == 0
    assert not [n for n in json.loads(capsys.readouterr().out)["notes"] if "replace" in n]


def test_pareto_front_and_plots(server, env, capsys):
    from syntagm.bench.report import pareto_front

    pts = [(0.10, 50.0), (0.05, 40.0), (0.20, 50.0), (0.30, 70.0), (0.01, 10.0), (0.25, 60.0), (0.05, 45.0)]
    assert pareto_front(pts) == [(0.01, 10.0), (0.05, 45.0), (0.10, 50.0), (0.25, 60.0), (0.30, 70.0)]
    pytest.importorskip("matplotlib", reason="plots need the optional matplotlib (syntagm[bench])")
    route(server, {"a": [gen(BROKEN), gen(GOOD), verdict(True), gen(GOOD)], "b": [gen(GOOD), verdict(True),
                   gen(GOOD)], "c": [gen(GOOD), verdict(True), gen(GOOD)]})
    (env / "priced.toml").write_text(PRICED.format(url=server.url))
    rc = main(["bench", "--dataset", "Tiny.json", "--retriever", "none", "--out", "out", "--workers", "1",
               "--model", "alpha", "--config", "priced.toml", "--strategy", "syntagm", "--strategy", "standard"])
    capsys.readouterr()
    assert rc == 0
    for name in ("accuracy_vs_cost.png", "accuracy_by_iteration.png"):
        data = (env / "out" / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000, name


RENAMED = ("dvar float+ tables; dvar float+ chairs;\n"
           "maximize 2*chairs + 3*tables;\n"
           "subject to { van: chairs + tables <= 4; hours: 3*chairs + tables <= 6; }\n")
# same optimum (12) but another optimal point would be needed to tell; this one differs in values
SAME_OBJECTIVE_OTHER_MODEL = ("dvar float+ x; dvar float+ y; dvar float+ z;\n"
                              "maximize 3*x + 2*y;\n"
                              "subject to { x + y <= 4; x + 3*y <= 6; z >= 1; z <= 1; }\n")


def test_equivalence_check_on_equivalent_and_non_equivalent_pairs():
    from syntagm.bench.equivalence import compare_models

    same = compare_models(GOOD, "", RENAMED)
    assert same["equivalent"] is True and same["verdict"] == "equivalent" and same["method"] == "structure"
    wrong = compare_models(WRONG, "", GOOD)  # objective 8 against 12
    assert wrong["equivalent"] is False and wrong["method"] == "objective"
    assert wrong["reason"] == "different optimal objectives (8 against 12)"
    # z is fixed to 1 by two rows and used nowhere else: the old value-multiset test called this
    # "different"; after normalisation (rows to bounds, fixed unused column dropped) it is GOOD
    extra = compare_models(SAME_OBJECTIVE_OTHER_MODEL, "", GOOD)
    assert extra["verdict"] == "equivalent"
    broken_ref = compare_models(GOOD, "", BROKEN.replace("x * y", "x * y * y"))  # cubic: does not compile
    assert broken_ref["equivalent"] is None and "model B does not compile" in broken_ref["reason"]
    # a quadratic constraint (x * y <= 6) is not compared structurally: same optimum (12 at (4, 0)) and values
    # are evidence only, never "equivalent"
    quad = compare_models(GOOD, "", BROKEN)
    assert quad["equivalent"] is None and quad["verdict"] in ("equivalent_by_solutions", "unknown")


def test_bench_reports_equivalence_where_the_entry_has_a_reference(server, env, capsys):
    rows = [{"id": "a", "en_question": f"{PROBLEM} {MARK['a']}", "en_answer": 12, "reference_model": RENAMED},
            {"id": "b", "en_question": f"{PROBLEM} {MARK['b']}", "en_answer": 12, "reference_model": GOOD}]
    (env / "Tiny.json").write_text(json.dumps(rows))
    route(server, {"a": [gen(GOOD)], "b": [gen(WRONG)]})
    assert bench(server, "--strategy", "standard", "--format", "json") == 0
    g = json.loads(capsys.readouterr().out)["groups"][0]
    assert (g["equivalence_checked"], g["equivalent"]) == (2, 1)
    recs = {r["id"]: r for r in records(env / "out" / "results.jsonl")}
    assert recs["a"]["equivalence"]["equivalent"] is True and recs["b"]["equivalence"]["equivalent"] is False


def test_report_over_several_runs_has_a_run_id_column(server, env, capsys):
    route(server, {k: [gen(GOOD)] * 2 for k in MARK})
    assert bench(server, "--strategy", "standard", "--run-id", "first") == 0
    assert bench(server, "--strategy", "standard", "--run-id", "second", "--max-iterations", "1") == 0
    capsys.readouterr()
    assert main(["report", "out", "--no-plot"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(line for line in lines if "strategy" in line)
    assert head.split()[:3] == ["run", "id", "dataset"]
    body = [line.split()[0] for line in lines[lines.index(head) + 2:] if line.split() and "Tiny" in line
            and not line.startswith("paired")]
    assert sorted(body) == ["first", "second"]
    assert main(["report", "out", "--no-plot", "--run-id", "first"]) == 0  # one run: no such column
    assert "run id" not in next(line for line in capsys.readouterr().out.splitlines() if "strategy" in line)


def test_an_earlier_run_replays_after_a_later_one_shares_its_out_and_without_dataset(server, env, capsys):
    route(server, {k: [gen(GOOD), gen(WRONG)] for k in MARK})
    # the earlier run leaves temperature unset; the later one (same --out) sets it, and run.json is the later one's
    assert bench(server, "--strategy", "standard", "--record", "--run-id", "early") == 0
    assert bench(server, "--strategy", "standard", "--record", "--run-id", "late", "--temperature", "0.3") == 0
    assert json.loads((env / "out" / "run.json").read_text())["run_id"] == "late"
    server.close()
    capsys.readouterr()
    rc = main(["bench", "--replay", "out", "--out", "again", "--run-id", "early", "--strategy", "standard",
               "--workers", "1", "--no-plot", "--format", "json"])  # no --dataset: the run's own
    out, err = capsys.readouterr()
    assert rc == 0, err
    rep = json.loads(out)
    assert rep["run_ids"] == ["early"] and rep["groups"][0]["records"] == 3
    assert rep["groups"][0]["correct"] == 1  # a right (12), b off (12.0005), c unscorable: as recorded
    assert rep["settings"]["early"]["temperature"] is None
    rc = main(["bench", "--replay", "out", "--out", "again2", "--strategy", "standard", "--no-plot",
               "--format", "json"])  # the last run by default
    assert rc == 0 and json.loads(capsys.readouterr().out)["run_ids"] == ["late"]


def test_bench_without_dataset_or_replay_is_one_message(env, capsys):
    assert main(["bench", "--strategy", "standard", "--no-plot"]) == 2
    assert "give --dataset PATH.json" in capsys.readouterr().err
