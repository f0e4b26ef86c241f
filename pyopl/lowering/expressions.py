"""Evaluate OPL expressions over data and decision variables.

Data expressions give Python values (numbers, strings, :mod:`values`);
expressions over decisions give :class:`LinExpr`/:class:`QuadExpr`;
comparisons over decisions give constraint records (:class:`Leaf`,
:class:`Logic`).  Every user mistake raises :class:`EvalError` with the
span of the offending node.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from ..diagnostics.reporter import did_you_mean
from ..syntax import ast as A
from ..semantics.values import (ArraySlice, FloatRange, OplArray, OplRange, OplSet, OplTuple, is_set,
                                show, elem_kind, infer_elem_type, same_kind)
from ..data.convert import PartialArray
from .aggregates import Aggregates
from .compiled import COMPOUND, NOT_COVERED, NUMBER_COMPARE, Compiled
from .budget import check_power
from .errors import EvalError
from .int32 import int_result, overflow
from .tupleindex import check_tuple_index, foreign_tuple
from .iteration import Iteration
from .symbols import DexprArray, DexprScalar, VarArray  # noqa: F401  (re-exported)
from .describe import decision_names, type_word  # noqa: F401  (re-exported: other modules import them from here)
from .linear import Leaf, LinExpr, Logic, QuadExpr, multiply

INF = float("inf")
MAX_ITERATIONS = 50_000_000  # one iteration domain larger than this is refused before looping


def is_number(v: Any) -> bool:
    t = type(v)
    if t is int or t is float:  # (the common case, without the two isinstance calls)
        return True
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_decision(v: Any) -> bool:
    return isinstance(v, (LinExpr, QuadExpr))


_PLAIN_INDEX = (int, str, OplTuple)  # index values that `index_one` uses as they are when in the set


#: A left-associative chain with more operators than this is evaluated in a loop (`Evaluator._fold_chain`);
#: shorter ones keep the recursive walk, which tries each operand's closure.
CHAIN_LOOP = 24


def long_spine(node: A.Binary) -> list[A.Binary] | None:
    """The operators of ``node``'s left spine from the innermost out, when there are more than
    :data:`CHAIN_LOOP` of them; None otherwise."""
    spine, n = [], node
    while n.__class__ is A.Binary:
        spine.append(n)
        n = n.left
    if len(spine) <= CHAIN_LOOP:
        return None
    spine.reverse()
    return spine


def _index_chain(node: A.Index) -> tuple[A.Expr, list[tuple[A.Index, A.Expr]]]:
    """``a[i][j]`` -> (``a``, [(node holding ``i``, ``i``), (node holding ``j``, ``j``)]), left to right."""
    steps: list[tuple[A.Index, A.Expr]] = []
    n: A.Expr = node
    while isinstance(n, A.Index):
        steps[:0] = [(n, i) for i in n.indices]
        n = n.base
    return n, steps


class Evaluator(Iteration, Aggregates, Compiled):
    """Expression evaluation against the instance's symbol table.

    ``lookup(name)`` returns a global value; ``env`` holds iterator variables.
    ``var_info(col)`` gives ``(lower, upper, is_integer)`` of a column.
    """

    def __init__(self, instance: Any):
        self.inst = instance
        self._index_chains: dict[int, tuple] = {}  # id(Index node) -> (node, *_index_chain(node))
        self._builtins: Any = None  # the module builtins.py, once a call has been evaluated
        self._closures: dict[A.Expr, list] = {}  # node -> [closure or None, times it fell back] (see compiled.py)
        self._runners: dict[A.Expr, Callable] = {}  # node -> its `closure_runner` (see compiled.py)
        self._binder_scopes: dict[A.Qualifiers, list[bool]] = {}  # (see iteration.py)
        self._spines: dict[A.Binary, list | None] = {}  # node -> its long left spine, or None (see `long_spine`)
        self._dispatch: dict[type, Callable[[Any, dict], Any]] = {
            A.Const: self.e_const, A.Name: self.e_name, A.Unary: self.e_unary, A.Binary: self.e_binary,
            A.Compare: self.e_compare, A.Conditional: self.e_conditional, A.RangeLit: self.e_range,
            A.Index: self.e_index, A.Field: self.e_field, A.Call: self.e_call, A.Cast: self.e_cast,
            A.ArrayLit: self.e_array_lit, A.ArrayComp: self.e_array_comp, A.SetLit: self.e_set_lit,
            A.SetComp: self.e_set_comp, A.TupleLit: self.e_tuple_lit, A.KeyedArrayLit: self.e_keyed,
            A.Aggregate: self.e_aggregate, A.Piecewise: self.e_piecewise, A.External: self.e_external,
        }

    # ------------------------------------------------------------------ entry points
    def evaluate(self, node: A.Expr, env: dict) -> Any:
        return self._dispatch[type(node)](node, env)

    def eval_data(self, node: A.Expr, env: dict, what: str) -> Any:
        """Evaluate an expression that must not involve decisions (``what`` says where it is)."""
        v = self.evaluate(node, env)
        if is_decision(v) or isinstance(v, (Leaf, Logic)):
            names = [n for n in decision_names(node) if self.inst.is_dvar_name(n, env)]
            raise EvalError("decision-in-data", node.span,
                            "%s cannot depend on the decision variable%s %s" % (
                                what, "s" if len(names) > 1 else "", ", ".join("`%s`" % n for n in names) or "used here"),
                            help="declare it as a `dexpr` instead, or move the condition into a constraint "
                                 "(for example with `=>`)")
        return v

    def eval_bool(self, node: A.Expr, env: dict, what: str) -> bool:
        v = self.eval_data(node, env, what)
        if not isinstance(v, bool):
            raise EvalError("type-not-boolean", node.span, "%s must be a condition, but this is %s" % (
                what, "a " + type_word(v) if not isinstance(v, (int, float)) else "the number %s" % show(v)),
                help="write a comparison such as `i != j` or `x[i] > 0`")
        return v

    def eval_number(self, node: A.Expr, env: dict, what: str) -> float:
        v = self.eval_data(node, env, what)
        if isinstance(v, bool):
            return int(v)
        if not is_number(v):
            raise EvalError("type-expected-number", node.span, "%s must be a number, but this is %s" % (
                what, "the string %s" % show(v) if isinstance(v, str) else "a " + type_word(v)),
                help="use a numeric expression here")
        return v

    def eval_set(self, node: A.Expr, env: dict, what: str = "the iteration domain") -> Any:
        v = self.eval_data(node, env, what)
        if not is_set(v):
            if isinstance(v, (OplArray, ArraySlice, VarArray)):
                raise EvalError("type-expected-set", node.span,
                                "%s must be a set or a range, but `%s` is an array" % (what, v.name),
                                help="iterate over the array's index set instead")
            raise EvalError("type-expected-set", node.span, "%s must be a set or a range, but this is %s" % (
                what, "a " + type_word(v)), help="use a range such as `1..n` or a set name")
        if isinstance(v, OplRange) and len(v) > MAX_ITERATIONS:
            raise EvalError("limit-too-large", node.span, "the range %s has %d elements, more than pyopl will iterate (%d)" % (
                show(v), len(v), MAX_ITERATIONS), help="check the bounds of the range; a model this large "
                "would exhaust memory")
        return v

    # ------------------------------------------------------------------ atoms
    def e_const(self, node: A.Const, env: dict) -> Any:
        return node.value

    def e_external(self, node: A.External, env: dict) -> Any:
        raise EvalError("data-external-in-expression", node.span, "`...` can only be the whole initializer of a declaration",
                        help="write `type name = ...;` and give the value in a data file")

    def e_name(self, node: A.Name, env: dict) -> Any:
        if node.id in env:
            return env[node.id]
        return self.inst.lookup(node.id, node.span)

    def e_unary(self, node: A.Unary, env: dict) -> Any:
        return self.unary_value(node, self.evaluate(node.operand, env))

    def unary_value(self, node: A.Unary, v: Any) -> Any:
        """``-v`` or ``!v`` for the operand's value ``v``."""
        if node.op == "-":
            if is_number(v):
                return int_result(-v, node) if type(v) is int else -v
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
        from .logical import enforce

        direct = self._binary_of(f)
        if direct is not None:
            return direct
        bad = _inexact_leaf(f)
        if bad is not None:
            raise EvalError("unsupported-constraint-as-value", node.span,
                            "this constraint cannot be used as a 0/1 value: its %s on a continuous expression has "
                            "no exact linear form" % ("negation (`!=`)" if bad.strict is None else "strict inequality"),
                            help="use `<=`/`>=` on continuous expressions, or integer variables, inside a constraint "
                                 "used as a number")
        b = self.inst.new_column(0.0, 1.0, True, "#truth", ())
        is_one = Leaf(LinExpr.var(b), 1.0, 1.0, True, node.span)
        enforce(self.inst, Logic("iff", [is_one, f], node.span), self.inst._aux_label, self.inst._aux_key)
        return LinExpr.var(b)

    def _binary_of(self, f: Any) -> LinExpr | None:
        """``b == 1`` (or ``b == 0``) on a boolean column is ``b`` (or ``1 - b``) itself: no new column."""
        from .logical import binary_truth

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

    # ------------------------------------------------------------------ operators
    def e_binary(self, node: A.Binary, env: dict) -> Any:
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
        if isinstance(a, bool):
            a = int(a)
        if isinstance(b, bool):
            b = int(b)
        if is_number(a) and is_number(b):
            return self._numeric(node, op, a, b)
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
                            help="multiply both sides of the constraint by the divisor (valid when it is "
                                 "positive), e.g. `x >= 2 * y` instead of `x / y >= 2`")
        if op == "^":
            if is_number(b) and b == 2 and isinstance(a, LinExpr):
                return multiply(a, a)
            if is_number(b) and b == 1:
                return a
            if is_number(b) and b == 0:
                return 1
            raise self._nonlinear(node, "a power of a decision expression other than 2")
        raise self._nonlinear(node, "`%s` applied to a decision expression" % op)

    def _numeric(self, node: A.Binary, op: str, a: float, b: float) -> Any:
        if type(a) is int and type(b) is int and op in ("+", "-", "*", "div", "^"):
            return self._int_arith(node, op, a, b)
        return self._float_arith(node, op, a, b)

    def _int_arith(self, node: A.Binary, op: str, a: int, b: int) -> Any:
        """``a op b`` for two ints, in OPL's 32-bit `int` (:mod:`.int32`)."""
        if op == "^" and b >= 0:
            if abs(a) >= 2 and b >= 64:  # out of range for sure: not computed (2 ** 10 ** 9 would be slow)
                raise overflow(2 ** 64 if a > 0 or b % 2 == 0 else -(2 ** 64), node,
                               "%sat least 2^%d" % ("" if a > 0 or b % 2 == 0 else "negative, ", b))
            return int_result(a ** b, node)
        v = self._float_arith(node, op, a, b)
        return int_result(v, node) if type(v) is int else v

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
        self.inst.budget.spend(len(a) + len(b), node)  # (a set built from two ranges of 10^9 elements)
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
        raise EvalError("type-not-boolean", n.span, "a logical operator needs conditions, but this is %s" % (
            "a " + type_word(v)), help="compare it, e.g. `x == 1`")

    def e_compare(self, node: A.Compare, env: dict) -> Any:
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
                    from .quadratic import QuadLeaf
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
        ta, tb = type(a), type(b)
        if (ta is LinExpr and (tb is LinExpr or tb is float or tb is int)) or (tb is LinExpr and (ta is float or ta is int)):
            return self._linear_compare(node, op, a, b)  # the common row: every check below would pass
        if isinstance(a, bool) and (is_number(b) or is_decision(b)):
            a = int(a)
        if isinstance(b, bool) and (is_number(a) or is_decision(a)):
            b = int(b)
        if is_number(a) and is_number(b):
            return NUMBER_COMPARE[op](a, b)
        if is_decision(a) or is_decision(b):
            if not ((is_decision(a) or is_number(a)) and (is_decision(b) or is_number(b))):
                bad, bn = (b, nb) if is_decision(a) else (a, na)
                raise EvalError("type-bad-comparison", bn.span, "a decision expression cannot be compared with %s" % (
                    "the string %s" % show(bad) if isinstance(bad, str) else "a " + type_word(bad)),
                    help="compare with a number or a linear expression")
            if isinstance(a, QuadExpr) or isinstance(b, QuadExpr):
                from .quadratic import QuadLeaf, product_site
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

    def _linear_compare(self, node: A.Node, op: str, a: Any, b: Any) -> Any:
        """``a op b`` with linear expressions or numbers on both sides, at least one a LinExpr."""
        # (each side is a LinExpr or a number here)
        if (not isinstance(a, LinExpr) and math.isinf(a)) or (not isinstance(b, LinExpr) and math.isinf(b)):
            return _infinite_bound(op, a, b)
        e = a.copy() if isinstance(a, LinExpr) else LinExpr(None, float(a))
        e.iadd(b, -1.0)
        integral = self.inst.is_integral(e)
        if op in ("<", ">"):
            if not integral:
                better = "<=" if op == "<" else ">="
                span = node.op_spans[0] if isinstance(node, A.Compare) and node.op_spans else node.span
                from ..diagnostics.diagnostic import Edit, Fix
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

    def e_conditional(self, node: A.Conditional, env: dict) -> Any:
        c = self.evaluate(node.cond, env)
        if isinstance(c, (Leaf, Logic, LinExpr)):
            raise EvalError("decision-in-condition", node.cond.span,
                            "the condition of `?:` depends on decision variables",
                            help="use a logical constraint with `=>` instead of a conditional expression")
        if not isinstance(c, bool):
            if is_number(c):
                c = c != 0
            else:
                raise EvalError("type-not-boolean", node.cond.span, "the condition of `?:` must be a boolean, not %s" % (
                    "a " + type_word(c)), help="write a comparison")
        return self.evaluate(node.then if c else node.other, env)

    def e_range(self, node: A.RangeLit, env: dict) -> Any:
        lo = self.eval_number(node.lo, env, "the lower end of a range")
        hi = self.eval_number(node.hi, env, "the upper end of a range")
        if isinstance(lo, float) and not lo.is_integer() or isinstance(hi, float) and not hi.is_integer():
            return FloatRange(lo, hi)
        if math.isinf(lo) or math.isinf(hi):
            return FloatRange(lo, hi)
        return OplRange(int(lo), int(hi))

    # ------------------------------------------------------------------ indexing
    def e_index(self, node: A.Index, env: dict) -> Any:
        """``a[i][j]`` (or ``a[i, j]``): the root and the indices are evaluated left to right and applied
        one at a time by :meth:`index_one`; a full index into a data or dvar array whose every index
        is an int, string or tuple of its set is looked up directly (the same result, without slices)."""
        chain = self._index_chains.get(id(node))
        if chain is None or chain[0] is not node:
            chain = self._index_chains[id(node)] = (node, *_index_chain(node))
        _node, root, steps = chain
        base = self.evaluate(root, env)
        done: list = []
        if type(base) in (OplArray, VarArray) and len(steps) == len(base.dims):
            for (owner, idx_node), domain in zip(steps, base.dims):
                idx = self.evaluate(idx_node, env)
                done.append(idx)
                if type(idx) not in _PLAIN_INDEX or idx not in domain or foreign_tuple(idx, domain):
                    break
            else:
                key = tuple(done)
                if type(base) is VarArray:
                    col = base.cols.get(key)
                    if col is not None:
                        return LinExpr({col: 1.0}, 0.0)
                elif key in base.data:
                    return base.data[key]
        for k, (owner, idx_node) in enumerate(steps):
            idx = done[k] if k < len(done) else self.evaluate(idx_node, env)
            base = self.index_one(owner, base, idx, idx_node, env)
        return base

    def index_one(self, node: A.Index, base: Any, idx: Any, idx_node: A.Node, env: dict) -> Any:
        if is_decision(idx) or isinstance(idx, (Leaf, Logic)):
            raise EvalError("decision-as-index", idx_node.span,
                            "a decision variable cannot be used as an array index",
                            help="use binary selection variables: `sum(k in K) a[k] * select[k]` with "
                                 "`sum(k in K) select[k] == 1`")
        if isinstance(idx, bool):
            idx = int(idx)
        if isinstance(base, ArraySlice):
            arr, prefix = base.array, base.prefix
        elif isinstance(base, (OplArray, VarArray, DexprArray)):
            arr, prefix = base, ()
        elif isinstance(base, OplSet):  # lookup of a tuple by its key: Arcs[<"a","b">]
            return self._set_lookup(node, base, idx, idx_node)
        else:
            name = node.base.id if isinstance(node.base, A.Name) else None
            raise EvalError("index-not-array", node.base.span, "%s is not an array and cannot be indexed" % (
                "`%s`" % name if name else "this " + type_word(base)),
                help="remove the `[...]`, or declare `%s` as an array" % (name or "it"))
        dim = len(prefix)
        if dim >= len(arr.dims):
            raise EvalError("index-too-many", idx_node.span, "`%s` has %d dimension%s but is indexed %d times" % (
                arr.name, len(arr.dims), "" if len(arr.dims) == 1 else "s", dim + 1),
                help="remove the extra index")
        domain = arr.dims[dim]
        idx = self._check_index(node, arr, domain, idx, idx_node, env, dim)
        key = prefix + (idx,)
        if len(key) < len(arr.dims):
            return ArraySlice(arr, key)
        return self._element(arr, key, node, idx_node, env)

    def _check_index(self, node: A.Index, arr: Any, domain: Any, idx: Any, idx_node: A.Node, env: dict, dim: int) -> Any:
        check_tuple_index(arr.name, domain, idx, idx_node)
        if idx in domain:
            if isinstance(domain, OplRange) and isinstance(idx, float):
                return int(idx)
            return idx
        if isinstance(domain, OplSet) and isinstance(idx, tuple) and not isinstance(idx, OplTuple):
            pass
        if isinstance(domain, OplSet):
            if isinstance(idx, OplTuple) or isinstance(idx, tuple):
                hit = domain.by_key(tuple(idx))
                if hit is not None:
                    return hit
            if isinstance(idx, int) and float(idx) in domain:
                return float(idx)
        got = type_word(idx)
        loop = ", ".join("%s = %s" % (k, show(v)) for k, v in env.items() if not k.startswith("$"))
        notes = ["the loop values here: %s" % loop] if loop else []
        kind = elem_kind(domain)
        if kind and not same_kind(kind, idx):
            raise EvalError("index-wrong-type", idx_node.span,
                            "`%s` is indexed by %s values, but %s is %s" % (
                                arr.name, kind, show(idx), "a " + got if got != "int" else "an int"),
                            notes=notes, help="use an index from %s" % show(domain))
        hint = did_you_mean(idx, [x for x in domain if isinstance(x, str)]) if isinstance(idx, str) and isinstance(domain, OplSet) else None
        raise EvalError("index-out-of-set", idx_node.span,
                        "%s is not in the index set %s of `%s`%s" % (
                            show(idx), show(domain), arr.name, " (dimension %d)" % (dim + 1) if len(arr.dims) > 1 else ""),
                        notes=notes, help=hint or "use a value from the index set, or filter the loop so it stays inside it")

    def _element(self, arr: Any, key: tuple, node: A.Node, idx_node: A.Node, env: dict) -> Any:
        if isinstance(arr, VarArray):
            col = arr.cols.get(key)
            if col is None:
                raise EvalError("index-out-of-set", idx_node.span, "`%s%s` does not exist: the variable is not defined "
                                "for this index" % (arr.name, "".join("[%s]" % show(k) for k in key)),
                                help="check the filter of the variable's index set")
            return LinExpr.var(col)
        if isinstance(arr, DexprArray):
            return self.inst.dexpr_value(arr, key, node)
        try:
            return arr.data[key]
        except KeyError:
            raise EvalError("data-missing-element", idx_node.span, "`%s%s` has no value" % (
                arr.name, "".join("[%s]" % show(k) for k in key)), help="give a value for this element in the data")

    def _set_lookup(self, node: A.Index, s: OplSet, idx: Any, idx_node: A.Node) -> Any:
        if isinstance(idx, tuple):
            hit = s.by_key(tuple(idx))
            if hit is None and idx in s:
                return idx
            if hit is not None:
                return hit
        raise EvalError("index-out-of-set", idx_node.span, "no tuple with key %s in this set" % show(idx),
                        help="check the key fields of the tuple type")

    # ------------------------------------------------------------------ fields and calls
    def e_field(self, node: A.Field, env: dict) -> Any:
        base = self.evaluate(node.base, env)
        if not isinstance(base, OplTuple) or base.ttype is None:
            raise EvalError("field-of-non-tuple", node.span, "`.%s` is applied to %s, not to a tuple" % (
                node.name, "a " + type_word(base)), help="field access works on tuple values only")
        try:
            return base.field(node.name)
        except ValueError:
            hint = did_you_mean(node.name, base.ttype.fields)
            raise EvalError("unknown-field", node.name_span or node.span,
                            "tuple `%s` has no field `%s`" % (base.ttype.name, node.name),
                            help=hint or "its fields are %s" % ", ".join("`%s`" % f for f in base.ttype.fields))

    def e_call(self, node: A.Call, env: dict) -> Any:
        mod = self._builtins
        if mod is None:  # (imported on first use: builtins.py imports this module)
            from . import builtins as mod
            self._builtins = mod
        return mod.call_builtin(self, node, env)

    def e_cast(self, node: A.Cast, env: dict) -> Any:
        v = self.eval_number(node.arg, env, "the argument of `%s(...)`" % node.type)
        if node.type != "int":
            return float(v)
        try:
            return int_result(int(v), node)
        except (ValueError, OverflowError):  # int(nan), int(inf)
            raise EvalError("math-domain", node.span, "`int(%s)` is not defined" % show(v),
                            help="check the argument: an infinite or undefined number has no int value")

    # ------------------------------------------------------------------ literals
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
        for e in self.iterate(node.quals, env, node):
            v = e.get(bound, NOT_COVERED)
            if v is NOT_COVERED:
                v = run(e)  # (the element through its closure; the tree walk when it has none or for a decision)
            if v is NOT_COVERED or isinstance(v, (LinExpr, QuadExpr, Leaf, Logic)):
                v = self.eval_data(value, e, "a set element")
            items.append(v)
        return OplSet(items, infer_elem_type(items))

    def e_tuple_lit(self, node: A.TupleLit, env: dict) -> OplTuple:
        vals = [self.eval_data(i, env, "a tuple element") for i in node.items]
        for item, v in zip(node.items, vals):
            if isinstance(v, (list, dict, set, OplSet, OplArray)):
                raise EvalError("tuple-field-not-scalar", item.span, "a tuple component must be a single value, "
                                "but this is an array or a set", help="give one number or string per tuple field")
        return OplTuple(vals)

    def e_piecewise(self, node: A.Piecewise, env: dict) -> Any:
        from .piecewise import evaluate_piecewise

        return evaluate_piecewise(self, node, env)


def _inexact_leaf(f: Any) -> Leaf | None:
    """A leaf of ``f`` whose truth value cannot be linearised both ways: a strict inequality or an
    equality on a continuous expression (its negation is open)."""
    if isinstance(f, Leaf):
        if f.strict is not None or (not f.integral and f.lo == f.hi):
            return f
        return None
    if isinstance(f, Logic):
        for a in f.args:
            hit = _inexact_leaf(a)
            if hit is not None:
                return hit
    return None


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


class _SpannedList(list):
    """An array literal's values, remembering where it was written."""

    span = None
