"""Operator precedence follows IBM's table ("Operators" in the OPL language reference).

From the tightest binding: aggregate `all` (CP, not supported); `^`; aggregates `prod`
and `inter`; `*` `/` `div` `%` `mod` binary `inter`; aggregates `sum` `max` `min` `union`;
unary `+ - !`; binary `+ -` `union` `diff` `symdiff`; `..`; `in`/`not in`; relational;
`&&`/`and`; `||`/`or`; `=>`; `?:`.

One test per row against the next looser rows, each with a value worked out by hand in
the comment beside it, where the other binding would give a different number.  Data values
go through a model whose optimum is the value (`z >= v`, minimise `z`); the decision cases
solve a tiny model whose optimum shows the binding.
"""
from __future__ import annotations

import pytest

import pyopl

DATA = "int x[1..2] = [3, 5];\nint w[1..2] = [2, 3];\n{int} S = {1, 2};\n{int} T = {3};\n"


def value(expr: str, typ: str = "float") -> float:
    """The value of the data expression ``expr`` (declared as ``typ``), through a solve."""
    model = DATA + "%s v = %s;\ndvar float z;\nminimize z;\nsubject to { z >= v; }" % (typ, expr)
    errors = [(d.code, d.message) for d in pyopl.check(model) if d.is_error]
    assert not errors, errors
    r = pyopl.compile_model(model).solve()
    assert r.status == "optimal", r.status
    return r.objective


def truth(expr: str) -> bool:
    return value("(%s) ? 1 : 0" % expr, "int") == 1


# ---------------------------------------------------------------- `^` is tighter than prod, *, unary -
@pytest.mark.parametrize("expr, want", [
    ("2 * 3 ^ 2", 18),               # 2 * 9, not 6^2 = 36
    ("-2 ^ 2", -4),                  # -(2^2), not (-2)^2 = 4
    ("prod(i in 1..2) w[i] + 1 ^ 2", 7),   # (2*3) + 1, the body stops at +
    ("prod(i in 1..2) 2 ^ w[i]", 32),      # 4 * 8: ^ is inside the prod body
])
def test_power_binds_tighter_than_prod_mul_and_unary_minus(expr, want):
    assert value(expr) == pytest.approx(want)


# ---------------------------------------------------------------- prod is tighter than * / div % mod
@pytest.mark.parametrize("expr, want", [
    ("prod(i in 1..2) w[i] * 2", 12),        # (2*3)*2, not (2*2)*(3*2) = 24
    ("prod(i in 1..2) w[i] / 2", 3),         # 6/2, not 1*1.5 = 1.5
    ("prod(i in 1..2) w[i] div 4", 1),       # 6 div 4, not 0*0 = 0
    ("prod(i in 1..2) w[i] mod 4", 2),       # 6 mod 4, not 2*3 = 6
    ("prod(i in 1..2) w[i] % 4", 2),         # as mod
    ("3 * prod(i in 1..2) w[i] * 2", 36),    # 3 * 6 * 2
    ("prod(i in 1..2) prod(j in 1..2) w[j] * 2", 72),  # (6*6)*2, not prod of (6*2)... = 144
])
def test_prod_binds_tighter_than_multiplicative_operators(expr, want):
    assert value(expr) == pytest.approx(want)


# ---------------------------------------------------------------- * / div % mod inter are tighter than sum min max
@pytest.mark.parametrize("expr, want", [
    ("sum(i in 1..2) x[i] * x[i]", 34),      # 9 + 25: the body is x[i]*x[i]
    ("sum(i in 1..2) x[i] mod 4", 4),        # 3 + 1, not 8 mod 4 = 0
    ("sum(i in 1..2) x[i] div 2", 3),        # 1 + 2, not 8 div 2 = 4
    ("min(i in 1..2) x[i] mod 4", 1),        # min(3, 1), not 3 mod 4 = 3
    ("max(i in 1..2) x[i] * -1", -3),        # max(-3, -5), not 5 * -1 = -5
    ("max(i in 1..2) x[i] / x[i]", 1),       # the body is x[i]/x[i]
    ("card(S union T inter S)", 2),          # S union (T inter S) = {1,2}, not {1}
    ("card(S diff S inter T)", 2),           # S diff {} = {1,2}, not {} 
])
def test_multiplicative_operators_bind_tighter_than_sum_min_max(expr, want):
    assert value(expr) == pytest.approx(want)


# ---------------------------------------------------------------- sum min max are tighter than unary -
@pytest.mark.parametrize("expr, want", [
    ("-min(i in 1..2) x[i] mod 4", -1),      # -(min(3, 1)), not min(-3 mod 4, -5 mod 4) = -3
    ("-sum(i in 1..2) x[i] * 2", -16),       # -(6 + 10)
    ("2 * -sum(i in 1..2) x[i]", -16),       # an aggregate after a unary minus is an operand
])
def test_sum_min_max_bind_tighter_than_unary_operators(expr, want):
    assert value(expr) == pytest.approx(want)


