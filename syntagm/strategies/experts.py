"""``chain_of_experts``: role-specific LLM steps (after Xiao et al., 2024, "Chain-of-Experts:
When LLMs Meet Complex Operations Research Problems", ICLR).

One round runs the experts in order, each an LLM call that sees the problem and the notes of
the experts before it: terminology interpreter → parameter extractor → modelling expert
(mathematics) → programming expert (the PyOPL model and data, compiled with fix-its and
solved) → reviewer (checks the model and the solver's result against the text). When the
reviewer is satisfied the run ends ``aligned``. Otherwise the next round starts at the expert
the reviewer names, with its feedback, and runs every expert after it again. A model that
does not compile, or a reply that breaks the contract, goes straight back to the programming
expert with the diagnostics (no reviewer call).

Budget: ``max_iterations`` rounds (default 3); every call of round *r* has iteration *r*.
The experts' notes are passed on as the JSON they wrote (or their raw text when it is not JSON).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

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


@dataclass
class ChainOfExperts:
    name: str = "chain_of_experts"
    description: str = ("chain of experts: terminology → parameters → modelling → programming → reviewer, "
                        "each an LLM call; the reviewer sends work back")
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=3, use_judge=True))

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        notes = {"terminology": "", "parameters": "", "modelling": ""}
        start, feedback = "terminology", ""
        exemplars = run.exemplar_block()
        for rnd in range(1, opt.max_iterations + 1):
            for expert, tname in EXPERTS[ORDER.index(start):]:
                t = templates.load(tname)
                fb = _feedback_block(feedback if expert == start else "")
                run.emit(rnd, tname, "asking the LLM")
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
                if expert != "programming":
                    notes[expert] = _notes(reply.content)
            att, problem_fb = run.candidate(reply.content, rnd, "coe_programmer")
            outcome = None
            if problem_fb is None:
                problem_fb, outcome = run.evaluate(att, rnd)
            if problem_fb is not None and problem_fb.kind in ("contract", "syntax"):
                start, feedback = "programming", problem_fb.text
                continue
            t = templates.load("coe_reviewer")
            messages = t.messages(problem=run.problem, formulation=notes["modelling"] or "(none)", model=att.model,
                                  data=att.data or "(none)",
                                  outcome=_outcome_for_judge(outcome) if outcome is not None else "not solved")
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
                return run.result("solved" if att.solved else None, None)
            text = str(obj.get("feedback") or "")
            att.verdict = {"aligned": ok and att.solved, "issues": [] if ok else [text or "(no details given)"]}
            if ok and att.solved:
                run.emit(rnd, "coe_reviewer", "aligned")
                return run.result("aligned", None)
            if ok:  # the reviewer approves a model the solver rejected: the solver has the last word
                start, feedback = "modelling", problem_fb.text if problem_fb else "the model was not solved"
            else:
                named = str(obj.get("expert") or "modelling").lower()
                start = next((e for e in ORDER if e.startswith(named[:5])), "modelling")
                feedback = text + (f" (solver: {problem_fb.text})" if problem_fb is not None else "")
            run.emit(rnd, "coe_reviewer", f"back to the {start} expert")
        return run.result(None, run.error)


CHAIN_OF_EXPERTS = ChainOfExperts()
