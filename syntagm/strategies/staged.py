"""``staged``: the model built in separate LLM steps, each checked (after A-LAMP, Sala et al.,
2025: "decompose the modelling into parameters, objective, variables and constraints").

Steps, one LLM call each, in order:

1. ``parameters`` – set and parameter declarations with ``...`` and the data file; checked by
   compiling the declarations with the data (pyopl);
2. ``objective`` – direction and the objective in words and as a formula (checked: the direction
   is ``minimize`` or ``maximize``; there are no variables yet to compile it against);
3. ``variables`` – the ``dvar`` declarations; checked by compiling declarations + variables + data;
4. ``constraints`` – the body of ``subject to``; checked by compiling everything so far;
5. ``model`` – the complete model assembled from the checked pieces (with the objective in PyOPL),
   compiled with fix-its and solved as in the loop.

A step whose check fails is asked again once with the compiler's diagnostics (``STAGE_RETRIES``);
if it still fails, the next steps go on and the final step is told what is still wrong. All of
this is iteration 1; then, while ``max_iterations`` (default 3) allows, a model that does not
compile or solve goes to the loop's targeted repair (syntax or solver feedback). No judge: the
status is ``solved`` or ``failed``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .. import compiler, templates
from ..errors import ContractError
from ..llm.parse import extract_json_object, require_keys
from ..loop import LoopOptions, LoopResult, _Run
from .base import StrategyContext
from .presets import options_for

#: Extra asks per step when its check fails.
STAGE_RETRIES = 1


def _diagnostics_text(report: compiler.CheckReport, model: str, data: str) -> str:
    diags = [d for d in compiler.diagnostics_payload(report, model, data) if d.get("severity") == "error"]
    return "\n".join(f"- {d['file']} line {d['line']}: {d['message']}" + (f" (help: {d['help']})" if d.get("help") else "")
                     + (f"\n  source: {d['source']}" if d.get("source") else "") for d in diags[:8])


def _check(model: str, data: str, limits: compiler.Limits | None = None) -> str:
    """The compiler's errors for a partial model, as text ('' when it compiles)."""
    report = compiler.check(model, data, limits)
    return "" if report.ok else _diagnostics_text(report, model, data)


@dataclass
class Staged:
    name: str = "staged"
    description: str = "separate LLM steps: parameters → objective → variables → constraints → model, each checked"
    options: LoopOptions = field(default_factory=lambda: LoopOptions(max_iterations=3, use_judge=False))

    def _step(self, run: _Run, system: list[dict[str, str]], name: str, keys: dict[str, type],
              values: dict[str, str], check: Callable[[dict[str, Any]], str]) -> tuple[dict[str, Any] | None, str]:
        """Ask for step ``name`` until its reply keeps the contract and passes ``check`` (at most
        ``1 + STAGE_RETRIES`` calls). Returns ``(reply object or None if the endpoint failed, what
        is still wrong or '')``."""
        t = templates.load(f"staged_{name}")
        problem_text, obj = "", None
        for _ in range(1 + STAGE_RETRIES):
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
                continue
            obj = got
            problem_text = check(obj)
            run.emit(1, f"staged_{name}", "ok" if not problem_text else "check failed")
            if not problem_text:
                break
        return (obj if obj is not None else {k: "" for k in keys}), problem_text

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        opt = options_for(self.options, ctx.overrides)
        run = _Run(problem, ctx.llm, opt, ctx.retriever, ctx.progress)
        reference, _origin = templates.grammar_reference(opt.grammar_mode)
        system = templates.load("staged_system").messages(reference=reference)
        left: list[str] = []

        params, bad = self._step(run, system, "parameters", {"declarations": str, "data": str},
                                 {"exemplars": run.exemplar_block()},
                                 lambda o: _check(o["declarations"], o["data"], opt.limits))
        if params is None:
            return run.result(None, run.error)
        left += [f"parameters: {bad}"] if bad else []
        decls, data = params["declarations"], params["data"]

        def sense_ok(o: dict[str, Any]) -> str:
            return "" if str(o.get("sense", "")).lower() in ("minimize", "maximize") else \
                '"sense" must be "minimize" or "maximize"'

        objective, bad = self._step(run, system, "objective", {"sense": str, "objective": str},
                                    {"declarations": decls}, sense_ok)
        if objective is None:
            return run.result(None, run.error)
        left += [f"objective: {bad}"] if bad else []
        objective_text = f"{objective['sense']} {objective['objective']}".strip()

        variables, bad = self._step(run, system, "variables", {"variables": str},
                                    {"declarations": decls, "objective": objective_text},
                                    lambda o: _check(decls + "\n" + o["variables"], data, opt.limits))
        if variables is None:
            return run.result(None, run.error)
        left += [f"variables: {bad}"] if bad else []
        dvars = variables["variables"]

        constraints, bad = self._step(run, system, "constraints", {"constraints": str},
                                      {"declarations": decls, "variables": dvars, "objective": objective_text},
                                      lambda o: _check(f"{decls}\n{dvars}\nsubject to {{\n{o['constraints']}\n}}\n", data,
                                                          opt.limits))
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
