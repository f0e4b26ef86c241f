"""Why a model has no solution (or no finite optimum), said in OPL terms.

For an infeasible model :func:`explain_infeasible` finds an irreducible
infeasible subset (IIS): constraints and variable bounds that cannot hold
together, while dropping any one of them leaves the rest feasible.  It asks
the solver first (HiGHS's ``getIis`` for LPs, Gurobi's ``computeIIS``) and
otherwise runs pyopl's own elastic filter followed by a deletion filter
(J. W. Chinneck, *Feasibility and Infeasibility in Optimization*, Springer
2008, chapter 6: the elastic filter finds an infeasible set, the deletion
filter makes it irreducible).  The result, a :class:`Conflict`, names rows
by constraint label and index (``ctCap[2]``) and bounds by variable
(``make[1] >= 0``), as text, JSON, and an ``OPL0704`` diagnostic.

For an unbounded model :func:`unbounded_diagnostic` names the variables
along the solver's unbounded ray (``OPL0705``).
"""
from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...ir import IR, opl_label

# Side of a row or bound that takes part in the conflict.
_SIDES = ("lower", "upper", "both")


@dataclass
class ConflictRow:
    """One constraint row of a conflict: ``label`` (the OPL constraint label, ``""`` when unlabelled),
    ``key`` (its ``forall`` index), ``text`` (``ctCap[2]``), ``side`` (which bound of the row binds),
    ``expression`` (the row written out, ``make[1] + make[2] >= 45``)."""

    row: int
    label: str
    key: tuple
    text: str
    side: str
    expression: str
    span: Any = None  # source span of the statement that made the row (an unlabelled row's only address)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label or None, "index": [_json_part(k) for k in self.key], "name": self.text,
                "side": self.side, "expression": self.expression}


@dataclass
class ConflictBound:
    """One variable bound of a conflict: ``variable`` (``make[1]``), ``side`` (``lower``/``upper``/``both``),
    ``text`` (``make[1] >= 0``)."""

    column: int
    name: str
    key: tuple
    variable: str
    side: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"variable": self.name, "index": [_json_part(k) for k in self.key], "name": self.variable,
                "side": self.side, "bound": self.text}


