"""Aggregates per dataset × strategy × model of one run, as a text table, ``report.json`` and a plot.

Every figure is a sum or ratio over the per-problem records of
``results.jsonl`` for the problems selected (so totals equal the sum of the
per-problem telemetry):

- ``accuracy`` = correct / scorable records (``null`` when none is scorable), where
  *correct* is :func:`~syntagm.bench.scoring.is_correct` at the stated tolerances, with
  ``accuracy_ci95``, its 95 % interval (:mod:`.stats`): Wilson's with one sample per problem;
  with several it is pass@1 (the mean over samples, see ``samples``) and the interval is a
  bootstrap over problems (samples of one problem are not independent), ``accuracy_ci_method``
  says which; ``correct_equivalence``: of the correct records whose model was checked against
  a reference model, how many were proved equivalent and how many rest only on
  ``equivalent_by_solutions``;
- ``compile_rate`` = records whose final model compiles / records;
- ``aligned_rate`` = records the judge called aligned / records
  (``null`` when the strategy never ran a judge on any of them);
- tokens (prompt, completion, cached), ``cost_usd`` (``null`` if any record is unpriced),
  ``latency_s`` (LLM seconds), ``wall_s``, ``iterations``, ``llm_calls``: totals and means
  per record (``per_problem``; its ``cost_usd`` is the total over the recorded *problems*, all
  their samples together, and ``per_sample.cost_usd`` the mean per record).

``pooled`` sums every group's counts and costs; it pools strategies, datasets and models, so
it carries no accuracy (that would compare nothing) and says what it pools. ``unscorable``
counts *problems* (dataset, id) without a numeric answer, not records.
"""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any, Iterable

from .scoring import describe as describe_scoring
from .scoring import is_correct
from .stats import cluster_interval, pass_at_k, wilson_interval

SUMMED = ("iterations", "llm_calls", "prompt_tokens", "completion_tokens", "cached_tokens", "retries", "cache_hits")


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 6) if den else None


def _interval(successes: int, n: int) -> list[float] | None:
    ci = wilson_interval(successes, n)
    return [round(ci[0], 6), round(ci[1], 6)] if ci else None


def aggregate(records: list[dict[str, Any]], selected: int, tol: float, abs_tol: float = 0.0,
              accuracy: bool = True) -> dict[str, Any]:
    """The figures for one group: ``records`` (one per recorded problem and sample) out of
    ``selected`` problems; ``accuracy=False`` leaves the accuracy figures out (pooled totals)."""
    n = len(records)
    verdicts = [is_correct(r.get("objective"), r.get("answer"), tol, abs_tol) for r in records]
    scorable = [v for v in verdicts if v is not None]
    correct = sum(1 for v in scorable if v)
    judged = [r for r in records if r.get("aligned") is not None]
    costs = [r.get("cost_usd") for r in records]
    cost = round(sum(costs), 8) if all(c is not None for c in costs) else None
    latency = round(sum(float(r.get("latency_s") or 0) for r in records), 6)
    wall = round(sum(float(r.get("wall_s") or 0) for r in records), 6)
    sums = {k: sum(int(r.get(k) or 0) for r in records) for k in SUMMED}
    problems = {(r.get("dataset"), r.get("id")) for r in records}
    unscorable = {(r.get("dataset"), r.get("id")) for r, v in zip(records, verdicts) if v is None}
    recorded = len(problems)
    out: dict[str, Any] = {"problems": selected, "recorded": recorded, "pending": max(0, selected - recorded),
                           "records": n, "scorable": len(scorable), "unscorable": len(unscorable)}
    if accuracy:
        samples = _samples(records, verdicts)
        per = _per_problem(records, verdicts)
        ci = _interval(correct, len(scorable)) if samples["samples"] <= 1 else cluster_interval(per)
        out.update({"correct": correct, "accuracy": _ratio(correct, len(scorable)), "accuracy_ci95": ci,
                    "accuracy_ci_method": "wilson" if samples["samples"] <= 1 else "cluster bootstrap by problem",
                    **samples, **_equivalence_of_correct(records, verdicts)})
    out.update({
        "compiled": sum(1 for r in records if r.get("compiled")),
        "compile_rate": _ratio(sum(1 for r in records if r.get("compiled")), n),
        "solved": sum(1 for r in records if r.get("objective") is not None),
        "aligned": sum(1 for r in judged if r.get("aligned")),
        "aligned_rate": _ratio(sum(1 for r in judged if r.get("aligned")), n) if judged else None,
        "errors": sum(1 for r in records if r.get("error")),
        "equivalence_checked": sum(1 for r in records if (r.get("equivalence") or {}).get("equivalent") is not None),
        "equivalent": sum(1 for r in records if (r.get("equivalence") or {}).get("equivalent") is True),
        "equivalent_by_solutions": sum(1 for r in records
                                       if (r.get("equivalence") or {}).get("verdict") == "equivalent_by_solutions"),
        **sums,
        "cost_usd": cost, "latency_s": latency, "wall_s": wall,
        "per_sample": {
            "cost_usd": round(cost / n, 8) if cost is not None and n else None,
        },
        "per_problem": {
            "cost_usd": round(cost / recorded, 8) if cost is not None and recorded else None,
            "latency_s": round(latency / n, 6) if n else None,
            "wall_s": round(wall / n, 6) if n else None,
            "iterations": round(sums["iterations"] / n, 4) if n else None,
            "prompt_tokens": round(sums["prompt_tokens"] / n, 1) if n else None,
            "completion_tokens": round(sums["completion_tokens"] / n, 1) if n else None,
            "median_latency_s": round(statistics.median(float(r.get("latency_s") or 0) for r in records), 6)
            if n else None,
        },
        "usage_estimated": any(r.get("usage_estimated") for r in records),
    })
    return out


