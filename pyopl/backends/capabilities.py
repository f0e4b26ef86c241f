"""What each backend takes, declared as data, and the check made before solving.

A backend that cannot take a model refuses it with an ``OPL0703``
(``backend-cannot-take``) diagnostic that names the feature and a backend
that takes it, instead of failing inside the solver.  The idea of
capabilities as data follows cvxpy's solver interfaces and linopy's solver
features; the table below is ours.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..ir import IR

#: Model features, in the words the diagnostics use.
FEATURES = {
    "lp": "a linear objective over continuous variables",
    "mip": "integer or boolean variables",
    "qp": "a convex quadratic objective over continuous variables",
    "nonconvex_qp": "a non-convex quadratic objective",
    "miqp": "a quadratic objective with integer variables (MIQP)",
    "lex": "several objectives in priority order (staticLex)",
    "qcp": "quadratic constraints",
}


@dataclass(frozen=True)
class Capabilities:
    """One backend's declaration. ``features``: keys of :data:`FEATURES` it solves;
    ``duals``: row duals, slacks and reduced costs for continuous models; ``iis``:
    how it explains infeasibility (``"native"`` or ``"elastic"``, the pyopl fallback);
    ``rays``: whether it reports an unbounded ray; ``size_limit``: a note on licence limits."""

    name: str
    features: frozenset
    duals: bool = True
    iis: str = "native"
    rays: bool = True
    size_limit: str = ""


CAPABILITIES = {
    "highs": Capabilities("highs", frozenset({"lp", "mip", "qp", "lex"}), iis="native (LP), elastic filter (MIP)"),
    "gurobi": Capabilities("gurobi", frozenset({"lp", "mip", "qp", "nonconvex_qp", "miqp", "lex", "qcp"}), iis="native",
                           size_limit="the pip licence stops at 2,000 variables / 2,000 linear constraints "
                                      "(200 variables with a quadratic objective)"),
}


def model_features(ir: IR) -> set[str]:
    """The :data:`FEATURES` keys that ``ir`` uses (convexity is tested numerically, see :func:`is_convex`)."""
    feats = {"lp"}
    if ir.is_mip:
        feats.add("mip")
    if ir.q is not None and ir.q.nnz and ir.sense != "feasibility":
        if ir.is_mip:
            feats.add("miqp")
        feats.add("qp" if is_convex(ir) else "nonconvex_qp")
    if ir.lex_objectives:
        feats.add("lex")
    if getattr(ir, "qcons", None):
        feats.add("qcp")
    return feats


def is_convex(ir: IR, tol: float = 1e-9) -> bool:
    """Whether ``0.5 x'Qx`` is convex when minimising (concave when maximising).

    Tested on the submatrix of the variables that appear in ``Q`` by a dense
    eigenvalue computation (``numpy.linalg.eigvalsh``); above 2,000 such variables
    the test is skipped and the objective is taken as convex (the solver will say).
    """
    Q = ir.q.tocsr()
    used = np.unique(np.concatenate([Q.indices, np.repeat(np.arange(Q.shape[0]), np.diff(Q.indptr))]))
    if len(used) == 0 or len(used) > 2000:
        return True
    sub = Q[used][:, used].toarray()
    sub = 0.5 * (sub + sub.T)
    if ir.sense == "maximize":
        sub = -sub
    eig = np.linalg.eigvalsh(sub)
    return bool(eig.min() >= -tol * max(1.0, abs(eig).max()))


def refusal(ir: IR, backend: str) -> tuple[str, str] | None:
    """``(message, help)`` when ``backend`` cannot take ``ir``, else None."""
    caps = CAPABILITIES.get(backend)
    if caps is None or caps.features >= set(FEATURES):  # takes everything: no need to test convexity
        return None
    missing = [f for f in sorted(model_features(ir)) if f not in caps.features]
    if not missing:
        return None
    what = "; ".join(FEATURES[f] for f in missing)
    others = [n for n, c in CAPABILITIES.items() if n != backend and all(f in c.features for f in missing)]
    help = ("solve it with `--solver %s` (Python: `solver=\"%s\"`)" % (others[0], others[0]) if others
            else "reformulate the model without it")
    if "miqp" in missing and backend == "highs":
        help += ", or relax the integer variables"
    if "nonconvex_qp" in missing:
        help += "; a minimised quadratic must be convex (a maximised one concave)"
    return "%s cannot solve a model with %s" % (_title(backend), what), help


def refusal_site(ir: IR, backend: str) -> tuple[object, str, str] | None:
    """``(span, message, help)`` for a refusal that has a place in the model, else None.

    A quadratic constraint is refused at its product, naming the decisions multiplied there
    (``x^2`` squares `x`; it is never "the product of `x` and `y`"); a non-convex quadratic
    objective at the objective."""
    caps = CAPABILITIES.get(backend)
    if caps is None:
        return None
    qcons = getattr(ir, "qcons", None)
    if qcons and "qcp" not in caps.features:
        q = qcons[0]
        more = " (and %d more)" % (len(qcons) - 1) if len(qcons) > 1 else ""
        return (q.product, "%s takes no quadratic constraints, and this constraint %s%s" % (_title(backend), q.what, more),
                "solve it with `--solver gurobi` (Python: `solver=\"gurobi\"`), or linearise the product")
    if ir.objective_span is not None and "nonconvex_qp" not in caps.features and ir.q is not None and ir.q.nnz \
            and ir.sense != "feasibility" and not is_convex(ir):
        return (ir.objective_span, "%s cannot solve a non-convex quadratic objective" % _title(backend),
                "solve it with `--solver gurobi`, or %s" % ("make the minimised quadratic convex" if ir.sense == "minimize"
                                                           else "make the maximised quadratic concave"))
    return None


def _title(backend: str) -> str:
    return {"highs": "HiGHS", "gurobi": "Gurobi"}.get(backend, backend)
