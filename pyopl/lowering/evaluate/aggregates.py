"""Aggregates: ``sum``, ``prod``, ``min``, ``max``, ``union``, ``inter``, ``and``, ``or`` over qualifiers.

``sum`` first tries the NumPy path (:mod:`pyopl.lowering.arrays.vectorised`) for the common shapes and
falls back to term-by-term accumulation into one linear form; ``min``/``max`` of decision
expressions are linearised exactly (:mod:`pyopl.lowering.linearise.minmax`).
"""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplSet, is_set, show
from ...syntax import ast as A
from .closure_types import NOT_COVERED
from ..forms.describe import type_word
from ..forms.errors import EvalError
from ..forms.int32 import INT_MAX, INT_MIN, int_bounds, overflow
from ..forms.value_tests import is_number
from ..forms.linear import Leaf, LinExpr, Logic, QuadExpr
from ..linearise.minmax import decision_minmax
from ..cp.scheduling import CumulExpr, cumul_arith
from ..cp.precedence_rows import ELEMENTARY, elementary_sum, presence_sum
from ..arrays import vectorised  # (its `vector_sum` looked up at each call: tests replace it)

INF = float("inf")


class Aggregates:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`."""

    def e_aggregate(self, node: A.Aggregate, env: dict) -> Any:
        op = node.op
        if op == "all":
            from ..cp.constraints import all_outside_cp_call

            raise all_outside_cp_call(node)
        if op == "sum":
            fast = vectorised.vector_sum(self, node, env)  # the common shapes with NumPy; None: term by term
            if fast is None and type(node.body) is A.Call and node.body.func in ELEMENTARY:
                fast = elementary_sum(self, node, env)  # `sum(t in T) pulse(itv[t], t.demand)`: from arrays
            elif fast is None and type(node.body) is A.Call and node.body.func == "presenceOf":
                fast = presence_sum(self, node, env)  # `sum(o in Opts) presenceOf(itv[o])`: from arrays
            if fast is not None:
                return fast
            acc: Any = 0
            owned = False  # (a cumulative function this sum made: its terms extended in place)
            body, run = node.body, self.closure_runner(node.body)  # (`evaluate_fast`, its closure found once)
            for e in self.iterate(node.quals, env, node):
                v = run(e)
                if v is NOT_COVERED:
                    v = self.evaluate(body, e)
                if type(v) is LinExpr and type(acc) is LinExpr:
                    acc.iadd(v)  # the common term, as the general case below adds it
                    continue
                if isinstance(v, bool):
                    v = int(v)
                elif isinstance(v, (Leaf, Logic)):
                    v = self.truth_value(v, node.body)
                if is_number(v) and is_number(acc):
                    acc += v
                elif isinstance(v, (LinExpr, QuadExpr)):
                    if is_number(acc):
                        acc = (QuadExpr(LinExpr(None, float(acc))) if isinstance(v, QuadExpr) else LinExpr(None, float(acc)))
                    if isinstance(v, QuadExpr) and isinstance(acc, LinExpr):
                        acc = QuadExpr(acc)
                    acc.iadd(v)
                elif is_number(v) and isinstance(acc, (LinExpr, QuadExpr)):
                    acc.iadd(v)
                elif owned and type(v) is CumulExpr:
                    acc.terms.extend(v.terms)  # (as `plus` adds them, without copying the sum so far each time)
                elif type(v) is CumulExpr or type(acc) is CumulExpr:
                    made = cumul_arith(node, "+", acc, v)  # a cumulative function: a sum of pulses and steps
                    owned = made is not acc and made is not v
                    acc = made
                else:
                    raise self._aggregate_error(node, v)
            if type(acc) is int and not INT_MIN <= acc <= INT_MAX:
                bounds = int_bounds(self.inst)  # OPL sums ints in 32 bits (64 with `using CP;`)
                if not bounds[0] <= acc <= bounds[1]:
                    raise overflow(acc, node, bounds=bounds)
            return acc
        if op == "prod":
            acc = 1
            for e in self.iterate(node.quals, env, node):
                v = self.evaluate_fast(node.body, e)
                if isinstance(v, (Leaf, Logic)):  # a constraint as its 0/1 value
                    v = self.truth_value(v, node.body)
                acc = self.arith(node, "*", acc, v)
            return acc
        if op in ("min", "max"):
            vals = [self.evaluate_fast(node.body, e) for e in self.iterate(node.quals, env, node)]
            vals = [self.truth_value(v, node.body) if isinstance(v, (Leaf, Logic)) else v for v in vals]
            if any(isinstance(v, (LinExpr, QuadExpr)) for v in vals):
                return decision_minmax(self, node, op, vals)
            for v in vals:
                if not is_number(v):
                    raise self._aggregate_error(node, v)
            if not vals:
                return -INF if op == "max" else INF
            return min(vals) if op == "min" else max(vals)
        if op in ("union", "inter"):
            return self._set_aggregate(node, env)
        # and / or
        vals = [self._as_logic_operand(self.evaluate_fast(node.body, e), node.body) for e in self.iterate(node.quals, env, node)]
        if all(isinstance(v, bool) for v in vals):
            return all(vals) if op == "and" else any(vals)
        rest = [v for v in vals if not isinstance(v, bool)]
        if op == "and":
            return False if any(v is False for v in vals) else Logic("and", rest, node.span)
        return True if any(v is True for v in vals) else Logic("or", rest, node.span)

    def _union_aggregate(self, node: A.Aggregate, env: dict, fold: A.Binary) -> Any:
        """``union(q) S``: the elements of each body set added in order to one set (a fold of binary
        unions would copy the growing set at every step); the work budget counts each body's
        elements, the size limit for computed sets the elements kept."""
        budget = self.inst.budget
        kept: dict = {}
        et = None
        first = True
        for e in self.iterate(node.quals, env):
            s = self.evaluate_fast(node.body, e)
            if not is_set(s):
                self._setop(fold, s, s)  # (its diagnostic: `union` needs sets)
            if first:
                et, first = getattr(s, "elem_type", None), False
            budget.spend(len(s), fold)
            before = len(kept)
            kept.update(dict.fromkeys(s))
            budget.hold(len(kept) - before, fold)
        return OplSet(list(kept), et)

    def _set_aggregate(self, node: A.Aggregate, env: dict) -> Any:
        """``union(q) S`` / ``inter(q) S``: the sets of the body folded left to right with the binary
        operator (an empty iteration gives the empty set)."""
        fold = A.Binary(node.span, node.op, node.body, node.body)  # for `_setop`'s messages
        if node.op == "union":
            return self._union_aggregate(node, env, fold)
        acc = None
        for e in self.iterate(node.quals, env):
            s = self.evaluate_fast(node.body, e)
            acc = s if acc is None else self._setop(fold, acc, s)
            if acc is s:
                acc = self._setop(fold, s, s)  # (checks the body is a set; a copy, never the body's own set)
        return OplSet([]) if acc is None else acc

    def _aggregate_error(self, node: A.Aggregate, v: Any) -> EvalError:
        if isinstance(v, (Leaf, Logic)):
            return EvalError("unsupported-constraint-as-value", node.body.span,
                             "`%s` over constraints is not supported; sum numbers or linear expressions" % node.op,
                             help="introduce a `dvar boolean` per condition and sum those")
        return EvalError("type-bad-operands", node.body.span, "`%s` cannot aggregate %s" % (
            node.op, "the string %s" % show(v) if isinstance(v, str) else "a " + type_word(v)),
            help="the body of `%s` must be numeric" % node.op)

