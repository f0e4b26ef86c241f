"""The report as Markdown and CSV tables: one row per dataset × strategy × model (and run id).

Columns: run id, dataset, strategy, model, problems, recorded, scorable, correct, accuracy
(a fraction), its 95 % interval (low, high; Wilson, or a bootstrap over problems with several
samples), pass@k where samples were taken, compile rate, aligned rate, iterations per record,
prompt/completion/cached tokens, dollars (total, per problem with all its samples, and per
record), LLM seconds per record. The Markdown file adds the paired comparisons.
"""
from __future__ import annotations

from typing import Any

COLUMNS = ("run_id", "dataset", "strategy", "model", "problems", "recorded", "scorable", "correct", "accuracy",
           "ci95_low", "ci95_high", "pass_at_k", "compile_rate", "aligned_rate", "iterations_per_record",
           "prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd", "cost_usd_per_problem",
           "cost_usd_per_record", "llm_s_per_record")


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for g in report["groups"]:
        ci = g.get("accuracy_ci95") or [None, None]
        pp = g["per_problem"]
        pk = g.get("pass_at_k") or {}
        out.append({"run_id": g.get("run_id"), "dataset": g["dataset"], "strategy": g["strategy"],
                    "model": g.get("model"), "problems": g["problems"], "recorded": g["recorded"],
                    "scorable": g["scorable"], "correct": g["correct"], "accuracy": g["accuracy"],
                    "ci95_low": ci[0], "ci95_high": ci[1],
                    "pass_at_k": " ".join(f"{k}:{v}" for k, v in pk.items()) if len(pk) > 1 else "",
                    "compile_rate": g["compile_rate"], "aligned_rate": g["aligned_rate"],
                    "iterations_per_record": pp["iterations"], "prompt_tokens": g["prompt_tokens"],
                    "completion_tokens": g["completion_tokens"], "cached_tokens": g["cached_tokens"],
                    "cost_usd": g["cost_usd"], "cost_usd_per_problem": pp["cost_usd"],
                    "cost_usd_per_record": (g.get("per_sample") or {}).get("cost_usd"),
                    "llm_s_per_record": pp["latency_s"]})
    return out


def csv_table(report: dict[str, Any]) -> str:
    """The rows as CSV (empty cells for missing values). A text cell a spreadsheet would read as a
    formula (a run id or model name starting with ``=``, ``+``, ``-``, ``@``, tab, CR) gets a leading
    single quote, as ``pyopl solve --csv`` does (:func:`pyopl.results.dataframes.spreadsheet_text`)."""
    from pyopl.results.dataframes import csv_text, spreadsheet_text

    return csv_text([list(COLUMNS)] + [["" if r[k] is None else spreadsheet_text(r[k]) for k in COLUMNS]
                                       for r in rows(report)])


def _cell(v: Any) -> str:
    if v is None:
        return "—"
    return f"{v:.4g}" if isinstance(v, float) else str(v).replace("|", "\\|")


def markdown_table(report: dict[str, Any]) -> str:
    """The rows, then the paired comparisons, as Markdown."""
    lines = [f"# syntagm bench report", "", f"Scoring: `{report['scoring']}`, tolerance {report['tolerance']:g}"
             + (f", abs_tol {report['abs_tol']:g}" if report.get("abs_tol") else "") + ".", ""]
    cols = [c for c in COLUMNS if c != "pass_at_k" or any(r["pass_at_k"] for r in rows(report))]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "---|" * len(cols))
    for r in rows(report):
        lines.append("| " + " | ".join(_cell(r[c]) for c in cols) + " |")
    comps = report.get("comparisons") or []
    if comps:
        lines += ["", "## Paired comparisons (exact McNemar test, first sample)", "",
                  "| run_id | model | dataset | A | B | problems | acc A | acc B | A − B | only A right | only B right | p | verdict |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for c in comps:
            verdict = "different at 5 %" if c["distinguishable"] else "not distinguishable at 5 %"
            lines.append("| " + " | ".join(_cell(c[k]) for k in ("run_id", "model", "dataset", "a", "b", "problems",
                                                                  "accuracy_a", "accuracy_b", "difference",
                                                                  "only_a_right", "only_b_right", "mcnemar_p"))
                         + f" | {verdict} |")
    return "\n".join(lines) + "\n"
