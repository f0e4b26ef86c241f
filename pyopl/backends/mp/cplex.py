"""The CPLEX backend (IBM's ``cplex`` package): LP, MILP, MIQP, convex QCP, indicators, the conflict refiner.

Hand-over: columns in one ``variables.add`` (lists of bounds, costs and types), rows in one
``linear_constraints.add`` (senses, right-hand sides, ranges) and their coefficients in one
``linear_constraints.set_coefficients`` call with the ``(row, column, value)`` triplets of the CSR
arrays (``benchmarks/handover.py`` measures it against one ``SparsePair`` per row).  A quadratic
objective goes in with ``objective.set_quadratic`` (CPLEX's ``0.5 x'Qx`` is the IR's); a
non-convex one makes pyopl set ``optimalitytarget = 3`` (global optimum), as CPLEX requires.

The pip package is CPLEX's Community Edition: at most 1,000 variables and 1,000 constraints.
Over it, CPLEX fails with error 1016 (``CPXERR_RESTRICTED_VERSION``), which becomes an ``OPL0701``
diagnostic; a user's own CPLEX installation lifts the limit.  Ctrl-C is caught by the ``cplex``
package itself during ``solve()``; CPLEX then stops with "aborted by user" (13, 113 or 114) and
keeps its incumbent: the result's status is ``interrupted``.
"""
from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from ...diagnostics.diagnostic import Span
from ..interrupt import sigint_stops_solve
from ...ir import IR
from ...results.result import Result
from ..common import (SolveOptions, attach_duals, error_result, fixed_ir, licence_limit_result, option_span, quiet_stdout, refuse,
                      result_from_solution, solver_diagnostic)

#: CPLEX's error for a model over the Community Edition's limits (CPXERR_RESTRICTED_VERSION).
SIZE_LIMIT_ERROR = 1016

# CPLEX solution status codes (Callable Library, group optim.cplex.solutionstatus) -> pyopl's words.
_STATUS = {1: "optimal", 2: "unbounded", 3: "infeasible", 4: "infeasible_or_unbounded", 5: "optimal", 6: "feasible",
           10: "feasible", 11: "time_limit", 12: "feasible", 13: "interrupted", 101: "optimal", 102: "optimal",
           103: "infeasible", 104: "feasible", 105: "feasible", 106: "time_limit", 107: "time_limit",
           108: "time_limit", 113: "interrupted", 114: "interrupted", 115: "optimal", 118: "unbounded",
           119: "infeasible_or_unbounded",
           # multi-objective (staticLex): CPX_STAT_MULTIOBJ_OPTIMAL ... _STOPPED; 305/306 hold a solution not proved optimal
           301: "optimal", 302: "infeasible", 303: "infeasible_or_unbounded", 304: "unbounded", 305: "feasible",
           306: "feasible"}
_STOPPED_BY = {10: "iteration_limit", 12: "objective_limit", 104: "solution_limit", 105: "node_limit",
               106: "node_limit"}


def _cplex():
    """The ``cplex`` module, or None when it is not installed."""
    try:
        import cplex
    except ImportError:
        return None
    return cplex


def available() -> bool:
    """Whether the ``cplex`` package can be imported."""
    return _cplex() is not None


class _OptionError(Exception):
    pass


def _param(c, path: str):
    """``c.parameters.<path>`` (e.g. ``mip.limits.solutions``); :class:`_OptionError` for an unknown path."""
    p = c.parameters
    for part in path.split("."):
        p = getattr(p, part, None)
        if p is None or part.startswith("_"):
            raise _OptionError("CPLEX has no parameter `%s`" % path)
    if not hasattr(p, "set"):
        raise _OptionError("`%s` is a group of CPLEX parameters, not a parameter" % path)
    return p


