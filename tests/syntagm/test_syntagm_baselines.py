"""The ``tot``, ``chain_of_experts`` and ``staged`` strategies end to end through the scripted server."""
from __future__ import annotations

import json

import pytest

from syntagm.strategies import StrategyContext, get_strategy
from syntagm_testkit import BROKEN, GOOD, GOOD_DATA, GOOD_DATA_MODEL, PROBLEM, WRONG, gen, pyopl_ready


def purposes(result):
    return [c.purpose for c in result.telemetry.calls]


def user_prompt(server, n):
    return server.requests[n]["body"]["messages"][-1]["content"]


def solve(name, client, **overrides):
    return get_strategy(name).solve(PROBLEM, StrategyContext(client, overrides={"exemplars": 0, **overrides}))


def test_tot_selects_among_disagreeing_candidates(server, client, compiler_backend):
    server.push_reply(json.dumps({"thought": "direct", "model": WRONG, "data": ""}))
    server.push_reply(json.dumps({"thought": "quantities first", "model": GOOD, "data": ""}))
    server.push_reply(gen(BROKEN))
    server.push_reply(json.dumps({"best": 2, "reason": "tables earn 3"}))
    r = solve("tot", client)
    assert purposes(r) == ["tot", "tot", "tot", "select"]
    assert r.status == "solved" and r.objective == pytest.approx(12.0) and r.model == GOOD
    assert r.iterations == 3 and len(r.attempts) == 3
    prompts = [user_prompt(server, i) for i in range(3)]
    assert len(set(prompts)) == 3 and all(f"candidate {i + 1} of 3" in p for i, p in enumerate(prompts))
    select = user_prompt(server, 3)
    assert "Candidate 1 (solver: optimal, objective 8" in select and "Candidate 2" in select
    assert "Candidate 3" not in select  # the broken one is not a candidate


def test_tot_expands_the_best_failed_candidate_and_agreeing_candidates_need_no_vote(server, client,
                                                                                   compiler_backend):
    for _ in range(3):
        server.push_reply(gen(BROKEN))
    for _ in range(3):
        server.push_reply(gen(GOOD))
    r = solve("tot", client)
    assert purposes(r) == ["tot"] * 3 + ["tot_expand"] * 3  # no selection call: all three agree on 12
    assert r.status == "solved" and r.objective == pytest.approx(12.0) and r.iterations == 6
    expand = user_prompt(server, 3)
    assert "x * y" in expand and "None of the earlier candidate formulations worked" in expand


def test_tot_budget_is_max_iterations_generation_calls(server, client, compiler_backend):
    for _ in range(4):
        server.push_reply(gen(BROKEN))
    r = solve("tot", client, max_iterations=4)
    assert purposes(r) == ["tot"] * 3 + ["tot_expand"] and r.status == "failed" and r.iterations == 4


def _experts_round(server, model):
    server.push_reply(json.dumps({"terms": [{"term": "van", "meaning": "capacity 4 items"}]}))
    server.push_reply(json.dumps({"parameters": [{"name": "profitTable", "value": 3}]}))
    server.push_reply(json.dumps({"variables": ["x tables", "y chairs"], "objective": "max 3x + 2y"}))
    server.push_reply(gen(model))


def test_chain_of_experts_reviewer_sends_work_back(server, client, compiler_backend):
    _experts_round(server, WRONG)
    server.push_reply(json.dumps({"ok": False, "expert": "modelling", "feedback": "tables earn 3, not 2"}))
    server.push_reply(json.dumps({"variables": ["x", "y"], "objective": "max 3x + 2y (MODELLER-V2)"}))
    server.push_reply(gen(GOOD))
    server.push_reply(json.dumps({"ok": True, "expert": "", "feedback": ""}))
    r = solve("chain_of_experts", client)
    assert purposes(r) == ["coe_interpreter", "coe_parameters", "coe_modeller", "coe_programmer", "coe_reviewer",
                           "coe_modeller", "coe_programmer", "coe_reviewer"]
    assert r.status == "aligned" and r.objective == pytest.approx(12.0) and r.iterations == 2
    assert "capacity 4 items" in user_prompt(server, 1)  # the interpreter's notes reach the next expert
    assert "tables earn 3, not 2" in user_prompt(server, 5)  # the reviewer's feedback reaches the modeller
    assert "MODELLER-V2" in user_prompt(server, 6)  # the new formulation reaches the programmer
    assert r.attempts[0].verdict == {"aligned": False, "issues": ["tables earn 3, not 2"]}


