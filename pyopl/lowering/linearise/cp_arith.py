"""Non-linear integer arithmetic on decisions in ``using CP;`` models (CP Optimizer's integer
expressions, OPL manual "Constraint programming: integer expressions"): ``x * y``, ``x ^ k``,
``pow(x, k)``, ``x div y``, ``x mod y``, ``sgn(x)``, ``ftoi``/``trunc``/``floor``/``ceil``/``round`` of a
decision expression, and ``pow(c, x)`` with a data base.

Each result is a new integer column, tied to its operands by one of CP-SAT's own constraints
(``add_multiplication_equality``, ``add_division_equality``, ``add_modulo_equality``,
``add_element``: ``CpConstraint`` kinds ``product``, ``div``, ``mod`` built in
pyopl/backends/cpsat_global.py) or by conditional rows; the column's domain comes from the
operands' bounds (an operand without a bound has OPL's ``maxint`` as its bound in CP-SAT, CP
Optimizer's default domain).  The result is an ordinary linear form over that column, so it may be
used anywhere a decision expression may: objectives, constraints, logical constraints, ``count``.

An operand with fractional coefficients (``k / 100``) is scaled to integers first, exactly
(:func:`pyopl.backends.cpsat_scale.scale_for`), and the result divided back: ``x * (k / 100)`` is
``(x * k) / 100``.  Integer semantics follow IBM's: ``div`` truncates toward zero, ``mod`` has the
sign of the dividend (C's ``%``), and a divisor is never 0 (the constraint cannot hold there).

Refused, with the reason: float functions of decisions (``sqrt``, ``exp``, ``log``, ``sin``...,
CP-SAT has no float variables), ``/`` by a decision (a float quotient: use ``div``), a product
whose bounds pass CP-SAT's 64-bit integers, ``pow`` with a decision exponent below 0 or spanning
more than 100,000 values.
"""
from __future__ import annotations

import math
from typing import Any

from ...syntax import ast as A
from ..forms.cp_record import CpConstraint, conditional
from ..forms.errors import EvalError
from ..forms.linear import LinExpr

#: OPL's ``maxint``: the bound CP-SAT gives a column that has none (pyopl/backends/cpsat.py)
MAXINT = 2147483647
#: the largest magnitude of a product column (CP-SAT checks that its products fit in 64 bits)
PRODUCT_LIMIT = 2 ** 62
#: the most values a decision exponent of ``pow(c, x)`` may take (one table entry per value)
POW_TABLE_LIMIT = 100_000
#: the functions of a decision that give a float, which CP-SAT cannot represent
FLOAT_FUNCTIONS = frozenset({"sqrt", "exp", "log", "lg", "ln", "frac", "sin", "cos", "tan", "atan", "asin", "acos"})


def is_cp(inst: Any) -> bool:
    """Whether ``inst`` is a ``using CP;`` model (its decisions go to CP-SAT)."""
    return getattr(inst, "engine", "mp") == "cp"


def common_scale(inst: Any, exprs: list, span: Any, what: str) -> int:
    """The smallest factor (a power of ten, else a common denominator,
    :func:`pyopl.backends.cpsat_scale.scale_for`) that makes every expression of ``exprs`` integer-valued;
    EvalError ``cpsat-non-integral`` where none does or a column is not integer."""
    from ...backends.cpsat_scale import NotIntegral, scale_for

    I = inst.cols.integer.flat()
    bad = next((j for e in exprs for j in e.terms if not I[j]), None)
    try:
        f = scale_for([c for e in exprs for c in list(e.terms.values()) + [e.const]])
    except NotIntegral as err:
        f, bad_value = 0, err.value
    if f and bad is None:
        return f
    raise EvalError("cpsat-non-integral", span, "%s is not an integer expression%s, and CP-SAT computes with "
                    "integers only" % (what, " (its coefficient %s has no exact decimal or fraction form)" % bad_value
                                       if not f else ""),
                    help="use integer decisions and whole (or decimal) coefficients")


def scaled_integral(inst: Any, e: LinExpr, span: Any, what: str) -> tuple[LinExpr, int]:
    """``(e * f, f)`` with ``f`` from :func:`common_scale` (1 when ``e`` is integer already)."""
    if inst.is_integral(e):
        return e, 1
    f = common_scale(inst, [e], span, what)
    return LinExpr({j: float(round(c * f)) for j, c in e.terms.items()}, float(round(e.const * f))), f


