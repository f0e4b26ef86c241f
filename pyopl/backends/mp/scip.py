"""The SCIP backend (``pyscipopt``): MILP, MIQP, quadratic constraints (convex or not), indicators.

Hand-over: ``pyscipopt`` has no array API for a sparse matrix (``addMatrixCons`` builds one
Python expression per row), so the linear part goes through SCIP's own MPS reader: HiGHS (always
installed) takes the arrays in one ``passModel`` and writes a free-format MPS file, which
``Model.readProblem`` reads in C.  Measured on the transport family (``benchmarks/handover.py``)
this is about four times faster than a loop of ``addCons`` over the rows.  What MPS cannot carry
goes in afterwards through the Python API: the objective constant, a quadratic objective (through
an epigraph variable ``t``: minimise ``c'x + t`` with ``t >= 0.5 x'Qx``, as SCIP takes only linear
objectives), quadratic constraints and indicator constraints.

SCIP catches Ctrl-C itself (``misc/catchctrlc``) and stops with status ``userinterrupt``, keeping
its incumbent; the result's status is then ``interrupted``.
"""
from __future__ import annotations

import dataclasses
import math
import os
import tempfile
import time
from typing import Any

import numpy as np

from ...diagnostics.diagnostic import Span
from ..interrupt import sigint_stops_solve
from ...ir import IR
from ...results.result import Result
from ..common import (SolveOptions, attach_duals, error_result, fixed_ir, option_span, quiet_stdout, refuse,
                      result_from_solution, solver_diagnostic)

# SCIP's status words (Model.getStatus()) -> the shared vocabulary of pyopl.result.STATUSES.
_STATUS = {"optimal": "optimal", "gaplimit": "optimal", "infeasible": "infeasible", "unbounded": "unbounded",
           "inforunbd": "infeasible_or_unbounded", "timelimit": "time_limit", "userinterrupt": "interrupted",
           "nodelimit": "feasible", "totalnodelimit": "feasible", "stallnodelimit": "feasible",
           "sollimit": "feasible", "bestsollimit": "feasible", "memlimit": "error", "restartlimit": "feasible",
           "primallimit": "feasible", "duallimit": "feasible"}
#: What stopped SCIP, for ``cplex.status`` (``result.extra["stopped_by"]``).
_STOPPED_BY = {"nodelimit": "node_limit", "totalnodelimit": "node_limit", "stallnodelimit": "node_limit",
               "sollimit": "solution_limit", "bestsollimit": "solution_limit", "gaplimit": "gap"}


def _pyscipopt():
    """The ``pyscipopt`` module, or None when it is not installed."""
    try:
        import pyscipopt
    except ImportError:
        return None
    return pyscipopt


def available() -> bool:
    """Whether ``pyscipopt`` can be imported."""
    return _pyscipopt() is not None


class _OptionError(Exception):
    pass


#: SCIP's feasibility tolerance for a model with a quadratic objective or quadratic constraints.
#: SCIP solves them as nonlinear constraints (the objective through an epigraph variable ``t >=
#: x'Qx``) held to ``numerics/feastol``; at its default, 1e-6, the objective it reports can sit 1e-6
#: (relative) from the optimum with a gap of 0 (issue 43, class 10). At 1e-9 the objective is within
#: 1e-9 of the true one on the MIQPs of ``tests/test_backends_scip_cplex.py``, in about the same time.
QUADRATIC_FEASTOL = 1e-9


