"""What every backend shares: options, stdout hygiene, and mapping solutions back to OPL names."""
from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..ir import IR
from ..result import Result, Values


@dataclass
class SolveOptions:
    """Solver settings. ``time_limit`` in seconds; ``mip_gap`` relative, ``mip_gap_abs`` absolute;
    ``extra`` holds backend-specific ``name=value`` options passed through unchanged."""

    time_limit: float | None = None
    mip_gap: float | None = None
    mip_gap_abs: float | None = None
    threads: int | None = None
    seed: int | None = None
    log_to_console: bool = False
    log_file: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@contextlib.contextmanager
def quiet_stdout(allow: bool = False):
    """Send what native code writes to file descriptor 1 to stderr while the block runs."""
    if allow:
        yield
        return
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no real stdout (e.g. some notebooks)
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        try:
            sys.stdout.flush()
        except Exception:
            pass
        os.dup2(saved, 1)
        os.close(saved)


def by_dvar(ir: IR, x: np.ndarray) -> dict[str, Any]:
    """Column values -> {dvar name: float (scalar) or Values keyed by index tuples}."""
    out: dict[str, Any] = {}
    for name, block in ir.dvars.items():
        vals = x[block.first:block.first + block.size]
        if block.dims == 0:
            out[name] = _clean(float(vals[0]), block.kind) if len(vals) else None
        else:
            out[name] = Values({k: _clean(float(v), block.kind) for k, v in zip(block.keys, vals)}, block.dims)
    return out


def _clean(v: float, kind: str) -> float:
    if kind in ("int", "boolean"):
        r = round(v)
        if abs(v - r) < 1e-6:
            return float(r)
    if v == 0.0:
        return 0.0  # no negative zero in reports
    return v


def by_family(ir: IR, row_values: np.ndarray) -> dict[str, Any]:
    """Row values -> {constraint label: float (unindexed) or Values keyed by label indices}."""
    out: dict[str, Any] = {}
    for label, fam in ir.families.items():
        if not fam.indexed and len(fam.rows) == 1:
            out[label] = float(row_values[fam.rows[0]])
        else:
            keys = fam.keys
            if len(set(keys)) < len(keys):  # the same label reused without indices: number the rows
                keys = [(k,) for k in range(len(keys))]
            dims = max((len(k) for k in keys), default=1)
            out[label] = Values({k: float(row_values[i]) for k, i in zip(keys, fam.rows)}, dims)
    return out


def dexpr_values(ir: IR, x: np.ndarray) -> dict[str, Any]:
    from ..lowering.linear import LinExpr, QuadExpr

    out: dict[str, Any] = {}
    for name, forms in ir.dexprs.items():
        vals = {}
        for key, f in forms.items():
            vals[key] = _eval_form(f, x)
        if list(forms) == [()]:
            out[name] = vals[()]
        else:
            out[name] = Values(vals, max((len(k) for k in forms), default=1))
    return out


def _eval_form(f: Any, x: np.ndarray) -> float:
    from ..lowering.linear import LinExpr, QuadExpr

    if isinstance(f, LinExpr):
        return float(f.const + sum(c * x[j] for j, c in f.terms.items()))
    if isinstance(f, QuadExpr):
        return _eval_form(f.lin, x) + float(sum(c * x[i] * x[j] for (i, j), c in f.quad.items()))
    return float(f)


def result_from_solution(ir: IR, status: str, x: np.ndarray | None, obj: float | None, solver: str) -> Result:
    res = Result(status, solver=solver)
    if x is not None:
        res.objective = obj if ir.sense != "feasibility" else (0.0 if obj is None else obj)
        if ir.sense == "feasibility":
            res.objective = None
        res.variables = by_dvar(ir, x)
        res.dexprs = dexpr_values(ir, x)
    return res
