"""Bounds of decision expressions for big-M linearisations.

A big-M row needs finite bounds on the variables it involves.  They come,
in order, from: the declaration (type and ``in lo..hi`` domain); bounds the
model's linear rows imply (feasibility-based bound tightening, two rounds
over the rows built so far: for a row ``lo <= sum_k a_k x_k <= hi``,
``a_j x_j`` lies in ``[lo - max(rest), hi - min(rest)]``; Achterberg,
*Constraint Integer Programming*, 2007, section 7.1); and, for a variable
bounded on one side only (``int+``, ``float+``), an assumed bound of
``ASSUMED_BOUND`` on the other side, reported as a warning.  A variable
free on both sides stays an error: nothing suggests a scale for it.
"""
from __future__ import annotations

import math
from typing import Any

from ...diagnostics.diagnostic import Span
from ...ir import opl_label
from ..forms.errors import EvalError
from ..forms.linear import LinExpr

INF = math.inf
ASSUMED_BOUND = 1.0e6  # the far side assumed for a variable bounded on one side only


class ImpliedBounds:
    """Per-column bounds implied by the rows, recomputed when the rows have grown enough or
    a column was added.

    Each recomputation gives what two Gauss-Seidel rounds of the row rule over every row, from the
    declared bounds, give (:meth:`full`), but reuses the last one's work: rows and columns are
    only ever appended, and a row names only columns older than itself, so the first round over
    the rows seen last time ends where it ended then (the state is kept) and continues over
    the new rows only.  When that continuation moves no bound of an old column, the second
    round over the old rows sees the start it saw last time and ends where the last
    recomputation ended (or, when the first round moved nothing there, changes nothing): only
    the new rows are passed again.  Otherwise the second round runs over every row, as before.
    A script that changes a declared bound (``x.UB = 5``) calls :meth:`invalidate`.
    """

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self._rows_seen = -1
        self._cols_seen = -1
        self._state: tuple | None = None  # (rows, cols, lo after round 1, hi after round 1, round 1 changed)
        self._rows: tuple[list, list, list, list, list] = ([], [], [0], [], [])  # vals, cols, starts, lower, upper
        self._pending: tuple | None = None  # (rows, cols, new columns' lower, upper): a recomputation due
        self._named: set = set()  # the columns the rows taken so far name

    def invalidate(self) -> None:
        """A declared bound changed: the next recomputation starts again from the declared bounds
        (when it happens is unchanged). A recomputation due but not made yet is made first, from the
        bounds it captured."""
        self.settle()
        self._state = None

    def refresh(self, inst: Any) -> None:
        """Recompute now where one is due (:meth:`schedule`, then :meth:`settle`)."""
        self.schedule(inst)
        self.settle()

    def bounds_of(self, inst: Any, j: int) -> tuple[float, float] | None:
        """Column ``j``'s implied (lower, upper) as :meth:`refresh` then ``lower[j]``/``upper[j]`` give them,
        None where ``j`` is newer than the last recomputation. A due recomputation is only made when ``j``
        is named by one of the rows it covers: the row rule moves only the bounds of a row's own columns,
        so an unnamed column's bounds are those captured (its declared ones), whenever it is made; and a
        recomputation gives the same bounds however many came before it (see the class), so the due one
        may wait for the next read that needs it (50,000 logical constraints on columns no row named yet:
        one recomputation per helper column otherwise)."""
        self.schedule(inst)
        pend = self._pending
        if pend is not None and j not in self._named:
            n0 = len(self.lower)
            if j < n0:
                return self.lower[j], self.upper[j]
            if j < pend[1]:
                return pend[2][j - n0], pend[3][j - n0]
            return None
        self.settle()
        return (self.lower[j], self.upper[j]) if j < len(self.lower) else None

    def schedule(self, inst: Any) -> None:
        """Where a recomputation is due (a column was added, or the rows grew by a fifth): take the new rows
        (as they stand now: a row read as free is so from now), and capture the new columns' declared
        bounds; the first recomputation, and the first after :meth:`invalidate`, is made at once (it reads
        every declared bound), a later one is left to :meth:`settle`."""
        m, n = len(inst.rows), len(inst.cols.lower)
        if self._rows_seen >= 0 and n == self._cols_seen and m - self._rows_seen <= max(50, self._rows_seen // 5):
            return
        self._rows_seen, self._cols_seen = m, n
        self._take_rows(inst, m)
        if self._state is None:
            self._compute(inst, m, n, None, None)
            return
        pend = self._pending
        n_had = self._state[1] if pend is None else pend[1]
        lo_new, hi_new = ([], []) if pend is None else (pend[2], pend[3])
        lo_new.extend(inst.cols.lower.flat()[n_had:n])
        hi_new.extend(inst.cols.upper.flat()[n_had:n])
        self._pending = (m, n, lo_new, hi_new)

    def settle(self) -> None:
        """Make the recomputation :meth:`schedule` left due, if any."""
        pend = self._pending
        if pend is not None:
            self._pending = None
            self._compute(None, pend[0], pend[1], pend[2], pend[3])

    def _compute(self, inst: Any, m: int, n: int, lo_new: list | None, hi_new: list | None) -> None:
        """The recomputation over rows ``0 .. m-1`` and columns ``0 .. n-1``: from the declared bounds
        (``inst``'s, where there is no kept state), or continuing the kept state with the new columns'
        captured bounds ``lo_new``/``hi_new``."""
        state = self._state
        if state is None:
            lo, hi = list(inst.cols.lower)[:n], list(inst.cols.upper)[:n]
            changed1, _ = self._round(0, m, lo, hi, 0)
            lo1, hi1 = lo[:], hi[:]
            if changed1:
                self._round(0, m, lo, hi, 0)
        else:  # (the state's lists are extended in place: nothing of the size of the model copied per call)
            m0, n0, lo1, hi1, changed1_old = state
            lo1.extend(lo_new)  # round 1 as it stood after the old rows
            hi1.extend(hi_new)
            changed_new, moved_old = self._round(m0, m, lo1, hi1, n0)
            changed1 = changed1_old or changed_new
            lo, hi = lo1, hi1  # (no second round: the same lists)
            if changed1:
                if moved_old:
                    lo, hi = lo1[:], hi1[:]
                    self._round(0, m, lo, hi, 0)
                else:  # round 2 over the old rows ends where the last recomputation ended
                    if self.lower is lo1:  # (the last call had no second round: its result is round 1's)
                        self.lower, self.upper = self.lower[:n0], self.upper[:n0]
                    lo, hi = self.lower, self.upper
                    del lo[n0:], hi[n0:]
                    lo.extend(lo1[n0:n])
                    hi.extend(hi1[n0:n])
                    self._round(m0, m, lo, hi, 0)
        self._state = (m, n, lo1, hi1, changed1)
        self.lower, self.upper = lo, hi

    def _take_rows(self, inst: Any, m: int) -> None:
        """Append the rows added since the last call to the Python lists the rounds read."""
        vals, cols, starts, lower, upper = self._rows
        m_had = len(lower)
        if m == m_had:
            return
        t_vals, t_cols, t_counts, t_lower, t_upper = inst.rows.tail(m_had)
        vals.extend(t_vals)
        cols.extend(t_cols)
        self._named.update(t_cols.tolist() if hasattr(t_cols, "tolist") else t_cols)
        at = starts[-1]
        for c in t_counts[:m - m_had]:
            at += c
            starts.append(at)
        lower.extend(t_lower[:m - m_had])
        upper.extend(t_upper[:m - m_had])
        for i in getattr(inst, "assumed_rows", ()):  # a big-M row from an assumed bound implies only that bound:
            if m_had <= i < m:  # read it as free, so the next big-M on the column assumes (and says so) too
                lower[i], upper[i] = -INF, INF

    def _round(self, first: int, stop: int, lo: list, hi: list, watch: int) -> tuple[bool, bool]:
        """One pass of the row rule over rows ``first .. stop-1``, tightening ``lo``/``hi`` in place.
        Returns (a bound moved, a bound of a column below ``watch`` moved)."""
        vals, cols, starts, lower, upper = self._rows
        changed = moved_old = False
        for i in range(first, stop):
            a, b = starts[i], starts[i + 1]
            if b == a:
                continue
            rcols, rvals = cols[a:b], vals[a:b]
            rlo, rhi = lower[i], upper[i]
            mins = [c * (lo[j] if c > 0 else hi[j]) for j, c in zip(rcols, rvals)]
            maxs = [c * (hi[j] if c > 0 else lo[j]) for j, c in zip(rcols, rvals)]
            nmin_inf = sum(1 for v in mins if v == -INF or math.isnan(v))
            nmax_inf = sum(1 for v in maxs if v == INF or math.isnan(v))
            smin = sum(v for v in mins if math.isfinite(v))
            smax = sum(v for v in maxs if math.isfinite(v))
            for k, (j, c) in enumerate(zip(rcols, rvals)):
                if c == 0:
                    continue
                # min and max of the rest of the row
                rest_min = -INF if nmin_inf - (0 if math.isfinite(mins[k]) else 1) > 0 else \
                    smin - (mins[k] if math.isfinite(mins[k]) else 0.0)
                rest_max = INF if nmax_inf - (0 if math.isfinite(maxs[k]) else 1) > 0 else \
                    smax - (maxs[k] if math.isfinite(maxs[k]) else 0.0)
                t_hi = rhi - rest_min if rhi < INF and rest_min > -INF else INF  # c * x_j <= t_hi
                t_lo = rlo - rest_max if rlo > -INF and rest_max < INF else -INF  # c * x_j >= t_lo
                new_lo, new_hi = (t_lo / c, t_hi / c) if c > 0 else (t_hi / c, t_lo / c)
                if new_hi < hi[j] - 1e-9 and math.isfinite(new_hi):
                    hi[j] = new_hi
                    changed = True
                    moved_old = moved_old or j < watch
                if new_lo > lo[j] + 1e-9 and math.isfinite(new_lo):
                    lo[j] = new_lo
                    changed = True
                    moved_old = moved_old or j < watch
        return changed, moved_old


def column_bounds(inst: Any, j: int) -> tuple[float, float]:
    """Declared bounds of column ``j``, tightened by the rows where they are infinite (the rows built
    so far, and, on a second lowering, every row of the model: :func:`model_implied_bounds`)."""
    lo, hi = inst.cols.lower.flat()[j], inst.cols.upper.flat()[j]
    if math.isfinite(lo) and math.isfinite(hi):
        return lo, hi
    seed = inst.seed_bounds.get(j) if inst.seed_bounds else None
    if seed is not None:
        lo, hi = max(lo, seed[0]), min(hi, seed[1])
        if math.isfinite(lo) and math.isfinite(hi):
            return lo, hi
    implied = inst.implied.bounds_of(inst, j)
    if implied is not None:
        lo, hi = max(lo, implied[0]), min(hi, implied[1])
    return lo, hi


def expr_bounds(inst: Any, e: LinExpr) -> tuple[float, float]:
    """Interval of a linear form over the columns' (declared or implied) bounds."""
    lo = hi = e.const
    for j, c in e.terms.items():
        if c == 0:
            continue
        cl, cu = column_bounds(inst, j)
        if c > 0:
            lo += c * cl
            hi += c * cu
        else:
            lo += c * cu
            hi += c * cl
    return (lo if not math.isnan(lo) else -INF, hi if not math.isnan(hi) else INF)


def finite_bounds(inst: Any, e: LinExpr, span: Span, what: str, need_lo: bool = True,
                  need_hi: bool = True) -> tuple[float, float]:
    """Finite bounds of ``e`` for a big-M row, assuming ``ASSUMED_BOUND`` on the open side of a
    variable bounded on one side (with a warning); raises ``bigm-missing-bound`` for a free variable."""
    lo = hi = e.const
    assumed, free = [], []
    for j, c in e.terms.items():
        if c == 0:
            continue
        cl, cu = column_bounds(inst, j)
        want_hi = need_hi if c > 0 else need_lo  # the column's upper bound enters this side of e
        want_lo = need_lo if c > 0 else need_hi
        if (want_hi and math.isinf(cu) or want_lo and math.isinf(cl)) and math.isinf(cl) and math.isinf(cu):
            free.append(j)
            continue
        if want_hi and math.isinf(cu):
            cu = cl + ASSUMED_BOUND if cl > 0 else ASSUMED_BOUND
            assumed.append((j, "upper", cu))
        if want_lo and math.isinf(cl):
            cl = cu - ASSUMED_BOUND if cu < 0 else -ASSUMED_BOUND
            assumed.append((j, "lower", cl))
        if c > 0:
            lo += c * cl
            hi += c * cu
        else:
            lo += c * cu
            hi += c * cl
    lo = -INF if math.isnan(lo) else lo
    hi = INF if math.isnan(hi) else hi
    if free:
        names = [opl_label(inst.cols.name[j], inst.cols.key[j]) for j in free[:5]]
        raise EvalError("bigm-missing-bound", span,
                        "%s needs bounds on %s to be linearised (big-M), but %s unbounded" % (
                            what, ", ".join("`%s`" % n for n in names), "it is" if len(names) == 1 else "they are"),
                        help="give %s a finite domain, e.g. `dvar float x in -1000..1000;`" % (
                            "it" if len(names) == 1 else "each of them"))
    if assumed:
        inst.note_assumed_bounds(assumed, span, what)
        if 0 <= inst.rows.current < len(inst.rows.spans):  # rows of this statement rest on the assumption
            inst.assumed_statements.add(id(inst.rows.spans[inst.rows.current]))
    return lo, hi


def model_implied_bounds(inst: Any, rounds: int = 8) -> dict[int, tuple[float, float]]:
    """Bounds that the model's rows imply for the columns a big-M assumed a bound for, from every row
    of the lowered model (bound propagation as a presolve does it, up to ``rounds`` passes), leaving
    out the rows that rest on an assumption (those of a statement that used one) and every row with
    a column lowering added (a linearisation's own rows): ``{column: (lower, upper)}`` for the
    columns whose assumed side is implied finite. A second lowering seeded with them
    (``Instance.seed_bounds``) gets its M from the model instead of the assumption (issue 43, class 1)."""
    import numpy as np

    m = len(inst.rows)
    if not inst._assumed or not m:
        return {}
    vals, cols, indptr, lower, upper = inst.rows.arrays()
    n = len(inst.cols.lower)
    user = np.zeros(n, dtype=bool)
    for first, keys, *_ in inst.dvar_blocks.values():
        user[first:first + len(keys)] = True
    row_of = np.repeat(np.arange(m), np.diff(indptr))
    keep = np.ones(m, dtype=bool)
    keep[row_of[~user[cols]]] = False
    stmts = inst.rows.stmt.array(np.int64)
    spans = inst.rows.spans
    tainted = [k for k, sp in enumerate(spans) if id(sp) in inst.assumed_statements]
    if tainted:
        keep &= ~np.isin(stmts, tainted)
    rows = np.flatnonzero(keep)
    if not len(rows):
        return {}
    imp = ImpliedBounds()
    starts = [0]
    v_out: list = []
    c_out: list = []
    for i in rows.tolist():
        a, b = int(indptr[i]), int(indptr[i + 1])
        v_out.extend(vals[a:b].tolist())
        c_out.extend(cols[a:b].tolist())
        starts.append(len(v_out))
    imp._rows = (v_out, c_out, starts, lower[rows].tolist(), upper[rows].tolist())
    lo, hi = list(inst.cols.lower.flat()), list(inst.cols.upper.flat())
    for _ in range(rounds):
        changed, _moved = imp._round(0, len(rows), lo, hi, 0)
        if not changed:
            break
    out = {}
    for j, side in inst._assumed:
        if (side == "upper" and math.isfinite(hi[j])) or (side == "lower" and math.isfinite(lo[j])):
            out[j] = (lo[j], hi[j])
    return out
