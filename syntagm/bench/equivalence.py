"""Scoring beyond the objective: is the generated model equivalent to a reference model?

Where a dataset entry carries a reference model (``reference_model``, OPL text, with
``reference_data`` when it has data), ``syntagm bench`` calls :func:`compare_models`, which
runs :func:`syntagm.equiv.compare.check_texts` in the compile worker (:mod:`syntagm.assess.sandbox`,
so a model that loops or eats memory is stopped) and returns its verdict: ``equivalent``
(proved by structure after normalisation, or by mutual implication of the constraints),
``equivalent_by_solutions`` (optima and value multisets agree: evidence only), ``different``
(with the evidence) or ``unknown``.  The generated model is model A, the reference model B.
"""
from __future__ import annotations

from typing import Any

from ..assess import compiler, sandbox

#: the verdict -> the record's ``equivalent`` field (True only where proved)
_AS_BOOL = {"equivalent": True, "different": False, "equivalent_by_solutions": None, "unknown": None}


def compare_models(model: str, data: str, ref_model: str, ref_data: str = "", tol: float = 1e-6,
                   time_limit_s: float = 30.0, limits: compiler.Limits | None = None) -> dict[str, Any]:
    """``{"verdict", "equivalent", "method", "reason", "evidence", "generated", "reference"}``:
    the verdict of :mod:`syntagm.equiv.compare` on ``model`` (A) against ``ref_model`` (B);
    ``equivalent`` is True for ``equivalent``, False for ``different``, None otherwise;
    ``generated``/``reference`` are ``{"status", "objective"}``.  A worker that runs past the
    time limit (``limits.timeout_s`` plus twice ``time_limit_s``) gives ``unknown``."""
    limits = limits or compiler.Limits()
    compiler._pyopl()
    answer = sandbox.run({"op": "compare", "model": model, "data": data, "ref_model": ref_model,
                          "ref_data": ref_data, "tol": tol, "time_limit_s": time_limit_s},
                         limits.timeout_s + 2 * time_limit_s + 30.0, limits.memory_mb)
    if not answer.get("ok"):
        r = {"verdict": "unknown", "method": "none", "evidence": {},
             "reason": f"the comparison did not finish ({answer.get('message') or answer.get('reason')})", "A": {}, "B": {}}
    else:
        r = answer["result"]
    return {"verdict": r["verdict"], "equivalent": _AS_BOOL[r["verdict"]], "method": r.get("method"),
            "reason": r["reason"], "evidence": r.get("evidence") or {},
            "generated": r.get("A") or {}, "reference": r.get("B") or {}}
