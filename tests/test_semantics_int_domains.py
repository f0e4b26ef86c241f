"""`int+`/`float+` data are never negative, and OPL's `int` is 32-bit (`maxint` = 2**31 - 1).

A negative value for unsigned data is OPL1100, naming the element and its index at the place
the value is written; integer data beyond 32 bits is OPL1101; `int` arithmetic beyond 32 bits
is OPL1102, naming the expression.  Each case would otherwise give a silently different number.
"""
from __future__ import annotations

import pytest

import pyopl

USE = "\ndvar float z;\nminimize z;\nsubject to { z >= %s; }"


def errors(model: str, data=None) -> list:
    return [d for d in pyopl.check(model, data) if d.is_error]


def one_error(model: str, data=None):
    errs = errors(model, data)
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


def value(model: str, data=None) -> float:
    assert not errors(model, data), [(d.code, d.message) for d in errors(model, data)]
    return pyopl.compile_model(model, data).solve().objective


# ---------------------------------------------------------------- int+ / float+
CAP = '{string} Cities = ...;\nint+ cap[Cities] = ...;' + USE % 'cap["Paris"]'


def test_negative_unsigned_from_dat_names_element_and_index_at_the_data_line():
    d = one_error(CAP, 'Cities = {"Paris", "Lyon"};\n\ncap = [4, -3];')
    assert d.code == "OPL1100"
    assert '`cap["Lyon"]` is -3' in d.message and "`int+`" in d.message
    assert (d.span.line, d.span.column) == (3, 7)  # the value in the data file


def test_negative_unsigned_from_keyed_dat_and_from_a_python_dict():
    d = one_error(CAP, 'Cities = {"Paris", "Lyon"};\ncap = #["Paris": 4, "Lyon": -3]#;')
    assert d.code == "OPL1100" and '`cap["Lyon"]` is -3' in d.message
    d = one_error(CAP, {"Cities": ["Paris", "Lyon"], "cap": {"Paris": -4, "Lyon": 3}})
    assert d.code == "OPL1100" and '`cap["Paris"]` is -4' in d.message


@pytest.mark.parametrize("decl, what", [
    ("int+ n = -1;", "`n` is -1"),
    ("float+ f = 0.5 - 1;", "`f` is -0.5"),
    ("float+ g[i in 1..3] = 2 - i;", "`g[3]` is -1"),           # a generic array: 1, 0, -1
    ("int+ h[1..2][1..2] = [[1, 2], [3, -4]];", "`h[2][2]` is -4"),
    ("{int+} S = {1, -2};", "`S` holds -2"),
])
def test_negative_unsigned_from_initializers(decl, what):
    d = one_error(decl + USE % "1")
    assert d.code == "OPL1100" and what in d.message, d.message
    assert d.span.line == 1


def test_unsigned_accepts_zero_and_positive_values():
    model = "int+ a[1..3] = [0, 1, 2];\nfloat+ b = 0.0;\nint+ g[i in 1..3] = 3 - i;" + USE % "a[3] + g[1] + b"
    assert value(model) == 4  # 2 + 2 + 0


# ---------------------------------------------------------------- 32-bit int
def test_maxint_is_2_to_the_31_minus_1():
    assert value("int m = maxint;" + USE % "m") == 2147483647
    assert value("int m = -maxint - 1;" + USE % "m") == -2147483648  # the smallest int fits


@pytest.mark.parametrize("data", ["n = 2147483648;", "n = -2147483649;"])
def test_int_data_outside_32_bits_is_refused_at_the_data_line(data):
    d = one_error("int n = ...;" + USE % "n", "\n" + data)
    assert d.code == "OPL1101" and data[4:-1] in d.message
    assert d.span.line == 2  # the data item


