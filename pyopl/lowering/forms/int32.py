"""OPL's `int` is a 32-bit integer (IBM OPL language reference, "Integers": `maxint` is
2**31 - 1).  Python's ints are unbounded, so every place that computes an `int` from `int`
values checks the result here and reports an overflow instead of a larger number.

Where the checks are (docs/language.md, "32-bit int"): the data conversion of `int` values
(:mod:`pyopl.lowering.model.valuechecks`), the arithmetic of two ints (`+ - * div ^`, unary `-`) in
:class:`~pyopl.lowering.evaluate.expressions.Evaluator` and its compiled closures, `sum` and `prod` of
ints, and the int-valued functions (`abs`, `floor`, `ceil`, `round`, `trunc`, `ftoi`, `sgn`,
`int(e)`).  The NumPy fast path of `sum` falls back to the term-by-term path when an integer
product leaves the range, so that path reports it.
"""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
from .errors import EvalError

INT_MIN = -2 ** 31
INT_MAX = 2 ** 31 - 1
INT32 = (INT_MIN, INT_MAX)
#: a ``using CP;`` model's integers: CP Optimizer's ``IloInt`` is 64 bits on 64-bit platforms
#: (CP Optimizer C++ reference, ``IlcIntTop``: 2^63-1), and OPL evaluates CP integer data with it
INT64 = (-2 ** 63, 2 ** 63 - 1)


def int_bounds(inst: Any) -> tuple[int, int]:
    """The range of OPL `int` data arithmetic in the model of ``inst``: 64 bits with ``using CP;``
    (CP Optimizer's integers), else OPL's 32-bit `int`."""
    return INT64 if getattr(inst, "engine", "mp") == "cp" else INT32


def int_result(v: int, node: A.Node, bounds: tuple[int, int] = INT32) -> int:
    """``v`` when it fits ``bounds`` (OPL's 32-bit `int` unless given, :func:`int_bounds`); else the
    `int-overflow` error at ``node``."""
    if bounds[0] <= v <= bounds[1]:
        return v
    raise overflow(v, node, bounds=bounds)


def range_words(bounds: tuple[int, int]) -> str:
    """How a message names the integer range ``bounds``."""
    return ("CP Optimizer's 64-bit integer range (%d..%d)" if bounds == INT64 else
            "OPL's 32-bit `int` range (%d..%d)") % bounds


def overflow(v: int, node: A.Node, shown: str | None = None, bounds: tuple[int, int] = INT32) -> EvalError:
    """The `int-overflow` error for the int value ``v`` of the expression ``node``; ``shown``
    replaces the digits of ``v`` in the message (for a value too large to have been computed)."""
    text = expr_text(node)
    what = "`%s`" % text if text else "this `%s`" % node.op if isinstance(node, A.Aggregate) else \
        "this integer expression"
    # an aggregate is checked as it accumulates: the value is where it first left the range (13! for
    # `prod(i in 1..20) i`), not its total, so it "reaches" it
    verb = "reaches" if isinstance(node, A.Aggregate) and not text else "is"
    return EvalError("int-overflow", node.span,
                     "%s %s %s, outside %s" % (what, verb, shown or "%d" % v, range_words(bounds)),
                     help="OPL computes int with int in %d bits; write a float operand (e.g. `1.0 * a`) "
                          "where the magnitude is meant" % (64 if bounds == INT64 else 32))


_PREC = {"||": 1, "=>": 0, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "in": 4, "not in": 4,
         "+": 6, "-": 6, "union": 6, "diff": 6, "symdiff": 6, "*": 8, "/": 8, "div": 8, "mod": 8, "inter": 8, "^": 10}


def expr_text(node: Any, depth: int = 0) -> str:
    """OPL text of a small expression for a message (``maxint + 1``), or "" when it is too
    large or has a form this short printer does not cover."""
    if depth > 6:
        return ""
    if isinstance(node, A.Const):
        v = node.value
        if v is True or v is False:
            return "true" if v else "false"
        if v == INT_MAX and isinstance(v, int):
            return "maxint"
        return '"%s"' % v if isinstance(v, str) else repr(v) if isinstance(v, float) else str(v)
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Unary):
        inner = expr_text(node.operand, depth + 1)
        if isinstance(node.operand, A.Binary):
            inner = "(%s)" % inner
        return node.op + inner if inner else ""
    if isinstance(node, A.Binary):
        left, right = expr_text(node.left, depth + 1), expr_text(node.right, depth + 1)
        if not (left and right):
            return ""
        p = _PREC.get(node.op, 0)
        if isinstance(node.left, A.Binary) and _PREC.get(node.left.op, 0) < p:
            left = "(%s)" % left
        if isinstance(node.right, A.Binary) and _PREC.get(node.right.op, 0) <= p:
            right = "(%s)" % right
        return "%s %s %s" % (left, node.op, right)
    if isinstance(node, A.Field):
        base = expr_text(node.base, depth + 1)
        return "%s.%s" % (base, node.name) if base else ""
    if isinstance(node, A.Index):
        base = expr_text(node.base, depth + 1)
        idx = [expr_text(i, depth + 1) for i in node.indices]
        return "%s[%s]" % (base, "][".join(idx)) if base and all(idx) else ""
    if isinstance(node, A.Call):
        args = [expr_text(a, depth + 1) for a in node.args]
        return "%s(%s)" % (node.func, ", ".join(args)) if all(args) else ""
    if isinstance(node, A.Cast):
        arg = expr_text(node.arg, depth + 1)
        return "%s(%s)" % (node.type, arg) if arg else ""
    return ""
