"""Unary, arithmetic, set and logical operators of the tree walk (OPL manual, "Expressions").

:class:`Operators` is a mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`.  Its value
functions (``arith``, ``unary_value``, ``logical_values``, ``_membership``, ``_setop``) are also
what the closures of :mod:`.compiled` call, so both paths compute every operator the same way.
A constraint used as a number (``truth_value``) becomes a 0/1 column here.
"""
from __future__ import annotations

import math
from typing import Any

from ...semantics.values import ArraySlice, FloatRange, OplArray, OplRange, OplSet, OplTuple, is_set, show
from ...syntax import ast as A
from ..forms.budget import check_power
from .closure_types import NOT_COVERED
from .compiled import COMPOUND
from ..forms.describe import decision_names, type_word
from ..forms.errors import EvalError
from ..forms.int32 import int_bounds, int_result, overflow
from ..forms.value_tests import is_decision, is_number
from ..linearise.cp_arith import cp_divmod, cp_membership, cp_power, cp_power_of_data, cp_product, is_cp
from ..forms.linear import Leaf, LinExpr, Logic, QuadExpr, multiply
from ..linearise.logical import binary_truth, enforce
from ..cp.scheduling import CumulExpr, cumul_arith
from ..forms.shapes import long_spine
from ..forms.symbols import DexprArray, VarArray

INF = float("inf")

