"""Objective-wise scoring.

A problem is solved correctly when the objective of the final model is within
a relative tolerance of the reference optimum:

    |objective - answer| <= tol * max(1, |answer|)

(relative for large answers, absolute for answers below 1 in magnitude, the
convention of the shared acceptance cases). With an absolute tolerance
``abs_tol`` (``--abs-tol``) as well, a difference up to ``abs_tol`` is also
accepted: ``|objective - answer| <= max(tol * max(1, |answer|), abs_tol)``.
A run without an objective (no solved model) is incorrect; an entry without a
numeric answer is unscorable and counts neither way.
"""
from __future__ import annotations

import math

#: The default relative tolerance (``--tolerance``).
DEFAULT_TOLERANCE = 1e-6


def describe(abs_tol: float = 0.0) -> str:
    """The scoring rule in words, as the report prints it."""
    if abs_tol:
        return "|objective - answer| <= max(tolerance * max(1, |answer|), abs_tol)"
    return "|objective - answer| <= tolerance * max(1, |answer|)"


def is_correct(objective: float | None, answer: float | None, tol: float = DEFAULT_TOLERANCE,
               abs_tol: float = 0.0) -> bool | None:
    """``True``/``False`` for a scorable problem, ``None`` when ``answer`` is ``None`` (unscorable).

    ``objective``: the final model's objective (``None`` when nothing was solved, which is
    incorrect); ``tol``: relative tolerance, ``>= 0``; ``abs_tol``: absolute tolerance, ``>= 0``.
    """
    if answer is None:
        return None
    if objective is None or isinstance(objective, bool):
        return False
    try:
        obj = float(objective)
    except (TypeError, ValueError):
        return False
    if not math.isfinite(obj):
        return False
    return abs(obj - answer) <= max(tol * max(1.0, abs(answer)), abs_tol)
