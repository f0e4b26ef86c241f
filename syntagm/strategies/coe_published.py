"""``chain_of_experts_llm``: Chain-of-Experts as published (Xiao et al., 2024, "Chain-of-Experts:
When LLMs Meet Complex Operations Research Problems", ICLR): an LLM conductor, a reducer, and
backward reflection.  ``chain_of_experts`` (:mod:`.experts`) is the rule-conducted variant.

Each round:

1. **forward**: the *conductor* (an LLM call, ``coe_conductor``) sees the problem and the notes
   written so far (and what went wrong last round) and names the next expert (terminology,
   parameters, modelling, programming) or the *reducer*; the chosen expert writes its notes.  At
   most one call per expert per round; when the conductor has named every expert, or its reply
   cannot be read (then :func:`.experts.conduct` decides, recorded as ``by: "rule"``), or it
   names the reducer, the reducer comes next;
2. the **reducer** (``coe_reducer``) combines every note into the final model and data, which
   are compiled (fix-its first) and solved; a solved model ends the run ``solved`` (the paper
   evaluates by running the program; there is no judge);
3. **backward reflection**: otherwise each expert consulted, latest first, is asked
   (``coe_reflect``) whether the failure is its fault; the first that says so replaces its
   notes with its revision and the reflection stops; the next round starts with the failure as
   feedback for the conductor.

Every step is recorded in ``LoopResult.stages`` (``stages.json``): ``{stage: "conductor",
round, expert, reason, by: "llm" | "rule"}``, ``{stage: "reducer", round}`` and
``{stage: "reflection", round, expert, at_fault, reason}``.  Budget: ``max_iterations`` rounds
(default 3); every call of round *r* has iteration *r*.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import templates
from ..errors import ContractError
from ..llm.parse import extract_json_object
from ..loop import LoopOptions, LoopResult, _Run
from .experts import EXPERTS, ORDER, StagedSolve, _feedback_block, _notes, conduct

#: characters of each expert's notes the conductor sees
STATE_CHARS = 300


def _state_text(notes: dict[str, str]) -> str:
    lines = []
    for name in ORDER:
        text = " ".join(notes[name].split())
        lines.append(f"- {name}: " + ((text[:STATE_CHARS] + ("…" if len(text) > STATE_CHARS else "")) if text
                                       else "(not written yet)"))
    return "\n".join(lines)


def _all_notes(notes: dict[str, str]) -> str:
    return "\n".join(f"{name} notes:\n{notes[name] or '(none)'}\n" for name in ORDER)


@dataclass
class ChainOfExpertsLLM(StagedSolve):
    name: str = "chain_of_experts_llm"
    description: str = ("chain of experts as published: an LLM conductor picks the next expert, a reducer writes "
                        "the model from all notes, and a failure is reflected backwards through the experts")
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=3, use_judge=False))

    def _conductor(self, run: _Run, notes: dict[str, str], consulted: list[str], failure: str,
                   rnd: int) -> tuple[str, str, str] | None:
        """``(next, reason, by)``; None when the endpoint failed."""
        t = templates.load("coe_conductor")
        fb = f"\nWhat went wrong last round: {failure}\n" if failure else ""
        if consulted:
            fb += f"\nAlready consulted this round: {', '.join(consulted)}.\n"
        reply = run.ask(t.messages(problem=run.problem, state=_state_text(notes), feedback=fb),
                        "coe_conductor", t.id, rnd)
        if reply is None:
            return None
        try:
            obj = extract_json_object(reply.content)
            choice = str(obj.get("next") or "").strip().lower()
            if choice not in ORDER + ["reducer"]:
                raise ContractError(f"unknown step {choice!r}")
            if choice in consulted:
                raise ContractError(f"{choice} was consulted this round already")
            return choice, str(obj.get("reason") or ""), "llm"
        except ContractError as e:
            stamps = {n: (1 if notes[n] else 0) for n in ORDER}
            expert, reason = conduct({"stamps": stamps, "failure": None, "named": None})
            if expert in consulted:
                expert, reason = "reducer", "every expert was consulted"
            return expert, f"{reason} (the conductor's reply could not be used: {e.detail})", "rule"

    def _expert(self, run: _Run, expert: str, notes: dict[str, str], exemplars: str, rnd: int) -> bool:
        tname = dict(EXPERTS)[expert]
        t = templates.load(tname)
        fb = _feedback_block("")
        if expert == "programming":
            messages = run.system + t.messages(problem=run.problem, exemplars=exemplars,
                                               parameters=notes["parameters"] or "(none)",
                                               formulation=notes["modelling"] or "(none)", feedback=fb)
        else:
            messages = t.messages(problem=run.problem, terminology=notes["terminology"] or "(none)",
                                  parameters=notes["parameters"] or "(none)", feedback=fb)
        reply = run.ask(messages, tname, t.id, rnd)
        if reply is None:
            return False
        notes[expert] = _notes(reply.content)
        return True

    def _reflect(self, run: _Run, consulted: list[str], notes: dict[str, str], failure: str, rnd: int,
                 trail: list[dict[str, Any]]) -> bool:
        """Backward reflection over ``consulted`` (latest first); False when the endpoint failed."""
        t = templates.load("coe_reflect")
        for expert in reversed(consulted):
            reply = run.ask(t.messages(expert=expert, problem=run.problem, notes=notes[expert] or "(none)",
                                       failure=failure), "coe_reflect", t.id, rnd)
            if reply is None:
                return False
            try:
                obj = extract_json_object(reply.content)
                at_fault = obj.get("at_fault") is True
                reason = str(obj.get("reason") or "")
                revised = str(obj.get("revised_notes") or "")
            except ContractError as e:
                at_fault, reason, revised = False, f"unreadable reflection: {e.detail}", ""
            trail.append({"stage": "reflection", "round": rnd, "expert": expert, "at_fault": at_fault,
                          "reason": reason})
            if at_fault:
                if revised.strip():
                    notes[expert] = revised.strip()
                return True
        return True

    def _solve(self, run: _Run, opt: LoopOptions, trail: list[dict[str, Any]]) -> LoopResult:
        notes = {name: "" for name in ORDER}
        exemplars = run.exemplar_block()
        failure = ""
        for rnd in range(1, opt.max_iterations + 1):
            consulted: list[str] = []
            while len(consulted) < len(ORDER):
                step = self._conductor(run, notes, consulted, failure, rnd)
                if step is None:
                    return run.result(None, run.error)
                expert, reason, by = step
                trail.append({"stage": "conductor", "round": rnd, "expert": expert, "reason": reason, "by": by})
                if expert == "reducer":
                    break
                run.emit(rnd, dict(EXPERTS)[expert], f"conductor ({by}): {reason}")
                if not self._expert(run, expert, notes, exemplars, rnd):
                    return run.result(None, run.error)
                consulted.append(expert)
            t = templates.load("coe_reducer")
            trail.append({"stage": "reducer", "round": rnd})
            fb = f"\nThe last final model failed: {failure}\n" if failure else ""
            reply = run.ask(run.system + t.messages(problem=run.problem, exemplars=exemplars,
                                                    notes=_all_notes(notes), feedback=fb), "coe_reducer", t.id, rnd)
            if reply is None:
                return run.result(None, run.error)
            att, problem_fb = run.candidate(reply.content, rnd, "coe_reducer")
            if problem_fb is None:
                problem_fb, _outcome = run.evaluate(att, rnd)
            if problem_fb is None:
                return run.result("solved", None)
            failure = " ".join(problem_fb.text.split())[:2000]
            if rnd < opt.max_iterations and not self._reflect(run, consulted, notes, failure, rnd, trail):
                return run.result(None, run.error)
        return run.result(None, run.error)


CHAIN_OF_EXPERTS_LLM = ChainOfExpertsLLM()
