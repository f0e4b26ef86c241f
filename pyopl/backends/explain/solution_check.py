"""The solution check: every reported solution evaluated against the model before it is believed.

After a solve that returns a point (optimal, feasible, a time limit or Ctrl-C with an incumbent,
each solution of a pool, each solve of a ``main`` flow) the point is checked in two ways:

1. **The model's own semantics.** The instance's declarations are evaluated again with every
   ``dvar`` replaced by its reported value (integers as reported, rounded within the solver's
   integrality tolerance): the objective, and each constraint statement with its ``forall``,
   ``if`` and filters, by the same :class:`~pyopl.lowering.evaluate.expressions.Evaluator` that lowered it
   but on numbers, so ``abs``, ``min``/``max``, ``piecewise`` and logical constraints are judged
   as OPL defines them, not through the rows and big-M bounds that stood in for them. Every
   instance of a statement that needed a linearisation (a logical constraint, ``abs``, ``min``,
   ``max``, ``maxl``, ``minl``, ``piecewise``, a strict or ``!=`` comparison) is evaluated; of a
   plain linear statement, whose row is its linear form to the coefficient, the first
   :data:`SAMPLE` instances (so a lowering path that built wrong rows is caught, at a cost
   that does not grow with the model).
2. **The rows, in arrays.** ``A @ x`` against the row bounds, the column bounds, integrality,
   indicator and quadratic constraints, with pyopl's own coefficients (a coefficient the solver
   dropped or a big-M its integrality tolerance defeated shows here): one sparse product.

A value outside its bound by more than the feasibility tolerance (:data:`FEASIBILITY_TOLERANCE`,
the default of CPLEX's ``eprhs``, Gurobi's ``FeasibilityTol`` and SCIP's ``numerics/feastol``,
relative to the magnitude of the values compared), or an objective that differs from the
solver's by more than :data:`OBJECTIVE_TOLERANCE` (relative) plus what rounding the integers
moved it, is a :class:`Disagreement`. :func:`verify_result` turns a result with one into status
``check_failed`` (``last_solve_status`` keeps the solver's word) with the error ``OPL0709``
naming each. docs/solvers.md, "What optimal promises".
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from ...ir import IR, opl_label
from ...syntax import ast as A

#: Feasibility tolerance (relative to max(1, |values compared|)): CPLEX ``eprhs``, Gurobi
#: ``FeasibilityTol``, SCIP ``numerics/feastol`` default to 1e-6.
FEASIBILITY_TOLERANCE = 1e-6
#: Objective agreement (relative to max(1, |objective|)), on top of what rounding integers moves.
OBJECTIVE_TOLERANCE = 1e-6
#: Instances of each plain linear statement evaluated from the model (all of the others are).
SAMPLE = 5
#: ... fewer where rows are long: about this many terms per plain statement (at least one instance).
SAMPLE_TERMS = 300
#: A plain linear objective with more terms than this is checked as compiled (``c @ x``), not walked.
OBJECTIVE_TERMS = 2000
#: Disagreements kept in a report (the first ones found, rows by largest violation).
MAX_REPORTED = 10

#: Calls and operators whose lowering is a linearisation (aux columns, big-M rows, indicators).
_LINEARISED_CALLS = frozenset(("abs", "min", "max", "maxl", "minl"))
_LOGICAL_OPS = frozenset(("&&", "||", "=>", "and", "or", "implies"))


@dataclass
class Disagreement:
    """One thing the reported point does not satisfy: ``what`` is ``constraint`` (a statement of the
    model, evaluated from its declarations), ``row`` (a row of the compiled problem), ``bound``,
    ``integrality``, ``indicator``, ``quadratic`` or ``objective``; ``name`` the label and key in
    OPL notation; ``value`` the value found, ``expected`` what should hold (``<= 10``, ``== 5``)."""

    what: str
    name: str
    value: float | None
    expected: str
    span: Any = None
    detail: str = ""

    def text(self) -> str:
        v = "%.10g" % self.value if isinstance(self.value, (int, float)) else str(self.value)
        return "%s %s: %s at the returned point, expected %s%s" % (
            self.what, self.name, v, self.expected, " (%s)" % self.detail if self.detail else "")

    def to_dict(self) -> dict:
        return {"what": self.what, "name": self.name, "value": _num(self.value), "expected": self.expected,
                "detail": self.detail}


@dataclass
class CheckReport:
    """What :func:`check_point` found: ``disagreements`` (empty when the point holds), how many
    statement instances were evaluated from the model (``evaluated``; ``unchecked`` could not be,
    e.g. a CP global constraint), rows checked, and the seconds it took."""

    disagreements: list = field(default_factory=list)
    evaluated: int = 0
    unchecked: int = 0
    rows: int = 0
    objective: float | None = None
    objective_from: str = ""  # "model" (its declaration evaluated) or "compiled" (c @ x)
    integral: bool = False  # every decision whole at the point (known where objective_from is "model")
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def to_dict(self) -> dict:
        return {"ok": self.ok, "evaluated": self.evaluated, "unchecked": self.unchecked, "rows": self.rows,
                "objective": _num(self.objective), "objective_from": self.objective_from, "seconds": round(self.seconds, 6),
                "disagreements": [d.to_dict() for d in self.disagreements]}


def _num(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


# ------------------------------------------------------------------ the point as reported

def reported_point(ir: IR, x: np.ndarray, int_tol: float) -> np.ndarray:
    """``x`` with each integer column rounded where it is within ``int_tol`` of an integer: the values
    the result reports (:func:`pyopl.backends.common.by_dvar`), which are the ones checked."""
    xr = np.asarray(x, dtype=float).copy()
    ints = np.flatnonzero(ir.col_integer[:len(xr)])
    if len(ints):
        r = np.round(xr[ints])
        near = np.abs(xr[ints] - r) <= int_tol
        xr[ints[near]] = r[near]
    return xr


def _tol(*values: float) -> float:
    m = 1.0
    for v in values:
        if v is not None and math.isfinite(v):
            m = max(m, abs(v))
    return FEASIBILITY_TOLERANCE * m


# ------------------------------------------------------------------ rows, bounds, integrality (arrays)

def check_arrays(ir: IR, x: np.ndarray, xr: np.ndarray, int_tol: float, report: CheckReport) -> None:
    """Column bounds, integrality, every row, indicator and quadratic constraint of ``ir`` at ``xr``."""
    n = min(len(xr), ir.num_cols)
    lo, hi = ir.col_lower[:n], ir.col_upper[:n]
    scale = FEASIBILITY_TOLERANCE * np.maximum(1.0, np.abs(xr[:n]))
    bad = np.flatnonzero((xr[:n] < lo - scale) | (xr[:n] > hi + scale))
    for j in bad[:MAX_REPORTED]:
        report.disagreements.append(Disagreement("bound", ir.column_label(j), float(xr[j]),
                                                 "in %s..%s" % (_show(lo[j]), _show(hi[j]))))
    ints = np.flatnonzero(ir.col_integer[:n])
    if len(ints):
        frac = np.abs(x[ints] - np.round(x[ints]))
        for j in ints[frac > max(int_tol, 1e-9)][:MAX_REPORTED]:
            report.disagreements.append(Disagreement("integrality", ir.column_label(j), float(x[j]),
                                                     "an integer (within %g)" % int_tol))
    if ir.num_rows:
        data, indices, indptr = ir.csr()  # (no SciPy: the HiGHS path never imports it)
        rows = np.repeat(np.arange(ir.num_rows), np.diff(indptr))
        terms = data * xr[indices]
        act = np.bincount(rows, weights=terms, minlength=ir.num_rows)
        mag = np.bincount(rows, weights=np.abs(terms), minlength=ir.num_rows)
        rl, ru = ir.row_lower, ir.row_upper
        with np.errstate(invalid="ignore"):
            bound_mag = np.maximum(np.where(np.isfinite(rl), np.abs(rl), 0.0), np.where(np.isfinite(ru), np.abs(ru), 0.0))
        tol = FEASIBILITY_TOLERANCE * np.maximum(1.0, np.maximum(mag, bound_mag))
        viol = np.maximum(rl - act, act - ru)
        bad = np.flatnonzero(viol > tol)
        report.rows = ir.num_rows
        for i in bad[np.argsort(-viol[bad])][:MAX_REPORTED]:
            exp = "== %s" % _show(rl[i]) if rl[i] == ru[i] else ">= %s" % _show(rl[i]) if act[i] < rl[i] else \
                "<= %s" % _show(ru[i])
            report.disagreements.append(Disagreement("row", ir.row_text(i), float(act[i]), exp,
                                                     detail="row %d of the compiled problem" % i))
    for ind in ir.indicators:
        if abs(xr[ind.binary] - ind.active) > 0.5:
            continue
        v = sum(c * xr[j] for j, c in ind.terms.items())
        t = _tol(v, ind.lo, ind.hi)
        if v < ind.lo - t or v > ind.hi + t:
            report.disagreements.append(Disagreement("indicator", opl_label(ind.label, ind.key) if ind.label else "",
                                                     float(v), "in %s..%s" % (_show(ind.lo), _show(ind.hi)), ind.span))
    for qr in ir.qcons:
        v = sum(c * xr[j] for j, c in qr.lin.items()) + sum(c * xr[i] * xr[j] for (i, j), c in qr.quad.items())
        t = _tol(v, qr.lo, qr.hi)
        if v < qr.lo - t or v > qr.hi + t:
            report.disagreements.append(Disagreement("quadratic", opl_label(qr.label, qr.key) if qr.label else "",
                                                     float(v), "in %s..%s" % (_show(qr.lo), _show(qr.hi)), qr.span))


def ir_objective(ir: IR, xr: np.ndarray) -> float:
    """The compiled objective ``c @ x + c0 (+ 0.5 x'Qx)`` at ``xr``."""
    v = float((ir.obj * xr[:len(ir.obj)]).sum()) + float(ir.obj_constant)  # (not BLAS: its threads spin on a busy machine)
    if ir.q is not None:
        v += 0.5 * float(xr @ (ir.q @ xr))
    return v


def _show(v: float) -> str:
    if v == math.inf:
        return "infinity"
    if v == -math.inf:
        return "-infinity"
    return "%.10g" % v


# ------------------------------------------------------------------ the whole check

def check_point(ir: IR, x: np.ndarray, objective: float | None, int_tol: float, inst: Any = None,
                plain_work: int | None = None) -> CheckReport:
    """Check the point ``x`` (one value per column, as the solver returned it) of ``ir``, whose
    objective the solver reported as ``objective``; ``inst`` (the compiled instance, when kept) adds
    the evaluation from the model's declarations; ``plain_work``: the work the sampled plain
    statements may take (default :data:`pyopl.lowering.model.at_point.PLAIN_WORK`). See the module docstring."""
    from ...lowering.model.at_point import check_statements, comparison_text, objective_at

    t0 = time.perf_counter()
    report = CheckReport()
    x = np.asarray(x, dtype=float)
    xr = reported_point(ir, x, int_tol)
    check_arrays(ir, x, xr, int_tol, report)
    integer = ir.col_integer
    if inst is not None:
        failures, report.evaluated, report.unchecked = check_statements(
            inst, xr, integer, FEASIBILITY_TOLERANCE, _sample(ir),
            **({} if plain_work is None else {"budget_work": plain_work}))
        for f in failures[:MAX_REPORTED]:
            bad = [s for s in f.comparisons if not s[3]] or f.comparisons
            value = bad[0][1] if bad and len(f.comparisons) == 1 else "false"
            expected = "%s %s" % (bad[0][0], _show(bad[0][2])) if bad and len(f.comparisons) == 1 else "true"
            report.disagreements.insert(0, Disagreement("constraint", f.name, value, expected, f.span,
                                                        comparison_text(f.comparisons) if len(f.comparisons) > 1 else ""))
    if objective is not None and ir.sense != "feasibility" and not getattr(ir, "lex_objectives", None):
        model_obj = None
        if inst is not None and _objective_from_model(ir, inst):
            facts: dict = {}
            model_obj = objective_at(inst, xr, integer, facts)
            report.integral = bool(facts.get("integral"))
        report.objective_from = "model" if model_obj is not None else "compiled"
        compiled = ir_objective(ir, xr)
        value = model_obj if model_obj is not None else compiled
        report.objective = value
        rounding = float((np.abs(ir.obj[:len(x)]) * np.abs(x[:len(ir.obj)] - xr[:len(ir.obj)])).sum())
        if ir.q is not None:
            rounding += abs(ir_objective(ir, x) - compiled)
        tol = OBJECTIVE_TOLERANCE * max(1.0, abs(value), abs(objective)) + rounding
        if not abs(value - float(objective)) <= tol:
            report.disagreements.append(Disagreement(
                "objective", ir.objective_name or "the objective", float(objective), "%s" % _show(value),
                getattr(ir, "objective_span", None),
                "the solver reported %s; the model's objective at the returned point is %s" % (
                    _show(float(objective)), _show(value))))
    report.seconds = time.perf_counter() - t0
    return report


def _sample(ir: IR) -> int:
    """Instances of each plain statement to evaluate: :data:`SAMPLE`, fewer for long rows, so that
    about :data:`SAMPLE_TERMS` terms per statement are walked (at least one instance)."""
    per_row = ir.nnz / ir.num_rows if ir.num_rows else 1.0
    return max(1, min(SAMPLE, int(SAMPLE_TERMS // max(per_row, 1.0))))


def _objective_from_model(ir: IR, inst: Any) -> bool:
    """Evaluate the objective from its declaration when lowering linearised something in it, or when
    it has at most :data:`OBJECTIVE_TERMS` terms; a larger plain linear objective is its compiled
    ``c @ x`` (its tree walk would cost more than the compile)."""
    from ...lowering.model.at_point import needs_semantics, objective_item

    item = objective_item(inst)
    if item is None:
        return False
    return needs_semantics(item.expr, inst) or int(np.count_nonzero(ir.obj)) <= OBJECTIVE_TERMS


def _model_objective(result: Any, report: CheckReport) -> None:
    """Report the objective as the model defines it at the reported point, where the point is whole
    (every decision an integer value) and checked, and the model's objective was evaluated from its
    declaration: a piecewise objective over integers that the solver, through its interpolation
    columns, put at -2.000001 is reported -2, the value of the solution shown. The check found both
    within :data:`OBJECTIVE_TOLERANCE`, so the claim (optimal, or not) is the solver's as before;
    its own figure stays in ``extra["solver_objective"]`` and ``best_bound`` is the solver's."""
    value = report.objective
    if (report.objective_from != "model" or not report.integral or value is None or not math.isfinite(value)
            or result.objective is None or value == result.objective):
        return
    result.extra["solver_objective"] = result.objective
    result.objective = value


def verify_result(result: Any, ir: IR, inst: Any = None) -> None:
    """Check ``result``'s solution (and each solution of its pool) with :func:`check_point`; on a
    disagreement the status becomes ``check_failed`` (the solver's status moves to
    ``last_solve_status``) and error ``OPL0709`` names each disagreement. ``result.extra
    ["solution_check"]`` says what was checked. Nothing happens for a result without column values.
    The sampled plain statements may take a tenth of the work the compile took (``inst.budget.used``),
    at least :data:`~pyopl.lowering.model.at_point.PLAIN_WORK`: a count, so the same model checks the
    same instances on every run."""
    x = getattr(result, "column_values", None)
    if x is None or result.status in ("check_failed", "error"):
        return
    int_tol = getattr(result, "int_tol", None) or 1e-6
    from ...lowering.model.at_point import PLAIN_WORK

    budget = max(PLAIN_WORK, getattr(getattr(inst, "budget", None), "used", 0) // 10)
    report = check_point(ir, x, result.objective, int_tol, inst, budget)
    pool = result.extra.get("pool") or []
    for k, (obj, px) in enumerate(pool[1:], start=1):  # the first is the solution itself
        sub = check_point(ir, np.asarray(px, dtype=float), obj, int_tol, inst, budget)
        for d in sub.disagreements:
            d.detail = ("solution %d of the pool; " % k) + d.detail
        report.disagreements += sub.disagreements
        report.seconds += sub.seconds
    summary = {"ok": report.ok, "evaluated": report.evaluated, "rows": report.rows,
               "objective_from": report.objective_from, "seconds": round(report.seconds, 6)}
    if report.unchecked:
        summary["unchecked"] = report.unchecked
    result.extra["solution_check"] = summary
    if report.ok:
        _model_objective(result, report)
        _assumptions(result, ir, reported_point(ir, np.asarray(x, dtype=float), int_tol))
        return
    summary["disagreements"] = [d.to_dict() for d in report.disagreements[:MAX_REPORTED]]
    result.last_solve_status = result.status
    result.status = "check_failed"
    result.diagnostics = list(result.diagnostics) + [_diagnostic(report, result.solver)]


def _assumptions(result: Any, ir: IR, xr: np.ndarray) -> None:
    """Record in ``result.extra["assumptions"]`` every bound a linearisation assumed, and whether the
    solution touches it; a solution that does is not proved optimal: status ``feasible`` (the
    solver's ``optimal`` kept in ``last_solve_status``), a message and warning ``OPL0710`` saying
    the optimum is only proved within the assumed bounds."""
    if not ir.assumptions:
        return
    out, touched = [], []
    for a in ir.assumptions:
        j, bound = a["column"], a["bound"]
        v = float(xr[j]) if j < len(xr) else math.nan
        t = FEASIBILITY_TOLERANCE * max(1.0, abs(bound))
        hit = v >= bound - t if a["side"] == "upper" else v <= bound + t
        out.append({"variable": ir.column_label(j), "side": a["side"], "bound": bound, "for": a["what"],
                    "touched": bool(hit)})
        if hit:
            touched.append((a, v))
    result.extra["assumptions"] = out
    if not touched or result.status not in ("optimal",):
        return
    from ...diagnostics.reporter import Reporter

    shown = ", ".join("`%s` %s %s" % (ir.column_label(a["column"]), "<=" if a["side"] == "upper" else ">=",
                                       _show(a["bound"])) for a, _v in touched[:3])
    result.last_solve_status = result.status
    result.status = "feasible"
    result.message = "optimal only within the bounds pyopl assumed: %s (the solution is at %s)" % (
        shown, "it" if len(touched) == 1 else "them")
    rep = Reporter(10)
    from ...diagnostics.diagnostic import Span

    span = touched[0][0]["span"] or Span("<model>", 1, 1, 1, 2)
    rep.emit("assumed-bound-touched", span,
             "the solution reaches the bound pyopl assumed for %s: the optimum is proved only within it, so the "
             "status is `feasible`, not `optimal`" % shown,
             help=touched[0][0].get("help") or "give the variable a domain that the model really has (`dvar float+ x "
                                               "in 0..5e6;`), or a row that bounds it, so that M comes from the model")
    result.diagnostics = list(result.diagnostics) + rep.diagnostics


def _diagnostic(report: CheckReport, solver: str) -> Any:
    from ...diagnostics.diagnostic import Span
    from ...diagnostics.reporter import Reporter

    first = report.disagreements[0]
    more = len(report.disagreements) - 1
    span = first.span or Span("<model>", 1, 1, 1, 2)
    rep = Reporter(10)
    rep.emit("solution-check-failed", span,
             "the solution %s returned does not satisfy the model: %s%s" % (
                 solver, first.text(), "; and %d more" % more if more > 0 else ""),
             help="the answer is not reported as a solution; tighten the solver's tolerances (`--option`), "
                  "give the variables in this constraint finite bounds, rescale coefficients far from 1, or try "
                  "another solver (`--solver`)",
             notes=[d.text() for d in report.disagreements[1:MAX_REPORTED]])
    return rep.diagnostics[0]
