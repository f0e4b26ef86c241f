"""Post-processing declarations and assertions after the model, computed on the solution; labels."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.cli import main as cli

_MODEL = """
range I = 1..3;
float w[I] = [1, 2, 3];
dvar float+ l[I] in 0..4;
dexpr float tot = sum(i in I) l[i];
maximize sum(i in I) w[i] * l[i];
subject to { tot <= 6; }
float rate = sum(i in I) w[i] * l[i] / tot;
{int} big = {i | i in I: l[i] >= 1};
"""
# maximize l1 + 2 l2 + 3 l3 with l <= 4, sum <= 6: l3 = 4, l2 = 2 (objective 16), so
# rate = 16 / 6 and big = {2 3}, worked out by hand.


def test_declaration_after_the_model_is_computed_from_the_solution():
    """IBM page "Postprocessing of data": data declared after the constraints from decision
    variables and dexprs is computed after the solve (here divided by the dexpr `tot`)."""
    r = pyopl.solve(_MODEL)
    assert r.objective == pytest.approx(16.0)
    post = r.extra["postprocessing"]
    assert post["rate"] == pytest.approx(16.0 / 6.0)
    assert post["big"] == "{2 3}"
    assert not [d for d in r.diagnostics if d.is_error]


def test_postprocessing_value_visible_to_a_script():
    """IBM page "Postprocessing of data": post-processing scripts read the computed data."""
    r = pyopl.solve(_MODEL + 'execute { writeln("rate=", rate, " big=", big); }')
    # (IBM's writeln puts a space before a set that follows another argument: `big= {2 3}`)
    assert r.script_output.strip() == "rate=%s big= {2 3}" % repr(16.0 / 6.0)


def test_assertion_after_the_solve_is_checked_on_the_solution(tmp_path, capsys):
    """IBM page "assert" (OPL Language Quick Reference): an assertion placed after the model that
    uses decisions is checked on the solution; a failure stops the run (non-zero exit)."""
    ok = pyopl.solve(_MODEL + "assert rate >= 2;\nassert forall(i in I) l[i] <= 4;")
    assert not [d for d in ok.diagnostics if d.is_error]
    bad = pyopl.solve(_MODEL + "assert forall(i in I) small: l[i] <= 3;")
    errs = [d for d in bad.diagnostics if d.is_error]
    assert [d.code for d in errs] == ["OPL0422"]
    assert "`small`" in errs[0].message and "i = 3" in errs[0].message  # l[3] = 4 > 3
    f = tmp_path / "m.mod"
    f.write_text(_MODEL + "assert forall(i in I) small: l[i] <= 3;\n")
    assert cli(["solve", str(f)]) != 0


def test_assertion_on_decisions_before_the_model_is_still_refused():
    """Before the objective and constraints an assertion checks data only (OPL0518)."""
    r = pyopl.check("dvar float+ x;\nassert x >= 0;\nminimize x;")
    assert [d.code for d in r if d.is_error] == ["OPL0518"]


def test_labelled_assert_in_both_places():
    """IBM page "assert": a label before the condition, after `assert` or after its `forall` loops."""
    text = """
range K = 1..3;
int cap[K] = [2, 3, 4];
assert forall(k in K) capOk: cap[k] >= %d;
assert positive: forall(k in K) cap[k] > 0;
dvar float+ x;
minimize x;
subject to { x >= 1; }
"""
    assert pyopl.solve(text % 2).objective == pytest.approx(1.0)
    errs = [d for d in pyopl.check(text % 3) if d.is_error]
    assert [d.code for d in errs] == ["OPL0422"] and "`capOk`" in errs[0].message and "k = 1" in errs[0].message
    assert errs[0].span.line == 4