class Operators:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`: ``-``, ``!``, ``+ - * / div mod ^``, ``in``, set operators, ``&& || =>``."""

    def e_unary(self, node: A.Unary, env: dict) -> Any:
        return self.unary_value(node, self.evaluate(node.operand, env))

    def unary_value(self, node: A.Unary, v: Any) -> Any:
        """``-v`` or ``!v`` for the operand's value ``v``."""
        if node.op == "-":
            if is_number(v):
                return int_result(-v, node, int_bounds(self.inst)) if type(v) is int else -v
            if isinstance(v, (LinExpr, QuadExpr)):
                return v.scaled(-1.0)
            raise self._operand_error(node, "-", v, node.operand)
        # "!"
        if isinstance(v, bool):
            return not v
        if isinstance(v, (Leaf, Logic)):
            return Logic("not", [v], node.span)
        if isinstance(v, LinExpr):
            return Logic("not", [self._truthy(v, node.operand)], node.span)
        raise self._operand_error(node, "!", v, node.operand)

    def truth_value(self, f: Any, node: A.Node) -> LinExpr:
        """A constraint used as a number (``(x >= 3) + (y >= 3) >= 1``): a binary column ``b`` with
        ``b == 1`` exactly when ``f`` holds, linked by big-M rows (OPL manual, "Constraints as
        expressions"; Williams, *Model Building*, 5th ed., section 9.1.3)."""
        direct = self._binary_of(f)
        if direct is not None:
            return direct
        # (a strict comparison, or the negation of an equality, on a continuous expression holds with
        # CPLEX's eplin margin: see logical.nnf)
        b = self.inst.new_column(0.0, 1.0, True, "#truth", ())
        is_one = Leaf(LinExpr.var(b), 1.0, 1.0, True, node.span)
        enforce(self.inst, Logic("iff", [is_one, f], node.span), self.inst._aux_label, self.inst._aux_key)
        return LinExpr.var(b)

    def _binary_of(self, f: Any) -> LinExpr | None:
        """``b == 1`` (or ``b == 0``) on a boolean column is ``b`` (or ``1 - b``) itself: no new column."""
        if not isinstance(f, Leaf) or f.strict is not None:
            return None
        hit = binary_truth(self.inst, f)
        if hit is None:
            return None
        j, sat0, sat1 = hit
        if sat1 and not sat0:
            return LinExpr.var(j)
        if sat0 and not sat1:
            return LinExpr({j: -1.0}, 1.0)
        return LinExpr(None, 1.0 if sat0 else 0.0)

    def _truthy(self, v: LinExpr, node: A.Expr) -> Leaf:
        """A decision expression used as a condition means `expr != 0`; for a boolean: `== 1`."""
        return Leaf(v, 1.0, INF, self.inst.is_integral(v), node.span, "%s" % "expr")

    def e_binary(self, node: A.Binary, env: dict) -> Any:
        """A binary operator: a long left chain in a loop (:meth:`_fold_chain`), logical ones
        short-circuited, the rest on both operands' values."""
        spine = self._spines.get(node, NOT_COVERED)
        if spine is NOT_COVERED:
            spine = self._spines[node] = long_spine(node)
        if spine is not None:
            return self._fold_chain(spine, env)
        op = node.op
        if op in ("&&", "||", "=>"):
            return self._logical(node, env)
        # An operand that compiles goes through its closure (this node may not: a `sum` beside it);
        # `try_closure` returns before the tree walk starts, so the walk's depth is what it was.
        a, b = node.left, node.right
        left = self.try_closure(a, env) if type(a) in COMPOUND else NOT_COVERED
        if left is NOT_COVERED:
            left = self.evaluate(a, env)
        right = self.try_closure(b, env) if type(b) in COMPOUND else NOT_COVERED
        if right is NOT_COVERED:
            right = self.evaluate(b, env)
        if op in ("in", "not in"):
            return self._membership(node, left, right)
        if op in ("union", "inter", "diff", "symdiff"):
            return self._setop(node, left, right)
        try:
            return self.arith(node, op, left, right)
        except OverflowError:  # an int past every float (`10^400 * x`) met a float or a coefficient
            raise EvalError("number-too-large", node.span, "the value of this expression is larger than any "
                            "floating-point number", help="use values below 1.8e308") from None

    def _fold_chain(self, spine: list[A.Binary], env: dict) -> Any:
        """A long left-associative chain (``a + b + c ...``, ``c1 && c2 ...``; ``spine`` from the
        innermost operator out) evaluated in a loop: the same operations in the same order as the
        recursive walk, without a Python frame per operator. A sum of linear forms is added up in
        place, and a chain of one logical operator gives one flat ``and``/``or`` record."""
        first = spine[0].left
        v = self.try_closure(first, env) if type(first) in COMPOUND else NOT_COVERED
        if v is NOT_COVERED:
            v = self.evaluate(first, env)
        owned = False  # `v` is a LinExpr or Logic made here (safe to extend in place)
        for n in spine:
            op, right = n.op, n.right
            if op in ("&&", "||", "=>"):
                if v is True or v is False:  # short-circuit on data, as `_logical`
                    if op == "&&" and not v:
                        continue
                    if op != "&&" and (v if op == "||" else not v):
                        v = True
                        continue
                r = self.evaluate(right, env)
                lop = "and" if op == "&&" else "or" if op == "||" else None
                if owned and lop and type(v) is Logic and v.op == lop:
                    b = self._as_logic_operand(r, right)
                    if not isinstance(b, bool):
                        v.args.append(b)
                        v.span = n.span
                        continue
                prev, v = v, self.logical_values(n, v, r)
                if v is not prev:  # a new record of the two operands is ours; an operand returned as is is not
                    owned = type(v) is Logic and v.op == lop and len(v.args) == 2 and v is not r
                continue
            r = self.try_closure(right, env) if type(right) in COMPOUND else NOT_COVERED
            if r is NOT_COVERED:
                r = self.evaluate(right, env)
            if op in ("in", "not in"):
                v, owned = self._membership(n, v, r), False
            elif op in ("union", "inter", "diff", "symdiff"):
                v, owned = self._setop(n, v, r), False
            elif owned and (op == "+" or op == "-") and type(v) is LinExpr and (type(r) is LinExpr or type(r) is int
                                                                              or type(r) is float):
                v.iadd(r, 1.0 if op == "+" else -1.0)  # (what `arith` computes on a copy of `v`)
            else:
                v = self.arith(n, op, v, r)
                owned = (op == "+" or op == "-") and type(v) is LinExpr
        return v

    def arith(self, node: A.Binary, op: str, a: Any, b: Any) -> Any:
        """``a op b`` for the operands' values: numbers (OPL's 32-bit ints), strings joined by ``+``, or
        linear and quadratic forms; a constraint operand is used as its 0/1 value."""
        if isinstance(a, bool):
            a = int(a)
        if isinstance(b, bool):
            b = int(b)
        if is_number(a) and is_number(b):
            return self._numeric(node, op, a, b)
        if type(a) is CumulExpr or type(b) is CumulExpr:
            return cumul_arith(node, op, a, b)
        if op == "+" and isinstance(a, str) and isinstance(b, (str, int, float)):
            return self.inst.budget.check_string(a + (b if isinstance(b, str) else show(b)), node)
        if op == "+" and isinstance(b, str) and is_number(a):
            return self.inst.budget.check_string(show(a) + b, node)
        if isinstance(a, (Leaf, Logic)):
            a = self.truth_value(a, node.left)
        if isinstance(b, (Leaf, Logic)):
            b = self.truth_value(b, node.right)
        lin_a = is_decision(a) or is_number(a)
        lin_b = is_decision(b) or is_number(b)
        if not (lin_a and lin_b):
            bad, bad_node = (a, node.left) if not lin_a else (b, node.right)
            raise self._operand_error(node, op, bad, bad_node)
        if op in ("+", "-"):
            sign = 1.0 if op == "+" else -1.0
            if isinstance(a, QuadExpr) or isinstance(b, QuadExpr):
                out = a.copy() if isinstance(a, QuadExpr) else QuadExpr(a.copy() if isinstance(a, LinExpr) else LinExpr(None, a))
                return out.iadd(b if not isinstance(b, LinExpr) else QuadExpr(b), sign) if isinstance(b, QuadExpr) else out.iadd(b, sign)
            out = a.copy() if isinstance(a, LinExpr) else LinExpr(None, float(a))
            return out.iadd(b, sign)
        if op == "*":
            if is_number(a):
                return b.scaled(a)
            if is_number(b):
                return a.scaled(b)
            if isinstance(a, LinExpr) and isinstance(b, LinExpr):
                if a.is_constant:
                    return b.scaled(a.const)
                if b.is_constant:
                    return a.scaled(b.const)
                if is_cp(self.inst):  # CP-SAT's multiplication equality (pyopl/lowering/linearise/cp_arith.py)
                    return cp_product(self.inst, a, b, node.span)
                return multiply(a, b)
            raise self._nonlinear(node, "a product of decision expressions of degree above 2")
        if op == "/":
            if is_number(b):
                if b == 0:
                    raise EvalError("division-by-zero", node.right.span, "division by zero",
                                    help="check the data: this divisor evaluates to 0")
                return a.scaled(1.0 / b)
            if isinstance(b, LinExpr) and b.is_constant and b.const != 0:
                return a.scaled(1.0 / b.const) if is_decision(a) else a / b.const
            names = [n for n in decision_names(node.right) if self.inst.is_dvar_name(n, {})]
            raise EvalError("nonlinear-division", node.span,
                            "division by the decision expression %s is not linear" % (
                                ", ".join("`%s`" % n for n in names) or "on the right"),
                            help=("`/` is float division, which CP-SAT (integers only) cannot represent: for the "
                                  "integer quotient write `x div y`, or multiply out (`x >= 2 * y` for `x / y >= 2`)")
                            if is_cp(self.inst) else "multiply both sides of the constraint by the divisor (valid "
                            "when it is positive), e.g. `x >= 2 * y` instead of `x / y >= 2`")
        if op == "^":
            if is_cp(self.inst) and isinstance(a, LinExpr) and is_number(b):
                return cp_power(self.inst, a, b, node.span)
            if is_cp(self.inst) and is_number(a) and isinstance(b, LinExpr):
                return cp_power_of_data(self.inst, a, b, node.span)
            if is_number(b) and b == 2 and isinstance(a, LinExpr):
                return multiply(a, a)
            if is_number(b) and b == 1:
                return a
            if is_number(b) and b == 0:
                return 1
            raise self._nonlinear(node, "a power of a decision expression other than 2")
        if op in ("div", "mod") and is_cp(self.inst) and not isinstance(a, QuadExpr) and not isinstance(b, QuadExpr):
            a = a if isinstance(a, LinExpr) else LinExpr(None, float(a))
            b = b if isinstance(b, LinExpr) else LinExpr(None, float(b))
            if a.is_constant and b.is_constant:
                return self._numeric(node, op, int(a.const), int(b.const))
            return cp_divmod(self.inst, op, a, b, node.span)
        raise self._nonlinear(node, "`%s` applied to a decision expression" % op)

    def _numeric(self, node: A.Binary, op: str, a: float, b: float) -> Any:
        if type(a) is int and type(b) is int and op in ("+", "-", "*", "div", "^"):
            return self._int_arith(node, op, a, b)
        return self._float_arith(node, op, a, b)

    def _int_arith(self, node: A.Binary, op: str, a: int, b: int) -> Any:
        """``a op b`` for two ints, in OPL's 32-bit `int` (64 bits with ``using CP;``, :mod:`pyopl.lowering.forms.int32`)."""
        bounds = int_bounds(self.inst)
        if op == "^" and b >= 0:
            if abs(a) >= 2 and b >= 64:  # out of range for sure: not computed (2 ** 10 ** 9 would be slow)
                raise overflow(2 ** 64 if a > 0 or b % 2 == 0 else -(2 ** 64), node,
                               "%sat least 2^%d" % ("" if a > 0 or b % 2 == 0 else "negative, ", b), bounds)
            return int_result(a ** b, node, bounds)
        v = self._float_arith(node, op, a, b)
        return int_result(v, node, bounds) if type(v) is int else v

    def _float_arith(self, node: A.Binary, op: str, a: float, b: float) -> Any:
        try:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                if b == 0:
                    raise EvalError("division-by-zero", node.right.span, "division by zero",
                                    help="check the data: this divisor evaluates to 0")
                return a / b
            if op == "div":
                if b == 0:
                    raise EvalError("division-by-zero", node.right.span, "integer division by zero",
                                    help="check the data: this divisor evaluates to 0")
                if not (float(a).is_integer() and float(b).is_integer()):
                    raise EvalError("type-int-expected", node.span, "`div` needs integer operands, got %s and %s" % (
                        show(a), show(b)), help="use `/` for real division, or `floor(a / b)`")
                q = abs(int(a)) // abs(int(b))
                return q if (a >= 0) == (b >= 0) else -q
            if op == "mod":
                if b == 0:
                    raise EvalError("division-by-zero", node.right.span, "`mod` by zero",
                                    help="check the data: this divisor evaluates to 0")
                r = math.fmod(a, b)
                return int(r) if isinstance(a, int) and isinstance(b, int) else r
            if op == "^":
                check_power(node, a, b)  # (before computing: `3 ^ 100000000` would take minutes)
                return a ** b
        except OverflowError:
            raise EvalError("value-overflow", node.span, "this arithmetic overflows", help="check the data's magnitude")
        except ZeroDivisionError:
            raise EvalError("division-by-zero", node.span, "zero raised to a negative power",
                            help="check the data")
        raise EvalError("type-bad-operands", node.span, "`%s` cannot be applied to numbers" % op,
                        help="use a set operator on sets only")

    def _operand_error(self, node: A.Node, op: str, v: Any, operand: A.Node) -> EvalError:
        what = "the string %s" % show(v) if isinstance(v, str) else "a " + type_word(v)
        if isinstance(v, (OplArray, ArraySlice, VarArray, DexprArray)):
            what = "the array `%s` without all its indices" % v.name
            return EvalError("index-missing", operand.span, "`%s` needs more indices before `%s` can use it" % (v.name, op),
                             help="index it fully, e.g. `%s[i]`" % v.name)
        return EvalError("type-bad-operands", operand.span, "`%s` cannot be applied to %s" % (op, what),
                         help="both operands of `%s` must be numbers or linear expressions" % op)

    def _nonlinear(self, node: A.Binary, what: str) -> EvalError:
        return EvalError("nonlinear-expression", node.span, "%s is not linear" % what,
                         help="reformulate with auxiliary variables; HiGHS solves linear and mixed-integer models "
                              "(and convex quadratic objectives)")

    def _membership(self, node: A.Binary, v: Any, s: Any) -> bool:
        ts, tv = type(s), type(v)
        if (ts is OplSet or ts is OplRange) and (tv is int or tv is str or tv is OplTuple or tv is float):
            result = v in s  # a plain value in a set: the checks below cannot fail
            if not result and tv is int and ts is OplSet and s.elem_type == "float":
                result = float(v) in s
            return result if node.op == "in" else not result
        if is_decision(v) and is_cp(self.inst) and isinstance(v, LinExpr) and (ts is OplSet or ts is OplRange):
            return cp_membership(self.inst, v, s, node.op != "in", node.span)  # pyopl/lowering/linearise/cp_arith.py
        if is_decision(v):
            raise EvalError("decision-in-membership", node.left.span,
                            "membership of a decision expression in a set cannot be tested",
                            help="use a binary selection variable per set element instead")
        if not (is_set(s) or isinstance(s, FloatRange)):
            raise EvalError("type-expected-set", node.right.span, "the right side of `%s` must be a set, not %s" % (
                node.op, "a " + type_word(s)), help="use a set or a range")
        result = v in s
        if not result and isinstance(v, int) and isinstance(s, OplSet) and s.elem_type == "float":
            result = float(v) in s
        return result if node.op == "in" else not result

    def _setop(self, node: A.Binary, a: Any, b: Any) -> OplSet:
        for v, n in ((a, node.left), (b, node.right)):
            if not is_set(v):
                raise EvalError("type-expected-set", n.span, "`%s` needs sets on both sides, not %s" % (
                    node.op, "a " + type_word(v)), help="use set expressions on both sides")
        budget = self.inst.budget
        budget.spend(len(a) + len(b), node)  # (a set built from two ranges of 10^9 elements)
        budget.hold(_setop_size(node.op, a, b, budget.room()), node)  # (before its memory is spent)
        et = getattr(a, "elem_type", None)
        if node.op == "union":
            return OplSet(list(a) + list(b), et)
        if node.op == "inter":
            return OplSet([x for x in a if x in b], et)
        if node.op == "diff":
            return OplSet([x for x in a if x not in b], et)
        return OplSet([x for x in a if x not in b] + [x for x in b if x not in a], et)

    def _logical(self, node: A.Binary, env: dict) -> Any:
        a = self.evaluate(node.left, env)
        # Short-circuit on data, as OPL does in filters (`i > 1 && x[i-1] ...`).
        if isinstance(a, bool):
            if node.op == "&&" and not a:
                return False
            if node.op == "||" and a:
                return True
            if node.op == "=>" and not a:
                return True
        return self.logical_values(node, a, self.evaluate(node.right, env))

    def logical_values(self, node: A.Binary, a: Any, b: Any) -> Any:
        """``a && b``, ``a || b`` or ``a => b`` for the operands' values (``a`` did not short-circuit)."""
        a = self._as_logic_operand(a, node.left)
        b = self._as_logic_operand(b, node.right)
        if isinstance(a, bool) and isinstance(b, bool):
            return {"&&": a and b, "||": a or b, "=>": (not a) or b}[node.op]
        if isinstance(a, bool):
            if node.op == "&&":
                return b if a else False
            if node.op == "||":
                return True if a else b
            return b if a else True
        if isinstance(b, bool):
            if node.op == "&&":
                return a if b else False
            if node.op == "||":
                return True if b else a
            return True if b else Logic("not", [a], node.span)
        op = {"&&": "and", "||": "or", "=>": "implies"}[node.op]
        return Logic(op, [a, b], node.span)

    def _as_logic_operand(self, v: Any, n: A.Node) -> Any:
        if isinstance(v, (bool, Leaf, Logic)):
            return v
        if isinstance(v, LinExpr):
            return self._truthy(v, n)
        if is_number(v):
            return v != 0
        if type(v).__name__ == "QuadLeaf":
            raise EvalError("nonlinear-product", v.span, "a quadratic constraint cannot be part of a logical constraint",
                            help="state it on its own, or linearise the product")
        if type(v).__name__ == "CpConstraint":
            what = "`%s`" % n.func if isinstance(n, A.Call) else "this CP constraint"
            raise EvalError("unsupported-cp-construct", n.span, "%s inside a logical constraint (`=>`, `&&`, `||`, "
                            "`!`) is not compiled to CP-SAT yet" % what,
                            help="state it on its own; a precedence between optional intervals already holds only "
                                 "when both are present")
        raise EvalError("type-not-boolean", n.span, "a logical operator needs conditions, but this is %s" % (
            "a " + type_word(v)), help="compare it, e.g. `x == 1`")




def _setop_size(op: str, a: Any, b: Any, room: int) -> int:
    """The number of elements ``a op b`` will hold: its bound (``|a| + |b|`` for ``union`` and
    ``symdiff``, ``min`` for ``inter``, ``|a|`` for ``diff``) when that fits in ``room``, else
    counted by scanning the operands (no set is built)."""
    bound = {"union": len(a) + len(b), "inter": min(len(a), len(b)), "diff": len(a)}.get(op, len(a) + len(b))
    if bound <= room:
        return bound
    if op == "union":
        return len(a) + sum(1 for x in b if x not in a)
    if op == "inter":
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        return sum(1 for x in small if x in big)
    if op == "diff":
        return sum(1 for x in a if x not in b)
    return sum(1 for x in a if x not in b) + sum(1 for x in b if x not in a)
