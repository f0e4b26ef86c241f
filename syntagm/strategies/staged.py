"""``staged``: the model built in separate LLM steps, each verified before the next (after A-LAMP,
Sala et al., 2025: "decompose the modelling into parameters, objective, variables and constraints",
with a check per stage).

Steps, one LLM call each, in order, each with its verifier (:mod:`.verifiers`, no LLM call):

1. ``parameters`` – set and parameter declarations with ``...`` and the data file; verified by
   compiling the declarations with the data (pyopl) and by :func:`~.verifiers.check_numbers`
   (every number of the text used as a value or set aside; every data value in the text or justified);
2. ``objective`` – sense, the objective in words and as a formula, the quantities it sums; verified
   by :func:`~.verifiers.check_objective` (sense against the text's goal words);
3. ``variables`` – the ``dvar`` declarations with each one's meaning, domain and units; verified by
   compiling declarations + variables + data and :func:`~.verifiers.check_variables`;
4. ``constraints`` – the body of ``subject to`` with a label → sentence mapping; verified by compiling
   everything so far and :func:`~.verifiers.check_constraints` (labels mapped to the text's
   sentences; unmapped constraint-like sentences reported);
5. ``model`` – the complete model assembled from the verified pieces, compiled with fix-its and
   solved as in the loop.

A step whose verifier reports findings is redone with them, at most ``stage_retries`` times
(default :data:`STAGE_RETRIES`, ``--stage-retries``); if it still fails, the next steps go on and
the final step is told what is still wrong. Every try of every stage is recorded in
``LoopResult.stages`` (``{stage, try, output, verdict: {ok, findings}}``; written to
``stages.json``). All of this is iteration 1; then, while ``max_iterations`` (default 3) allows,
a model that does not compile or solve goes to the loop's targeted repair. No judge: the status
is ``solved`` or ``failed``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from ..assess import compiler
from .. import templates
from ..errors import ContractError
from ..llm.parse import extract_json_object, require_keys
from ..loop import LoopOptions, LoopResult, _Run
from . import verifiers as V
from .base import StrategyContext
from .presets import options_for

#: Extra asks per step when its check fails (default of ``--stage-retries``).
STAGE_RETRIES = 1


def _diagnostics_text(report: compiler.CheckReport, model: str, data: str) -> str:
    diags = [d for d in compiler.diagnostics_payload(report, model, data) if d.get("severity") == "error"]
    return "\n".join(f"- {d['file']} line {d['line']}: {d['message']}" + (f" (help: {d['help']})" if d.get("help") else "")
                     + (f"\n  source: {d['source']}" if d.get("source") else "") for d in diags[:8])


def _check(model: str, data: str, limits: compiler.Limits | None = None) -> str:
    """The compiler's errors for a partial model, as text ('' when it compiles)."""
    report = compiler.check(model, data, limits)
    return "" if report.ok else _diagnostics_text(report, model, data)


def _join(compiler_text: str, findings: list[str]) -> str:
    """The compiler's errors and the verifier's findings as one text, one finding a line ('' when none)."""
    return "\n".join([compiler_text] * bool(compiler_text) + [f"- {f}" for f in findings])


