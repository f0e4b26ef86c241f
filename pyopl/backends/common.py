"""What every backend shares: options, stdout hygiene, and mapping solutions back to OPL names."""
from __future__ import annotations

import contextlib
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..ir import IR
from ..results.numbers import DEFAULT_INTEGRALITY_TOLERANCE, integral_value
from ..results.result import Result, Values


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
    fixed_duals: bool = False  # for a MIP: fix the integers at the solution and report the LP's duals
    # `cplex.populate()`: keep up to this many solutions in ``result.extra["pool"]`` as a list of
    # ``(objective, column values)``, best first (backends whose capabilities have ``pool``); 0: none
    pool: int = 0
    # a MIP start (``IloOplCplexVectors``): one value per column, NaN where none is given; the solver
    # starts from it (HiGHS setSolution, Gurobi Start, CPLEX MIP start, SCIP addSol)
    start: Any = None
    # an LP basis (``IloOplCplexBasis``) as HiGHS's ``(col_status, row_status)`` int arrays (HiGHS only);
    # ``keep_basis``: put the final basis of an LP solve in ``result.extra["basis"]`` (HiGHS only)
    basis: Any = None
    keep_basis: bool = False
    # branching priorities and directions a script set (``x.priority = 100``, ``x.direction = 1``): {column:
    # (priority, direction)}, direction -1 down, 0 the solver's choice, 1 up (CPLEX's order takes both;
    # Gurobi BranchPriority and SCIP's branch priority the priority; HiGHS neither: a warning says so)
    branching: Any = None
    model_file: str = "<model>"  # where solver diagnostics point (the model's file name)
    # Called from the solver's callbacks with {"elapsed_s", "incumbent", "bound", "gap", "nodes", "iterations"}
    # (see pyopl.backends.progress); None: no progress callbacks at all.
    progress: Any = None


def solver_diagnostic(slug: str, message: str, options: SolveOptions | None = None, *, help: str | None = None,
                      notes: tuple[str, ...] = (), span: Any = None, labels: tuple = ()) -> Any:
    """A :class:`~pyopl.diagnostics.diagnostic.Diagnostic` of a solver outcome (07xx codes).

    Points at ``span`` when given, else at the first line of the model file."""
    from ..diagnostics import codes  # noqa: F401  (fills the registry)
    from ..diagnostics.diagnostic import Diagnostic, Span
    from ..diagnostics.registry import BY_SLUG

    kind = BY_SLUG[slug]
    if span is None:
        span = Span(options.model_file if options else "<model>", 1, 1, 1, 2)
    return Diagnostic(kind.code, kind.severity, message, span, tuple(labels), tuple(notes), help)


def error_result(solver: str, slug: str, message: str, options: SolveOptions | None, help: str | None = None,
                 span: Any = None) -> Result:
    """A ``status="error"`` result that carries one solver diagnostic (and its message)."""
    res = Result("error", solver=solver, message=message)
    res.diagnostics = [solver_diagnostic(slug, message, options, help=help, span=span)]
    return res


def largest_dvar(ir: IR) -> tuple[str, int, Any] | None:
    """``(name, columns, span)`` of the decision variable with the most columns; None when the model
    has no columns or the declaration's place is unknown."""
    if not ir.num_cols or not ir.dvar_spans:
        return None
    names, counts = np.unique(np.asarray(ir.col_name, dtype=object), return_counts=True)
    for k in np.argsort(-counts, kind="stable"):
        span = ir.dvar_spans.get(names[k])
        if span is not None:
            return "`%s`" % names[k], int(counts[k]), span
    return None


def largest_statement(ir: IR) -> tuple[str, int, Any] | None:
    """``(what, rows, span)`` of the constraint statement that made the most rows; None when unknown."""
    if not ir.num_rows or ir.row_stmt is None or not ir.stmt_spans:
        return None
    stmts = np.asarray(ir.row_stmt, dtype=np.int64)
    stmts = stmts[stmts >= 0]
    if not stmts.size:
        return None
    counts = np.bincount(stmts)
    k = int(np.argmax(counts))
    return "this constraint", int(counts[k]), ir.stmt_spans[k]


def licence_limit_result(solver: str, ir: IR, message: str, options: SolveOptions | None, help: str,
                         cols_over: bool) -> Result:
    """The ``solver-licence-limit`` error where the model grew past the licence: at the declaration of
    the largest decision variable when the columns are over the limit (``cols_over``), else at the
    constraint statement that made the most rows, naming how many it makes; at the model's start when
    neither place is known."""
    big = largest_dvar(ir) if cols_over else largest_statement(ir)
    if big is None:
        return error_result(solver, "solver-licence-limit", message, options, help=help)
    what, n, span = big
    return error_result(solver, "solver-licence-limit", "%s; %s alone makes %d %s" % (
        message, what, n, "variables" if cols_over else "constraints"), options, help=help, span=span)


