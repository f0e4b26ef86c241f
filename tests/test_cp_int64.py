"""A ``using CP;`` model computes its integer data in 64 bits, as CP Optimizer does (``IloInt``;
pyopl/lowering/forms/int32.py ``int_bounds``); an MP model keeps OPL's 32-bit ``int``. Expected values by hand."""
import pytest

import pyopl

pytest.importorskip("ortools")


def test_cp_data_arithmetic_is_64_bit():
    r = pyopl.solve("""using CP;
    int a = 3000000000;
    int b = a * 4;
    int c = 2147483647 + 1;
    int d[1..2] = [a, -a];
    int e = sum(i in 1..2) d[i] * 1000000 + abs(-a) + card(1..3000000000);
    dvar int x in 0..10;
    maximize x + b div 1000000000 + c - 2147483648 + e;
    subject to { x * 1000000000 <= 3 * a; }
    execute { writeln(b, " ", c, " ", e); }""")
    # b = 12e9, c = 2^31, e = 0 + 3e9 + 3e9; x * 1e9 <= 9e9 gives x = 9: 9 + 12 + 0 + 6e9
    assert r.status == "optimal" and r.objective == 6_000_000_021
    assert r.script_output == "12000000000 2147483648 6000000000\n"


def test_mp_data_stays_32_bit():
    diags = pyopl.check("int a = 3000000000;\ndvar int x in 0..10;\nmaximize x + a;\n")
    assert [d.code for d in diags if d.severity == "error"] == ["OPL1101"]
    assert "32-bit" in diags[0].message


@pytest.mark.parametrize("text, code, words", [
    ("int a = 9223372036854775807;\nint b = a + 1;\ndvar int x in 0..10;\nmaximize x + b;\n", "OPL1102",
     "`a + 1` is 9223372036854775808, outside CP Optimizer's 64-bit integer range"),
    ("int a = 9223372036854775808;\ndvar int x in 0..10;\nmaximize x + a;\n", "OPL1101", "64-bit"),
    # beyond what a double holds exactly: refused, not rounded (2^53 + 1 would be off by one)
    ("int a = 9007199254740993;\ndvar int x in 0..10;\nmaximize x + a;\n", "OPL0431", "objective's constant"),
    ("int a = 4611686018427387904;\ndvar int x in 0..a;\nmaximize x;\n", "OPL0431", "the variable `x` has the bounds"),
    ("int a = 4000000000000000001;\ndvar int x in 0..10;\nmaximize x;\nsubject to { x * a <= 2 * a; }\n", "OPL0431",
     "the coefficient of `x`"),
])
def test_cp_values_out_of_range_are_named(text, code, words):
    errors = [d for d in pyopl.check("using CP;\n" + text) if d.severity == "error"]
    if not errors:  # found when the model is built (the IR's numbers), not by the checks
        with pytest.raises(pyopl.CompileError) as e:
            pyopl.solve("using CP;\n" + text)
        errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert errors and errors[0].code == code and words in errors[0].message, [(d.code, d.message) for d in errors]


def test_an_element_choice_too_large_is_reported_at_the_expression():
    """The column lowering adds for `big[i]` (i a decision) has no declaration: the error points at
    the expression the user wrote, not at the model's first line."""
    text = ("using CP;\nint big[1..3] = [1, 2000000000000000000, 3];\ndvar int i in 1..3;\ndvar int y;\n"
            "maximize y;\nsubject to {\n  y == big[i];\n}\n")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(text)
    errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["OPL0431"]
    assert errors[0].span.line == 7 and errors[0].span.column == 8
    assert "`element` ranges over [1.0, 2e+18]" in errors[0].message
