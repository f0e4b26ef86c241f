"""``staticLexFull(goals, weights, priorities, abstol, reltol)`` (IBM, OPL functions: "defines a
multicriteria policy" for CPLEX models): CPLEX's multi-objective optimisation.

The goals (an array of expressions) are grouped by priority: goals of the same priority are
blended into one objective, ``sum(weight * goal)``; the levels are optimised from the highest
priority to the lowest, each later level keeping the earlier ones within their tolerance of their
optimum (CPLEX's ``abstol``/``reltol``: a level may degrade by ``max(abstol, reltol * |optimum|)``;
a level of several goals takes the largest of their tolerances). One priority in all is a single
blended objective.
"""
from __future__ import annotations

from typing import Any, Callable

from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr, QuadExpr


def static_lex_full(inst: Any, call: A.Call, elements: Callable, as_objective: Callable) -> tuple[list, list]:
    """The levels of ``staticLexFull(...)``, highest priority first, and their ``(abstol, reltol)``.

    ``elements(inst, array, node)`` lists an array's elements in index order; ``as_objective(inst,
    value, node)`` checks one goal. Errors: not five arguments (OPL0110 `call-arity`), arrays of
    different lengths or non-numeric weights (`objective-not-numeric`), a CP model (OPL0627)."""
    if getattr(inst, "engine", "mp") == "cp":
        raise EvalError("unsupported-cp-construct", call.span, "`staticLexFull` is for CPLEX models (IBM: \"OPL function "
                        "for use in CPLEX models\"); a `using CP;` model takes `staticLex`",
                        help="write `minimize staticLex(e1, e2, ...);` in a CP model")
    if len(call.args) != 5:
        raise EvalError("call-arity", call.span, "`staticLexFull` takes 5 arrays (goals, weights, priorities, abstol, "
                        "reltol), not %d" % len(call.args),
                        help="write `staticLexFull(goals, weights, priorities, abstol, reltol)`")
    arrays = []
    for a in call.args:
        v = inst.ev.evaluate(a, {})
        if not hasattr(v, "dims"):
            raise EvalError("objective-not-numeric", a.span, "each argument of `staticLexFull` is an array",
                            help="declare an array (`float weights[1..2] = [1, 1];`) and pass its name")
        arrays.append(elements(inst, v, a))
    goals = [as_objective(inst, g, call.args[0]) for g in arrays[0]]
    for a, vals, what in zip(call.args[1:], arrays[1:], ("weights", "priorities", "abstol", "reltol")):
        if len(vals) != len(goals) or not all(is_number(x) for x in vals):
            raise EvalError("objective-not-numeric", a.span, "the %s of `staticLexFull` must be %d numbers, one per goal"
                            % (what, len(goals)), help="give one %s per goal, in the goals' order" % what[:-1])
    weights, prios, abstol, reltol = ([float(x) for x in vals] for vals in arrays[1:])
    levels: dict[float, list[int]] = {}
    for k, p in enumerate(prios):
        levels.setdefault(p, []).append(k)
    objectives, tolerances = [], []
    for p in sorted(levels, reverse=True):  # CPLEX: the highest priority first
        blend: Any = LinExpr()
        for k in levels[p]:
            blend = _add(blend, goals[k], weights[k], call.span)
        objectives.append(blend)
        tolerances.append((max(abstol[k] for k in levels[p]), max(reltol[k] for k in levels[p])))
    return objectives, tolerances


def _add(acc: Any, g: Any, w: float, span: Any) -> Any:
    """``acc + w * g`` for linear (or quadratic) forms."""
    if isinstance(g, QuadExpr) or isinstance(acc, QuadExpr):
        raise EvalError("objective-not-numeric", span, "`staticLexFull` takes linear goals",
                        help="CPLEX's multi-objective optimisation takes linear objectives")
    return acc.copy().iadd(g.scaled(w))
