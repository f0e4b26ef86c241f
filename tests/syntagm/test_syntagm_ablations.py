"""Ablations of the ``syntagm`` strategy (judge off, fix-its off, diagnostics granularity, grammar
reference, exemplars k) against the scripted server, and their place in a bench run's identity."""
from __future__ import annotations

import pytest

from syntagm.bench import identity
from syntagm.loop import MASKED_DIAGNOSTICS
from syntagm.strategies import StrategyContext, get_strategy
from syntagm.templates import NO_REFERENCE
from syntagm_testkit import BROKEN, FIXABLE, GOOD, PROBLEM, gen, verdict


def _solve(client, **overrides):
    return get_strategy("syntagm").solve(PROBLEM, StrategyContext(client, None, None, overrides))


def test_judge_off_ends_on_the_first_solved_model(server, client, compiler_backend):
    server.push_reply(gen(GOOD))
    res = _solve(client, use_judge=False)
    assert res.status == "solved" and len(server.requests) == 1


def test_judge_on_by_default(server, client, compiler_backend):
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    assert _solve(client).status == "aligned" and len(server.requests) == 2


def test_fixits_off_sends_a_fixable_error_to_the_llm(server, client, monkeypatch):
    import syntagm.assess.compiler as comp
    from syntagm_testkit import ScriptedCompiler

    fake = ScriptedCompiler()
    monkeypatch.setattr(comp, "check", fake.check)
    monkeypatch.setattr(comp, "solve", fake.solve)
    server.push_reply(gen(FIXABLE))
    server.push_reply(gen(GOOD))
    res = _solve(client, use_fixits=False, use_judge=False)
    assert res.status == "solved"
    assert [a.source for a in res.attempts] == ["generate", "syntax_repair"]
    assert res.attempts[0].fixes_applied == []
    assert "expected `;`" in server.requests[1]["body"]["messages"][-1]["content"]


@pytest.mark.parametrize("mode, present, absent", [
    ("full", ["is not linear", "rewrite the constraint linearly"], [MASKED_DIAGNOSTICS]),
    ("first", ["is not linear", "OPL0301"], [MASKED_DIAGNOSTICS]),
    ("line", ["model line 3"], ["is not linear", "OPL0301", "rewrite"]),
    ("masked", [MASKED_DIAGNOSTICS], ["is not linear", "line 3", "OPL0301"]),
])
def test_diagnostics_granularity(server, client, monkeypatch, mode, present, absent):
    import syntagm.assess.compiler as comp
    from syntagm_testkit import ScriptedCompiler

    fake = ScriptedCompiler()
    monkeypatch.setattr(comp, "check", fake.check)
    monkeypatch.setattr(comp, "solve", fake.solve)
    server.push_reply(gen(BROKEN))
    server.push_reply(gen(GOOD))
    assert _solve(client, diagnostics=mode, use_judge=False).status == "solved"
    repair = server.requests[1]["body"]["messages"][-1]["content"]
    diag_part = repair.split("Your previous attempt does not compile.")[1]
    # the header promises JSON only where JSON follows
    assert ("(JSON;" in diag_part) == (mode in ("full", "first"))
    for p in present:
        assert p in diag_part
    for a in absent:
        assert a not in diag_part


def test_first_keeps_only_the_first_error():
    from syntagm.loop import diagnostics_feedback

    diags = [{"file": "model.mod", "line": 2, "column": 1, "message": "A", "severity": "error"},
             {"file": "data.dat", "line": 5, "column": 1, "message": "B", "severity": "error"}]
    assert '"A"' in diagnostics_feedback(diags, "first")[0] and '"B"' not in diagnostics_feedback(diags, "first")[0]
    assert diagnostics_feedback(diags, "line")[0] == "Errors at: data.dat line 5; model.mod line 2 (no messages are given)."


@pytest.mark.parametrize("mode, marker", [("none", NO_REFERENCE), ("compact", "dvar")])
def test_grammar_reference_modes(server, client, compiler_backend, mode, marker):
    server.push_reply(gen(GOOD))
    _solve(client, grammar_mode=mode, use_judge=False)
    system = server.requests[0]["body"]["messages"][0]["content"]
    assert marker in system
    if mode == "none":
        assert len(system) < 2000  # the reference is gone; only the instructions remain


def test_exemplars_k(server, client, compiler_backend):
    from syntagm.rag import make_retriever

    server.push_reply(gen(GOOD))
    ctx = StrategyContext(client, make_retriever("bm25", None), None, {"exemplars": 3, "use_judge": False})
    res = get_strategy("syntagm").solve(PROBLEM, ctx)
    assert len(res.retrieved) == 3
    assert server.requests[0]["body"]["messages"][-1]["content"].count("Solved examples") == 1


