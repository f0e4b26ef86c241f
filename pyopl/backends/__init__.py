"""Solver backends. Each takes an :class:`~pyopl.ir.IR` and :class:`SolveOptions` and returns a :class:`~pyopl.results.result.Result`.

The math-programming solvers are in ``mp/``, CP-SAT in ``cp/``, infeasibility analysis and the
solution check in ``explain/``; what they share (``common.py``, ``capabilities.py``, Ctrl-C, progress)
at the top. Each folder imports only the rows below it (docs/architecture.md, "layers pyopl/backends").

``auto`` is no backend of its own: :func:`resolve` turns it into the backend that
:func:`~pyopl.backends.capabilities.choose` picks for the model.
"""
from __future__ import annotations

from typing import Callable

from .common import SolveOptions

BACKENDS = ("highs", "scip", "cplex", "gurobi", "cpsat")
#: What ``--solver`` accepts: a backend, or ``auto`` (the default: chosen by the model's features).
SOLVER_CHOICES = ("auto",) + BACKENDS


def get_backend(name: str) -> Callable:
    """The ``solve(ir, options)`` function of backend ``name`` (``auto`` chooses per model);
    ValueError for an unknown name."""
    if name == "auto":
        return solve_auto
    if name == "highs":
        from .mp.highs import solve

        return solve
    if name == "gurobi":
        from .mp.gurobi import solve

        return solve
    if name == "scip":
        from .mp.scip import solve

        return solve
    if name == "cplex":
        from .mp.cplex import solve

        return solve
    if name == "cpsat":
        from .cp.cpsat import solve

        return solve
    raise ValueError("unknown solver %r (choose from %s)" % (name, ", ".join(SOLVER_CHOICES)))


def resolve(name: str, ir) -> tuple[str, str | None]:
    """``(backend, note)``: ``name`` itself, or for ``auto`` the backend chosen for ``ir`` with the
    reason in words (``("highs", why)`` when nothing fits, so that HiGHS's refusal words the problem)."""
    if name != "auto":
        return name, None
    from .capabilities import choose

    chosen, why = choose(ir)
    # nothing fits: CP-SAT words the refusal of a `using CP;` model (it alone takes CP), HiGHS any other
    return (chosen or ("cpsat" if getattr(ir, "engine", "mp") == "cp" else "highs")), why


def auto_refusal(ir, why: str | None, options: SolveOptions):
    """The ``error`` result of ``--solver auto`` for a model it gives to no backend although one could
    take it (a non-convex quadratic constraint: IBM OPL's engine, CPLEX, refuses it with Error 5002,
    and a global solve is the user's choice), in the words of ``pyopl check``
    (:func:`pyopl.lowering.quadratic.report_solver_needs`); None otherwise. ``why``: the reason
    :func:`resolve` gave."""
    from .capabilities import NONCONVEX_QCP_WHY, qcon_convex

    if why != NONCONVEX_QCP_WHY:
        return None
    from .common import error_result

    q = next(c for c in ir.qcons if not qcon_convex(c, ir.num_cols))
    return error_result("auto", "quadratic-needs-gurobi",
                        "this constraint %s: it is a non-convex quadratic constraint, which IBM OPL's engine "
                        "(CPLEX) refuses, and `--solver auto` gives to no solver unasked" % q.what, options,
                        help="a global solver takes it if you ask for one: `--solver scip` or `--solver gurobi` "
                             "(Python: `solver=\"scip\"`)", span=q.product)


def solve_auto(ir, options: SolveOptions):
    """Solve with the backend :func:`resolve` chooses; the result says which (``solver``) and why
    (``extra["solver_choice"]``)."""
    name, why = resolve("auto", ir)
    refused = auto_refusal(ir, why, options)
    if refused is not None:
        return refused
    res = get_backend(name)(ir, options)
    if why:
        res.extra["solver_choice"] = "auto: %s, %s" % (name, why)
    return res
