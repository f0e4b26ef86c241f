"""The compiled model handed to the solvers' own Python objects (issue 30), as linopy's
``to_highspy()`` and Pyomo's appsi offer: ``model.to_highspy()`` gives a ``highspy.Highs`` holding
the model, ``model.to_gurobipy()`` a ``gurobipy.Model``, so a user can change bounds, costs or
parameters and re-solve with the solver's API.  Columns and rows carry their OPL names
(``ship["Seattle"]["Chicago"]``, ``ctDemand["Chicago"]``); column ``j`` is ``model.ir`` column ``j``
and row ``i`` is IR row ``i`` (HiGHS; Gurobi splits ranged rows, see :func:`to_gurobipy`).

The objects are built by the same code the backends solve with (``highs._pass``, ``gurobi.build``),
so what the solver holds is what ``model.solve()`` would solve.
"""
from __future__ import annotations

from typing import Any

from ..ir import IR
from .common import SolveOptions, quiet_stdout


def _refuse_lex(ir: IR, solver: str) -> None:
    if ir.lex_objectives and solver == "HiGHS":
        raise ValueError("the model has a staticLex objective, which pyopl solves as a sequence of HiGHS "
                         "solves; a single Highs object cannot hold it (use to_gurobipy, which keeps the "
                         "objectives as Gurobi's multi-objective)")
    if ir.qcons and solver == "HiGHS":
        raise ValueError("the model has quadratic constraints, which HiGHS cannot take (use to_gurobipy)")


def to_highspy(ir: IR, names: bool = True, log: bool = False) -> Any:
    """A ``highspy.Highs`` holding ``ir`` (objective, bounds, rows, integrality, quadratic objective),
    not yet run; ``names``: pass the OPL names of columns and rows (``passColName``/``passRowName``).

    Raises ValueError for what one Highs object cannot hold (a staticLex objective, quadratic
    constraints)."""
    from .mp.highs import _new_solver, _pass

    _refuse_lex(ir, "HiGHS")
    h = _new_solver(SolveOptions(log_to_console=log))
    with quiet_stdout():
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
        if names:
            for j in range(ir.num_cols):
                h.passColName(j, ir.column_label(j))
            for i in range(ir.num_rows):
                h.passRowName(i, ir.row_text(i))
    return h


def to_gurobipy(ir: IR, names: bool = True, log: bool = False) -> Any:
    """A ``gurobipy.Model`` holding ``ir`` (its own started ``Env``, quiet unless ``log``), updated
    but not optimised; ``names``: the OPL names as ``VarName``/``ConstrName`` (a ranged row
    ``lo <= e <= hi`` is two Gurobi rows, both named after the constraint).

    Raises ImportError when gurobipy is not installed."""
    from .mp.gurobi import _env, _gurobipy, build

    gp = _gurobipy()
    if gp is None:
        raise ImportError("to_gurobipy needs gurobipy (`pip install \"pyopl[gurobi]\"`)")
    with quiet_stdout():
        env = _env(gp, SolveOptions(log_to_console=log))
        m, x, constr, rows = build(gp, env, ir)
        if names:
            if ir.num_cols:
                x.VarName = [ir.column_label(j) for j in range(ir.num_cols)]
            if constr is not None:
                constr.ConstrName = [ir.row_text(int(i)) for i in rows]
            m.update()
    m._pyopl_env = env  # keep the Env alive as long as the model
    return m