def _set_params(m, options: SolveOptions, nonlinear: bool = False) -> None:
    """Time limit, gaps, seed and the ``--option NAME=VALUE`` pass-through (SCIP's own parameter
    names, e.g. ``limits/nodes=100``). SCIP solves in one thread: ``threads`` is accepted and unused.
    ``nonlinear``: the model has a quadratic objective or quadratic constraints, held to
    :data:`QUADRATIC_FEASTOL` unless ``numerics/feastol`` is given."""
    settings: list[tuple[str, Any]] = []
    if nonlinear and "numerics/feastol" not in (options.extra or {}):
        settings.append(("numerics/feastol", QUADRATIC_FEASTOL))
    if options.time_limit is not None:
        settings.append(("limits/time", float(options.time_limit)))
    if options.mip_gap is not None:
        settings.append(("limits/gap", float(options.mip_gap)))
    if options.mip_gap_abs is not None:
        settings.append(("limits/absgap", float(options.mip_gap_abs)))
    if options.seed is not None:
        settings.append(("randomization/randomseedshift", int(options.seed)))
    settings += list((options.extra or {}).items())
    for name, value in settings:
        try:
            kind = type(m.getParam(name))
        except Exception:
            raise _OptionError("SCIP has no parameter `%s`" % name) from None
        try:
            if kind is bool and not isinstance(value, bool):
                value = str(value).lower() in ("1", "true", "on", "yes")
            elif kind is int:
                value = int(value)
            elif kind is float:
                value = float(value)
            m.setParam(name, value)
        except Exception as e:
            raise _OptionError("SCIP refused the value `%s` for parameter `%s`: %s" % (value, name, e)) from None


def _read_linear(ps, m, ir: IR, obj: np.ndarray, sense: str) -> list:
    """Load columns, bounds, integrality, the linear objective and the rows of ``ir`` into ``m``
    through an MPS file written by HiGHS; returns SCIP's variables in column order."""
    import highspy

    from .highs import _pass

    with quiet_stdout(discard=True):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
    with tempfile.TemporaryDirectory(prefix="pyopl-scip-") as d:
        path = os.path.join(d, "model.mps")
        with quiet_stdout(discard=True):
            _pass(h, dataclasses.replace(ir, q=None, A=ir.__dict__["A"]), obj, 0.0, sense)  # Q goes in apart
            h.writeModel(path)
            m.readProblem(path)
    # SCIP orders its variables by type (binaries first): find them by HiGHS's names c0, c1, ...
    by_name = {v.name: v for v in m.getVars()}
    try:
        xs = [by_name["c%d" % j] for j in range(ir.num_cols)]
    except KeyError:
        raise RuntimeError("SCIP did not read the columns HiGHS wrote") from None
    if len(by_name) != ir.num_cols or m.getNConss() != ir.num_rows:  # a wrong count would misplace values
        raise RuntimeError("SCIP read %d variables and %d constraints, expected %d and %d" % (
            len(by_name), m.getNConss(), ir.num_cols, ir.num_rows))
    return xs


def build(ps, ir: IR, log: bool = False) -> tuple[Any, list, list, Any]:
    """A ``pyscipopt.Model`` of ``ir``: ``(model, variables in column order, linear constraints in
    row order, epigraph variable of a quadratic objective or None)``."""
    m = ps.Model()
    if not log:
        m.hideOutput()
    sense = "maximize" if ir.sense == "maximize" else "minimize"
    xs = _read_linear(ps, m, ir, ir.obj if ir.sense != "feasibility" else np.zeros(ir.num_cols), sense)
    by_name = {c.name: c for c in m.getConss()}
    conss = [by_name["r%d" % i] for i in range(ir.num_rows)]  # in row order, by HiGHS's names
    if ir.obj_constant and ir.sense != "feasibility":
        m.addObjoffset(float(ir.obj_constant))
    t = None
    if ir.q is not None and ir.q.nnz and ir.sense != "feasibility":
        t = m.addVar(name="#quadobj", lb=None, ub=None, obj=1.0)
        quad = _quad_expr(ps, xs, ir.q)
        m.addCons(t >= quad if sense == "minimize" else t <= quad, name="#quadobj")
    for k, q in enumerate(getattr(ir, "qcons", None) or ()):
        e = ps.quicksum(float(c) * xs[j] for j, c in q.lin.items()) + ps.quicksum(
            float(c) * xs[i] * xs[j] for (i, j), c in q.quad.items())
        lo = None if not np.isfinite(q.lo) else float(q.lo)
        hi = None if not np.isfinite(q.hi) else float(q.hi)
        m.addCons(ps.scip.ExprCons(e, lhs=lo, rhs=hi), name="q%d" % k)
    for k, ind in enumerate(getattr(ir, "indicators", None) or ()):
        _add_indicator(ps, m, xs, ind, k)
    return m, xs, conss, t


