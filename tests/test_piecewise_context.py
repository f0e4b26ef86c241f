"""`piecewise`, `abs`, `min`/`max` in every context are exact (issue 25, class 1).

The LP form of a piecewise function is exact only when its convexity matches its use; pyopl
decides from every finished use (pyopl/lowering/linearise/pw_exact.py). Each expected optimum comes from
the exact one-variable brute force in tests/pwl_brute.py (Python functions, no pyopl), on HiGHS
and on Gurobi (these models are far inside its size-limited licence).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import pyopl
from tests.pwl_brute import brute, close, opl_piecewise

SOLVERS = ["highs", "gurobi"]


def _solve(model: str, solver: str):
    r = pyopl.compile_model(model).solve(solver=solver)
    return r.status, r.objective


# ------------------------------------------------------------------ the two examples
@pytest.mark.parametrize("solver", SOLVERS)
def test_maximised_minus_concave_cost(solver):
    # maximise 10 m - f(m), f concave: -f is convex under maximisation, the LP form is wrong
    m = """dvar float+ m in 0..1000;
maximize 10 * m - piecewise{ 6 -> 100; 4.5 -> 250; 3.5 }(0, 0) m;
subject to { m <= 176.66666666666666; }"""
    f = opl_piecewise([6, 4.5, 3.5], [100, 250])
    want = brute("maximize", lambda x: 10 * x - f(x), [], 0, 176.66666666666666, [100, 250])
    status, obj = _solve(m, solver)
    assert status == "optimal" and close(obj, want) and close(want, 821.6666666666666)


@pytest.mark.parametrize("solver", SOLVERS)
def test_concave_bounded_above_in_constraint(solver):
    m = """dvar float+ x in 0..100;