def _settings(grammar_mode=None, **strategy):
    return identity.run_settings(temperature=0.0, max_iterations=None, exemplars=None, retriever="none",
                                 kb_path=None, grammar_mode=grammar_mode, solver=None, time_limit_s=None, seed=None,
                                 json_mode="auto", max_tokens=None, **strategy)


def test_each_ablation_changes_the_run_id():
    base = identity.derive_run_id(_settings())
    ids = {base}
    for k, v in (("use_judge", False), ("use_fixits", False), ("diagnostics", "masked"), ("diagnostics", "line"),
                 ("ucb_c", 2.0), ("memory_size", 1), ("stage_retries", 0)):
        ids.add(identity.derive_run_id(_settings(**{k: v})))
    assert len(ids) == 8
    assert identity.derive_run_id(_settings(grammar_mode="none")) != base


def test_run_ids_without_the_new_settings_do_not_change():
    s = _settings()
    old = {k: s[k] for k in identity.SETTING_NAMES}  # a record made before the optional settings existed
    assert identity.derive_run_id(old) == identity.derive_run_id(s)
    diff = identity.setting_differences(s, _settings(diagnostics="first"))
    assert diff == ['diagnostics: null → "first"']


def test_bench_flags_reach_the_settings(tmp_path):
    from syntagm.cli import build_parser

    args = build_parser().parse_args(["bench", "--dataset", "x.json", "--no-judge", "--diagnostics", "line",
                                      "--grammar-ref", "none", "--ucb-c", "0.5"])
    assert (args.use_judge, args.use_fixits, args.diagnostics, args.grammar_mode, args.ucb_c) == \
        (False, None, "line", "none", 0.5)


def test_reflexion_keeps_a_bounded_memory_of_its_reflections(server, client, compiler_backend):
    import json

    from syntagm_testkit import BROKEN

    server.push_reply(gen(BROKEN))
    server.push_reply(json.dumps({"reflection": "R-ONE: x*y is not linear", "model": BROKEN, "data": ""}))
    server.push_reply(json.dumps({"reflection": "R-TWO: still x*y", "model": BROKEN, "data": ""}))
    server.push_reply(json.dumps({"reflection": "R-THREE: use x+3y", "model": GOOD, "data": ""}))
    ctx = StrategyContext(client, None, None, {"memory_size": 1})
    res = get_strategy("reflexion").solve(PROBLEM, ctx)
    assert res.status == "solved"
    prompts = [r["body"]["messages"][-1]["content"] for r in server.requests]
    assert "earlier attempts" not in prompts[1]  # nothing to remember yet
    assert "1. R-ONE: x*y is not linear" in prompts[2]
    assert "R-TWO" in prompts[3] and "R-ONE" not in prompts[3]  # bounded: memory_size 1 keeps the last only
    assert [a.reflection for a in res.attempts] == [None, "R-ONE: x*y is not linear", "R-TWO: still x*y",
                                                    "R-THREE: use x+3y"]
    assert "reflection" not in res.attempts[0].to_dict() and res.attempts[1].to_dict()["reflection"].startswith("R-ONE")


def test_reflexion_memory_default_keeps_three(server, client, compiler_backend):
    import json

    from syntagm_testkit import BROKEN

    server.push_reply(gen(BROKEN))
    for i in range(5):
        server.push_reply(json.dumps({"reflection": f"R{i}", "model": BROKEN, "data": ""}))
    get_strategy("reflexion").solve(PROBLEM, StrategyContext(client, None, None, {"max_iterations": 6}))
    assert len(server.requests) == 6  # the sixth prompt has seen four reflections and shows the last three
    last = server.requests[-1]["body"]["messages"][-1]["content"]
    assert "1. R1\n2. R2\n3. R3" in last and "R0" not in last


def test_reflexion_memory_keeps_a_repeated_reflection_once(server, client, compiler_backend):
    import json

    from syntagm_testkit import BROKEN

    server.push_reply(gen(BROKEN))
    for r in ("A: x*y is not linear", "B: try again", "a:  X*Y is not linear", "C: last"):
        server.push_reply(json.dumps({"reflection": r, "model": BROKEN, "data": ""}))
    get_strategy("reflexion").solve(PROBLEM, StrategyContext(client, None, None, {"max_iterations": 5}))
    last = server.requests[-1]["body"]["messages"][-1]["content"]
    # the fifth prompt has seen A, B and a (A again, case and spacing aside): two distinct, the repeat at its
    # latest place (spacing is normalised when a reflection is read)
    assert len(server.requests) == 5
    assert "1. B: try again\n2. a: X*Y is not linear\n" in last and "3." not in last.split("earlier attempts")[1]
    memory = last.split("(oldest first):\n")[1].split("\n")
    memory = [line for line in memory[:3] if line[:1].isdigit()]
    assert memory == ["1. B: try again", "2. a: X*Y is not linear"]
