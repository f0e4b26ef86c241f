"""Comparisons of the tree walk: data comparisons give booleans, comparisons over decisions give
constraint records (:class:`Leaf`, :class:`Logic`, :class:`QuadLeaf`), ranged constraints
``lo <= e <= hi`` and chains of data comparisons.

:class:`Comparisons` is a mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`; ``compare`` and
``compare_values`` are also what the closures of :mod:`.compiled` call.
"""
from __future__ import annotations

import math
from typing import Any

from ...diagnostics.diagnostic import Edit, Fix
from ...semantics.values import show
from ...syntax import ast as A
from .closure_types import NOT_COVERED, NUMBER_COMPARE
from .compiled import COMPOUND
from ..forms.constant_side import MIRROR, constant_side
from ..forms.describe import type_word
from ..forms.errors import EvalError
from ..forms.value_tests import is_decision, is_number
from ..forms.linear import Leaf, LinExpr, Logic, QuadExpr
from ..cp.scheduling import CumulExpr, cumul_compare

INF = float("inf")

class Comparisons:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`: ``== != <= >= < >`` and their chains."""

    def e_compare(self, node: A.Compare, env: dict) -> Any:
        """A comparison or chain of comparisons (see :meth:`compare_values`)."""
        # (operands through their closures as in `e_binary`; the list comprehension keeps the walk's depth)
        return self.compare_values(node, [v if (v := self.try_closure(o, env) if type(o) in COMPOUND else NOT_COVERED)
                                          is not NOT_COVERED else self.evaluate(o, env) for o in node.operands])

    def compare_values(self, node: A.Compare, vals: list) -> Any:
        """The comparison (or chain, or ranged constraint) ``node`` for its operands' values ``vals``."""
        if len(vals) == 2:
            return self.compare(node, node.ops[0], vals[0], vals[1], node.operands[0], node.operands[1])
        # ranged: lo <= e <= hi  (or hi >= e >= lo)
        ops = node.ops
        if len(vals) == 3 and ops[0] == ops[1] and ops[0] in ("<=", ">="):
            lo, e, hi = vals if ops[0] == "<=" else vals[::-1]
            if is_decision(e) and is_number(lo) and is_number(hi):
                if isinstance(e, QuadExpr):
                    from ..linearise.quadratic import QuadLeaf  # (loaded by the first quadratic comparison)

                    return QuadLeaf(e.copy(), lo, hi, node.span)  # a quadratic constraint (Gurobi takes it)
                return Leaf(e, lo, hi, self.inst.is_integral(e), node.span)
            if all(is_number(v) for v in (lo, e, hi)):
                return lo <= e <= hi
            raise EvalError("type-bad-range-constraint", node.span,
                            "in a ranged constraint `lo <= expr <= hi`, both bounds must be data",
                            help="split it into two constraints")
        if not any(is_decision(v) or isinstance(v, (Leaf, Logic)) for v in vals):
            # A chain of data comparisons `0 < card(S) < n` reads as the conjunction of its links.
            for k, op in enumerate(ops):
                if not self.compare(node, op, vals[k], vals[k + 1], node.operands[k], node.operands[k + 1]):
                    return False
            return True
        raise EvalError("syntax-strict-comparison-chain", node.span,
                        "this chain of comparisons (%s) is not a ranged constraint" % " ".join(ops),
                        help="write `lo <= expr <= hi`, or separate constraints joined by `&&`")

    def compare(self, node: A.Node, op: str, a: Any, b: Any, na: A.Node, nb: A.Node) -> Any:
        """``a op b``: a boolean for data, a constraint record (``Leaf``, ``Logic``, ``QuadLeaf``) over
        decisions; ``na``/``nb`` are the operands' nodes, for messages."""
        ta, tb = type(a), type(b)
        if (ta is LinExpr and (tb is LinExpr or tb is float or tb is int)) or (tb is LinExpr and (ta is float or ta is int)):
            return self._linear_compare(node, op, a, b)  # the common row: every check below would pass
        if (isinstance(a, (Leaf, Logic)) or isinstance(b, (Leaf, Logic))) and self._as_values(op, a, b):
            # constraints as 0/1 values on a side of a comparison (OPL manual, "Constraints as
            # expressions"): `b == (x <= 4)`, `(x >= 3) <= (y >= 2)`
            a = self.truth_value(a, na) if isinstance(a, (Leaf, Logic)) else a
            b = self.truth_value(b, nb) if isinstance(b, (Leaf, Logic)) else b
            return self.compare(node, op, a, b, na, nb)
        if isinstance(a, bool) and (is_number(b) or is_decision(b)):
            a = int(a)
        if isinstance(b, bool) and (is_number(a) or is_decision(a)):
            b = int(b)
        if is_number(a) and is_number(b):
            return NUMBER_COMPARE[op](a, b)
        if type(a) is CumulExpr or type(b) is CumulExpr:
            return cumul_compare(self, node, op, a, b)
        if (is_decision(a) and isinstance(b, (Leaf, Logic))) or (is_decision(b) and isinstance(a, (Leaf, Logic))):
            # a constraint used as a 0/1 value beside a decision expression (`w == (x == n)`, OPL manual,
            # "Constraints as expressions"): its truth value, a binary column
            a = self.truth_value(a, na) if isinstance(a, (Leaf, Logic)) else a
            b = self.truth_value(b, nb) if isinstance(b, (Leaf, Logic)) else b
            return self.compare(node, op, a, b, na, nb)
        if is_decision(a) or is_decision(b):
            if not ((is_decision(a) or is_number(a)) and (is_decision(b) or is_number(b))):
                bad, bn = (b, nb) if is_decision(a) else (a, na)
                raise EvalError("type-bad-comparison", bn.span, "a decision expression cannot be compared with %s" % (
                    "the string %s" % show(bad) if isinstance(bad, str) else "a " + type_word(bad)),
                    help="compare with a number or a linear expression")
            if isinstance(a, QuadExpr) or isinstance(b, QuadExpr):
                from ..linearise.quadratic import QuadLeaf, product_site  # (loaded by the first quadratic comparison)

                if op in ("<=", ">=", "=="):  # a quadratic constraint: kept aside for a backend that takes it
                    e = a.copy() if isinstance(a, QuadExpr) else QuadExpr(a.copy() if isinstance(a, LinExpr) else LinExpr(None, float(a)))
                    e.iadd(b, -1.0)
                    return QuadLeaf(e, 0.0 if op == ">=" else -INF, INF if op == ">=" else 0.0, node.span)
                span, what = product_site(node, lambda n: self.inst.is_dvar_name(n, {}))
                raise EvalError("nonlinear-product", span,
                                "`%s` on a quadratic expression is not a constraint a solver takes: this %s" % (op, what),
                                help="use `<=`, `>=` or `==`, or linearise the product (for a binary times a "
                                     "bounded variable, use an auxiliary variable with big-M rows)")
            return self._linear_compare(node, op, a, b)
        if op in ("==", "!="):
            if isinstance(a, (Leaf, Logic)) or isinstance(b, (Leaf, Logic)):
                if isinstance(a, (Leaf, Logic)) and isinstance(b, (Leaf, Logic)):
                    return Logic("iff", [a, b], node.span) if op == "==" else Logic("not", [Logic("iff", [a, b], node.span)], node.span)
                if isinstance(b, bool) or isinstance(a, bool):
                    c, flag = (a, b) if isinstance(b, bool) else (b, a)
                    return c if flag == (op == "==") else Logic("not", [c], node.span)
            if type(a) is not type(b) and not (isinstance(a, tuple) and isinstance(b, tuple)):
                if isinstance(a, str) != isinstance(b, str):
                    raise EvalError("type-bad-comparison", node.span, "cannot compare %s with %s" % (
                        type_word(a), type_word(b)), help="compare values of the same type")
            eq = a == b
            return eq if op == "==" else not eq
        if isinstance(a, str) and isinstance(b, str):
            return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[op]
        raise EvalError("type-bad-comparison", node.span, "`%s` cannot compare %s with %s" % (
            op, type_word(a), type_word(b)), help="compare numbers, strings or linear expressions")

    @staticmethod
    def _as_values(op: str, a: Any, b: Any) -> bool:
        """Whether ``a op b`` compares a constraint's 0/1 value: one side a constraint record and the
        other a number (not a boolean) or a decision expression, or both constraints under an order
        comparison (``==``/``!=`` between two constraints stay an equivalence)."""
        ca, cb = isinstance(a, (Leaf, Logic)), isinstance(b, (Leaf, Logic))
        if ca and cb:
            return op not in ("==", "!=")
        other = b if ca else a
        return not isinstance(other, bool) and (is_number(other) or type(other) is LinExpr)

    def _linear_compare(self, node: A.Node, op: str, a: Any, b: Any) -> Any:
        """``a op b`` with linear expressions or numbers on both sides, at least one a LinExpr."""
        # (each side is a LinExpr or a number here)
        if (not isinstance(a, LinExpr) and math.isinf(a)) or (not isinstance(b, LinExpr) and math.isinf(b)):
            return _infinite_bound(op, a, b)
        if not isinstance(a, LinExpr) and isinstance(b, LinExpr) and constant_side(node):
            # `k <= e` is the range `k <= e <= +inf` (Concert's IloRange(k, e, +inf)), not `k - e <= 0`:
            # a script's `ct.LB = v` then moves k, and the dual/slack keep the modeller's sign
            # (IBM's IloConstraint LB/UB; Alex Fleischer's "several incremental changes" example).
            a, b, op = b, a, MIRROR.get(op, op)
        e = a.copy() if isinstance(a, LinExpr) else LinExpr(None, float(a))
        e.iadd(b, -1.0)
        integral = self.inst.is_integral(e)
        if op in ("<", ">"):
            if not integral:
                better = "<=" if op == "<" else ">="
                span = node.op_spans[0] if isinstance(node, A.Compare) and node.op_spans else node.span
                # Kept open: its negation (inside `=>`, `!`, `||`) is the closed `e >= 0` and exact;
                # only enforcing it as it stands raises this error.
                err = EvalError("strict-inequality-float", span,
                                "strict inequality `%s` on a continuous expression%s cannot be enforced" % (
                                    op, self._strict_where(e)),
                                help="use `%s` instead (what OPL modellers mean); if the bound must be excluded, shift it "
                                     "by a margin that makes sense for your data" % better,
                                fix=Fix("replace `%s` with `%s`" % (op, better), (Edit(span, better),), "machine-applicable"))
                if op == "<":
                    return Leaf(e, -INF, 0.0, False, node.span, strict=err)
                return Leaf(e, 0.0, INF, False, node.span, strict=err)
            # integer-valued: e < 0  <=>  e <= -1
            return Leaf(e, -INF, -1.0, True, node.span) if op == "<" else Leaf(e, 1.0, INF, True, node.span)
        if op == "<=":
            return Leaf(e, -INF, 0.0, integral, node.span)
        if op == ">=":
            return Leaf(e, 0.0, INF, integral, node.span)
        if op == "==":
            return Leaf(e, 0.0, 0.0, integral, node.span)
        eq = Leaf(e, 0.0, 0.0, integral, node.span)
        return Logic("not", [eq], node.span)

    def _strict_where(self, e: LinExpr) -> str:
        """`` over `x` in `c1` ``: the continuous variables of ``e`` and the constraint's label, for messages."""
        inst = self.inst
        names = []
        for j, c in e.terms.items():
            if c and not inst.cols.integer.flat()[j]:
                n = inst.cols.name[j]
                if n not in names and not n.startswith(("abs", "max", "min", "pw")):
                    names.append(n)
        out = " (over %s)" % ", ".join("`%s`" % n for n in names[:3]) if names else ""
        label = getattr(inst, "_aux_label", "")
        return out + (" in `%s`" % label if label else "")




def _infinite_bound(op: str, a: Any, b: Any) -> bool:
    """``x <= infinity`` always holds and ``x >= infinity`` never does: decision values are finite.

    Returns the truth value, so the constraint is dropped (True) or reported as one that cannot
    hold (False) instead of reaching the solver as an infinite right-hand side.
    """
    if is_number(a):  # k op e  ->  e op' k
        op = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}.get(op, op)
        k = a
    else:
        k = b
    if op in ("<=", "<"):
        return k > 0
    if op in (">=", ">"):
        return k < 0
    return op == "!="
