"""Shared helpers of the solver tests: is Gurobi usable here, and compiling the shared cases."""
from __future__ import annotations

import functools

import numpy as np

import pytest


@functools.lru_cache(maxsize=1)
def gurobi_reason() -> str | None:
    """None when gurobipy imports and an environment starts; else why the Gurobi tests are skipped."""
    try:
        import gurobipy as gp
    except ImportError:
        return "gurobipy is not installed (pip install 'pyopl[gurobi]')"
    try:
        env = gp.Env(empty=True)
        env.setParam("OutputFlag", 0)
        env.start()
        env.dispose()
    except Exception as e:  # no licence at all
        return "gurobipy cannot start an environment: %s" % e
    return None


needs_gurobi = pytest.mark.skipif(gurobi_reason() is not None, reason=gurobi_reason() or "")

# Gurobi's pip licence limits (variables, linear constraints; variables with a quadratic objective).
LICENCE_VARS, LICENCE_ROWS, LICENCE_QVARS = 2000, 2000, 200


def within_licence(ir) -> bool:
    """Whether Gurobi's pip licence takes ``ir`` (a ranged row becomes two Gurobi rows)."""
    lo, up = ir.row_lower, ir.row_upper
    ranged = np.isfinite(lo) & np.isfinite(up) & (lo != up)
    rows = ir.num_rows + int(ranged.sum())
    limit = LICENCE_QVARS if ir.q is not None and ir.q.nnz else LICENCE_VARS
    return ir.num_cols <= limit and rows <= LICENCE_ROWS
