"""What a method comparison reads off the records: paired tests, failure taxonomy,
breakdowns by the dataset's own fields, and per-iteration curves.

All of it is computed from ``results.jsonl`` records (so ``syntagm report`` can redo it offline
at any tolerance):

- ``comparisons``: for each dataset, each pair of groups (two strategies, two models, or two
  runs) on the problems both could score (first sample): each one's accuracy, the paired difference, the discordant counts
  ``b`` (only the first right) and ``c`` (only the second right), the exact McNemar p-value
  and ``distinguishable`` (p < 0.05). "Not distinguishable" means these problems do not show
  a difference at the 5 % level, not that the methods are equal.
- ``taxonomy`` (per group): where each record ended — ``correct``; ``contract_error`` (no
  reply kept the JSON contract); ``compile_error``; ``solver_<status>`` (compiled, never
  solved: infeasible, unbounded, time_limit, error...); ``wrong_objective`` (solved, wrong, no
  judge); ``wrong_and_judged_misaligned``; ``aligned_but_wrong`` (the judge's false
  positives); ``right_but_judged_misaligned`` (its false negatives); ``unscorable``. With it,
  ``judge_calibration``: how often "aligned" is wrong, and "misaligned" right, against the reference;
  ``endpoint_error`` when the endpoint failed before any reply.
- ``breakdowns`` (per group): accuracy by each classification field the entries carry
  (``difficulty``, ``question_type``...), with 95 % Wilson intervals.
- ``curves`` (per group): for k = 1..max iterations, the accuracy had the loop stopped after
  iteration k (the objective it would have returned then, from each record's ``trace``),
  and the mean cumulative tokens and dollars per record up to k.
"""
from __future__ import annotations

from typing import Any

from .scoring import is_correct
from .stats import mcnemar_exact, wilson_interval

SIGNIFICANCE = 0.05


def _ci(k: int, n: int) -> list[float] | None:
    ci = wilson_interval(k, n)
    return [round(ci[0], 6), round(ci[1], 6)] if ci else None


def _verdict(rec: dict[str, Any], tol: float, abs_tol: float) -> bool | None:
    return is_correct(rec.get("objective"), rec.get("answer"), tol, abs_tol)


def failure_class(rec: dict[str, Any], tol: float, abs_tol: float = 0.0) -> str:
    """The taxonomy class of one record (see the module docstring)."""
    v = _verdict(rec, tol, abs_tol)
    aligned = rec.get("aligned")
    if rec.get("objective") is None:
        if rec.get("attempts") == 0:
            return "endpoint_error"  # the endpoint failed before any reply
        if rec.get("contract_only"):
            return "contract_error"
        if not rec.get("compiled"):
            return "compile_error"
        return f"solver_{rec.get('solver_status') or 'error'}"
    if v is None:
        return "unscorable"
    if v:
        return "right_but_judged_misaligned" if aligned is False else "correct"
    if aligned is True:
        return "aligned_but_wrong"
    if aligned is False:
        return "wrong_and_judged_misaligned"
    return "wrong_objective"


def taxonomy(records: list[dict[str, Any]], tol: float, abs_tol: float) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for r in records:
        c = failure_class(r, tol, abs_tol)
        counts[c] = counts.get(c, 0) + 1
    said_aligned = counts.get("aligned_but_wrong", 0) + sum(
        1 for r in records if r.get("aligned") is True and _verdict(r, tol, abs_tol) is True)
    said_misaligned = counts.get("right_but_judged_misaligned", 0) + counts.get("wrong_and_judged_misaligned", 0)
    calib = None
    if said_aligned or said_misaligned:
        calib = {"judged_aligned": said_aligned,
                 "aligned_but_wrong_rate": round(counts.get("aligned_but_wrong", 0) / said_aligned, 6)
                 if said_aligned else None,
                 "judged_misaligned": said_misaligned,
                 "misaligned_but_right_rate": round(counts.get("right_but_judged_misaligned", 0) / said_misaligned, 6)
                 if said_misaligned else None}
    return {"counts": dict(sorted(counts.items())), "judge_calibration": calib}


