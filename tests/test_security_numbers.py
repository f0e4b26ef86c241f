"""Issue 33, class 4: numbers that silently change meaning are errors at the value.

A NaN in a decision variable's domain used to be dropped (``max(lo0, nan)`` is ``lo0``), leaving
the variable unbounded on that side; a literal beyond the double range written with an exponent
(``1e309``) used to become infinity, so a capacity of ``1e309`` was no bound. Both are errors where
the value is written, in the model and in the data, whichever reader takes the text.
"""
from __future__ import annotations

import math

import pytest

import pyopl

_TAIL = "\nmaximize x;\nsubject to { x <= 10; }\n"


def _errors(model, data=None):
    diags = pyopl.check(model, data) if data is not None else pyopl.check(model)
    return [(d.code, d.line, d.column) for d in diags.errors], diags


@pytest.mark.parametrize("nan", ["infinity - infinity", "0 * infinity", "-infinity + infinity"])
def test_a_nan_dvar_bound_is_an_error_at_the_bound(nan):
    model = "float g = %s;\ndvar float x in g..g;" % nan + _TAIL
    errs, diags = _errors(model)
    # the lower end (line 2, column 17) is reported; nothing solves
    assert errs == [("OPL0431", 2, 17)], diags.render()
    assert "NaN" in diags.errors[0].message and "`x`" in diags.errors[0].message


def test_a_nan_upper_bound_of_one_element_names_the_element():
    model = ("float g[i in 1..3] = i == 2 ? infinity - infinity : i;\n"
             "dvar float x[i in 1..3] in 0..g[i];\n"
             "maximize sum(i in 1..3) x[i];\nsubject to { sum(i in 1..3) x[i] <= 10; }\n")
    errs, diags = _errors(model)
    assert errs == [("OPL0431", 2, 31)], diags.render()
    assert "upper bound" in diags.errors[0].message and "i = 2" in diags.errors[0].message


def test_a_nan_bound_from_python_data_and_from_a_script_is_an_error():
    # the array path (bounds of many elements evaluated at once) and the scalar path
    model = "float g[1..4] = ...;\ndvar float x[i in 1..4] in g[i]..10;\nmaximize sum(i in 1..4) x[i];\n" \
            "subject to { sum(i in 1..4) x[i] <= 100; }\n"
    # a NaN in Python data is refused at the data element it sits in (OPL0403 naming g[3]) ...
    errs, diags = _errors(model, {"g": [0, 1, math.nan, 3]})
    assert errs == [("OPL0403", 1, 1)] and "`g[3]`" in diags.errors[0].message, diags.render()
    # ... and one the model computes reaches the bound, which is refused there
    errs, diags = _errors("float g[i in 1..4] = (i == 3) ? infinity - infinity : i - 1;\n" + model.split("\n", 1)[1])
    assert errs == [("OPL0431", 2, 28)], diags.render()
    model = "float g = 1;\nexecute { g = Math.sqrt(-1); }\ndvar float x in 0..g;" + _TAIL
    errs, diags = _errors(model)
    assert errs == [("OPL1055", 2, 11)], diags.render()  # the script's assignment is refused, at `g`


def test_a_finite_or_infinite_bound_still_compiles():
    # control: infinity is a bound OPL allows (no bound); x = 10 is the optimum, from the row
    m = pyopl.compile_model("float g = infinity;\ndvar float x in -g..g;" + _TAIL)
    assert m.solve().objective == pytest.approx(10)


@pytest.mark.parametrize("lit", ["1e309", "1.8e308", "1e999999999", "1E+400", "1" + "0" * 400 + ".0"])
def test_a_literal_past_the_double_range_in_the_model_is_opl1128_at_the_literal(lit):
    model = "float cap = 5;\ndvar float x in 0..%s;\nmaximize x;\nsubject to { x <= cap; }\n" % lit
    errs, diags = _errors(model)
    assert errs == [("OPL1128", 2, 20)], diags.render()
    assert diags.errors[0].end_column - diags.errors[0].column == len(lit)


