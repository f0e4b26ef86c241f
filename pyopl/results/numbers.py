"""How pyopl writes numbers: in full, and integer decisions as integers.

Text reports and JSON use the shortest decimal that reads back as the same
float (Python's ``repr``, David Gay's algorithm): ``12894.125`` stays
``12894.125`` and ``12345678.9`` stays ``12345678.9`` (``%.6g`` printed
``12894.1`` and ``1.23457e+07``). A float with an integral value prints without
a fraction (``2590``, not ``2590.0``).

Values of ``int`` and ``boolean`` decisions are rounded to the nearest integer
when they lie within the solver's integrality tolerance of it (HiGHS
``mip_feasibility_tolerance``, Gurobi ``IntFeasTol``; both default to about
1e-6 / 1e-5): a solver may return ``4014.9999999999995`` or ``-3.3e-14`` for
values it considers integral, and reports them as ``4015`` and ``0``.
"""
from __future__ import annotations

import math
from typing import Any

#: Integrality tolerance used when the solver's own is unknown (HiGHS's default).
DEFAULT_INTEGRALITY_TOLERANCE = 1e-6


def integral_value(v: float, tolerance: float = DEFAULT_INTEGRALITY_TOLERANCE) -> int | float:
    """``v`` as a Python ``int`` when it is within ``tolerance`` of one, else ``v`` unchanged.

    Used for values of integer and boolean decisions (see the module text)."""
    if not math.isfinite(v):
        return v
    r = round(v)
    if abs(v - r) <= tolerance:
        return int(r)
    return v


def format_number(v: Any) -> str:
    """Text of a value for reports: ``-`` for None, integers as integers, floats in full (round trip).

    ``nan``/``inf``/``-inf`` for the non-finite floats; ``-0.0`` prints as ``0``."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v:
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v.is_integer() and abs(v) < 1e16:  # int(v) is exact; larger ones keep the exponent form
            return str(int(v))
        return repr(v)
    return str(v)