def _quad_expr(ps, xs: list, Q) -> Any:
    """``0.5 x'Qx`` as a SCIP expression (upper triangle, off-diagonal entries doubled)."""
    C = Q.tocoo()
    terms = {}
    for i, j, v in zip(C.row.tolist(), C.col.tolist(), C.data.tolist()):
        a, b = (i, j) if i <= j else (j, i)
        terms[(a, b)] = terms.get((a, b), 0.0) + 0.5 * v
    return ps.quicksum(c * xs[a] * xs[b] for (a, b), c in terms.items() if c)


def _add_indicator(ps, m, xs: list, ind: Any, k: int) -> None:
    """``binvar == active  =>  lo <= lin <= hi`` as one or two SCIP indicator constraints
    (SCIP's take ``<=`` rows: a ``>=`` side is negated)."""
    b = xs[ind.binary]
    lin = ind.terms
    if np.isfinite(ind.hi):
        e = ps.quicksum(float(c) * xs[j] for j, c in lin.items())
        m.addConsIndicator(e <= float(ind.hi), binvar=b, activeone=ind.active, name="ind%d" % k)
    if np.isfinite(ind.lo):
        e = ps.quicksum(-float(c) * xs[j] for j, c in lin.items())
        m.addConsIndicator(e <= -float(ind.lo), binvar=b, activeone=ind.active, name="ind%d_lo" % k)


def solve(ir: IR, options: SolveOptions) -> Result:
    """Solve the IR with SCIP. Returns a :class:`Result` (never raises for the user's model or options).

    ``OPL0702`` when ``pyscipopt`` is missing (with the install command), ``OPL0703`` when the model
    is refused (staticLex), ``OPL0707`` for a refused parameter, ``OPL0706`` otherwise."""
    ps = _pyscipopt()
    if ps is None:
        return error_result("scip", "solver-not-installed", "the SCIP backend needs the `pyscipopt` package, "
                            "which is not installed", options,
                            help='install it with `pip install "pyopl[scip]"`, or use HiGHS (`--solver highs`)',
                            span=Span("--solver scip", 1, 1, 1, 2))
    refused = refuse(ir, "scip", options)
    if refused is not None:
        return refused
    start = time.perf_counter()
    try:
        res = _solve(ps, ir, options)
    except _OptionError as e:
        return error_result("scip", "solver-option-invalid", str(e), options,
                            help="SCIP parameter names are paths such as `limits/nodes` (see `scip -c 'set'`)",
                            span=option_span(options, str(e)))
    res.solve_time_s = time.perf_counter() - start
    return res


def _add_start(m, xs: list, start: np.ndarray) -> None:
    """``start`` (NaN where no value is given) as a SCIP solution: complete ones with ``addSol``,
    partial ones as a partial solution SCIP's completion heuristic finishes."""
    given = ~np.isnan(start)
    sol = m.createSol() if given.all() else m.createPartialSol()
    for j in np.flatnonzero(given):
        m.setSolVal(sol, xs[int(j)], float(start[j]))
    m.addSol(sol, free=True)


def _continuous_lp(ir: IR) -> bool:
    return not ir.is_mip and not getattr(ir, "qcons", None) and not getattr(ir, "indicators", None) and (
        ir.q is None or not ir.q.nnz or ir.sense == "feasibility")


