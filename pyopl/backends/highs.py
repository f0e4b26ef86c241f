"""The HiGHS backend: the whole IR handed over with one ``passModel`` call (CSC arrays).

HiGHS prints a banner on standard output when its object is created; the
file descriptor is redirected while the solver runs so that nothing but the
caller's own output (e.g. JSON) reaches stdout.
"""
from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ..ir import IR
from ..result import Result
from .common import SolveOptions, quiet_stdout, result_from_solution


def _highs():
    import highspy

    return highspy


def _new_solver(options: SolveOptions):
    hs = _highs()
    with quiet_stdout(options.log_to_console):
        h = hs.Highs()
    h.setOptionValue("output_flag", bool(options.log_to_console or options.log_file))
    if options.log_file:
        h.setOptionValue("log_file", str(options.log_file))
    if options.time_limit is not None:
        h.setOptionValue("time_limit", float(options.time_limit))
    if options.mip_gap is not None:
        h.setOptionValue("mip_rel_gap", float(options.mip_gap))
    if options.mip_gap_abs is not None:
        h.setOptionValue("mip_abs_gap", float(options.mip_gap_abs))
    if options.threads is not None:
        h.setOptionValue("threads", int(options.threads))
    if options.seed is not None:
        h.setOptionValue("random_seed", int(options.seed))
    for name, value in (options.extra or {}).items():
        h.setOptionValue(name, value)
    return h


def _pass(h, ir: IR, c: np.ndarray, c0: float, sense: str, lower=None, upper=None, rows=None) -> None:
    hs = _highs()
    A = ir.A.tocsc()
    A.sort_indices()
    n, m = ir.num_cols, ir.num_rows
    integrality = ir.col_integer.astype(np.int32)
    rl, ru = (ir.row_lower, ir.row_upper) if rows is None else rows
    status = h.passModel(n, m, int(A.nnz), int(hs.MatrixFormat.kColwise), -1 if sense == "maximize" else 1, float(c0),
                         np.ascontiguousarray(c, dtype=np.float64),
                         np.ascontiguousarray(ir.col_lower if lower is None else lower, dtype=np.float64),
                         np.ascontiguousarray(ir.col_upper if upper is None else upper, dtype=np.float64),
                         np.ascontiguousarray(rl, dtype=np.float64), np.ascontiguousarray(ru, dtype=np.float64),
                         A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data.astype(np.float64), integrality)
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
    """Solve the IR with HiGHS. Returns a :class:`Result`; never raises for an infeasible or unbounded model."""
    if ir.q is not None and ir.is_mip:
        return Result("error", solver="highs", message="HiGHS cannot solve a quadratic objective with integer variables "
                      "(MIQP); relax the integers or use the Gurobi backend (--solver gurobi)")
    start = time.perf_counter()
    if ir.lex_objectives:
        res = _solve_lex(ir, options)
        res.solve_time_s = time.perf_counter() - start
        return res
    h = _new_solver(options)
    with quiet_stdout(options.log_to_console):
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
        h.run()
    status, x, obj, info = _read(h, ir)
    if status == "infeasible_or_unbounded":
        status = _resolve_inf_or_unb(ir, options)
    res = result_from_solution(ir, status, x, obj, "highs")
    res.solve_time_s = time.perf_counter() - start
    if x is not None:
        res.best_bound, res.mip_gap = info.get("best_bound"), info.get("mip_gap")
        if not ir.is_mip and status == "optimal":
            _duals(h, ir, res)
    res.extra["iterations"] = info.get("iterations")
    if ir.is_mip:
        res.extra["nodes"] = info.get("nodes")
    return res


def _read(h, ir: IR):
    hs = _highs()
    ms = h.getModelStatus()
    name = str(ms).split(".")[-1]
    status = _STATUS.get(name, "error")
    info = h.getInfo()
    out: dict[str, Any] = {"iterations": int(getattr(info, "simplex_iteration_count", 0) or 0)}
    x = obj = None
    if int(getattr(info, "primal_solution_status", 0)) == 2 or (status == "optimal"):
        sol = h.getSolution()
        x = np.asarray(sol.col_value, dtype=float) if ir.num_cols else np.zeros(0)
        obj = float(info.objective_function_value)
        if ir.is_mip:
            out["best_bound"] = float(info.mip_dual_bound)
            out["mip_gap"] = float(info.mip_gap) if math.isfinite(info.mip_gap) else None
            out["nodes"] = int(info.mip_node_count)
    if status not in ("optimal", "feasible", "time_limit"):
        x = obj = None
    return status, x, obj, out


def _resolve_inf_or_unb(ir: IR, options: SolveOptions) -> str:
    """HiGHS could not tell: look for any feasible point (zero objective). Feasible -> unbounded."""
    h = _new_solver(options)
    with quiet_stdout(options.log_to_console):
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
    from .common import by_family

    sol = h.getSolution()
    if not getattr(sol, "dual_valid", True):
        return
    row_dual = np.asarray(sol.row_dual, dtype=float)
    col_dual = np.asarray(sol.col_dual, dtype=float)
    row_value = np.asarray(sol.row_value, dtype=float)
    slack = np.where(np.isfinite(ir.row_upper), ir.row_upper - row_value, np.where(np.isfinite(ir.row_lower), row_value - ir.row_lower, np.inf))
    res.duals = by_family(ir, row_dual)
    res.slacks = by_family(ir, slack)
    from .common import by_dvar

    res.reduced_costs = by_dvar(ir, col_dual)


def _solve_lex(ir: IR, options: SolveOptions) -> Result:
    """staticLex: optimise each objective in turn, keeping the earlier ones within a tolerance of their optimum."""
    import scipy.sparse as sp

    A, rl, ru = ir.A, ir.row_lower.copy(), ir.row_upper.copy()
    values = []
    x = None
    status = "optimal"
    for k, (c, c0) in enumerate(ir.lex_objectives):
        sub = IR(**{**ir.__dict__, "A": A, "row_lower": rl, "row_upper": ru, "obj": c, "obj_constant": c0,
                    "lex_objectives": None, "q": None, "row_label": list(ir.row_label) + ["#lex"] * (A.shape[0] - ir.num_rows),
                    "row_key": list(ir.row_key) + [()] * (A.shape[0] - ir.num_rows)})
        h = _new_solver(options)
        with quiet_stdout(options.log_to_console):
            _pass(h, sub, c, c0, ir.sense)
            h.run()
        status, x, obj, _ = _read(h, sub)
        if status != "optimal":
            break
        values.append(obj)
        tol = 1e-6 * max(1.0, abs(obj))
        row = sp.csr_array(c.reshape(1, -1))
        A = sp.vstack([A, row], format="csr")
        target = obj - c0
        if ir.sense == "maximize":
            rl, ru = np.append(rl, target - tol), np.append(ru, np.inf)
        else:
            rl, ru = np.append(rl, -np.inf), np.append(ru, target + tol)
    res = result_from_solution(ir, status, x, values[0] if values else None, "highs")
    res.extra["objectives"] = values
    return res
