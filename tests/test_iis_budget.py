"""The infeasibility explanation has its own time budget (issue 34, item 5): HiGHS proved some
models infeasible in seconds and the explanation then ran for minutes.  Every step now shares the
budget, and when it runs out the explanation is `partial` instead of late."""
from __future__ import annotations

import time

import pytest

import pyopl
import pyopl.backends.explain.iis as iis


def parity_model(n: int) -> str:
    # each row alone is infeasible (2*(x - y) is even, never 1) while the LP relaxation is feasible,
    # so HiGHS's LP IIS cannot help and the elastic filter solves one MIP per step: slow by design
    return ("range I = 1..%d;\ndvar int x[I] in 0..10;\ndvar int y[I] in 0..10;\nminimize sum(i in I) x[i];\n"
            "subject to {\n  forall(i in I) odd: 2*x[i] - 2*y[i] == 1;\n}\n" % n)


@pytest.mark.parametrize("limit, solve_time, override, want", [
    (None, 0.4, None, 10.0),     # no time limit: at least 10 s
    (None, 22.0, None, 22.0),    # ... as long as the solve took
    (None, 500.0, None, 60.0),   # ... at most 60 s
    (40.0, 3.0, None, 10.0),     # a quarter of the time limit
    (40.0, 3.0, 2.5, 2.5),       # the caller's own budget wins
])
def test_the_budget_rule(limit, solve_time, override, want):
    assert iis.explain_budget(limit, solve_time, override) == want


def test_a_slow_explanation_stops_at_its_budget_and_says_it_is_partial(monkeypatch):
    class Clock(iis._Clock):
        """The 0.3 s budget, or over after two questions, whichever comes first: the verdict may not
        depend on how fast this machine is (on a quiet one the 200 rows are explained in 0.25 s)."""
        asked = 0

        def over(self):
            Clock.asked += 1
            return Clock.asked > 2 or super().over()

    monkeypatch.setattr(iis, "_Clock", Clock)
    m = pyopl.compile_model(parity_model(200))
    start = time.monotonic()
    r = m.solve(explain_time_limit=0.3)
    took = time.monotonic() - start
    assert r.status == "infeasible"
    c = r.conflict
    assert c.partial and not c.irreducible and c.budget_s == 0.3
    assert c.elapsed_s < 0.3 + 3.0, c.elapsed_s  # one uninterruptible step may run past it, not minutes
    assert took < r.solve_time_s + c.elapsed_s + 3.0
    d = c.to_dict()
    assert d["partial"] is True and d["budget_s"] == 0.3
    assert "0.3 s budget" in r.message


def test_with_time_enough_the_same_model_gets_its_irreducible_conflict():
    r = pyopl.compile_model(parity_model(40)).solve(explain_time_limit=120)
    c = r.conflict
    assert not c.partial and c.irreducible and c.budget_s == 120
    assert len(c.rows) == 1 and c.rows[0].label == "odd"  # by hand: any one row is an IIS


def test_a_budget_ending_in_the_deletion_filter_reports_the_infeasible_set_so_far(monkeypatch):
    class Clock(iis._Clock):
        """Over after a fixed number of questions: the elastic phase ends, the deletion filter does not."""
        asked = 0

        def over(self):
            Clock.asked += 1
            return Clock.asked > 8

    monkeypatch.setattr(iis, "_Clock", Clock)
    r = pyopl.compile_model(parity_model(12)).solve()
    c = r.conflict
    assert c.partial and not c.irreducible
    # the set kept is still infeasible (any non-empty set of `odd` rows is), but not minimal
    assert len(c.rows) > 1 and {x.label for x in c.rows} == {"odd"}
    assert "partial" in c.text() and "may not be minimal" in c.text()
