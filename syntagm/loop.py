"""The loop: generate → compile (fix-its first) → solve → judge → revise.

:func:`run_loop` drives one problem to a solved, judged model or to the end
of its iteration budget. One *iteration* is one generation or revision call
to the LLM and the checks that follow it:

1. ask the LLM (generation first, then the repair the last problem calls for);
2. read the reply's JSON contract (a broken contract is fed back as such);
3. compile with pyopl, collecting every diagnostic; apply machine-applicable
   fix-its and re-check (no LLM call) — errors that remain go to a syntax repair;
4. solve; infeasible, unbounded, time-limit or error outcomes go to an
   alignment repair with the solver's explanation;
5. ask the LLM judge whether the model matches the problem; issues go to an
   alignment repair; ``aligned`` ends the loop.

Every attempt is kept (:class:`Attempt`); the result carries the final model,
data, solution, verdict and telemetry (:class:`LoopResult`). Failures of the
endpoint end the run with status ``failed`` and the error, not an exception.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .assess import compiler
from . import templates
from .errors import ContractError, LLMError
from .llm.client import ChatClient
from .llm.parse import excerpt, extract_json_object, require_keys
from .llm.telemetry import CallTelemetry, RunTelemetry

Progress = Callable[[dict[str, Any]], None]

#: How many rounds of fix-its to apply before giving the errors to the LLM.
FIXIT_ROUNDS = 3


@dataclass
class LoopOptions:
    """Knobs of the loop (the strategies are presets of these).

    ``max_iterations``: LLM generation/revision calls allowed (default 5);
    ``use_fixits``: apply machine-applicable fix-its before asking the LLM;
    ``use_judge``: run the LLM alignment judge on solved models;
    ``exemplars``: how many knowledge-base exemplars to put in the generation prompt;
    ``time_limit_s``: solver time limit in seconds per solve;
    ``generate_prompt``: ``generate`` or ``cot``; ``repair_style``: ``targeted``
    (syntax/alignment repair prompts) or ``reflect`` (Reflexion-style self-reflection);
    ``grammar_mode``: ``auto``, ``compact``, ``full`` or ``none`` (see :func:`templates.grammar_reference`);
    ``diagnostics``: how much of the compiler's report a syntax repair sees (an ablation): ``full``
    (every diagnostic as JSON, with help and fix-its), ``first`` (the first error only, as JSON),
    ``line`` (only the file and line of each error), ``masked`` (only "it does not compile");
    ``memory_size``: how many earlier reflections a ``reflect`` repair is shown (Reflexion's bounded
    memory; the oldest are dropped first; 0: none);
    ``semantic_checks``: ``feed`` runs the LLM-free checks of :mod:`syntagm.assess.semantic` on a solved
    model and, when they find something new and the budget allows, sends the findings back as an
    alignment repair before any judge is asked; ``off`` (the default; the ``syntagm`` strategy feeds);
    ``compile_timeout_s``: wall-clock seconds one compile of a candidate may take (it runs in a
    worker process that is stopped past it, see :mod:`syntagm.assess.sandbox`); ``compile_memory_mb``:
    the worker's memory limit in MiB.
    """

    max_iterations: int = 5
    use_fixits: bool = True
    use_judge: bool = True
    exemplars: int = 2
    time_limit_s: float = 30.0
    solver: str = "highs"
    generate_prompt: str = "generate"
    repair_style: str = "targeted"
    grammar_mode: str = "auto"
    diagnostics: str = "full"
    memory_size: int = 3
    semantic_checks: str = "off"
    compile_timeout_s: float = compiler.sandbox.DEFAULT_TIMEOUT_S
    compile_memory_mb: int | None = compiler.sandbox.DEFAULT_MEMORY_MB

    @property
    def limits(self) -> "compiler.Limits":
        return compiler.Limits(self.compile_timeout_s, self.compile_memory_mb)


@dataclass
class Attempt:
    """One iteration's candidate and what the checks said about it.

    ``source``: the prompt that produced it (``generate``, ``syntax_repair``...);
    ``contract_error``: set when the reply was unusable; ``fixes_applied``: fix-its
    applied (the model/data here are after them); ``diagnostics``: what the compiler
    still reported (JSON dicts); ``outcome``: ``{status, objective, message}`` when
    it was solved; ``verdict``: the judge's ``{aligned, issues}``; ``compile_s``,
    ``solve_s``: local wall-clock seconds (kept out of the reproducible artefacts); ``tree``: the
    attempt's node in a ``refine_tree`` search (``{node, parent, score, times_refined, ...}``), else
    ``None`` (and left out of :meth:`to_dict`); ``reflection``: the self-reflection a ``reflect``
    reply carried (Reflexion), else ``None`` (left out too); ``semantic``: the findings of the
    LLM-free semantic checks on a solved attempt (as issues), ``None`` when they did not run.
    """

    iteration: int
    source: str
    model: str = ""
    data: str = ""
    contract_error: str | None = None
    fixes_applied: list[str] = field(default_factory=list)
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None
    compile_s: float = 0.0
    solve_s: float = 0.0
    tree: dict[str, Any] | None = None
    reflection: str | None = None
    semantic: list[dict[str, str]] | None = None

    @property
    def compiled(self) -> bool:
        return self.contract_error is None and bool(self.model) and not any(
            d.get("severity") == "error" for d in self.diagnostics)

    @property
    def solved(self) -> bool:
        return bool(self.outcome) and self.outcome.get("status") in compiler.SOLVED

    def to_dict(self, timings: bool = False) -> dict[str, Any]:
        d = asdict(self)
        for k in ("tree", "reflection", "semantic"):  # only strategies that use them record them
            if d.get(k) is None:
                d.pop(k)
        if not timings:
            d.pop("compile_s")
            d.pop("solve_s")
        return d


@dataclass
class LoopResult:
    """The run's outcome.

    ``status``: ``aligned`` (solved and the judge agrees), ``solved`` (solved, no
    judge run), ``unaligned`` (solved, but the judge still objects when the budget
    ran out), ``failed`` (no solved model); ``model``/``data``: the final texts
    (the best attempt: the last solved one, else the last compiled, else the last);
    ``solution``: the solver's JSON (``{}`` if none); ``verdict``: the last judge
    verdict of the final attempt or ``None``; ``iterations``: LLM generation/revision
    calls made; ``error``: the endpoint failure that ended the run, if any.
    """

    status: str
    model: str
    data: str
    solution: dict[str, Any]
    verdict: dict[str, Any] | None
    telemetry: RunTelemetry
    attempts: list[Attempt]
    iterations: int
    error: str | None = None
    retrieved: list[str] = field(default_factory=list)
    grammar_reference: str = ""
    stages: list[dict[str, Any]] = field(default_factory=list)  # staged: stage tries; chain_of_experts: conductor choices

    @property
    def objective(self) -> float | None:
        return self.solution.get("objective") if self.solution else None


@dataclass
class _Feedback:
    kind: str  # contract | syntax | solver | judge
    values: dict[str, str]
    text: str  # a one-paragraph summary (reflect style)


def _issues_text(issues: list[Any]) -> str:
    lines = []
    for it in issues:
        if isinstance(it, dict):
            where = it.get("constraint") or it.get("where") or ""
            prob = it.get("problem") or it.get("issue") or it.get("description") or json.dumps(it)
            fix = it.get("fix") or it.get("suggestion") or ""
            lines.append(f"- {('[' + str(where) + '] ') if where else ''}{prob}{(' Fix: ' + str(fix)) if fix else ''}")
        else:
            lines.append(f"- {it}")
    return "\n".join(lines) or "- (no details given)"


class _Run:
    """State of one run (kept out of :func:`run_loop` so each step is a small method)."""

    def __init__(self, problem: str, llm: ChatClient, options: LoopOptions, retriever, progress: Progress | None):
        self.problem = problem.strip()
        self.llm = llm
        self.opt = options
        self.retriever = retriever
        self.progress = progress or (lambda e: None)
        self.telemetry = RunTelemetry()
        self.attempts: list[Attempt] = []
        reference, self.reference_origin = templates.grammar_reference(options.grammar_mode)
        self.system = templates.load("system").messages(reference=reference)
        self.retrieved: list[str] = []
        self.error: str | None = None  # the endpoint failure that ended the run
        self.last_finish: str | None = None  # finish_reason of the last reply ("length": cut off)

    def emit(self, iteration: int, step: str, detail: str = "", **more: Any) -> None:
        self.progress({"iteration": iteration, "max_iterations": self.opt.max_iterations, "step": step,
                       "detail": detail, **more})

    def call(self, messages: list[dict[str, str]], purpose: str, template_id: str, iteration: int):
        reply = self.llm.chat(messages, purpose=purpose, json_mode=True, iteration=iteration,
                              prompt_version=template_id)
        self.telemetry.add(reply.telemetry)
        return reply

    # -- prompts ------------------------------------------------------------------------------
    def exemplar_block(self) -> str:
        if not self.retriever or self.opt.exemplars <= 0:
            return ""
        hits = self.retriever.search(self.problem, k=self.opt.exemplars)
        self.retrieved = [e.name for e, _ in hits]
        if not hits:
            return ""
        t = templates.load("exemplar")
        body = "\n\n".join(t.fill(name=e.name, description=e.description, model=e.model.strip(),
                                  data=e.data.strip() or "(none)") for e, _ in hits)
        return "\nSolved examples of similar problems (for the language and style; do not copy their numbers):\n\n" + body + "\n"

    def first_prompt(self) -> tuple[list[dict[str, str]], str, str]:
        t = templates.load(self.opt.generate_prompt)
        return self.system + t.messages(problem=self.problem, exemplars=self.exemplar_block()), self.opt.generate_prompt, t.id

    def repair_prompt(self, fb: _Feedback, last: Attempt) -> tuple[list[dict[str, str]], str, str]:
        if fb.kind == "contract":
            t = templates.load("contract_repair")
            return self.system + t.messages(problem=self.problem, detail=fb.values["detail"]), "contract_repair", t.id
        if self.opt.repair_style == "reflect":
            t = templates.load("reflect")
            return (self.system + t.messages(problem=self.problem, memory=self.memory_block(),
                                             model=last.model, data=last.data or "(none)",
                                             feedback=fb.text), "reflect", t.id)
        if fb.kind == "syntax":
            t = templates.load("syntax_repair")
            return (self.system + t.messages(problem=self.problem, model=last.model, data=last.data or "(none)",
                                             diagnostics=fb.values["diagnostics"],
                                             diagnostics_header=diagnostics_header(self.opt.diagnostics)),
                    "syntax_repair", t.id)
        t = templates.load("alignment_repair")
        return (self.system + t.messages(problem=self.problem, model=last.model, data=last.data or "(none)",
                                         outcome=fb.values["outcome"], issues=fb.values["issues"]),
                "alignment_repair", t.id)

    def memory_block(self) -> str:
        """Reflexion's memory: the last ``memory_size`` distinct reflections, oldest first ('' when
        none). A reflection repeated word for word (case and spacing aside) is kept once, at its
        latest place, so a model that repeats itself does not fill the memory with one lesson."""
        latest: dict[str, str] = {}
        for a in self.attempts:
            if a.reflection:
                key = " ".join(a.reflection.lower().split())
                latest.pop(key, None)
                latest[key] = a.reflection
        kept = list(latest.values())[-self.opt.memory_size:] if self.opt.memory_size > 0 else []
        if not kept:
            return ""
        return ("Your reflections on earlier attempts (oldest first):\n"
                + "\n".join(f"{i}. {r}" for i, r in enumerate(kept, 1)) + "\n")

    # -- steps --------------------------------------------------------------------------------
    def read_candidate(self, content: str) -> tuple[str, str]:
        obj = extract_json_object(content)
        if isinstance(obj.get("data"), type(None)):
            obj["data"] = ""
        require_keys(obj, {"model": str, "data": str}, content)
        if not obj["model"].strip():
            raise ContractError("\"model\" is empty", excerpt(content))
        return obj["model"], obj["data"]

    def compile_step(self, att: Attempt, it: int) -> compiler.CheckReport:
        start = time.monotonic()
        report = compiler.check(att.model, att.data, self.opt.limits)
        rounds = 0
        while self.opt.use_fixits and not report.ok and rounds < FIXIT_ROUNDS:
            model, data, applied = compiler.apply_machine_fixes(att.model, att.data, report)
            if not applied:
                break
            att.model, att.data = model, data
            att.fixes_applied += applied
            self.emit(it, "fixit", f"applied {len(applied)} fix-it(s) without an LLM call", fixes=applied)
            report = compiler.check(att.model, att.data, self.opt.limits)
            rounds += 1
        att.compile_s = time.monotonic() - start
        att.diagnostics = compiler.diagnostics_payload(report, att.model, att.data)
        return report

    def judge(self, att: Attempt, outcome: compiler.SolveOutcome, it: int) -> dict[str, Any]:
        t = templates.load("judge")
        messages = t.messages(problem=self.problem, model=att.model, data=att.data or "(none)",
                              outcome=_outcome_for_judge(outcome))
        last_error = ""
        for _ in range(2):  # one retry when the judge breaks its contract, saying what was wrong
            reply = self.ask(messages, "judge", t.id, it)  # an endpoint failure keeps the run's outputs
            if reply is None:
                return {"aligned": None, "issues": [], "error": self.error}
            try:
                obj = extract_json_object(reply.content)
                require_keys(obj, {"aligned": bool}, reply.content)
                issues = obj.get("issues") or []
                if not isinstance(issues, list):
                    issues = [issues]
                return {"aligned": obj["aligned"], "issues": issues}
            except ContractError as e:
                last_error = str(e)
                self.emit(it, "judge", "the judge's reply broke its contract; asking again")
                messages = messages + [{"role": "assistant", "content": excerpt(reply.content, 2000)},
                                       {"role": "user", "content": judge_contract_note(e, reply.finish_reason)}]
        return {"aligned": None, "issues": [], "error": last_error}

    # -- building blocks (shared with the strategies in syntagm.strategies) ---------------------
    def ask(self, messages: list[dict[str, str]], purpose: str, tid: str, it: int):
        """One LLM call; on an endpoint failure, record it (telemetry with ``error``), set
        ``self.error`` and return ``None`` (the caller ends the run)."""
        try:
            reply = self.call(messages, purpose, tid, it)
            self.last_finish = reply.finish_reason
            return reply
        except LLMError as e:
            self.error = str(e)
            self.telemetry.add(CallTelemetry(purpose=purpose, model=self.llm.model, prompt_tokens=0,
                                             completion_tokens=0, latency_s=e.latency_s,
                                             retries=max(e.attempts - 1, 0), cost_usd=e.cost_usd,
                                             prompt_version=tid, iteration=it, error=e.kind))
            self.emit(it, "error", self.error)
            return None

    def candidate(self, content: str, it: int, purpose: str) -> tuple[Attempt, _Feedback | None]:
        """Record a new :class:`Attempt` from a reply; feedback when it breaks the contract."""
        att = Attempt(it, purpose)
        self.attempts.append(att)
        if purpose == "reflect":
            att.reflection = _reflection(content)
        try:
            att.model, att.data = self.read_candidate(content)
        except ContractError as e:
            detail = str(e)
            if self.last_finish == "length":  # cut off by the token cap: ask for a shorter answer
                detail = CUT_OFF_NOTE + "\n" + detail
                self.emit(it, "contract", "the reply was cut off at the length limit; asking for a shorter one")
            else:
                self.emit(it, "contract", e.detail)
            att.contract_error = detail
            return att, _Feedback("contract", {"detail": detail}, detail)
        return att, None

    def evaluate(self, att: Attempt, it: int) -> tuple[_Feedback | None, compiler.SolveOutcome | None]:
        """Compile (fix-its first) and solve ``att``; ``(feedback, outcome)``: feedback is ``None``
        exactly when the attempt solved (then ``att.outcome`` carries the solution)."""
        report = self.compile_step(att, it)
        if not report.ok:
            n = len([d for d in att.diagnostics if d.get("severity") == "error"])
            self.emit(it, "compile", f"{n} error(s)")
            payload, summary = diagnostics_feedback(att.diagnostics, self.opt.diagnostics)
            note = fixes_note(att) if self.opt.diagnostics != "masked" else ""  # masked: nothing but the fact
            return _Feedback("syntax", {"diagnostics": note + payload}, summary), None
        self.emit(it, "compile", "ok")
        outcome = compiler.solve(att.model, att.data, self.opt.time_limit_s, self.opt.solver,
                                 compiled=report.compiled, limits=self.opt.limits)
        att.solve_s = outcome.solve_s
        att.outcome = {"status": outcome.status, "objective": outcome.objective, "message": outcome.message}
        self.emit(it, "solve", outcome.describe())
        if not outcome.solved:
            # the outcome (with the solver's explanation) is shown once, as "Solver outcome"; the issue points at it
            issue = {"constraint": "whole model", "problem": f"the solver found no optimal solution ({outcome.status})",
                     "fix": _solver_hint(outcome.status)}
            return _Feedback("solver", {"outcome": outcome.describe(), "issues": fixes_note(att) + _issues_text([issue])},
                             f"the solver reports: {outcome.describe()}. {_solver_hint(outcome.status)}"), outcome
        att.outcome["solution"] = outcome.solution
        if self.opt.semantic_checks == "feed":
            fb = self.semantic_step(att, outcome, it)
            if fb is not None:
                return fb, outcome
        return None, outcome

    def semantic_step(self, att: Attempt, outcome: compiler.SolveOutcome, it: int) -> _Feedback | None:
        """Run the semantic checks on a solved attempt (findings kept in ``att.semantic``); the
        feedback of an alignment repair when they found something not already sent back for the
        previous attempt and an iteration is left for the repair, else None."""
        from .assess import semantic

        def resolve(model: str, data: str) -> float | None:
            o = compiler.solve(model, data, self.opt.time_limit_s, self.opt.solver, limits=self.opt.limits)
            return o.objective if o.solved else None

        sense = semantic._SENSE.findall(semantic._code(att.model))
        found = semantic.check(self.problem, att.model, att.data, sense=sense[0] if len(set(sense)) == 1 else None,
                               objective=outcome.objective, solve=resolve)
        att.semantic = [f.as_issue() for f in found]
        self.emit(it, "semantic", f"{len(found)} finding(s)" if found else "nothing found")
        earlier = self.attempts[-2].semantic if len(self.attempts) > 1 else None
        if not found or it >= self.opt.max_iterations or att.semantic == earlier:
            return None
        text = _issues_text(att.semantic)
        return _Feedback("semantic", {"outcome": outcome.describe(), "issues": fixes_note(att) + text},
                         "checks of the model against the problem statement found:\n" + text)

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> LoopResult:
        fb: _Feedback | None = None
        done_status = None
        it = 0
        while it < self.opt.max_iterations:
            it += 1
            if fb is None:
                messages, purpose, tid = self.first_prompt()
            else:
                messages, purpose, tid = self.repair_prompt(fb, self.attempts[-1])
            self.emit(it, purpose, "asking the LLM")
            reply = self.ask(messages, purpose, tid, it)
            if reply is None:
                break
            att, fb = self.candidate(reply.content, it, purpose)
            if fb is not None:
                continue
            fb, outcome = self.evaluate(att, it)
            if fb is not None:
                continue
            if not self.opt.use_judge:
                done_status = "solved"
                break
            verdict = self.judge(att, outcome, it)
            att.verdict = verdict
            if verdict.get("aligned") is None:
                self.emit(it, "judge", "no usable verdict; keeping the solved model")
                done_status = "solved"
                break
            if verdict["aligned"]:
                self.emit(it, "judge", "aligned")
                done_status = "aligned"
                break
            self.emit(it, "judge", f"{len(verdict['issues'])} issue(s)")
            text = _issues_text(verdict["issues"])
            fb = _Feedback("judge", {"outcome": outcome.describe(), "issues": fixes_note(att) + text},
                           "a reviewer found these problems:\n" + text)
        return self.result(done_status, self.error)

    def result(self, done_status: str | None, error: str | None, pick: Attempt | None = None) -> LoopResult:
        """The :class:`LoopResult`; ``pick`` overrides the default choice of the final attempt
        (the last solved one, else the last compiled, else the last)."""
        best = pick or next((a for a in reversed(self.attempts) if a.solved), None) or \
            next((a for a in reversed(self.attempts) if a.compiled), None) or \
            (self.attempts[-1] if self.attempts else None)
        if done_status is None:
            done_status = "unaligned" if best is not None and best.solved else "failed"
        solution = dict(best.outcome.get("solution") or {}) if best and best.outcome else {}
        iterations = len({c.iteration for c in self.telemetry.calls if c.purpose != "judge"})
        return LoopResult(done_status, best.model if best else "", best.data if best else "", solution,
                          best.verdict if best else None, self.telemetry, self.attempts,
                          iterations, error, self.retrieved, self.reference_origin)


#: Characters of one reflection kept in Reflexion's memory.
REFLECTION_CHARS = 600


def _reflection(content: str) -> str | None:
    """The ``reflection`` string of a reflect reply (bounded to :data:`REFLECTION_CHARS`), or ``None``."""
    try:
        r = extract_json_object(content).get("reflection")
    except ContractError:
        return None
    if not isinstance(r, str) or not r.strip():
        return None
    r = " ".join(r.split())
    return r if len(r) <= REFLECTION_CHARS else r[: REFLECTION_CHARS - 1] + "…"


#: Diagnostics granularities (``--diagnostics``), most to least informative.
DIAGNOSTICS_MODES = ("full", "first", "line", "masked")
MASKED_DIAGNOSTICS = "The model does not compile. (No compiler details are given.)"


_DIAGNOSTICS_HEADERS = {
    "full": "Compiler diagnostics (JSON; line/column are 1-based, `file` says model or data; `help` and `fix` say "
            "how to fix it):",
    "first": "The compiler's first error (JSON; line/column are 1-based, `file` says model or data; `help` and "
             "`fix` say how to fix it):",
    "line": "Where the compiler found errors (lines only):",
    "masked": "The compiler's verdict:",
}


def diagnostics_header(mode: str) -> str:
    """The line that introduces the diagnostics in the syntax repair prompt at granularity ``mode``:
    it promises JSON only where JSON follows (``full``, ``first``)."""
    return _DIAGNOSTICS_HEADERS.get(mode or "full", _DIAGNOSTICS_HEADERS["full"])


def diagnostics_feedback(diags: list[dict[str, Any]], mode: str) -> tuple[str, str]:
    """``(payload for the syntax repair prompt, one-paragraph summary for the reflect prompt)`` of
    the compiler's diagnostics ``diags`` (JSON dicts) at granularity ``mode`` (:data:`DIAGNOSTICS_MODES`)."""
    errors = [d for d in diags if d.get("severity") == "error"] or diags
    if mode == "masked":
        return MASKED_DIAGNOSTICS, MASKED_DIAGNOSTICS
    if mode == "line":
        where = sorted({(str(d.get("file")), int(d.get("line") or 0)) for d in errors})
        text = "Errors at: " + "; ".join(f"{f} line {n}" for f, n in where) + " (no messages are given)."
        return text, "the compiler reports errors at " + "; ".join(f"{f} line {n}" for f, n in where)
    shown = errors[:1] if mode == "first" else diags
    payload = json.dumps(shown, ensure_ascii=False, indent=1)
    summary = "the compiler reported:\n" + "\n".join(
        f"{d['file']}:{d['line']}:{d['column']}: {d['message']}" + (f" (help: {d['help']})" if d.get("help") else "")
        for d in shown)
    return payload, summary


