"""The Gurobi backend, through ``gurobipy``'s matrix API (``addMVar``, ``addMConstr``).

``gurobipy`` is imported only when this backend is used (it is the optional
extra ``[gurobi]``).  Every model gets its own ``Env`` whose log settings are
made before ``start()``, so neither the licence banner nor the log reaches
standard output (the log goes to stderr with ``--log``, to a file with
``--log-file``).  The pip package's size-limited licence (error 10010, raised by
``optimize()`` only) becomes the ``OPL0701`` diagnostic.

Rows ``lo <= a.x <= hi`` map to Gurobi's one-sided rows: an equality when
``lo == hi``, else one ``<=`` row for a finite ``hi`` and one ``>=`` row for a finite
``lo`` (a ranged row becomes two); duals are summed back per IR row.
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..interrupt import StopRequest, sigint_stops_solve
from ...ir import IR
from ...results.result import Result
from ...diagnostics.diagnostic import Span
from ..common import (option_span, SolveOptions, attach_duals, error_result, fixed_ir, licence_limit_result, quiet_stdout, ray_labels, refuse, relax,
                      result_from_solution, solver_diagnostic)

#: Gurobi's error code for a model over the size-limited licence.
SIZE_LIMIT_ERROR = 10010
_UNKNOWN_PARAMETER, _INVALID_ARGUMENT = 10007, 10003

# Gurobi status codes (gurobipy.GRB.Status) -> the shared vocabulary of pyopl.results.result.STATUSES.
_STATUS = {2: "optimal", 3: "infeasible", 4: "infeasible_or_unbounded", 5: "unbounded", 7: "time_limit",
           8: "feasible", 9: "time_limit", 10: "feasible", 11: "interrupted", 12: "error", 13: "feasible",
           15: "feasible", 16: "time_limit", 17: "error"}


def _gurobipy():
    """The ``gurobipy`` module, or None when it is not installed."""
    try:
        import gurobipy
    except ImportError:
        return None
    return gurobipy


def available() -> bool:
    """Whether ``gurobipy`` can be imported (the licence is only tested by solving)."""
    return _gurobipy() is not None


class _OptionError(Exception):
    pass


def _env(gp, options: SolveOptions):
    """A started ``Env`` with the log settings applied before ``start()`` (no banner on stdout)."""
    env = gp.Env(empty=True)
    env.setParam("OutputFlag", 1 if (options.log_to_console or options.log_file) else 0)
    env.setParam("LogToConsole", 1 if options.log_to_console else 0)
    if options.log_file:
        env.setParam("LogFile", str(options.log_file))
    env.start()
    return env


def _set_params(m, options: SolveOptions) -> None:
    gp = _gurobipy()
    settings: list[tuple[str, Any]] = []
    if options.time_limit is not None:
        settings.append(("TimeLimit", float(options.time_limit)))
    if options.mip_gap is not None:
        settings.append(("MIPGap", float(options.mip_gap)))
    if options.mip_gap_abs is not None:
        settings.append(("MIPGapAbs", float(options.mip_gap_abs)))
    if options.threads is not None:
        settings.append(("Threads", int(options.threads)))
    if options.seed is not None:
        settings.append(("Seed", int(options.seed)))
    settings += list((options.extra or {}).items())
    for name, value in settings:
        try:
            m.setParam(name, value)
        except gp.GurobiError as e:
            raise _OptionError("Gurobi refused the option `%s=%s`: %s" % (name, value, e)) from None
        except (TypeError, ValueError) as e:
            raise _OptionError("Gurobi refused the option `%s=%s`: %s" % (name, value, e)) from None


def _split_rows(ir: IR) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(IR row of each Gurobi row, senses, right-hand sides): equalities, then ``<=`` rows, then ``>=`` rows."""
    lo, up = ir.row_lower, ir.row_upper
    eq = np.isfinite(lo) & (lo == up)
    has_up = np.isfinite(up) & ~eq
    has_lo = np.isfinite(lo) & ~eq
    idx = np.concatenate([np.flatnonzero(eq), np.flatnonzero(has_up), np.flatnonzero(has_lo)]).astype(np.int64)
    sense = np.array(["="] * int(eq.sum()) + ["<"] * int(has_up.sum()) + [">"] * int(has_lo.sum()), dtype="<U1")
    rhs = np.concatenate([lo[eq], up[has_up], lo[has_lo]]).astype(float)
    return idx, sense, rhs