@dataclass
class Conflict:
    """An infeasible subset of the model: ``rows`` and ``bounds``; ``method`` says who found it
    (``highs-iis``, ``gurobi-iis``, ``elastic-filter``); ``irreducible`` is False only when the
    deletion filter ran out of time (the set is then infeasible but may not be minimal)."""

    rows: list[ConflictRow] = field(default_factory=list)
    bounds: list[ConflictBound] = field(default_factory=list)
    method: str = ""
    irreducible: bool = True
    #: the explanation ran out of its time budget: ``rows``/``bounds`` are an infeasible set that may
    #: not be minimal, or empty when the budget ended before any infeasible set was shown
    partial: bool = False
    budget_s: float | None = None  # the time budget it had (seconds), see :func:`explain_budget`
    elapsed_s: float = 0.0  # the time it took (seconds)

    def groups(self) -> list[tuple[str, list[ConflictRow]]]:
        """Rows grouped by constraint label, smaller groups first (then in model order)."""
        by: dict[str, list[ConflictRow]] = {}
        for r in self.rows:
            by.setdefault(r.label, []).append(r)
        return sorted(by.items(), key=lambda kv: (len(kv[1]), kv[1][0].row))

    def summary(self) -> str:
        """One line: ``ctDemand`` and ``ctCap[1]``, ``ctCap[2]``, ``ctCap[3]`` cannot hold together."""
        parts = []
        for _label, rows in self.groups():
            # each constraint once: a logical constraint's linearisation puts several rows under one name
            names = list(dict.fromkeys(r.text if r.label else r.expression for r in rows))
            parts.append(", ".join("`%s`" % n for n in names[:6]) + (" (and %d more)" % (len(names) - 6)
                                                                      if len(names) > 6 else ""))
        if self.bounds:
            parts.append("the bound%s %s" % ("s" if len(self.bounds) > 1 else "",
                                             ", ".join("`%s`" % b.text for b in self.bounds[:6]) +
                                             (" (and %d more)" % (len(self.bounds) - 6) if len(self.bounds) > 6 else "")))
        if not parts:
            if self.partial:
                return "the model is infeasible; its explanation ran out of its %s s budget before it found the " \
                       "conflicting constraints" % _num(round(self.budget_s or 0.0, 3))
            return "the model is infeasible"
        what = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        one = len(self.rows) + len(self.bounds) == 1
        tail = " (a partial explanation: its %s s budget ran out, the set may not be minimal)" % _num(
            round(self.budget_s or 0.0, 3)) if self.partial else ""
        return "%s cannot hold%s%s" % (what, "" if one else " together", tail)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``summary``, ``method``, ``irreducible``, ``constraints`` (label, index, name, side,
        expression), ``bounds`` (variable, index, name, side, bound)."""
        return {"summary": self.summary().replace("`", ""), "method": self.method, "irreducible": self.irreducible,
                "partial": self.partial, "budget_s": self.budget_s, "elapsed_s": round(self.elapsed_s, 3),
                "constraints": [r.to_dict() for r in self.rows], "bounds": [b.to_dict() for b in self.bounds]}

    def text(self) -> str:
        """A readable multi-line explanation for the CLI report."""
        out = ["infeasible: " + self.summary().replace("`", ""),
               "  conflict found by %s%s:" % (self.method, self._caveat())]
        for r in self.rows:
            out.append("    %-20s %s" % (r.text if r.label else "(unlabelled)", r.expression))
        for b in self.bounds:
            out.append("    %-20s %s" % ("bound", b.text))
        return "\n".join(out)

    def _caveat(self) -> str:
        if self.partial:
            return " (partial: the explanation ran out of its %s s budget; may not be minimal)" % _num(
                round(self.budget_s or 0.0, 3))
        return "" if self.irreducible else " (may not be minimal)"

    def diagnostic(self, sources: dict[str, str] | None = None, model_file: str = "<model>") -> Any:
        """The ``OPL0704`` diagnostic: primary span at the first group's label, secondary labels at the others."""
        from ..common import solver_diagnostic
        from ...diagnostics.diagnostic import Label

        spans = []
        for label, rows in self.groups():
            if label:
                sp = label_span(sources or {}, model_file, label)
                if sp is not None:
                    spans.append((sp, "`%s`%s" % (label, " (%d rows)" % len(rows) if len(rows) > 1 else "")))
                continue
            seen = set()  # unlabelled rows: at the statement that made each (once per statement)
            for r in rows:
                if r.span is not None and (r.span.line, r.span.column) not in seen:
                    seen.add((r.span.line, r.span.column))
                    spans.append((r.span, "`%s`" % r.expression))
        notes = tuple("the bound `%s` takes part" % b.text for b in self.bounds[:10])
        notes += ("found by %s%s" % (self.method, self._caveat()),)
        return solver_diagnostic(
            "infeasible-conflict", self.summary(), span=spans[0][0] if spans else None,
            labels=tuple(Label(sp, msg + " is part of the conflict") for sp, msg in spans[1:]), notes=notes,
            help="relax one of them (or correct the data that feeds them): dropping any one makes the rest feasible",
            options=_Where(model_file))


@dataclass
class _Where:
    model_file: str


def _json_part(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_json_part(x) for x in v]
    return v


def label_span(sources: dict[str, str], model_file: str, label: str):
    """Where constraint ``label`` is written in the model (``label:`` or ``label[i]:``), or None."""
    from ...diagnostics.diagnostic import Span

    text = sources.get(model_file)
    if text is None:
        return None
    pat = re.compile(r"(?<![\w.])%s\s*(\[[^\]\n]*\])?\s*:(?!:)" % re.escape(label))
    for no, line in enumerate(text.split("\n"), 1):  # lines as diagnostics count them
        code = line.split("//", 1)[0]
        m = pat.search(code)
        if m:
            return Span(model_file, no, m.start() + 1, no, m.start() + 1 + len(label))
    return None


# ---------------------------------------------------------------------------------------------
# finding the conflict


#: The share of the solve's time limit the infeasibility explanation may use (issue 34, item 5).
EXPLAIN_SHARE = 0.25
#: Without a time limit the explanation may use as long as the solve took, at least EXPLAIN_MIN_S
#: and at most EXPLAIN_MAX_S seconds.
EXPLAIN_MIN_S = 10.0
EXPLAIN_MAX_S = 60.0


