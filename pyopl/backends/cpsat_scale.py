"""Exact integer forms for OR-Tools CP-SAT, which takes integer coefficients only.

A constraint (or the objective) is multiplied by the smallest power of ten, ``10^0 .. 10^6``,
that makes every one of its coefficients a whole number *exactly* (``round(c * 10^k) / 10^k == c``
in binary floating point, so ``0.1`` scales to ``1``); where none does, by the least common
multiple of the denominators of the fractions the coefficients are (``1/3`` computed from data is
the double nearest to a third: the fraction with a denominator up to ``10^6`` within a few units
in the last place of it, :data:`FRACTION_TOLERANCE`).
The scaled numbers must stay within ``2^53``.  Nothing is rounded: when neither form exists,
:class:`NotIntegral` names the coefficient.  Bounds of a row whose scaled expression is integer-valued (integer columns,
integer coefficients) are tightened to the integers inside them (``x + y <= 2.5`` is
``x + y <= 2``), which changes no solution.
"""
from __future__ import annotations

import math
from typing import Iterable

#: the largest power of ten tried
MAX_POWER = 6
#: how far (relative) a value may be from the fraction it is read as: a few units in the last place,
#: what a sum of a few fractions computed in doubles is off by (1/3 + 1/7 + ... accumulates)
FRACTION_TOLERANCE = 1e-14
#: scaled magnitudes above this are refused (exact in a double, and far inside CP-SAT's int64)
MAX_MAGNITUDE = 2.0 ** 53


class NotIntegral(ValueError):
    """``value`` has no exact integer form after scaling by ``10^0 .. 10^MAX_POWER`` (or scales past
    ``2^53``); ``value`` is the offending number."""

    def __init__(self, value: float, too_large: bool = False) -> None:
        super().__init__(value)
        self.value = value
        self.too_large = too_large


def _exact(v: float, f: int) -> bool:
    s = v * f
    r = round(s)
    return abs(r) <= MAX_MAGNITUDE and r / f == v


def scale_for(values: Iterable[float]) -> int:
    """The smallest ``10^k`` (``k <= MAX_POWER``) that makes every value of ``values`` an exact whole
    number; else the least common multiple of the values' denominators as fractions (each value the
    double nearest to a fraction with a denominator up to ``10^MAX_POWER``: ``1/3`` computed from
    data is the third it was written as); raises :class:`NotIntegral` naming the first value that
    has neither form, or that passes ``2^53`` once scaled."""
    vals = [float(v) for v in values if v]
    for k in range(MAX_POWER + 1):
        f = 10 ** k
        if all(_exact(v, f) for v in vals):
            return f
    for v in vals:
        if abs(v) * 10 ** MAX_POWER > MAX_MAGNITUDE:
            raise NotIntegral(v, too_large=True)
    from fractions import Fraction  # (only here: a row with fractions is rare)

    f = 1
    for v in vals:
        fr = Fraction(v).limit_denominator(10 ** MAX_POWER)
        if abs(float(fr) - v) > FRACTION_TOLERANCE * abs(v):
            raise NotIntegral(v)
        f = f * fr.denominator // math.gcd(f, fr.denominator)
    for v in vals:
        if abs(v) * f > MAX_MAGNITUDE:
            raise NotIntegral(v, too_large=True)
    return f


def scaled(v: float, f: int) -> int:
    """``v * f`` as an int (``f`` from :func:`scale_for`, so the product is whole)."""
    return int(round(v * f))


def inner_bounds(lo: float, hi: float, f: int, tol: float = 1e-9) -> tuple[int | None, int | None]:
    """``(ceil(lo * f), floor(hi * f))``, each None when infinite: the integers an integer-valued
    expression may take inside ``[lo, hi]`` scaled by ``f`` (a bound within ``tol`` of an integer is
    that integer, so ``2.9999999999`` computed from data is 3)."""
    def one(v: float, up: bool) -> int | None:
        if math.isinf(v):
            return None
        s = v * f
        r = round(s)
        if abs(s - r) <= tol * max(1.0, abs(s)):
            return int(r)
        return int(math.ceil(s) if up else math.floor(s))
    return one(lo, True), one(hi, False)