# ---------------------------------------------------------------- unary + - ! are tighter than binary + -
@pytest.mark.parametrize("expr, want", [
    ("-2 - 3", -5),                          # (-2) - 3, not -(2-3) = 1
    ("-sum(i in 1..2) x[i] + 10", 2),        # -(8) + 10, not -(8 + 10)
    ("sum(i in 1..2) x[i] + 1", 9),          # (3 + 5) + 1, not (3+1) + (5+1) = 10
    ("+2 - 3", -1),
])
def test_unary_operators_bind_tighter_than_binary_plus_minus(expr, want):
    assert value(expr) == pytest.approx(want)


def test_not_binds_tighter_than_and():
    assert truth("!false && false") is False   # (!false) && false, not !(false && false)


# ---------------------------------------------------------------- binary + - union diff symdiff, then ..
@pytest.mark.parametrize("expr, want", [
    ("card(1..2 + 1)", 3),                   # 1..(2+1)
    ("card(0 + 1..3 - 1)", 2),               # 1..2
    ("card(S union T diff S)", 1),           # (S union T) diff S = {3}: one level, left to right
    ("card(S diff T union T)", 3),           # (S diff T) union T = {1,2,3}
])
def test_additive_and_set_operators_are_one_level_above_range(expr, want):
    assert value(expr) == pytest.approx(want)


# ---------------------------------------------------------------- .. then in, relational, &&, ||, =>, ?:
@pytest.mark.parametrize("expr, want", [
    ("2 in 1..3", True),                     # 2 in (1..3)
    ("4 not in 1..3", True),
    ("2 in S == true", True),                # (2 in S) == true
    ("1 < 2 && 3 < 2", False),               # relational before &&
    ("true || false && false", True),        # && before ||: true || (false && false)
    ("true or false and false", True),
    ("true || false => false", False),       # || before =>: (true || false) => false
    ("false => false || true", True),
])
def test_membership_relational_and_logical_levels(expr, want):
    assert truth(expr) is want


def test_conditional_is_loosest():
    assert value("true ? 1 : 0 + 5") == 1     # true ? 1 : (0 + 5), not 1 + 5
    assert value("false ? 1 : 2 * 3") == 6


# ---------------------------------------------------------------- set aggregates union (sum's level), inter (prod's)
SETS = "{int} Q[1..2] = [{1}, {2}];\n{int} R[1..2] = [{1, 2}, {2, 3}];\n{int} V = {1};\n"


@pytest.mark.parametrize("expr, want", [
    ("card(union(i in 1..2) R[i])", 3),                  # {1, 2, 3}
    ("card(inter(i in 1..2) R[i])", 1),                  # {2}
    ("card(union(i in 1..2 : i > 5) R[i])", 0),          # no iteration: the empty set
    ("card(union(i in 1..2) Q[i] symdiff V)", 1),        # {1,2} symdiff {1} = {2}; the body stops at symdiff
                                                         # (union of Q[i] symdiff T would be {1, 2})
    ("card(inter(i in 1..2) R[i] symdiff V)", 2),        # {2} symdiff {1}; (inter of R[i] symdiff V: {2})
    ("card(union(i in 1..2) R[i] inter V)", 1),          # the body is R[i] inter V: {1} union {}
])
def test_set_aggregates_union_and_inter(expr, want):
    model = DATA + SETS + "float v = %s;\ndvar float z;\nminimize z;\nsubject to { z >= v; }" % expr
    errors = [(d.code, d.message) for d in pyopl.check(model) if d.is_error]
    assert not errors, errors
    assert pyopl.compile_model(model).solve().objective == pytest.approx(want)


def test_set_aggregate_of_a_number_is_a_type_error():
    d = [d for d in pyopl.check("int n = card(union(i in 1..2) i);\ndvar float z;\nminimize z;\n"
                                "subject to { z >= n; }") if d.is_error]
    assert [x.code for x in d] == ["OPL0203"] and "`union`" in d[0].message


# ---------------------------------------------------------------- the same bindings over decisions
def solve(model: str) -> float:
    errors = [(d.code, d.message) for d in pyopl.check(model) if d.is_error]
    assert not errors, errors
    r = pyopl.compile_model(model).solve()
    assert r.status == "optimal", r.status
    return r.objective


def test_prod_times_decision_is_a_linear_term():
    # (2*3) * y with y in 0.5..10, minimised: 3 (prod(w[i]*y) would be 6 * y^2, minimised 1.5)
    assert solve(DATA + "dvar float y in 0.5..10;\nminimize prod(i in 1..2) w[i] * y;") == pytest.approx(3)


