"""Writing a run's results: every file is written to a temporary name and renamed
(:func:`syntagm.safeio.write_atomic`), so an existing result is replaced whole or not at
all, and a symlink or device in the output folder is refused, never replaced.

Files in the output folder:

- ``model.mod``, ``data.dat`` – the final model and data;
- ``solution.json`` – run status, solver status, objective, variables, judge verdict;
- ``telemetry.json`` – per-call and per-iteration LLM telemetry with totals
  (reproduced exactly by a replay);
- ``attempts.json`` – every attempt: source prompt, texts, fix-its, diagnostics,
  solver outcome, verdict;
- ``stages.json`` – only for ``staged`` (each try of each stage, its output and its verifier's
  verdict) and ``chain_of_experts`` (each choice of its conductor, with the reason);
- ``timings.json`` – local wall-clock seconds (compile, solve, whole run),
  the only file a replay does not reproduce;
- ``transcript.jsonl`` – the LLM exchanges (see :mod:`syntagm.llm.transcript`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .loop import LoopResult
from .prices import PriceTable
from .safeio import json_text, plain_text, write_atomic

__all__ = ["write_atomic", "write_results", "solution_doc", "telemetry_doc", "timings_doc"]


def _json(obj: Any) -> str:
    return json_text(obj)


def failure_reason(result: LoopResult) -> str | None:
    """Why a run has no solved model, in one line, from its last attempt: the contract error, the
    first compile error (``file:line:column: CODE message``) or the solver's status and message;
    None when the run has a solution or made no attempt."""
    if (result.solution or {}).get("status") or not result.attempts:
        return None
    last = result.attempts[-1]
    if last.contract_error:  # (the ContractError's own text starts "the reply broke the output contract: ")
        detail = last.contract_error.removeprefix("the reply broke the output contract: ")
        return f"the last reply broke the output contract: {detail}"
    errors = [d for d in last.diagnostics if d.get("severity") == "error"]
    if errors:
        d = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return (f"the last model does not compile: {d.get('file')}:{d.get('line')}:{d.get('column')}: "
                f"{d.get('code', '')} {d.get('message', '')}".rstrip() + more)
    if last.outcome:
        msg = last.outcome.get("message")
        return f"the last model did not solve: {last.outcome.get('status')}" + (f": {msg}" if msg else "")
    return None


def solution_doc(result: LoopResult, strategy: str) -> dict[str, Any]:
    """The content of ``solution.json``; ``failure`` is :func:`failure_reason` (None when solved)."""
    sol = result.solution or {}
    return {"status": result.status, "strategy": strategy, "iterations": result.iterations,
            "solver_status": sol.get("status"), "objective": sol.get("objective"),
            "verdict": result.verdict, "error": result.error, "failure": failure_reason(result), "solution": sol}


def telemetry_doc(result: LoopResult, model: str, strategy: str, prices: PriceTable) -> dict[str, Any]:
    """The content of ``telemetry.json``: model, price table note, totals, per-iteration sums, calls."""
    totals = result.telemetry.totals()
    totals["iterations"] = result.iterations
    return {"model": model, "strategy": strategy,
            "price_table": {"date": prices.date, "source": prices.source,
                            "priced": prices.lookup(model) is not None},
            "grammar_reference": result.grammar_reference, "retrieved_exemplars": result.retrieved,
            "totals": totals, "iterations": result.telemetry.by_iteration(),
            "calls": [c.to_dict() for c in result.telemetry.calls]}


def timings_doc(result: LoopResult, wall_s: float) -> dict[str, Any]:
    """The content of ``timings.json`` (seconds)."""
    return {"wall_s": round(wall_s, 6),
            "compile_s": round(sum(a.compile_s for a in result.attempts), 6),
            "solve_s": round(sum(a.solve_s for a in result.attempts), 6),
            "attempts": [{"iteration": a.iteration, "compile_s": round(a.compile_s, 6),
                          "solve_s": round(a.solve_s, 6)} for a in result.attempts]}


def write_results(out: Path, result: LoopResult, *, model: str, strategy: str, prices: PriceTable,
                  wall_s: float) -> list[Path]:
    """Write every result file into ``out``; returns the paths written."""
    files = {
        "model.mod": plain_text(result.model),
        "data.dat": plain_text(result.data),
        "solution.json": _json(solution_doc(result, strategy)),
        "telemetry.json": _json(telemetry_doc(result, model, strategy, prices)),
        "attempts.json": _json([a.to_dict() for a in result.attempts]),
        "timings.json": _json(timings_doc(result, wall_s)),
    }
    if result.stages:
        files["stages.json"] = _json(result.stages)
    written = []
    for name, text in files.items():
        write_atomic(out / name, text)
        written.append(out / name)
    return written
