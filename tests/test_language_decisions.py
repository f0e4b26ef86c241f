"""Decisions and objectives: logical constraints, constraints as 0/1 values, min/max/abs of
decisions, piecewise, staticLex, quadratic objectives, tuples and generic arrays in models.

Each optimum is a literal worked out by hand (in the comment) or checked against a separate
formulation built directly with scipy in the test.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

import pyopl


def solve(model: str, data=None):
    r = pyopl.compile_model(model, data).solve()
    assert r.status == "optimal", r.status
    return r


def opt(model: str, data=None) -> float:
    return solve(model, data).objective


def codes(model: str, data=None) -> list[str]:
    return [d.code for d in pyopl.check(model, data)]


# ---------------------------------------------------------------- logical constraints
def test_implication_with_declared_bounds():
    # x >= 3 forces y >= 7: cheapest is x = 3, y = 7 -> 3 + 7 = 10 (x alone costs 2 each)
    m = "dvar int x in 0..10; dvar int y in 0..10;\nminimize 2 * x + y;\nsubject to { x >= 3; (x >= 3) => (y >= 7); }"
    assert opt(m) == 2 * 3 + 7


def test_implication_with_unbounded_int_plus_uses_an_assumed_bound_with_a_warning():
    # afp-zoo-ifthen: 40-seat buses cost 500, 30-seat 400; 300 pupils; nbBus40 >= 3 => nbBus30 >= 7.
    # 10 x 30-seaters = 4000 beats any mix with >= 3 big buses (3*500 + 7*400 = 4300).
    m = """dvar int+ nbBus40; dvar int+ nbBus30;
    minimize 500 * nbBus40 + 400 * nbBus30;
    subject to { 40 * nbBus40 + 30 * nbBus30 >= 300; (nbBus40 >= 3) => (nbBus30 >= 7); }"""
    model = pyopl.compile_model(m)
    assert "OPL0901" in [d.code for d in model.warnings]
    assert model.solve().objective == pytest.approx(4000)


def test_free_variable_in_logical_constraint_is_an_indicator_not_an_error():
    # no big-M exists for a free x: the constraint becomes a native indicator (tests/test_indicators.py)
    m = "dvar boolean b; dvar float x;\nminimize x;\nsubject to { b == 1 => x >= 4; }"
    assert codes(m) == []
    [ind] = pyopl.compile_model(m).ir.indicators
    assert (ind.lo, ind.hi) == (4.0, np.inf)


def test_bounds_implied_by_single_variable_rows_need_no_assumption():
    m = """dvar float+ x; dvar boolean b;
    minimize x - 5 * b;
    subject to { x <= 8; b == 1 => x >= 6; }"""  # b = 1 costs x = 6: 6 - 5 = 1 > 0 (b = 0, x = 0)
    model = pyopl.compile_model(m)
    assert "OPL0901" not in [d.code for d in model.warnings]
    assert model.solve().objective == pytest.approx(0)


def test_disjunction_semi_integer():
    # afp-zoo-semiinteger: nbBus40 == 0 or 4 <= nbBus40 <= 20, same for nbBus30; 8 * 500 = 4000 is best
    m = """dvar int+ nbBus40; dvar int+ nbBus30;
    minimize 500 * nbBus40 + 400 * nbBus30;
    subject to { 40 * nbBus40 + 30 * nbBus30 >= 300;
      (nbBus40 == 0) || (4 <= nbBus40 <= 20); (nbBus30 == 0) || (4 <= nbBus30 <= 20); }"""
    assert opt(m) == pytest.approx(4000)


def test_strict_inequality_on_continuous_is_exact_under_negation():
    # jaan-facility-location: (ship > 0) => open == 1 becomes open == 0 => ship <= 0
    m = """dvar float+ ship in 0..10; dvar boolean open;
    minimize 100 * open - 3 * ship;
    subject to { (ship > 0) => (open == 1); }"""  # ship 10, open 1: 100 - 30 = 70 > 0: ship 0
    assert opt(m) == pytest.approx(0)
    m2 = m.replace("100 * open", "20 * open")  # now 20 - 30 = -10 is better
    assert opt(m2) == pytest.approx(-10)


def test_strict_inequality_enforced_on_continuous_is_an_error():
    assert "OPL0506" in codes("dvar float x in 0..5;\nminimize x;\nsubject to { x > 1; }")


def test_strict_inequality_on_integers_shifts_by_one():
    assert opt("dvar int x in 0..5;\nminimize x;\nsubject to { x > 1; }") == 2


def test_strict_inequality_of_an_integer_against_a_fractional_bound_names_the_exact_rewrite():
    # y integer: y > 2.5 holds exactly when y >= 3, and 2*y - z < 4.5 exactly when 2*y - z <= 4
    [e] = pyopl.check("dvar int y in 0..10;\nminimize y;\nsubject to { y > 2.5; }").errors
    assert (e.code, e.line, e.column) == ("OPL0506", 3, 16)
    assert "continuous" not in e.message and "integer expression `y`" in e.message and "2.5" in e.message
    assert "`y >= 3`" in e.help
    [e] = pyopl.check("dvar int y in 0..10;\ndvar int z in 0..3;\nminimize y;\n"
                      "subject to { c: 2*y - z < 4.5; }").errors
    assert "`c`" in e.message and "`2*y - z <= 4`" in e.help
    assert opt("dvar int y in 0..10;\nminimize y;\nsubject to { y >= 3; }") == 3  # the rewrite's optimum


def test_not_equal_on_integer_decision():
    # x != 3 with x in 3..5 minimised -> 4
    assert opt("dvar int x in 3..5;\nminimize x;\nsubject to { x != 3; }") == 4


def test_not_equal_on_continuous_is_an_error():
    assert "OPL0511" in codes("dvar float x in 0..5;\nminimize x;\nsubject to { x != 2; }")


def test_negation_and_conjunction():
    # !(x <= 2 && y <= 2): one of them >= 3; minimise x + 2y -> x = 3, y = 0
    m = "dvar int x in 0..9; dvar int y in 0..9;\nminimize x + 2 * y;\nsubject to { !(x <= 2 && y <= 2); }"
    assert opt(m) == 3


def test_equivalence_between_constraints():
    # (x >= 2) == (y >= 2): x forced to 5, so y >= 2; minimise y -> 2
    m = "dvar int x in 0..9; dvar int y in 0..9;\nminimize y;\nsubject to { x == 5; (x >= 2) == (y >= 2); }"
    assert opt(m) == 2


# ---------------------------------------------------------------- constraints as values
def test_constraints_as_zero_one_terms():
    # at least two of three conditions; minimise x + y + z -> 3 + 4 = 7 (z >= 5 is dearest)
    m = """dvar int x in 0..10; dvar int y in 0..10; dvar int z in 0..10;
    minimize x + y + z;
    subject to { (x >= 3) + (y >= 4) + (z >= 5) >= 2; }"""
    assert opt(m) == 7


def test_count_of_satisfied_constraints_in_objective():
    # maximise the number of x[i] >= i (i = 1..4) with sum x <= 6: 1 + 2 + 3 = 6 -> 3
    m = """dvar int x[1..4] in 0..10;
    maximize sum(i in 1..4) (x[i] >= i);
    subject to { sum(i in 1..4) x[i] <= 6; }"""
    assert opt(m) == 3


def test_product_of_boolean_conditions_in_dexpr():
    # clustermip's idiom: d * ((w[i] == 1) && (w[j] == 1)); pick exactly two points, minimise the
    # largest pairwise distance: best pair is (1, 2) with distance 1
    m = """float d[1..3][1..3] = [[0, 1, 5], [1, 0, 4], [5, 4, 0]];
    dvar boolean w[1..3];
    dexpr float far = max(ordered i, j in 1..3) d[i][j] * ((w[i] == 1) && (w[j] == 1));
    minimize far;
    subject to { sum(i in 1..3) w[i] == 2; }"""
    assert opt(m) == pytest.approx(1)


def test_equality_on_continuous_as_a_value_uses_eplin():
    # (x == 3) has a 0/1 value: its negation `x != 3` holds with CPLEX's eplin (1e-3); y <= 0 forces
    # it false, so x in [0, 5] minus (3 - eplin, 3 + eplin): the maximum 5 is allowed
    m = "dvar float x in 0..5; dvar int y in 0..0;\nmaximize x;\nsubject to { (x == 3) * 2 <= y; }"
    assert "OPL0215" not in codes(m) and opt(m) == pytest.approx(5)
    # minimising |x - 3| with x != 3 gives the margin itself
    m2 = ("dvar float x in 0..5; dvar float t in 0..5; dvar int y in 0..0;\nminimize t;\n"
          "subject to { (x == 3) <= y; t >= x - 3; t >= 3 - x; }")
    assert opt(m2) == pytest.approx(1e-3, abs=1e-7)


# ---------------------------------------------------------------- min, max, abs of decisions
def test_abs_of_decision():
    # minimise |x - 3| + |y + 2| with x in 0..10, y in 0..10 -> 0 + 2
    m = "dvar float x in 0..10; dvar float y in 0..10;\nminimize abs(x - 3) + abs(y + 2);"
    assert opt(m) == pytest.approx(2)


def test_maxl_minl_of_decisions():
    # maximise minl(x, y, 4) with x + y <= 6 -> 3
    m = "dvar float x in 0..10; dvar float y in 0..10;\nmaximize minl(x, y, 4);\nsubject to { x + y <= 6; }"
    assert opt(m) == pytest.approx(3)
    # minimise maxl(x, 2 * y) with x + y >= 6 -> x = 4, y = 2: 4
    m = "dvar float x in 0..10; dvar float y in 0..10;\nminimize maxl(x, 2 * y);\nsubject to { x + y >= 6; }"
    assert opt(m) == pytest.approx(4)


def test_aggregate_max_over_decisions():
    # makespan: three jobs on two machines, durations 3, 4, 5 -> 7 (3+4 | 5)
    m = """int d[1..3] = [3, 4, 5];
    dvar boolean a[1..3][1..2];
    minimize max(k in 1..2) sum(j in 1..3) d[j] * a[j][k];
    subject to { forall(j in 1..3) sum(k in 1..2) a[j][k] == 1; }"""
    assert opt(m) == pytest.approx(7)


def test_minl_with_data_bound_and_implied_bound_from_a_row():
    # ammm-malcon's idiom: minl(x, B) * c1 + maxl(x - B, 0) * c2 with x <= 10 given as a row
    m = """dvar int+ x;
    minimize minl(x, 4) * 1 + maxl(x - 4, 0) * 3;
    subject to { x <= 10; x >= 6; }"""  # x = 6: 4 * 1 + 2 * 3 = 10
    model = pyopl.compile_model(m)
    assert "OPL0901" not in [d.code for d in model.warnings]
    assert model.solve().objective == pytest.approx(10)


# ---------------------------------------------------------------- piecewise
def test_convex_piecewise_as_lp():
    # slope 1 up to 10, then 3; x >= 15 -> 10 + 5 * 3 = 25
    m = "dvar float+ x;\nminimize piecewise{1 -> 10; 3} x;\nsubject to { x >= 15; }"
    assert opt(m) == pytest.approx(25)


def test_non_convex_piecewise_needs_binaries():
    # ibm-sailcopw's cost: 400 per boat up to 40, then 350; a demand of 60 costs 40*400 + 20*350
    m = "dvar float+ b in 0..100;\nminimize piecewise{400 -> 40; 350} b;\nsubject to { b >= 60; }"
    assert opt(m) == pytest.approx(40 * 400 + 20 * 350)


def test_piecewise_with_anchor():
    # f(0) would be 0; anchored f(10) = 100, slopes 2 then 5 after 20: f(25) = 100 + 2*10 + 5*5 = 145
    m = "dvar float x in 0..30;\nminimize piecewise{2 -> 20; 5}(10, 100) x;\nsubject to { x >= 25; }"
    assert opt(m) == pytest.approx(145)


def test_sailco_with_unbounded_boats_against_scipy():
    # ibm-sailcopw as written (Boat float+ with no bound); check against a scipy MILP with an explicit cap
    mod = """int NbPeriods = 4; range Periods = 1..NbPeriods;
    float Demand[Periods] = [40, 60, 75, 25];
    dvar float+ Boat[Periods]; dvar float+ Inv[0..NbPeriods];
    minimize sum(t in Periods) piecewise{400 -> 40; 350} Boat[t] + 20 * (sum(t in Periods) Inv[t]);
    subject to { Inv[0] == 10; forall(t in Periods) Boat[t] + Inv[t-1] == Inv[t] + Demand[t]; }"""
    got = opt(mod)
    # scipy: per period r_t in [0, 40], e_t in [0, 1000], z_t binary, r_t >= 40 z_t, e_t <= 1000 z_t
    T, D = 4, [40, 60, 75, 25]
    n = 4 * T + 1  # r, e, z, inv[1..T], inv0 folded as constant 10
    c = np.zeros(n)
    r, e, z, inv = (lambda t: t), (lambda t: T + t), (lambda t: 2 * T + t), (lambda t: 3 * T + t)
    for t in range(T):
        c[r(t)], c[e(t)], c[inv(t)] = 400, 350, 20
    rows, lo, hi = [], [], []
    for t in range(T):
        a = np.zeros(n); a[r(t)] = a[e(t)] = 1; a[inv(t)] = -1
        if t > 0:
            a[inv(t - 1)] = 1
        rows.append(a); lo.append(D[t] - (10 if t == 0 else 0)); hi.append(D[t] - (10 if t == 0 else 0))
        a = np.zeros(n); a[r(t)] = 1; a[z(t)] = -40; rows.append(a); lo.append(0); hi.append(np.inf)
        a = np.zeros(n); a[e(t)] = 1; a[z(t)] = -1000; rows.append(a); lo.append(-np.inf); hi.append(0)
    ub = np.array([40] * T + [1000] * T + [1] * T + [np.inf] * T + [0.0])
    integ = np.array([0] * 2 * T + [1] * T + [0] * T + [0])
    ref = milp(c, constraints=LinearConstraint(np.array(rows), lo, hi), bounds=Bounds(np.zeros(n), ub), integrality=integ)
    assert ref.success
    assert got == pytest.approx(ref.fun, rel=1e-6)  # Inv[0] is not in the objective's sum over Periods


# ---------------------------------------------------------------- objectives
def test_static_lex_sequence():
    # first minimise cost x + y (>= 4 total), then maximise... here minimise x: cost 4, then x = 0
    m = "dvar float+ x; dvar float+ y;\nminimize staticLex(x + y, x);\nsubject to { x + y >= 4; y <= 3; }"
    r = solve(m)
    assert r.objective == pytest.approx(4) and r["x"] == pytest.approx(1)


def test_static_lex_over_a_dexpr_array():
    m = """dvar int x[1..2] in 0..5;
    dexpr float k[i in 1..2] = x[i];
    maximize staticLex(k);
    subject to { x[1] + x[2] <= 7; }"""  # x[1] = 5 first, then x[2] = 2
    r = solve(m)
    assert r.objective == pytest.approx(5) and r["x"][2] == pytest.approx(2)


def test_convex_quadratic_objective():
    # minimise (x - 3)^2 + (y - 1)^2 with x + y <= 2: projection of (3, 1) onto the line -> (2, 0): 1 + 1
    m = "dvar float x; dvar float y;\nminimize (x - 3)^2 + (y - 1)^2;\nsubject to { x + y <= 2; }"
    assert opt(m) == pytest.approx(2, abs=1e-5)


# ---------------------------------------------------------------- tuples, patterns, generic arrays
ARCS = """tuple arc { key string o; key string d; float cost; }
{arc} Arcs = {<"a","b",4>, <"a","c",1>, <"c","b",2>};
"""


def test_tuple_patterns_and_lookup_by_key():
    m = ARCS + """dvar float+ f[Arcs];
    minimize sum(<o, d, c> in Arcs) c * f[<o, d, c>];
    subject to {
      sum(<o, d, c> in Arcs : o == "a") f[<o, d, c>] == 1;
      forall(n in {"c"}) sum(<o, n, c> in Arcs) f[<o, n, c>] == sum(<n, d, c> in Arcs) f[<n, d, c>];
      f[Arcs[<"a", "b">]] <= 0;
    }"""  # the direct arc is barred: a -> c -> b costs 1 + 2
    assert opt(m) == pytest.approx(3)


def test_generic_array_over_tuple_pattern_dimension():
    m = ARCS + """float twice[<o, d, c> in Arcs] = 2 * c;
    dvar float x;
    minimize x;
    subject to { x >= sum(a in Arcs) twice[a]; }"""
    assert opt(m) == pytest.approx(2 * (4 + 1 + 2))


def test_nested_tuples_and_field_access():
    m = """tuple pt { int x; int y; }
    tuple seg { pt a; pt b; }
    {seg} S = {<<0, 0>, <3, 4>>, <<1, 1>, <1, 5>>};
    dvar float z;
    minimize z;
    subject to { z >= sum(s in S) (abs(s.b.x - s.a.x) + abs(s.b.y - s.a.y)); }"""
    assert opt(m) == pytest.approx(7 + 4)


def test_x_ij_and_x_i_j_indexing_are_the_same_variable():
    m = """dvar float+ x[1..2][1..2];
    minimize x[1,2] + x[2][1];
    subject to { x[1][2] >= 3; x[2,1] >= 4; }"""
    assert opt(m) == 7


def test_index_dependent_domain_and_filtered_dvar():
    m = """int cap[1..3] = [2, 5, 1];
    dvar int x[i in 1..3] in 0..cap[i];
    maximize sum(i in 1..3) x[i];"""
    assert opt(m) == 8


def test_generic_array_over_two_sets_and_conditional():
    m = """float a[i in 1..3][j in 1..3] = (i == j) ? 10 : i + j;
    dvar float x;
    minimize x;
    subject to { x >= sum(i in 1..3, j in 1..3) a[i][j]; }"""
    assert opt(m) == pytest.approx(30 + 2 * (3 + 4 + 5))


def test_if_else_in_constraint_block():
    m = """int mode = 2;
    dvar float+ x;
    minimize x;
    subject to { if (mode == 1) { x >= 5; } else { x >= 7; } }"""
    assert opt(m) == 7


def test_old_constraint_declaration_syntax():
    # zhb-covering: `constraint ct; ... ct = forall(...) ...;`
    m = """constraint ct;
    dvar boolean h[1..3];
    minimize 3 * h[1] + 2 * h[2] + 2 * h[3];
    subject to { ct = forall(t in 1..2) h[t] + h[t + 1] >= 1; }"""
    assert opt(m) == 2  # hire worker 2 only


def test_labelled_and_indexed_labels():
    m = """dvar float+ x[1..2];
    minimize x[1] + x[2];
    subject to { forall(i in 1..2) ct[i]: x[i] >= i; total: x[1] + x[2] >= 1; }"""
    assert opt(m) == 3


def test_assert_on_data_and_its_failure():
    ok = "int n = 3;\nassert n > 0;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }"
    assert opt(ok) == 3
    assert "OPL0422" in codes(ok.replace("n > 0", "positive: n > 5"))


def test_post_processing_declarations_are_computed_from_the_solution():
    m = """dvar boolean x[1..3];
    maximize sum(i in 1..3) x[i];
    subject to { x[1] + x[2] <= 1; }
    {int} chosen = {i | i in 1..3 : x[i] == 1};"""
    model = pyopl.compile_model(m)
    assert not model.warnings
    r = model.solve()
    assert r.objective == pytest.approx(2)
    # x[3] = 1 and one of x[1], x[2]: the set holds exactly the chosen indices
    want = "{" + " ".join(str(i) for i in (1, 2, 3) if r["x"][i] > 0.5) + "}"
    assert r.extra["postprocessing"] == {"chosen": want} and len(want.split()) == 2


def test_decision_dependent_data_before_the_model_is_an_error():
    m = "dvar boolean x[1..3];\n{int} chosen = {i | i in 1..3 : x[i] == 1};\nmaximize sum(i in 1..3) x[i];"
    assert any(c in ("OPL0501", "OPL0513") for c in codes(m))


def test_using_cp_compiles_for_cpsat():
    cs = codes("using CP;\ndvar int x in 0..3;\nminimize x;")
    assert not cs  # (it solves on CP-SAT: tests/test_cpsat.py)


def test_numeric_builtins_on_data():
    m = """dvar float x;
    minimize x;
    subject to { x >= floor(2.7) + ceil(2.1) + round(2.5) + (7 div 2) + (7 mod 3) + sqrt(16) + pow(2, 3)
                   + abs(-2) + maxl(1, 5, 3) + minl(4, 2) + ftoi(3.9) + exp(0) + log(1); }"""
    assert opt(m) == pytest.approx(2 + 3 + 3 + 3 + 1 + 4 + 8 + 2 + 5 + 2 + 3 + 1 + 0)


def test_infinity_and_maxint():
    m = "float big = infinity;\nint mi = maxint;\ndvar float x;\nminimize x;\nsubject to { x >= (big > 1e300 ? 1 : 0) + (mi == 2147483647 ? 1 : 0); }"
    assert opt(m) == 2


def test_chained_comparison_on_data_is_a_conjunction():
    m = "int n = 4;\ndvar float x;\nminimize x;\nsubject to { x >= sum(i in 1..n : 1 < i < n) i; }"
    assert opt(m) == 2 + 3
