"""``refine_tree`` against the scripted server: the tree, the UCB choice sequence, the stopping rule."""
from __future__ import annotations

import math

from syntagm.strategies import StrategyContext, get_strategy
from syntagm.strategies.refine_tree import ucb
from syntagm_testkit import BROKEN, GOOD, INFEASIBLE, PROBLEM, WRONG, gen, verdict


def _run(client, **overrides):
    return get_strategy("refine_tree").solve(PROBLEM, StrategyContext(client, None, None, overrides))


def test_ucb_formula_by_hand():
    assert ucb(0.4, 0, 0, 1.0) == 0.4  # ln(1) = 0: no exploration term before any refinement
    assert abs(ucb(0.4, 1, 1, 1.0) - (0.4 + math.sqrt(math.log(2) / 2))) < 1e-12


def test_bandit_revisits_an_older_node(server, client, compiler_backend):
    # node 0: infeasible (compiles, 0.4); refined -> node 1: does not compile (0.2)
    # choice 2 (T=1): node0 0.4+sqrt(ln2/2)=0.989, node1 0.2+sqrt(ln2)=1.033 -> node 1
    # node 2: broken contract (0.0); choice 3 (T=2): node0 0.4+sqrt(ln3/2)=1.141,
    #   node1 0.2+sqrt(ln3/2)=0.941, node2 0+sqrt(ln3)=1.048 -> node 0 again (the older node)
    # node 3: the right model, judged aligned -> stop
    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(BROKEN))
    server.push_reply("this is not json")
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    res = _run(client)
    assert res.status == "aligned" and res.model == GOOD
    trees = [a.tree for a in res.attempts]
    assert [(t["node"], t["parent"]) for t in trees] == [(0, None), (1, 0), (2, 1), (3, 0)]
    assert [t["score"] for t in trees] == [0.4, 0.2, 0.0, 1.0]
    assert [t["times_refined"] for t in trees] == [2, 1, 0, 0]
    assert trees[3]["ucb"] == round(0.4 + math.sqrt(math.log(3) / 2), 6)
    # each refinement used its node's own feedback: the infeasible model's solver outcome for node 3
    assert "infeasible" in server.requests[3]["body"]["messages"][-1]["content"]
    assert "x * y" in server.requests[2]["body"]["messages"][-1]["content"]  # node 1's model, refined
    d = res.attempts[1].to_dict()
    assert d["tree"] == {"node": 1, "parent": 0, "score": 0.2, "times_refined": 1,
                         "ucb": round(0.4 + 0.0, 6)}


def test_a_large_c_spreads_refinements(server, client, compiler_backend):
    # with C = 10 the exploration term dominates: after node 0 (0.4) and node 1 (0.4, its child),
    # T=1: node0 0.4+10*sqrt(ln2/2)=6.29, node1 0.4+10*sqrt(ln2)=8.73 -> node 1;
    # T=2: node0 0.4+10*sqrt(ln3/2), node1 0.4+10*sqrt(ln3/2), node2 0.4+10*sqrt(ln3) -> node 2
    for _ in range(4):
        server.push_reply(gen(INFEASIBLE))
    res = _run(client, ucb_c=10.0, max_iterations=4)
    assert res.status == "failed"
    assert [a.tree["parent"] for a in res.attempts] == [None, 0, 1, 2]


def test_budget_ends_and_the_best_solved_node_is_kept(server, client, compiler_backend):
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "the table profit is 3"))
    server.push_reply(gen(BROKEN))
    res = _run(client, max_iterations=2)
    assert res.status == "unaligned" and res.model == WRONG
    assert len([r for r in server.requests]) == 3
    assert res.attempts[0].tree["score"] == 0.6 and res.attempts[0].tree["times_refined"] == 1


def test_judge_off_stops_on_the_first_solved(server, client, compiler_backend):
    server.push_reply(gen(WRONG))
    res = _run(client, use_judge=False)
    assert res.status == "solved" and len(server.requests) == 1


def test_independent_agreement_raises_the_score(server, client, compiler_backend):
    # node 0 WRONG (objective 8, unaligned, 0.6); its child node 1 infeasible (0.4);
    # T=1: node0 0.6+sqrt(ln2/2)=1.189, node1 0.4+sqrt(ln2)=1.233 -> node 1
    # -> node 2 WRONG again (objective 8) but a descendant of node 0: same lineage, no agreement bonus
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "profit"))
    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "profit"))
    res = _run(client, max_iterations=3)
    assert [a.tree["parent"] for a in res.attempts] == [None, 0, 1]
    assert [a.tree["score"] for a in res.attempts] == [0.6, 0.4, 0.6]


def test_agreement_bonus_for_independent_nodes():
    from syntagm.loop import Attempt
    from syntagm.strategies.refine_tree import _Node, _Tree

    t = _Tree()
    for nid, parent in ((0, None), (1, 0), (2, 0)):
        a = Attempt(nid + 1, "x", outcome={"status": "optimal", "objective": 8.0})
        t.nodes.append(_Node(nid, parent, a, None, "solved"))
    # 1 and 2 are siblings (independent): both agree; 0 is the ancestor of both: no independent match
    assert [t.score(n) for n in t.nodes] == [0.6, 0.8, 0.8]


def test_tree_and_stages_reach_the_output_folder(server, client, compiler_backend, tmp_path):
    import json

    from syntagm.artefacts import write_results
    from syntagm.prices import load_prices

    server.push_reply(gen(INFEASIBLE))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    res = _run(client)
    res.stages = [{"stage": "conductor", "round": 1, "expert": "modelling", "reason": "x"}]
    write_results(tmp_path, res, model="gpt-4o-mini", strategy="refine_tree", prices=load_prices(), wall_s=0.1)
    attempts = json.loads((tmp_path / "attempts.json").read_text())
    assert [(a["tree"]["node"], a["tree"]["parent"], a["tree"]["times_refined"]) for a in attempts] == [
        (0, None, 1), (1, 0, 0)]
    assert json.loads((tmp_path / "stages.json").read_text())[0]["expert"] == "modelling"