def explain_budget(time_limit: float | None, solve_time: float | None, override: float | None = None) -> float:
    """Seconds the infeasibility explanation may take after a solve that found the model infeasible.

    ``override`` (the caller's ``explain_time_limit``) wins when given; else ``EXPLAIN_SHARE`` (a quarter)
    of ``time_limit`` when the solve had one; else ``solve_time`` clamped to
    [``EXPLAIN_MIN_S``, ``EXPLAIN_MAX_S``] (10 s to 60 s).  Never negative."""
    if override is not None:
        return max(0.0, float(override))
    if time_limit is not None and np.isfinite(time_limit):
        return max(0.0, EXPLAIN_SHARE * float(time_limit))
    return min(EXPLAIN_MAX_S, max(EXPLAIN_MIN_S, float(solve_time or 0.0)))


class _Clock:
    """The explanation's deadline; ``left()`` is the time it has still (seconds, >= 0)."""

    def __init__(self, budget: float):
        self.start = time.monotonic()
        self.deadline = self.start + budget

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def over(self) -> bool:
        return time.monotonic() >= self.deadline


def explain_infeasible(ir: IR, solver: str = "highs", options: Any = None, time_limit: float = 60.0) -> Conflict | None:
    """An irreducible infeasible subset of ``ir`` as a :class:`Conflict`, or None when none is found
    (e.g. the model turns out feasible within tolerances).

    Gurobi's ``computeIIS`` when ``solver == "gurobi"`` and it can take the model, CPLEX's conflict refiner
    when ``solver == "cplex"`` (within the Community Edition's limits); HiGHS's ``getIis`` for an
    LP; otherwise the elastic + deletion filter, solved with HiGHS.  All of it shares ``time_limit``
    seconds (each solver call gets what is left); when they run out the result is ``partial`` (an
    infeasible set that may not be minimal, or none found yet), never a longer wait."""
    from ..common import SolveOptions

    options = options or SolveOptions()
    clock = _Clock(time_limit)

    def budgeted() -> Any:
        return dataclasses.replace(options, time_limit=max(clock.left(), 1e-3))

    found, method = None, ""
    if solver == "cpsat" and (ir.cp_constraints or getattr(ir, "indicators", None) or ir.intervals):
        from ..cp.conflict import refine_conflict

        refined = refine_conflict(ir, max(clock.left(), 1e-3))  # global constraints take part (CP-SAT)
        if refined is not None:
            rows, others, irreducible, partial = refined
            c = conflict_of(ir, rows, [], "pyopl's CP conflict refiner (CP-SAT assumptions, deletion filter)",
                          irreducible and not partial)
            c.rows += [ConflictRow(-1, label, key, text, "both", what, span) for label, key, text, what, span in others]
            c.partial, c.budget_s, c.elapsed_s = partial, float(time_limit), time.monotonic() - clock.start
            return c
    if solver == "gurobi":
        from ..mp.gurobi import compute_iis

        found, method = compute_iis(ir, budgeted()), "Gurobi's IIS (computeIIS)"
    elif solver == "cplex":
        from ..mp.cplex import compute_iis as cplex_iis

        found, method = cplex_iis(ir, budgeted()), "CPLEX's conflict refiner"
    if found is None and not clock.over():
        from ..mp.highs import compute_iis as highs_iis

        lp, of = ir, ""
        if ir.is_mip:
            # A subset whose linear relaxation is infeasible is infeasible with integrality too, and
            # HiGHS finds it fast; only when the relaxation is feasible must the filter solve MIPs.
            relaxed = dataclasses.replace(ir, col_integer=np.zeros(ir.num_cols, dtype=bool))
            lp = relaxed if _sub_feasible(relaxed, np.arange(ir.num_rows), ir.col_lower, ir.col_upper,
                                          clock=clock) is False else None
            of = " of the linear relaxation"
        got = highs_iis(lp, budgeted()) if lp is not None else None
        if got is not None and got[2]:
            found, method = (got[0], got[1]), "HiGHS's IIS (getIis)" + of
        elif got is not None:  # HiGHS's first set, too large for its own (unbounded) deletion pass
            refined = _refine_within(lp, got[0], got[1], clock)
            if refined is not None:
                (rows, cols), irreducible, partial = refined
                c = conflict_of(ir, rows, cols, "HiGHS's IIS (getIis%s) and pyopl's deletion filter" % of,
                                irreducible and not partial)
                c.partial, c.budget_s, c.elapsed_s = partial, float(time_limit), time.monotonic() - clock.start
                return c
    irreducible, partial = True, False
    if found is None:
        found, irreducible, partial = elastic_filter(ir, clock=clock)
        method = "pyopl's elastic and deletion filter"
    if found is None and not partial:
        return None
    rows, cols = found if found is not None else ([], [])
    c = conflict_of(ir, rows, cols, method, irreducible and not partial)
    c.partial, c.budget_s, c.elapsed_s = partial, float(time_limit), time.monotonic() - clock.start
    return c


