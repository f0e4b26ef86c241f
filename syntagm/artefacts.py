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


def solution_doc(result: LoopResult, strategy: str) -> dict[str, Any]:
    """The content of ``solution.json``."""
    sol = result.solution or {}
    return {"status": result.status, "strategy": strategy, "iterations": result.iterations,
            "solver_status": sol.get("status"), "objective": sol.get("objective"),
            "verdict": result.verdict, "error": result.error, "solution": sol}


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
