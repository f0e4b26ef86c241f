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

from .errors import SyntagmError

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
class CheckReport:
    """What the compiler said: ``diagnostics`` (pyopl ``Diagnostic`` objects) and ``crash``
    (a message when pyopl itself failed, which is reported as one error)."""

    diagnostics: list[Any] = field(default_factory=list)
    crash: str | None = None
    compiled: Any = None  # the pyopl model when it compiled, reused by :func:`solve`

    @property
    def errors(self) -> list[Any]:
        return [d for d in self.diagnostics if getattr(d, "severity", "error") == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors and self.crash is None


def _data_arg(data: str) -> str | None:
    return data if data and data.strip() else None


def check(model: str, data: str) -> CheckReport:
    """Every diagnostic for ``model`` and ``data`` texts (``pyopl.check``, then ``compile_model``
    for errors only found when binding data)."""
    pyopl = _pyopl()
    try:
        diags = list(pyopl.check(model, _data_arg(data)))
    except Exception as e:  # a compiler bug must not end the run
        return CheckReport([], f"pyopl.check failed: {type(e).__name__}: {e}")
    if any(d.severity == "error" for d in diags):
        return CheckReport(diags)
    try:
        compiled = pyopl.compile_model(model, data=_data_arg(data))
    except pyopl.CompileError as e:
        seen = {(d.code, d.span, d.message) for d in diags}
        diags += [d for d in e.diagnostics if (d.code, d.span, d.message) not in seen]
        return CheckReport(diags)
    except Exception as e:
        return CheckReport(diags, f"pyopl.compile_model failed: {type(e).__name__}: {e}")
    return CheckReport(diags, compiled=compiled)


def _line(text: str, n: int) -> str:
    lines = text.splitlines()
    return lines[n - 1] if 1 <= n <= len(lines) else ""


def diagnostics_payload(report: CheckReport, model: str, data: str) -> list[dict[str, Any]]:
    """The diagnostics as compact JSON-ready dicts for the repair prompt:
    ``{code, severity, file ("model"/"data"), line, column, end_line, end_column,
    message, source, labels, notes, help, fix}``."""
    out: list[dict[str, Any]] = []
    for d in report.diagnostics:
        role = file_role(d.span.file)
        item: dict[str, Any] = {"code": d.code, "severity": d.severity, "file": role, "line": d.span.line,
                                "column": d.span.column, "end_line": d.span.end_line,
                                "end_column": d.span.end_column, "message": d.message,
                                "source": _line(model if role == "model" else data, d.span.line).strip()}
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
    if report.crash:
        out.append({"code": "COMPILER", "severity": "error", "file": "model", "line": 1, "column": 1,
                    "message": report.crash + " (an internal compiler failure; rewriting the construct may avoid it)"})
    return out


def apply_fixes(text: str, diagnostics: list[Any]) -> tuple[str, int]:
    """Apply the machine-applicable fix-its of ``diagnostics`` to ``text`` (all for one file)
    with :func:`pyopl.fixes.apply_fixes`. Returns ``(new text, number of fixes applied)``."""
    from pyopl.fixes import apply_fixes as pyopl_apply_fixes

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
          compiled: Any = None) -> SolveOutcome:
    """Compile (unless ``compiled`` is given) and solve; never raises for model problems
    (they come back as a status). ``time_limit_s``: solver seconds."""
    pyopl = _pyopl()
    start = time.monotonic()
    try:
        if compiled is None:
            compiled = pyopl.compile_model(model, data=_data_arg(data))
        result = compiled.solve(solver=solver, time_limit=time_limit_s)
        if result.status == "interrupted":  # Ctrl-C stopped the solve: stop the run, not just this solve
            raise KeyboardInterrupt
    except pyopl.CompileError as e:
        return SolveOutcome("compile_error", message="; ".join(str(d) for d in e.errors[:5]),
                            solve_s=time.monotonic() - start)
    except Exception as e:  # a compiler or solver bug must not end the run
        return SolveOutcome("error", message=f"{type(e).__name__}: {e}", solve_s=time.monotonic() - start)
    elapsed = time.monotonic() - start
    try:
        sol = result.to_dict()
    except Exception:  # pragma: no cover - defensive
        sol = {"status": result.status, "objective": result.objective}
    sol.pop("solve_time_s", None)  # timings live in timings.json, so replays compare equal
    notes = []
    extra = sol.get("extra") if isinstance(sol.get("extra"), dict) else sol
    for k in _EXPLAIN_KEYS:
        v = extra.get(k) if isinstance(extra, dict) else None
        if v:
            notes.append(f"{k}: {v if isinstance(v, str) else _short(v)}")
    if getattr(result, "message", ""):
        notes.insert(0, str(result.message))
    for d in getattr(result, "diagnostics", []) or []:
        notes.append(str(d))
    return SolveOutcome(result.status, result.objective, sol, elapsed, "; ".join(notes))


def _short(v: Any, n: int = 600) -> str:
    import json
    s = json.dumps(v, default=str)
    return s if len(s) <= n else s[: n - 1] + "…"