def test_int_array_and_set_data_outside_32_bits():
    d = one_error("int a[1..2] = ...;" + USE % "a[1]", "a = [1, 3000000000];")
    assert d.code == "OPL1101" and "`a[2]` is 3000000000" in d.message
    d = one_error("{int} S = ...;" + USE % "card(S)", "S = {1, 2147483648};")
    assert d.code == "OPL1101"
    assert value("float a[1..2] = ...;" + USE % "a[2]", "a = [1, 3000000000];") == 3e9  # float data may


@pytest.mark.parametrize("data,shown", [
    ("a = [1, %s];" % ("9" * 5000), "`a[2]` is 999999...000 (more than 400 digits),"),  # (kept as a magnitude)
    ("a = [1, -%s];" % ("7" * 30), "`a[2]` is -777777...777 (30 digits),"),
    ("a = [1, %s];" % ("1" + "0" * 23), "`a[2]` is 100000000000000000000000,"),  # 24 digits: shown whole
])
def test_a_long_int_out_of_range_is_shortened_in_the_message(data, shown):
    d = one_error("int a[1..2] = ...;" + USE % "a[1]", data)
    assert d.code == "OPL1101" and d.message.startswith(shown) and len(d.message) < 200, d.message


@pytest.mark.parametrize("expr, text", [
    ("maxint + 1", "`maxint + 1` is 2147483648"),
    ("100000 * 100000", "`100000 * 100000` is 10000000000"),
    ("-maxint - 2", "is -2147483649"),
    ("2 ^ 31", "`2 ^ 31` is 2147483648"),
    ("3 ^ 100", "`3 ^ 100`"),                       # not computed, refused at once
    ("abs(-maxint - 1)", "is 2147483648"),
    ("-(-maxint - 1)", "is 2147483648"),
    ("(-maxint - 1) div -1", "is 2147483648"),
    ("int(3e9)", "`int(3000000000.0)` is 3000000000"),
    ("ftoi(3e9)", "is 3000000000"),
    ("sum(i in 1..100000) i", "this `sum` reaches 5000050000"),
    # checked as it accumulates: 12! fits, 13! = 6227020800 does not (20! would mislead as "is")
    ("prod(i in 1..20) i", "this `prod` reaches 6227020800,"),
])
def test_int_arithmetic_outside_32_bits_is_refused_naming_the_expression(expr, text):
    for typ in ("int", "float"):  # int with int is int arithmetic, whatever receives it
        d = one_error("%s v = %s;" % (typ, expr) + USE % "v")
        assert d.code == "OPL1102" and text in d.message, d.message


def test_int_overflow_in_generic_array_and_in_a_constraint_coefficient():
    d = one_error("int a[i in 1..3] = i * 1000000000;" + USE % "a[1]")
    assert d.code == "OPL1102" and "`i * 1000000000` is 3000000000" in d.message
    # two ints multiplied inside a constraint are still int arithmetic (the fast sum path falls back)
    model = "int c[1..3] = [1, 2, 3];\ndvar float x[1..3] in 0..1;\nminimize sum(i in 1..3) c[i] * 1000000000 * x[i];"
    d = one_error(model)
    assert d.code == "OPL1102" and "`c[i] * 1000000000` is 3000000000" in d.message


def test_float_arithmetic_and_decision_coefficients_are_not_limited():
    assert value("float v = 100000.0 * 100000;" + USE % "v") == 1e10
    assert value("float v = maxint + 1.0;" + USE % "v") == 2147483648
    assert value("int v = sum(i in 1..65535) i;" + USE % "v") == 2147450880  # 65535*65536/2 fits
    # a coefficient times a decision is a float (CPLEX's doubles): 3e9 * x, x in 1..2, minimised
    model = "dvar float x in 1..2;\nminimize 3000000000.0 * x;"
    assert value(model) == 3e9