def test_chain_of_experts_compile_errors_go_back_to_the_programmer(server, client, compiler_backend):
    _experts_round(server, BROKEN)
    server.push_reply(gen(GOOD))
    server.push_reply(json.dumps({"ok": True}))
    r = solve("chain_of_experts", client)
    assert purposes(r) == ["coe_interpreter", "coe_parameters", "coe_modeller", "coe_programmer",
                           "coe_programmer", "coe_reviewer"]
    assert r.status == "aligned" and r.iterations == 2
    assert "redo your part" in user_prompt(server, 4) and "the compiler reported" in user_prompt(server, 4)


needs_pyopl = pytest.mark.skipif(not pyopl_ready(), reason="the staged checks compile partial models with pyopl")


PARAMS_OK = {"declarations": "// van capacity (items)\nfloat cap = ...;", "data": "cap = 4;",
             "set_aside": [{"number": n, "reason": "a coefficient, written inline"} for n in ("3", "2", "1", "6")]}
OBJECTIVE_OK = {"sense": "maximize", "objective": "3 per table + 2 per chair", "quantities": ["profit (per item)"]}
VARIABLES_OK = {"variables": "dvar float+ x;\ndvar float+ y;",
                "meanings": [{"name": "x", "meaning": "tables made", "domain": "continuous, >= 0", "units": "tables"},
                             {"name": "y", "meaning": "chairs made", "domain": "continuous, >= 0", "units": "chairs"}]}
CONSTRAINTS_OK = {"constraints": "ctA: x + y <= cap;\nctB: x + 3*y <= 6;",
                  "mapping": [{"label": "ctA", "sentence": "At most 4 items fit in the van (ctA)"},
                              {"label": "ctB", "sentence": "tables take 1 hour while chairs take 3 hours out of 6 "
                                                           "hours (ctB)"}]}


@needs_pyopl
def test_staged_builds_the_model_step_by_step(server, client):
    for reply in (PARAMS_OK, OBJECTIVE_OK, VARIABLES_OK, CONSTRAINTS_OK):
        server.push_reply(json.dumps(reply))
    server.push_reply(gen(GOOD_DATA_MODEL, GOOD_DATA))
    r = solve("staged", client)
    assert purposes(r) == ["staged_parameters", "staged_objective", "staged_variables", "staged_constraints",
                           "staged_model"]
    assert r.status == "solved" and r.objective == pytest.approx(12.0) and r.iterations == 1
    assert "float cap = ...;" in user_prompt(server, 2) and "maximize 3 per table" in user_prompt(server, 2)
    final = user_prompt(server, 4)
    assert "dvar float+ x;" in final and "ctB: x + 3*y <= 6;" in final and "cap = 4;" in final
    assert [(st["stage"], st["try"], st["verdict"]["ok"]) for st in r.stages] == [
        ("parameters", 1, True), ("objective", 1, True), ("variables", 1, True), ("constraints", 1, True)]
    assert r.stages[2]["output"]["meanings"][0]["units"] == "tables"


@needs_pyopl
def test_staged_redoes_a_step_that_fails_its_check_then_repairs_the_model(server, client):
    server.push_reply(json.dumps({"declarations": "float cap = ...;", "data": ""}))  # no value for cap
    server.push_reply(json.dumps(PARAMS_OK))
    server.push_reply(json.dumps({"sense": "upwards", "objective": "profit"}))  # not a direction
    server.push_reply(json.dumps(OBJECTIVE_OK))
    server.push_reply(json.dumps(VARIABLES_OK))
    server.push_reply(json.dumps(CONSTRAINTS_OK))
    server.push_reply(gen(BROKEN))
    server.push_reply(gen(GOOD))
    r = solve("staged", client)
    assert purposes(r) == ["staged_parameters", "staged_parameters", "staged_objective", "staged_objective",
                           "staged_variables", "staged_constraints", "staged_model", "syntax_repair"]
    assert "cap" in user_prompt(server, 1) and "previous answer for this step had problems" in user_prompt(server, 1)
    # the numbers of the text were neither used nor set aside: the verifier says which
    assert "neither used as a parameter value nor set aside: 3, 2, 4, 1, 6" in user_prompt(server, 1)
    assert '"sense" must be' in user_prompt(server, 3)
    assert r.status == "solved" and r.objective == pytest.approx(12.0) and r.iterations == 2