maximize x;
subject to { piecewise{ 1 -> 10; 0.5 -> 20; 0.25 } x <= 12; }"""
    f = opl_piecewise([1, 0.5, 0.25], [10, 20])
    want = brute("maximize", lambda x: x, [(f, "<=", 12)], 0, 100, [10, 20])
    status, obj = _solve(m, solver)
    assert status == "optimal" and close(obj, want) and close(want, 14.0)


# ------------------------------------------------------------------ each context, convex and concave
CONVEX = ([-2, 1, 3], [3, 6])  # slopes increasing
CONCAVE = ([3, 1, -2], [3, 6])  # slopes decreasing
NEITHER = ([1, -2, 2], [3, 6])


def _pw_text(slopes, breaks):
    return "piecewise{%s; %s}" % ("; ".join("%s -> %s" % (s, b) for s, b in zip(slopes, breaks)), slopes[-1])


CONTEXTS = [
    # (name, objective sense, objective coefficient on f, constraint (coef, op, rhs) or None, through a dexpr)
    ("min +f", "minimize", 1, None, False),
    ("min -f", "minimize", -1, None, False),
    ("max +f", "maximize", 1, None, False),
    ("max -f", "maximize", -1, None, False),
    ("f <= 4, max x", "maximize", 0, (1, "<=", 4), False),
    ("f >= 4, min x", "minimize", 0, (1, ">=", 4), False),
    ("f >= 4, max x", "maximize", 0, (1, ">=", 4), False),
    ("-f <= -4, max x", "maximize", 0, (-1, "<=", -4), False),
    ("-2f >= -8, min x", "minimize", 0, (-2, ">=", -8), False),
    ("f == 4, max x", "maximize", 0, (1, "==", 4), False),
    ("f == 4, min x", "minimize", 0, (1, "==", 4), False),
    ("dexpr: max -f", "maximize", -1, None, True),
    ("dexpr: min -f", "minimize", -1, None, True),
    ("dexpr: -f <= -4, max x", "maximize", 0, (-1, "<=", -4), True),
    ("dexpr: f <= 4, min x", "minimize", 0, (1, "<=", 4), True),
]


def _context_model(slopes, breaks, sense, a, cons, via_dexpr, x_coef=1, lo=0, hi=10):
    fx = "f" if via_dexpr else "(%s x)" % _pw_text(slopes, breaks)
    head = "dvar float x in %s..%s;\n" % (lo, hi)
    if via_dexpr:
        head += "dexpr float f = %s x;\n" % _pw_text(slopes, breaks)
    obj = "%s * x + %s * %s" % (x_coef, a, fx) if a else "%s * x" % x_coef
    body = "%s %s;\nsubject to { x >= %s; %s }" % (sense, obj, lo, "%s * %s %s %s;" % (cons[0], fx, cons[1], cons[2])
                                                  if cons else "")
    return head + body


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("shape", [CONVEX, CONCAVE, NEITHER], ids=["convex", "concave", "neither"])
@pytest.mark.parametrize("ctx", CONTEXTS, ids=[c[0] for c in CONTEXTS])
def test_piecewise_in_every_context(ctx, shape, solver):
    _name, sense, a, cons, via = ctx
    slopes, breaks = shape
    f = opl_piecewise(slopes, breaks)
    x_coef = 0.25 if a else 1  # with f in the objective, a small pull on x as well
    want = brute(sense, lambda x: x_coef * x + a * f(x),
                 [(lambda x, c=cons: c[0] * f(x), cons[1], cons[2])] if cons else [], 0, 10, breaks)
    status, obj = _solve(_context_model(slopes, breaks, sense, a, cons, via, x_coef), solver)
    if want is None:
        assert status == "infeasible"
    else:
        assert status == "optimal" and close(obj, want), (status, obj, want)


def test_convex_minimised_stays_an_lp():
    # the exact LP case keeps no binaries (the check is not just "always MIP")
    m = _context_model(*CONVEX, "minimize", 1, None, False)
    assert not pyopl.compile_model(m).ir.col_integer.any()
    m = _context_model(*CONCAVE, "maximize", 0, (-1, "<=", -4), False)  # -f <= -4: f >= 4, concave: exact
    assert not pyopl.compile_model(m).ir.col_integer.any()


def test_unbounded_argument_where_binaries_are_needed_gets_an_assumed_bound_warning():
    # concave and minimised: the last piece must fill after the others, which needs a bound on x
    m = "dvar float x;\nminimize piecewise{3 -> 2; 1} x;\nsubject to { x >= 1; }"
    warns = [d for d in pyopl.check(m) if not d.is_error]
    assert any("piecewise" in d.message and "`x` <= " in d.message for d in warns)
    f = opl_piecewise([3, 1], [2])
    assert close(_solve(m, "highs")[1], brute("minimize", f, [], 1, 1000001, [2]))


# ------------------------------------------------------------------ abs, min/max, maxl/minl in every context
FUNCS = {
    "abs": ("abs(x - 4)", lambda x: abs(x - 4), [4]),
    "max": ("max(x - 2, 8 - 2 * x, 1)", lambda x: max(x - 2, 8 - 2 * x, 1), [10 / 3, 3, 4.5]),
    "min": ("min(x + 1, 9 - x)", lambda x: min(x + 1, 9 - x), [4]),
    "maxl": ("maxl(x - 2, 8 - 2 * x)", lambda x: max(x - 2, 8 - 2 * x), [10 / 3]),
    "minl": ("minl(x + 1, 9 - x, 3 + 0 * x)", lambda x: min(x + 1, 9 - x, 3), [2, 4, 6]),
}


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("fn", sorted(FUNCS))
@pytest.mark.parametrize("ctx", CONTEXTS, ids=[c[0] for c in CONTEXTS])
def test_abs_minmax_in_every_context(ctx, fn, solver):
    _name, sense, a, cons, via = ctx
    text, g, kinks = FUNCS[fn]
    fx = "f" if via else "(%s)" % text
    x_coef = 0.25 if a else 1
    model = "dvar float x in 0..10;\n" + ("dexpr float f = %s;\n" % text if via else "")
    model += "%s %s * x%s;\nsubject to { x >= 0; %s }" % (
        sense, x_coef, " + %s * %s" % (a, fx) if a else "", "%s * %s %s %s;" % (cons[0], fx, cons[1], cons[2]) if cons else "")
    want = brute(sense, lambda x: x_coef * x + a * g(x),
                 [(lambda x, c=cons: c[0] * g(x), cons[1], cons[2])] if cons else [], 0, 10, kinks)
    status, obj = _solve(model, solver)
    if want is None:
        assert status == "infeasible"
    else:
        assert status == "optimal" and close(obj, want), (model, status, obj, want)


# ------------------------------------------------------------------ differential property test
@st.composite
def _case(draw):
    n = draw(st.integers(1, 3))
    breaks = sorted(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n, unique=True)))
    slopes = draw(st.lists(st.integers(-4, 4), min_size=n + 1, max_size=n + 1))
    anchor = draw(st.sampled_from([None, (0, 0), (2, 5), (5, -3)]))
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    a = draw(st.sampled_from([0, -2, -1, 1, 2]))
    xc = draw(st.sampled_from([-1, 0, 0.5, 1]))
    cons = draw(st.one_of(st.none(), st.tuples(st.sampled_from([-2, -1, 1, 3]), st.sampled_from(["<=", ">=", "=="]),
                                               st.integers(-10, 10))))
    via = draw(st.booleans())
    return breaks, slopes, anchor, sense, a, xc, cons, via


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_random_piecewise_in_random_context_matches_brute_force(case):
    breaks, slopes, anchor, sense, a, xc, cons, via = case
    pw = "piecewise{%s; %s}%s" % ("; ".join("%s -> %s" % (s, b) for s, b in zip(slopes, breaks)), slopes[-1],
                                  "(%s, %s)" % anchor if anchor else "")
    f = opl_piecewise(slopes, breaks, *(anchor or (0, 0)))
    fx = "f" if via else "(%s x)" % pw
    model = "dvar float x in 0..10;\n" + ("dexpr float f = %s x;\n" % pw if via else "")
    model += "%s %s * x + %s * %s;\nsubject to { x >= 0; %s }" % (
        sense, xc, a, fx, "%s * %s %s %s;" % (cons[0], fx, cons[1], cons[2]) if cons else "")
    want = brute(sense, lambda x: xc * x + a * f(x),
                 [(lambda x: cons[0] * f(x), cons[1], cons[2])] if cons else [], 0, 10, breaks)
    status, obj = _solve(model, "highs")
    if want is None:
        assert status == "infeasible", model
    else:
        assert status == "optimal" and close(obj, want, 1e-5), (model, status, obj, want)


# Discontinuous piecewise functions: a repeated breakpoint makes the slope between the two copies the
# height of a step there (IBM, "Discontinuous piecewise-linear functions"). They were read as a piece of
# length 0, so the step vanished: IBM's own sign example gave sign(-2) = 1, reported optimal.
STEPPED_DATA = """pwlFunction p = piecewise{10 -> 100; -200 -> 100; 8 -> 200; -400 -> 200; 6 -> 300; -300 -> 300; 5};
float at250 = p(250);
float at50 = p(50);
float at150 = p(150);
float signMinus3 = piecewise{0 -> 0; 2 -> 0; 0}(1, 1) -3;
float signPlus4 = piecewise{0 -> 0; 2 -> 0; 0}(1, 1) 4;
dvar float x in 0..1;
maximize x;
"""


def test_a_repeated_breakpoint_is_a_step_in_a_function_of_data():
    # by hand: slope 10 up to 100 (1000), step -200, slope 8 to 200 (800 + 800 = 1600), step -400 (1200),
    # slope 6: at 250, 1200 + 300 = 1500 (= 250 * 6, the all-unit discount the steps encode); at 150,
    # 800 + 8 * 50 = 1200 (= 150 * 8); at 50, 500. The sign function: -1 left of 0, 1 right of it.
    script = "execute { writeln(at250, \" \", at50, \" \", at150, \" \", signMinus3, \" \", signPlus4); }\n"
    r = pyopl.solve(STEPPED_DATA + script)
    assert r.script_output.split() == ["1500", "500", "1200", "-1", "1"]


def test_a_discontinuous_function_of_a_decision_is_refused_not_solved_as_another():
    text = ("dvar float x;\ndvar float signy;\nmaximize signy;\n"
            "subject to { x == -2; signy == piecewise{0 -> 0; 2 -> 0; 0}(1, 1) x; }\n")
    [d] = [d for d in pyopl.check_text(text) if d.is_error]
    assert (d.code, d.line, d.column) == ("OPL0519", 4, 32)
    assert "jumps by 2 at 0" in d.message