def _set_params(c, options: SolveOptions) -> None:
    settings: list[tuple[str, Any]] = []
    if options.time_limit is not None:
        settings.append(("timelimit", float(options.time_limit)))
    if options.mip_gap is not None:
        settings.append(("mip.tolerances.mipgap", float(options.mip_gap)))
    if options.mip_gap_abs is not None:
        settings.append(("mip.tolerances.absmipgap", float(options.mip_gap_abs)))
    if options.threads is not None:
        settings.append(("threads", int(options.threads)))
    if options.seed is not None:
        settings.append(("randomseed", int(options.seed)))
    settings += list((options.extra or {}).items())
    cp = _cplex()
    for name, value in settings:
        p = _param(c, name)
        try:
            kind = type(p.default())
            p.set(kind(float(value)) if kind in (int, float) else value)
        except (cp.exceptions.CplexError, TypeError, ValueError) as e:
            raise _OptionError("CPLEX refused the value `%s` for parameter `%s`: %s" % (value, name, e)) from None


def _bounds(a: np.ndarray, inf: float) -> list:
    return np.clip(np.asarray(a, dtype=float), -inf, inf).tolist()


def build(cp, ir: IR, log: Any = None, obj: np.ndarray | None = None, sense: str | None = None):
    """A ``cplex.Cplex`` of ``ir`` (``obj``/``sense`` replace the objective: feasibility checks)."""
    c = cp.Cplex()
    for set_stream in (c.set_results_stream, c.set_log_stream, c.set_warning_stream, c.set_error_stream):
        set_stream(log)
    inf = cp.infinity
    n = ir.num_cols
    sense = ir.sense if sense is None else sense
    c.objective.set_sense(c.objective.sense.maximize if sense == "maximize" else c.objective.sense.minimize)
    cost = np.zeros(n) if sense == "feasibility" else np.asarray(ir.obj if obj is None else obj, dtype=float)
    kw = dict(obj=cost.tolist(), lb=_bounds(ir.col_lower, inf), ub=_bounds(ir.col_upper, inf))
    if ir.is_mip:
        kw["types"] = "".join("I" if t else "C" for t in ir.col_integer)
    if n:
        c.variables.add(**kw)
    _add_rows(c, ir, inf)
    if obj is None and ir.lex_objectives:
        _set_lex(c, ir)
    elif obj is None and sense != "feasibility":
        if ir.obj_constant:
            c.objective.set_offset(float(ir.obj_constant))
        if ir.q is not None and ir.q.nnz:
            Q = ir.q.tocsc()
            Q.sort_indices()
            ind, val, ptr = Q.indices.tolist(), Q.data.tolist(), Q.indptr.tolist()
            c.objective.set_quadratic([cp.SparsePair(ind[ptr[j]:ptr[j + 1]], val[ptr[j]:ptr[j + 1]]) for j in range(n)])
            from ..capabilities import is_convex

            if not is_convex(ir):
                c.parameters.optimalitytarget.set(3)  # CPLEX solves a non-convex QP only to global optimality
    for k, q in enumerate(getattr(ir, "qcons", None) or ()):
        lin = cp.SparsePair([int(j) for j in q.lin], [float(v) for v in q.lin.values()])
        quad = cp.SparseTriple([int(i) for i, _ in q.quad], [int(j) for _, j in q.quad], [float(v) for v in q.quad.values()])
        for s, rhs in _sides(q.lo, q.hi):
            c.quadratic_constraints.add(lin_expr=lin, quad_expr=quad, sense=s, rhs=rhs, name="q%d%s" % (k, s))
    for k, ind in enumerate(getattr(ir, "indicators", None) or ()):
        lin = cp.SparsePair([int(j) for j in ind.terms], [float(v) for v in ind.terms.values()])
        for s, rhs in _sides(ind.lo, ind.hi):
            c.indicator_constraints.add(lin_expr=lin, sense=s, rhs=rhs, indvar=int(ind.binary),
                                        complemented=0 if ind.active else 1, name="ind%d%s" % (k, s))
    return c


