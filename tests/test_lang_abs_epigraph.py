"""`abs` of decisions in a convex position: an epigraph variable, no bounds and no binaries needed;
a non-convex position still needs bounds (big-M), and says so."""
from __future__ import annotations

import pytest

import pyopl


def test_minimised_sum_of_abs_with_unbounded_arguments():
    # L1 fit of one value z to the data: optimum at the median 4, sum of distances 3+0+5+6+2 = 16 (by hand)
    m = """float a[1..5] = [1, 4, 9, 10, 2];
dvar float z;
dvar float e[1..5];
minimize sum(i in 1..5) abs(e[i]);
subject to { forall(i in 1..5) e[i] == a[i] - z; }"""
    model = pyopl.compile_model(m)
    assert not model.ir.is_mip  # epigraph: no binaries
    r = model.solve()
    assert r.objective == 16 and r.variables["z"] == 4


def test_abs_on_the_small_side_of_constraints():
    # max x + y with |x - y| <= 3 and x + y <= 5 - |x|, x >= 1: 2x + y <= 5 forces x = 1, y = 3 -> 4 (by hand)
    m = "dvar float x;\ndvar float y;\nmaximize x + y;\nsubject to { abs(x - y) <= 3; x + y <= 5 - abs(x); x >= 1; }"
    assert pyopl.compile_model(m).solve().objective == 4


def test_abs_in_a_nonconvex_position_still_needs_bounds_and_says_where():
    m = "dvar float x;\nminimize x;\nsubject to {\n  abs(x) >= 2;\n}"
    [e] = pyopl.check(m).errors
    assert (e.code, e.line, e.column) == ("OPL0510", 4, 3) and "`x`" in e.message and "not minimised" in e.message


def test_abs_in_a_nonconvex_position_with_bounds_is_exact():
    # min x with |x| >= 2, x in -5..5: x = -5 (by hand); nested |(|x| - 5)| minimised over bounded x: 0
    assert pyopl.compile_model("dvar float x in -5..5;\nminimize x;\nsubject to { abs(x) >= 2; }").solve().objective == -5
    assert pyopl.compile_model("dvar float x in -9..9;\nmaximize x;\nsubject to { abs(abs(x) - 5) <= 0; }").solve().objective == 5


def test_minimised_abs_of_bounded_arguments_is_an_lp_too():
    """Before: a bounded argument (`x in -5..5`) took the big-M form, a binary per `abs`, so a
    minimised sum of distances became a MIP (no duals) although docs/language.md promises the
    epigraph in every convex position. By hand: sum of i/10 over 1..50 is 127.5 and the x must sum
    to 3, so the distances add up to at least 124.5, reached with every x[i] <= i/10 (each >= -5);
    the budget row's dual is then 1 (one more unit of the sum removes one unit of distance)."""
    m = """range R = 1..50;
dvar float x[R] in -5..5;
minimize sum(i in R) abs(x[i] - i/10);
subject to { s: sum(i in R) x[i] == 3; }"""
    model = pyopl.compile_model(m)
    assert not model.ir.is_mip
    r = model.solve()
    assert abs(r.objective - 124.5) < 1e-6 and abs(abs(r.duals["s"]) - 1) < 1e-6
    # the bound of the argument still bounds the epigraph column (|x - 0.1| <= 5.1): a CP model keeps
    # finite domains, and a non-convex use (maximised) is exact: max |x[1] - 0.1| = 5.1 at x = -5
    assert abs(pyopl.compile_model("dvar float x in -5..5;\nmaximize abs(x - 0.1);").solve().objective - 5.1) < 1e-6


def _brute(sense, objective, holds):
    """The optimum of ``objective`` over x, y in -2..3 where ``holds``, by enumeration."""
    import itertools

    values = [objective(x, y) for x, y in itertools.product(range(-2, 4), repeat=2) if holds(x, y)]
    return max(values) if sense == "maximize" else min(values)



@pytest.mark.parametrize("expr, sense, holds", [
    ("max(x, y) < 2", "maximize", lambda x, y: max(x, y) < 2),
    ("min(x, y) > 0", "minimize", lambda x, y: min(x, y) > 0),
    ("maxl(x - y, 2*y) < 1", "maximize", lambda x, y: max(x - y, 2 * y) < 1),
    ("minl(x, y + 1) < -1", "maximize", lambda x, y: min(x, y + 1) < -1),
    ("max(i in 1..2) (x + i) < 2", "maximize", lambda x, y: max(x + i for i in (1, 2)) < 2),
    ("!(max(x, y) < 1)", "minimize", lambda x, y: not max(x, y) < 1),
])
def test_a_strict_comparison_of_a_max_or_min_of_integers_is_exact(expr, sense, holds):
    """`max`/`min` of integer expressions is an integer (OPL types `maxl` of ints as int), so `< k` is
    `<= k-1`, as for `abs`: it was OPL0506 'strict inequality on a continuous expression'."""
    m = "dvar int x in -2..3;\ndvar int y in -2..3;\n%s 2*x + y;\nsubject to { %s; }\n" % (sense, expr)
    r = pyopl.solve(m)
    assert r.status == "optimal" and r.objective == _brute(sense, lambda x, y: 2 * x + y, holds)
