"""Bounded work for any input (issue 14): every expansion has a budget ending in a diagnostic at the
expression, raised before the work is done; valid models are never refused for their shape (long flat
chains of `+` or `&&`), only true nesting has a limit."""
from __future__ import annotations

import pytest

import pyopl

SOLVER = "highs"


def errors(model: str, data=None, **kw) -> list:
    return [d for d in pyopl.check(model, data, **kw) if d.is_error]


def only_error(model: str, data=None, **kw):
    errs = errors(model, data, **kw)
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


TAIL = "dvar float+ z;\nminimize z;\nsubject to { z >= 1; }\n"


# ---------------------------------------------------------------- 1. work budget
def test_sum_over_product_of_huge_ranges_is_refused_up_front():
    model = "range R = 1..100000;\nfloat s = sum(i in R, j in R) 1;\n" + TAIL
    d = only_error(model)
    assert d.code == "OPL1140"
    assert (d.line, d.column) == (2, 11)  # the `sum`
    assert "10,000,000,000" in d.message and "--max-work" in d.help


def test_forall_of_20000_squared_is_refused_before_building_rows():
    model = ("range R = 1..20000;\ndvar float+ x[R];\nminimize sum(i in R) x[i];\n"
             "subject to {\n  forall(i in R, j in R) x[i] + x[j] >= 1;\n}\n")
    d = only_error(model)
    assert d.code == "OPL1140" and (d.line, d.column) == (5, 3)
    assert "400,000,000" in d.message


@pytest.mark.parametrize("expr", ["{i + j | i in R, j in R}", "{i | i in R, j in R}",
                                  "[i + j | i in R, j in R]"])
def test_comprehensions_count_their_product(expr):
    model = "range R = 1..100000;\n{int} s = asSet(1..2);\nint a[1..2] = [1, 2];\nfloat u = card(%s);\n" % expr + TAIL
    errs = errors(model)
    assert [d.code for d in errs][:1] == ["OPL1140"], [(d.code, d.message) for d in errs]


def test_generic_array_counts_its_product():
    model = "range R = 1..100000;\nint a[i in R][j in R] = i + j;\n" + TAIL
    d = errors(model)[0]
    assert d.code in ("OPL1140", "OPL0604")  # MAX_ARRAY already refuses 10^10 elements


def test_filters_make_the_count_unknown_so_it_is_counted_as_it_goes():
    # the filter rejects every pair but is evaluated 10^10 times: still refused, from the prefix product
    model = "range R = 1..100000;\nint n = sum(i in R, j in R : i < 0) 1;\n" + TAIL
    assert only_error(model).code == "OPL1140"
    # a dependent domain: the product is not known up front; the count stops it
    model = "range R = 1..100000;\nint n = sum(i in R, j in 1..i) 1;\n" + TAIL
    d = only_error(model, limits=pyopl.Limits(max_work=2_000_000))
    assert d.code == "OPL1140" and (d.line, d.column) == (2, 9)


def test_nested_sums_count_together():
    model = ("range R = 1..3000;\ndvar float+ x[R];\nminimize sum(i in R) x[i];\n"
             "subject to {\n  forall(i in R) sum(j in R) x[j] >= i;\n}\n")
    assert only_error(model, limits=pyopl.Limits(max_work=1_000_000)).code == "OPL1140"


def test_the_budget_is_raised_by_an_api_option():
    model = "range R = 1..2000;\nint s = sum(i in R, j in R) 1;\ndvar float+ z;\nminimize z;\nsubject to { z >= s; }\n"
    assert only_error(model, limits=pyopl.Limits(max_work=1000)).code == "OPL1140"
    m = pyopl.compile_model(model, limits=pyopl.Limits(max_work=10_000_000))
    assert m.solve(solver=SOLVER).objective == pytest.approx(4_000_000)
    m = pyopl.compile_model(model)  # the default allows 4 million
    assert m.solve(solver=SOLVER).objective == pytest.approx(4_000_000)


def test_cli_flag_raises_the_budget(tmp_path, capsys):
    from pyopl.cli import main

    f = tmp_path / "m.mod"
    f.write_text("range R = 1..2000;\nint s = sum(i in R, j in R) 1;\n" + TAIL)
    assert main(["check", str(f), "--max-work", "1000"]) != 0
    assert "OPL1140" in capsys.readouterr().out
    assert main(["check", str(f), "--max-work", "100000000"]) == 0


def test_vectorised_sum_counts_too():
    model = ("range R = 1..100000;\ndvar float+ x[R][R];\nminimize sum(i in R, j in R) x[i][j];\n")
    d = errors(model)[0]
    assert d.code in ("OPL1140", "OPL0604")  # 10^10 columns are refused by MAX_COLUMNS first
    model = ("range R = 1..3000;\nfloat c[i in R] = i;\ndvar float+ x[R];\nminimize sum(i in R, j in R) c[j] * x[i];\n")
    assert only_error(model, limits=pyopl.Limits(max_work=1_000_000)).code == "OPL1140"


@pytest.mark.parametrize("expr, ctx", [("2^100000000", "int"), ("3^100000000", "int"), ("10^400", "float"),
                                       ("pow(10, 400)", "float"), ("7^(2.0^40)", "float")])
def test_huge_powers_are_diagnostics_before_computing(expr, ctx):
    d = only_error("%s p = %s;\n" % (ctx, expr) + TAIL)
    # an int power is first out of OPL's 32-bit range (OPL1102), a float one out of double range
    assert d.code in ("OPL0425", "OPL0428", "OPL1102"), (d.code, d.message)
    assert "18446744073709551616" not in d.message  # never a made-up value
    assert (d.line, d.column) == (1, len(ctx) + 6)


