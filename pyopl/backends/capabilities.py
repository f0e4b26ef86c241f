"""What each backend takes, declared as data, the check made before solving, and the choice of
``--solver auto``.

A backend that cannot take a model refuses it with an ``OPL0703``
(``backend-cannot-take``) diagnostic that names the feature and the backends
that take it, instead of failing inside the solver.  ``auto`` picks the first
installed backend of :data:`AUTO_ORDER` whose features cover the model and whose
bundled licence takes its size.  The idea of capabilities as data follows
cvxpy's solver interfaces and linopy's solver features; the table below is ours.
"""
from __future__ import annotations

import importlib.util
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
    "lex_lp_tolerance": "an LP whose priority levels may degrade by a tolerance (staticLexFull's abstol/reltol: "
                        "Gurobi applies them to LPs through reduced costs, not as CPLEX does)",
    "qcp": "quadratic constraints",
    "nonconvex_qcp": "non-convex quadratic constraints",
    "indicators": "logical constraints over unbounded expressions (indicator constraints)",
    "cp": "`using CP;` (a constraint programming model, solved by CP-SAT)",
}


@dataclass(frozen=True)
class Capabilities:
    """One backend's declaration.

    ``features``: keys of :data:`FEATURES` it solves; ``duals``: row duals, slacks and reduced
    costs for continuous models; ``iis``: how it explains infeasibility (``"native"`` or
    ``"elastic"``, the pyopl fallback); ``rays``: whether it reports an unbounded ray; ``sos``,
    ``pool``: whether the engine has SOS constraints (pyopl passes none yet, the table says what
    the engine offers) and a solution pool (``cplex.populate()`` in a script reads it: Gurobi's
    n-best pool, CPLEX's populate, the solutions SCIP kept); ``package``: the Python module it needs and
    ``extra`` the pip extra that installs it; ``max_cols``/``max_rows``/``max_quad_cols``: the
    limits of the licence bundled with the pip package (None: no limit); ``size_limit``: the
    same in words."""

    name: str
    title: str
    features: frozenset
    package: str
    extra: str | None = None
    duals: bool = True
    iis: str = "native"
    rays: bool = True
    sos: bool = False
    pool: bool = False
    max_cols: int | None = None
    max_rows: int | None = None
    max_quad_cols: int | None = None
    size_limit: str = ""


_ALL = frozenset(FEATURES) - {"cp"}  # the MP solvers take no `using CP;` model

CAPABILITIES = {
    "highs": Capabilities("highs", "HiGHS", frozenset({"lp", "mip", "qp", "lex", "lex_lp_tolerance"}), "highspy",
                          iis="native (LP), elastic filter (MIP)"),
    "scip": Capabilities("scip", "SCIP", _ALL - {"lex"}, "pyscipopt", "scip", iis="elastic filter", rays=False,
                         sos=True, pool=True),
    "cplex": Capabilities("cplex", "CPLEX", _ALL - {"nonconvex_qcp"}, "cplex", "cplex", iis="native (conflict refiner)",
                          rays=False, sos=True, pool=True, max_cols=1000, max_rows=1000,
                          size_limit="the pip package's Community Edition stops at 1,000 variables / 1,000 constraints"),
    "gurobi": Capabilities("gurobi", "Gurobi", _ALL - {"lex_lp_tolerance"}, "gurobipy", "gurobi", iis="native", sos=True, pool=True,
                           max_cols=2000, max_rows=2000, max_quad_cols=200,
                           size_limit="the pip licence stops at 2,000 variables / 2,000 linear constraints "
                                      "(200 variables with a quadratic objective)"),
    # integer variables only: a continuous column is refused by the backend itself (cp-mp-only)
    "cpsat": Capabilities("cpsat", "CP-SAT", frozenset({"lp", "mip", "cp", "lex", "indicators"}), "ortools", "cp",
                          duals=False,
                          iis="none", rays=False),
}

#: The order in which ``--solver auto`` tries the backends: HiGHS for what it takes, then SCIP
#: (MIQP, quadratic constraints, indicators; no size limit), then the size-limited commercial ones;
#: CP-SAT last, the only one that takes `using CP;` models (and so the one they go to).
AUTO_ORDER = ("highs", "scip", "gurobi", "cplex", "cpsat")