def _per_problem(records: list[dict[str, Any]], verdicts: list[bool | None]) -> list[list[bool]]:
    """The scorable verdicts of each problem's samples, one list per problem."""
    per: dict[tuple[Any, Any], list[bool]] = {}
    for r, v in zip(records, verdicts):
        if v is not None:
            per.setdefault((r.get("dataset"), r.get("id")), []).append(bool(v))
    return list(per.values())


def _equivalence_of_correct(records: list[dict[str, Any]], verdicts: list[bool | None]) -> dict[str, Any]:
    """What the equivalence check says of the records scored correct (by objective): how many it
    proved equivalent, how many rest only on ``equivalent_by_solutions`` (evidence, never counted
    as a proof), and how many it found different or could not settle.  Empty when no correct
    record was checked."""
    counts: dict[str, int] = {}
    for r, v in zip(records, verdicts):
        verdict = (r.get("equivalence") or {}).get("verdict")
        if v and verdict:
            counts[verdict] = counts.get(verdict, 0) + 1
    if not counts:
        return {}
    return {"correct_equivalence": {"checked": sum(counts.values()), "proved_equivalent": counts.get("equivalent", 0),
                                    "by_solutions_only": counts.get("equivalent_by_solutions", 0),
                                    "different": counts.get("different", 0), "unknown": counts.get("unknown", 0)}}


def _samples(records: list[dict[str, Any]], verdicts: list[bool | None]) -> dict[str, Any]:
    """``samples`` (per problem, the smallest count), ``pass_at_1`` and ``pass_at_k`` (unbiased, for
    k = 1..samples, means over scorable problems) and ``agreement`` (the share of scorable problems
    whose samples all agree, right or wrong)."""
    per: dict[tuple[Any, Any], list[bool]] = {}
    for r, v in zip(records, verdicts):
        if v is not None:
            per.setdefault((r.get("dataset"), r.get("id")), []).append(bool(v))
    if not per:
        return {"samples": 0, "pass_at_k": {}, "agreement": None}
    k_max = min(len(v) for v in per.values())
    pass_k = {}
    for k in range(1, k_max + 1):
        vals = [pass_at_k(len(v), sum(v), k) for v in per.values()]
        pass_k[str(k)] = round(sum(vals) / len(vals), 6)
    agree = sum(1 for v in per.values() if all(v) or not any(v))
    return {"samples": k_max, "pass_at_k": pass_k, "agreement": _ratio(agree, len(per))}


