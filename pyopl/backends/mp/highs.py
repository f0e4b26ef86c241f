"""The HiGHS backend: the whole IR handed over with one ``passModel`` call (CSC arrays).

HiGHS prints a banner on standard output when its object is created; the
file descriptor is redirected while the solver runs so that nothing but the
caller's own output (e.g. JSON) reaches stdout.
"""
from __future__ import annotations

import dataclasses
import math
import sys
import time
from typing import Any

import numpy as np

from ..interrupt import StopRequest, sigint_stops_solve
from ...ir import IR, CSRParts
from ...sparse_order import csr_to_csc
from ...results.result import Result
from ..common import (option_span, SolveOptions, attach_duals, error_result, fixed_ir, quiet_stdout, ray_labels, refuse, relax,
                      result_from_solution, solver_diagnostic)


class OptionError(Exception):
    """HiGHS refused an option (unknown name or a value of the wrong type); ``help`` says how to fix it."""

    def __init__(self, message: str, help: str = "HiGHS option names are lower case with underscores, "
                                                  "e.g. `presolve=off`"):
        super().__init__(message)
        self.help = help


def _option_names(h) -> list[str]:
    """The names of HiGHS's options (the attributes of ``HighsOptions``), for a near-miss suggestion."""
    try:
        return [n for n in dir(h.getOptions()) if not n.startswith("_")]
    except Exception:  # an older highspy without getOptions: no suggestion
        return []


def _highs():
    import highspy

    return highspy


def _new_solver(options: SolveOptions):
    """A ``Highs`` object with the options applied; raises :class:`OptionError` for a refused option.

    The log (``--log``) goes to stderr: standard output is redirected while HiGHS runs."""
    hs = _highs()
    with quiet_stdout(discard=not options.log_to_console):  # the banner, unless the log was asked for
        h = hs.Highs()
    with quiet_stdout():
        h.setOptionValue("output_flag", bool(options.log_to_console or options.log_file))
        h.setOptionValue("log_to_console", bool(options.log_to_console))
        settings: list[tuple[str, Any]] = []
        if options.log_file:
            settings.append(("log_file", str(options.log_file)))
        if options.time_limit is not None:
            settings.append(("time_limit", float(options.time_limit)))
        if options.mip_gap is not None:
            settings.append(("mip_rel_gap", float(options.mip_gap)))
        if options.mip_gap_abs is not None:
            settings.append(("mip_abs_gap", float(options.mip_gap_abs)))
        if options.threads is not None:
            settings.append(("threads", int(options.threads)))
            # HiGHS keeps one thread pool per process: a different size needs a fresh pool
            hs.Highs.resetGlobalScheduler(True)
        if options.seed is not None:
            settings.append(("random_seed", int(options.seed)))
        settings += list((options.extra or {}).items())
        for name, value in settings:
            _set_option(h, name, value)
    return h


def _set_option(h, name: str, value: Any) -> None:
    hs = _highs()
    try:
        kind = h.getOptionType(name)
    except Exception:
        kind = None
    if isinstance(kind, tuple):  # (status, type) in recent highspy
        kind = kind[1] if kind[0] == hs.HighsStatus.kOk else None
    if kind is None:
        from ...diagnostics.reporter import near_miss

        close = near_miss(name, _option_names(h))
        raise OptionError("HiGHS has no option `%s`" % name, *(["did you mean `%s`?" % close] if close else []))
    tname = str(kind).split(".")[-1]
    try:  # CLI values arrive as int/float/bool/str: convert to the option's type
        if tname == "kBool":
            value = value if isinstance(value, bool) else str(value).lower() in ("1", "true", "on", "yes")
        elif tname == "kInt":  # a fraction is refused, not truncated (`mip_max_nodes=1.5` was 1)
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            value = int(value)
        elif tname == "kDouble":
            value = float(value)
        else:
            value = str(value)
    except (TypeError, ValueError):
        raise OptionError("HiGHS option `%s` takes a %s value, got `%s`" % (name, tname[1:].lower(), value),
                          "give %s: `%s=N`" % ("a whole number" if tname == "kInt" else "a number", name)) from None
    if h.setOptionValue(name, value) == hs.HighsStatus.kError:
        raise OptionError("HiGHS refused the value `%s` for option `%s`" % (value, name))