def option_span(options: SolveOptions | None, message: str) -> Any:
    """Where a solver option came from: the command line's (or API's) ``--option NAME=VALUE`` that the
    message names, rather than line 1 of the model (it is no place in the model)."""
    from ..diagnostics.diagnostic import Span

    extra = dict(options.extra) if options is not None and options.extra else {}
    name = next((k for k in extra if "`%s`" % k in message), next(iter(extra), "?"))
    return Span("--option %s=%s" % (name, extra.get(name, "")), 1, 1, 1, 2)


def refuse(ir: IR, backend: str, options: SolveOptions) -> Result | None:
    """The ``backend-cannot-take`` error result when the backend's capabilities exclude the model, else None."""
    from .capabilities import refusal, refusal_site

    why = refusal(ir, backend)
    if why is None:
        return None
    site = refusal_site(ir, backend)
    if site is not None:  # the refusal has a place in the model: point there
        res = Result("error", solver=backend, message=site[1])
        res.diagnostics = [solver_diagnostic("backend-cannot-take", site[1], options, help=site[2], span=site[0])]
        return res
    # the features that live in the objective (a quadratic or staticLex one) are refused at the objective
    from .capabilities import CAPABILITIES, model_features

    caps = CAPABILITIES.get(backend)
    at_objective = caps is not None and ir.objective_span is not None and any(
        f not in caps.features for f in model_features(ir) & {"qp", "miqp", "nonconvex_qp", "lex"})
    return error_result(backend, "backend-cannot-take", why[0], options, help=why[1],
                        span=ir.objective_span if at_objective else None)


def row_slacks(ir: IR, row_value: np.ndarray) -> np.ndarray:
    """Slack of each row: distance from its activity to the nearest finite bound (>= 0 when the row holds).

    For ``e <= hi`` it is ``hi - e``; for ``e >= lo`` it is ``e - lo``; for a ranged
    row the smaller of the two; ``inf`` for a free row.  (OPL's ``slack`` of a
    ranged constraint is defined the same way.)"""
    up = np.where(np.isfinite(ir.row_upper), ir.row_upper - row_value, np.inf)
    lo = np.where(np.isfinite(ir.row_lower), row_value - ir.row_lower, np.inf)
    return np.minimum(up, lo)


def fixed_ir(ir: IR, x: np.ndarray) -> IR:
    """``ir`` with every integer column fixed at its (rounded) value in ``x`` and integrality dropped.

    Solving it gives the duals of the MIP's final LP, the usual meaning of
    "MIP duals" (CPLEX's fixed problem, Gurobi's ``Model.fixed()``)."""
    import dataclasses

    lo, up = ir.col_lower.copy(), ir.col_upper.copy()
    ints = ir.col_integer
    v = np.round(x[ints])
    lo[ints] = v
    up[ints] = v
    inds = getattr(ir, "indicators", None)
    if inds:  # the binaries are fixed: an active indicator is a plain row, an inactive one holds nothing
        return _rows_for_indicators(dataclasses.replace(ir, col_lower=lo, col_upper=up, col_integer=np.zeros_like(ints),
                                                        A=ir.A, indicators=[]), inds, x)
    # A as the IR holds it (maybe not yet SciPy's: replace() would read ir.A and make it)
    return dataclasses.replace(ir, col_lower=lo, col_upper=up, col_integer=np.zeros_like(ints), A=ir.__dict__["A"])


def _rows_for_indicators(ir: IR, inds: list, x: np.ndarray) -> IR:
    """``ir`` (binaries fixed at ``x``) with each indicator whose binary sits at its active value
    appended as the row ``lo <= terms @ x <= hi``, labelled as its constraint (for fixed duals)."""
    import scipy.sparse as sp

    active = [d for d in inds if round(float(x[d.binary])) == d.active]
    if not active:
        return ir
    n = ir.num_cols
    extra = sp.csr_array(([float(c) for d in active for c in d.terms.values()],
                          ([k for k, d in enumerate(active) for _ in d.terms], [int(j) for d in active for j in d.terms])),
                         shape=(len(active), n))
    ir.A = sp.vstack([ir.A, extra], format="csr")
    ir.row_lower = np.concatenate([ir.row_lower, [d.lo for d in active]])
    ir.row_upper = np.concatenate([ir.row_upper, [d.hi for d in active]])
    ir.row_label = list(ir.row_label) + [d.label for d in active]
    ir.row_key = list(ir.row_key) + [d.key for d in active]
    if ir.row_stmt is not None:
        ir.row_stmt = list(ir.row_stmt) + [-1] * len(active)
    return ir


