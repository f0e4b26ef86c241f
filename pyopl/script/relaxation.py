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

from .host_errors import host_error

#: seconds the relaxation's solve may take
TIME_LIMIT = 60.0
#: a bound moved by less than this is not relaxed
TOLERANCE = 1e-7


def _bound(v: float) -> str:
    from .opl_objects import js_number

    if v == np.inf:
        return "infinity"
    if v == -np.inf:
        return "-infinity"
    return js_number(float(v))


def print_relaxation(model: Any, span: Any) -> float:
    """Compute and print the relaxation of the generated model ``model`` (a ``main`` model object);
    returns how many constraints it relaxes.  Raises a script error before ``generate()``, or when
    relaxing the labelled constraints cannot make the model feasible within :data:`TIME_LIMIT`."""
    from ..ir import opl_label

    if model.model is None or not model.generated:
        raise host_error("script-unsupported", "`printRelaxation()` before `generate()`", span,
                         help="call `generate()` (and `cplex.solve()`) first")
    ir = model.model.ir
    if ir.qcons or ir.indicators or ir.engine != "mp":
        raise host_error("script-unsupported", "`printRelaxation()` relaxes linear constraints; this model has %s" % (
            "quadratic constraints" if ir.qcons else "indicator constraints" if ir.indicators else "`using CP;`"), span,
            help="use printConflict() to see what conflicts")
    services = model.flow.ctx.solver_services  # pyopl.backends.script_services (backends sit above scripts)
    INFEASIBLE, min_sum_relaxation = services.INFEASIBLE, services.min_sum_relaxation
    labelled = np.array([bool(lab) and not lab.startswith("#") for lab in ir.row_label], dtype=bool)
    if not labelled.any():
        found = min_sum_relaxation(ir, labelled, TIME_LIMIT)  # (no row to relax: is it feasible as it is?)
        if found is True:
            return 0.0
        raise host_error("script-unsupported", "`printRelaxation()`: the model has no labelled constraint to relax", span,
                         help="label the constraints that may be relaxed (`ct: ...;`); only labelled ones are")
    found = min_sum_relaxation(ir, labelled, TIME_LIMIT)
    if found is INFEASIBLE or found is None:
        raise host_error("script-unsupported", "`printRelaxation()`: %s" % (
            "relaxing the labelled constraints cannot make the model feasible (the unlabelled constraints or "
            "the variables' bounds conflict)" if found is INFEASIBLE else
            "no relaxation was found within %g s" % TIME_LIMIT), span,
            help="label the constraints that may be relaxed; pyopl's conflict (printConflict) shows what conflicts")
    below, above = found
    lines = []
    for i in np.flatnonzero((below > TOLERANCE) | (above > TOLERANCE)):
        lo, up = ir.row_lower[i], ir.row_upper[i]
        name = opl_label(ir.row_label[i], ir.row_key[i])
        lines.append("%s: bounds [%s, %s] relaxed to [%s, %s]" % (
            name, _bound(lo), _bound(up), _bound(lo - below[i]), _bound(up + above[i])))
    if lines:
        model.flow.ctx.write("\n".join(lines) + "\n")
    return float(len(lines))
