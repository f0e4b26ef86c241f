"""``chain_of_experts``: role-specific LLM steps (after Xiao et al., 2024, "Chain-of-Experts:
When LLMs Meet Complex Operations Research Problems", ICLR).

The experts, each an LLM call that sees the problem and the notes of the experts it depends on:
terminology interpreter → parameter extractor → modelling expert (mathematics) → programming
expert (the PyOPL model and data, compiled with fix-its and solved) → reviewer (checks the model
and the solver's result against the text). When the reviewer is satisfied the run ends ``aligned``.

A *conductor* (the paper's Conductor; here a deterministic rule over the state, so it costs no
LLM call and a run is reproducible) chooses the next expert from the state, :func:`conduct`:

1. the last model broke the contract or does not compile → the programming expert, with the
   diagnostics (no reviewer call);
2. the reviewer named an expert → that expert, with the reviewer's feedback;
3. the solver rejected the model (infeasible, unbounded, ...) → the modelling expert, with the
   solver's outcome (no reviewer call: the solver has the last word);
4. else the first expert (in dependency order) whose notes are missing or older than the notes
   of an expert it depends on → that expert; when all are fresh, the programming expert.

Every choice is recorded (``LoopResult.stages``: ``{stage: "conductor", round, expert, reason}``,
written to ``stages.json``).

Budget: ``max_iterations`` rounds (default 3); every call of round *r* has iteration *r*.
The experts' notes are passed on as the JSON they wrote (or their raw text when it is not JSON).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from typing import Any

from .. import templates
from ..errors import ContractError
from ..llm.parse import extract_json_object
from ..loop import LoopOptions, LoopResult, _outcome_for_judge, _Run
from .base import StrategyContext
from .presets import options_for

#: The experts in order: (name the reviewer uses, template, purpose).
EXPERTS = (("terminology", "coe_interpreter"), ("parameters", "coe_parameters"), ("modelling", "coe_modeller"),
           ("programming", "coe_programmer"))
ORDER = [name for name, _ in EXPERTS]


def _notes(content: str) -> str:
    """An expert's reply as text for the next experts: its JSON object, pretty-printed, else the raw text."""
    try:
        return json.dumps(extract_json_object(content), indent=1, ensure_ascii=False)
    except ContractError:
        return content.strip()


def _feedback_block(text: str) -> str:
    return f"\nThe reviewer asks you to redo your part: {text}\n" if text else ""


def conduct(state: dict[str, Any]) -> tuple[str, str]:
    """``(next expert, reason)`` from the run's ``state``: ``stamps`` (expert → when its notes were
    last written, 0 for never; ``programming`` included), ``failure`` (``contract``, ``syntax``,
    ``solver`` or ``None`` for the last candidate) and ``named`` (the expert the reviewer sent the
    work back to, or ``None``). The rules are those of the module doc, in order."""
    if state.get("failure") in ("contract", "syntax"):
        return "programming", "the last model does not compile"
    if state.get("named"):
        return state["named"], "the reviewer sent the work back"
    if state.get("failure") == "solver":
        return "modelling", "the solver rejected the model"
    stamps = state["stamps"]
    for i, name in enumerate(ORDER):
        upstream = max((stamps[u] for u in ORDER[:i]), default=0)
        if stamps[name] == 0 or stamps[name] < upstream:
            return name, "no notes yet" if stamps[name] == 0 else "its notes are older than those it builds on"
    return "programming", "all notes are fresh"


class StagedSolve:
    """What both chain-of-experts variants share: ``solve`` runs ``self._solve`` over one run and records
    the experts' trail (a list of dicts, one per step) as the result's ``stages``."""

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)  # type: ignore[attr-defined]
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        trail: list[dict[str, Any]] = []
        result = self._solve(run, opt, trail)  # type: ignore[attr-defined]
        result.stages = trail
        return result


@dataclass
class ChainOfExperts(StagedSolve):
    name: str = "chain_of_experts"
    description: str = ("chain of experts: a conductor picks the next expert (terminology, parameters, modelling, "
                        "programming) from the state; a reviewer checks the model and may send work back")
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=3, use_judge=True))

    def _solve(self, run: _Run, opt: LoopOptions, trail: list[dict[str, Any]]) -> LoopResult:
        notes = {"terminology": "", "parameters": "", "modelling": ""}
        state: dict[str, Any] = {"stamps": {e: 0 for e in ORDER}, "failure": None, "named": None}
        clock, feedback = 0, ""
        exemplars = run.exemplar_block()
        for rnd in range(1, opt.max_iterations + 1):
            reply = None
            for _ in range(len(ORDER)):  # at most every expert once before the programmer writes
                expert, reason = conduct(state)
                trail.append({"stage": "conductor", "round": rnd, "expert": expert, "reason": reason})
                tname = dict(EXPERTS)[expert]
                t = templates.load(tname)
                fb = _feedback_block(feedback)
                feedback, state["named"], state["failure"] = "", None, None
                run.emit(rnd, tname, f"conductor: {reason}; asking the LLM")
                if expert == "programming":
                    messages = run.system + t.messages(problem=run.problem, exemplars=exemplars,
                                                       parameters=notes["parameters"],
                                                       formulation=notes["modelling"], feedback=fb)
                else:
                    messages = t.messages(problem=run.problem, terminology=notes["terminology"] or "(none)",
                                          parameters=notes["parameters"] or "(none)", feedback=fb)
                reply = run.ask(messages, tname, t.id, rnd)
                if reply is None:
                    return run.result(None, run.error)
                clock += 1
                state["stamps"][expert] = clock
                if expert == "programming":
                    break
                notes[expert] = _notes(reply.content)
            att, problem_fb = run.candidate(reply.content, rnd, "coe_programmer")
            outcome = None
            if problem_fb is None:
                problem_fb, outcome = run.evaluate(att, rnd)
            if problem_fb is not None:  # the conductor sends it on without a review
                state["failure"], feedback = problem_fb.kind, problem_fb.text
                continue
            t = templates.load("coe_reviewer")
            messages = t.messages(problem=run.problem, formulation=notes["modelling"] or "(none)", model=att.model,
                                  data=att.data or "(none)", outcome=_outcome_for_judge(outcome))
            run.emit(rnd, "coe_reviewer", "asking the LLM")
            reply = run.ask(messages, "coe_reviewer", t.id, rnd)
            if reply is None:
                return run.result(None, run.error)
            try:
                obj = extract_json_object(reply.content)
                ok = obj.get("ok")
                if not isinstance(ok, bool):
                    raise ContractError('"ok" must be true or false')
            except ContractError:
                run.emit(rnd, "coe_reviewer", "the review broke its contract; keeping the model")
                return run.result("solved", None)
            text = str(obj.get("feedback") or "")
            att.verdict = {"aligned": ok, "issues": [] if ok else [text or "(no details given)"]}
            if ok:
                run.emit(rnd, "coe_reviewer", "aligned")
                return run.result("aligned", None)
            named = str(obj.get("expert") or "modelling").lower()
            state["named"] = next((e for e in ORDER if e.startswith(named[:5])), "modelling")
            feedback = text
            run.emit(rnd, "coe_reviewer", f"back to the {state['named']} expert")
        return run.result(None, run.error)


CHAIN_OF_EXPERTS = ChainOfExperts()
