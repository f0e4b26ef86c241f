"""Aggregates per dataset × strategy, as a text table, ``report.json`` and a plot.

Every figure is a sum or ratio over the per-problem records of
``results.jsonl`` for the problems selected in this run (so totals equal the
sum of the per-problem telemetry):

- ``accuracy`` = correct / scorable recorded problems (``null`` when none is scorable),
  where *correct* is :func:`~syntagm.bench.scoring.is_correct` at the stated tolerance;
- ``compile_rate`` = problems whose final model compiles / recorded problems;
- ``aligned_rate`` = problems the judge called aligned / recorded problems
  (``null`` when the strategy never ran a judge on any of them);
- tokens (prompt, completion, cached), ``cost_usd`` (``null`` if any record is unpriced),
  ``latency_s`` (LLM seconds), ``wall_s``, ``iterations``, ``llm_calls``: totals and means
  per recorded problem.
"""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any, Iterable

from .scoring import is_correct

SUMMED = ("iterations", "llm_calls", "prompt_tokens", "completion_tokens", "cached_tokens", "retries")


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 6) if den else None


def aggregate(records: list[dict[str, Any]], selected: int, tol: float) -> dict[str, Any]:
    """The figures for one group: ``records`` (one per recorded problem) out of ``selected``."""
    n = len(records)
    verdicts = [is_correct(r.get("objective"), r.get("answer"), tol) for r in records]
    scorable = [v for v in verdicts if v is not None]
    correct = sum(1 for v in scorable if v)
    judged = [r for r in records if r.get("aligned") is not None]
    costs = [r.get("cost_usd") for r in records]
    cost = round(sum(costs), 8) if all(c is not None for c in costs) else None
    latency = round(sum(float(r.get("latency_s") or 0) for r in records), 6)
    wall = round(sum(float(r.get("wall_s") or 0) for r in records), 6)
    sums = {k: sum(int(r.get(k) or 0) for r in records) for k in SUMMED}
    return {
        "problems": selected, "recorded": n, "pending": selected - n,
        "scorable": len(scorable), "unscorable": n - len(scorable), "correct": correct,
        "accuracy": _ratio(correct, len(scorable)),
        "compiled": sum(1 for r in records if r.get("compiled")),
        "compile_rate": _ratio(sum(1 for r in records if r.get("compiled")), n),
        "solved": sum(1 for r in records if r.get("objective") is not None),
        "aligned": sum(1 for r in judged if r.get("aligned")),
        "aligned_rate": _ratio(sum(1 for r in judged if r.get("aligned")), n) if judged else None,
        "errors": sum(1 for r in records if r.get("error")),
        **sums,
        "cost_usd": cost, "latency_s": latency, "wall_s": wall,
        "per_problem": {
            "cost_usd": round(cost / n, 8) if cost is not None and n else None,
            "latency_s": round(latency / n, 6) if n else None,
            "wall_s": round(wall / n, 6) if n else None,
            "iterations": round(sums["iterations"] / n, 4) if n else None,
            "prompt_tokens": round(sums["prompt_tokens"] / n, 1) if n else None,
            "completion_tokens": round(sums["completion_tokens"] / n, 1) if n else None,
            "median_latency_s": round(statistics.median(float(r.get("latency_s") or 0) for r in records), 6)
            if n else None,
        },
        "usage_estimated": any(r.get("usage_estimated") for r in records),
    }


def build_report(groups: Iterable[tuple[str, str, list[dict[str, Any]], int]], *, model: str, tol: float,
                 notes: list[str] | None = None, results_path: str = "") -> dict[str, Any]:
    """``report.json``'s content. ``groups``: ``(dataset, strategy, records, selected)`` in order."""
    rows = []
    every: list[dict[str, Any]] = []
    selected_total = 0
    for dataset, strategy, records, selected in groups:
        rows.append({"dataset": dataset, "strategy": strategy, **aggregate(records, selected, tol)})
        every += records
        selected_total += selected
    return {"model": model, "tolerance": tol,
            "scoring": "|objective - answer| <= tolerance * max(1, |answer|)",
            "results": results_path, "groups": rows,
            "totals": aggregate(every, selected_total, tol), "notes": notes or []}


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _money(v: float | None) -> str:
    """Dollars with 4 decimals, or 6 below a cent (a problem often costs less)."""
    if v is None:
        return "unpriced"
    return f"${v:.6f}" if abs(v) < 0.01 else f"${v:.4f}"


