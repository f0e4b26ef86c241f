"""OPL elements seen from IBM ILOG Script: iteration, set and tuple methods, display formats,
Opl.* functions, type rules on assignment (expected output written by hand)."""
from __future__ import annotations

import pytest

import pyopl

MODEL_TAIL = "\ndvar float+ z in 0..1;\nmaximize z;\n"


def out(text: str) -> str:
    return pyopl.compile_model(text + MODEL_TAIL).solve().script_output


def test_for_in_over_a_tuple_set_gives_the_tuples():
    text = """
tuple Arc { string o; string d; float cost; }
{Arc} Arcs = {<"a", "b", 2>, <"b", "c", 3.5>};
execute {
  for (var a in Arcs) writeln(a.o, "->", a.d, " ", a.cost, " ", a);
  var t = Arcs.first();
  writeln(t["cost"], " ", t.getFieldName(1), " ", Arcs.size);
}
"""
    assert out(text).splitlines() == ['a->b 2 <"a" "b" 2>', 'b->c 3.5 <"b" "c" 3.5>', "2 d 2"]


def test_for_in_over_an_array_gives_its_indices():
    text = """
{string} C = {"x", "y"};
int a[C] = [4, 5];
execute { var s = ""; for (var k in a) s = s + k + "=" + a[k] + ";"; writeln(s); }
"""
    assert out(text) == "x=4;y=5;\n"


def test_display_of_arrays_sets_tuples_and_ranges():
    text = """
tuple P { int id; string name; }
{P} ps = {<1, "a">, <2, "b">};
{string} S = {"a", "b"};
{int} I = {3, 1};
range R = 2..5;
float m[1..2][1..3] = [[1, 2.5, 3], [4, 5, 6]];
execute { writeln(ps); writeln(S); writeln(I); writeln(R); writeln(m); writeln(m[2]); writeln(ps.first()); }
"""
    assert out(text).splitlines() == ['{<1 "a"> <2 "b">}', '{"a" "b"}', "{3 1}", "2..5",
                                      "[[1 2.5 3] [4 5 6]]", "[4 5 6]", '<1 "a">']


def test_set_navigation_and_membership():
    text = """
{string} S = {"a", "b", "c"};
execute {
  writeln(S.first(), S.last(), S.next("a"), S.prev("c"), S.nextc("c"), S.prevc("a"));
  writeln(S.contains("b"), " ", S.contains("z"));
  writeln(Opl.card(S), " ", Opl.ord(S, "c"), " ", Opl.item(S, 1), " ", Opl.first(S), " ", Opl.next(S, "b"));
}
"""
    assert out(text).splitlines() == ["acbbac", "true false", "3 2 b a c"]


def test_next_past_the_end_is_an_error_naming_the_set():
    text = '{string} S = {"a", "b"};\nexecute { writeln(S.next("b")); }' + MODEL_TAIL
    diags = pyopl.check(text)
    d = [d for d in diags if d.code == "OPL1052"][0]
    assert "`next(\"b\")` goes past the end of `S`" in d.message and d.line == 2


def test_add_to_a_set_and_find_by_key():
    text = """
tuple T { key string id; int v; }
{T} Ts = {<"p", 1>, <"q", 2>};
{int} Extra = {};
execute {
  Extra.add(4); Extra.add(2); Extra.add(4);
  writeln(Extra, " ", Extra.size);
  writeln(Ts.find("q").v, " ", Ts.find("zz"));
  Ts.add("r", 7);
  writeln(Ts);
}
"""
    assert out(text).splitlines() == ["{4 2} 2", "2 null", '{<"p" 1> <"q" 2> <"r" 7>}']


def test_add_keeps_a_sorted_or_reversed_set_in_its_order():
    """OPL keeps a `sorted`/`reversed` set ordered when a script adds to it (pyopl appended), so
    `ord`, `first`, `last` and the model built after the script see the order; a plain set appends."""
    text = """
sorted {int} S = {3, 1};
reversed {string} R = {"b", "d"};
tuple P { int a; string b; }
sorted {P} Ps = {<2, "x">, <1, "y">};
{int} U = {5, 1};
execute {
  S.add(2); S.add(0); S.add(4); S.add(2);
  R.add("c"); R.add("a"); R.add("e");
  Ps.add(1, "a");
  U.add(3);
  writeln(S, R, Ps, U);  // IBM puts a space before a set that follows another argument
  writeln(S.first(), " ", S.last(), " ", S.next(1), " ", S.prev(3));
}
"""
    assert out(text).splitlines() == ['{0 1 2 3 4} {"e" "d" "c" "b" "a"} {<1 "a"> <1 "y"> <2 "x">} {5 1 3}', "0 4 2 2"]
    model = "sorted {int} S = {3, 1};\nexecute { S.add(2); S.add(0); }\ndvar float x[S];\n" \
            "minimize sum(i in S) x[i];\nsubject to { forall(i in S) x[i] >= ord(S, i); }\n"
    r = pyopl.compile_model(model).solve()
    assert {k[0]: v for k, v in r["x"].items()} == {0: 0.0, 1: 1.0, 2: 2.0, 3: 3.0}


def test_opl_functions():
    text = """
execute {
  writeln(Opl.abs(-2.5), " ", Opl.ceil(1.2), " ", Opl.floor(-1.5), " ", Opl.round(2.5), " ", Opl.maxint);
  var r = Opl.rand(10);
  writeln(r >= 0 && r < 10 && r == Opl.floor(r));
}
"""
    assert out(text).splitlines() == ["2.5 2 -2 3 2147483647", "true"]


