"""The record of a global CP constraint kept for CP-SAT (a leaf: lowering's modules and the
backend read it; :mod:`pyopl.lowering.cp.constraints` makes most of them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .linear import LinExpr


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


def conditional(inst: Any, e: LinExpr, lo: float, hi: float, when: list, span: Any) -> None:
    """``lo <= e <= hi`` enforced only while every literal of ``when`` (``(column, value)``) holds:
    CP-SAT's ``only_enforce_if``; an empty ``when`` is a plain row."""
    if not when:
        inst.add_aux_row(e, lo, hi, span)
        return
    inst.cp_constraints.append(CpConstraint("linear_if", [], span, data={
        "terms": dict(e.terms), "lo": lo - e.const, "hi": hi - e.const, "when": list(when)}))