def _set_lex(c, ir: IR) -> None:
    """``staticLex``/``staticLexFull``: one CPLEX objective per level, highest priority first
    (CPLEX's multi-objective API, ``Cplex.multiobj``; CPLEX User's Manual, "Multiobjective
    optimization"). Each level may degrade by its ``(abstol, reltol)`` when given; otherwise CPLEX's
    defaults (0 and 0: the levels are exact)."""
    nobj = len(ir.lex_objectives)
    c.multiobj.set_num(nobj)
    for k, (cost, c0) in enumerate(ir.lex_objectives):
        cost = np.asarray(cost, dtype=float)
        nz = np.flatnonzero(cost)
        c.multiobj.set_linear(k, list(zip(nz.tolist(), cost[nz].tolist())))
        c.multiobj.set_offset(k, float(c0))
        c.multiobj.set_priority(k, nobj - k)
        c.multiobj.set_name(k, "objective%d" % (k + 1))
        if ir.lex_tolerances:
            c.multiobj.set_abstol(k, float(ir.lex_tolerances[k][0]))
            c.multiobj.set_reltol(k, float(ir.lex_tolerances[k][1]))


def _sides(lo: float, hi: float) -> list[tuple[str, float]]:
    """``lo <= e <= hi`` as CPLEX's one-sided senses: ``[("E", v)]`` or ``("L", hi)`` / ``("G", lo)``."""
    if np.isfinite(lo) and lo == hi:
        return [("E", float(lo))]
    return ([("L", float(hi))] if np.isfinite(hi) else []) + ([("G", float(lo))] if np.isfinite(lo) else [])


def _add_rows(c, ir: IR, inf: float) -> None:
    """The rows: senses/right-hand sides/ranges in one ``add``, coefficients in one ``set_coefficients``."""
    m = ir.num_rows
    if not m:
        return
    lo, up = np.asarray(ir.row_lower, dtype=float), np.asarray(ir.row_upper, dtype=float)
    flo, fup = np.isfinite(lo), np.isfinite(up)
    sense = np.full(m, "L", dtype="<U1")
    rhs = np.where(fup, up, inf)
    rng = np.zeros(m)
    eq = flo & fup & (lo == up)
    ranged = flo & fup & ~eq
    only_lo = flo & ~fup
    sense[eq] = "E"
    sense[only_lo] = "G"
    rhs[only_lo | eq] = lo[only_lo | eq]
    sense[ranged] = "R"  # CPLEX: rhs <= a'x <= rhs + range
    rhs[ranged] = lo[ranged]
    rng[ranged] = (up - lo)[ranged]
    kw = dict(senses="".join(sense.tolist()), rhs=rhs.tolist())
    if ranged.any():
        kw["range_values"] = rng.tolist()
    c.linear_constraints.add(**kw)
    data, indices, indptr = ir.csr()
    if len(data):
        rows = np.repeat(np.arange(m), np.diff(indptr))
        c.linear_constraints.set_coefficients(list(zip(rows.tolist(), np.asarray(indices).tolist(),
                                                       np.asarray(data, dtype=float).tolist())))


def solve(ir: IR, options: SolveOptions) -> Result:
    """Solve the IR with CPLEX. Returns a :class:`Result` (never raises for the user's model or options).

    ``OPL0702`` when ``cplex`` is missing (with the install command), ``OPL0703`` when the model is
    refused (a non-convex quadratic constraint), ``OPL0701`` over the Community Edition's limits,
    ``OPL0707`` for a refused parameter, ``OPL0706`` otherwise.  ``result.extra["cplex_status"]``
    holds CPLEX's own status code (what ``cplex.status`` reads in a script)."""
    cp = _cplex()
    if cp is None:
        return error_result("cplex", "solver-not-installed", "the CPLEX backend needs the `cplex` package, "
                            "which is not installed", options,
                            help='install it with `pip install "pyopl[cplex]"`, or use HiGHS (`--solver highs`)',
                            span=Span("--solver cplex", 1, 1, 1, 2))
    refused = refuse(ir, "cplex", options)
    if refused is not None:
        return refused
    start = time.perf_counter()
    try:
        with quiet_stdout(allow=options.log_to_console):
            res = _solve(cp, ir, options)
    except _OptionError as e:
        return error_result("cplex", "solver-option-invalid", str(e), options,
                            help="CPLEX parameters go by their Python API names, e.g. `mip.limits.solutions=1`",
                            span=option_span(options, str(e)))
    except cp.exceptions.CplexError as e:
        return _cplex_error(ir, e, options)
    res.solve_time_s = time.perf_counter() - start
    return res


