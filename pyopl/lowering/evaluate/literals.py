"""Literal values of the tree walk: ranges ``a..b``, array literals and comprehensions (positional
and keyed), set literals and comprehensions, tuple literals.

:class:`Literals` is a mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`.
"""
from __future__ import annotations

import math
from typing import Any

from ...data.convert import PartialArray
from ...semantics.values import FloatRange, OplArray, OplRange, OplSet, OplTuple, infer_elem_type
from ...syntax import ast as A
from .closure_types import NOT_COVERED
from ..forms.errors import EvalError
from ..forms.linear import Leaf, LinExpr, Logic, QuadExpr

class Literals:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`: range, array, set and tuple literals and comprehensions."""

    def e_range(self, node: A.RangeLit, env: dict) -> Any:
        lo = self.eval_number(node.lo, env, "the lower end of a range")
        hi = self.eval_number(node.hi, env, "the upper end of a range")
        if isinstance(lo, float) and not lo.is_integer() or isinstance(hi, float) and not hi.is_integer():
            return FloatRange(lo, hi)
        if math.isinf(lo) or math.isinf(hi):
            return FloatRange(lo, hi)
        return OplRange(int(lo), int(hi))

    def e_array_lit(self, node: A.ArrayLit, env: dict) -> list:
        out = _SpannedList(self.evaluate(i, env) for i in node.items)
        out.span = node.span
        return out

    def e_keyed(self, node: A.KeyedArrayLit, env: dict) -> dict:
        return {self._key(self.evaluate(k, env)): self.evaluate(v, env) for k, v in node.pairs}

    @staticmethod
    def _key(k: Any) -> Any:
        return k

    def e_array_comp(self, node: A.ArrayComp, env: dict) -> Any:
        if node.key is None:
            out = _SpannedList(self.evaluate(node.value, e) for e in self.iterate(node.quals, env, node))
            out.span = node.span
            return out
        out = PartialArray()
        for e in self.iterate(node.quals, env, node):
            k, v = self.evaluate(node.key, e), self.evaluate(node.value, e)
            if isinstance(v, dict) and isinstance(out.get(k), dict):
                out[k].update(v)  # `[i : [j : v] | i, j in S]`: cells of row i gathered over j
            else:
                out[k] = PartialArray(v) if isinstance(v, dict) else v
        return out

    def e_set_lit(self, node: A.SetLit, env: dict) -> OplSet:
        items = [self.eval_data(i, env, "a set element") for i in node.items]
        return OplSet(items, infer_elem_type(items))

    def e_set_comp(self, node: A.SetComp, env: dict) -> OplSet:
        value, run, items = node.value, self.closure_runner(node.value), []
        bound = value.id if type(value) is A.Name else None  # `{i | i in S : ...}`: read as `e_name` reads it
        budget, counted = self.inst.budget, 0
        bindings = self.iterate(node.quals, env, node)
        size, exact = self.upfront  # every binding makes an element (no filter): refused before the first
        if exact and size > budget.room():
            budget.hold(size, node)
        for e in bindings:
            if len(items) - counted >= _HOLD_EVERY:  # the elements kept so far count as they grow
                budget.hold(len(items) - counted, node, made=len(items))
                counted = len(items)
            v = e.get(bound, NOT_COVERED)
            if v is NOT_COVERED:
                v = run(e)  # (the element through its closure; the tree walk when it has none or for a decision)
            if v is NOT_COVERED or isinstance(v, (LinExpr, QuadExpr, Leaf, Logic)):
                v = self.eval_data(value, e, "a set element")
            items.append(v)
        budget.hold(len(items) - counted, node)
        return OplSet(items, infer_elem_type(items))

    def e_tuple_lit(self, node: A.TupleLit, env: dict) -> OplTuple:
        vals = [self.eval_data(i, env, "a tuple element") for i in node.items]
        for item, v in zip(node.items, vals):
            if isinstance(v, (list, dict, set, OplArray)):
                raise EvalError("tuple-field-not-scalar", item.span, "a tuple component must be a single value, "
                                "but this is an array or a set", help="give one number or string per tuple field")
        return OplTuple(vals)

#: elements a set comprehension keeps between two counts against Limits.max_set_elements
_HOLD_EVERY = 4096


class _SpannedList(list):
    """An array literal's values, remembering where it was written."""

    span = None