def _refine_within(ir: IR, rows: list[tuple[int, str]], bounds: list[tuple[int, str]], clock: _Clock):
    """The deletion filter (:func:`deletion_filter`) over an infeasible set a solver found (``rows``,
    ``bounds``), within ``clock``: the other columns' bounds are dropped first, as the set leaves them
    out; should the set not be infeasible that way, the filter starts again from all of the model's
    bounds.  None when neither is shown infeasible."""
    idx = np.array([i for i, _ in rows], dtype=np.int64)
    lower, upper = np.full(ir.num_cols, -np.inf), np.full(ir.num_cols, np.inf)
    for j, side in bounds:
        if side in ("lower", "both"):
            lower[j] = ir.col_lower[j]
        if side in ("upper", "both"):
            upper[j] = ir.col_upper[j]
    got = deletion_filter(ir, idx, lower, upper, clock, False, bounds)
    if got[0] is None and not got[2]:
        got = deletion_filter(ir, idx, ir.col_lower.copy(), ir.col_upper.copy(), clock, False)
    if got[0] is None and got[2]:  # no time left to check it: the solver's own set, as it is (partial)
        return (rows, bounds), False, True
    return got if got[0] is not None else None


def conflict_of(ir: IR, rows: list[tuple[int, str]], cols: list[tuple[int, str]], method: str, irreducible: bool) -> Conflict:
    """The :class:`Conflict` naming ``rows`` (row, side) and ``cols`` (column, side) of ``ir``, found by ``method``."""
    c = Conflict(method=method, irreducible=irreducible)
    for i, side in rows:
        raw = ir.row_label[i]
        label = raw.split("#", 1)[0]
        text = opl_label(label, ir.row_key[i]) if label else "row %d" % i
        c.rows.append(ConflictRow(i, label, tuple(ir.row_key[i]), text, side, row_expression(ir, i, side),
                                  ir.row_span(i)))
    for j, side in cols:
        var = column_text(ir, j)
        c.bounds.append(ConflictBound(j, ir.col_name[j], tuple(ir.col_key[j]), var, side, _bound_text(ir, j, var, side)))
    return c


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else "%.10g" % v


def _bound_text(ir: IR, j: int, var: str, side: str) -> str:
    lo, up = ir.col_lower[j], ir.col_upper[j]
    if side == "both" or (np.isfinite(lo) and lo == up):
        return "%s == %s" % (var, _num(lo)) if lo == up else "%s <= %s <= %s" % (_num(lo), var, _num(up))
    return "%s >= %s" % (var, _num(lo)) if side == "lower" else "%s <= %s" % (var, _num(up))


def column_text(ir: IR, j: int, limit: int = 60) -> str:
    """Column ``j``'s name in an explanation: ``x[1]``, or for a helper column of a logical
    constraint the condition it stands for, ``#[x[1] >= 5]`` (its name ``#logic`` is shared by all)."""
    note = ir.col_notes.get(j)
    if not note:
        return ir.column_label(j)
    return "#[%s]" % (note if len(note) <= limit else note[:limit - 3] + "...")


def row_expression(ir: IR, i: int, side: str = "both", max_terms: int = 8) -> str:
    """Row ``i`` written with OPL variable names: ``make[1] + make[2] + make[3] >= 45``."""
    start, end = ir.A.indptr[i], ir.A.indptr[i + 1]
    terms = []
    for j, a in zip(ir.A.indices[start:end], ir.A.data[start:end]):
        name = column_text(ir, int(j))
        coef = "" if abs(a) == 1 else _num(abs(a)) + " * "
        terms.append(("- " if a < 0 else "+ ") + coef + name)
    if len(terms) > max_terms:
        terms = terms[:max_terms] + ["+ ... (%d terms)" % (end - start)]
    lhs = " ".join(terms).lstrip("+ ") if terms else "0"
    if lhs.startswith("- "):
        lhs = "-" + lhs[2:]
    lo, up = ir.row_lower[i], ir.row_upper[i]
    if np.isfinite(lo) and lo == up:
        return "%s == %s" % (lhs, _num(lo))
    if side == "lower" or (side == "both" and not np.isfinite(up)):
        return "%s >= %s" % (lhs, _num(lo))
    if side == "upper" or not np.isfinite(lo):
        return "%s <= %s" % (lhs, _num(up))
    return "%s <= %s <= %s" % (_num(lo), lhs, _num(up))