def _watch(cp, c, ir: IR, options: SolveOptions, stop: Any) -> None:
    """Feed ``options.progress`` from CPLEX's informational callbacks (``MIPInfoCallback`` for a MIP,
    ``ContinuousCallback`` for an LP or QP: they leave CPLEX's dynamic search on) and abort the
    solve after Ctrl-C (``stop``), besides the ``cplex`` package's own handling. Nothing is
    registered when progress is not wanted."""
    if options.progress is None:
        return
    progress = options.progress
    if ir.is_mip:
        class MipProgress(cp.callbacks.MIPInfoCallback):
            def __call__(self):
                if stop.requested:
                    self.abort()
                    return
                has = self.has_incumbent()
                progress({"elapsed_s": self.get_time() - self.get_start_time(),
                          "incumbent": self.get_incumbent_objective_value() if has else None,
                          "bound": self.get_best_objective_value(),
                          "gap": self.get_MIP_relative_gap() if has else None, "nodes": int(self.get_num_nodes())})

        c.register_callback(MipProgress)
    else:
        class LpProgress(cp.callbacks.ContinuousCallback):
            def __call__(self):
                if stop.requested:
                    self.abort()
                    return
                progress({"elapsed_s": self.get_time() - self.get_start_time(),
                          "iterations": int(self.get_num_iterations())})

        c.register_callback(LpProgress)


def _cplex_error(ir: IR, e: Exception, options: SolveOptions) -> Result:
    code = e.args[2] if len(e.args) > 2 else None
    if code == SIZE_LIMIT_ERROR:
        rows = ir.num_rows + len(getattr(ir, "qcons", None) or ()) + len(getattr(ir, "indicators", None) or ())
        msg = ("the model has %d variables and %d constraints, over the limits of the CPLEX Community Edition "
               "that the `cplex` pip package contains (1,000 variables and 1,000 constraints)" % (ir.num_cols, rows))
        return licence_limit_result("cplex", ir, msg, options,
                                    help="solve it with `--solver highs` or `--solver scip` (no size limit), or point "
                                         "the `cplex` package at a full CPLEX installation", cols_over=ir.num_cols > 1000)
    return error_result("cplex", "solver-failed", "CPLEX failed: %s" % (e.args[0] if e.args else e), options)


def _feasible(c: Any) -> bool:
    """Whether CPLEX's last solve left a primal feasible point (an unbounded ray alone does not)."""
    try:
        return bool(c.solution.is_primal_feasible())
    except Exception:  # no solution of any kind
        return False


def _feasibility_status(c: Any) -> str:
    """What an ``unbounded`` answer without a feasible point is: CPLEX reports status 2 (CPX_STAT_UNBOUNDED,
    "has an unbounded ray") for a model that is infeasible too (``x0 in -5..0; 6 <= x0 <= 9`` beside a free
    ``x1`` with a cost), so the rows are solved again with no objective: ``infeasible`` when that has no
    point, ``unbounded`` when it has one, ``infeasible_or_unbounded`` when it cannot tell. The objective
    is not restored: only the status of this solve is read afterwards."""
    n = c.variables.get_num()
    if n:
        c.objective.set_linear([(j, 0.0) for j in range(n)])
        if c.objective.get_num_quadratic_nonzeros():
            c.objective.set_quadratic([0.0] * n)
    c.parameters.preprocessing.presolve.set(1)
    c.solve()
    found = _STATUS.get(int(c.solution.get_status()), "error")
    return {"optimal": "unbounded", "feasible": "unbounded", "infeasible": "infeasible"}.get(
        found, "infeasible_or_unbounded")