def installed(backend: str) -> bool:
    """Whether the Python package of ``backend`` can be found (without importing it)."""
    caps = CAPABILITIES[backend]
    return importlib.util.find_spec(caps.package) is not None


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
        if not ir.is_mip and any(a > 0 or r > 0 for a, r in (getattr(ir, "lex_tolerances", None) or ())):
            feats.add("lex_lp_tolerance")
    qcons = getattr(ir, "qcons", None)
    if qcons:
        feats.add("qcp")
        if any(not qcon_convex(q, ir.num_cols) for q in qcons):
            feats.add("nonconvex_qcp")
    if getattr(ir, "indicators", None):
        feats.add("indicators")
    if getattr(ir, "engine", "mp") == "cp":
        feats.add("cp")
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
    if not np.isfinite(sub).all():
        return True  # (coefficients no solver takes: OPL0431 says so, not a convexity warning)
    with np.errstate(over="ignore"):
        sub = 0.5 * (sub + sub.T)
    if ir.sense == "maximize":
        sub = -sub
    return _psd(sub, tol)


def _psd(sub: np.ndarray, tol: float) -> bool:
    eig = np.linalg.eigvalsh(sub)
    return bool(eig.min() >= -tol * max(1.0, abs(eig).max()))


def qcon_convex(q, n: int, tol: float = 1e-9) -> bool:
    """Whether the quadratic constraint ``q`` (a :class:`~pyopl.lowering.linearise.quadratic.QuadRow`,
    ``lo <= lin + sum q_ij x_i x_j <= hi``) has a convex feasible set by the usual test: the
    quadratic part positive semidefinite on a finite upper side, negative semidefinite on a finite
    lower side (an equality is convex only when both hold, i.e. the part is zero)."""
    idx = sorted({i for p in q.quad for i in p})
    if not idx:
        return True
    if len(idx) > 500:
        return True  # too large to test here; the solver will say
    pos = {j: k for k, j in enumerate(idx)}
    M = np.zeros((len(idx), len(idx)))
    for (i, j), c in q.quad.items():
        if i == j:
            M[pos[i], pos[i]] += c
        else:
            M[pos[i], pos[j]] += c / 2.0
            M[pos[j], pos[i]] += c / 2.0
    ok = True
    if np.isfinite(q.hi):
        ok = ok and _psd(M, tol)
    if np.isfinite(q.lo):
        ok = ok and _psd(-M, tol)
    return ok


def over_licence(ir: IR, backend: str) -> str | None:
    """Why the licence bundled with ``backend``'s pip package refuses ``ir`` by its size, else None."""
    caps = CAPABILITIES[backend]
    if caps.max_cols is None:
        return None
    quad = ir.q is not None and ir.q.nnz and ir.sense != "feasibility"
    cols_limit = caps.max_quad_cols if quad and caps.max_quad_cols else caps.max_cols
    rows = ir.num_rows + len(getattr(ir, "qcons", None) or ()) + len(getattr(ir, "indicators", None) or ())
    if ir.num_cols > cols_limit or (caps.max_rows is not None and rows > caps.max_rows):
        return "%d variables and %d constraints: %s" % (ir.num_cols, rows, caps.size_limit)
    return None


def takers(features: set[str], exclude: str | None = None) -> list[str]:
    """The backends whose features include all of ``features`` (in :data:`AUTO_ORDER`)."""
    return [b for b in AUTO_ORDER if b != exclude and features <= CAPABILITIES[b].features]


#: why ``--solver auto`` takes no model with a non-convex quadratic constraint
NONCONVEX_QCP_WHY = ("the model has a non-convex quadratic constraint, which IBM OPL's engine (CPLEX) refuses "
                     "(CPLEX Error 5002); `--solver auto` gives it to no solver unasked")


def choose(ir: IR, is_installed=installed) -> tuple[str | None, str]:
    """``(backend, why)`` for ``--solver auto``: the first backend of :data:`AUTO_ORDER` that is
    installed, takes every feature of ``ir`` and whose bundled licence takes its size; ``(None,
    why not)`` when none does (``why`` names the features and the backends that have them)."""
    feats = model_features(ir)
    needed = sorted(feats - CAPABILITIES["highs"].features)
    if "nonconvex_qcp" in feats:
        # CPLEX, IBM OPL's engine, refuses a non-convex quadratic constraint (CPLEX Error 5002, "not
        # convex"); a global solve is the user's choice, never made for them
        return None, NONCONVEX_QCP_WHY
    for b in AUTO_ORDER:
        caps = CAPABILITIES[b]
        if not feats <= caps.features or not is_installed(b) or over_licence(ir, b):
            continue
        if b == "highs":
            return b, "HiGHS takes every feature of the model"
        if b == "cpsat" and "cp" in feats:
            return b, "chosen because the model has `using CP;`"
        return b, "chosen because the model has %s, which HiGHS does not take" % "; ".join(FEATURES[f] for f in needed)
    have = takers(feats)
    what = "; ".join(FEATURES[f] for f in needed) or "these features"
    if not have:
        return None, "no backend takes a model with %s" % what
    return None, "the model has %s; %s take%s it, but %s" % (
        what, _names(have), "s" if len(have) == 1 else "",
        ("it is not installed" if len(have) == 1 else "none of them is installed")
        if not any(is_installed(b) for b in have) else "the model is over the size limits of the installed ones' bundled licences")