def _solve(ps, ir: IR, options: SolveOptions) -> Result:
    log = bool(options.log_to_console)
    with quiet_stdout():  # SCIP writes its log to file descriptor 1: it goes to stderr
        m, xs, conss, t = build(ps, ir, log)
        if options.log_file:
            m.setLogfile(str(options.log_file))
        _set_params(m, options, nonlinear=t is not None or bool(getattr(ir, "qcons", None)))
        lp = _continuous_lp(ir)
        if lp:  # duals are those of the original LP only without presolve (SCIP's documentation)
            m.setPresolve(ps.SCIP_PARAMSETTING.OFF)
            m.setHeuristics(ps.SCIP_PARAMSETTING.OFF)
            m.disablePropagation()
        if options.start is not None and ir.num_cols:  # a MIP start: a (partial) solution SCIP completes
            _add_start(m, xs, np.asarray(options.start, dtype=float))
        for j, (p, _k) in (options.branching or {}).items():  # x.priority of a script (pyscipopt sets no direction)
            m.chgVarBranchPriority(xs[j], p)
        with sigint_stops_solve() as stop:
            _watch(ps, m, options, stop)
            m.optimize()
        word = m.getStatus()
        status = _STATUS.get(word, "error")
        xv = obj = None
        sol = m.getBestSol() if m.getNSols() > 0 else None
        if sol is not None and status in ("optimal", "feasible", "time_limit", "interrupted"):
            xv = np.array([m.getSolVal(sol, v) for v in xs], dtype=float)
            obj = _objective(ir, xv) if t is not None else float(m.getSolObjVal(sol))
        res = result_from_solution(ir, status, xv, obj, "scip", float(m.getParam("numerics/feastol")))
        if word in _STOPPED_BY:
            res.extra["stopped_by"] = _STOPPED_BY[word]
        if status == "error":
            res.message = "SCIP stopped with status %s" % word
            res.diagnostics = [solver_diagnostic("solver-failed", res.message, options)]
        res.iterations = int(m.getNLPIterations())
        if ir.is_mip or getattr(ir, "qcons", None):
            res.nodes = int(m.getNNodes())
            if xv is not None:
                res.best_bound = float(m.getDualbound())
                res.mip_gap = _gap(res.objective, res.best_bound, ir.sense)
        if options.pool and xv is not None:  # the solutions SCIP kept while solving (it has no populate)
            res.extra["pool"] = [(_objective(ir, v), v) for v in (
                np.array([m.getSolVal(s, v) for v in xs], dtype=float) for s in m.getSols()[:options.pool])]
        if xv is not None and status == "optimal":
            if lp:
                _duals(m, ir, res, xs, conss, xv)
            elif ir.is_mip and options.fixed_duals:
                _fixed_duals(ps, ir, res, xv)
        m.freeProb()
    return res


def _watch(ps, m, options: SolveOptions, stop: Any) -> None:
    """Feed ``options.progress`` from SCIP's events (a new best solution, a solved node; at most ten
    updates a second reach Python's side) and stop the solve after Ctrl-C (``stop``), besides SCIP's
    own Ctrl-C handling. Nothing is registered when progress is not wanted."""
    if options.progress is None:
        return
    progress = options.progress
    events = ps.SCIP_EVENTTYPE.BESTSOLFOUND | ps.SCIP_EVENTTYPE.NODESOLVED | ps.SCIP_EVENTTYPE.LPSOLVED

    class Progress(ps.Eventhdlr):
        last = -math.inf

        def eventinit(self):
            self.model.catchEvent(events, self)

        def eventexit(self):
            self.model.dropEvent(events, self)

        def eventexec(self, event):
            if stop.requested:
                self.model.interruptSolve()
                return
            now = time.monotonic()
            best = event.getType() == ps.SCIP_EVENTTYPE.BESTSOLFOUND
            if not best and now - self.last < 0.1:
                return
            self.last = now
            mdl = self.model
            incumbent, bound = mdl.getPrimalbound(), mdl.getDualbound()
            incumbent = None if mdl.isInfinity(abs(incumbent)) else incumbent
            bound = None if mdl.isInfinity(abs(bound)) else bound
            # the relative gap as HiGHS and Gurobi report it, |incumbent - bound| / |incumbent|
            # (SCIP's own divides by the smaller of the two: infinite while the bound is 0)
            gap = None if incumbent is None or bound is None else abs(incumbent - bound) / max(abs(incumbent), 1e-10)
            progress({"elapsed_s": mdl.getSolvingTime(), "incumbent": incumbent, "bound": bound, "gap": gap,
                      "nodes": int(mdl.getNNodes()), "iterations": int(mdl.getNLPIterations())})

    m.includeEventhdlr(Progress(), "pyopl_progress", "progress line and Ctrl-C for pyopl")