#: What the elastic solve returns when its hard rows already conflict.
INFEASIBLE = "infeasible"


def _sub_feasible(ir: IR, rows: np.ndarray, lower: np.ndarray, upper: np.ndarray, elastic: np.ndarray | None = None,
                  clock: _Clock | None = None, split: bool = False, weights: np.ndarray | None = None):
    """Solve the rows ``rows`` of ``ir`` with column bounds ``lower``/``upper``.

    Without ``elastic``: returns True (feasible), False (infeasible) or None (undecided).
    With ``elastic`` (a mask over ``rows``): those rows get two non-negative violation
    columns each and the total violation is minimised; returns the violation per row
    (with ``split``, a pair: how far below its lower bound and how far above its upper bound
    each row goes; ``weights``, one per row of ``rows``, prices each row's violation, 1 by default),
    :data:`INFEASIBLE` when the rows kept hard cannot hold with the bounds, or
    None when the solve decides nothing (a time limit before any solution, or no time left on
    ``clock``)."""
    if clock is not None and clock.over():
        return None
    import highspy
    import scipy.sparse as sp

    from ..common import SolveOptions, quiet_stdout
    from ..mp.highs import _new_solver

    A = ir.A.tocsr()[rows]
    rl, ru = ir.row_lower[rows], ir.row_upper[rows]
    n = ir.num_cols
    integ = ir.col_integer.astype(np.int32)
    c = np.zeros(n)
    lo, up = lower, upper
    if elastic is not None and elastic.any():
        e = np.flatnonzero(elastic)
        k = len(e)
        P = sp.csr_array((np.ones(k), (e, np.arange(k))), shape=(len(rows), k))
        A = sp.hstack([A, P, -P], format="csr")
        w = np.ones(k) if weights is None else np.asarray(weights, dtype=float)[e]
        c = np.concatenate([c, w, w])
        lo = np.concatenate([lo, np.zeros(2 * k)])
        up = np.concatenate([up, np.full(2 * k, np.inf)])
        integ = np.concatenate([integ, np.zeros(2 * k, dtype=np.int32)])
    A = A.tocsc()
    A.sort_indices()
    h = _new_solver(SolveOptions(time_limit=min(30.0, max(clock.left(), 1e-3)) if clock is not None else 30.0))
    with quiet_stdout():
        h.passModel(A.shape[1], A.shape[0], int(A.nnz), int(highspy.MatrixFormat.kColwise), 1, 0.0,
                    np.ascontiguousarray(c, dtype=np.float64), np.ascontiguousarray(lo, dtype=np.float64),
                    np.ascontiguousarray(up, dtype=np.float64), np.ascontiguousarray(rl, dtype=np.float64),
                    np.ascontiguousarray(ru, dtype=np.float64), A.indptr.astype(np.int32), A.indices.astype(np.int32),
                    A.data.astype(np.float64), integ)
        h.run()
    status = str(h.getModelStatus()).split(".")[-1]
    if elastic is None or not elastic.any():
        return {"kOptimal": True, "kInfeasible": False}.get(status)
    if status == "kInfeasible":
        return INFEASIBLE
    # Any solution of the elastic problem serves the filter (an optimal one keeps the set small);
    # with none (a time limit before the first solution), nothing is decided.
    if status != "kOptimal" and int(getattr(h.getInfo(), "primal_solution_status", 0)) != 2:
        return None
    x = np.asarray(h.getSolution().col_value, dtype=float)
    k = int(elastic.sum())
    below, above = np.zeros(len(rows)), np.zeros(len(rows))
    below[np.flatnonzero(elastic)] = x[n:n + k]
    above[np.flatnonzero(elastic)] = x[n + k:]
    return (below, above) if split else below + above