@pytest.mark.parametrize("value,column", [("1e309", 7), ("-1.8e308", 8), ("1e999999999", 7)])
def test_a_literal_past_the_double_range_in_the_data_is_opl1128_at_the_literal(value, column):
    errs, diags = _errors("float cap = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= cap; }\n",
                          "cap = %s;\n" % value)
    assert errs == [("OPL1128", 1, column)], diags.render()


@pytest.mark.parametrize("decl,data,line,column", [
    # numbers the bulk readers take (long rows, numeric tuple sets): still reported at the literal
    ("float R[1..2000] = ...;", "R = [%s];" % ", ".join(["1.5"] * 1999 + ["2e308"]), 1, 6 + 5 * 1999),
    ("tuple t {int i; float v;} {t} T = ...;",
     "T = {\n%s};" % "".join("<%d, %s>\n" % (i, "1e400" if i == 30 else "1.25") for i in range(60)), 32, 6),
], ids=["array", "tuples"])
def test_a_huge_literal_read_in_bulk_is_opl1128_at_the_literal(decl, data, line, column):
    errs, diags = _errors(decl + "\ndvar float x;\nminimize x;\nsubject to { x >= 0; }\n", data)
    assert errs == [("OPL1128", line, column)], diags.render()


def test_large_but_finite_literals_and_tiny_ones_are_kept():
    # 1.7e308 is a double (below DBL_MAX = 1.7976931348623157e308); 1e-400 reads as 0 as strtod gives it
    m = pyopl.compile_model("float a = ...;\nfloat b = 1e-400;\ndvar float x in 0..1;\nmaximize x;\n"
                            "subject to { x <= 1 + b; }\n", "a = 1.7e308;\n")
    assert m.solve().objective == pytest.approx(1)
    assert not pyopl.check("float a = 1.7976931348623157e308;\ndvar float x;\nminimize x;\n"
                           "subject to { x >= 0; }\n").errors


def test_a_nan_objective_coefficient_is_one_error_at_the_objective():
    # c[2] is NaN (computed in the model: Python data's NaN is refused at the element, OPL0403); the
    # objective's constant (NaN * 0) is not a second error
    model = ("float c[i in 1..2] = (i == 2) ? infinity - infinity : 1;\ndvar float x[1..2] in 0..1;\n"
             "maximize sum(i in 1..2) c[i] * x[i];\n")
    errs, diags = _errors(model)
    assert errs == [("OPL0431", 3, 10)], diags.render()
    assert "`x[2]`" in diags.errors[0].message and "nan" in diags.errors[0].message
    errs, _ = _errors("float g = infinity - infinity;\ndvar float x in 0..10;\nmaximize g * x;\n"
                      "subject to { x <= 5; }\n")
    assert errs == [("OPL0431", 3, 10)]


def test_an_infinite_quadratic_objective_coefficient_is_an_error_at_the_objective():
    # issue 42 (minor): `1e308 * x * x * 1e308` passed `check` (no diagnostic) and its solve ended in a
    # failed solution check; `infinity * x * x` was called a NaN linear coefficient
    import pyopl

    for text, term in (("dvar float x in 0..1;\nminimize 1e308 * x * x * 1e308;\n", "`x`^2"),
                       ("dvar float x in 0..1;\nminimize infinity * x * x + x;\n", "`x`^2"),
                       ("dvar float x in 0..1;\ndvar float y in 0..1;\nminimize x + (1e200*x) * (1e200*y);\n",
                        "`x` * `y`")):
        diags = [d for d in pyopl.check_text(text) if d.is_error]
        assert [(d.code, d.span.line, d.span.column) for d in diags] == [("OPL0431", len(text.splitlines()), 10)]
        assert diags[0].message == "the objective coefficient of %s is inf, which no solver can take" % term