def attach_duals(ir: IR, res: Result, row_dual: np.ndarray, col_dual: np.ndarray, row_value: np.ndarray) -> None:
    """Fill ``res.duals``/``slacks`` (by constraint label) and ``reduced_costs`` (by dvar) from solver arrays.

    Sign convention of both backends: a dual is the rate of change of the
    objective per unit increase of the row's bound (so it is ``>= 0`` on a binding
    ``>=`` row of a minimisation); a reduced cost likewise per unit of the variable's bound."""
    res.duals = by_family(ir, np.asarray(row_dual, dtype=float) + 0.0)  # + 0.0: no negative zeros
    res.slacks = by_family(ir, row_slacks(ir, np.asarray(row_value, dtype=float)))
    res.reduced_costs = by_dvar(ir, np.asarray(col_dual, dtype=float), None)


@contextlib.contextmanager
def quiet_stdout(allow: bool = False, discard: bool = False):
    """Send what native code writes to file descriptor 1 to stderr (to ``os.devnull`` with ``discard``)
    while the block runs, so that standard output carries only the caller's own output (e.g. JSON)."""
    if allow:
        yield
        return
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no real stdout (e.g. some notebooks)
        yield
        return
    sink = os.open(os.devnull, os.O_WRONLY) if discard else 2
    try:
        os.dup2(sink, 1)
        if discard:
            os.close(sink)
        yield
    finally:
        try:
            sys.stdout.flush()
        except Exception:
            pass
        os.dup2(saved, 1)
        os.close(saved)


def by_dvar(ir: IR, x: np.ndarray, int_tol: float | None = DEFAULT_INTEGRALITY_TOLERANCE) -> dict[str, Any]:
    """Column values -> {dvar name: value (scalar) or Values keyed by index tuples}.

    Values of ``int``/``boolean`` decisions within ``int_tol`` (the solver's integrality
    tolerance) of an integer become Python ``int`` (see :mod:`pyopl.results.numbers`); others are floats.
    ``int_tol=None`` keeps every value a float (reduced costs are not values of the decisions)."""
    out: dict[str, Any] = {}
    for name, block in ir.dvars.items():
        vals = x[block.first:block.first + block.size]
        if block.dims == 0:
            out[name] = _clean(float(vals[0]), block.kind, int_tol) if len(vals) else None
        else:
            out[name] = Values({k: _clean(float(v), block.kind, int_tol) for k, v in zip(block.keys, vals)}, block.dims)
    return out


def _clean(v: float, kind: str, int_tol: float | None = DEFAULT_INTEGRALITY_TOLERANCE) -> int | float:
    if int_tol is not None and kind in ("int", "boolean"):
        v = integral_value(v, int_tol)
        if isinstance(v, int):
            return v
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


def dexpr_values(ir: IR, x: np.ndarray, int_tol: float | None = DEFAULT_INTEGRALITY_TOLERANCE) -> dict[str, Any]:
    """Values of the dexprs at the column values ``x``: {name: value (scalar) or Values by key}.

    A dexpr made only of integer decisions with integral coefficients and constant (``dexpr int
    total = sum(i in I) 3 * n[i];``) is an integer: it is evaluated at the integer values the
    decisions are reported with (:func:`integer_solution`) and reported as a Python ``int``, as the
    decisions are, instead of ``9.000000000000007``; any other dexpr keeps full float precision."""
    xi = integer_solution(ir, x, int_tol)
    out: dict[str, Any] = {}
    for name, forms in ir.dexprs.items():
        vals = {}
        for key, f in forms.items():
            vals[key] = _form_value(ir, f, x, xi)
        if list(forms) == [()]:
            out[name] = vals[()]
        else:
            out[name] = Values(vals, max((len(k) for k in forms), default=1))
    return out


def _eval_form(f: Any, x: np.ndarray) -> float:
    from ..lowering.forms.linear import LinExpr, QuadExpr

    if isinstance(f, LinExpr):
        return float(f.const + sum(c * x[j] for j, c in f.terms.items()))
    if isinstance(f, QuadExpr):
        return _eval_form(f.lin, x) + float(sum(c * x[i] * x[j] for (i, j), c in f.quad.items()))
    return float(f)