def min_sum_relaxation(ir: IR, elastic: np.ndarray, time_limit: float = 60.0, weights: np.ndarray | None = None):
    """CPLEX's feasOpt with its default metric (the sum of the relaxations, every preference 1) over
    the rows ``elastic`` marks: ``(below, above)``, how far each row's lower bound goes down and its
    upper bound up for a feasible model (zeros when it is feasible); :data:`INFEASIBLE` when relaxing
    those rows cannot make it feasible; None when undecided within ``time_limit`` seconds.  A MIP keeps
    its integrality (solved with HiGHS).  ``weights`` (one per row) price each row's relaxation: feasOpt
    with preferences charges ``1 / preference`` per unit."""
    rows = np.arange(ir.num_rows)
    return _sub_feasible(ir, rows, ir.col_lower, ir.col_upper, elastic=elastic, clock=_Clock(time_limit), split=True,
                         weights=weights)


def elastic_filter(ir: IR, time_limit: float = 60.0, tol: float = 1e-7, clock: _Clock | None = None):
    """Chinneck's elastic filter then deletion filter over rows and finite column bounds.

    Returns ``((rows, bounds), irreducible, partial)``, ``(rows, bounds)`` in the format of the
    backends' ``compute_iis``; ``(None, True, False)`` when the model is feasible.  Each step is one
    HiGHS solve (a MIP keeps its integrality, so this also explains infeasible MIPs), given what is
    left of ``clock`` (``time_limit`` seconds from now when not given).  When the time runs out:
    ``partial`` is True, with the infeasible set found so far (not minimal), or ``None`` when no set
    was shown infeasible yet."""
    clock = clock or _Clock(time_limit)
    m = ir.num_rows
    all_rows = np.arange(m)
    lower, upper = ir.col_lower.copy(), ir.col_upper.copy()
    shown = False  # the set `hard` was shown infeasible by a solve
    first = _sub_feasible(ir, np.zeros(0, dtype=np.int64), lower, upper, clock=clock)
    if first is None and clock.over():
        return None, False, True
    if first is False:
        hard = np.zeros(0, dtype=np.int64)  # the bounds alone conflict (e.g. lo > hi)
        shown = True
    else:
        hard_mask = np.zeros(m, dtype=bool)
        while True:
            viol = _sub_feasible(ir, all_rows, lower, upper, elastic=~hard_mask, clock=clock)
            if viol is INFEASIBLE:  # the rows kept hard are infeasible with the bounds: done
                shown = True
                break
            if viol is None:  # undecided: no conflict rather than a wrong one
                return (None, False, True) if clock.over() else (None, True, False)
            hit = (viol > tol) & ~hard_mask
            if not hit.any():
                return None, True, False  # feasible after all
            hard_mask |= hit
            if not (~hard_mask).any():
                break
        hard = np.flatnonzero(hard_mask)
    return deletion_filter(ir, hard, lower, upper, clock, shown)


def deletion_filter(ir: IR, rows: np.ndarray, lower: np.ndarray, upper: np.ndarray, clock: _Clock, shown: bool,
                    bounds: list[tuple[int, str]] | None = None):
    """Chinneck's deletion filter: drop each of ``rows`` (then each finite column bound) that the rest
    stays infeasible without; ``lower``/``upper`` are the column bounds the set is infeasible with
    (changed in place while a bound is tried).  ``bounds`` lists the ``(column, side)`` bounds to try
    (side ``lower``, ``upper`` or ``both``); None tries every finite bound of the columns the rows touch
    (of all columns when there are no rows).  ``shown``: ``rows`` with these bounds were already shown
    infeasible by a solve (else one more solve checks it first: a set not shown infeasible is never
    reported).  Returns what :func:`elastic_filter` returns; when ``clock`` runs out the rows and bounds
    not tried yet are kept (the set stays infeasible) and the result is ``partial``."""
    keep = list(rows)
    irreducible = True
    for r in list(keep):
        if clock.over():
            irreducible = False
            break
        trial = np.array([x for x in keep if x != r], dtype=np.int64)
        if _sub_feasible(ir, trial, lower, upper, clock=clock) is False:
            keep, shown = list(trial), True  # `trial` was just shown infeasible
    rows_sel = np.array(keep, dtype=np.int64)
    # Only a set shown infeasible is reported (a filter step left undecided must not make one up).
    if not shown:
        verdict = _sub_feasible(ir, rows_sel, lower, upper, clock=clock)
        if verdict is None and clock.over():
            return None, False, True
        if verdict is not False:
            return None, True, False
    rows_out = [(int(i), row_side(ir, int(i))) for i in rows_sel]
    if clock.over():
        return (rows_out, list(bounds or [])), False, True
    if bounds is None:  # every finite bound of the columns those rows touch (all columns without rows)
        cols = np.unique(ir.A.tocsr()[rows_sel].indices) if len(rows_sel) else np.arange(ir.num_cols)
        trials = [(int(j), side) for j in cols for side in ("lower", "upper")]
    else:
        trials = [(j, s) for j, side in bounds for s in (("lower", "upper") if side == "both" else (side,))]
    kept: list[tuple[int, str]] = []
    partial = False
    for j, side in trials:
        arr = lower if side == "lower" else upper
        if not np.isfinite(arr[j]):
            continue
        if clock.over():  # a bound not tried is kept: the set stays infeasible
            partial = True
            kept.append((j, side))
            continue
        saved = arr[j]
        arr[j] = -np.inf if side == "lower" else np.inf
        if _sub_feasible(ir, rows_sel, lower, upper, clock=clock) is not False:
            arr[j] = saved  # needed
            kept.append((j, side))
    return (rows_out, _merge_sides(kept)), irreducible and not partial, partial or not irreducible


