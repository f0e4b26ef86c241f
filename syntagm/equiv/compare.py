"""The equivalence verdict on two OPL models, with its evidence.

Verdicts, from strongest evidence to weakest:

``equivalent``
    proved: after :mod:`.normalise` the two problems are the same labelled graph
    (:mod:`.structure`; method ``structure``), or, under a column correspondence, each
    problem's rows and bounds are implied by the other's and the objectives are the same
    (:mod:`.implication`; method ``feasible_sets``).
``different``
    the optimal objectives (or solver statuses) differ (method ``objective``: this needs no
    correspondence), or, under the column correspondence found, a point of one model breaks a
    row, bound or integrality of the other (method ``feasible_sets``, with the witness).  The
    latter is a statement about that correspondence: it is found by equal column names or by
    a structural match, and the evidence names which.
``equivalent_by_solutions``
    structure settled nothing, but both optima and their value multisets agree: evidence, not
    proof.
``unknown``
    nothing of the above (a reference that does not solve, a check that ran out of time,
    quadratic models whose structure is not compared).

Objectives compare with ``|a − b| <= tol · max(1, |b|)``.  Model A is the one under test
(the generated model in ``syntagm bench``), B the reference.
"""
from __future__ import annotations

from typing import Any

from . import implication, normalise, structure
from .problem import Problem, from_payload, ir_payload
from .solutions import same_values


def _verdict(verdict: str, method: str, reason: str, **evidence: Any) -> dict[str, Any]:
    return {"verdict": verdict, "method": method, "reason": reason, "evidence": evidence}


def _compile(pyopl: Any, model: str, data: str | None) -> tuple[Any, str]:
    try:
        return pyopl.compile_model(model, data=data, source="text"), ""
    except pyopl.CompileError as e:
        return None, "; ".join(str(d) for d in e.errors[:3])


def _same_objective(a: Problem, b: Problem, cmap: dict[int, int]) -> bool:
    r = structure._r
    return (a.sense == b.sense and r(a.c0) == r(b.c0)
            and all(r(b.c[jb]) == r(a.c[ja]) for jb, ja in cmap.items()))


def _structural(a: Problem, b: Problem) -> dict[str, Any]:
    """The structure and feasible-set steps on two linear problems (see the module docstring)."""
    na, log_a = normalise.normalise(a)
    nb, log_b = normalise.normalise(b)
    ev: dict[str, Any] = {"normalised_A": log_a, "normalised_B": log_b,
                          "size_A": [na.m, na.n], "size_B": [nb.m, nb.n]}
    if na.notes or nb.notes:
        ev["notes"] = na.notes + nb.notes
    if na.sense == nb.sense and structure._r(na.c0) == structure._r(nb.c0):
        cmap = structure.isomorphic(na, nb)
        if cmap is not None:
            ev["column_map"] = {nb.names[jb]: na.names[ja] for jb, ja in sorted(cmap.items())[:50]}
            return {"verdict": "equivalent", "method": "structure",
                    "reason": "the normalised models are the same up to the order and scaling of rows and columns",
                    "evidence": ev}
    found = structure.correspondence(na, nb)
    if found is None:
        ev["correspondence"] = "none found (different numbers of columns, or no structural match)"
        return {"verdict": None, "evidence": ev}
    cmap, how = found
    ev["correspondence"] = how
    ev["column_map"] = {nb.names[jb]: na.names[ja] for jb, ja in sorted(cmap.items())[:50]}
    sets = implication.compare_feasible_sets(na, nb, cmap)
    if sets["same"] is True and _same_objective(na, nb, cmap):
        return {"verdict": "equivalent", "method": "feasible_sets",
                "reason": "each model's rows and bounds are implied by the other's (LP), with the same integrality "
                          "and objective", "evidence": ev}
    if sets["same"] is False:
        w = sets["witness"]
        ev["witness"] = w
        return {"verdict": "different", "method": "feasible_sets",
                "reason": f"a point of model {w['in']} breaks {w['violates'] if 'violates' in w else w['constraint']} "
                          f"of the other model (columns matched by {how})", "evidence": ev}
    ev["feasible_sets"] = "the same" if sets["same"] else "not settled"
    return {"verdict": None, "evidence": ev}


def check_texts(model_a: str, data_a: str, model_b: str, data_b: str, tol: float = 1e-6,
                time_limit_s: float = 30.0) -> dict[str, Any]:
    """The verdict on two models given as text (runs pyopl: call it in a worker process, as
    :func:`syntagm.bench.equivalence.compare_models` does, which also cleans the texts).  Returns ``{"verdict", "method", "reason", "evidence",
    "A": {"status", "objective"}, "B": {...}}``."""
    import pyopl

    def data(d: str) -> str | None:
        return d if d and d.strip() else None

    ca, err_a = _compile(pyopl, model_a, data(data_a))
    cb, err_b = _compile(pyopl, model_b, data(data_b))
    if cb is None:
        return dict(_verdict("unknown", "none", f"model B does not compile ({err_b})"), A={}, B={})
    if ca is None:
        return dict(_verdict("different", "compile", f"model A does not compile ({err_a})"), A={}, B={})
    ra, rb = ca.solve(time_limit=time_limit_s), cb.solve(time_limit=time_limit_s)
    out_a, out_b = {"status": ra.status, "objective": ra.objective}, {"status": rb.status, "objective": rb.objective}

    def done(v: dict[str, Any]) -> dict[str, Any]:
        return dict(v, A=out_a, B=out_b)

    pa, pb = ir_payload(ca.ir), ir_payload(cb.ir)
    nonlinear = pa["nonlinear"] or pb["nonlinear"]
    result: dict[str, Any] = {"verdict": None, "evidence": {}}
    if nonlinear:
        result["evidence"] = {"structure": f"not compared ({nonlinear})"}
    else:
        try:
            result = _structural(from_payload(pa), from_payload(pb))
        except ValueError as e:
            result["evidence"] = {"structure": f"not compared ({e})"}
        except (ArithmeticError, RuntimeError) as e:  # a numerical failure of an LP: weaker evidence then
            result = {"verdict": None, "evidence": {"structure": f"failed ({type(e).__name__}: {e})"}}
        if result["verdict"] == "equivalent":
            return done(result)
    ev = result["evidence"]
    if rb.status != "optimal" or rb.objective is None:
        if result["verdict"] == "different":
            return done(result)
        return done(_verdict("unknown", "none", f"model B does not solve to optimality ({rb.status})", **ev))
    if ra.status != "optimal" or ra.objective is None:
        return done(_verdict("different", "objective", f"model A does not solve to optimality ({ra.status}); "
                             f"model B does", **ev))
    if abs(ra.objective - rb.objective) > tol * max(1.0, abs(rb.objective)):
        return done(_verdict("different", "objective",
                             f"different optimal objectives ({ra.objective:g} against {rb.objective:g})", **ev))
    if result["verdict"] == "different":
        return done(result)
    va, vb = (ra.to_dict() or {}).get("variables"), (rb.to_dict() or {}).get("variables")
    if same_values(va, vb, tol):
        return done(_verdict("equivalent_by_solutions", "solutions",
                             "structure settled nothing; the optimal objectives and value multisets agree", **ev))
    return done(_verdict("unknown", "solutions", "structure settled nothing; the optimal objectives agree but the "
                         "optimal value multisets differ", **ev))