@needs_pyopl
def test_staged_verifier_findings_on_variables_objective_and_constraints(server, client):
    server.push_reply(json.dumps(PARAMS_OK))
    server.push_reply(json.dumps({"sense": "minimize", "objective": "profit", "quantities": ["profit"]}))
    server.push_reply(json.dumps(OBJECTIVE_OK))
    server.push_reply(json.dumps({"variables": "dvar float+ x;\ndvar float+ y;",
                                  "meanings": [{"name": "x", "meaning": "tables", "domain": "", "units": "tables"}]}))
    server.push_reply(json.dumps(VARIABLES_OK))
    server.push_reply(json.dumps({"constraints": "ctA: x + y <= cap;\nctB: x + 3*y <= 6;",
                                  "mapping": [{"label": "ctA", "sentence": "At most 4 items fit in the van"}]}))
    server.push_reply(json.dumps(CONSTRAINTS_OK))
    server.push_reply(gen(GOOD_DATA_MODEL, GOOD_DATA))
    r = solve("staged", client)
    assert r.status == "solved"
    verdicts = [(st["stage"], st["verdict"]["ok"]) for st in r.stages]
    assert verdicts == [("parameters", True), ("objective", False), ("objective", True), ("variables", False),
                        ("variables", True), ("constraints", False), ("constraints", True)]
    assert "asks to maximize" in r.stages[1]["verdict"]["findings"][0]
    assert "variable `x`: give its domain" in user_prompt(server, 4)
    assert "variable `y` has no entry" in user_prompt(server, 4)
    assert "constraint `ctB` is not mapped" in user_prompt(server, 6)


@needs_pyopl
def test_staged_retry_budget_is_a_setting(server, client):
    server.push_reply(json.dumps({"declarations": "float cap = ...;", "data": "cap = 4;"}))  # numbers unaccounted
    for reply in (OBJECTIVE_OK, VARIABLES_OK, CONSTRAINTS_OK):
        server.push_reply(json.dumps(reply))
    server.push_reply(gen(GOOD_DATA_MODEL, GOOD_DATA))
    r = solve("staged", client, stage_retries=0)
    assert purposes(r)[:2] == ["staged_parameters", "staged_objective"]  # no redo
    assert r.stages[0]["verdict"]["ok"] is False
    assert "Still wrong in the pieces" in user_prompt(server, 4) and "set aside" in user_prompt(server, 4)


def test_new_strategies_are_listed_and_their_prompts_versioned():
    from syntagm import templates
    from syntagm.strategies import STRATEGIES
    assert {"tot", "chain_of_experts", "staged"} <= set(STRATEGIES)
    for name in ("tot", "tot_expand", "tot_select", "coe_interpreter", "coe_parameters", "coe_modeller",
                 "coe_programmer", "coe_reviewer", "staged_system", "staged_parameters", "staged_objective",
                 "staged_variables", "staged_constraints", "staged_model"):
        assert templates.load(name).id.startswith(f"{name}.v")


def test_conductor_rules_by_hand():
    from syntagm.strategies.experts import conduct

    fresh = {"terminology": 1, "parameters": 2, "modelling": 3, "programming": 4}
    assert conduct({"stamps": dict.fromkeys(fresh, 0)}) == ("terminology", "no notes yet")
    assert conduct({"stamps": fresh}) == ("programming", "all notes are fresh")
    assert conduct({"stamps": {**fresh, "parameters": 9}}) == ("modelling", "its notes are older than those it builds on")
    assert conduct({"stamps": fresh, "failure": "syntax", "named": "parameters"})[0] == "programming"
    assert conduct({"stamps": fresh, "named": "parameters"}) == ("parameters", "the reviewer sent the work back")
    assert conduct({"stamps": fresh, "failure": "solver"}) == ("modelling", "the solver rejected the model")