def test_int_plus_refuses_a_negative_value_with_the_item_named():
    text = "int+ a[1..2];\nexecute {\n  a[2] = -3;\n}" + MODEL_TAIL
    d = [d for d in pyopl.check(text) if d.code == "OPL1054"][0]
    assert (d.line, d.column) == (3, 3)
    assert d.message == "`a[2]` is declared `int+`, so it cannot take the negative value -3"


def test_fraction_into_int_is_an_error_not_a_truncation():
    text = "int n = 1;\nexecute { n = 2.5; }" + MODEL_TAIL
    d = [d for d in pyopl.check(text) if d.code == "OPL1055"][0]
    assert "`n` is an integer, so it cannot take 2.5" in d.message


@pytest.mark.parametrize("stmt,shown", [
    ("n = 1e10;", "`n` is an OPL `int` (32-bit), so it cannot take 10000000000"),
    ("a[2] = 2147483648;", "`a[2]` is an OPL `int` (32-bit), so it cannot take 2147483648"),
    ("n = -2147483649;", "`n` is an OPL `int` (32-bit), so it cannot take -2147483649"),
])
def test_an_int_outside_32_bits_is_refused_at_the_assignment(stmt, shown):
    # OPL's int is 32-bit (maxint = 2147483647): a script must not store a larger number silently
    text = "int n = 1;\nint a[1..2];\nexecute {\n  " + stmt + "\n}" + MODEL_TAIL
    d = [d for d in pyopl.check(text) if d.code == "OPL1055"][0]
    assert (d.line, d.column, d.message) == (4, 3, shown)


def test_opl_round_is_exact_above_two_to_the_52():
    assert out("execute { writeln(Opl.round(4503599627370497), ' ', Opl.round(2.5)); }") == "4503599627370497 3\n"


@pytest.mark.parametrize("cons,read,label", [
    ("c: z <= infinity;", "c.dual", "c"),                          # always holds: left out of the problem
    ("forall(i in 1..0) ce[i]: z <= i;", "ce[1].slack", "ce"),    # its forall ranges over nothing
])
def test_a_declared_constraint_without_a_row_is_named_not_undefined(cons, read, label):
    # before: "`c` is not defined" (OPL1001) for a constraint the model declares
    text = "subject to { " + cons + " }\nexecute { writeln(" + read + "); }\n"
    r = pyopl.compile_model(MODEL_TAIL + text).solve()
    d = [d for d in r.diagnostics if d.is_error]
    assert [x.code for x in d] == ["OPL1251"]
    assert d[0].message.startswith("the constraint `%s` generated no row" % label) and d[0].line == 5


def test_int_extremes_are_kept():
    text = "int n = 1;\nexecute { n = -2147483648; writeln(n); n = 2147483647; writeln(n); }"
    assert out(text) == "-2147483648\n2147483647\n"


@pytest.mark.parametrize("stmt,words", [
    ("R = 4;", "`R` is a range and cannot be assigned as a whole"),
    ("S = 4;", "`S` is a set and cannot be assigned as a whole"),
    ("x = 1;", "`x` is a decision variable and cannot be assigned as a whole"),
    ("R.UB = 4;", "the range `R` cannot be changed by a script"),
    ("ps.first().id = 3;", "`P.id` is a key field"),
])
def test_forbidden_assignments(stmt, words):
    text = ("tuple P { key int id; }\n{P} ps = {<1>};\nrange R = 1..3;\n{int} S = {1};\ndvar float x;\n"
            "execute { %s }\nminimize x;\nsubject to { x >= 0; }\n" % stmt)
    d = [d for d in pyopl.check(text) if d.code == "OPL1053"]
    assert d and words in d[0].message and d[0].line == 6


def test_unknown_model_name_suggests_the_near_miss():
    text = "float capacity = 3;\nexecute { writeln(capacty); }" + MODEL_TAIL
    d = [d for d in pyopl.check(text) if d.is_error][0]
    assert "`capacty` is not defined" in d.message and "capacity" in d.help
    assert (d.line, d.column) == (2, 19)


def test_missing_method_names_the_host_type_and_what_it_has():
    text = '{string} S = {"a"};\nexecute { S.frist(); }' + MODEL_TAIL
    d = [d for d in pyopl.check(text) if d.is_error][0]
    assert d.message == "`{string}` has no member `frist`" and "first" in d.help


def test_writeln_puts_a_space_before_a_set_after_another_argument():
    # IBM's "Sorted and ordered sets" page prints exactly these two lines (two spaces after `=`:
    # the string's own and the one writeln puts before a set); a range gets none
    text = """{int} s1 = {3,5,1};
{int} s2 = {4,2};
{int} orderedS = s1 union s2;
sorted {int} sortedS = s1 union s2;
range r = 1..3;
execute {
  writeln("ordered union = ", orderedS);
  writeln("sorted union = ", sortedS);
  writeln(r, s2, 7);
}
"""
    assert out(text).splitlines() == ["ordered union =  {3 5 1 4 2}", "sorted union =  {1 2 3 4 5}", "1..3 {4 2}7"]


@pytest.mark.parametrize("head", ["", "using CP;\n"])
def test_a_decision_indexes_an_array_by_its_value_after_the_solve(head):
    # issue 45: `cost[x]` failed with "index 3 is outside the index set (0..3)" (the variable, not its
    # value, was the key). x = 3 at the optimum (by hand), so cost[x] = 40, cost[x - 1] = 30.
    text = head + """range r = 0..3;
int cost[r] = [10, 20, 30, 40];
dvar int x in 0..3;
maximize x;
subject to { x <= 3; }
execute { writeln(cost[x], " ", cost[x - 1], " ", cost[x.solutionValue]); }
"""
    r = pyopl.solve(text)
    assert r.status == "optimal" and r.script_output == "40 30 40\n"