def int_bounds(inst: Any, e: LinExpr) -> tuple[int, int]:
    """The integer bounds of ``e``; a column without a bound counts with OPL's ``maxint`` (as CP-SAT sees it)."""
    lo, hi = inst.bounds(e)
    if math.isinf(lo) or math.isinf(hi):
        L, U = inst.cols.lower.flat(), inst.cols.upper.flat()
        clo = chi = e.const
        for j, c in e.terms.items():
            a, b = max(L[j], -MAXINT), min(U[j], MAXINT)
            clo += c * (a if c > 0 else b)
            chi += c * (b if c > 0 else a)
        lo = clo if math.isinf(lo) else lo
        hi = chi if math.isinf(hi) else hi
    return int(math.ceil(lo - 1e-9)), int(math.floor(hi + 1e-9))


def _pair(e: LinExpr) -> tuple[dict, float]:
    return dict(e.terms), float(e.const)


def _key(op: str, *es: LinExpr) -> tuple:
    return (op,) + tuple((frozenset(e.terms.items()), e.const) for e in es)


def _cached(inst: Any, key: tuple) -> int | None:
    cache = getattr(inst, "_cp_arith_cache", None)
    if cache is None:
        cache = inst._cp_arith_cache = {}
    return cache.get(key)


def _column(inst: Any, key: tuple, lo: int, hi: int, name: str, span: Any) -> int:
    if max(abs(lo), abs(hi)) > PRODUCT_LIMIT:
        raise EvalError("unsupported-cp-construct", span, "this %s can reach %d, beyond the 64-bit integers CP-SAT "
                        "computes with" % (name, hi if abs(hi) >= abs(lo) else lo),
                        help="give its decisions domains (`dvar int x in 0..100`) so that the result stays within "
                             "2^62")
    t = inst.new_column(float(lo), float(hi), True, name)
    inst._cp_arith_cache[key] = t
    return t


def cp_product(inst: Any, a: LinExpr, b: LinExpr, span: Any) -> LinExpr:
    """``a * b`` of two decision expressions: a column ``t == a * b`` (``add_multiplication_equality``)."""
    a, fa = scaled_integral(inst, a, span, "a factor of this product")
    b, fb = scaled_integral(inst, b, span, "a factor of this product")
    key = _key("*", *sorted((a, b), key=lambda e: sorted(e.terms.items())))
    t = _cached(inst, key)
    if t is None:
        (al, ah), (bl, bh) = int_bounds(inst, a), int_bounds(inst, b)
        corners = [al * bl, al * bh, ah * bl, ah * bh]
        t = _column(inst, key, min(corners), max(corners), "product", span)
        inst.cp_constraints.append(CpConstraint("product", [_pair(a), _pair(b)], span, data={"target": t}))
    return LinExpr({t: 1.0 / (fa * fb)})


def cp_power(inst: Any, a: LinExpr, k: Any, span: Any) -> LinExpr | int:
    """``a ^ k`` (``pow(a, k)``) for a decision ``a`` and a whole ``k >= 0`` (data): products, by squaring."""
    if isinstance(k, float) and k.is_integer():
        k = int(k)
    if not isinstance(k, int) or k < 0:
        raise EvalError("unsupported-cp-construct", span, "a power of a decision expression is compiled for a "
                        "whole exponent >= 0, and this one is %s (a float result, which CP-SAT cannot represent)" % k,
                        help="use a whole exponent, or multiply out")
    if k > 62:
        raise EvalError("unsupported-cp-construct", span, "the power %d of a decision expression passes 64-bit "
                        "integers unless the base is -1, 0 or 1" % k, help="use a smaller exponent")
    out: LinExpr | int = 1
    base = a
    while k:
        if k & 1:
            out = base if isinstance(out, int) else cp_product(inst, out, base, span)
        k >>= 1
        if k:
            base = cp_product(inst, base, base, span)
    return out


