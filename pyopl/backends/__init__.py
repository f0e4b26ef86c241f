"""Solver backends. Each takes an :class:`~pyopl.ir.IR` and :class:`SolveOptions` and returns a :class:`~pyopl.results.result.Result`."""
from __future__ import annotations

from typing import Callable

from .common import SolveOptions

BACKENDS = ("highs", "gurobi")


def get_backend(name: str) -> Callable:
    """The ``solve(ir, options)`` function of backend ``name``; ValueError for an unknown name."""
    if name == "highs":
        from .highs import solve

        return solve
    if name == "gurobi":
        from .gurobi import solve

        return solve
    raise ValueError("unknown solver %r (choose from %s)" % (name, ", ".join(BACKENDS)))