def _gap(objective: Any, bound: float, sense: str) -> float | None:
    """The relative gap between the objective of the returned point, as pyopl computes it, and SCIP's
    bound: ``(objective - bound) / |objective|`` when minimising (the mirror when maximising), 0 when
    the bound is reached.  SCIP's own ``getGap`` compares its bound with its epigraph variable of a
    quadratic objective, which its feasibility tolerance lets sit below the objective of the point:
    it said 0 where the point was 1e-6 from the bound (issue 43, class 10)."""
    if objective is None or not math.isfinite(bound):
        return None
    open_ = (float(objective) - bound) if sense != "maximize" else (bound - float(objective))
    return max(0.0, open_) / max(abs(float(objective)), 1e-10)


def _objective(ir: IR, x: np.ndarray) -> float:
    """``c'x + c0 + 0.5 x'Qx`` computed from the values (the epigraph variable only bounds it)."""
    q = 0.5 * float(x @ (ir.q @ x)) if ir.q is not None else 0.0
    return float(ir.obj @ x) + float(ir.obj_constant) + q


def _duals(m, ir: IR, res: Result, xs: list, conss: list, xv: np.ndarray) -> None:
    """Row duals (``getDualsolLinear``) and reduced costs (``getVarRedcost``) of the LP, in the sign
    convention of :func:`~pyopl.backends.common.attach_duals` (SCIP's already match it)."""
    try:
        pi = np.array([m.getDualsolLinear(c) for c in conss], dtype=float)
        rc = np.array([m.getVarRedcost(v) for v in xs], dtype=float)
    except Exception:  # SCIP has no valid LP duals here (e.g. solved without an LP)
        return
    if ir.sense == "maximize":  # the row multipliers are those of SCIP's minimisation of -c'x
        pi = -pi
    # A row over one variable is held as a bound of that variable: SCIP reports its multiplier as the
    # variable's reduced cost. A variable strictly between its own bounds has no reduced cost in an
    # optimal basis, so such a cost belongs to the singleton row (multiplier = cost / coefficient): to
    # one that is binding (`x >= 5` at x = 5, not `x <= 10` beside it, whose dual is 0).
    tol = 1e-9 * (1 + np.abs(xv))
    inside = (xv > ir.col_lower + tol) & (xv < ir.col_upper - tol) & (rc != 0)
    if inside.any() and ir.num_rows:
        data, indices, indptr = ir.csr()
        single = np.flatnonzero(np.diff(indptr) == 1)
        given: set[int] = set()  # the cost goes to one row: a binding one (a slack row's dual is 0)
        for i in single[inside[indices[indptr[single]]]]:
            j, a = int(indices[indptr[i]]), float(data[indptr[i]])
            act, lo, hi = a * xv[j], ir.row_lower[i], ir.row_upper[i]
            near = 1e-9 * (1 + abs(act)) + 1e-9
            if pi[i] == 0 and a and j not in given and (abs(act - lo) <= near or abs(act - hi) <= near):
                pi[i] = rc[j] / a
                given.add(j)
        rc = np.where(inside, 0.0, rc)
    attach_duals(ir, res, pi, rc, ir.A @ xv if ir.num_rows else np.zeros(0))


def _fixed_duals(ps, ir: IR, res: Result, xv: np.ndarray) -> None:
    fixed = fixed_ir(ir, xv)
    m, xs, conss, _t = build(ps, fixed)
    m.setPresolve(ps.SCIP_PARAMSETTING.OFF)
    m.setHeuristics(ps.SCIP_PARAMSETTING.OFF)
    m.disablePropagation()
    m.optimize()
    if m.getStatus() == "optimal":
        sol = m.getBestSol()
        _duals(m, fixed, res, xs, conss, np.array([m.getSolVal(sol, v) for v in xs], dtype=float))
        res.extra["duals_of"] = "the LP with the integer variables fixed at their values"
    m.freeProb()