def cp_power_of_data(inst: Any, c: Any, x: LinExpr, span: Any) -> LinExpr:
    """``pow(c, x)`` (``c ^ x``) for data ``c`` and a decision ``x``: an element of the table ``c^v`` over
    the values ``v`` of ``x``'s domain (``add_element``)."""
    x, f = scaled_integral(inst, x, span, "the exponent")
    if f != 1:
        raise EvalError("unsupported-cp-construct", span, "the exponent of this power is not an integer expression",
                        help="use an integer exponent")
    lo, hi = int_bounds(inst, x)
    if hi - lo + 1 > POW_TABLE_LIMIT or (lo < 0 and c not in (1, -1)):
        raise EvalError("unsupported-cp-construct", span, "`pow(%s, x)` of a decision `x` is compiled as a table over "
                        "the values of `x`, which must be whole numbers >= 0 and at most %d of them; here they are "
                        "%d..%d" % (c, POW_TABLE_LIMIT, lo, hi), help="give the exponent a domain such as `in 0..30`")
    if not (isinstance(c, int) or float(c).is_integer()):
        raise EvalError("unsupported-cp-construct", span, "`pow(%s, x)` of a decision `x` is a float expression, "
                        "which CP-SAT cannot represent" % c, help="use a whole base")
    c = int(c)
    vals = [c ** v if v >= 0 else int(c ** v) for v in range(lo, hi + 1)]
    if max(abs(v) for v in vals) > PRODUCT_LIMIT:
        raise EvalError("unsupported-cp-construct", span, "`pow(%d, x)` passes 64-bit integers over the domain "
                        "%d..%d of `x`" % (c, lo, hi), help="give the exponent a smaller domain")
    t = inst.new_column(float(min(vals)), float(max(vals)), True, "pow")
    inst.cp_constraints.append(CpConstraint("element", [({}, float(v)) for v in vals], span, data={
        "index": _pair(x), "positions": list(range(lo, hi + 1)), "target": ({t: 1.0}, 0.0)}))
    return LinExpr.var(t)