#: Said in the contract repair when the reply stopped at the token cap (``finish_reason == "length"``).
CUT_OFF_NOTE = ("Your reply was cut off: it reached the length limit (token cap) before the JSON object was "
                "complete. Answer again, shorter: the JSON object only, no text or comments around it, "
                "no reasoning, data written compactly.")


def judge_contract_note(err: ContractError, finish_reason: str | None) -> str:
    """The judge's retry message: what was wrong with its reply, and the contract again."""
    cut = "Your reply was cut off at the length limit; answer shorter. " if finish_reason == "length" else ""
    return (f"{cut}Your reply could not be used: {err.detail}. Reply with the JSON object "
            '{"aligned": true or false, "issues": [{"constraint": ..., "problem": ..., "fix": ...}]} only.')


def fixes_note(att: "Attempt") -> str:
    """A line naming the fix-its applied to ``att`` before this repair (empty when none): the model
    the LLM sees already includes them, so it should not be surprised by, or undo, them."""
    if not att.fixes_applied:
        return ""
    return ("Fix-its already applied by the compiler (the model above includes them): "
            + "; ".join(att.fixes_applied) + "\n\n")


#: Characters of variable values shown to the judge (enough for small models, bounded for large ones).
JUDGE_VALUES_CHARS = 1500