@pytest.mark.parametrize("model, data, code, text", [
    ('tuple arc { string o; int+ cap; float c; }\n{arc} A = ...;', 'A = {<"a", 3, -1>, <"b", -2, 1>};',
     "OPL1100", '`A` holds <"b", -2, 1>, whose field `cap` is -2, but `arc.cap` is declared `int+`'),
    ('tuple arc { string o; float+ cap; }\narc a[1..2] = ...;', 'a = [<"x", 1>, <"y", -1.5>];',
     "OPL1100", '`a[2]` is <"y", -1.5>, whose field `cap` is -1.5'),
    ('tuple in2 { int+ k; }\ntuple arc { string o; in2 i; }\n{arc} A = ...;', 'A = {<"x", <1>>, <"y", <-1>>};',
     "OPL1100", "`in2.k` is declared `int+`"),
    ('tuple arc { string o; int cap; }\n{arc} A = ...;', 'A = {<"a", 3000000000>};',
     "OPL1101", "whose field `cap` is 3000000000"),
])
def test_tuple_fields_unsigned_and_32_bit(model, data, code, text):
    d = one_error(model + USE % "1", data)
    assert d.code == code and text in d.message, d.message
    assert d.span.line == 1  # the data item


def test_tuple_fields_that_fit_are_accepted():
    model = 'tuple arc { string o; int+ cap; float c; }\n{arc} A = ...;' + USE % "sum(a in A) a.cap"
    assert value(model, 'A = {<"a", 3, -1>, <"b", 0, 1>};') == 3  # a float field may be negative


def test_the_diagnostic_points_at_the_row_or_tuple_in_the_data():
    d = one_error("int+ a[1..2][1..3] = ...;" + USE % "1", "a = [[1, 2, 3],\n     [4, -5, 6]];")
    assert "`a[2][2]` is -5" in d.message and (d.span.line, d.span.column) == (2, 6)  # the row `[4, -5, 6]`
    d = one_error('tuple arc { string o; int+ cap; }\n{arc} A = ...;' + USE % "1", 'A = {<"a", 3>,\n  <"b", -2>};')
    assert d.code == "OPL1100" and (d.span.line, d.span.column) == (2, 3)  # the tuple `<"b", -2>`


@pytest.mark.parametrize("body", [
    "minimize sum(i in 1..500) c[i] * 5000000 * x[i];",                             # the NumPy sum path
    "minimize sum(i in 1..500) x[i];\nsubject to { forall(i in 1..500) c[i] * 5000000 * x[i] >= 0; }",  # rows path
])
def test_fast_paths_report_the_first_int_overflow_as_the_term_by_term_path(body):
    # 430 * 5000000 = 2150000000 is the first product past maxint
    d = one_error("int c[i in 1..500] = i;\ndvar float x[1..500] in 0..1;\n" + body)
    assert d.code == "OPL1102" and "`c[i] * 5000000` is 2150000000" in d.message


# IBM's language reference gives `round`, `floor` and `ceil` the type float ("type: float" on each
# function's page), so `int i = round(4.7);` is a semantic error there; `ftoi(round(4.7))` is 5 by hand.
@pytest.mark.parametrize("decl, col, func", [
    ("int i = round(4.7);", 9, "round"),
    ("int i = 1 + floor(4.7);", 13, "floor"),
    ("int+ i = ceil(4.2);", 10, "ceil"),
    ("int a[1..2] = [3, round(1.2)];", 19, "round"),
    ("int a[j in 1..2] = j > 1 ? 1 : ceil(j / 2);", 32, "ceil"),
])
def test_int_declared_from_a_float_function_is_opl0223(decl, col, func):
    e = one_error(decl + USE % "1")
    assert (e.code, e.line, e.column) == ("OPL0223", 1, col) and "`%s(...)` returns a float" % func in e.message


def test_ftoi_of_round_and_float_declarations_are_accepted():
    assert pyopl.solve("int i = ftoi(round(4.7));" + USE % "i").objective == 5
    assert pyopl.solve("float f = round(4.7) + ceil(0.2);" + USE % "f").objective == 6
