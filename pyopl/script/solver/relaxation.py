"""``thisOplModel.printRelaxation()`` (IBM ILOG Script for OPL, ``IloOplModel``: "prints the
relaxations proposed to obtain a feasible model").

As CPLEX's feasOpt with its default metric does, the relaxation changes the bounds of constraints
so that the model becomes feasible while the sum of the changes is as small as possible (every
preference 1); as in OPL, only labelled constraints take part ("only labeled constraints are
considered by the relaxation and conflict search process", OPL Language Reference Manual, "Why
label constraints?").  It is computed by pyopl with HiGHS, whatever the run's solver, integrality
kept.  Each relaxed constraint is printed on a line of its own::

    c4: bounds [40, infinity] relaxed to [20, infinity]

The method returns the number of relaxed constraints (IBM documents an integer without saying
what it counts); a feasible model prints nothing and returns 0.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..opl.host_errors import host_error

#: seconds the relaxation's solve may take
TIME_LIMIT = 60.0
#: a bound moved by less than this is not relaxed
TOLERANCE = 1e-7


def _bound(v: float) -> str:
    from ..opl.opl_objects import js_number

    if v == np.inf:
        return "infinity"
    if v == -np.inf:
        return "-infinity"
    return js_number(float(v))


def relaxations(model: Any, span: Any, what: str = "printRelaxation()") -> list[tuple[int, str, float, float, float, float]]:
    """The relaxation of the generated model ``model`` (a ``main`` model object): one
    ``(row, name, LB, UB, relaxedLB, relaxedUB)`` per relaxed constraint, in row order; empty for a
    feasible model.  Raises a script error (naming ``what``) before ``generate()``, for a model
    with quadratic or indicator constraints, or when relaxing the labelled constraints cannot make
    the model feasible within :data:`TIME_LIMIT`."""
    from ...ir import opl_label

    if model.model is None or not model.generated:
        raise host_error("script-unsupported", "`%s` before `generate()`" % what, span,
                         help="call `generate()` (and `cplex.solve()`) first")
    ir = model.model.ir
    if ir.qcons or ir.indicators or ir.engine != "mp":
        raise host_error("script-unsupported", "`%s` relaxes linear constraints; this model has %s" % (what, (
            "quadratic constraints" if ir.qcons else "indicator constraints" if ir.indicators else "`using CP;`")), span,
            help="use printConflict() to see what conflicts")
    services = model.flow.ctx.solver_services  # pyopl.backends.script_services (backends sit above scripts)
    INFEASIBLE, min_sum_relaxation = services.INFEASIBLE, services.min_sum_relaxation
    labelled = np.array([bool(lab) and not lab.startswith("#") for lab in ir.row_label], dtype=bool)
    if not labelled.any():
        found = min_sum_relaxation(ir, labelled, TIME_LIMIT)  # (no row to relax: is it feasible as it is?)
        if found is True:
            return []
        raise host_error("script-unsupported", "`%s`: the model has no labelled constraint to relax" % what, span,
                         help="label the constraints that may be relaxed (`ct: ...;`); only labelled ones are")
    found = min_sum_relaxation(ir, labelled, TIME_LIMIT)
    if found is INFEASIBLE or found is None:
        raise host_error("script-unsupported", "`%s`: %s" % (what,
            "relaxing the labelled constraints cannot make the model feasible (the unlabelled constraints or "
            "the variables' bounds conflict)" if found is INFEASIBLE else
            "no relaxation was found within %g s" % TIME_LIMIT), span,
            help="label the constraints that may be relaxed; pyopl's conflict (printConflict) shows what conflicts")
    below, above = found
    out = []
    for i in np.flatnonzero((below > TOLERANCE) | (above > TOLERANCE)):
        lo, up = float(ir.row_lower[i]), float(ir.row_upper[i])
        out.append((int(i), opl_label(ir.row_label[i], ir.row_key[i]), lo, up, lo - float(below[i]), up + float(above[i])))
    return out


def relaxation_text(found: list) -> str:
    """The lines ``printRelaxation()`` prints for :func:`relaxations`' list (empty when nothing is relaxed)."""
    return "".join("%s: bounds [%s, %s] relaxed to [%s, %s]\n" % (name, _bound(lo), _bound(up), _bound(rlo), _bound(rup))
                   for _i, name, lo, up, rlo, rup in found)


def print_relaxation(model: Any, span: Any) -> float:
    """Compute and print the relaxation of the generated model ``model`` (a ``main`` model object);
    returns how many constraints it relaxes (errors: :func:`relaxations`)."""
    found = relaxations(model, span)
    if found:
        model.flow.ctx.write(relaxation_text(found))
    return float(len(found))