def integer_solution(ir: IR, x: np.ndarray, int_tol: float | None = DEFAULT_INTEGRALITY_TOLERANCE) -> np.ndarray | None:
    """``x`` with each integer column rounded when it is within ``int_tol`` of an integer (the values
    :func:`by_dvar` reports); None when ``int_tol`` is None or some integer column is not within it."""
    if int_tol is None or not ir.col_integer.any():
        return None
    x = np.asarray(x, dtype=float).copy()
    ints = np.flatnonzero(ir.col_integer[:len(x)])
    r = np.round(x[ints])
    if not np.all(np.abs(x[ints] - r) <= int_tol):
        return None
    x[ints] = r
    return x


def _integral(v: float) -> bool:
    return math.isfinite(v) and float(v).is_integer() and abs(v) < 2 ** 53


def _form_value(ir: IR, f: Any, x: np.ndarray, xi: np.ndarray | None) -> int | float:
    if xi is not None and _integer_form(ir, f):
        return int(round(_eval_form(f, xi)))
    return _eval_form(f, x)


def _integer_form(ir: IR, f: Any) -> bool:
    """Every term of the linear (or quadratic) form ``f`` is an integer column with an integral
    coefficient, and its constant is integral: its value at integer columns is an integer."""
    from ..lowering.forms.linear import LinExpr, QuadExpr

    if isinstance(f, QuadExpr):
        return _integer_form(ir, f.lin) and all(
            ir.col_integer[i] and ir.col_integer[j] and _integral(c) for (i, j), c in f.quad.items())
    if isinstance(f, LinExpr):
        return _integral(f.const) and all(ir.col_integer[j] and _integral(c) for j, c in f.terms.items())
    return False  # a plain number: reported as it is


def integer_objective(ir: IR, x: np.ndarray, int_tol: float | None) -> int | None:
    """The objective at ``x`` as an ``int`` when every objective term is an integer column with an
    integral coefficient (constant and quadratic part included) and the integer columns are within
    ``int_tol`` of integers; else None (keep the solver's float)."""
    xi = integer_solution(ir, x, int_tol)
    if xi is None or ir.sense == "feasibility" or getattr(ir, "lex_objectives", None):
        return None
    nz = np.flatnonzero(ir.obj)
    if not _integral(float(ir.obj_constant)) or not ir.col_integer[nz].all() or \
            not all(_integral(float(c)) for c in ir.obj[nz]):
        return None
    value = float(ir.obj[nz] @ xi[nz]) + float(ir.obj_constant)
    if ir.q is not None:
        q = ir.q.tocoo()
        if not (ir.col_integer[q.row].all() and ir.col_integer[q.col].all() and all(_integral(float(c)) for c in q.data)):
            return None
        value += 0.5 * float(np.sum(q.data * xi[q.row] * xi[q.col]))
        if not _integral(value):
            return None
    return int(round(value))


def result_from_solution(ir: IR, status: str, x: np.ndarray | None, obj: float | None, solver: str,
                         int_tol: float = DEFAULT_INTEGRALITY_TOLERANCE) -> Result:
    """A :class:`Result` with values by OPL name from the column values ``x`` (None: no solution)."""
    res = Result(status, solver=solver)
    res.int_tol = int_tol
    if x is not None:
        res.column_values = np.asarray(x, dtype=float)
        res.objective = obj if ir.sense != "feasibility" else (0.0 if obj is None else obj)
        if ir.sense == "feasibility":
            res.objective = None
        res.variables = by_dvar(ir, x, int_tol)
        res.dexprs = dexpr_values(ir, x, int_tol)
        if res.objective is not None:
            whole = integer_objective(ir, x, int_tol)
            if whole is not None and abs(whole - res.objective) <= max(1e-6, 1e-9 * abs(whole)) + \
                    int_tol * float(np.abs(ir.obj).sum()):
                res.objective = whole  # an all-integer objective at integer decisions (pyopl.numbers)
    return res


def relax(ir: IR) -> IR:
    """The continuous relaxation of ``ir`` with a linear objective (integrality and ``Q`` dropped)."""
    import dataclasses

    return dataclasses.replace(ir, col_integer=np.zeros_like(ir.col_integer), q=None, lex_objectives=None,
                               A=ir.__dict__["A"])  # as held (replace() would read ir.A and make SciPy's)


def ray_labels(ir: IR, ray: np.ndarray, tol: float = 1e-9) -> dict[str, float]:
    """``{'x["a"]': 1.0, ...}``: the nonzero entries of an unbounded ray by OPL column label, largest scaled to 1."""
    ray = np.asarray(ray, dtype=float)
    if not len(ray) or not np.any(np.abs(ray) > tol):
        return {}
    ray = ray / np.abs(ray).max()
    return {ir.column_label(j): float(ray[j]) for j in np.flatnonzero(np.abs(ray) > tol)}
