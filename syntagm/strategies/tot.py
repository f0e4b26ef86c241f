"""``tot``: tree of thoughts (Yao et al., 2023, "Tree of Thoughts: Deliberate Problem Solving
with Large Language Models"), adapted to whole formulations.

Each level of the tree asks for ``breadth`` candidate formulations (one LLM call each, every
candidate told to take a different approach, so they differ even at temperature 0); every
candidate is compiled (fix-its first) and solved. When candidates solve, one is selected:
without an LLM call when there is only one, or when they all reach the same objective (they
agree), else by an LLM that compares them (``tot_select``). When none solves and budget remains,
the most promising candidate (one that compiled, else one that kept the contract) is expanded
into ``breadth`` new candidates with its feedback (``tot_expand``).

Budget: ``max_iterations`` generation calls in all (default 6: two levels of three); each
generation call is one iteration. No alignment judge: the status is ``solved`` or ``failed``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import templates
from ..errors import ContractError
from ..llm.parse import extract_json_object
from ..loop import Attempt, LoopOptions, LoopResult, _Run
from .base import StrategyContext
from .presets import options_for

#: Candidates per level.
BREADTH = 3

#: What each candidate of a level is told to do differently (cycled when ``breadth`` > 3).
APPROACHES = (
    "write the formulation straight from the text, sentence by sentence.",
    "first list every quantity with its unit and whether it is given data or a decision, then write the model.",
    "first name the classic model family this is an instance of (product mix, diet, blending, transportation, "
    "assignment, knapsack, covering, scheduling, network flow...) and adapt its standard formulation to the text.",
)

#: Two objectives closer than this (relative) count as the same.
AGREE_TOL = 1e-6


def _agree(objectives: list[float | None]) -> bool:
    vals = [v for v in objectives if v is not None]
    if len(vals) != len(objectives) or not vals:
        return False
    ref = vals[0]
    return all(abs(v - ref) <= AGREE_TOL * max(1.0, abs(ref)) for v in vals)


def _candidates_text(solved: list[Attempt]) -> str:
    parts = []
    for n, att in enumerate(solved, 1):
        outcome = att.outcome or {}
        parts.append(f"Candidate {n} (solver: {outcome.get('status')}, objective {outcome.get('objective')}):\n"
                     f"model:\n{att.model}\ndata:\n{att.data or '(none)'}\n")
    return "\n".join(parts)


@dataclass
class TreeOfThoughts:
    name: str = "tot"
    description: str = "tree of thoughts: several candidate formulations per level, compiled, solved and selected"
    breadth: int = BREADTH
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=2 * BREADTH, use_judge=False))

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        exemplars = run.exemplar_block()
        calls = 0
        parent: Attempt | None = None
        feedback = ""
        while calls < opt.max_iterations:
            k = min(self.breadth, opt.max_iterations - calls)
            level: list[tuple[Attempt, object]] = []
            for i in range(k):
                calls += 1
                approach = APPROACHES[i % len(APPROACHES)]
                if parent is None:
                    t = templates.load("tot")
                    messages = run.system + t.messages(problem=run.problem, exemplars=exemplars, index=str(i + 1),
                                                       count=str(k), approach=approach)
                    purpose = "tot"
                else:
                    t = templates.load("tot_expand")
                    messages = run.system + t.messages(problem=run.problem, model=parent.model,
                                                       data=parent.data or "(none)", feedback=feedback,
                                                       index=str(i + 1), count=str(k), approach=approach)
                    purpose = "tot_expand"
                run.emit(calls, purpose, f"candidate {i + 1} of {k}: asking the LLM")
                reply = run.ask(messages, purpose, t.id, calls)
                if reply is None:
                    return run.result(None, run.error)
                att, fb = run.candidate(reply.content, calls, purpose)
                if fb is None:
                    fb, _outcome = run.evaluate(att, calls)
                level.append((att, fb))
            solved = [att for att, fb in level if fb is None]
            if solved:
                return run.result("solved", None, pick=self._select(run, solved, calls))
            parent, fb = next(((a, f) for a, f in level if a.compiled), None) or \
                next(((a, f) for a, f in level if a.contract_error is None), None) or level[0]
            feedback = fb.text
        return run.result(None, run.error)

    def _select(self, run: _Run, solved: list[Attempt], it: int) -> Attempt:
        """The candidate to keep: the only one, the first when they agree, else the LLM's choice."""
        if len(solved) == 1 or _agree([(a.outcome or {}).get("objective") for a in solved]):
            run.emit(it, "select", f"{len(solved)} candidate(s) solved and agree; keeping the first")
            return solved[0]
        t = templates.load("tot_select")
        messages = t.messages(problem=run.problem, candidates=_candidates_text(solved))
        reply = run.ask(messages, "select", t.id, it)
        if reply is None:
            run.error = None  # the candidates are still good; keep the first
            return solved[0]
        try:
            best = extract_json_object(reply.content).get("best")
            n = int(best)
            if not 1 <= n <= len(solved):
                raise ValueError
        except (ContractError, TypeError, ValueError):
            run.emit(it, "select", "the selection broke its contract; keeping the first candidate")
            return solved[0]
        run.emit(it, "select", f"candidate {n} of {len(solved)}")
        return solved[n - 1]


TOT = TreeOfThoughts()
