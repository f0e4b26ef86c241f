"""`=>` typed for `>=`: a numeric operand of `=>` is an error (OPL1160), never a silent implication."""
from __future__ import annotations

import pyopl
from pyopl.fixes.edit import apply_fixes


def test_numbers_on_both_sides_of_implies_is_an_error_with_the_fix_ge():
    m = "dvar float+ x;\ndvar float+ y;\nminimize x + 2 * y;\nsubject to {\n  c1: x + y => 3;\n}\n"
    d = pyopl.check(m)
    [e] = d.errors
    assert (e.code, e.line, e.column, e.end_column) == ("OPL1160", 5, 13, 15)
    assert "`x + y` and `3`" in e.message
    assert e.fix.applicability == "machine-applicable"
    fixed, n = apply_fixes(m, d.errors)
    assert n == 1 and "x + y >= 3" in fixed
    # the fixed model: minimise x + 2y with x + y >= 3 -> x = 3, y = 0, objective 3 (by hand)
    assert pyopl.compile_model(fixed).solve().objective == 3


def test_one_numeric_side_is_an_error_without_an_automatic_fix():
    m = "dvar boolean b;\ndvar int x in 0..9;\nminimize x;\nsubject to { b == 1 => x + 0; }"
    [e] = pyopl.check(m).errors
    assert (e.code, e.line, e.column) == ("OPL1160", 4, 21)
    assert "`x + 0` is a number" in e.message and e.fix is None


def test_an_indexed_decision_on_the_left_is_a_number():
    m = "dvar float x[1..2] in 0..5;\nminimize sum(i in 1..2) x[i];\nsubject to { forall(i in 1..2) x[i] => 1; }"
    [e] = pyopl.check(m).errors
    assert e.code == "OPL1160" and "`x[i]` and `1`" in e.message


def test_implications_between_constraints_and_booleans_still_solve():
    # b => (x >= 3) with b forced on: x = 3; !b side unused. Optimum 3 by hand.
    m = "dvar boolean b;\ndvar int x in 0..9;\nminimize x;\nsubject to { b == 1; b == 1 => x >= 3; }"
    assert pyopl.compile_model(m).solve().objective == 3
