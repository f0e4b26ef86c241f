"""Number to text in IBM ILOG Script: ``toFixed``, ``toExponential``, ``toPrecision`` and
``toString(radix)`` (ECMAScript 3, 15.7.4.2-15.7.4.7).

Digits are computed from the exact binary value of the double (``Decimal(x)`` is exact) with
the standard's tie rule "the larger n" (round half up on ``|x|``), in a decimal context wide
enough for every double (1e21 needs 22 integer digits plus 20 decimals; the exact expansion of
a double can need more than 700 digits), so no call can fail inside the arithmetic.
An argument out of range is ECMAScript's RangeError (a script ``catch`` receives one).
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

from ..language.convert import number_to_string, to_int32, to_number, to_string
from ..language.values import UNDEFINED, JSObject, ScriptError

_CTX = Context(prec=1200, Emax=999999, Emin=-999999)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def this_number(this, name: str, span) -> float:
    """The number a ``Number.prototype`` method works on (a number or a ``new Number``)."""
    if type(this) is float or type(this) is int:
        return float(this)
    if type(this) is bool:
        return 1.0 if this else 0.0
    if isinstance(this, JSObject) and this.class_name == "Number" and this.value is not None:
        return float(this.value)
    raise ScriptError.type_error("`%s` is a method of numbers" % name, span, "call it on a number")


def _digits_arg(args, name: str, lo: int, hi: int, span):
    v = args[0] if args else UNDEFINED
    if v is UNDEFINED:
        return None
    n = to_number(v)
    d = 0 if n != n else (n if math.isinf(n) else int(n))
    if d < lo or d > hi:
        raise ScriptError.range_error("`%s` takes %d to %d digits, not %s" % (name, lo, hi, to_string(v)), span,
                                      "write e.g. `x.%s(%d)`" % (name, max(lo, 2)))
    return int(d)


def _significant(x: float, p: int):
    """(digits, e): the ``p`` significant digits n of |x| and the exponent e with n * 10**(e-p+1)
    nearest |x| (ties: the larger n); x is finite and not 0."""
    with localcontext(_CTX):
        d = Decimal(abs(x))
        e = d.adjusted()
        q = d.scaleb(-e).quantize(Decimal(1).scaleb(-(p - 1)), rounding=ROUND_HALF_UP)
        if q >= 10:
            e += 1
            q = d.scaleb(-e).quantize(Decimal(1).scaleb(-(p - 1)), rounding=ROUND_HALF_UP)
        digits = "".join(map(str, q.as_tuple().digits))
    return (digits + "0" * p)[:p], e


def _exp_text(digits: str, e: int) -> str:
    head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return head + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def to_fixed(interp, this, args, span):
    """``x.toFixed(f)`` (15.7.4.5)."""
    x = this_number(this, "toFixed", span)
    f = _digits_arg(args, "toFixed", 0, 20, span) or 0
    if x != x:
        return "NaN"
    if abs(x) >= 1e21 or math.isinf(x):
        return number_to_string(x)
    with localcontext(_CTX):
        q = Decimal(abs(x)).quantize(Decimal(1).scaleb(-f), rounding=ROUND_HALF_UP)
        s = "{:f}".format(q)
    return ("-" + s) if x < 0 else s


def to_exponential(interp, this, args, span):
    """``x.toExponential(f)`` (15.7.4.6); without ``f``, as many digits as ToString uses."""
    x = this_number(this, "toExponential", span)
    f = _digits_arg(args, "toExponential", 0, 20, span)
    if not math.isfinite(x):
        return number_to_string(x)  # NaN, Infinity, -Infinity (15.7.4.6 and 15.7.4.7, step 2 on)
    sign = "-" if x < 0 else ""
    if x == 0:
        return sign[:0] + _exp_text("0" * ((f or 0) + 1), 0)
    if f is None:
        digits, e = _shortest(abs(x))
    else:
        digits, e = _significant(x, f + 1)
    return sign + _exp_text(digits, e)


def _shortest(x: float):
    """The shortest digits that read back as ``x`` (ToString's digits) and the exponent of the first."""
    m, _, ex = repr(x).partition("e")
    intpart, _, frac = m.partition(".")
    allds = (intpart + frac).lstrip("0")
    lead = len(intpart + frac) - len(allds)  # zeros before the first digit
    e = len(intpart) - 1 - lead + (int(ex) if ex else 0)
    digits = allds.rstrip("0") or "0"
    return digits, e


def to_precision(interp, this, args, span):
    """``x.toPrecision(p)`` (15.7.4.7); without ``p``, ToString."""
    x = this_number(this, "toPrecision", span)
    if not args or args[0] is UNDEFINED:
        return number_to_string(x)
    p = _digits_arg(args, "toPrecision", 1, 21, span)
    if not math.isfinite(x):
        return number_to_string(x)  # NaN, Infinity, -Infinity (15.7.4.6 and 15.7.4.7, step 2 on)
    sign = "-" if x < 0 else ""
    if x == 0:
        digits, e = "0" * p, 0
    else:
        digits, e = _significant(x, p)
    if e < -6 or e >= p:
        return sign + _exp_text(digits, e)
    if e == p - 1:
        return sign + digits
    if e >= 0:
        return sign + digits[:e + 1] + "." + digits[e + 1:]
    return sign + "0." + "0" * (-(e + 1)) + digits


def to_string_radix(interp, this, args, span):
    """``x.toString(radix)`` (15.7.4.2): radix 2 to 36, else RangeError; 10 or none is ToString."""
    x = this_number(this, "toString", span)
    if not args or args[0] is UNDEFINED:
        return number_to_string(x)
    radix = to_int32(args[0])
    if radix < 2 or radix > 36:
        raise ScriptError.range_error("`toString` takes a radix from 2 to 36, not %s" % to_string(args[0]), span,
                                      "write `n.toString(2)` ... `n.toString(36)`")
    if radix == 10 or x != x or math.isinf(x):
        return number_to_string(x)
    neg = x < 0
    x = abs(x)
    whole = int(x)
    frac = x - whole
    digits = ""
    while True:
        whole, d = divmod(whole, radix)
        digits = _DIGITS[d] + digits
        if whole == 0:
            break
    if frac:
        digits += "."
        for _ in range(52):  # a double's fraction has at most 52 bits: the expansion ends for radix 2
            frac *= radix
            d = int(frac)
            digits += _DIGITS[d]
            frac -= d
            if not frac:
                break
    return ("-" if neg else "") + digits
