"""The thin adapter between the loop and :mod:`pyopl`: check, fix-its, compile, solve.

``pyopl`` is imported lazily, so the rest of syntagm (client, telemetry,
replay, CLI help) works where the compiler is missing or broken. Every
function here turns compiler failures into data (diagnostic dicts, a
status), never exceptions, except :class:`CompilerUnavailable`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from . import sandbox
from ..errors import SyntagmError

MACHINE_APPLICABLE = "machine-applicable"
#: Statuses that count as a usable solution.
SOLVED = ("optimal", "feasible")


class CompilerUnavailable(SyntagmError):
    """``pyopl`` cannot be imported."""


def _pyopl():
    try:
        import pyopl
        pyopl.compile_model  # noqa: B018 - fail early if the API is incomplete
    except (ImportError, AttributeError) as e:
        raise CompilerUnavailable(f"the pyopl compiler cannot be imported ({e}); syntagm needs it to check models") from None
    return pyopl


def file_role(file: str) -> str:
    """``"data"`` for a diagnostic in the .dat text, else ``"model"`` (by the file name pyopl used)."""
    f = (file or "").lower()
    return "data" if (f.endswith(".dat") or "data" in f or f.endswith("dat>")) else "model"


@dataclass
class Limits:
    """How long and how much memory compiling one candidate may take (see :mod:`syntagm.assess.sandbox`).

    ``timeout_s``: wall-clock seconds for a compile (a solve gets this plus its own solver
    time limit); ``memory_mb``: the worker's address-space limit in MiB (``None``: none).
    """

    timeout_s: float = sandbox.DEFAULT_TIMEOUT_S
    memory_mb: int | None = sandbox.DEFAULT_MEMORY_MB


@dataclass
class CheckReport:
    """What the compiler said: ``diagnostics`` (pyopl ``Diagnostic`` objects), ``crash``
    (a message when pyopl itself failed, which is reported as one error) and ``refusals``
    (syntagm's own errors, as JSON-ready payload dicts: an ``include``, a compile that ran
    past its time or memory limit)."""

    diagnostics: list[Any] = field(default_factory=list)
    crash: str | None = None
    compiled: Any = None  # the pyopl model when it compiled in this process, reused by :func:`solve`
    refusals: list[dict[str, Any]] = field(default_factory=list)

    @property
    def errors(self) -> list[Any]:
        return [d for d in self.diagnostics if getattr(d, "severity", "error") == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors and self.crash is None and not self.refusals


def _data_arg(data: str) -> str | None:
    return sandbox.as_text(data) if data and data.strip() else None


#: syntagm's own diagnostic codes (the LLM sees them in the repair prompt; docs/syntagm.md lists them).
INCLUDE_CODE = "syntagm-include"
TIME_LIMIT_CODE = "syntagm-time-limit"
MEMORY_LIMIT_CODE = "syntagm-memory-limit"
MORE_WARNINGS_CODE = "syntagm-more-warnings"
#: warnings and notes sent back to the LLM at most (every error is; see :func:`diagnostics_payload`)
MAX_OTHER_DIAGNOSTICS = 20


def include_positions(text: str) -> list[tuple[int, int]]:
    """1-based ``(line, column)`` of every ``include`` keyword in OPL model or data text,
    outside comments (``//``, ``/* */``) and string literals."""
    found: list[tuple[int, int]] = []
    if "include" not in text:  # (the walk below takes seconds on a text of megabytes)
        return found
    i, n, line, col0 = 0, len(text), 1, 0
    while i < n:
        c = text[i]
        if c == "\n":
            line, col0 = line + 1, i + 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            k = text.rfind("\n", i, j)
            col0 = k + 1 if k >= 0 else col0
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1 if j < n and text[j] == '"' else j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if text[i:j] == "include":
                found.append((line, i - col0 + 1))
            i = j
        else:
            i += 1
    return found


def include_refusals(model: str, data: str) -> list[dict[str, Any]]:
    """A payload error per ``include`` in ``model`` or ``data``: syntagm compiles LLM text as
    text and never lets it name a file to read."""
    out = []
    for role, text in (("model", model), ("data", data or "")):
        for line, col in include_positions(text):
            out.append({"code": INCLUDE_CODE, "severity": "error", "file": role, "line": line, "column": col,
                        "end_line": line, "end_column": col + len("include"),
                        "message": f"`include` is not allowed: syntagm compiles the {role} as text and "
                                   "never reads other files",
                        "source": _line(text.splitlines(), line).strip(),
                        "help": f"write the included {'declarations' if role == 'model' else 'data'} "
                                f"into the {role} itself"})
    return out


def _limit_refusal(answer: dict[str, Any], limits: Limits) -> dict[str, Any]:
    memory = answer.get("reason") == "memory_limit"
    what = (f"more than {limits.memory_mb} MiB of memory" if memory
            else f"longer than {limits.timeout_s:g} s")
    return {"code": MEMORY_LIMIT_CODE if memory else TIME_LIMIT_CODE, "severity": "error", "file": "model",
            "line": 1, "column": 1, "message": f"compiling the model took {what} and was stopped",
            "help": "an index set or a sum is far larger than the problem needs: use the problem's own sizes, "
                    "and never iterate over the product of large ranges"}


def check(model: str, data: str, limits: Limits | None = None) -> CheckReport:
    """Every diagnostic for ``model`` and ``data`` texts (``pyopl.check``, then ``compile_model``
    for errors only found when binding data), computed in a worker process under ``limits``.

    The texts are always compiled as text (never opened as paths); an ``include`` in either is
    refused before anything is compiled.
    """
    refusals = include_refusals(model, data)
    if refusals:
        return CheckReport(refusals=refusals)
    limits = limits or Limits()
    _pyopl()
    answer = sandbox.run({"op": "check", "model": model, "data": data}, limits.timeout_s, limits.memory_mb)
    if not answer.get("ok"):
        if answer.get("reason") in ("time_limit", "memory_limit"):
            return CheckReport(refusals=[_limit_refusal(answer, limits)])
        return CheckReport([], f"pyopl failed: {answer.get('message')}")
    result = answer["result"]
    diags = [sandbox.diagnostic_from_json(d) for d in result.get("diagnostics") or []]
    return CheckReport(diags, result.get("crash"))


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 1 <= n <= len(lines) else ""


def diagnostics_payload(report: CheckReport, model: str, data: str) -> list[dict[str, Any]]:
    """The diagnostics as compact JSON-ready dicts for the repair prompt:
    ``{code, severity, file ("model"/"data"), line, column, end_line, end_column,
    message, source, labels, notes, help, fix}``.

    Every error is kept (pyopl stops at its error limit); of the warnings and notes the first
    :data:`MAX_OTHER_DIAGNOSTICS` are, and one note (``syntagm-more-warnings``) counts the rest by
    code: a reply that repeats a warned construct 20,000 times made 40,000 warnings, megabytes of
    repair prompt."""
    out: list[dict[str, Any]] = []
    lines: dict[str, list[str]] = {}  # each text split once (a hundred diagnostics on a 2 MB text: 4 s)
    others = 0
    left_out: dict[str, int] = {}
    for d in report.diagnostics:
        if d.severity != "error":
            others += 1
            if others > MAX_OTHER_DIAGNOSTICS:
                left_out[d.code] = left_out.get(d.code, 0) + 1
                continue
        role = file_role(d.span.file)
        if role not in lines:
            lines[role] = (model if role == "model" else data).splitlines()
        item: dict[str, Any] = {"code": d.code, "severity": d.severity, "file": role, "line": d.span.line,
                                "column": d.span.column, "end_line": d.span.end_line,
                                "end_column": d.span.end_column, "message": d.message,
                                "source": _line(lines[role], d.span.line).strip()}
        if d.labels:
            item["labels"] = [{"line": l.span.line, "column": l.span.column, "message": l.message} for l in d.labels]
        if d.notes:
            item["notes"] = list(d.notes)
        if d.help:
            item["help"] = d.help
        if d.fix is not None:
            item["fix"] = {"message": d.fix.message, "applicability": d.fix.applicability,
                           "replacements": [e.replacement for e in d.fix.edits]}
        out.append(item)
    if left_out:
        n = sum(left_out.values())
        out.append({"code": MORE_WARNINGS_CODE, "severity": "note", "file": "model", "line": 1, "column": 1,
                    "message": "%d more warning%s not shown (%s)" % (
                        n, "" if n == 1 else "s", ", ".join("%s x%d" % kv for kv in sorted(left_out.items()))),
                    "help": "the warnings shown are of the same kinds: fixing their cause fixes the rest"})
    out += report.refusals
    if report.crash:
        out.append({"code": "COMPILER", "severity": "error", "file": "model", "line": 1, "column": 1,
                    "message": report.crash + " (an internal compiler failure; rewriting the construct may avoid it)"})
    return out


def apply_fixes(text: str, diagnostics: list[Any]) -> tuple[str, int]:
    """Apply the machine-applicable fix-its of ``diagnostics`` to ``text`` (all for one file)
    with :func:`pyopl.fixes.edit.apply_fixes`. Returns ``(new text, number of fixes applied)``."""
    from pyopl.fixes.edit import apply_fixes as pyopl_apply_fixes

    return pyopl_apply_fixes(text, diagnostics)


def apply_machine_fixes(model: str, data: str, report: CheckReport) -> tuple[str, str, list[str]]:
    """``(model, data, descriptions of fixes applied)`` after applying every machine-applicable
    fix-it of the report's errors and warnings to the file it belongs to."""
    by_role: dict[str, list[Any]] = {"model": [], "data": []}
    for d in report.diagnostics:
        if d.fix is not None and d.fix.applicability == MACHINE_APPLICABLE:
            by_role[file_role(d.span.file)].append(d)
    applied: list[str] = []
    new = {"model": model, "data": data}
    for role, diags in by_role.items():
        if not diags:
            continue
        text, n = apply_fixes(new[role], diags)
        if n and text != new[role]:
            new[role] = text
            applied += [f"{d.code} {role}:{d.span.line}:{d.span.column} {d.fix.message}" for d in diags]
    return new["model"], new["data"], applied


@dataclass
class SolveOutcome:
    """The solver's verdict: ``status`` (pyopl's vocabulary, or ``"compile_error"``/``"error"``),
    ``objective``, ``solution`` (JSON-ready, without timings), ``solve_s`` (seconds,
    wall clock of compile + solve), ``message`` (solver message or explanation)."""

    status: str
    objective: float | None = None
    solution: dict[str, Any] = field(default_factory=dict)
    solve_s: float = 0.0
    message: str = ""

    @property
    def solved(self) -> bool:
        return self.status in SOLVED

    def describe(self) -> str:
        """One line for prompts and progress: ``optimal, objective 12`` or ``infeasible: <explanation>``."""
        if self.solved:
            return f"{self.status}, objective {self.objective:g}" if self.objective is not None else self.status
        return self.status + (f": {self.message}" if self.message else "")


_EXPLAIN_KEYS = ("explanation", "infeasibility", "iis", "conflict")


def solve(model: str, data: str, time_limit_s: float = 30.0, solver: str = "highs",
          compiled: Any = None, limits: Limits | None = None) -> SolveOutcome:
    """Compile and solve in a worker process (``compiled`` is accepted for compatibility and
    ignored); never raises for model problems (they come back as a status). ``time_limit_s``:
    solver seconds; the worker may run ``limits.timeout_s`` more before it is stopped (status
    ``"error"``, saying so)."""
    limits = limits or Limits()
    _pyopl()
    start = time.monotonic()
    answer = sandbox.run({"op": "solve", "model": model, "data": data, "time_limit_s": time_limit_s,
                          "solver": solver}, limits.timeout_s + time_limit_s, limits.memory_mb)
    elapsed = time.monotonic() - start
    if not answer.get("ok"):
        if answer.get("reason") in ("time_limit", "memory_limit"):
            return SolveOutcome("error", message=_limit_refusal(answer, limits)["message"], solve_s=elapsed)
        return SolveOutcome("error", message=str(answer.get("message")), solve_s=elapsed)
    r = answer["result"]
    if r.get("status") == "interrupted":  # Ctrl-C stopped the solve: stop the run, not just this solve
        raise KeyboardInterrupt
    if r.get("status") == "compile_error":
        return SolveOutcome("compile_error", message=str(r.get("message") or ""), solve_s=elapsed)
    sol = dict(r.get("solution") or {})
    sol.pop("solve_time_s", None)  # timings live in timings.json, so replays compare equal
    for holder in (sol, sol.get("extra")):  # the solution check's time, and how many statements it sampled
        check = holder.get("solution_check") if isinstance(holder, dict) else None  # in that time, likewise
        if isinstance(check, dict):
            holder["solution_check"] = {k: v for k, v in check.items() if k not in ("seconds", "evaluated")}
        # HiGHS's re-solve without presolve (a MIP: pyopl/backends/mp/highs.py) records its time too;
        # it made a replay's solution.json and attempts.json differ from the run's
        recheck = holder.get("presolve_recheck") if isinstance(holder, dict) else None
        if isinstance(recheck, dict):
            holder["presolve_recheck"] = {k: v for k, v in recheck.items() if k != "time_s"}
    notes = [str(r["message"])] if r.get("message") else []
    extra = sol.get("extra") if isinstance(sol.get("extra"), dict) else sol
    for k in _EXPLAIN_KEYS:
        v = extra.get(k) if isinstance(extra, dict) else None
        if v:
            notes.append(_explanation(k, v, notes))
    said = " ".join(notes).replace("`", "")
    for d in r.get("diagnostics") or []:  # a diagnostic that repeats the explanation is left out
        text = str(d)
        head = text.split("\n")[0].split(": ", 2)[-1].replace("`", "")
        if head and head in said:
            continue
        notes.append(text)
        said += " " + text.replace("`", "")
    notes = [n for n in notes if n]
    return SolveOutcome(str(r.get("status")), r.get("objective"), sol, elapsed, "; ".join(notes))


def _explanation(key: str, v: Any, said: list[str]) -> str:
    """``key: detail`` of an infeasibility explanation, without the summary already said (the
    solver's message is the summary, so it is given once); '' when nothing new is left."""
    if isinstance(v, dict):
        summary = str(v.get("summary") or "")
        rest = {k: x for k, x in v.items() if not (k == "summary" and any(summary in t for t in said))}
        parts = []
        for c in rest.get("constraints") or []:
            if isinstance(c, dict) and c.get("expression"):
                parts.append(f"{c.get('name') or c.get('label')}: {c['expression']}")
        for b in rest.get("bounds") or []:
            parts.append(b.get("expression") or _short(b, 120) if isinstance(b, dict) else str(b))
        if parts:
            head = f"{rest['summary']}; " if rest.get("summary") else ""
            how = f" ({rest['method']})" if rest.get("method") else ""
            return f"{key}{how}: {head}" + "; ".join(parts)
        return f"{key}: {_short(rest)}" if set(rest) - {"method", "irreducible"} else ""
    text = str(v) if isinstance(v, str) else _short(v)
    return "" if any(text in t for t in said) else f"{key}: {text}"


def _short(v: Any, n: int = 600) -> str:
    import json
    s = json.dumps(v, default=str)
    return s if len(s) <= n else s[: n - 1] + "…"