def _solve(cp, ir: IR, options: SolveOptions) -> Result:
    log = sys.stderr if options.log_to_console else None
    log_file = open(options.log_file, "w") if options.log_file else None
    try:
        c = build(cp, ir, log if log_file is None else log_file)
        _set_params(c, options)
        if options.start is not None and ir.is_mip:  # a MIP start (CPLEX's own warm start of a MIP)
            st = np.asarray(options.start, dtype=float)
            idx = np.flatnonzero(~np.isnan(st))
            if len(idx):
                c.MIP_starts.add(cp.SparsePair(idx.tolist(), st[idx].tolist()), c.MIP_starts.effort_level.auto)
        if options.branching and ir.is_mip:  # x.priority / x.direction of a script: CPLEX's priority order
            d = c.order.branch_direction
            c.order.set([(int(j), int(p), {-1: d.down, 1: d.up}.get(k, d.default))
                         for j, (p, k) in sorted(options.branching.items())])
        with sigint_stops_solve() as stop:
            _watch(cp, c, ir, options, stop)
            c.solve()
        code = int(c.solution.get_status())
        status = _STATUS.get(code, "error")
        if status == "infeasible_or_unbounded":
            c.parameters.preprocessing.presolve.set(0)  # without presolve CPLEX tells the two apart
            c.solve()
            code = int(c.solution.get_status())
            status = _STATUS.get(code, "error")
        if status == "unbounded" and not _feasible(c):  # CPLEX's "unbounded ray" says nothing of feasibility
            code, status = code, _feasibility_status(c)
        has = c.solution.get_solution_type() != c.solution.type.none and bool(c.solution.is_primal_feasible())
        xv = obj = None
        if has and status in ("optimal", "feasible", "time_limit", "interrupted"):
            xv = np.asarray(c.solution.get_values(), dtype=float) if ir.num_cols else np.zeros(0)
            obj = float(c.solution.get_objective_value())
        res = result_from_solution(ir, status, xv, obj, "cplex", float(c.parameters.mip.tolerances.integrality.get()))
        res.extra["cplex_status"] = code
        if code in _STOPPED_BY:
            res.extra["stopped_by"] = _STOPPED_BY[code]
        if status == "error":
            res.message = "CPLEX stopped with status %d (%s)" % (code, c.solution.get_status_string())
            res.diagnostics = [solver_diagnostic("solver-failed", res.message, options)]
        res.iterations = int(c.solution.progress.get_num_iterations())
        if ir.lex_objectives and xv is not None:  # each level's value at the solution, in priority order
            vals = [float(c.solution.multiobj.get_objective_value(k)) for k in range(len(ir.lex_objectives))]
            res.objective = vals[0]
            res.extra["objectives"] = vals
        if ir.is_mip:
            res.nodes = int(c.solution.progress.get_num_nodes_processed())
            if xv is not None and not ir.lex_objectives:  # (a multi-objective solve has no overall bound or gap)
                res.best_bound = float(c.solution.MIP.get_best_objective())
                res.mip_gap = float(c.solution.MIP.get_mip_relative_gap())
        if options.pool and xv is not None:
            res.extra["pool"] = _pool(c, ir, xv, obj, options)
        if xv is not None and status == "optimal":
            if not ir.is_mip and not ir.lex_objectives and not getattr(ir, "qcons", None) \
                    and not getattr(ir, "indicators", None):
                _duals(c, ir, res, xv)
            elif ir.is_mip and options.fixed_duals:
                fixed = fixed_ir(ir, xv)
                cf = build(cp, fixed)
                cf.solve()
                if cf.solution.get_status() == 1:
                    _duals(cf, fixed, res, np.asarray(cf.solution.get_values(), dtype=float))
                    res.extra["duals_of"] = "the LP with the integer variables fixed at their values"
                cf.end()
        c.end()
        return res
    finally:
        if log_file is not None:
            log_file.close()


