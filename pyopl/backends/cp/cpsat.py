"""OR-Tools CP-SAT backend: ``using CP;`` models (and pure-integer linear ones).

The IR is passed as it is: every column an integer variable (CP-SAT has no continuous ones; a
column without a finite bound gets OPL's ``maxint`` as its bound, CP Optimizer's default integer
domain), every row a linear constraint in integers (:mod:`pyopl.backends.cpsat_scale`: scaled by a power of ten
where that is exact, refused with ``cpsat-non-integral`` otherwise), the CP constraints of the IR
(``allDifferent``) as CP-SAT's own, and a linear objective.  Logical constraints arrive as the
integer big-M rows lowering makes for every backend (exact on integers).  Reference: the
``ortools.sat.python.cp_model`` API (``CpModel``, ``CpSolver``, ``SatParameters``).
"""
from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np

from ...diagnostics.diagnostic import Span
from ...ir import IR, format_key_part
from ...results.intervals import IntervalValue
from ...results.result import Result, Values
from ..common import SolveOptions, error_result, option_span, refuse, result_from_solution, solver_diagnostic
from .constraints import Builder, Refused, labels, not_integral
from ..cpsat_scale import MAX_MAGNITUDE, NotIntegral, inner_bounds, scale_for, scaled
from ..interrupt import sigint_stops_solve, wake_on_sigint

#: OPL's ``maxint``: the bound given to an integer column that has none (CP Optimizer's default domain)
MAXINT = 2147483647