def _trunc_div_bounds(al: int, ah: int, bl: int, bh: int) -> tuple[int, int]:
    divisors = [d for d in (bl, bh, -1, 1) if bl <= d <= bh and d != 0]
    qs = [int(n / d) if abs(n) < 2 ** 52 else (abs(n) // abs(d)) * (1 if (n >= 0) == (d > 0) else -1)
          for n in (al, ah) for d in divisors]
    return min(qs), max(qs)


def cp_divmod(inst: Any, op: str, a: LinExpr, b: LinExpr, span: Any) -> LinExpr:
    """``a div b`` (truncated toward zero) or ``a mod b`` (the sign of ``a``), ``b`` never 0."""
    a, fa = scaled_integral(inst, a, span, "the left operand of `%s`" % op)
    b, fb = scaled_integral(inst, b, span, "the right operand of `%s`" % op)
    if fa != 1 or fb != 1:
        raise EvalError("type-int-expected", span, "`%s` needs integer operands" % op,
                        help="use `/` for real division, or `floor(a / b)`")
    if b.is_constant and b.const == 0:
        raise EvalError("division-by-zero", span, "`%s` by zero" % op,
                        help="check the data: this divisor evaluates to 0")
    key = _key(op, a, b)
    t = _cached(inst, key)
    if t is None:
        (al, ah), (bl, bh) = int_bounds(inst, a), int_bounds(inst, b)
        if bl == bh == 0:
            raise EvalError("division-by-zero", span, "the divisor of this `%s` can only be 0" % op,
                            help="check the divisor's domain")
        if op == "div":
            lo, hi = _trunc_div_bounds(al, ah, bl, bh)
        else:
            m = max(abs(bl), abs(bh)) - 1
            lo, hi = (0 if al >= 0 else -min(m, -al)), (0 if ah <= 0 else min(m, ah))
        t = _column(inst, key, lo, hi, op, span)
        inst.cp_constraints.append(CpConstraint(op, [_pair(a), _pair(b)], span, data={"target": t}))
    return LinExpr.var(t)


def cp_sign(inst: Any, e: LinExpr, span: Any) -> LinExpr:
    """``sgn(e)``: ``p - n`` with 0/1 columns ``p`` (``e >= 1``) and ``n`` (``e <= -1``), each an equivalence."""
    e, _f = scaled_integral(inst, e, span, "the argument of `sgn`")
    p = inst.new_column(0.0, 1.0, True, "sgn_pos")
    n = inst.new_column(0.0, 1.0, True, "sgn_neg")
    inf = float("inf")
    conditional(inst, e, 1.0, inf, [(p, True)], span)
    conditional(inst, e, -inf, 0.0, [(p, False)], span)
    conditional(inst, e, -inf, -1.0, [(n, True)], span)
    conditional(inst, e, 0.0, inf, [(n, False)], span)
    return LinExpr({p: 1.0, n: -1.0})


def cp_rounding(inst: Any, f: str, e: LinExpr, span: Any) -> LinExpr:
    """``floor``/``ceil``/``round``/``trunc``/``ftoi`` of a decision expression: itself when it is integer;
    else, with ``e = n / s`` (``n`` integer, ``s`` a power of ten), an integer column ``q`` tied by rows
    (``floor``: ``s q <= n <= s q + s - 1``; ``ceil``: ``s q - s + 1 <= n <= s q``; ``round``: IBM's
    half away from zero, ``floor(e + 1/2)`` where ``e >= 0`` and ``ceil(e - 1/2)`` where ``e <= 0``) or by
    CP-SAT's truncating division (``trunc``, ``ftoi``)."""
    n, s = scaled_integral(inst, e, span, "the argument of `%s`" % f)
    if s == 1:
        return n
    lo, hi = int_bounds(inst, n)
    if f in ("trunc", "ftoi"):
        return cp_divmod(inst, "div", n, LinExpr(None, float(s)), span)
    if f == "round":
        if lo >= 0:
            return _floor_ceil(inst, "floor", _plus(n, s // 2), s, lo + s // 2, hi + s // 2, span)
        if hi <= 0:
            return _floor_ceil(inst, "ceil", _plus(n, -(s // 2)), s, lo - s // 2, hi - s // 2, span)
        raise EvalError("unsupported-cp-construct", span, "`round` of a decision expression that can be negative "
                        "and positive is not compiled to CP-SAT (IBM rounds halves away from zero)",
                        help="use `floor(e + 0.5)`, or bound the expression's sign")
    return _floor_ceil(inst, f, n, s, lo, hi, span)


def _plus(n: LinExpr, k: int) -> LinExpr:
    out = n.copy()
    out.const += k
    return out


def _floor_ceil(inst: Any, f: str, n: LinExpr, s: int, lo: int, hi: int, span: Any) -> LinExpr:
    q = inst.new_column(float(math.floor(lo / s)), float(math.ceil(hi / s)), True, f)
    d = n.copy()
    d.iadd(LinExpr({q: float(s)}), -1.0)  # n - s q
    if f == "floor":
        inst.add_aux_row(d, 0.0, float(s - 1), span)
    else:
        inst.add_aux_row(d, float(1 - s), 0.0, span)
    return LinExpr.var(q)


def float_function_error(f: str, node: A.Node) -> EvalError:
    """The refusal of a float function (``sqrt``, ``exp``...) of a decision in a ``using CP;`` model."""
    return EvalError("unsupported-cp-construct", node.span, "`%s` of a decision expression is a float expression, "
                     "and CP-SAT has integer variables only" % f,
                     help="apply `%s` to data, or state the condition on the integer itself (`x <= 9` for "
                          "`sqrt(x) <= 3`)" % f)


def cp_membership(inst: Any, e: LinExpr, values: Any, negate: bool, span: Any) -> Any:
    """``e in S`` (``e not in S``) for an integer decision expression ``e`` and a set or range of integers
    ``S`` (CP Optimizer's domain constraint): a 0/1 column ``b`` with ``b == 1`` exactly when the value of
    ``e`` is in ``S`` (CP-SAT's ``add_linear_expression_in_domain`` over ``S`` enforced by ``b``, over the
    rest of ``e``'s bounds by ``not b``); returns the constraint ``b == 1`` (``b == 0`` for ``not in``),
    usable on its own or inside logical constraints.  EvalError ``decision-in-membership`` for a set that
    is not of integers."""
    from ...semantics.values import OplRange
    from ..forms.linear import Leaf

    e, f = scaled_integral(inst, e, span, "the expression tested by `in`")
    if isinstance(values, OplRange):
        ranges = [(int(values.lo), int(values.hi))] if values.lo <= values.hi else []
    else:
        vals = list(values)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() for v in vals):
            raise EvalError("decision-in-membership", span, "`in` on a decision expression is compiled for a set "
                            "or range of integers, and this set holds other values",
                            help="test membership in a set of integers, or use `allowedAssignments` for tuples")
        ranges = []
        for v in sorted({int(round(v * f)) if f != 1 else int(v) for v in vals if float(v * f).is_integer()}):
            if ranges and ranges[-1][1] == v - 1:
                ranges[-1] = (ranges[-1][0], v)
            else:
                ranges.append((v, v))
        f = 1
    if f != 1:  # a range for the scaled expression: e * f in f*lo..f*hi
        ranges = [(lo * f, hi * f) for lo, hi in ranges]
    b = inst.new_column(0.0, 1.0, True, "in")
    inst.cp_constraints.append(CpConstraint("in", [_pair(e)], span, data={"ranges": ranges, "literal": b}))
    return Leaf(LinExpr.var(b), 0.0 if negate else 1.0, 0.0 if negate else 1.0, True, span)
