"""Quadratic constraints (``x^2 + y^2 <= 2``): the record lowering keeps, and the product that makes them.

A constraint whose expression is quadratic is kept aside as a :class:`QuadLeaf` (it never enters
the linear row matrix); the IR carries them as ``qcons`` for backends that take quadratic
constraints (Gurobi, through ``addMQConstr``), and a backend that does not (HiGHS) refuses the
model at the first one, naming the decisions that are multiplied there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics.diagnostic import Span
from ..syntax import ast as A
from .linear import QuadExpr


@dataclass
class QuadLeaf:
    """``lo <= expr <= hi`` with a quadratic ``expr`` (its constant included)."""

    expr: QuadExpr
    lo: float
    hi: float
    span: Span


@dataclass
class QuadRow:
    """One quadratic constraint of the IR: ``lo <= lin + sum(q[(i, j)] x_i x_j) <= hi`` (``i <= j``)."""

    lin: dict
    quad: dict
    lo: float
    hi: float
    label: str
    key: tuple
    span: Span
    product: Span  # where the product of decisions is written
    what: str  # "squares `x`" / "multiplies `x` and `y`"


def product_site(node: A.Node, is_dvar) -> tuple[Span, str]:
    """The first product of decisions inside ``node`` and what it multiplies, in words.

    ``is_dvar(name)`` tells decision names. A product is ``a * b`` with decisions on both sides,
    or ``a ^ k`` with decisions in ``a``; the span is that product's, and the names are the
    decisions in its operands only (``make + ot*ot`` names `ot`, not `make`)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Binary) and n.op in ("*", "^"):
            left = _dvar_names(n.left, is_dvar)
            right = _dvar_names(n.right, is_dvar) if n.op == "*" else left
            if left and right:
                names = sorted(set(left) | set(right))
                if n.op == "^" or (len(names) == 1):
                    return n.span, "squares `%s`" % names[0] if len(names) == 1 else "multiplies %s" % _and(names)
                return n.span, "multiplies %s" % _and(names)
        if isinstance(n, A.Node):
            for v in reversed(list(vars(n).values())):
                if isinstance(v, A.Node):
                    stack.append(v)
                elif isinstance(v, list):
                    stack.extend(x for x in reversed(v) if isinstance(x, A.Node))
    return node.span, "multiplies decisions"


def _dvar_names(node: Any, is_dvar) -> list[str]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name) and is_dvar(n.id) and n.id not in out:
            out.append(n.id)
        elif isinstance(n, A.Node):
            for v in vars(n).values():
                if isinstance(v, A.Node):
                    stack.append(v)
                elif isinstance(v, list):
                    stack.extend(x for x in v if isinstance(x, A.Node))
    return out


def _and(names: list[str]) -> str:
    q = ["`%s`" % n for n in names]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]


def report_solver_needs(ir: Any, reporter: Any, solver: str | None = None) -> None:
    """Report, at compile time, a quadratic constraint (at its product) and a non-convex quadratic
    objective (at the objective) that HiGHS cannot take, so ``pyopl check`` says it before a solve
    does (OPL1163), in agreement with ``pyopl solve --solver`` ``solver``:

    - a named backend (``"highs"``...) that cannot take it: an error naming the backends that can;
    - ``"auto"`` (the default of ``check`` and ``solve``): nothing when an installed backend takes the
      model (:func:`pyopl.backends.capabilities.choose`, as ``solve`` picks it), else an error saying
      what to install;
    - ``None`` (the model alone, as ``compile_model`` checks it): a warning saying where it will go."""
    from ..backends.capabilities import AUTO_ORDER, CAPABILITIES, NONCONVEX_QCP_WHY, choose, is_convex, qcon_convex

    chosen = why = None
    if solver in ("auto", None):
        chosen, why = choose(ir)
        if chosen is not None and solver == "auto":
            return  # `--solver auto` solves it: check agrees with solve
    goes = "; `--solver auto` (the default) gives it to %s" % CAPABILITIES[chosen].title \
        if solver is None and chosen is not None else ""
    caps = CAPABILITIES.get(solver) if solver and solver != "auto" else None
    if caps is not None and {"qcp", "nonconvex_qp"} <= caps.features:
        return  # this solver takes both: nothing to say
    who = caps.title if caps is not None else "HiGHS"

    def sev(feature: str) -> str:
        return "error" if solver == "auto" or (caps is not None and feature not in caps.features) else "warning"

    def help_for(feature: str, fallback: str) -> str:
        if solver in ("auto", None) and why == NONCONVEX_QCP_WHY:
            return "a global solver takes it if you ask for one: `--solver scip` or `--solver gurobi` (Python: " \
                   "`solver=\"scip\"`); or %s" % fallback
        if solver == "auto":
            return "no installed solver takes it (%s): install one, e.g. `pip install \"pyopl[scip]\"`, or %s" % (
                why, fallback)
        takers = [t for t in AUTO_ORDER if t != solver and feature in CAPABILITIES[t].features]
        return "solve it with `--solver auto` (the default) or `--solver %s`, or %s" % (
            "`/`--solver ".join(takers) if takers else "gurobi", fallback)

    if ir.qcons:
        nonconvex = solver in ("auto", None) and why == NONCONVEX_QCP_WHY
        q = next((c for c in ir.qcons if not qcon_convex(c, ir.num_cols)), ir.qcons[0]) if nonconvex else ir.qcons[0]
        more = " (%d quadratic constraints in all)" % len(ir.qcons) if len(ir.qcons) > 1 else ""
        reporter.emit("quadratic-needs-gurobi", q.product,
                      ("this constraint %s: it is a non-convex quadratic constraint%s, which IBM OPL's engine (CPLEX) "
                       "refuses, and `--solver auto` gives to no solver unasked" % (q.what, more)) if nonconvex else
                      "this constraint %s: it is quadratic, and %s takes no quadratic constraints%s%s" % (
                          q.what, who, more, goes),
                      help=help_for("qcp", "linearise the product (for a binary times a bounded variable, an "
                                           "auxiliary variable with big-M rows)"), severity=sev("qcp"))
    if ir.q is not None and ir.q.nnz and ir.sense != "feasibility" and ir.objective_span is not None \
            and not ir.lex_objectives and not is_convex(ir):
        reporter.emit("quadratic-needs-gurobi", ir.objective_span,
                      "this %s quadratic objective is not %s, so %s cannot solve it%s" % (
                          "minimised" if ir.sense == "minimize" else "maximised",
                          "convex" if ir.sense == "minimize" else "concave", who, goes),
                      help=help_for("nonconvex_qp", "check the signs of the squared terms"),
                      severity=sev("nonconvex_qp"))