def breakdowns(records: list[dict[str, Any]], tol: float, abs_tol: float) -> dict[str, Any]:
    out: dict[str, dict[str, Any]] = {}
    for r in records:
        for field, value in (r.get("fields") or {}).items():
            cell = out.setdefault(field, {}).setdefault(str(value), {"records": 0, "scorable": 0, "correct": 0})
            cell["records"] += 1
            v = _verdict(r, tol, abs_tol)
            if v is not None:
                cell["scorable"] += 1
                cell["correct"] += int(v)
    for cells in out.values():
        for cell in cells.values():
            n = cell["scorable"]
            cell["accuracy"] = round(cell["correct"] / n, 6) if n else None
            cell["accuracy_ci95"] = _ci(cell["correct"], n)
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def curves(records: list[dict[str, Any]], tol: float, abs_tol: float) -> list[dict[str, Any]]:
    traced = [r for r in records if r.get("trace")]
    if not traced:
        return []
    k_max = max(t["iteration"] for r in traced for t in r["trace"])
    rows = []
    for k in range(1, k_max + 1):
        correct = scorable = 0
        prompt = completion = 0
        cost: float | None = 0.0
        for r in traced:
            upto = [t for t in r["trace"] if t["iteration"] <= k]
            last = upto[-1] if upto else {"objective": None, "prompt_tokens": 0, "completion_tokens": 0,
                                          "cost_usd": 0.0}
            v = is_correct(last.get("objective"), r.get("answer"), tol, abs_tol)
            if v is not None:
                scorable += 1
                correct += int(v)
            prompt += int(last.get("prompt_tokens") or 0)
            completion += int(last.get("completion_tokens") or 0)
            cost = None if cost is None or last.get("cost_usd") is None else cost + last["cost_usd"]
        n = len(traced)
        rows.append({"iteration": k, "accuracy": round(correct / scorable, 6) if scorable else None,
                     "accuracy_ci95": _ci(correct, scorable), "correct": correct, "scorable": scorable,
                     "prompt_tokens_per_problem": round(prompt / n, 1),
                     "completion_tokens_per_problem": round(completion / n, 1),
                     "cost_usd_per_problem": None if cost is None else round(cost / n, 8)})
    return rows


def _label(g: dict[str, Any], vary: set[str]) -> str:
    """A group's name in a comparison: its strategy, with the model and run where those vary."""
    parts = [str(g["strategy"])]
    if "model" in vary:
        parts.append(str(g.get("model")))
    if "run_id" in vary:
        parts.append(str(g.get("run_id")))
    return " / ".join(parts)


def comparisons(groups: list[dict[str, Any]], tol: float, abs_tol: float) -> list[dict[str, Any]]:
    """Paired comparisons (see the module docstring) of every two groups on the same dataset:
    two strategies, two models, or two runs, on the problems both could score (first sample), in
    group order."""
    by_dataset: dict[Any, list[dict[str, Any]]] = {}
    for g in groups:
        by_dataset.setdefault(g["dataset"], []).append(g)
    out = []
    for dataset, gs in by_dataset.items():
        vary = {k for k in ("model", "run_id") if len({str(g.get(k)) for g in gs}) > 1}
        verdicts = []
        for g in gs:
            v = {}
            for r in g["records"]:
                if int(r.get("sample") or 0) == 0:
                    x = _verdict(r, tol, abs_tol)
                    if x is not None:
                        v[str(r.get("id"))] = x
            verdicts.append((g, v))
        for i in range(len(verdicts)):
            for j in range(i + 1, len(verdicts)):
                (ga, va), (gb, vb) = verdicts[i], verdicts[j]
                common = sorted(set(va) & set(vb))
                if not common:
                    continue
                b = sum(1 for p in common if va[p] and not vb[p])
                c = sum(1 for p in common if vb[p] and not va[p])
                n = len(common)
                acc_a = sum(va[p] for p in common) / n
                acc_b = sum(vb[p] for p in common) / n
                p = mcnemar_exact(b, c)
                same_model = str(ga.get("model")) == str(gb.get("model"))
                out.append({"run_id": ga.get("run_id") if ga.get("run_id") == gb.get("run_id") else None,
                            "model": ga.get("model") if same_model else None, "dataset": dataset,
                            "a": _label(ga, vary), "b": _label(gb, vary),
                            "model_a": ga.get("model"), "model_b": gb.get("model"),
                            "strategy_a": ga["strategy"], "strategy_b": gb["strategy"], "problems": n,
                            "accuracy_a": round(acc_a, 6), "accuracy_b": round(acc_b, 6),
                            "difference": round(acc_a - acc_b, 6), "only_a_right": b, "only_b_right": c,
                            "mcnemar_p": round(p, 6), "distinguishable": p < SIGNIFICANCE})
    return out


def analyse(groups: list[dict[str, Any]], rows: list[dict[str, Any]], tol: float, abs_tol: float) -> list[dict[str, Any]]:
    """Add ``taxonomy``, ``breakdowns`` and ``curves`` to each report row (``rows[i]`` is
    ``groups[i]``'s) and return the comparisons."""
    for g, row in zip(groups, rows):
        row["taxonomy"] = taxonomy(g["records"], tol, abs_tol)
        row["breakdowns"] = breakdowns(g["records"], tol, abs_tol)
        row["curves"] = curves(g["records"], tol, abs_tol)
    return comparisons(groups, tol, abs_tol)