def _names(backends: list[str]) -> str:
    t = [CAPABILITIES[b].title for b in backends]
    return t[0] if len(t) == 1 else ", ".join(t[:-1]) + " and " + t[-1]


def _help_for(backends: list[str]) -> str:
    """How to solve a model that needs one of ``backends``: name them, or, when none of them is
    installed, the pip extras that install them (``--solver auto`` cannot choose one that is not
    installed: it falls back to HiGHS, whose refusal this help completes)."""
    if not backends:
        return "reformulate the model without it"
    if not any(installed(b) for b in backends):
        extras = ["`pip install \"pyopl[%s]\"`" % (CAPABILITIES[b].extra or b) for b in backends]
        return "%s take%s it, but none is installed: %s%s, then leave `--solver auto` to choose" % (
            _names(backends), "s" if len(backends) == 1 else "", extras[0],
            " (or %s)" % ", ".join(extras[1:]) if len(extras) > 1 else "")
    first = backends[0]
    alts = " (or %s)" % ", ".join("`--solver %s`" % b for b in backends[1:]) if len(backends) > 1 else ""
    return "solve it with `--solver %s`%s (Python: `solver=\"%s\"`), or leave `--solver auto` to choose" % (
        first, alts, first)


def refusal(ir: IR, backend: str) -> tuple[str, str] | None:
    """``(message, help)`` when ``backend`` cannot take ``ir``, else None. The help names every
    backend that takes the missing features."""
    caps = CAPABILITIES.get(backend)
    if caps is None or caps.features >= set(FEATURES):  # takes everything: no need to test convexity
        return None
    missing = [f for f in sorted(model_features(ir)) if f not in caps.features]
    if not missing:
        return None
    what = "; ".join(FEATURES[f] for f in missing)
    cp = "cp" in model_features(ir) and "cp" in caps.features  # no other backend takes a CP model
    help = "reformulate the model without it (docs/cp.md)" if cp else _help_for(takers(set(missing), exclude=backend))
    if "miqp" in missing and backend == "highs":
        help += ", or relax the integer variables"
    if "nonconvex_qp" in missing:
        help += "; a minimised quadratic must be convex (a maximised one concave)"
    return "%s cannot solve a model with %s" % (_title(backend), what), help


def refusal_site(ir: IR, backend: str) -> tuple[object, str, str] | None:
    """``(span, message, help)`` for a refusal that has a place in the model, else None.

    A quadratic constraint is refused at its product, naming the decisions multiplied there
    (``x^2`` squares `x`; it is never "the product of `x` and `y`"); a non-convex quadratic
    objective at the objective; an indicator constraint at its logical constraint."""
    caps = CAPABILITIES.get(backend)
    if caps is None:
        return None
    qcons = getattr(ir, "qcons", None)
    if qcons and "qcp" not in caps.features:
        q = qcons[0]
        more = " (and %d more)" % (len(qcons) - 1) if len(qcons) > 1 else ""
        return (q.product, "%s takes no quadratic constraints, and this constraint %s%s" % (_title(backend), q.what, more),
                _help_for(takers({"qcp"}, exclude=backend)) + ", or linearise the product")
    if qcons and "nonconvex_qcp" not in caps.features:
        bad = next((q for q in qcons if not qcon_convex(q, ir.num_cols)), None)
        if bad is not None:
            return (bad.product, "%s takes only convex quadratic constraints, and this one (it %s) is not convex" % (
                _title(backend), bad.what), _help_for(takers({"nonconvex_qcp"}, exclude=backend)))
    inds = getattr(ir, "indicators", None)
    if inds and "indicators" not in caps.features:
        ind = inds[0]
        return (ind.span, "%s takes no indicator constraints, and this logical constraint needs one: %s" % (
            _title(backend), ind.why), _help_for(takers({"indicators"}, exclude=backend))
            + ", or give the variables finite bounds so that a big-M linearisation exists")
    if ir.objective_span is not None and "nonconvex_qp" not in caps.features and ir.q is not None and ir.q.nnz \
            and ir.sense != "feasibility" and not is_convex(ir):
        return (ir.objective_span, "%s cannot solve a non-convex quadratic objective" % _title(backend),
                _help_for(takers({"nonconvex_qp"}, exclude=backend)) + ", or %s" % (
                    "make the minimised quadratic convex" if ir.sense == "minimize" else "make the maximised quadratic concave"))
    return None


def _title(backend: str) -> str:
    caps = CAPABILITIES.get(backend)
    return caps.title if caps else backend
