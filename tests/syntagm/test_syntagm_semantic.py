"""The LLM-free semantic checks (syntagm.assess.semantic): no false alarm on the knowledge base, catch
rates on the scripted wrong-but-compiling models of semantic_cases.py, each check on a case
worked out by hand, and the loop feeding the findings into an alignment repair."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from semantic_cases import CASES, mutants
from syntagm.assess import semantic
from syntagm.loop import LoopOptions, run_loop
from syntagm_testkit import GOOD, PROBLEM, gen, pyopl_ready, verdict

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")

KB = Path(__file__).resolve().parents[2] / "knowledge_base"


def solve(model: str, data: str):
    import pyopl

    try:
        r = pyopl.compile_model(model, data=data or None, source="text").solve(time_limit=10)
    except pyopl.CompileError:
        return None
    return r.objective if r.status == "optimal" else None


def run_checks(problem: str, model: str, data: str):
    sense = re.search(r"\b(maximize|minimize)\b", semantic._code(model))
    return semantic.check(problem, model, data, sense=sense.group(1) if sense else None,
                          objective=solve(model, data), solve=solve)


def test_no_false_alarm_on_the_knowledge_base_exemplars():
    folders = [d for d in sorted(KB.iterdir()) if (d / "model.mod").is_file()]
    assert len(folders) == 53
    for d in folders:
        data = (d / "data.dat").read_text() if (d / "data.dat").is_file() else ""
        meta = json.loads((d / "meta.json").read_text())
        found = semantic.check((d / "description.md").read_text(), (d / "model.mod").read_text(), data,
                               sense=meta["sense"], objective=meta["objective"], solve=solve)
        assert found == [], (d.name, found)


def test_the_correct_models_of_the_scripted_cases_have_no_finding():
    for c in CASES:
        assert solve(c["model"], c["data"]) is not None, c["name"]
        assert run_checks(c["problem"], c["model"], c["data"]) == [], c["name"]


#: measured catch counts per kind of mistake (10 mutants each; docs/syntagm.md): a regression guard
CAUGHT = {"swap": 5, "missing": 10, "sense": 10, "unit": 9, "direction": 5}


def test_catch_rates_on_the_scripted_wrong_models():
    import pyopl

    caught, total = Counter(), Counter()
    for c, kind, model, data in mutants():
        assert pyopl.check(model, data or None) == [] or not any(
            d.severity == "error" for d in pyopl.check(model, data or None)), (c["name"], kind)  # it compiles
        total[kind] += 1
        caught[kind] += bool(run_checks(c["problem"], model, data))
    assert sum(total.values()) == 50
    assert {k: caught[k] for k in CAUGHT} == CAUGHT


def test_each_check_names_what_it_found():
    furniture = CASES[0]
    swapped = furniture["data"].replace("profit = [45, 30]", "profit = [30, 45]")
    (f,) = semantic.check_association(furniture["problem"], furniture["model"], swapped)
    assert f.check == "number-association" and 'profit["desk"] = 30' in f.message and '45 next to "desk"' in f.message
    slipped = furniture["data"].replace("carpentryHours = 120", "carpentryHours = 7200")
    kinds = {f.check: f for f in semantic.check_numbers(furniture["problem"], furniture["model"], slipped)}
    assert "7200" in kinds["number-unstated"].message and "120" in kinds["number-unused"].message
    unused = semantic.check_use(furniture["model"].replace("  paint: sum(i in Items) make[i] <= paintCap;\n", ""))
    assert [(f.check, f.message) for f in unused] == [("datum-unused", "declared but never used: paintCap")]
    extra = semantic.check_use("dvar float+ x;\ndvar float+ spare;\nmaximize x;\nsubject to { x <= 4; }\n")
    assert [(f.check, f.message.split(": ")[1]) for f in extra] == [("dvar-unused", "spare")]
    (s,) = semantic.check_sense(PROBLEM, GOOD.replace("maximize", "minimize"))
    assert s.check == "sense" and "asks to maximize" in s.message
    # "out of 6 hours" written as x + 3y >= 6: max 3x + 2y with x + y <= 4 is 11 at (3, 1); raising 6 to 7
    # moves the corner to (2.5, 1.5): 10.5, worse, though an upper limit was raised. Raising 4 to 5 gives
    # 14.5 at (4.5, 0.5): better, as an upper limit should
    flipped = GOOD.replace("x + 3*y <= 6", "x + 3*y >= 6")
    base = solve(flipped, "")
    assert base == pytest.approx(11.0)
    (t,) = semantic.check_sensitivity(PROBLEM, flipped, "", "maximize", base, solve)
    assert t.check == "sensitivity" and "(11 → 10.5)" in t.message


def test_a_strict_comparison_against_an_inclusive_limit():
    problem = "A grower may plant at most 20 rows of beans and must plant at least 5 rows of peas. Maximise rows."
    model = ("int cap = ...;\ndvar int+ beans;\ndvar int+ peas;\nmaximize beans + peas;\n"
             "subject to { b: beans < cap; p: peas >= 5; q: peas <= 8; }\n")
    (f,) = semantic.check_strict(problem, model, "cap = 20;\n")
    assert f.check == "strict-limit" and "at most 20" in f.message and "`< cap`" in f.message
    assert semantic.check_strict(problem, model.replace("beans < cap", "beans <= cap"), "cap = 20;\n") == []
    assert semantic.check_strict(problem, model.replace("peas >= 5", "5 < peas"), "cap = 21;\n")[0].message \
        .startswith("the statement says at least 5")


def test_the_loop_feeds_findings_into_an_alignment_repair(server, client):
    server.push_reply(gen(GOOD.replace("maximize", "minimize")))  # the wrong sense: optimum 0
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, semantic_checks="feed"))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert [c.purpose for c in r.telemetry.calls] == ["generate", "alignment_repair", "judge"]
    repair = server.requests[1]["body"]["messages"][-1]["content"]
    assert "the statement asks to maximize (its goal verb), but the model says minimize" in repair
    assert r.attempts[0].semantic[0]["constraint"] == "sense" and r.attempts[1].semantic == []


def test_findings_are_not_fed_twice_nor_past_the_budget(server, client):
    wrong = GOOD.replace("maximize", "minimize")
    server.push_reply(gen(wrong))
    server.push_reply(gen(wrong))  # the same finding again: the judge decides now
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, semantic_checks="feed"))
    assert [c.purpose for c in r.telemetry.calls] == ["generate", "alignment_repair", "judge"]
    server.push_reply(gen(wrong))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, semantic_checks="feed", max_iterations=1, use_judge=False))
    assert r.status == "solved" and r.attempts[0].semantic  # found, but no iteration left to repair it


def test_the_syntagm_strategy_feeds_and_the_baselines_do_not():
    from syntagm.strategies import get_strategy

    assert get_strategy("syntagm").options_for({}).semantic_checks == "feed"
    assert get_strategy("syntagm").options_for({"semantic_checks": "off"}).semantic_checks == "off"
    for name in ("standard", "cot", "reflexion"):
        assert get_strategy(name).options_for({}).semantic_checks == "off"
