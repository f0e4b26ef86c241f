"""What the ``main`` block's solve variants need from the backends (``pyopl/script`` sits below
``pyopl/backends``, so ``api.Model.solve`` hands this module to the script context as
``ctx.solver_services``, as it hands ``cplex.exportModel`` its writer).

- :func:`pool_solver`: which backend runs ``cplex.populate()``;
- ``fixed_ir``, ``result_from_solution``: the fixed LP of ``cplex.solveFixed()`` and a result made
  from one pool member's column values;
- ``min_sum_relaxation``, ``INFEASIBLE``: ``printRelaxation()``'s feasOpt-like relaxation;
- ``explain_infeasible``: the conflict of ``IloOplConflictIterator`` for a model not solved yet;
- ``refine_conflict``: that conflict over the labelled constraints, with the script's preferences.
- ``write_cpo``, ``CpoUnsupported``: the ``.cpo`` text of ``cp.exportModel`` (:mod:`.cp.cpo_export`).
"""
from __future__ import annotations

from typing import Any

from .capabilities import CAPABILITIES, installed, model_features, over_licence
from .common import fixed_ir, result_from_solution  # noqa: F401  (services)
from .explain.conflict_refiner import refine_conflict  # noqa: F401  (services)
from .cp.cpo_export import CpoUnsupported, write_cpo  # noqa: F401  (services)
from .explain.iis import INFEASIBLE, explain_infeasible, min_sum_relaxation  # noqa: F401  (services)
from .explain.iis import conflict_of, row_side  # noqa: F401  (services: a refined conflict named)

#: the backends with a solution pool, fullest first (Gurobi's n-best search, CPLEX's populate, the
#: solutions SCIP kept)
POOL_ORDER = ("gurobi", "cplex", "scip")


def pool_solver(ir: Any, asked: str) -> str | None:
    """The backend that runs ``populate()`` for ``ir``: ``asked`` when it has a pool; for ``auto`` the
    first of :data:`POOL_ORDER` installed that takes the model within its licence; None otherwise."""
    if asked != "auto":
        caps = CAPABILITIES.get(asked)
        return asked if caps is not None and caps.pool else None
    feats = model_features(ir)
    for b in POOL_ORDER:
        if feats <= CAPABILITIES[b].features and installed(b) and not over_licence(ir, b):
            return b
    return None