def _cp_model():
    """The ``ortools.sat.python.cp_model`` module, or None when ``ortools`` is not installed."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    return cp_model


def solve(ir: IR, options: SolveOptions) -> Result:
    """Solve ``ir`` with CP-SAT. Returns a :class:`Result` (never raises for the user's model or options).

    Statuses: ``optimal`` (proved; for a model without objective: a solution found), ``feasible``
    (a solution, not proved optimal, search stopped by a limit other than time), ``time_limit``
    (time ran out; a solution may be present), ``infeasible``, ``error``. ``best_bound`` is CP-SAT's
    objective bound. Diagnostics: ``OPL0702`` without ``ortools`` (with the install command),
    ``OPL0703`` for a model CP-SAT does not take, ``OPL0628`` for a continuous column,
    ``OPL0708`` for a coefficient with no exact integer form, ``OPL0707`` for a bad parameter."""
    cp_model = _cp_model()
    if cp_model is None:
        return error_result("cpsat", "solver-not-installed", "the CP-SAT backend needs the `ortools` package, "
                            "which is not installed", options,
                            help='install it with `pip install "pyopl[cp]"` (or `pip install ortools`)',
                            span=Span("--solver cpsat", 1, 1, 1, 2))
    refused = refuse(ir, "cpsat", options)
    if refused is not None:
        return refused
    start = time.perf_counter()
    try:
        model, xs, obj_scale, scaled_rows = build(cp_model, ir)
    except Refused as e:
        return error_result("cpsat", e.slug, e.message, options, help=e.help, span=e.span)
    solver = cp_model.CpSolver()
    try:
        _set_params(solver, options, obj_scale, time.perf_counter() - start)
    except ValueError as e:
        return error_result("cpsat", "solver-option-invalid", str(e), options,
                            help="CP-SAT parameter names are the fields of `SatParameters` (e.g. "
                                 "`num_workers`, `max_time_in_seconds`, `random_seed`)",
                            span=option_span(options, str(e)))
    callback = None
    if options.progress is not None or options.pool:
        callback = _Progress(options.progress, ir, obj_scale, start, xs, options.pool)
        if options.pool and ir.sense == "feasibility":  # cp.startNewSearch(): every solution, one by one
            solver.parameters.enumerate_all_solutions = True
    if options.start is not None:  # cp.setStartingPoint: CP-SAT's hints
        st = np.asarray(options.start, dtype=float)
        _hint(model, [(xs[int(j)], int(round(float(st[j])))) for j in np.flatnonzero(~np.isnan(st))])
    with sigint_stops_solve() as stop, wake_on_sigint(stop):
        # Ctrl-C: CP-SAT's own SIGINT handler would stop the search unseen (a `feasible` result, exit 0);
        # pyopl's handler stops it instead and the result says `interrupted` (as for the MIP backends)
        solver.parameters.catch_sigint_signal = False
        stop.on_request.append(solver.stop_search)
        code, values, refused = _run(cp_model, model, solver, xs, ir, options, callback, start, stop)
    if refused is not None:
        return refused
    res = _result(cp_model, solver, code, ir, xs, obj_scale, options, stop.requested)
    if options.pool and callback is not None:
        res.extra["pool"] = callback.pool
        res.extra["cpsat_solutions"] = len(callback.pool)
    if ir.lex_objectives:
        res.extra["objectives"] = values
        res.best_bound = res.mip_gap = None  # (the last stage's bound is of the last objective)
        if res.status == "optimal" and len(values) == len(ir.lex_objectives):
            res.objective = res.best_bound = values[0]
    if scaled_rows or obj_scale > 1:
        res.extra["cpsat_scaling"] = "%d constraint(s)%s multiplied by a power of ten (or a common denominator) to " \
            "make every coefficient a whole number (exact)" % (scaled_rows, " and the objective (by %d)" % obj_scale
                                                               if obj_scale > 1 else "")
    res.solve_time_s = time.perf_counter() - start
    return res


def _run(cp_model: Any, model: Any, solver: Any, xs: list, ir: IR, options: SolveOptions, callback: Any,
         start: float, stop: Any) -> tuple[Any, list, Result | None]:
    """Run the search (every ``staticLex`` stage): ``(CP-SAT's status, optimum of each stage, None)``,
    or ``(None, [], error result)`` when CP-SAT refuses the model."""
    values: list = []
    log_file = None
    try:
        if options.log_to_console or options.log_file:
            # CP-SAT's log goes through a callback, never to standard output (`--format json` stays clean)
            solver.parameters.log_search_progress = True
            solver.parameters.log_to_stdout = False
            if options.log_file:
                log_file = open(options.log_file, "a", encoding="utf-8")
            sinks = [s for s in (sys.stderr if options.log_to_console else None, log_file) if s is not None]
            solver.log_callback = lambda line: [s.write(line + "\n") for s in sinks]
        if ir.lex_objectives:
            code, values = _solve_lex(cp_model, model, solver, xs, ir, options, callback, start, stop)
        else:
            code = solver.solve(model, callback) if callback is not None else solver.solve(model)
            if ir.sense == "feasibility" and ir.intervals and code == cp_model.OPTIMAL and not options.pool \
                    and not stop.requested:
                _left_shift(cp_model, model, solver, xs, ir, options, start)
    except Refused as e:
        return None, [], error_result("cpsat", e.slug, e.message, options, help=e.help, span=e.span)
    finally:
        if log_file is not None:
            log_file.close()
    return code, values, None


#: the most seconds spent moving a satisfaction schedule's intervals to their earliest starts
LEFT_SHIFT_SECONDS = 2.0


def _left_shift(cp_model: Any, model: Any, solver: Any, xs: list, ir: IR, options: SolveOptions,
                start: float) -> None:
    """A schedule without objective, moved to early starts as CP Optimizer returns one (its intervals
    left-shifted, not at the far end of the default window): the sum of the interval starts minimised
    from the solution found (CP-SAT's hints), for at most :data:`LEFT_SHIFT_SECONDS` (twice the first
    search's time where that is more, within the time limit).  Any solution of it satisfies the model;
    where the second search finds none, the first solution is solved for again, fixed."""
    first = [solver.value(v) for v in xs]
    budget = min(LEFT_SHIFT_SECONDS, max(0.5, 2.0 * solver.wall_time))
    if options.time_limit is not None:
        budget = min(budget, float(options.time_limit) - (time.perf_counter() - start))
    if budget < 0.05:
        return
    model.clear_hints()
    _hint(model, zip(xs, first))
    model.minimize(sum(xs[iv.start] for iv in ir.intervals))
    limit = solver.parameters.max_time_in_seconds
    solver.parameters.max_time_in_seconds = budget
    try:
        code = solver.solve(model)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            model.clear_objective()
            for v, x in zip(xs, first):
                model.add(v == x)
            solver.solve(model)
    finally:
        solver.parameters.max_time_in_seconds = limit


def _hint(model: Any, pairs: Any) -> None:
    """CP-SAT's hints ``variable = value`` for ``pairs``, one per CP-SAT variable: the size columns of
    intervals of one fixed size share CP-SAT's constant (:func:`build`), which takes one hint."""
    hinted = set()
    for v, x in pairs:
        if v.__class__ is not int and v.index not in hinted:  # (an int: a fixed size, nothing to hint)
            hinted.add(v.index)
            model.add_hint(v, x)


def build(cp_model: Any, ir: IR, part: Any = None) -> tuple[Any, list, int, int]:
    """``(CpModel, variables, objective scale, rows scaled by a power of ten)`` for ``ir``; raises
    :class:`Refused`.  ``variables[j]`` is column ``j``'s CP-SAT variable, or a plain ``int`` for the
    size column of an interval of fixed size (``size 5``): CP-SAT gets that size as a constant, as a
    direct build writes it, and no variable (``CpSolver.value`` reads an ``int`` as itself).
    ``part`` (the conflict refiner's, :mod:`.conflict`): which rows, indicators and global
    constraints to add (``part.keeps(kind, k)``), the literal that enforces each (``part.guard(m, kind,
    k)``, None for none) and whether to add the objective (``part.objective``)."""
    m = cp_model.CpModel()
    n = ir.num_cols
    lower = np.asarray(ir.col_lower, dtype=float)
    upper = np.asarray(ir.col_upper, dtype=float)
    integer = np.asarray(ir.col_integer, dtype=bool)
    if n and not integer.all():
        _refuse_continuous(ir, int(np.flatnonzero(~integer)[0]))
    # (bounds as the integers inside them: ceil/floor past a 1e-9 tolerance; infinite ones are maxint)
    lo_int = [-MAXINT if math.isinf(v) else int(math.ceil(v - 1e-9)) for v in lower.tolist()]
    hi_int = [MAXINT if math.isinf(v) else int(math.floor(v + 1e-9)) for v in upper.tolist()]
    # the size column of an interval of fixed size: that constant, not a variable of its own
    fixed = {iv.size for iv in ir.intervals if lower[iv.size] == upper[iv.size]}
    new_int_var = m.new_int_var
    xs: list = [lo_int[j] if j in fixed and lo_int[j] == hi_int[j] else new_int_var(lo_int[j], hi_int[j], label)
                for j, label in enumerate(column_labels(ir))]
    scaled_rows = _add_rows(m, ir, xs, part, cp_model.LinearExpr.weighted_sum)
    for k, ind in enumerate(getattr(ir, "indicators", None) or ()):  # a logical constraint, unbounded expression
        if part is None or part.keeps("indicator", k):
            _indicator(m, xs, ind, part.guard(m, "indicator", k) if part is not None else None)
    glob = Builder(m, xs)
    glob.add_intervals(ir.intervals)
    chosen = [c for k, c in enumerate(ir.cp_constraints) if part is None or part.keeps("global", k)]
    glob.prepare(chosen)
    for c in chosen:
        glob.add(c)
    obj_scale = 1
    if ir.sense != "feasibility" and (part is None or part.objective):
        expr, obj_scale = _objective(ir, xs, ir.obj)
        _set_objective(m, ir.sense, expr)
    return m, xs, obj_scale, scaled_rows


def _refuse_continuous(ir: IR, j: int) -> None:
    """Raise :class:`Refused` for column ``j``, the first one that is not integer."""
    if ir.col_name[j] not in ir.dvars:
        raise Refused("cp-mp-only", "this model needs a continuous auxiliary variable (`%s`, made for a "
                      "`piecewise`, or an `abs`, `min` or `max` of a non-integer expression), and CP-SAT "
                      "takes integer variables only" % ir.col_name[j],
                      "keep the expressions integer (integer coefficients over integer variables), or "
                      "solve the model with a MIP solver (remove `using CP;`)")
    raise Refused("cp-mp-only", "`%s` is a continuous variable, and CP-SAT takes integer and boolean "
                  "variables only" % ir.column_label(j),
                  "declare it `int` (scaled to whole units) or solve the model with a MIP solver "
                  "(remove `using CP;`, `--solver highs`)", ir.dvar_spans.get(ir.col_name[j]))


def column_labels(ir: IR) -> list[str]:
    """``ir.column_label(j)`` for every column, in order."""
    return labels(zip(ir.col_name, ir.col_key), format_key_part)


def _add_rows(m: Any, ir: IR, xs: list, part: Any = None, weighted_sum: Any = None) -> int:
    """Every row of ``ir`` as a linear constraint over ``xs``, scaled to integers (:mod:`.cpsat_scale`);
    returns how many rows a power of ten (or a denominator) scaled. ``part``: as for :func:`build`.
    ``weighted_sum``: CP-SAT's ``LinearExpr.weighted_sum``, which makes a row's expression in one
    call (the same constraint as the sum of its terms, ``tests/test_cp_build_size.py``); None: the sum."""
    data, indices, indptr = ir.csr()
    if not ir.num_rows:
        return 0
    # Every coefficient a whole number within 2^53 (the common case): each row's scale is 1 (what
    # scale_for finds first), so it is not searched row by row, and the bounds' integers are
    # found for all rows at once.
    whole = bool(np.all(np.abs(data) <= MAX_MAGNITUDE) and np.all(data == np.round(data)))
    coef_list = data.tolist()
    col_list = indices.tolist()
    ptr = indptr.tolist()
    row_lower, row_upper = ir.row_lower, ir.row_upper
    bounds = _whole_bounds(row_lower, row_upper) if whole else None
    scaled_rows = 0
    for i in range(ir.num_rows):
        if part is not None and not part.keeps("row", i):
            continue
        lit = part.guard(m, "row", i) if part is not None else None
        a, b = ptr[i], ptr[i + 1]
        cols, coefs = col_list[a:b], coef_list[a:b]
        if whole:
            f = 1
        else:
            try:
                f = scale_for(coefs)
            except NotIntegral as e:
                raise not_integral(e, "constraint `%s`" % ir.row_text(i) if ir.row_label[i] else "this constraint",
                                   ir.row_span(i)) from None
            if f > 1:
                scaled_rows += 1
        lo, hi = (bounds[0][i], bounds[1][i]) if bounds is not None else inner_bounds(row_lower[i], row_upper[i], f)
        never = [] if lit is None else [lit.Not()]  # a row that cannot hold
        if lo is not None and hi is not None and lo > hi:
            m.add_bool_or(never)  # no integer inside the bounds: the row cannot hold
            continue
        if f == 1:  # (scaled(c, 1) is int(round(c)), and these are whole: int(c))
            vs = [xs[j] for j, c in zip(cols, coefs) if c]
            if weighted_sum is not None and vs and not any(v.__class__ is int for v in vs):
                expr = weighted_sum(vs, [int(c) for c in coefs if c])
            else:  # (no terms, or a fixed size among them: the constants added up as before)
                expr = sum(int(c) * xs[j] for j, c in zip(cols, coefs) if c)
        else:
            expr = sum(scaled(c, f) * xs[j] for j, c in zip(cols, coefs) if c)
        if isinstance(expr, int):  # no terms left: a constant row
            if (lo is not None and expr < lo) or (hi is not None and expr > hi):
                m.add_bool_or(never)
            continue
        ct = None
        if lo is not None and hi is not None:
            ct = m.add_linear_constraint(expr, lo, hi)
        elif lo is not None:
            ct = m.add(expr >= lo)
        elif hi is not None:
            ct = m.add(expr <= hi)
        if ct is not None and lit is not None:
            ct.only_enforce_if(lit)
    return scaled_rows


def _whole_bounds(lower: Any, upper: Any) -> tuple[list, list] | None:
    """``inner_bounds(lower[i], upper[i], 1)`` for every row at once, as two lists (None where
    infinite), or None when a finite bound is 2^53 or more in size (then row by row, in Python's
    integers).  Rounding as ``inner_bounds``: a bound within 1e-9 (relative past 1) of an integer
    is that integer, else ``ceil`` of a lower bound, ``floor`` of an upper."""
    out = []
    for values, up in ((lower, True), (upper, False)):
        v = np.asarray(values, dtype=float)
        inf = np.isinf(v)
        finite = np.where(inf, 0.0, v)
        if np.any(np.abs(finite) >= MAX_MAGNITUDE) or np.any(np.isnan(v)):
            return None
        r = np.round(finite)
        near = np.abs(finite - r) <= 1e-9 * np.maximum(1.0, np.abs(finite))
        ints = np.where(near, r, np.ceil(finite) if up else np.floor(finite)).astype(np.int64).tolist()
        if inf.any():
            for k in np.flatnonzero(inf).tolist():
                ints[k] = None
        out.append(ints)
    return out[0], out[1]


def _indicator(m: Any, xs: list, ind: Any, guard: Any = None) -> None:
    """``x[binary] == active  =>  lo <= terms @ x <= hi`` (an :class:`~pyopl.ir.Indicator`) as a linear
    constraint enforced by the literal (CP-SAT's ``only_enforce_if``): exact, no big-M needed. ``guard``:
    a second enforcing literal (the conflict refiner's), or None."""
    coefs = [float(c) for c in ind.terms.values() if c]
    try:
        f = scale_for(coefs)
    except NotIntegral as e:
        raise not_integral(e, "this logical constraint", ind.span) from None
    lo, hi = inner_bounds(ind.lo, ind.hi, f)
    lit = xs[ind.binary] if ind.active else xs[ind.binary].Not()
    lits = [lit] if guard is None else [lit, guard]
    expr = sum(scaled(float(c), f) * xs[int(j)] for j, c in ind.terms.items() if c)
    if isinstance(expr, int):
        if (lo is not None and expr < lo) or (hi is not None and expr > hi):
            m.add_bool_or([x.Not() for x in lits])
        return
    if lo is not None and hi is not None:
        m.add_linear_constraint(expr, lo, hi).only_enforce_if(lits)
    elif lo is not None:
        m.add(expr >= lo).only_enforce_if(lits)
    elif hi is not None:
        m.add(expr <= hi).only_enforce_if(lits)


def _objective(ir: IR, xs: list, c: np.ndarray) -> tuple[Any, int]:
    """``(integer linear expression, scale)``: ``c · x`` times the power of ten ``scale`` that makes
    every coefficient whole; raises :class:`Refused` (OPL0708) where none does."""
    nz = np.flatnonzero(c)
    try:
        scale = scale_for(c[nz])
    except NotIntegral as e:
        raise not_integral(e, "the objective", ir.objective_span) from None
    return sum(scaled(float(c[j]), scale) * xs[int(j)] for j in nz), scale


def _set_objective(m: Any, sense: str, expr: Any) -> None:
    if isinstance(expr, int):  # no terms: a constant objective
        return
    if sense == "minimize":
        m.minimize(expr)
    else:
        m.maximize(expr)


def _solve_lex(cp_model: Any, model: Any, solver: Any, xs: list, ir: IR, options: SolveOptions,
               callback: Any, start: float, stop: Any = None) -> tuple[Any, list[float]]:
    """``staticLex``: each objective in priority order, the earlier ones held at their optimum by an
    equality (exact: the scaled objectives are integers), the time limit shared by the stages.
    Returns ``(CP-SAT's status of the last stage run, [optimum of each stage proved optimal])``;
    stops at the first stage that is not proved optimal (IBM's CP Optimizer likewise reports the
    objectives in priority order, "Multi-criteria expressions" in the OPL reference)."""
    values: list[float] = []
    code = None
    for k, (c, c0) in enumerate(ir.lex_objectives):
        expr, scale = _objective(ir, xs, np.asarray(c, dtype=float))
        model.clear_objective()
        _set_objective(model, ir.sense, expr)
        if options.time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.0, float(options.time_limit) - (time.perf_counter() - start))
        code = solver.solve(model, callback) if callback is not None else solver.solve(model)
        if code != cp_model.OPTIMAL or (stop is not None and stop.requested):
            break
        best = int(round(solver.objective_value)) if not isinstance(expr, int) else expr
        values.append(best / scale + float(c0))
        if k + 1 < len(ir.lex_objectives) and not isinstance(expr, int):
            model.add(expr == best)
    return code, values


def _set_params(solver: Any, options: SolveOptions, obj_scale: int = 1, spent: float = 0.0) -> None:
    """The options as ``SatParameters``; ValueError for a name or value CP-SAT does not take.
    ``spent``: seconds of the time limit already used (building the CP-SAT model), so that the
    whole solve keeps to ``time_limit``."""
    p = solver.parameters
    if options.time_limit is not None:
        p.max_time_in_seconds = max(0.0, float(options.time_limit) - spent)
    if options.threads is not None:
        p.num_workers = int(options.threads)
    if options.seed is not None:
        p.random_seed = int(options.seed)
    if options.mip_gap is not None:
        p.relative_gap_limit = float(options.mip_gap)
    if options.mip_gap_abs is not None:
        p.absolute_gap_limit = float(options.mip_gap_abs) * obj_scale  # the model's objective is scaled
    for name, value in (options.extra or {}).items():
        if not hasattr(p, name) or name.startswith("_"):
            raise ValueError("`%s` is not a CP-SAT parameter" % name)
        current = getattr(p, name)
        try:
            if isinstance(current, bool):
                v = str(value).lower() in ("1", "true", "yes", "on")
            elif isinstance(current, int):
                v = int(value)
            elif isinstance(current, float):
                v = float(value)
            elif hasattr(type(current), "__members__"):  # an enum (`search_branching=FIXED_SEARCH`): by name
                v = _enum_value(type(current), value)
            else:
                v = value
            setattr(p, name, v)
        except (TypeError, ValueError, AttributeError) as e:
            raise ValueError("`%s` cannot be set to %r: %s" % (name, value, e)) from None


def _enum_value(enum: Any, value: Any) -> Any:
    """The member of the ``SatParameters`` enum ``enum`` named ``value`` (any case; its number also
    works); ValueError naming the choices otherwise."""
    members = enum.__members__
    text = str(value).strip()
    for member_name, member in members.items():
        if member_name.lower() == text.lower() or text == str(int(member)):
            return member
    raise ValueError("the choices are %s" % ", ".join(members))


def _result(cp_model: Any, solver: Any, code: Any, ir: IR, xs: list, obj_scale: int, options: SolveOptions,
            interrupted: bool = False) -> Result:
    """The :class:`Result` of a finished search.  A search that stopped without a proof is
    ``interrupted`` when Ctrl-C stopped it, ``time_limit`` when CP-SAT ran out the time it was given
    (``max_time_in_seconds``: the last stage's share under ``staticLex``, not the whole ``time_limit``,
    part of which building the model took), else ``feasible`` (another limit, such as a
    ``--option max_number_of_conflicts``) with a solution, or ``time_limit`` (exit code 7: a limit
    with no solution) without one."""
    has_solution = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    given = float(solver.parameters.max_time_in_seconds)
    timed_out = math.isfinite(given) and solver.wall_time >= 0.98 * given
    if code == cp_model.OPTIMAL:
        status = "optimal"
    elif code == cp_model.INFEASIBLE:
        status = "infeasible"
    elif code in (cp_model.FEASIBLE, cp_model.UNKNOWN):
        status = "interrupted" if interrupted else ("feasible" if has_solution and not timed_out else "time_limit")
    else:
        status = "error"
    x = None
    obj = None
    if has_solution:
        x = np.array([solver.value(v) for v in xs], dtype=float)
        if ir.sense != "feasibility":
            obj = float(ir.obj @ x) + float(ir.obj_constant)
    res = result_from_solution(ir, status, x, obj, "cpsat", 0.0)
    if x is not None:
        res.variables.update(interval_values(ir, x))
    if has_solution and ir.sense != "feasibility":
        res.best_bound = float(solver.best_objective_bound) / obj_scale + float(ir.obj_constant)
        if res.objective is not None:
            den = max(1e-10, abs(float(res.objective)))
            res.mip_gap = abs(float(res.objective) - res.best_bound) / den
    if status == "error":
        res.message = "CP-SAT stopped with status %s" % solver.status_name(code)
        res.diagnostics = [solver_diagnostic("solver-failed", res.message, options)]
    res.extra["cpsat_status"] = solver.status_name(code)
    res.extra["workers"] = int(solver.parameters.num_workers)
    res.extra["cpsat_conflicts"] = int(solver.num_conflicts)  # (cp.info.NumberOfFails)
    res.extra["cpsat_variables"], res.extra["cpsat_constraints"] = len(xs), ir.num_rows + len(ir.cp_constraints)
    try:
        res.nodes = int(solver.num_branches)
    except AttributeError:  # pragma: no cover - older ortools
        pass
    return res


def interval_values(ir: IR, x: np.ndarray) -> dict:
    """``{name: IntervalValue or Values of them}`` for the interval variables of ``ir`` at the column
    values ``x`` (an absent interval is ``<0 0 0 0>``, as IBM prints it)."""
    out: dict = {}
    for name, (dims, ivs) in ir.interval_blocks.items():
        vals = {}
        for iv in ivs:
            present = 1 if iv.presence is None else int(round(float(x[iv.presence])))
            vals[iv.key] = IntervalValue(present, *(int(round(float(x[c]))) * present for c in (iv.start, iv.end, iv.size)))
        out[name] = Values(vals, dims) if dims else vals[()]
    return out


try:  # the progress callback derives from CP-SAT's; without ortools no solve reaches it
    from ortools.sat.python.cp_model import CpSolverSolutionCallback as _Base
except ImportError:  # pragma: no cover - ortools missing
    _Base = object


class _Progress(_Base):
    """Feeds ``options.progress`` at each new solution: elapsed seconds, incumbent, bound, gap."""

    def __init__(self, progress: Any, ir: IR, obj_scale: int, start: float, xs: list | None = None,
                 pool: int = 0) -> None:
        super().__init__()
        self.progress, self.ir, self.scale, self.start = progress, ir, obj_scale, start
        self.xs, self.pool_limit = xs, pool
        self.pool: list = []  # (objective, column values) of each solution found (cp.startNewSearch)
        self._seen: set = set()

    def on_solution_callback(self) -> None:
        if self.pool_limit:
            self._keep()
        if self.progress is None:
            return
        upd: dict[str, Any] = {"elapsed_s": time.perf_counter() - self.start}
        if self.ir.sense != "feasibility":
            inc = self.objective_value / self.scale + self.ir.obj_constant
            bound = self.best_objective_bound / self.scale + self.ir.obj_constant
            upd.update(incumbent=inc, bound=bound, gap=abs(inc - bound) / max(1e-10, abs(inc)))
        try:
            self.progress(upd)
        except Exception:  # a failing display must not stop the solve
            pass

    def _keep(self) -> None:
        """Keep this solution for ``cp.next()``: distinct in the model's own decision variables."""
        x = np.array([self.value(v) for v in self.xs], dtype=float)
        mine = tuple(x[j] for j in range(len(x)) if self.ir.col_name[j] in self.ir.dvars)
        if mine in self._seen:
            return
        self._seen.add(mine)
        obj = float(self.ir.obj @ x) + float(self.ir.obj_constant) if self.ir.sense != "feasibility" else None
        self.pool.append((obj, x))
        if len(self.pool) >= self.pool_limit:
            self.stop_search()


def default_domain_assumptions(ir: IR, fallback: Any = None) -> list[dict]:
    """The bounds CP-SAT gives the declared integer decisions that have none on a side: OPL's
    ``maxint`` (``-maxint`` below), as entries of :attr:`IR.assumptions` (``{"column", "side", "bound",
    "what", "span", "uses", "help"}``), so that the solution check reports a solution at one as
    ``feasible``, not ``optimal`` (OPL0710): the optimum is proved only inside that domain, which the
    model never stated (IBM asks CP models for domains; CP Optimizer's own default is wider)."""
    out = []
    lower, upper = np.asarray(ir.col_lower, dtype=float), np.asarray(ir.col_upper, dtype=float)
    for name, block in ir.dvars.items():
        span = ir.dvar_spans.get(name) or fallback
        cols = range(block.first, block.first + block.size)
        for side, bounds, value in (("lower", lower, -MAXINT), ("upper", upper, MAXINT)):
            for j in (j for j in cols if math.isinf(bounds[j])):
                out.append({"column": j, "side": side, "bound": float(value), "span": span, "uses": 1,
                            "what": "CP-SAT's domain of a decision declared without one",
                            "help": "give `%s` the domain the model really has (`dvar int %s in 0..1000;`)" % (
                                name, name)})
    return out