@dataclass
class Staged:
    name: str = "staged"
    description: str = "separate LLM steps: parameters → objective → variables → constraints → model, each checked"
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=3, use_judge=False))

    def _step(self, run: _Run, system: list[dict[str, str]], name: str, keys: dict[str, type],
              values: dict[str, str], check: Callable[[dict[str, Any]], str]) -> tuple[dict[str, Any] | None, str]:
        """Ask for step ``name`` until its reply keeps the contract and passes ``check`` (at most
        ``1 + stage_retries`` calls), recording each try in ``self._stages``. Returns ``(reply
        object or None if the endpoint failed, what is still wrong or '')``."""
        t = templates.load(f"staged_{name}")
        problem_text, obj = "", None
        for n in range(1 + self._retries):
            fb = f"\nYour previous answer for this step had problems; fix them:\n{problem_text}\n" if problem_text else ""
            run.emit(1, f"staged_{name}", "asking the LLM")
            reply = run.ask(system + t.messages(problem=run.problem, feedback=fb, **values), f"staged_{name}", t.id, 1)
            if reply is None:
                return None, ""
            try:
                got = extract_json_object(reply.content)
                require_keys(got, keys, reply.content)
            except ContractError as e:
                problem_text = str(e)
                run.emit(1, f"staged_{name}", e.detail)
                self._stages.append({"stage": name, "try": n + 1, "output": None,
                                     "verdict": {"ok": False, "findings": [str(e)]}})
                continue
            obj = got
            problem_text = check(obj)
            self._stages.append({"stage": name, "try": n + 1, "output": obj,
                                 "verdict": {"ok": not problem_text,
                                             "findings": [f for f in problem_text.split("\n") if f]}})
            run.emit(1, f"staged_{name}", "ok" if not problem_text else "check failed")
            if not problem_text:
                break
        return (obj if obj is not None else {k: "" for k in keys}), problem_text

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        retries = ctx.overrides.get("stage_retries")
        worker = copy.copy(self)  # per-run state on a copy: bench solves problems in threads at once
        worker._retries = STAGE_RETRIES if retries is None else int(retries)
        worker._stages = []
        result = worker._solve(run, opt)
        result.stages = worker._stages
        return result

    def _solve(self, run: _Run, opt: LoopOptions) -> LoopResult:
        text = run.problem
        reference, _origin = templates.grammar_reference(opt.grammar_mode)
        system = templates.load("staged_system").messages(reference=reference)
        left: list[str] = []

        params, bad = self._step(run, system, "parameters", {"declarations": str, "data": str},
                                 {"exemplars": run.exemplar_block()},
                                 lambda o: _join(_check(o["declarations"], o["data"], opt.limits),
                                                 V.check_numbers(text, o["declarations"], o["data"],
                                                                 o.get("set_aside"), o.get("justified"))))
        if params is None:
            return run.result(None, run.error)
        left += [f"parameters: {bad}"] if bad else []
        decls, data = params["declarations"], params["data"]

        objective, bad = self._step(run, system, "objective", {"sense": str, "objective": str},
                                    {"declarations": decls},
                                    lambda o: _join("", V.check_objective(text, o.get("sense"), o.get("quantities"))))
        if objective is None:
            return run.result(None, run.error)
        left += [f"objective: {bad}"] if bad else []
        objective_text = f"{objective['sense']} {objective['objective']}".strip()

        variables, bad = self._step(run, system, "variables", {"variables": str},
                                    {"declarations": decls, "objective": objective_text},
                                    lambda o: _join(_check(decls + "\n" + o["variables"], data, opt.limits),
                                                    V.check_variables(o["variables"], o.get("meanings"))))
        if variables is None:
            return run.result(None, run.error)
        left += [f"variables: {bad}"] if bad else []
        dvars = variables["variables"]

        constraints, bad = self._step(run, system, "constraints", {"constraints": str},
                                      {"declarations": decls, "variables": dvars, "objective": objective_text},
                                      lambda o: _join(_check(f"{decls}\n{dvars}\nsubject to {{\n{o['constraints']}\n}}\n",
                                                             data, opt.limits),
                                                      V.check_constraints(text, o["constraints"], o.get("mapping"))[0]))
        if constraints is None:
            return run.result(None, run.error)
        left += [f"constraints: {bad}"] if bad else []

        t = templates.load("staged_model")
        notes = ("Still wrong in the pieces (fix it while assembling):\n" + "\n".join(left)) if left else ""
        messages = system + t.messages(problem=run.problem, declarations=decls, variables=dvars,
                                       objective=objective_text.replace("\n", " "),
                                       constraints=constraints["constraints"], data=data or "(none)", notes=notes)
        run.emit(1, "staged_model", "asking the LLM")
        reply = run.ask(messages, "staged_model", t.id, 1)
        if reply is None:
            return run.result(None, run.error)
        att, fb = run.candidate(reply.content, 1, "staged_model")
        if fb is None:
            fb, _outcome = run.evaluate(att, 1)
        it = 1
        while fb is not None and it < opt.max_iterations:  # then the loop's targeted repairs
            it += 1
            messages, purpose, tid = run.repair_prompt(fb, run.attempts[-1])
            run.emit(it, purpose, "asking the LLM")
            reply = run.ask(messages, purpose, tid, it)
            if reply is None:
                return run.result(None, run.error)
            att, fb = run.candidate(reply.content, it, purpose)
            if fb is None:
                fb, _outcome = run.evaluate(att, it)
        return run.result("solved" if fb is None else None, run.error)


STAGED = Staged()
