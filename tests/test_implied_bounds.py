"""Implied bounds for big-M rows, recomputed incrementally: at every recomputation the bounds equal
those of the full recomputation (two rounds of the row rule over every row from the declared
bounds), written out again here as the reference, so every big-M value is the same; and, independently of
that rule, every implied bound is sound: no tighter than HiGHS's own LP minimum and maximum of the
column over the rows (random systems)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import pyopl
from pyopl.lowering.linearise import bounds as bounds_mod
from pyopl.lowering.model import instance as instance_mod
from shared_material import SHARED

INF = math.inf


def full_recomputation(inst, m: int | None = None, n: int | None = None) -> tuple[list, list]:
    """The rule of pyopl.lowering.linearise.bounds over every row (the first ``m``; columns: the first ``n``),
    from the declared bounds, as it was before it was made incremental (Achterberg 2007, section 7.1: two
    Gauss-Seidel rounds)."""
    m = len(inst.rows) if m is None else m
    n = len(inst.cols.lower) if n is None else n
    lo, hi = list(inst.cols.lower)[:n], list(inst.cols.upper)[:n]
    vals, cols, starts, lower, upper = (a.tolist() for a in inst.rows.arrays())
    for i in inst.assumed_rows:  # a big-M row resting on an assumed bound implies nothing (bounds.py)
        if i < m:
            lower[i], upper[i] = -INF, INF
    for _round in range(2):
        changed = False
        for i in range(m):
            a, b = starts[i], starts[i + 1]
            if b == a:
                continue
            rcols, rvals = cols[a:b], vals[a:b]
            mins = [c * (lo[j] if c > 0 else hi[j]) for j, c in zip(rcols, rvals)]
            maxs = [c * (hi[j] if c > 0 else lo[j]) for j, c in zip(rcols, rvals)]
            nmin_inf = sum(1 for v in mins if v == -INF or math.isnan(v))
            nmax_inf = sum(1 for v in maxs if v == INF or math.isnan(v))
            smin = sum(v for v in mins if math.isfinite(v))
            smax = sum(v for v in maxs if math.isfinite(v))
            for k, (j, c) in enumerate(zip(rcols, rvals)):
                if c == 0:
                    continue
                rest_min = -INF if nmin_inf - (0 if math.isfinite(mins[k]) else 1) > 0 else \
                    smin - (mins[k] if math.isfinite(mins[k]) else 0.0)
                rest_max = INF if nmax_inf - (0 if math.isfinite(maxs[k]) else 1) > 0 else \
                    smax - (maxs[k] if math.isfinite(maxs[k]) else 0.0)
                t_hi = upper[i] - rest_min if upper[i] < INF and rest_min > -INF else INF
                t_lo = lower[i] - rest_max if lower[i] > -INF and rest_max < INF else -INF
                new_lo, new_hi = (t_lo / c, t_hi / c) if c > 0 else (t_hi / c, t_lo / c)
                if new_hi < hi[j] - 1e-9 and math.isfinite(new_hi):
                    hi[j] = new_hi
                    changed = True
                if new_lo > lo[j] + 1e-9 and math.isfinite(new_lo):
                    lo[j] = new_lo
                    changed = True
        if not changed:
            break
    return lo, hi


@pytest.fixture
def checked(monkeypatch):
    """Every recomputation compared with the full one; counts (recomputations, incremental ones,
    incremental ones that had to pass every row again)."""
    counts = {"all": 0, "incremental": 0, "old_moved": 0}
    real_schedule, real_compute = bounds_mod.ImpliedBounds.schedule, bounds_mod.ImpliedBounds._compute
    real_round = bounds_mod.ImpliedBounds._round
    current = []

    def schedule(self, inst):
        current[:] = [inst]
        real_schedule(self, inst)

    def compute(self, inst, m, n, lo_new, hi_new):  # made at once, or when due and a read needs it
        incremental = self._state is not None
        real_compute(self, inst, m, n, lo_new, hi_new)
        counts["all"] += 1
        counts["incremental"] += incremental
        lo, hi = full_recomputation(current[0], m, n)
        assert self.lower == lo and self.upper == hi

    def round_(self, first, stop, lo, hi, watch):
        changed, moved = real_round(self, first, stop, lo, hi, watch)
        counts["old_moved"] += moved
        return changed, moved

    monkeypatch.setattr(bounds_mod.ImpliedBounds, "schedule", schedule)
    monkeypatch.setattr(bounds_mod.ImpliedBounds, "_compute", compute)
    monkeypatch.setattr(bounds_mod.ImpliedBounds, "_round", round_)
    return counts


# x[i] is bounded only by rows (float+ and a capacity row), so each logical constraint's big-M
# uses implied bounds; each implication adds a column, so the bounds are recomputed each time.
# Rows added between the implications tighten old columns again (the path that passes every row).
GENERATED = """
int n = 60;
range I = 1..n;
float cap[i in I] = 5 + (i mod 7);
dvar float+ x[I];
dvar float y[I];
dvar boolean z[I];
minimize sum(i in I) (x[i] - y[i] + z[i]);
subject to {
  forall(i in I) ctCap: x[i] <= cap[i];
  forall(i in I) ctY: y[i] - x[i] <= 2;
  forall(i in I) ctY2: -y[i] - x[i] <= 1;
  forall(i in I : i <= 30) (x[i] >= 3) => (z[i] == 1);
  forall(i in I : i > 1) ctPair: x[i] + x[i - 1] <= cap[i] - 1;
  forall(i in I : i > 30) (z[i] == 0) => (x[i] + y[i] <= 4);
  forall(i in I : i mod 5 == 0) ctTight: 2 * x[i] <= 3;
  forall(i in I : i mod 3 == 0) (x[i] <= 1) || (y[i] >= 2);
}
"""


def _ir_with(monkeypatch, text, refresh, **kw):
    with monkeypatch.context() as mp:
        if refresh is not None:  # and each read recomputes where one is due, at once (the schedule before issue 46)
            mp.setattr(bounds_mod.ImpliedBounds, "refresh", refresh)
            mp.setattr(bounds_mod.ImpliedBounds, "bounds_of", _eager_bounds_of)
        return pyopl.compile_model(text, **kw).ir


def _eager_bounds_of(self, inst, j):
    self.refresh(inst)
    return (self.lower[j], self.upper[j]) if j < len(self.lower) else None


def _reference_refresh(self, inst):
    """The refresh schedule as it is, with the full recomputation each time."""
    m, n = len(inst.rows), len(inst.cols.lower)
    if self._rows_seen >= 0 and n == self._cols_seen and m - self._rows_seen <= max(50, self._rows_seen // 5):
        return
    self._rows_seen, self._cols_seen = m, n
    self.lower, self.upper = full_recomputation(inst)


def _same_ir(a, b):
    return (a.A.shape == b.A.shape and np.array_equal(a.A.indptr, b.A.indptr)
            and np.array_equal(a.A.indices, b.A.indices) and np.array_equal(a.A.data, b.A.data)
            and np.array_equal(a.row_lower, b.row_lower) and np.array_equal(a.row_upper, b.row_upper)
            and np.array_equal(a.col_lower, b.col_lower) and np.array_equal(a.col_upper, b.col_upper))


def test_generated_model_bounds_equal_the_full_recomputation(checked, monkeypatch):
    ir = pyopl.compile_model(GENERATED, source="text").ir
    assert checked["all"] >= 50 and checked["incremental"] >= 40  # one per implication, most incremental
    assert checked["old_moved"] >= 1  # the rows between implications moved old columns: that path ran too
    monkeypatch.undo()
    ref = _ir_with(monkeypatch, GENERATED, _reference_refresh, source="text")
    assert _same_ir(ir, ref)
    # and the big-M values are the implied ones: x[1] <= cap[1] = 6, so `x[1] >= 3 => z[1] == 1`
    # has a coefficient of (6 - 3) on its indicator somewhere in the matrix (not the assumed 1e6)
    assert np.any(np.isclose(np.abs(ir.A.data), 3.0)) and not np.any(np.abs(ir.A.data) >= 1e5)


# the corpus models whose big-M rows use implied bounds (each recomputes them 2 to 24 times)
CORPUS = ["afp-zoo-ifthen", "afp-zoo-semiinteger", "ammm-malcon-project", "ibm-sailcopw", "jaan-facility-location"]


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_models_with_logical_constraints(name, checked, monkeypatch):
    base = SHARED / "opl-corpus" / name
    if not (base / "model.mod").exists():
        pytest.skip("../shared/opl-corpus is not present here")
    data = base / "model.dat"
    ir = pyopl.compile_model(base / "model.mod", data=data if data.exists() else None).ir
    assert checked["all"] >= 2 and checked["incremental"] >= 1
    monkeypatch.undo()
    ref = _ir_with(monkeypatch, base / "model.mod", _reference_refresh, data=data if data.exists() else None)
    assert _same_ir(ir, ref)


def test_a_script_changing_a_bound_starts_the_next_recomputation_afresh(checked):
    text = """
