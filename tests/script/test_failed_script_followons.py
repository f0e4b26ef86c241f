"""A failed pre-processing script: the warnings that only follow from it (the elements it would have
set keep their zeros) are left out, with a note on the script's error; other diagnostics stay."""
from __future__ import annotations

import pyopl

MODEL = """int n = 3;
range R = 1..n;
float cost[R];
float cap[R];
float other[R];
execute {
  for (var i in R) {
    cost[i] = i * 2;
    cap[i] = undefinedThing + i;
  }
}
dvar float+ x[R] in 0..cap[1];
minimize sum(i in R) (cost[i] + other[i]) * x[i];
subject to {
  forall(i in R) x[i] <= cap[i];
  sum(i in R) cap[i] * x[i] >= 1;
}
"""


def test_follow_on_warnings_of_a_failed_script_are_left_out():
    """Before: OPL0414 "`cap` has no initializer and no script before the model sets it" (false: the
    script sets it) and OPL0426 "cannot hold" for the row over the zero `cap`, besides the real error."""
    diags = pyopl.check(MODEL)
    codes = [(d.code, d.line) for d in diags]
    assert ("OPL1001", 9) in codes
    assert not any(c in ("OPL0426",) for c, _ in codes), codes
    assert not any(d.code == "OPL0414" and "`cap`" in d.message for d in diags)
    [err] = [d for d in diags if d.code == "OPL1001"]
    assert any("follow from this error (about `cap`)" in n for n in err.notes), err.notes


def test_diagnostics_about_elements_the_script_does_not_set_stay():
    diags = pyopl.check(MODEL)
    # `other` is no business of the script: its zero-fill warning is still given, at its declaration
    assert [(d.code, d.line) for d in diags if "`other`" in d.message] == [("OPL0414", 5)]


def test_a_script_that_runs_keeps_every_warning():
    text = MODEL.replace("undefinedThing + i", "0")  # cap = 0 now truly: the row cannot hold
    codes = [d.code for d in pyopl.check(text)]
    assert "OPL0426" in codes and "OPL1001" not in codes