def _outcome_for_judge(outcome: compiler.SolveOutcome) -> str:
    """Status, objective and (truncated) non-zero variable values, for the judge to sanity-check."""
    text = outcome.describe()
    variables = (outcome.solution or {}).get("variables") or {}
    if variables:
        values = json.dumps(variables, separators=(",", ":"), ensure_ascii=False)
        if len(values) > JUDGE_VALUES_CHARS:
            values = values[: JUDGE_VALUES_CHARS - 1] + "…"
        text += "; variable values: " + values
    return text


def _solver_hint(status: str) -> str:
    return {
        "infeasible": "Some constraints contradict each other: check each bound, the direction of each "
                      "inequality and the data against the problem text.",
        "unbounded": "The objective can grow without limit: a constraint or a variable bound from the problem "
                     "text is missing, or the objective's direction is wrong.",
        "infeasible_or_unbounded": "Check for contradictory constraints and for missing bounds.",
        "time_limit": "The solver hit its time limit: simplify the model (tighter bounds, fewer integer variables).",
        "compile_error": "The model failed when its data was bound: check the data against the declarations.",
        "script_error": "An `execute` block placed after the model failed: fix it (see the error), or remove it.",
    }.get(status, "Check the model against the problem text.")


def run_loop(problem: str, llm: ChatClient, options: LoopOptions | None = None, retriever=None,
             progress: Progress | None = None) -> LoopResult:
    """Run the loop on ``problem`` (plain text) with the client ``llm``.

    ``retriever``: an object with ``search(query, k) -> [(Exemplar, score)]`` or
    ``None``; ``progress``: called with ``{"iteration", "max_iterations", "step",
    "detail"}`` events. Returns a :class:`LoopResult`. Raises only
    :class:`~syntagm.errors.ReplayError` (a replay that diverges) and
    :class:`~syntagm.assess.compiler.CompilerUnavailable`.
    """
    return _Run(problem, llm, options or LoopOptions(), retriever, progress).run()