def build(gp, env, ir: IR, obj: np.ndarray | None = None, obj_constant: float | None = None, sense: str | None = None):
    """A ``gurobipy.Model`` of ``ir``; returns ``(model, x MVar, MConstr or None, IR row of each Gurobi row)``.

    ``obj``/``obj_constant``/``sense`` replace the IR's objective (used for feasibility checks)."""
    GRB = gp.GRB
    m = gp.Model(env=env)
    n = ir.num_cols
    vtype = np.where(ir.col_integer, GRB.INTEGER, GRB.CONTINUOUS) if n else np.zeros(0, dtype="<U1")
    x = m.addMVar(n, lb=_finite(ir.col_lower, GRB.INFINITY), ub=_finite(ir.col_upper, GRB.INFINITY), vtype=vtype)
    rows, senses, rhs = _split_rows(ir)
    constr = None
    if len(rows):
        constr = m.addMConstr(ir.A.tocsr()[rows], x, senses, rhs)
    _add_quadratic_constraints(m, x, ir)
    _add_indicators(gp, m, x, ir)
    sense = ir.sense if sense is None else sense
    gsense = GRB.MAXIMIZE if sense == "maximize" else GRB.MINIMIZE
    m.ModelSense = gsense
    if obj is not None:
        m.setMObjective(None, np.asarray(obj, dtype=float), float(obj_constant or 0.0), sense=gsense)
    elif ir.lex_objectives:
        nobj = len(ir.lex_objectives)
        xs = x.tolist()
        for k, (c, c0) in enumerate(ir.lex_objectives):
            nz = np.flatnonzero(c)
            expr = gp.LinExpr([float(c[j]) for j in nz], [xs[int(j)] for j in nz]) + float(c0)
            tols = {} if not ir.lex_tolerances else {"abstol": float(ir.lex_tolerances[k][0]),
                                                     "reltol": float(ir.lex_tolerances[k][1])}
            m.setObjectiveN(expr, index=k, priority=nobj - k, name="objective%d" % (k + 1), **tols)
    elif sense != "feasibility":
        Q = None if ir.q is None or not ir.q.nnz else (0.5 * ir.q).tocsr()
        m.setMObjective(Q, np.asarray(ir.obj, dtype=float), float(ir.obj_constant), sense=gsense)
    m.update()
    return m, x, constr, rows


def _add_quadratic_constraints(m, x, ir: IR) -> None:
    """Each ``lo <= lin + x'Qx <= hi`` of ``ir.qcons`` as one or two ``addMQConstr`` (matrix API)."""
    import scipy.sparse as sp

    n = ir.num_cols
    for k, q in enumerate(getattr(ir, "qcons", None) or ()):
        ij = list(q.quad)
        Q = sp.csr_matrix(([q.quad[p] for p in ij], ([p[0] for p in ij], [p[1] for p in ij])), shape=(n, n))
        c = np.zeros(n)
        for j, v in q.lin.items():
            c[j] += v
        if q.lo == q.hi:
            m.addMQConstr(Q, c, "=", float(q.hi), x, x, x, name="q%d" % k)
            continue
        if np.isfinite(q.hi):
            m.addMQConstr(Q, c, "<", float(q.hi), x, x, x, name="q%d" % k)
        if np.isfinite(q.lo):
            m.addMQConstr(Q, c, ">", float(q.lo), x, x, x, name="q%d_lo" % k)