def build_report(groups: Iterable[dict[str, Any]], *, tol: float, abs_tol: float = 0.0,
                 notes: list[str] | None = None, results_path: str = "", run_ids: list[str] | None = None,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``report.json``'s content. ``groups``: dicts ``{run_id, model, dataset, strategy, records,
    selected}`` in order (``records``: that group's result records, ``selected``: its problems)."""
    rows = []
    every: list[dict[str, Any]] = []
    selected_total = 0
    groups = list(groups)
    for g in groups:
        rows.append({"run_id": g.get("run_id"), "dataset": g["dataset"], "strategy": g["strategy"],
                     "model": g.get("model"), **aggregate(g["records"], g["selected"], tol, abs_tol)})
        every += g["records"]
        selected_total += g["selected"]
    from .analysis import analyse

    comparisons = analyse(groups, rows, tol, abs_tol)
    pooled_over = {k: sorted({str(g.get(k)) for g in groups}) for k in ("dataset", "strategy", "model")}
    pooled = aggregate(every, selected_total, tol, abs_tol, accuracy=False)
    # each group selects its own problems (two strategies on one dataset select it twice): the
    # pool's recorded and pending counts are the groups' sums, not distinct problem ids
    pooled["recorded"] = sum(r["recorded"] for r in rows)
    pooled["pending"] = sum(r["pending"] for r in rows)
    # the judge's rate over the records of the groups that ran a judge, not diluted by the others
    judged_rows = [r for r in rows if r["aligned_rate"] is not None]
    pooled["aligned_rate"] = _ratio(sum(r["aligned"] for r in judged_rows), sum(r["records"] for r in judged_rows)) \
        if judged_rows else None
    pooled["pooled_over"] = pooled_over
    models = pooled_over["model"]
    return {"run_ids": run_ids or sorted({str(g.get("run_id")) for g in groups}),
            "model": models[0] if len(models) == 1 else models, "tolerance": tol, "abs_tol": abs_tol,
            "scoring": describe_scoring(abs_tol), "results": results_path, "groups": rows,
            "totals": pooled, "comparisons": comparisons, "notes": notes or [], **(extra or {})}


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _money(v: float | None) -> str:
    """Dollars with 4 decimals, or 6 below a cent (a problem often costs less)."""
    if v is None:
        return "unpriced"
    return f"${v:.6f}" if abs(v) < 0.01 else f"${v:.4f}"


def _ci(g: dict[str, Any]) -> str:
    ci = g.get("accuracy_ci95")
    return "—" if not ci else f"[{100 * ci[0]:.0f}–{100 * ci[1]:.0f}]"


def _pass_k(g: dict[str, Any]) -> str:
    k = g.get("samples") or 0
    v = (g.get("pass_at_k") or {}).get(str(k))
    return "—" if k <= 1 or v is None else f"@{k} {_pct(v)}"


def text_table(report: dict[str, Any]) -> str:
    """The report as a plain-text table (one row per dataset × strategy × model, with a first
    ``run id`` column when the report holds several runs), then the pooled sums."""
    head = ("dataset", "strategy", "model", "done", "acc", "95% CI", "pass@k", "correct", "compile", "aligned",
            "iter/s", "prompt tok", "compl tok", "cached", "$ total", "$/problem", "LLM s/s")
    rows = []
    for g in report["groups"]:
        pp = g["per_problem"]
        rows.append((g["dataset"], g["strategy"], str(g.get("model")), f"{g['recorded']}/{g['problems']}",
                     _pct(g["accuracy"]), _ci(g), _pass_k(g), f"{g['correct']}/{g['scorable']}",
                     _pct(g["compile_rate"]),
                     _pct(g["aligned_rate"]), "—" if pp["iterations"] is None else f"{pp['iterations']:.2f}",
                     f"{g['prompt_tokens']:,}", f"{g['completion_tokens']:,}", f"{g['cached_tokens']:,}",
                     _money(g["cost_usd"]), _money(pp["cost_usd"]) if g["recorded"] else "—",
                     "—" if pp["latency_s"] is None else f"{pp['latency_s']:.2f}"))
    t = report["totals"]
    pooled = None
    if len(rows) > 1:
        pp = t["per_problem"]
        pooled = ("pooled", "(sums only)", "", f"{t['recorded']}/{t['problems']}", "—", "—", "—", "—",
                  _pct(t["compile_rate"]), _pct(t["aligned_rate"]),
                  "—" if pp["iterations"] is None else f"{pp['iterations']:.2f}", f"{t['prompt_tokens']:,}",
                  f"{t['completion_tokens']:,}", f"{t['cached_tokens']:,}", _money(t["cost_usd"]),
                  _money(pp["cost_usd"]) if t["recorded"] else "—",
                  "—" if pp["latency_s"] is None else f"{pp['latency_s']:.2f}")
    left = 3
    if len({g.get("run_id") for g in report["groups"]}) > 1:  # rows of several runs: say which run each is
        head = ("run id",) + head
        rows = [(str(g.get("run_id")),) + r for g, r in zip(report["groups"], rows)]
        pooled = ("",) + pooled if pooled else None
        left = 4
    widths = [max(len(str(r[i])) for r in rows + [head] + ([pooled] if pooled else [])) for i in range(len(head))]

    def fmt(r):
        return "  ".join(str(c).ljust(w) if i < left else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))

    runs = ", ".join(report.get("run_ids") or [])
    tols = f"tolerance {report['tolerance']:g}" + (f", abs_tol {report['abs_tol']:g}" if report.get("abs_tol") else "")
    lines = [f"run {runs}   scoring: {report['scoring']}, {tols}", fmt(head), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    if pooled:
        lines.append("  ".join("-" * w for w in widths))
        lines.append(fmt(pooled))
        over = t.get("pooled_over") or {}
        lines.append("pooled: sums over " + ", ".join(f"{len(v)} {k}(s)" for k, v in over.items())
                     + "; no accuracy is given for a pool of different methods")
    lines.append("acc: pass@1 (the mean over samples); 95% CI: Wilson with one sample per problem, else a bootstrap "
                 "over problems; pass@k: k = samples per problem; iter/s, LLM s/s: per sample; $/problem: all "
                 "samples of a problem together")
    for g in report["groups"]:
        ce = g.get("correct_equivalence")
        if ce:
            lines.append(f"{g['dataset']} / {g['strategy']} / {g.get('model')}: of {ce['checked']} correct answer(s) "
                         f"checked against a reference model, {ce['proved_equivalent']} proved equivalent, "
                         f"{ce['by_solutions_only']} rest only on equivalent_by_solutions (evidence, not proof), "
                         f"{ce['different']} different, {ce['unknown']} unknown")
    for c in report.get("comparisons") or []:
        lines.append(f"paired ({c['dataset']}, {c['problems']} problems): {c['a']} {100 * c['accuracy_a']:.1f}% vs "
                     f"{c['b']} {100 * c['accuracy_b']:.1f}%, only-first-right {c['only_a_right']}, only-second-right "
                     f"{c['only_b_right']}, exact McNemar p = {c['mcnemar_p']:.3g}"
                     + ("" if c["distinguishable"] else " (not distinguishable at 5%)"))
    if t["unscorable"]:
        lines.append(f"{t['unscorable']} problem(s) have no numeric reference answer: reported as unscorable, "
                     "not counted in accuracy")
    if t["usage_estimated"]:
        lines.append("some token counts are estimated (the endpoint sent no usage)")
    lines += report.get("notes") or []
    return "\n".join(lines)


PLOT_FILE = "accuracy_vs_cost.png"
CURVE_FILE = "accuracy_by_iteration.png"


def pareto_front(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points no other point beats on both axes (lower cost, higher accuracy), by cost.

    A point is dominated when another costs no more and is at least as accurate, and is
    strictly better on one of the two."""
    front = []
    for c, a in sorted(set(points), key=lambda p: (p[0], -p[1])):
        if not front or a > front[-1][1]:
            front.append((c, a))
    return front


def _figure():
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    fig = Figure(figsize=(7.5, 4.8))
    FigureCanvasAgg(fig)
    return fig


def _save(fig, path: Path) -> Path:
    import io

    from ..safeio import write_atomic

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120)
    write_atomic(path, buf.getvalue())
    return path


def _label(g: dict[str, Any], report: dict[str, Any]) -> str:
    parts = [g["strategy"], g["dataset"]]
    if isinstance(report.get("model"), list):
        parts.append(str(g.get("model")))
    return _literal(" / ".join(parts))


def _literal(text: str) -> str:
    """``text`` drawn as written: matplotlib reads a pair of ``$`` as mathtext (a model or dataset
    named ``a$\\frac{$b`` failed the plot with a parse error); each ``$`` escaped is drawn as ``$``."""
    return str(text).replace("$", "\\$")


def write_plot(report: dict[str, Any], out_dir: Path) -> Path | None:
    """Accuracy (with its 95 % interval) against dollars per problem, one labelled point per
    dataset × strategy × model in a legend, and the Pareto frontier drawn through the points no
    other beats on both; ``accuracy_vs_cost.png`` in ``out_dir``. Also writes the per-iteration
    plot (:func:`write_curve_plot`). Returns the path, or ``None`` when matplotlib is not
    installed or no group has both an accuracy and a priced cost."""
    write_curve_plot(report, out_dir)
    groups = [g for g in report["groups"] if g["accuracy"] is not None and g["per_problem"]["cost_usd"] is not None]
    fig = _figure() if groups else None
    if fig is None:
        return None
    ax = fig.add_subplot()
    markers = "osD^v<>ph*"
    for i, g in enumerate(groups):
        cost, acc = g["per_problem"]["cost_usd"], 100 * g["accuracy"]
        ci = g.get("accuracy_ci95")
        yerr = [[acc - 100 * ci[0]], [100 * ci[1] - acc]] if ci else None
        ax.errorbar([cost], [acc], yerr=yerr, fmt=markers[i % len(markers)], capsize=3, label=_label(g, report))
    front = pareto_front([(g["per_problem"]["cost_usd"], 100 * g["accuracy"]) for g in groups])
    if len(front) > 1:
        ax.step([c for c, _ in front], [a for _, a in front], where="post", color="grey", linestyle="--",
                linewidth=1, label="Pareto frontier")
    ax.set_xlabel("dollars per problem")
    ax.set_ylabel(f"accuracy, % (95% Wilson interval; rel. tol. {report['tolerance']:g})")
    model = report["model"] if not isinstance(report.get("model"), list) else ", ".join(report["model"])
    ax.set_title(_literal(f"syntagm bench: accuracy against cost ({model})"))
    ax.set_ylim(-2, 102)
    ax.set_xlim(left=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return _save(fig, out_dir / PLOT_FILE)


def curve_figure(report: dict[str, Any]):
    """Accuracy had the loop stopped after k iterations, one line per group (a group that never
    went past one iteration is one labelled point), and dollars per problem up to k on a second
    axis from zero; integer ticks on k (a matplotlib ``Figure``, drawn by
    :func:`write_curve_plot`).  ``None`` without matplotlib or without any traced group."""
    groups = [g for g in report["groups"] if g.get("curves")]
    fig = _figure() if groups else None
    if fig is None:
        return None
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    cost_ax = ax.twinx()
    k_max = 1
    for g in groups:
        ks = [c["iteration"] for c in g["curves"]]
        k_max = max(k_max, max(ks))
        line, = ax.plot(ks, [None if c["accuracy"] is None else 100 * c["accuracy"] for c in g["curves"]],
                        marker="o", label=_label(g, report) + (" (one iteration)" if len(ks) == 1 else ""))
        costs = [c["cost_usd_per_problem"] for c in g["curves"]]
        if all(c is not None for c in costs):
            cost_ax.plot(ks, costs, linestyle=":", marker=".", color=line.get_color())
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0.5, k_max + 0.5)
    cost_ax.set_ylim(bottom=0)
    ax.set_xlabel("iterations allowed (k)")
    ax.set_ylabel("accuracy had the loop stopped at k, %")
    cost_ax.set_ylabel("dollars per problem up to k (dotted)")
    ax.set_ylim(-2, 102)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    ax.set_title("syntagm bench: accuracy and cost by iteration")
    fig.tight_layout()
    return fig


def write_curve_plot(report: dict[str, Any], out_dir: Path) -> Path | None:
    """:func:`curve_figure` saved as ``accuracy_by_iteration.png`` in ``out_dir``; ``None`` when
    there is no figure."""
    fig = curve_figure(report)
    return None if fig is None else _save(fig, out_dir / CURVE_FILE)