def text_table(report: dict[str, Any]) -> str:
    """The report as a plain-text table (one row per dataset × strategy, then the totals)."""
    head = ("dataset", "strategy", "done", "acc", "correct", "compile", "aligned", "iter/p",
            "prompt tok", "compl tok", "cached", "$ total", "$/problem", "LLM s/p")
    lines = []
    rows = []
    for g in report["groups"] + [{"dataset": "all", "strategy": "", **report["totals"]}]:
        pp = g["per_problem"]
        rows.append((g["dataset"], g["strategy"], f"{g['recorded']}/{g['problems']}", _pct(g["accuracy"]),
                     f"{g['correct']}/{g['scorable']}", _pct(g["compile_rate"]), _pct(g["aligned_rate"]),
                     "—" if pp["iterations"] is None else f"{pp['iterations']:.2f}",
                     f"{g['prompt_tokens']:,}", f"{g['completion_tokens']:,}", f"{g['cached_tokens']:,}",
                     _money(g["cost_usd"]), _money(pp["cost_usd"]) if g["recorded"] else "—",
                     "—" if pp["latency_s"] is None else f"{pp['latency_s']:.2f}"))
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]

    def fmt(r):
        return "  ".join(str(c).ljust(w) if i < 2 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))

    lines.append(f"model: {report['model']}   scoring: {report['scoring']}, tolerance {report['tolerance']:g}")
    lines.append(fmt(head))
    lines.append("  ".join("-" * w for w in widths))
    for i, r in enumerate(rows):
        if i == len(rows) - 1 and len(rows) > 2:
            lines.append("  ".join("-" * w for w in widths))
        if i == len(rows) - 1 and len(rows) == 2:
            break  # one group: the totals row would repeat it
        lines.append(fmt(r))
    unscorable = report["totals"]["unscorable"]
    if unscorable:
        lines.append(f"{unscorable} problem(s) have no numeric reference answer: reported as unscorable, "
                     "not counted in accuracy")
    if report["totals"]["usage_estimated"]:
        lines.append("some token counts are estimated (the endpoint sent no usage)")
    lines += report.get("notes") or []
    return "\n".join(lines)


PLOT_FILE = "accuracy_vs_cost.png"


def write_plot(report: dict[str, Any], out_dir: Path) -> Path | None:
    """Accuracy against dollars per problem, one point per dataset × strategy, as
    ``accuracy_vs_cost.png`` in ``out_dir``. Returns the path, or ``None`` when matplotlib is
    not installed or no group has both an accuracy and a priced cost."""
    points = [(g["per_problem"]["cost_usd"], g["accuracy"], f"{g['dataset']} / {g['strategy']}")
              for g in report["groups"] if g["accuracy"] is not None and g["per_problem"]["cost_usd"] is not None]
    if not points:
        return None
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    fig = Figure(figsize=(6.4, 4.4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for cost, acc, label in points:
        ax.scatter([cost], [100 * acc])
        ax.annotate(label, (cost, 100 * acc), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("dollars per problem")
    ax.set_ylabel(f"accuracy (%; rel. tol. {report['tolerance']:g})")
    ax.set_title(f"syntagm bench: {report['model']}")
    ax.set_ylim(-2, 102)
    ax.set_xlim(left=0)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    import io

    from ..safeio import write_atomic

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120)
    path = out_dir / PLOT_FILE
    write_atomic(path, buf.getvalue())
    return path
