"""The binary operators of IBM ILOG Script (ECMAScript 3, section 11), as a mixin of the interpreter."""
from __future__ import annotations

import math

from ...diagnostics.diagnostic import Span
from . import ast as A
from .convert import CHARS_PER_STEP, loose_equals, strict_equals, to_int32, to_number, to_primitive, to_string, to_uint32
from .messages import kind as _kind
from .values import HostFunction, JSArray, JSFunction, JSObject, ScriptError


class Operators:
    """``binary(op, a, b, node)`` and the ``instanceof``/``in`` tests (needs ``check_string``)."""

    def binary(self, op: str, a, b, node):
        ta, tb = type(a), type(b)
        if ta is str and tb is str and op != "+" and len(a) > 4096 and len(b) > 4096:
            self.charge(min(len(a), len(b)) // CHARS_PER_STEP, op_span(node))  # comparing long strings
        if ta is float and tb is float:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "<":
                return a < b
            if op == ">":
                return a > b
            if op == "<=":
                return a <= b
            if op == ">=":
                return a >= b
            if op == "==" or op == "===":
                return a == b
            if op == "!=" or op == "!==":
                return a != b
        if op == "+":
            if ta is str and tb is str:
                self.check_string(len(a) + len(b), op_span(node))
                return a + b
            pa, pb = to_primitive(a), to_primitive(b)
            if type(pa) is str or type(pb) is str:
                sa, sb = to_string(pa), to_string(pb)
                self.check_string(len(sa) + len(sb), op_span(node))
                return sa + sb
            return to_number(pa) + to_number(pb)
        if op == "-":
            return to_number(a) - to_number(b)
        if op == "*":
            return to_number(a) * to_number(b)
        if op == "/":
            return _divide(to_number(a), to_number(b))
        if op == "%":
            return _js_mod(to_number(a), to_number(b))
        if op == "==":
            return loose_equals(a, b)
        if op == "!=":
            return not loose_equals(a, b)
        if op == "===":
            return strict_equals(a, b)
        if op == "!==":
            return not strict_equals(a, b)
        if op in ("<", ">", "<=", ">="):
            return _compare(op, a, b)
        if op == "&":
            return float(to_int32(a) & to_int32(b))
        if op == "|":
            return float(to_int32(a) | to_int32(b))
        if op == "^":
            return float(to_int32(a) ^ to_int32(b))
        if op == "<<":
            return float(to_int32(to_int32(a) << (to_uint32(b) & 31)))
        if op == ">>":
            return float(to_int32(a) >> (to_uint32(b) & 31))
        if op == ">>>":
            return float(to_uint32(a) >> (to_uint32(b) & 31))
        if op == "instanceof":
            return self.instance_of(a, b, node)
        if op == "in":
            return self.has_property(b, a, node)
        raise ScriptError("internal-error", "unknown operator `%s`" % op, node.span, "please report this")

    def instance_of(self, a, b, node) -> bool:
        """``a instanceof b`` (11.8.6, 15.3.5.3): whether ``b.prototype`` is on ``a``'s prototype chain."""
        if isinstance(b, (JSFunction, HostFunction)):
            proto = self.function_prototype(b) if isinstance(b, JSFunction) else (b.props or {}).get("prototype")
            if not isinstance(proto, JSObject):
                if isinstance(b, HostFunction):
                    return False
                raise ScriptError.type_error("`%s.prototype` is not an object" % b.name, node.right.span,
                                             "give the constructor an object as its `prototype`")
            if not isinstance(a, (JSObject, JSArray, JSFunction, HostFunction)):
                return False
            p = self.proto_of(a)
            while p is not None:
                if p is proto:
                    return True
                p = self.proto_of(p)
            return False
        raise ScriptError.type_error("the right side of `instanceof` is not a function (it is %s)" % _kind(b),
                                     node.right.span, "write `x instanceof F` with a constructor `F`")


def op_span(node) -> Span:
    return node.op_span if isinstance(node, A.Binary) else node.span


def _divide(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _js_mod(a: float, b: float) -> float:
    """``%`` (ECMAScript 11.5.3): the sign of the dividend; NaN for a zero divisor or infinite dividend."""
    if a != a or b != b or math.isinf(a) or b == 0:
        return math.nan
    if math.isinf(b):
        return a
    return math.fmod(a, b)


def _compare(op: str, a, b) -> bool:
    pa, pb = to_primitive(a, "number"), to_primitive(b, "number")
    if type(pa) is str and type(pb) is str:
        x, y = pa, pb
    else:
        x, y = to_number(pa), to_number(pb)
        if x != x or y != y:
            return False
    if op == "<":
        return x < y
    if op == ">":
        return x > y
    if op == "<=":
        return x <= y
    return x >= y
