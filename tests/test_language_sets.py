"""Sets, ranges, set functions and the semantics that are easy to get silently wrong.

Every optimum is a literal worked out by hand in the comment beside it; a model picks
one element by its cost, so a wrong order, a wrong position or a lost element shows up
as a different number.
"""
from __future__ import annotations

import pytest

import pyopl


def opt(model: str, data=None) -> float:
    r = pyopl.compile_model(model, data).solve()
    assert r.status == "optimal", r.status
    return r.objective


def codes(model: str, data=None) -> list[str]:
    return [d.code for d in pyopl.check(model, data)]


def pick(set_decl: str, expr: str) -> str:
    """A model whose optimum is the data value ``expr`` (x >= expr, minimise x)."""
    return "%s\ndvar float x;\nminimize x;\nsubject to { x >= %s; }" % (set_decl, expr)


# ---------------------------------------------------------------- set functions, 0-based
@pytest.mark.parametrize("expr, want", [
    ("card(S)", 4),                       # {5, 9, 2, 7}
    ("first(S)", 5),                      # insertion order
    ("last(S)", 7),
    ("ord(S, 9)", 1),                     # ord is 0-based
    ("ord(S, 5)", 0),
    ("item(S, 0)", 5),                    # item is 0-based
    ("item(S, 3)", 7),
    ("next(S, 9)", 2),
    ("prev(S, 2)", 9),
    ("nextc(S, 7)", 5),                   # wraps to the first
    ("prevc(S, 5)", 7),                   # wraps to the last
    ("sum(s in S) s", 23),
    ("prod(s in S : s < 8) s", 70),       # 5 * 2 * 7
    ("min(s in S) s", 2),
    ("max(s in S) s", 9),
])
def test_set_functions_follow_insertion_order_and_are_zero_based(expr, want):
    assert opt(pick("{int} S = {5, 9, 2, 7};", expr)) == pytest.approx(want)


@pytest.mark.parametrize("decl, want", [
    ("sorted {int} S = {5, 9, 2, 7};", 2),      # first of a sorted set is the smallest
    ("reversed {int} S = {5, 9, 2, 7};", 9),    # reversed: the largest
    ("ordered {int} S = {5, 9, 2, 7};", 5),     # ordered keeps insertion order
    ("{int} S = {5, 9, 2, 7};", 5),             # so does the default
    ('sorted {string} S = {"b", "a_c", "a.b"};', None),
])
def test_ordered_sorted_reversed_first_element(decl, want):
    if want is None:  # strings: "a.b" < "a_c" < "b" in code-point order; ord of "b" is 2
        assert opt(pick(decl, "ord(S, \"b\")")) == 2
        assert opt(pick(decl, "ord(S, \"a.b\")")) == 0
        return
    assert opt(pick(decl, "first(S)")) == want


def test_item_of_sorted_set_differs_from_insertion_order():
    # sorted {30, 10, 20}: item 1 is 20; as written, item 1 is 10
    assert opt(pick("sorted {int} S = {30, 10, 20};", "item(S, 1)")) == 20
    assert opt(pick("{int} S = {30, 10, 20};", "item(S, 1)")) == 10


# IBM ("Sorted and ordered sets"): "For tuple sets with keys, sorting takes place on all keys in their
# order of declaration"; without keys the whole tuple counts. The orders below are worked out by hand.
PEOPLE = '{<"Ann", "Smith", 30>, <"Bob", "Adams", 50>, <"Zoe", "Brown", 20>}'


@pytest.mark.parametrize("decl, want", [
    # key `last`: Adams (50), Brown (20), Smith (30); by the whole tuple it would be Ann, Bob, Zoe
    ('tuple P { string first; key string last; int age; }\nsorted {P} S = %s;' % PEOPLE, [50, 20, 30]),
    ('tuple P { string first; key string last; int age; }\nreversed {P} S = %s;' % PEOPLE, [30, 20, 50]),
    ('tuple P { string first; string last; int age; }\nsorted {P} S = %s;' % PEOPLE, [30, 50, 20]),
    # two keys, `b` declared before `a`: (b, a) = (1, 5), (2, 0), (2, 3); ages 10, 30, 20
    ('tuple P { int age; key int b; key int a; }\nsorted {P} S = {<20, 2, 3>, <10, 1, 5>, <30, 2, 0>};',
     [10, 30, 20]),
])
def test_sorted_tuple_set_with_keys_sorts_by_the_keys(decl, want):
    for k, age in enumerate(want):
        assert opt(pick(decl, "item(S, %d).age" % k)) == age


def test_next_past_the_end_is_an_error_and_nextc_wraps():
    assert "OPL0307" in codes(pick("{int} S = {1, 2, 3};", "next(S, 3)"))
    assert "OPL0307" in codes(pick("{int} S = {1, 2, 3};", "prev(S, 1)"))
    assert opt(pick("{int} S = {1, 2, 3};", "nextc(S, 3)")) == 1


def test_item_outside_the_set_is_an_error():
    assert "OPL0309" in codes(pick("{int} S = {1, 2, 3};", "item(S, 3)"))


