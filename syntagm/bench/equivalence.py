"""Scoring beyond the objective: is the generated model equivalent to a reference model?

Where a dataset entry carries a reference model (``reference_model``, OPL text, with
``reference_data`` when it has data), :func:`compare_models` solves both (in the compile
worker, :mod:`syntagm.sandbox`) and applies this test, and only this one:

1. both solve to ``optimal``;
2. **same optimal objective**: ``|obj_gen − obj_ref| <= tol · max(1, |obj_ref|)``;
3. **same optimal solution value set up to a renaming of variables**: the multisets of the
   two optima's variable values (every scalar decision variable and every element of every
   decision array, each rounded to ``tol`` relative to the largest magnitude in either
   solution) are equal. Renaming or re-indexing variables, reordering constraints and
   rewriting constraints equivalently leave this multiset unchanged.

``equivalent`` is true when 1–3 hold, false when one fails, and ``None`` when the reference
itself does not solve (then nothing can be said). Limits, stated plainly: this is evidence,
not a proof. A model with several optimal solutions may return a different optimum than an
equivalent reference (a false "not equivalent"); two different models can share an
optimum (a false "equivalent"); a formulation with other variables (aggregated flows, extra
auxiliary variables, a variable scaled by a unit conversion) has a different value multiset
though it may be equivalent. Zeros count like any value, so an extra unused variable makes
the multisets differ.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from .. import compiler


def _leaves(values: Any) -> list[float]:
    if isinstance(values, dict):
        return [x for v in values.values() for x in _leaves(v)]
    if isinstance(values, (list, tuple)):
        return [x for v in values for x in _leaves(v)]
    if isinstance(values, bool) or values is None:
        return []
    try:
        return [float(values)]
    except (TypeError, ValueError):
        return []


def value_multiset(solution: dict[str, Any], scale: float, tol: float) -> Counter:
    """The optimum's variable values, each rounded to a grid of ``tol · scale``, as a multiset."""
    step = tol * max(1.0, scale)
    return Counter(round(v / step) for v in _leaves(solution.get("variables") or {}))


def compare_models(model: str, data: str, ref_model: str, ref_data: str = "", tol: float = 1e-6,
                   time_limit_s: float = 30.0, limits: compiler.Limits | None = None) -> dict[str, Any]:
    """The test of the module docstring: ``{"equivalent", "objective_equal", "values_equal",
    "generated", "reference", "reason"}`` (the two solver statuses and objectives)."""
    gen = compiler.solve(model, data, time_limit_s, limits=limits)
    ref = compiler.solve(ref_model, ref_data, time_limit_s, limits=limits)
    out: dict[str, Any] = {"equivalent": None, "objective_equal": None, "values_equal": None,
                           "generated": {"status": gen.status, "objective": gen.objective},
                           "reference": {"status": ref.status, "objective": ref.objective}}
    if ref.status != "optimal" or ref.objective is None:
        out["reason"] = f"the reference model does not solve to optimality ({ref.describe()})"
        return out
    if gen.status != "optimal" or gen.objective is None:
        out.update(equivalent=False, reason=f"the generated model does not solve to optimality ({gen.describe()})")
        return out
    out["objective_equal"] = abs(gen.objective - ref.objective) <= tol * max(1.0, abs(ref.objective))
    leaves = _leaves((gen.solution or {}).get("variables")) + _leaves((ref.solution or {}).get("variables"))
    scale = max((abs(v) for v in leaves), default=1.0)
    out["values_equal"] = value_multiset(gen.solution, scale, tol) == value_multiset(ref.solution, scale, tol)
    out["equivalent"] = bool(out["objective_equal"] and out["values_equal"])
    out["reason"] = ("same optimal objective and the same optimal value multiset" if out["equivalent"] else
                     "different optimal objectives" if not out["objective_equal"] else
                     "same optimal objective, different optimal value multisets")
    return out