def _pool(c, ir: IR, xv: np.ndarray, obj: float, options: SolveOptions) -> list:
    """``cplex.populate()``: CPLEX's populate after the solve, its pool as ``[(objective, column
    values)]`` in CPLEX's order (``populatelim`` solutions at most unless set otherwise)."""
    if not ir.is_mip or not ir.num_cols:
        return [(obj, xv)]
    if not any(k in ("mip.limits.populate", "populatelim") for k in options.extra):
        c.parameters.mip.limits.populate.set(options.pool)
    with sigint_stops_solve():
        c.populate_solution_pool()
    pool = c.solution.pool
    return [(float(pool.get_objective_value(i)), np.asarray(pool.get_values(i), dtype=float))
            for i in range(pool.get_num())] or [(obj, xv)]


def _duals(c, ir: IR, res: Result, xv: np.ndarray) -> None:
    """Row duals and reduced costs (CPLEX's signs are the rate of change of the objective per unit of
    the right-hand side or bound, the convention of :func:`~pyopl.backends.common.attach_duals`)."""
    try:
        pi = np.asarray(c.solution.get_dual_values(), dtype=float) if ir.num_rows else np.zeros(0)
        rc = np.asarray(c.solution.get_reduced_costs(), dtype=float) if ir.num_cols else np.zeros(0)
    except _cplex().exceptions.CplexError:  # solved as a MIP (a non-convex QP to global optimality): none
        return
    attach_duals(ir, res, pi, rc, ir.A @ xv if ir.num_rows else np.zeros(0))


def compute_iis(ir: IR, options: SolveOptions) -> tuple[list[tuple[int, str]], list[tuple[int, str]]] | None:
    """CPLEX's conflict refiner on the rows and bounds of ``ir``: ``(rows, bounds)`` as lists of
    ``(index, side)``; None when ``cplex`` is missing, the Community Edition refuses the model, or
    CPLEX finds no conflict (quadratic and indicator constraints stay in the model, unrefined)."""
    cp = _cplex()
    if cp is None:
        return None
    try:
        with quiet_stdout():
            c = build(cp, ir, None, obj=np.zeros(ir.num_cols), sense="minimize")
            if options.time_limit is not None:
                c.parameters.timelimit.set(float(options.time_limit))
            groups = [(1.0, ((c.conflict.constraint_type.linear, i),)) for i in range(ir.num_rows)]
            groups += [(1.0, ((c.conflict.constraint_type.lower_bound, j),)) for j in range(ir.num_cols)
                       if np.isfinite(ir.col_lower[j])]
            groups += [(1.0, ((c.conflict.constraint_type.upper_bound, j),)) for j in range(ir.num_cols)
                       if np.isfinite(ir.col_upper[j])]
            c.conflict.refine(*groups)
            if c.solution.get_status() not in (31, 32, 33, 34, 35, 36, 37, 38):  # not a conflict
                c.end()
                return None
            got = c.conflict.get()
            lin, lbt = int(c.conflict.constraint_type.linear), int(c.conflict.constraint_type.lower_bound)
            c.end()
    except cp.exceptions.CplexError:
        return None
    rows: dict[int, set] = {}
    cols: dict[int, set] = {}
    for (_, ((kind, idx),)), st in zip(groups, got):
        if st < 3:  # excluded (-1) or only a possible member (0-2): the refiner did not prove it
            continue
        if int(kind) == lin:
            lo, up = ir.row_lower[idx], ir.row_upper[idx]
            side = {4: "lower", 5: "upper"}.get(st) or (
                "both" if np.isfinite(lo) and np.isfinite(up) else "lower" if np.isfinite(lo) else "upper")
            rows.setdefault(idx, set()).add(side)
        else:
            cols.setdefault(idx, set()).add("lower" if int(kind) == lbt else "upper")
    if not rows and not cols:
        return None
    out_rows = [(i, next(iter(s)) if len(s) == 1 else "both") for i, s in sorted(rows.items())]
    out_cols = [(j, next(iter(s)) if len(s) == 1 else "both") for j, s in sorted(cols.items())]
    return out_rows, out_cols