def _add_indicators(gp, m, x, ir: IR) -> None:
    """Each ``x[binary] == active  =>  lo <= terms @ x <= hi`` of ``ir.indicators`` as one
    ``addGenConstrIndicator`` per finite side (one ``=`` when ``lo == hi``)."""
    inds = getattr(ir, "indicators", None) or ()
    if not inds:
        return
    xs = x.tolist()
    for k, ind in enumerate(inds):
        lhs = gp.LinExpr([float(c) for c in ind.terms.values()], [xs[int(j)] for j in ind.terms])
        b, val = xs[int(ind.binary)], bool(ind.active)
        if np.isfinite(ind.lo) and ind.lo == ind.hi:
            m.addGenConstrIndicator(b, val, lhs, gp.GRB.EQUAL, float(ind.hi), name="ind%d" % k)
            continue
        if np.isfinite(ind.hi):
            m.addGenConstrIndicator(b, val, lhs, gp.GRB.LESS_EQUAL, float(ind.hi), name="ind%d" % k)
        if np.isfinite(ind.lo):
            m.addGenConstrIndicator(b, val, lhs, gp.GRB.GREATER_EQUAL, float(ind.lo), name="ind%d_lo" % k)


def _finite(a: np.ndarray, big: float) -> np.ndarray:
    return np.clip(np.asarray(a, dtype=float), -big, big)


def solve(ir: IR, options: SolveOptions) -> Result:
    """Solve the IR with Gurobi. Returns a :class:`Result` (never raises for the user's model or options).

    Errors come back as ``status="error"`` with one diagnostic: ``OPL0702`` when
    ``gurobipy`` is missing, ``OPL0703`` when the model is refused, ``OPL0701`` over the
    licence's size limits, ``OPL0707`` for a refused option, ``OPL0706`` otherwise."""
    gp = _gurobipy()
    if gp is None:
        return error_result("gurobi", "solver-not-installed", "the Gurobi backend needs the `gurobipy` package, "
                            "which is not installed", options,
                            help='install it with `pip install "pyopl[gurobi]"`, or use HiGHS (`--solver highs`)',
                            span=Span("--solver gurobi", 1, 1, 1, 2))  # where the choice came from, not the model
    refused = refuse(ir, "gurobi", options)
    if refused is not None:
        return refused
    start = time.perf_counter()
    try:
        with quiet_stdout():
            res = _solve(gp, ir, options)
    except _OptionError as e:
        return error_result("gurobi", "solver-option-invalid", str(e), options,
                            help="check the parameter's name and type in Gurobi's reference (names are case-insensitive)",
                            span=option_span(options, str(e)))
    except gp.GurobiError as e:
        return _gurobi_error(ir, e, options)
    res.solve_time_s = time.perf_counter() - start
    return res


def _gurobi_error(ir: IR, e: Exception, options: SolveOptions) -> Result:
    errno = getattr(e, "errno", None)
    if errno == SIZE_LIMIT_ERROR:
        quad = ir.q is not None and ir.q.nnz and ir.sense != "feasibility"
        msg = ("the model has %d variables and %d linear constraints, over the limits of Gurobi's size-limited "
               "licence (%s)" % (ir.num_cols, ir.num_rows,
                                 "200 variables with a quadratic objective" if quad
                                 else "2,000 variables and 2,000 linear constraints"))
        return licence_limit_result("gurobi", ir, msg, options,
                                    help="solve it with HiGHS (`--solver highs`, no size limit), or install a full "
                                         "Gurobi licence", cols_over=ir.num_cols > (200 if quad else 2000))
    return error_result("gurobi", "solver-failed", "Gurobi failed: %s (error %s)" % (e, errno), options)


def _optimize(gp, m, options: SolveOptions, stop: StopRequest) -> None:
    """``m.optimize()``, with a callback when Ctrl-C handling (``stop``) or progress is wanted: it calls
    ``terminate()`` once ``stop.requested`` (Gurobi then ends with status INTERRUPTED and keeps its
    incumbent) and sends MIP progress to ``options.progress``."""
    if not stop.active and options.progress is None:
        m.optimize()
        return
    stop.on_request.append(m.terminate)
    progress = options.progress
    cb = gp.GRB.Callback

    def callback(model, where) -> None:
        if stop.requested:
            model.terminate()
        elif progress is not None and where == cb.MIP:
            best, bound = model.cbGet(cb.MIP_OBJBST), model.cbGet(cb.MIP_OBJBND)
            incumbent = best if abs(best) < gp.GRB.INFINITY else None
            gap = abs(best - bound) / max(abs(best), 1e-10) if incumbent is not None else None
            progress({"elapsed_s": model.cbGet(cb.RUNTIME), "incumbent": incumbent, "bound": bound, "gap": gap,
                      "nodes": int(model.cbGet(cb.MIP_NODCNT))})
        elif progress is not None and where == cb.SIMPLEX:
            progress({"elapsed_s": model.cbGet(cb.RUNTIME), "iterations": int(model.cbGet(cb.SPX_ITRCNT))})

    try:
        m.optimize(callback)
    finally:
        stop.on_request.remove(m.terminate)