dvar float+ x[1..4];
dvar boolean z[1..4];
minimize sum(i in 1..4) (x[i] + z[i]);
subject to {
  forall(i in 1..4) ct: x[i] <= 10;
  forall(i in 1..4) (x[i] >= 2) => (z[i] == 1);
}
"""
    ir = pyopl.compile_model(text, source="text").ir
    assert checked["all"] >= 4 and checked["incremental"] >= 3
    # x <= 10 implied; z == 0 forces the negation `x < 2`, which CPLEX's rule holds as x <= 2 - eplin
    # (eplin 1e-3, docs/language.md), so the big-M is 10 - (2 - 0.001) = 8.001 (by hand)
    assert np.any(np.isclose(np.abs(ir.A.data), 8.001))


def test_invalidate_drops_the_kept_state_and_the_next_recomputation_is_full(checked, monkeypatch):
    """Bounds changed under the kept state (as a script's `x.UB = ...` does) are taken in full."""
    text = """
dvar float+ x[1..3];
dvar boolean z[1..3];
minimize sum(i in 1..3) z[i];
subject to {
  forall(i in 1..3) ct: x[i] <= 10;
  forall(i in 1..3) (x[i] >= 2) => (z[i] == 1);
}
"""
    seen = []
    real = bounds_mod.expr_bounds

    def expr_bounds(inst, e):  # the bounds of each implication's `x[i]` (its big-M)
        if len(seen) == 1:  # before the second implication: x[1]'s declared upper bound becomes 4
            inst.cols.upper.flat()[0] = 4.0
            inst.implied.invalidate()
        out = real(inst, e)
        seen.append(out)
        return out

    monkeypatch.setattr(instance_mod, "expr_bounds", expr_bounds)  # where the instance looks it up
    pyopl.compile_model(text, source="text")
    assert len(seen) >= 3 and checked["all"] >= 3  # each checked against the full recomputation
    # `x[i] - 2` lies in [-2, 8]: x[i] <= 10 is implied by its row (x[1]'s change comes after its implication)
    assert [hi for _, hi in seen[:3]] == [8.0, 8.0, 8.0]


# issue 46: each `abs` adds a column, so every big-M recomputes; the kept state is extended in place
# and only the new rows are read (the copies of every bound and every row per call made this quadratic)
ABS_MODEL = """
range T = 1..80;
dvar float+ q[T];
dvar float+ s[T];
minimize sum(t in T) (s[t] - q[t]);
subject to {
  forall(t in T) cap: q[t] + s[t] <= 10 + t mod 4;
  forall(t in T : t > 1) ab: abs(q[t] - q[t-1]) <= 4;
  forall(t in T : t > 1) sw: abs(s[t] - q[t-1]) <= 2 + t mod 3;
}
"""


def test_abs_rows_bounds_equal_the_full_recomputation(checked, monkeypatch):
    ir = pyopl.compile_model(ABS_MODEL, source="text").ir
    assert checked["all"] >= 100 and checked["incremental"] >= 100
    monkeypatch.undo()
    assert _same_ir(ir, _ir_with(monkeypatch, ABS_MODEL, _reference_refresh, source="text"))


def test_the_rows_tail_is_the_joined_arrays_from_that_row():
    from pyopl.lowering.model.instance import Rows

    rows = Rows()
    rows.add({0: 1.0, 2: 2.0}, 0.0, 1.0, "", ())
    rows.add_block(np.array([0, 1, 3]), np.array([1, 0, 2]), np.array([3.0, 4.0, 5.0]), np.zeros(2), np.ones(2), "", [(), ()])
    rows.add({1: 6.0}, -1.0, 2.0, "", ())
    rows.add({}, 0.0, 0.0, "", ())
    vals, cols, indptr, lower, upper = (a.copy() for a in rows.arrays())
    rows.add({3: 7.0}, 0.5, 0.5, "", ())  # (one more, unsealed, after the join)
    vals, cols = np.append(vals, 7.0), np.append(cols, 3)
    indptr, lower, upper = np.append(indptr, indptr[-1] + 1), np.append(lower, 0.5), np.append(upper, 0.5)
    for first in range(6):
        t = rows.tail(first)
        assert t[0] == vals[indptr[first]:].tolist() and t[1] == cols[indptr[first]:].tolist()
        assert t[2] == np.diff(indptr)[first:].tolist()
        assert t[3] == lower[first:].tolist() and t[4] == upper[first:].tolist()


def _lp_range(A, row_lo, row_hi, col_lo, col_hi, j):
    """min and max of column j over {row_lo <= A x <= row_hi, col_lo <= x <= col_hi}, solved by HiGHS
    directly (independent of pyopl's rule); None when the polytope is empty."""
    import highspy

    out = []
    for sense in (1.0, -1.0):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        lp = highspy.HighsLp()
        m, n = A.shape
        lp.num_col_, lp.num_row_ = n, m
        cost = np.zeros(n)
        cost[j] = sense
        lp.col_cost_, lp.col_lower_, lp.col_upper_ = cost, np.array(col_lo), np.array(col_hi)
        lp.row_lower_, lp.row_upper_ = np.array(row_lo), np.array(row_hi)
        csc = [[], [], [0]]
        for c in range(n):
            for r in range(m):
                if A[r, c] != 0:
                    csc[0].append(r)
                    csc[1].append(A[r, c])
            csc[2].append(len(csc[0]))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.index_, lp.a_matrix_.value_, lp.a_matrix_.start_ = csc[0], csc[1], csc[2]
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        if status == highspy.HighsModelStatus.kUnbounded:
            out.append(-INF * sense)
        else:
            assert status == highspy.HighsModelStatus.kOptimal, status
            out.append(sense * h.getInfo().objective_function_value)
    return out[0], out[1]


def test_implied_bounds_are_sound_against_the_lp_over_the_rows():
    """An independent oracle: every implied bound must hold at every point of the rows' polytope, so
    it is no tighter than the LP's own min and max of the column (big-M values built on a bound
    tighter than that would cut feasible points). 300 random systems, integer coefficients -3..3."""
    from pyopl.lowering.model.instance import Columns, Rows

    rng = np.random.default_rng(46)
    tightened = checked_any = 0
    for _ in range(300):
        n, m = int(rng.integers(2, 5)), int(rng.integers(1, 5))
        cols = Columns()
        col_lo = [float(v) if rng.random() < 0.8 else -INF for v in rng.integers(-5, 1, n)]
        col_hi = [float(v) if rng.random() < 0.7 else INF for v in rng.integers(0, 6, n)]
        cols.lower.extend(col_lo)
        cols.upper.extend(col_hi)
        rows = Rows()
        A = rng.integers(-3, 4, (m, n)).astype(float)
        row_lo, row_hi = [], []
        for r in range(m):
            lo = float(rng.integers(-8, 1)) if rng.random() < 0.5 else -INF
            hi = float(rng.integers(0, 9)) if rng.random() < 0.7 or lo == -INF else INF
            row_lo.append(lo)
            row_hi.append(hi)
            rows.add({c: A[r, c] for c in range(n) if A[r, c] != 0}, lo, hi, "", ())

        class Inst:  # what ImpliedBounds reads of an instance
            pass

        inst = Inst()
        inst.rows, inst.cols, inst.assumed_rows = rows, cols, ()
        implied = bounds_mod.ImpliedBounds()
        implied.refresh(inst)
        for j in range(n):
            rng_j = _lp_range(A, row_lo, row_hi, col_lo, col_hi, j)
            if rng_j is None:
                break  # an empty polytope: every bound holds
            checked_any += 1
            assert implied.lower[j] <= rng_j[0] + 1e-7 and implied.upper[j] >= rng_j[1] - 1e-7, (A, j, rng_j)
            tightened += implied.lower[j] > col_lo[j] or implied.upper[j] < col_hi[j]
    assert checked_any >= 300 and tightened >= 50  # the rule did tighten, and soundly


# issue 46: a recomputation due (a helper column added) waits until a read needs a column some row names;
# `x[i]` of the first family is named by no row when its implication is made, so none is made for it
DEFERRED = """
range I = 1..40;
dvar float+ x[I]; dvar float+ y[I]; dvar boolean on[I];
minimize sum(i in I) (x[i] + y[i]);
subject to {
  forall(i in I) (on[i] == 1) => (x[i] >= 5);
  forall(i in I : i mod 3 == 0) c: x[i] + y[i] <= 10 + i;
  forall(i in I) (x[i] >= 2) => (y[i] <= 3);
  forall(i in I : i mod 4 == 0) d: 2 * y[i] - x[i] <= 6;
  forall(i in I) (on[i] == 0) => (y[i] >= 1 - x[i]);
  forall(i in I) (x[i] <= 1) || (y[i] >= 2);
}
"""


def test_a_due_recomputation_waits_for_a_read_that_needs_it(checked, monkeypatch):
    due = []
    real = bounds_mod.ImpliedBounds.schedule

    def schedule(self, inst):
        seen = (self._rows_seen, self._cols_seen)
        real(self, inst)
        due.append((self._rows_seen, self._cols_seen) != seen)

    monkeypatch.setattr(bounds_mod.ImpliedBounds, "schedule", schedule)
    ir = pyopl.compile_model(DEFERRED, source="text").ir
    assert sum(due) >= 150 and 40 <= checked["all"] <= sum(due) - 40  # the first family's 40 not made
    monkeypatch.undo()
    ref = _ir_with(monkeypatch, DEFERRED, _reference_refresh, source="text")
    assert _same_ir(ir, ref) and np.array_equal(ir.obj, ref.obj)
    assert np.any(ir.A.data == 10.0)  # y[3] <= 13 implied by c[3] (x[3] >= 0): `y[3] <= 3` gets M = 13 - 3
