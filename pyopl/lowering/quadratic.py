"""Quadratic constraints (``x^2 + y^2 <= 2``): the record lowering keeps, and the product that makes them.

A constraint whose expression is quadratic is kept aside as a :class:`QuadLeaf` (it never enters
the linear row matrix); the IR carries them as ``qcons`` for backends that take quadratic
constraints (Gurobi, through ``addMQConstr``), and a backend that does not (HiGHS) refuses the
model at the first one, naming the decisions that are multiplied there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..backends.capabilities import CAPABILITIES, is_convex
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
    """Report, at compile time, what HiGHS (the default solver) will refuse: the first quadratic
    constraint (at its product) and a non-convex quadratic objective (at the objective), so
    ``pyopl check`` says it before a solve does (OPL1163). An error when checking for ``solver`` and
    that solver cannot take it; a warning when no solver is named (Gurobi takes both)."""
    caps = CAPABILITIES.get(solver) if solver else None
    sev = lambda feature: "error" if caps is not None and feature not in caps.features else "warning"  # noqa: E731
    if caps is not None and {"qcp", "nonconvex_qp"} <= caps.features:
        return  # this solver takes both: nothing to say
    if ir.qcons:
        q = ir.qcons[0]
        more = " (%d quadratic constraints in all)" % len(ir.qcons) if len(ir.qcons) > 1 else ""
        reporter.emit("quadratic-needs-gurobi", q.product,
                      "this constraint %s: it is quadratic, and HiGHS (the default solver) takes no quadratic "
                      "constraints%s" % (q.what, more),
                      help="solve it with `--solver gurobi`, or linearise the product (for a binary times a bounded "
                           "variable, an auxiliary variable with big-M rows)", severity=sev("qcp"))
    if ir.q is not None and ir.q.nnz and ir.sense != "feasibility" and ir.objective_span is not None \
            and not ir.lex_objectives and not is_convex(ir):
        reporter.emit("quadratic-needs-gurobi", ir.objective_span,
                      "this %s quadratic objective is not %s, so HiGHS (the default solver) cannot solve it" % (
                          "minimised" if ir.sense == "minimize" else "maximised",
                          "convex" if ir.sense == "minimize" else "concave"),
                      help="solve it with `--solver gurobi`, or check the signs of the squared terms",
                      severity=sev("nonconvex_qp"))