def test_prod_divided_scales_a_decision():
    # 6 / 2 * y with y <= 4, maximised: 12 (prod(w[i]/2) * y would give 1.5*4 = 6)
    assert solve(DATA + "dvar float y in 0..4;\nmaximize prod(i in 1..2) w[i] / 2 * y;") == pytest.approx(12)


def test_sum_body_takes_the_product_with_a_decision():
    # sum(x[i] * y[i]) with y[i] in 0..1 maximised: 3 + 5 = 8
    assert solve(DATA + "dvar float y[1..2] in 0..1;\nmaximize sum(i in 1..2) x[i] * y[i];") == pytest.approx(8)


def test_max_body_in_a_constraint_bound():
    # z >= max(-3, -5) = -3 (max(x)*-1 would allow -5)
    assert solve(DATA + "dvar float z;\nminimize z;\nsubject to { z >= max(i in 1..2) x[i] * -1; }") == pytest.approx(-3)


def test_unary_minus_and_power_in_an_objective():
    # minimize y - 2^2 with y >= 0: -4 (not (-2)^2 = +4)
    assert solve("dvar float y in 0..5;\nminimize y + -2^2;") == pytest.approx(-4)


def test_logical_constraint_binds_or_before_implies():
    # (y >= 1 || y >= 5) => y >= 3, with y >= 2, minimised: the premise holds, so y = 3.
    # Read as y >= 1 || (y >= 5 => y >= 3) it would be satisfied by y = 2.
    model = ("dvar int y in 0..10;\nminimize y;\n"
             "subject to { y >= 2; y >= 1 || y >= 5 => y >= 3; }")
    assert solve(model) == pytest.approx(3)


# ---------------------------------------------------------------- binary words that also start an aggregate
@pytest.mark.parametrize("expr, want", [
    ("card(S union (i in T))", None),       # `union (` after an operand is the binary operator, not the aggregate
    ("card(S union (T))", 3),               # {1, 2, 3}
    ("card(S inter (S))", 2),
    ("(1 in S) and (3 in T)", 1),
    ("(3 in S) or (3 in T)", 1),
])
def test_a_binary_union_inter_and_or_before_a_parenthesis_is_not_an_aggregate(expr, want):
    if want is None:  # the parenthesis holds a boolean: a type error at `i`, never a syntax error at `union`
        diags = [d for d in pyopl.check(DATA + "int v = %s;" % expr) if d.is_error]
        assert diags and all(d.code != "OPL0001" for d in diags), diags
        assert "`i`" in diags[0].message
        return
    assert value("(%s) ? %s : -1" % (expr, want) if "card" not in expr else expr, "int") == want


def test_keyed_array_literal_keys_without_commas():
    model = '{string} K = {"a", "b"};\nint k[K] = #["a": 1 "b": 2]#;\ndvar float z;\nminimize z;\nsubject to { z >= k["b"] * 10 + k["a"]; }'
    assert pyopl.compile_model(model).solve().objective == pytest.approx(21)


# ---------------------------------------------------------------- `and`/`or` aggregates take the comparison
# They are not in IBM's operator table; CPLEX and CP Optimizer read `or(k in r) x[k] != k` with the
# comparison inside the `or` (issue 45). x = [3, 5]: x[i] == 2*i + 1 holds for i = 1 and 2.
@pytest.mark.parametrize("expr, want", [
    ("and(i in 1..2) x[i] == 2 * i + 1", True),
    ("and(i in 1..2) x[i] >= 4", False),          # 3 >= 4 fails
    ("or(i in 1..2) x[i] >= 4", True),            # 5 >= 4
    ("or(i in 1..2) x[i] != 2 * i + 1", False),
    ("or(i in 1..2) x[i] >= 4 && x[1] == 0", False),   # (or ...) && false: the body stops at &&
    ("!or(i in 1..2) x[i] == 0", True),
])
def test_and_or_aggregates_take_the_comparison_into_their_body(expr, want):
    assert truth(expr) == want


def test_or_over_a_comparison_on_cp_matches_brute_force():
    # x a permutation of 0..3 other than the identity: or(k in r) x[k] != k. Maximise sum k*x[k]:
    # brute force over the 23 other permutations gives 13 (swap x[2], x[3]); the identity would give 14.
    from itertools import permutations

    r4 = range(4)
    best = max(sum(k * p[k] for k in r4) for p in permutations(r4) if any(p[k] != k for k in r4))
    m = """using CP;
range r = 0..3;
dvar int x[r] in 0..3;
maximize sum(k in r) k * x[k];
subject to { or(k in r) x[k] != k; allDifferent(x); }"""
    res = pyopl.compile_model(m).solve(threads=1)
    assert res.status == "optimal" and res.objective == best == 13