def _matrix(ir: IR) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(format, start, index, value)`` of the row matrix as ``passModel`` takes it, int32/float64
    arrays it reads without a copy.

    By columns (``MatrixFormat.kColwise``) wherever SciPy is installed: its compiled transpose
    (:func:`~pyopl.sparse_order.csr_to_csc`, loaded without importing ``scipy.sparse``) costs 0.06-0.08 s
    CPU at the sparse assignment family's 6.4M entries, where HiGHS's own transpose of rows inside
    ``passModel`` costs 0.16-0.20 s (``passModel`` by rows 0.37 s against 0.29 s for ours + by columns).  By rows (``MatrixFormat.kRowwise``, the IR's own arrays) where it is
    not and ``scipy.sparse`` is not loaded: HiGHS then makes the column copy itself, the same arrays
    (rows increasing in each column; tests/test_handover.py compares the model HiGHS holds every
    way), where our NumPy transpose (:meth:`IR.csc`) costs as much or more."""
    hs = _highs()
    a = ir.__dict__["A"]
    csc = None
    if isinstance(a, CSRParts):
        csc = csr_to_csc(a.shape, a.indptr, a.indices, a.data)
        if csc is None and "scipy.sparse" not in sys.modules:
            return (int(hs.MatrixFormat.kRowwise), a.indptr.astype(np.int32, copy=False),
                    a.indices.astype(np.int32, copy=False), np.ascontiguousarray(a.data, dtype=np.float64))
    indptr, indices, data = ir.csc() if csc is None else csc
    return (int(hs.MatrixFormat.kColwise), indptr.astype(np.int32, copy=False), indices.astype(np.int32, copy=False),
            np.ascontiguousarray(data, dtype=np.float64))


def _pass(h, ir: IR, c: np.ndarray, c0: float, sense: str, lower=None, upper=None, rows=None) -> None:
    """Hand the IR (with objective ``c``, ``c0`` and optionally other column bounds or row bounds) to
    HiGHS in one ``passModel`` (the matrix by rows or by columns: :func:`_matrix`)."""
    hs = _highs()
    fmt, indptr, indices, data = _matrix(ir)
    n, m = ir.num_cols, ir.num_rows
    integrality = ir.col_integer.astype(np.int32)
    rl, ru = (ir.row_lower, ir.row_upper) if rows is None else rows
    status = h.passModel(n, m, int(indptr[-1]), fmt, -1 if sense == "maximize" else 1, float(c0),
                         np.ascontiguousarray(c, dtype=np.float64),
                         np.ascontiguousarray(ir.col_lower if lower is None else lower, dtype=np.float64),
                         np.ascontiguousarray(ir.col_upper if upper is None else upper, dtype=np.float64),
                         np.ascontiguousarray(rl, dtype=np.float64), np.ascontiguousarray(ru, dtype=np.float64),
                         indptr, indices, data, integrality)
    if status == hs.HighsStatus.kError:
        raise RuntimeError("HiGHS rejected the model (passModel)")
    if ir.q is not None and sense != "feasibility":
        Q = ir.q.tocsc()
        from scipy.sparse import tril

        L = tril(Q, format="csc")
        L.sort_indices()
        h.passHessian(n, int(L.nnz), int(hs.HessianFormat.kTriangular), L.indptr.astype(np.int32),
                      L.indices.astype(np.int32), L.data.astype(np.float64))


_STATUS = {
    "kOptimal": "optimal", "kInfeasible": "infeasible", "kUnbounded": "unbounded",
    "kUnboundedOrInfeasible": "infeasible_or_unbounded", "kTimeLimit": "time_limit", "kIterationLimit": "time_limit",
    "kSolutionLimit": "feasible", "kInterrupt": "time_limit", "kObjectiveBound": "feasible", "kObjectiveTarget": "feasible",
    "kModelEmpty": "optimal", "kMemoryLimit": "error",
}


def solve(ir: IR, options: SolveOptions) -> Result:
    """Solve the IR with HiGHS. Returns a :class:`Result`; never raises for the user's model or options.

    A model HiGHS cannot take (MIQP, non-convex quadratic objective) comes back as
    ``status="error"`` with an ``OPL0703`` diagnostic, a refused option with ``OPL0707``."""
    refused = refuse(ir, "highs", options)
    if refused is not None:
        return refused
    start = time.perf_counter()
    try:
        res = _solve_lex(ir, options) if ir.lex_objectives else _solve(ir, options)
    except OptionError as e:
        return error_result("highs", "solver-option-invalid", str(e), options, help=e.help,
                            span=option_span(options, str(e)))
    res.solve_time_s = time.perf_counter() - start
    return res


def _watch(h, options: SolveOptions, stop: StopRequest) -> None:
    """Register HiGHS's interrupt callbacks: they stop the solve after Ctrl-C (``stop``) and feed
    ``options.progress``. Nothing is registered when neither is wanted (no per-callback cost)."""
    if not stop.active and options.progress is None:
        return
    progress = options.progress

    def on_mip(e) -> None:
        if stop.requested:
            e.interrupt()
        elif progress is not None:
            d = e.data_out
            progress({"elapsed_s": d.running_time, "incumbent": d.mip_primal_bound, "bound": d.mip_dual_bound,
                      "gap": d.mip_gap, "nodes": int(d.mip_node_count)})

    def on_lp(e) -> None:
        if stop.requested:
            e.interrupt()
        elif progress is not None:
            d = e.data_out
            progress({"elapsed_s": d.running_time,
                      "iterations": int(d.simplex_iteration_count) + int(d.ipm_iteration_count)})

    h.cbMipInterrupt += on_mip
    h.cbSimplexInterrupt += on_lp
    h.cbIpmInterrupt += on_lp


def _run(h, options: SolveOptions, stop: StopRequest) -> None:
    _watch(h, options, stop)
    h.run()


def _warm_start(h, ir: IR, options: SolveOptions) -> None:
    """The MIP start (``setSolution`` with the given entries) and the LP basis (``setBasis``) of
    ``options``, when given (``IloOplCplexVectors`` / ``IloOplCplexBasis`` in a ``main`` block)."""
    hs = _highs()
    if options.start is not None:
        x = np.asarray(options.start, dtype=float)
        idx = np.flatnonzero(~np.isnan(x)).astype(np.int32)
        if len(idx):
            h.setSolution(int(len(idx)), idx, np.ascontiguousarray(x[idx], dtype=np.float64))
    if options.basis is not None and not ir.is_mip:
        cols, rows = options.basis
        b = hs.HighsBasis()
        b.col_status = [hs.HighsBasisStatus(int(v)) for v in cols]
        b.row_status = [hs.HighsBasisStatus(int(v)) for v in rows]
        b.valid = True
        h.setBasis(b)


def basis_of(h) -> tuple | None:
    """The final basis of an LP solve as ``(col_status, row_status)`` int arrays, None without one."""
    b = h.getBasis()
    if not b.valid:
        return None
    return (np.array([int(v) for v in b.col_status], dtype=np.int8), np.array([int(v) for v in b.row_status], dtype=np.int8))


def _solve(ir: IR, options: SolveOptions) -> Result:
    started = time.perf_counter()
    h = _new_solver(options)
    with sigint_stops_solve() as stop, quiet_stdout():
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
        _warm_start(h, ir, options)
        _run(h, options, stop)
    status, x, obj, info = _read(h, ir, stop)
    if stop.requested:  # the user asked to stop: no further solves (duals, rays, conflicts)
        res = result_from_solution(ir, status, x, obj, "highs", _int_tol(h))
        res.iterations = info.get("iterations")
        if x is not None:
            res.best_bound, res.mip_gap = info.get("best_bound"), info.get("mip_gap")
        if ir.is_mip:
            res.nodes = info.get("nodes")
        return res
    if status == "infeasible_or_unbounded":
        status = _resolve_inf_or_unb(ir, options)
    recheck = None
    if status == "optimal" and _wants_recheck(ir, options):
        recheck = _presolve_recheck(ir, options, x, obj, info, time.perf_counter() - started)
        if recheck["use"] is not None:
            status, x, obj, info = recheck["use"]
    res = result_from_solution(ir, status, x, obj, "highs", _int_tol(h))
    if recheck is not None:
        res.extra["presolve_recheck"] = recheck["record"]
        if recheck["warning"] is not None:
            res.diagnostics = list(res.diagnostics or []) + [_recheck_warning(recheck["warning"], ir, options)]
    stopped = {"kSolutionLimit": "solution_limit", "kIterationLimit": "iteration_limit"}.get(
        str(h.getModelStatus()).split(".")[-1])
    if stopped:
        res.extra["stopped_by"] = stopped
    if status == "error":
        res.message = "HiGHS stopped with model status %s" % str(h.getModelStatus()).split(".")[-1]
        res.diagnostics = [solver_diagnostic("solver-failed", res.message, options)]
    if x is not None:
        res.best_bound, res.mip_gap = info.get("best_bound"), info.get("mip_gap")
        if not ir.is_mip and status == "optimal":
            _duals(h, ir, res)
        elif ir.is_mip and status == "optimal" and options.fixed_duals:
            _fixed_duals(ir, res, x, options)
    if status == "unbounded":
        res.ray = _ray(h, ir, options)
    res.iterations = info.get("iterations")
    if ir.is_mip:
        res.nodes = info.get("nodes")
    elif options.keep_basis and x is not None:
        res.extra["basis"] = basis_of(h)
    return res


#: HiGHS 1.16's MIP presolve sometimes reports a beaten point as optimal (ERGO-Code/HiGHS issues
#: 3073, 3094, 3043, 3274, 2900; opl-corpus2 ``afp-ponder-dmc2015junemip``): a MIP that HiGHS calls
#: optimal with at most this many columns and at most this many rows is solved once more with
#: presolve off, seeded with the point found (:func:`_presolve_recheck`). 5,000 keeps the re-solve
#: of a model that HiGHS solves in well under a second cheap; larger models are not re-checked.
RECHECK_MAX_SIZE = 5000
#: the re-solve's time: at most what is left of the time limit, and at most this factor times the
#: first solve's time (at least :data:`RECHECK_MIN_S` seconds) when there is no time limit
RECHECK_TIME_FACTOR = 2.0
RECHECK_MIN_S = 1.0


def _wants_recheck(ir: IR, options: SolveOptions) -> bool:
    """Whether a MIP optimum HiGHS reported is re-solved with presolve off: a MIP (no quadratic
    objective) of at most :data:`RECHECK_MAX_SIZE` columns and rows whose presolve the user left
    alone (``presolve`` not among the solver options, nor ``cplex.preind`` in a script)."""
    return bool(ir.is_mip and ir.q is None and ir.num_cols and ir.num_cols <= RECHECK_MAX_SIZE
                and ir.num_rows <= RECHECK_MAX_SIZE and "presolve" not in (options.extra or {}))


def _presolve_recheck(ir: IR, options: SolveOptions, x: np.ndarray, obj: float, info: dict, elapsed: float) -> dict:
    """Solve a MIP HiGHS called optimal (point ``x``, objective ``obj``, dual bound in ``info``) once
    more with presolve off, seeded with ``x`` (``setSolution``), within what is left of the time limit.

    Returns ``{"use": None or (status, x, obj, info), "warning": None or a message, "record": {...}}``:

    - the re-solve's point beats the first run's dual bound (beyond ``mip_abs_gap`` and 1e-6
      relative): HiGHS's claim is refuted; that point is used, ``optimal`` when the re-solve
      finished, else ``feasible``, with a warning giving both objective values;
    - the re-solve finished (optimal with a dual bound the first point beats, or infeasible) in
      contradiction with the first point: the first point is kept as ``feasible``, with a warning;
    - otherwise (the runs agree, or the re-solve stopped without a better point) nothing changes.
    ``record`` (``result.extra["presolve_recheck"]``) says that it ran, its status, objective and time."""
    maximize = ir.sense == "maximize"
    budget = max(RECHECK_MIN_S, RECHECK_TIME_FACTOR * elapsed)
    if options.time_limit is not None:
        budget = min(budget, float(options.time_limit) - elapsed)
    record: dict[str, Any] = {"ran": False, "first_objective": obj, "first_bound": info.get("best_bound")}
    out: dict[str, Any] = {"use": None, "warning": None, "record": record}
    if budget <= 0:
        record["skipped"] = "no time left"
        return out
    h = _new_solver(options)
    t0 = time.perf_counter()
    with sigint_stops_solve() as stop, quiet_stdout():
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
        h.setOptionValue("presolve", "off")
        h.setOptionValue("time_limit", float(budget))
        idx = np.arange(ir.num_cols, dtype=np.int32)
        h.setSolution(int(ir.num_cols), idx, np.ascontiguousarray(x, dtype=np.float64))
        _run(h, dataclasses.replace(options, progress=None), stop)  # (Ctrl-C still stops it; no second progress stream)
    status2, x2, obj2, info2 = _read(h, ir, stop)
    record.update(ran=True, status=status2, objective=obj2, bound=info2.get("best_bound"),
                  time_s=round(time.perf_counter() - t0, 6))
    if stop.requested:
        return out
    better = (lambda a, b: a > b) if maximize else (lambda a, b: a < b)
    bound = info.get("best_bound")
    bound = obj if bound is None or not math.isfinite(bound) else bound

    def tol(v: float) -> float:
        return max(_option(h, "mip_abs_gap", 1e-6), 1e-6 * max(1.0, abs(v)))

    if obj2 is not None and better(obj2, bound) and abs(obj2 - bound) > tol(bound):
        record["outcome"] = "better point"
        out["use"] = ("optimal" if status2 == "optimal" else "feasible", x2, obj2, info2)
        out["warning"] = ("HiGHS's presolve reported %s as the optimal objective (dual bound %s), but a second "
                          "solve with presolve off found %s: the point with %s is reported%s"
                          % (_g(obj), _g(bound), _g(obj2), _g(obj2),
                             "" if status2 == "optimal" else ", as `feasible` (the second solve stopped: %s)" % status2))
        return out
    bound2 = info2.get("best_bound")
    refuted = status2 == "infeasible" or (status2 == "optimal" and bound2 is not None and math.isfinite(bound2)
                                           and better(obj, bound2) and abs(obj - bound2) > tol(bound2))
    if refuted:
        record["outcome"] = "contradiction"
        first = dict(info, best_bound=None, mip_gap=None)
        out["use"] = ("feasible", x, obj, first)
        out["warning"] = ("HiGHS's two solves disagree: with presolve it reported %s as optimal, with presolve off "
                          "%s; the checked point with %s is reported as `feasible`, not optimal"
                          % (_g(obj), "infeasible" if status2 == "infeasible" else "%s (bound %s)" % (_g(obj2), _g(bound2)),
                             _g(obj)))
        return out
    record["outcome"] = "agree" if status2 == "optimal" else "not finished"
    return out


def _recheck_warning(message: str, ir: IR, options: SolveOptions) -> Any:
    """The OPL0712 warning of a re-solve that disagreed with HiGHS's first answer, at the objective."""
    return solver_diagnostic(
        "highs-presolve-wrong-optimum", message, options, span=getattr(ir, "objective_span", None),
        help="solve with `--option presolve=off` (or `mip_feasibility_tolerance=1e-9`) to make HiGHS "
             "search without its presolve; on models over %d columns or rows pyopl does not check" % RECHECK_MAX_SIZE)


def _g(v: float | None) -> str:
    return "none" if v is None else "%.12g" % v


def _option(h, name: str, default: float) -> float:
    """The value of HiGHS's numeric option ``name`` (``default`` when highspy cannot say)."""
    try:
        got = h.getOptionValue(name)
        return float(got[1] if isinstance(got, tuple) else got)
    except Exception:
        return default


def _int_tol(h) -> float:
    """HiGHS's integrality tolerance (``mip_feasibility_tolerance``), for cleaning integer values."""
    from ...results.numbers import DEFAULT_INTEGRALITY_TOLERANCE

    return _option(h, "mip_feasibility_tolerance", DEFAULT_INTEGRALITY_TOLERANCE)


def _read(h, ir: IR, stop: StopRequest | None = None):
    hs = _highs()
    ms = h.getModelStatus()
    name = str(ms).split(".")[-1]
    status = _STATUS.get(name, "error")
    if name == "kInterrupt" and stop is not None and stop.requested:
        status = "interrupted"
    if not ir.num_cols and ir.num_rows and status == "optimal" and (
            (ir.row_lower > 1e-9).any() or (ir.row_upper < -1e-9).any()):
        status = "infeasible"  # HiGHS calls a model without columns optimal whatever its rows say (`0 == 1`)
    info = h.getInfo()
    # (HiGHS counts -1 when it ran no simplex, e.g. for a model without columns: no iterations)
    out: dict[str, Any] = {"iterations": max(int(getattr(info, "simplex_iteration_count", 0) or 0), 0)}
    x = obj = None
    if int(getattr(info, "primal_solution_status", 0)) == 2 or (status == "optimal"):
        sol = h.getSolution()
        x = np.asarray(sol.col_value, dtype=float) if ir.num_cols else np.zeros(0)
        obj = float(info.objective_function_value)
        if not ir.num_cols:  # HiGHS drops the offset of a model without columns (it reports 0)
            obj = float(ir.obj_constant)
        if ir.is_mip:
            out["best_bound"] = float(info.mip_dual_bound)
            out["mip_gap"] = float(info.mip_gap) if math.isfinite(info.mip_gap) else None
            out["nodes"] = int(info.mip_node_count)
    if status not in ("optimal", "feasible", "time_limit", "interrupted"):
        x = obj = None
    return status, x, obj, out


def _resolve_inf_or_unb(ir: IR, options: SolveOptions) -> str:
    """HiGHS could not tell: look for any feasible point (zero objective). Feasible -> unbounded."""
    h = _new_solver(options)
    with quiet_stdout():
        _pass(h, ir, np.zeros(ir.num_cols), 0.0, "minimize")
        h.setOptionValue("presolve", "off")
        h.run()
    name = str(h.getModelStatus()).split(".")[-1]
    if name == "kOptimal":
        return "unbounded"
    if name == "kInfeasible":
        return "infeasible"
    return "infeasible_or_unbounded"


def _duals(h, ir: IR, res: Result) -> None:
    sol = h.getSolution()
    if not getattr(sol, "dual_valid", True):
        return
    attach_duals(ir, res, np.asarray(sol.row_dual, dtype=float), np.asarray(sol.col_dual, dtype=float),
                 np.asarray(sol.row_value, dtype=float))


def _fixed_duals(ir: IR, res: Result, x: np.ndarray, options: SolveOptions) -> None:
    """Duals of the LP left when the integer variables are fixed at their values in ``x``."""
    fixed = fixed_ir(ir, x)
    h = _new_solver(options)
    with quiet_stdout():
        _pass(h, fixed, fixed.obj, fixed.obj_constant, fixed.sense)
        h.run()
    if str(h.getModelStatus()).endswith("kOptimal"):
        _duals(h, fixed, res)
        res.extra["duals_of"] = "the LP with the integer variables fixed at their values"


def _ray(h, ir: IR, options: SolveOptions) -> dict[str, float]:
    """The columns along a primal unbounded ray (of the continuous relaxation for a MIP or QP)."""
    def ray_of(hh):
        try:
            with quiet_stdout():
                _status, has, ray = hh.getPrimalRay()
        except Exception:  # a highspy without rays
            return None
        return np.asarray(ray, dtype=float) if has and ray is not None else None

    ray = None if (ir.is_mip or ir.q is not None) else ray_of(h)
    if ray is None and ir.num_cols:  # presolve can decide unboundedness without a ray: ask again without it
        lp = relax(ir)
        h2 = _new_solver(options)
        with quiet_stdout():
            _pass(h2, lp, lp.obj, 0.0, ir.sense)
            h2.setOptionValue("presolve", "off")
            h2.run()
        if str(h2.getModelStatus()).endswith("kUnbounded"):
            ray = ray_of(h2)
    return ray_labels(ir, ray) if ray is not None else {}


def _solve_lex(ir: IR, options: SolveOptions) -> Result:
    """staticLex: optimise each objective in turn, keeping the earlier ones within a tolerance of their optimum."""
    import scipy.sparse as sp

    A, rl, ru = ir.A, ir.row_lower.copy(), ir.row_upper.copy()
    values = []
    x = None
    status = "optimal"
    rechecks: list = []
    warnings: list = []
    for k, (c, c0) in enumerate(ir.lex_objectives):
        sub = IR(**{**ir.__dict__, "A": A, "row_lower": rl, "row_upper": ru, "obj": c, "obj_constant": c0,
                    "lex_objectives": None, "q": None, "row_label": list(ir.row_label) + ["#lex"] * (A.shape[0] - ir.num_rows),
                    "row_key": list(ir.row_key) + [()] * (A.shape[0] - ir.num_rows)})
        started = time.perf_counter()
        h = _new_solver(options)
        with sigint_stops_solve() as stop, quiet_stdout():
            _pass(h, sub, c, c0, ir.sense)
            _run(h, options, stop)
        status, x, obj, info = _read(h, sub, stop)
        if status == "optimal" and not stop.requested and _wants_recheck(sub, options):
            # each level's optimum bounds the next ones: a level HiGHS's presolve got wrong would hold
            # the later levels to a worse value and the answer would be called optimal (OPL0712)
            recheck = _presolve_recheck(sub, options, x, obj, info, time.perf_counter() - started)
            rechecks.append(dict(recheck["record"], level=k + 1))
            if recheck["use"] is not None:
                status, x, obj, info = recheck["use"]
            if recheck["warning"] is not None:
                warnings.append("objective %d of the staticLex: %s" % (k + 1, recheck["warning"]))
        if status != "optimal":
            break
        values.append(obj)
        tol = 1e-9 * max(1.0, abs(obj))  # (a guard for round-off only: the solver's feasibility tolerance does the rest)
        if ir.lex_tolerances:  # staticLexFull: the level may degrade by max(abstol, reltol * |optimum|)
            abstol, reltol = ir.lex_tolerances[k]
            tol = max(tol, abstol, reltol * abs(obj))
        row = sp.csr_array(c.reshape(1, -1))
        A = sp.vstack([A, row], format="csr")
        target = obj - c0
        if ir.sense == "maximize":
            rl, ru = np.append(rl, target - tol), np.append(ru, np.inf)
        else:
            rl, ru = np.append(rl, -np.inf), np.append(ru, target + tol)
    if x is not None and len(values) == len(ir.lex_objectives):  # each level's value at the final solution
        values = [float(c @ x + c0) for c, c0 in ir.lex_objectives]
    res = result_from_solution(ir, status, x, values[0] if values else None, "highs")
    res.extra["objectives"] = values
    if rechecks:  # one record per level re-solved (docs/solvers.md, "HiGHS's presolve")
        res.extra["presolve_recheck"] = rechecks
    for w in warnings:
        res.diagnostics = list(res.diagnostics or []) + [_recheck_warning(w, ir, options)]
    return res


#: the size (rows and bounds) of HiGHS's first infeasible set up to which HiGHS makes it irreducible
#: itself; HiGHS's deletion pass does not stop at a time limit (a 161-row, 6,320-bound set took 40 s
#: with a 2 s limit), so a larger set is made irreducible by pyopl's deletion filter, which does
IIS_IRREDUCIBLE_MAX = 1000


def compute_iis(ir: IR, options: SolveOptions) -> tuple[list[tuple[int, str]], list[tuple[int, str]], bool] | None:
    """HiGHS's infeasible subset of an LP: ``(rows, bounds, irreducible)``, ``rows`` and ``bounds``
    each a list of ``(index, side)`` with side ``"lower"``, ``"upper"`` or ``"both"``; None when HiGHS
    gives none (a MIP, or an LP whose IIS it could not find).

    First ``Highs.getIis`` with the strategy "from the LP" (``kIisStrategyFromLp``: one elastic solve,
    an infeasible set that may not be irreducible); when that set has at most
    :data:`IIS_IRREDUCIBLE_MAX` rows and bounds, HiGHS makes it irreducible
    (``kIisStrategyFromLp | kIisStrategyIrreducible``) and ``irreducible`` is True; otherwise the set
    comes back as it is (``irreducible`` False) for a filter that keeps to a time budget."""
    if ir.is_mip:
        return None
    hs = _highs()
    first = _iis(ir, options, int(hs.IisStrategy.kIisStrategyFromLp))
    if first is None:
        return None
    if len(first[0]) + len(first[1]) > IIS_IRREDUCIBLE_MAX:
        return first[0], first[1], False
    strategy = int(hs.IisStrategy.kIisStrategyFromLp) | int(hs.IisStrategy.kIisStrategyIrreducible)
    full = _iis(ir, options, strategy)
    return (full[0], full[1], True) if full is not None else (first[0], first[1], False)


def _iis(ir: IR, options: SolveOptions, strategy: int) -> tuple[list[tuple[int, str]], list[tuple[int, str]]] | None:
    """One ``Highs.getIis`` of the LP ``ir`` with ``strategy`` (an ``IisStrategy`` mask): ``(rows, bounds)``, or None."""
    hs = _highs()
    h = _new_solver(SolveOptions(time_limit=options.time_limit))
    try:
        with quiet_stdout():
            _pass(h, ir, np.zeros(ir.num_cols), 0.0, "minimize")
            h.setOptionValue("iis_strategy", strategy)
            h.run()
            status, iis = h.getIis()
    except Exception:  # a highspy without IIS support
        return None
    if status != hs.HighsStatus.kOk or not iis.valid_:
        return None
    side = {2: "lower", 3: "upper", 4: "both"}
    rows = [(int(i), side[int(b)]) for i, b in zip(iis.row_index_, iis.row_bound_) if int(b) in side]
    cols = [(int(j), side[int(b)]) for j, b in zip(iis.col_index_, iis.col_bound_) if int(b) in side]
    if not rows and not cols:
        return None
    return rows, cols