def test_small_powers_are_exact():
    m = pyopl.compile_model("int p = 2^30;\nfloat q = 2^-2;\nfloat r = 10.0^300;\ndvar float+ z;\nminimize z;\n"
                            "subject to { z >= p + q + r / 1e300; }\n")
    assert m.solve(solver=SOLVER).objective == pytest.approx(2 ** 30 + 0.25 + 1)


def test_asset_of_a_huge_range_is_refused():
    d = only_error("{int} s = asSet(1..1000000000);\n" + TAIL)
    assert d.code == "OPL1140" and (d.line, d.column) == (1, 11)


def test_megabyte_string_literals_are_refused_at_the_literal():
    text = 'string s = "%s";\n' % ("a" * 2_000_000) + TAIL
    d = only_error(text)
    assert d.code == "OPL1142" and (d.line, d.column) == (1, 12)
    # and a string grown by concatenation in a loop
    d = only_error('string a = "%s";\nstring b[i in 1..1000] = a + a;\n' % ("b" * 600_000) + TAIL)
    assert d.code == "OPL1142"


def test_did_you_mean_on_very_long_names_is_bounded():
    long = "v" * 200_000
    text = "float %s = 1;\nfloat y = %sw;\n" % (long, long) + TAIL
    d = only_error(text)
    assert d.code == "OPL0101" or "not declared" in d.message


# ---------------------------------------------------------------- 2. shape is not nesting
def _chain(fmt: str, n: int, sep: str) -> str:
    return sep.join(fmt % k for k in range(1, n + 1))


def test_5000_term_sum_in_data():
    model = "int s = %s;\nfloat f = %s;\ndvar float+ z;\nminimize z;\nsubject to { z >= s + f; }\n" % (
        _chain("%d", 5000, " + "), _chain("%d", 5000, " - "))
    want = 5000 * 5001 // 2 + (1 - (5000 * 5001 // 2 - 1))
    assert pyopl.compile_model(model).solve(solver=SOLVER).objective == pytest.approx(want)


def test_5000_term_constraint_and_objective():
    n = 5000
    objective = " + ".join("%d * x[%d]" % (k, k) for k in range(1, n + 1))
    model = "dvar float+ x[1..%d];\nminimize %s;\nsubject to {\n  c: %s >= 7;\n  x[1] <= 3;\n}\n" % (
        n, objective, _chain("x[%d]", n, " + "))
    res = pyopl.compile_model(model).solve(solver=SOLVER)
    assert res.objective == pytest.approx(3 * 1 + 4 * 2)  # x[1] = 3, x[2] = 4


def test_1000_and_in_data_and_in_a_constraint():
    conds = _chain("%d < 1001", 1000, " && ")
    model = ("int t = (%s) ? 5 : 6;\nint u = (%s && 1 > 2) ? 5 : 6;\nint v = (%s || 1 > 2) ? 5 : 6;\n"
             "dvar float+ x[1..1000];\nminimize sum(k in 1..1000) x[k] + 100 * (t + u + v);\n"
             "subject to {\n  %s;\n}\n") % (conds, conds, _chain("%d > 1000", 1000, " || "),
                                           " && ".join("x[%d] >= %d" % (k, k) for k in range(1, 1001)))
    res = pyopl.compile_model(model).solve(solver=SOLVER)
    assert res.objective == pytest.approx(1000 * 1001 / 2 + 100 * (5 + 6 + 6))


def test_1000_or_in_a_constraint():
    model = "dvar boolean b[1..1000];\nminimize sum(k in 1..1000) k * b[k];\nsubject to {\n  %s;\n}\n" % (
        " || ".join("b[%d] == 1" % k for k in range(1, 1001)))
    assert pyopl.compile_model(model).solve(solver=SOLVER).objective == pytest.approx(1)


def test_moderate_true_nesting_compiles():
    depth = 60
    expr = "(1 + " * depth + "1" + ")" * depth
    model = "int s = %s;\ndvar float+ z;\nminimize z;\nsubject to { z >= s; }\n" % expr
    assert pyopl.compile_model(model).solve(solver=SOLVER).objective == pytest.approx(depth + 1)


def test_redundant_parentheses_and_signs_are_not_nesting():
    model = "float s = %s;\nfloat t = %s;\ndvar float+ z;\nminimize z;\nsubject to { z >= s + t; }\n" % (
        "(" * 3000 + "2" + ")" * 3000, "-" * 3001 + "1")
    assert pyopl.compile_model(model).solve(solver=SOLVER).objective == pytest.approx(1)


@pytest.mark.parametrize("expr", ["(1 + " * 1000 + "1" + ")" * 1000, "abs(" * 1000 + "1" + ")" * 1000,
                                  "x[" * 1000 + "1" + "]" * 1000, "abs(" * 101 + "1" + ")" * 101,
                                  "(1 ? " * 500 + "1" + " : 2)" * 500],
                         ids=["parenthesised-right-operands", "calls", "indexing", "just-past-the-limit", "conditionals"])
def test_deep_nesting_is_a_limit_diagnostic_not_an_internal_error(expr):
    d = only_error("int x[1..2] = [1, 1];\nfloat s = %s;\n" % expr + TAIL)
    assert d.code == "OPL1141", (d.code, d.message)
    assert d.line == 2


def test_deep_nesting_in_data_file_is_bounded():
    data = "a = " + "[" * 3000 + "1" + "]" * 3000 + ";"
    errs = errors("int a = ...;\n" + TAIL, data)
    assert [d.code for d in errs][:1] == ["OPL1141"], [(d.code, d.message) for d in errs]
    assert errs[0].file == "<data>" or errs[0].line == 1