def row_side(ir: IR, i: int) -> str:
    """Which bound of row ``i`` a conflict holds: ``lower``, ``upper`` or ``both`` (a ranged or equality row)."""
    lo, up = ir.row_lower[i], ir.row_upper[i]
    if np.isfinite(lo) and np.isfinite(up):
        return "both"
    return "lower" if np.isfinite(lo) else "upper"


def _merge_sides(bounds: list[tuple[int, str]]) -> list[tuple[int, str]]:
    out: dict[int, set] = {}
    for j, s in bounds:
        out.setdefault(j, set()).add(s)
    return [(j, "both" if len(s) == 2 else next(iter(s))) for j, s in out.items()]


# ---------------------------------------------------------------------------------------------
# unbounded models


def unbounded_diagnostic(ray: dict[str, float], sense: str, model_file: str = "<model>",
                         sources: dict[str, str] | None = None) -> Any:
    """The ``OPL0705`` diagnostic naming the variables along an unbounded ray (``{label: direction}``),
    pointing at the objective's ``minimize``/``maximize`` when the source is at hand."""
    from ..common import solver_diagnostic
    from ...diagnostics.diagnostic import Span

    span = None
    text = (sources or {}).get(model_file)
    if text is not None:
        for no, line in enumerate(text.split("\n"), 1):
            m = re.search(r"\b(minimize|maximize)\b", line.split("//", 1)[0])
            if m:
                span = Span(model_file, no, m.start() + 1, no, m.end() + 1)
                break

    if ray:
        names = ", ".join("`%s`" % k for k in list(ray)[:8]) + (" (and %d more)" % (len(ray) - 8) if len(ray) > 8 else "")
        msg = "the objective is unbounded: it %s without limit along a direction that moves %s" % (
            "grows" if sense == "maximize" else "decreases", names)
        notes = tuple("`%s` moves by %s" % (k, _num(v)) for k, v in list(ray.items())[:10])
    else:
        msg, notes = "the objective is unbounded", ()
    return solver_diagnostic("unbounded-ray", msg, _Where(model_file), notes=notes, span=span,
                             help="add the missing bound or constraint on these variables")


def explain_result(result: Any, ir: IR, solver: str, options: Any, sources: dict[str, str] | None = None,
                   budget: float | None = None) -> None:
    """Add the explanation of an infeasible or unbounded ``result`` in place: ``result.conflict``,
    ``result.message`` (the one-line summary) and a diagnostic (``OPL0704`` / ``OPL0705``).

    ``budget``: seconds the infeasibility explanation may take; by default :func:`explain_budget` of
    the solve's time limit and ``result.solve_time_s``."""
    model_file = getattr(options, "model_file", "<model>")
    if result.status == "infeasible" and result.conflict is None:
        if budget is None:
            budget = explain_budget(getattr(options, "time_limit", None), getattr(result, "solve_time_s", None))
        conflict = explain_infeasible(ir, solver, options, time_limit=budget)
        if conflict is not None:
            result.conflict = conflict
            result.message = conflict.summary().replace("`", "")
            result.diagnostics = list(result.diagnostics) + [conflict.diagnostic(sources, model_file)]
    elif result.status == "unbounded":
        d = unbounded_diagnostic(result.ray, ir.sense, model_file, sources)
        result.message = d.message.replace("`", "")
        result.diagnostics = list(result.diagnostics) + [d]