def test_chain_of_experts_conductor_sends_an_infeasible_model_to_the_modeller(server, client, compiler_backend):
    from syntagm_testkit import INFEASIBLE

    _experts_round(server, INFEASIBLE)
    server.push_reply(json.dumps({"variables": ["x", "y"], "objective": "max 3x + 2y (MODELLER-V2)"}))
    server.push_reply(gen(GOOD))
    server.push_reply(json.dumps({"ok": True}))
    r = solve("chain_of_experts", client)
    # no reviewer call on the infeasible model: the conductor goes to the modeller, then the programmer
    assert purposes(r) == ["coe_interpreter", "coe_parameters", "coe_modeller", "coe_programmer",
                           "coe_modeller", "coe_programmer", "coe_reviewer"]
    assert "infeasible" in user_prompt(server, 4) and "MODELLER-V2" in user_prompt(server, 5)
    assert [(s["round"], s["expert"]) for s in r.stages] == [
        (1, "terminology"), (1, "parameters"), (1, "modelling"), (1, "programming"),
        (2, "modelling"), (2, "programming")]
    assert r.stages[4]["reason"] == "the solver rejected the model"
    assert r.status == "aligned" and r.iterations == 2


def test_published_chain_of_experts_llm_conductor_reducer_and_backward_reflection(server, client,
                                                                                   compiler_backend):
    c = lambda step, why: json.dumps({"next": step, "reason": why})  # noqa: E731 - a conductor reply
    # round 1: the conductor picks terminology then modelling, then the reducer; the reducer's model is broken
    server.push_reply(c("terminology", "the terms first"))
    server.push_reply(json.dumps({"terms": [{"term": "van", "meaning": "capacity 4 items (TERMS-V1)"}]}))
    server.push_reply(c("modelling", "formulate"))
    server.push_reply(json.dumps({"variables": ["x", "y"], "objective": "max 3x + 2y (MODEL-V1)"}))
    server.push_reply(c("reducer", "enough notes"))
    server.push_reply(gen(BROKEN))
    # backward reflection, latest expert first: modelling says no, terminology revises its notes
    server.push_reply(json.dumps({"at_fault": False, "reason": "the formulation is linear"}))
    server.push_reply(json.dumps({"at_fault": True, "reason": "van means items", "revised_notes": "TERMS-V2"}))
    # round 2: an unreadable conductor reply falls back to the rule (first expert without notes: parameters)
    server.push_reply("I think the parameters expert")
    server.push_reply(json.dumps({"parameters": [{"name": "cap", "value": 4}]}))
    server.push_reply(c("reducer", "ready"))
    server.push_reply(gen(GOOD))
    r = solve("chain_of_experts_llm", client)
    assert purposes(r) == ["coe_conductor", "coe_interpreter", "coe_conductor", "coe_modeller", "coe_conductor",
                           "coe_reducer", "coe_reflect", "coe_reflect", "coe_conductor", "coe_parameters",
                           "coe_conductor", "coe_reducer"]
    assert r.status == "solved" and r.objective == pytest.approx(12.0)
    choices = [(s["round"], s["expert"], s["by"]) for s in r.stages if s["stage"] == "conductor"]
    assert choices == [(1, "terminology", "llm"), (1, "modelling", "llm"), (1, "reducer", "llm"),
                       (2, "parameters", "rule"), (2, "reducer", "llm")]
    reflections = [(s["expert"], s["at_fault"]) for s in r.stages if s["stage"] == "reflection"]
    assert reflections == [("modelling", False), ("terminology", True)]
    assert "TERMS-V1" in user_prompt(server, 2) and "Already consulted this round: terminology" in user_prompt(server, 2)
    assert "MODEL-V1" in user_prompt(server, 5) and "TERMS-V1" in user_prompt(server, 5)  # the reducer sees all
    assert "What went wrong with the final model" in user_prompt(server, 6)
    assert "TERMS-V2" in user_prompt(server, 8) and "What went wrong last round" in user_prompt(server, 8)
    assert "TERMS-V2" in user_prompt(server, 11) and "The last final model failed" in user_prompt(server, 11)