# ---------------------------------------------------------------- set operators
@pytest.mark.parametrize("expr, want", [
    ("card(A union B)", 5),        # {1,2,3,4,5}
    ("card(A inter B)", 1),        # {3}
    ("card(A diff B)", 2),         # {1,2}
    ("card(A symdiff B)", 4),      # {1,2,4,5}
    ("sum(i in A diff B) i", 3),
    ("sum(i in A : i not in B) i", 3),
    ("sum(i in A : i in B) i", 3),
    ("card(asSet(1..4))", 4),
    ("card({i * j | i in A, j in B : i < j})", 8),  # 3,4,5 6,8,10 12,15 (3*3 excluded)
])
def test_set_operators(expr, want):
    decl = "{int} A = {1, 2, 3}; {int} B = {3, 4, 5};"
    assert opt(pick(decl, expr)) == want


def test_setof_declaration_and_float_and_string_sets():
    m = """setof(int) S = {i | i in 1..10 : i mod 3 == 0};
    {float} F = {0.5, 1.25};
    {string} T = {"a b", "c_d", "e.f", "9z"};
    dvar float x;
    minimize x;
    subject to { x >= sum(s in S) s + sum(f in F) f + card(T); }"""
    assert opt(m) == pytest.approx(18 + 1.75 + 4)  # 3+6+9, 0.5+1.25, four strings


# ---------------------------------------------------------------- ranges
@pytest.mark.parametrize("decl, want", [
    ("range R = 0..4;", 0 + 1 + 2 + 3 + 4),
    ("range R = -2..1;", -2),
    ("range R = 5..4;", 0),      # empty: the sum is 0
    ("range R = 3..3;", 3),
])
def test_ranges_including_empty_and_negative(decl, want):
    assert opt(pick(decl, "sum(r in R) r")) == want


def test_empty_range_as_index_set_gives_no_variables():
    m = "range R = 1..0;\ndvar float+ x[R];\ndvar float+ y;\nminimize y + sum(r in R) x[r];\nsubject to { y >= 2; }"
    assert opt(m) == 2


def test_int_set_starting_at_zero_and_non_contiguous_index_positional_data():
    # positional data follow the set's order: c[0] = 7, c[4] = 1, c[10] = 3
    m = """{int} S = ...; float c[S] = ...;
    dvar float+ x[S];
    minimize sum(s in S) c[s] * x[s];
    subject to { x[0] >= 1; x[10] >= 2; x[4] >= 3; }"""
    assert opt(m, "S = {0, 4, 10}; c = [7, 1, 3];") == 7 * 1 + 3 * 2 + 1 * 3


def test_non_contiguous_ints_in_a_range_index_are_refused():
    m = "float c[1..3] = [1, 2, 3];\ndvar float x;\nminimize x;\nsubject to { x >= c[4]; }"
    assert "OPL0301" in codes(m)


# ---------------------------------------------------------------- strings and names
def test_strings_with_underscore_dot_space_and_digits_are_distinct_keys():
    m = """{string} A = {"a", "a_b"};
    {string} B = {"b_c", "c"};
    float w[A][B] = [[1, 2], [4, 8]];
    dvar float x;
    minimize x;
    subject to { x >= w["a"]["b_c"] + 10 * w["a_b"]["c"]; }"""
    assert opt(m) == 1 + 10 * 8  # "a"+"b_c" and "a_b"+"c" are different elements


def test_strings_with_spaces_and_dots_in_data():
    m = "{string} S = ...; float c[S] = ...;\ndvar float x;\nminimize x;\nsubject to { x >= c[\"New York\"] + c[\"v1.2\"]; }"
    assert opt(m, 'S = {"New York", "v1.2", "007"}; c = [5, 7, 11];') == 12


@pytest.mark.parametrize("name", ["time", "model", "sum", "len", "gp", "h", "solve", "np", "print", "self"])
def test_names_that_collide_with_python_or_solver_names(name):
    m = "int %s = 4;\ndvar float+ y[1..%s];\nminimize sum(i in 1..%s) y[i];\nsubject to { forall(i in 1..%s) y[i] >= i; }" % (
        name, name, name, name)
    assert opt(m) == 1 + 2 + 3 + 4


def test_dvar_named_like_python_builtins_reports_by_name():
    m = "dvar float+ len; dvar float+ time;\nminimize len + 2 * time;\nsubject to { len + time >= 3; }"
    r = pyopl.compile_model(m).solve()
    assert r.objective == pytest.approx(3) and r["len"] == pytest.approx(3)


def test_string_concatenation_and_comparison_in_filters():
    m = """{string} S = {"ab", "b", "abc"};
    dvar float x;
    minimize x;
    subject to { x >= sum(s in S : s + "!" == "ab!" || s > "abz") 1; }"""
    assert opt(m) == 2  # "ab" by concatenation, "b" > "abz"


def test_membership_in_conditions_and_filters():
    m = """{int} S = {2, 4};
    dvar float x;
    minimize x;
    subject to { x >= sum(i in 1..5 : i in S && !(i not in S)) i + (3 in S ? 100 : 1); }"""
    assert opt(m) == 2 + 4 + 1


def test_a_string_index_outside_its_set_suggests_quoted_values():
    """Before: `"c" is not in the index set {"a", "b"}` with help `did you mean `a` or `b`?`, names
    where OPL writes string values: the help now quotes them as the model must."""
    ds = pyopl.check('{string} S = {"a", "b"};\ndvar float x[S] in 0..1;\nmaximize sum(s in S) x[s];\n'
                     'subject to { x["c"] <= 0.5; }')
    [d] = ds.errors
    assert d.code == "OPL0301" and (d.span.line, d.span.column) == (4, 16) and d.help == 'did you mean "a" or "b"?'
