"""The numbers of a compiled problem as plain arrays, and the worker-side extraction of them.

:class:`Problem` is what normalisation and matching work on: minimise or maximise
``c @ x + c0`` subject to ``rl <= A x <= ru``, ``lb <= x <= ub`` and ``integer[j]``; ``names``
are the OPL labels of the columns (``x["a"]``), ``row_names`` those of the rows.  A is a dense
NumPy array: the check is meant for benchmark-sized models (it refuses larger ones, see
:data:`MAX_CELLS`).  ``nonlinear`` says why the structure check cannot be used (a quadratic
objective or constraint, several objectives), or is empty.  ``infeasible`` lists the reasons
normalisation found the problem to have no feasible point (a row with no variables that cannot
hold, a column whose bounds cross): such a problem is never matched by structure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: the most rows × columns a problem may have for the structural check (dense arrays)
MAX_CELLS = 4_000_000


@dataclass
class Problem:
    sense: str
    c: np.ndarray
    c0: float
    A: np.ndarray
    rl: np.ndarray
    ru: np.ndarray
    lb: np.ndarray
    ub: np.ndarray
    integer: np.ndarray
    names: list[str]
    row_names: list[str]
    nonlinear: str = ""
    notes: list[str] = field(default_factory=list)
    #: why normalisation proved the problem infeasible (empty when it did not)
    infeasible: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.c)

    @property
    def m(self) -> int:
        return len(self.rl)


def ir_payload(ir: Any) -> dict[str, Any]:
    """A JSON-ready dict of ``ir`` (a :class:`pyopl.ir.IR`): what the worker sends back for
    ``{"op": "ir"}``.  Infinite bounds travel as ``None``."""
    A = ir.A.tocoo()

    def nums(a: Any) -> list[Any]:
        return [None if not np.isfinite(v) else float(v) for v in np.asarray(a, dtype=float)]

    nonlinear = []
    if ir.q is not None and ir.q.nnz:
        nonlinear.append("a quadratic objective")
    if ir.qcons:
        nonlinear.append("quadratic constraints")
    if ir.lex_objectives:
        nonlinear.append("several objectives")
    return {"sense": ir.sense, "c": [float(v) for v in ir.obj], "c0": float(ir.obj_constant),
            "rows": A.row.tolist(), "cols": A.col.tolist(), "vals": A.data.astype(float).tolist(),
            "m": int(ir.num_rows), "n": int(ir.num_cols),
            "rl": nums(ir.row_lower), "ru": nums(ir.row_upper), "lb": nums(ir.col_lower), "ub": nums(ir.col_upper),
            "integer": [bool(v) for v in ir.col_integer],
            "names": [ir.column_label(j) for j in range(ir.num_cols)],
            "row_names": [ir.row_text(i) for i in range(ir.num_rows)],
            "nonlinear": " and ".join(nonlinear)}


def from_payload(p: dict[str, Any]) -> Problem:
    """The :class:`Problem` of an :func:`ir_payload` dict.  Raises ``ValueError`` when it is
    larger than :data:`MAX_CELLS`."""
    m, n = int(p["m"]), int(p["n"])
    if m * n > MAX_CELLS:
        raise ValueError(f"the problem has {m} rows and {n} columns, more than the structural check takes")

    def arr(xs: list[Any], none: float) -> np.ndarray:
        return np.array([none if v is None else float(v) for v in xs], dtype=float)

    A = np.zeros((m, n))
    np.add.at(A, (np.array(p["rows"], dtype=int), np.array(p["cols"], dtype=int)), np.array(p["vals"], dtype=float))
    sense = str(p["sense"])
    return Problem(sense, np.array(p["c"], dtype=float), float(p["c0"]), A,
                   arr(p["rl"], -np.inf), arr(p["ru"], np.inf), arr(p["lb"], -np.inf), arr(p["ub"], np.inf),
                   np.array(p["integer"], dtype=bool), list(p["names"]), list(p["row_names"]), str(p.get("nonlinear") or ""))