def _solve(gp, ir: IR, options: SolveOptions) -> Result:
    env = _env(gp, options)
    try:
        m, x, constr, rows = build(gp, env, ir)
        _set_params(m, options)
        if options.pool and ir.is_mip:  # `cplex.populate()`: Gurobi's n-best search fills its pool
            m.Params.PoolSearchMode = 2
            if not any(k.lower() == "poolsolutions" for k in options.extra):
                m.Params.PoolSolutions = options.pool
        if options.start is not None and ir.num_cols:  # a MIP start: Gurobi's Start attribute
            st = np.asarray(options.start, dtype=float)
            x.Start = np.where(np.isnan(st), gp.GRB.UNDEFINED, st)
        if options.branching and ir.num_cols:  # x.priority of a script: Gurobi's BranchPriority (no direction)
            pri = np.zeros(ir.num_cols, dtype=int)
            for j, (p, _k) in options.branching.items():
                pri[j] = p
            x.BranchPriority = pri
        with sigint_stops_solve() as stop:
            _optimize(gp, m, options, stop)
        status = _STATUS.get(int(m.Status), "error")
        if status == "infeasible_or_unbounded" and not stop.requested:
            m.Params.DualReductions = 0
            m.reset()
            m.optimize()
            status = _STATUS.get(int(m.Status), "error")
        xv = obj = None
        if int(m.SolCount) > 0 and status in ("optimal", "feasible", "time_limit", "interrupted"):
            xv = np.asarray(x.X, dtype=float) if ir.num_cols else np.zeros(0)
            obj = float(m.ObjVal)
        res = result_from_solution(ir, status, xv, obj, "gurobi", float(m.Params.IntFeasTol))
        stopped = {7: "iteration_limit", 8: "node_limit", 10: "solution_limit"}.get(int(m.Status))
        if stopped:
            res.extra["stopped_by"] = stopped
        if status == "error":
            res.message = "Gurobi stopped with status %d" % int(m.Status)
            res.diagnostics = [solver_diagnostic("solver-failed", res.message, options)]
        res.iterations = int(m.IterCount + getattr(m, "BarIterCount", 0))
        if ir.is_mip:
            res.nodes = int(m.NodeCount)
            if xv is not None:
                try:  # (a multi-objective (lexicographic) MIP has no overall bound or gap: Gurobi has neither)
                    res.best_bound = float(m.ObjBound)
                    res.mip_gap = float(m.MIPGap) if np.isfinite(m.MIPGap) else None
                except AttributeError:
                    res.best_bound = res.mip_gap = None
        if ir.lex_objectives and xv is not None:
            vals = []
            for k in range(m.NumObj):
                m.Params.ObjNumber = k
                vals.append(float(m.ObjNVal))
            res.objective = vals[0]
            res.extra["objectives"] = vals
        if xv is not None and status == "optimal":
            if not ir.is_mip and not ir.lex_objectives and not ir.qcons:  # (QCP duals need QCPDual=1: not asked)
                try:
                    _duals(ir, res, x, constr, rows, xv)
                except gp.GurobiError:  # a non-convex QP is solved by branching: it has no duals (not an error)
                    res.extra["duals_unavailable"] = "Gurobi gives no duals for a non-convex quadratic objective"
            elif ir.is_mip and options.fixed_duals:
                _fixed_duals(gp, env, ir, res, xv)
        if status == "unbounded":
            res.ray = unbounded_ray(gp, env, ir)
        if options.pool and xv is not None:
            res.extra["pool"] = _pool(m, x, xv, obj, ir)
        m.dispose()
        return res
    finally:
        env.dispose()


