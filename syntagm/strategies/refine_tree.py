"""``refine_tree``: a tree of candidate (model, data) programs refined by a bandit rule, after REx
(Tang, Key, Ellis, 2024, "Code Repair with LLMs gives an Exploration-Exploitation Tradeoff",
the refinement search used by WorldCoder).

The first generation is the root. Every later LLM call refines one node of the tree with that
node's own feedback (its compiler diagnostics, the solver's outcome, the judge's issues, or its
broken contract: the loop's repair prompts) and adds the reply as a child of that node.

Node score ``h`` in [0, 1], by how far the candidate gets through the checks
(:data:`SCORES`): 0 when the reply breaks the contract, 0.2 when the contract is read, 0.4
when it compiles, 0.6 when it solves to optimality, 1.0 when the judge calls it aligned (which
ends the search); a solved node whose objective agrees with a solved node outside its own
lineage (an independent candidate: neither is an ancestor of the other) gets
:data:`AGREEMENT_BONUS` more.

Which node to refine: REx frames this as an arm-acquiring bandit and gives a Thompson-sampling
rule; we use its deterministic UCB-style counterpart, so a run is reproducible without a random
seed: refine the node maximising

    h(n) + C * sqrt(ln(T + 1) / (N(n) + 1))

where ``N(n)`` is how often ``n`` has been refined, ``T`` the refinements made so far in the
tree, and ``C`` the exploration constant (:data:`UCB_C` = 1.0 by default, ``--ucb-c``). Ties go
to the older node. A high ``C`` spreads refinements over the tree (breadth), a low one keeps
refining the best node (depth, like the plain loop).

Stop: on a solved candidate the judge calls aligned (or, with ``--no-judge``, on the first
solved one), or when ``max_iterations`` generation calls are spent (default 6). The result is
the aligned node, else the highest-scoring solved node, else the loop's default choice. Each
attempt's ``tree`` field records ``node``, ``parent``, ``score``, ``times_refined`` and the
``ucb`` value its parent had when it was chosen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..loop import Attempt, LoopOptions, LoopResult, _Feedback, _issues_text, _Run, fixes_note
from .base import StrategyContext
from .presets import options_for

#: Score of a node by the last check it passes.
SCORES = {"contract": 0.0, "parsed": 0.2, "compiled": 0.4, "solved": 0.6, "aligned": 1.0}
#: Added to a solved node's score when an independent solved node reaches the same objective.
AGREEMENT_BONUS = 0.2
#: Default exploration constant ``C`` of the UCB rule.
UCB_C = 1.0
#: Two objectives closer than this (relative) agree.
AGREE_TOL = 1e-6


@dataclass
class _Node:
    id: int
    parent: int | None
    attempt: Attempt
    feedback: _Feedback | None
    stage: str
    refined: int = 0


def ucb(h: float, refined: int, total: int, c: float) -> float:
    """The UCB value ``h + c * sqrt(ln(total + 1) / (refined + 1))`` of a node (see the module doc)."""
    return h + c * math.sqrt(math.log(total + 1) / (refined + 1))


class _Tree:
    def __init__(self) -> None:
        self.nodes: list[_Node] = []

    def lineage(self, n: _Node) -> set[int]:
        """Ids of ``n``, its ancestors and its descendants (the nodes not independent of it)."""
        below = {n.id}
        for m in self.nodes:  # children are created after their parent, so one pass in id order finds all
            if m.parent in below:
                below.add(m.id)
        above = set()
        p = n.parent
        while p is not None:
            above.add(p)
            p = self.nodes[p].parent
        return below | above

    def score(self, n: _Node) -> float:
        h = SCORES[n.stage]
        if n.stage == "solved":
            obj = (n.attempt.outcome or {}).get("objective")
            mine = self.lineage(n)
            for m in self.nodes:
                o = (m.attempt.outcome or {}).get("objective")
                if m.id not in mine and m.stage in ("solved", "aligned") and obj is not None and o is not None \
                        and abs(o - obj) <= AGREE_TOL * max(1.0, abs(obj)):
                    return round(h + AGREEMENT_BONUS, 6)
        return h

    def choose(self, c: float) -> tuple[_Node, float]:
        """The node to refine next and its UCB value (ties: the older node)."""
        total = sum(n.refined for n in self.nodes)
        best, value = None, -math.inf
        for n in self.nodes:
            v = ucb(self.score(n), n.refined, total, c)
            if v > value + 1e-12:
                best, value = n, v
        return best, value

    def record(self) -> None:
        """Write each node's final score and refinement count into its attempt's ``tree`` field."""
        for n in self.nodes:
            n.attempt.tree.update({"score": self.score(n), "times_refined": n.refined})


@dataclass
class RefineTree:
    name: str = "refine_tree"
    description: str = "REx-style refinement tree: refine the node a UCB rule picks, with its own feedback"
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=6))

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)
        c = float(ctx.overrides.get("ucb_c") or UCB_C)
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        tree = _Tree()
        done, pick = None, None
        for it in range(1, opt.max_iterations + 1):
            if not tree.nodes:
                parent, value = None, None
                messages, purpose, tid = run.first_prompt()
            else:
                parent, value = tree.choose(c)
                parent.refined += 1
                messages, purpose, tid = run.repair_prompt(parent.feedback, parent.attempt)
                run.emit(it, "select", f"refining node {parent.id} (score {tree.score(parent):g}, "
                         f"UCB {value:.3f}, refined {parent.refined}x)")
            reply = run.ask(messages, purpose, tid, it)
            if reply is None:
                break
            node = self._evaluate(run, reply.content, it, purpose, len(tree.nodes), parent)
            node.attempt.tree = {"node": node.id, "parent": parent.id if parent else None,
                                 "ucb": None if value is None else round(value, 6)}
            tree.nodes.append(node)
            if node.stage == "aligned" or (node.stage == "solved" and node.feedback is None):
                done, pick = ("aligned" if node.stage == "aligned" else "solved"), node.attempt
                break
        tree.record()
        if pick is None:
            solved = [n for n in tree.nodes if n.attempt.solved]
            if solved:
                pick = max(solved, key=lambda n: (tree.score(n), n.id)).attempt
        return run.result(done, run.error, pick=pick)

    def _evaluate(self, run: _Run, content: str, it: int, purpose: str, nid: int, parent: _Node | None) -> _Node:
        """Check one reply through every stage; the node with its stage and the feedback to refine it with
        (``None`` feedback on a solved node means no judge objects: the search may stop)."""
        pid = parent.id if parent else None
        att, fb = run.candidate(content, it, purpose)
        if fb is not None:
            return _Node(nid, pid, att, fb, "contract")
        fb, outcome = run.evaluate(att, it)
        if fb is not None:
            return _Node(nid, pid, att, fb, "parsed" if not att.compiled else "compiled")
        if not run.opt.use_judge:
            return _Node(nid, pid, att, None, "solved")
        verdict = run.judge(att, outcome, it)
        att.verdict = verdict
        if verdict.get("aligned") is None:
            return _Node(nid, pid, att, None, "solved")  # no usable verdict: keep the solved model
        if verdict["aligned"]:
            run.emit(it, "judge", "aligned")
            return _Node(nid, pid, att, None, "aligned")
        run.emit(it, "judge", f"{len(verdict['issues'])} issue(s)")
        text = _issues_text(verdict["issues"])
        return _Node(nid, pid, att, _Feedback("judge", {"outcome": outcome.describe(), "issues": fixes_note(att) + text},
                                              "a reviewer found these problems:\n" + text), "solved")


REFINE_TREE = RefineTree()
