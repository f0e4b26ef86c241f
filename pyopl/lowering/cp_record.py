"""The record of a global CP constraint kept for CP-SAT (a leaf: lowering's modules and the
backend read it; :mod:`.cp` makes most of them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CpConstraint:
    """A global CP constraint over affine expressions.

    ``kind``: ``"allDifferent"``, ``"element"``, ``"inverse"``, ``"max"``/``"min"``, ``"linear_if"``,
    ``"noOverlap"``, ``"cumul"``, ...; ``exprs``: ``[(terms {column: coef}, constant), ...]``, one per
    array element, in the array's order; ``data``: the rest, by kind (columns, interval numbers,
    bounds); ``span``: the call.  Label and key are set when a constraint statement is lowered."""

    kind: str
    exprs: list
    span: Any
    label: str = ""
    key: tuple = ()
    data: dict = field(default_factory=dict)  # what the other kinds need (see pyopl/backends/cpsat_global.py)