def _pool(m, x, xv: np.ndarray, obj: float, ir: IR) -> list:
    """Gurobi's solution pool as ``[(objective, column values)]``, best first (``SolutionNumber``,
    ``Xn``, ``PoolObjVal``); a continuous model has its one solution."""
    if not ir.is_mip or not ir.num_cols:
        return [(obj, xv)]
    out = []
    for k in range(int(m.SolCount)):
        m.Params.SolutionNumber = k
        out.append((float(m.PoolObjVal), np.asarray(x.Xn, dtype=float)))
    return out


def _duals(ir: IR, res: Result, x, constr, rows: np.ndarray, xv: np.ndarray) -> None:
    pi = np.zeros(ir.num_rows)
    if constr is not None and len(rows):
        np.add.at(pi, rows, np.asarray(constr.Pi, dtype=float))
    rc = np.asarray(x.RC, dtype=float) if ir.num_cols else np.zeros(0)
    attach_duals(ir, res, pi, rc, ir.A @ xv)


def _fixed_duals(gp, env, ir: IR, res: Result, xv: np.ndarray) -> None:
    fixed = fixed_ir(ir, xv)
    m, x, constr, rows = build(gp, env, fixed)
    m.optimize()
    if int(m.Status) == 2:
        _duals(fixed, res, x, constr, rows, np.asarray(x.X, dtype=float))
        res.extra["duals_of"] = "the LP with the integer variables fixed at their values"
    m.dispose()


def unbounded_ray(gp, env, ir: IR) -> dict[str, float]:
    """Columns along an unbounded ray of the continuous relaxation: ``{OPL label: direction}`` (nonzeros)."""
    relaxed = relax(ir)
    m, x, _, _ = build(gp, env, relaxed, obj=relaxed.obj, obj_constant=0.0, sense=ir.sense)
    m.Params.InfUnbdInfo = 1
    m.Params.DualReductions = 0
    m.optimize()
    out: dict[str, float] = {}
    if int(m.Status) == 5:
        try:
            ray = np.asarray(x.UnbdRay, dtype=float)
        except gp.GurobiError:
            ray = np.zeros(0)
        out = ray_labels(ir, ray)
    m.dispose()
    return out



def compute_iis(ir: IR, options: SolveOptions) -> tuple[list[tuple[int, str]], list[tuple[int, str]]] | None:
    """Gurobi's irreducible infeasible subset (``Model.computeIIS``, LP or MIP): ``(rows, bounds)`` as
    lists of ``(index, side)``; None when ``gurobipy`` is missing, the licence refuses the model, or
    Gurobi finds the model feasible."""
    gp = _gurobipy()
    if gp is None:
        return None
    try:
        with quiet_stdout():
            env = _env(gp, SolveOptions())
            try:
                m, x, constr, rows = build(gp, env, ir, obj=np.zeros(ir.num_cols), obj_constant=0.0, sense="minimize")
                if options.time_limit is not None:
                    m.Params.TimeLimit = float(options.time_limit)
                m.computeIIS()
                in_row = np.asarray(constr.IISConstr, dtype=bool) if constr is not None else np.zeros(0, dtype=bool)
                lb = np.asarray(x.IISLB, dtype=bool) if ir.num_cols else np.zeros(0, dtype=bool)
                ub = np.asarray(x.IISUB, dtype=bool) if ir.num_cols else np.zeros(0, dtype=bool)
                senses = _split_rows(ir)[1]
                m.dispose()
            finally:
                env.dispose()
    except gp.GurobiError:
        return None
    per_row: dict[int, set] = {}
    for r, s, hit in zip(rows, senses, in_row):
        if hit:
            per_row.setdefault(int(r), set()).update({"=": {"lower", "upper"}, "<": {"upper"}, ">": {"lower"}}[s])
    out_rows = [(i, _side(per_row[i])) for i in sorted(per_row)]
    out_cols = [(int(j), _side({"lower"} if lb[j] and not ub[j] else {"upper"} if ub[j] and not lb[j] else
                               {"lower", "upper"})) for j in np.flatnonzero(lb | ub)]
    return out_rows, out_cols


def _side(s: set) -> str:
    return "both" if len(s) == 2 else next(iter(s))
