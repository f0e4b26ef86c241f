"""The equivalence verdict on two OPL models, with its evidence.

What "equivalent" means: one model can be turned into the other by sound rewrites (renaming and
reordering variables and constraints, scaling a constraint by a nonzero factor, writing a bound
as a constraint or the reverse, an equality as two inequalities, adding or removing a redundant
constraint, an auxiliary variable defined by an equality, a variable fixed by its bounds); then
both have the same status, the same optimal value, and optimal solutions that correspond.

The invariants (docs/syntagm.md, property-tested in tests/syntagm/test_syntagm_equiv_properties.py):

``equivalent`` only with a proof
    both models solve to the same proved status (optimal or unbounded; an infeasible model is
    never ``equivalent``), and either after :mod:`.normalise` the two problems are the same
    labelled graph (:mod:`.structure`; method ``structure``), or, under a column correspondence,
    each problem's rows and bounds are implied by the other's, by LP both ways (by MIP, solved to
    a zero gap, where integer columns are involved) and the objectives are the same
    (:mod:`.implication`; method ``feasible_sets``).
``different`` only with a witness that holds whatever the correspondence of variables
    model A does not compile (method ``compile``), the proved statuses differ (method
    ``status``: one infeasible or unbounded, the other solved to optimality, with a zero MIP
    gap), or the optimal objectives differ by more than the tolerance (method ``objective``).
    A point of one model that breaks a row of the other under one correspondence is not such a
    witness (another correspondence may match): it is kept as ``evidence.candidate_witness``
    and the verdict stays weaker.
``equivalent_by_solutions``
    no proof either way, but both optima and their value multisets agree: evidence, never proof
    (``syntagm bench`` never counts it as a proved equivalence; its report says how many correct
    answers rest on it).
``unknown``
    anything else.

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


#: the statuses a solve proves (anything else, a time limit or an error, proves nothing)
PROVED = ("optimal", "infeasible", "unbounded")


def _structural(a: Problem, b: Problem) -> dict[str, Any]:
    """The structure and feasible-set steps on two linear problems that both solve to the same
    proved status, optimal or unbounded (see the module docstring).  ``verdict`` is
    ``"equivalent"`` or None (no proof found; a candidate witness may be in the evidence)."""
    na, log_a = normalise.normalise(a)
    nb, log_b = normalise.normalise(b)
    ev: dict[str, Any] = {"normalised_A": log_a, "normalised_B": log_b,
                          "size_A": [na.m, na.n], "size_B": [nb.m, nb.n]}
    if na.notes or nb.notes:
        ev["notes"] = na.notes + nb.notes
    if na.infeasible or nb.infeasible:
        # the solver said feasible: a normalisation that says otherwise proves nothing here
        ev["infeasible"] = {"A": na.infeasible, "B": nb.infeasible}
        return {"verdict": None, "evidence": ev}
    if na.sense == nb.sense and structure._r(na.c0) == structure._r(nb.c0):
        cmap = structure.isomorphic(na, nb)
        if cmap is not None:
            ev["column_map"] = {nb.names[jb]: na.names[ja] for jb, ja in sorted(cmap.items())[:50]}
            return {"verdict": "equivalent", "method": "structure",
                    "reason": "the normalised models are the same up to the order and scaling of rows and columns",
                    "evidence": ev}
    tried = 0
    for cmap, how in structure.correspondences(na, nb):
        tried += 1
        sets = implication.compare_feasible_sets(na, nb, cmap)
        if sets["same"] is True and na.sense == nb.sense and _same_objective(na, nb, cmap):
            ev["correspondence"] = how
            ev["column_map"] = {nb.names[jb]: na.names[ja] for jb, ja in sorted(cmap.items())[:50]}
            return {"verdict": "equivalent", "method": "feasible_sets",
                    "reason": "each model's rows and bounds are implied by the other's (LP), with the same "
                              "integrality and objective", "evidence": ev}
        if "candidate_witness" not in ev:
            ev["correspondence"] = how
            ev["column_map"] = {nb.names[jb]: na.names[ja] for jb, ja in sorted(cmap.items())[:50]}
            if sets["same"] is False:
                ev["candidate_witness"] = sets["witness"]
            elif sets["same"] is True:
                ev["candidate_witness"] = {"objective": "the objectives differ under this correspondence"}
    ev["correspondences_tried"] = tried
    if not tried:
        ev["correspondence"] = "none found (different numbers of columns, or no structural match)"
    return {"verdict": None, "evidence": ev}


def _witness_text(w: dict[str, Any]) -> str:
    if "objective" in w:
        return w["objective"]
    return f"a point of model {w['in']} breaks {w.get('violates') or w.get('constraint')} of the other model"


def check_texts(model_a: str, data_a: str, model_b: str, data_b: str, tol: float = 1e-6,
                time_limit_s: float = 30.0) -> dict[str, Any]:
    """The verdict on two models given as text (runs pyopl: call it in a worker process, as
    :func:`syntagm.bench.equivalence.compare_models` does, which also cleans the texts).
    Returns ``{"verdict", "method", "reason", "evidence",
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
    ra = ca.solve(time_limit=time_limit_s, mip_gap=0.0)
    rb = cb.solve(time_limit=time_limit_s, mip_gap=0.0)
    out_a, out_b = {"status": ra.status, "objective": ra.objective}, {"status": rb.status, "objective": rb.objective}

    def done(v: dict[str, Any]) -> dict[str, Any]:
        return dict(v, A=out_a, B=out_b)

    sa = ra.status if ra.status in PROVED and (ra.status != "optimal" or ra.objective is not None) else None
    sb = rb.status if rb.status in PROVED and (rb.status != "optimal" or rb.objective is not None) else None
    if sa and sb and sa != sb:
        return done(_verdict("different", "status", f"model A is {sa}, model B is {sb}"))
    if sa == sb == "optimal" and abs(ra.objective - rb.objective) > tol * max(1.0, abs(rb.objective)):
        return done(_verdict("different", "objective",
                             f"different optimal objectives ({ra.objective:g} against {rb.objective:g})"))
    if sa == sb == "infeasible":
        return done(_verdict("unknown", "status", "both models are infeasible: nothing to compare (an infeasible "
                             "model is never called equivalent)"))
    if not (sa and sb):
        which = " and ".join(f"model {k} ({r.status})" for k, r, s_ in (("A", ra, sa), ("B", rb, sb)) if not s_)
        return done(_verdict("unknown", "none", f"{which} did not solve to a proved status"))
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
    if "candidate_witness" in ev:
        return done(_verdict("unknown", "feasible_sets",
                             f"no proof found; under the correspondence found ({ev['correspondence']}) "
                             f"{_witness_text(ev['candidate_witness'])}, but another correspondence might match",
                             **ev))
    if sa == "optimal":
        va, vb = (ra.to_dict() or {}).get("variables"), (rb.to_dict() or {}).get("variables")
        if same_values(va, vb, tol):
            return done(_verdict("equivalent_by_solutions", "solutions",
                                 "no proof found; the optimal objectives and value multisets agree", **ev))
    return done(_verdict("unknown", "solutions", "no proof found either way; the optimal objectives agree", **ev))
