"""Issue 43, general guard 1: every returned solution is checked against the model's own semantics.

Each outcome is pinned by a case that today's solvers (or a deliberately broken lowering) get
wrong, with the expected value worked out by hand or with ``highspy`` directly.
"""
from __future__ import annotations

import contextlib
import io
import json

import highspy
import numpy as np
import pytest

import pyopl
from pyopl.backends.explain.solution_check import check_point
from pyopl.cli import main as cli
from pyopl.mcp import work

# 1e-10 * x <= 1 bounds x by 1e10; HiGHS and SCIP drop coefficients below 1e-9 and return x = 1e12.
DROPPED = "dvar float+ x;\nmaximize x;\nsubject to {\n  c: 1e-10 * x <= 1;\n  x <= 1e12;\n}\n"
LOGICAL = """dvar float+ x in 0..100; dvar float+ y in 0..100; dvar boolean b;
maximize x + y - 10 * b;
subject to {
  c1: x + 2 * y <= 50;
  c2: b == 0 => x <= 0;
  forall(i in 1..3) c3[i]: abs(x - 10 * i) <= 15;
}
"""


def test_a_dropped_coefficient_is_caught_and_never_called_optimal():
    r = pyopl.compile_text(DROPPED).solve(solver="highs")
    assert r.status == "check_failed" and r.last_solve_status == "optimal"
    [d] = [d for d in r.diagnostics if d.code == "OPL0709"]
    assert d.severity == "error" and d.line == 4  # at `c`, where the constraint is written
    assert "constraint c: 100 at the returned point, expected <= 1" in d.message
    assert r.extra["solution_check"]["ok"] is False
    # what the answer should be: the same model with the coefficient scaled, solved by highspy alone
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.addVar(0, highspy.kHighsInf)
    h.changeColCost(0, -1.0)
    h.addRow(-highspy.kHighsInf, 1.0, 1, np.array([0], dtype=np.int32), np.array([1.0]))
    h.changeColBounds(0, 0.0, 1e10)
    h.run()
    assert r.objective != pytest.approx(-h.getInfo().objective_function_value)


def test_the_text_report_says_the_constraint_table_is_the_solvers_when_the_check_fails():
    """The table showed `c` with slack 1 (HiGHS's row without the dropped coefficient) under a
    status that says `c` is violated by 99, with nothing to tell the two apart."""
    from pyopl.results.report import text_report

    m = pyopl.compile_text(DROPPED)
    r = m.solve(solver="highs")
    assert r.status == "check_failed"
    text = text_report(r, m.ir)
    assert "constraints (as the solver reports them; the solution check rejects its point: OPL0709 above):" in text


def test_verify_false_skips_the_check_for_benchmarks():
    r = pyopl.compile_text(DROPPED).solve(solver="highs", verify=False)
    assert r.status == "optimal" and "solution_check" not in r.extra


def test_a_model_checked_clean_says_what_it_evaluated():
    r = pyopl.compile_text(LOGICAL).solve(solver="highs")
    # by hand: c3 keeps x in 15..25, so b = 1; y = (50 - x) / 2, objective 15 + x / 2, largest at x = 25
    assert r.status == "optimal" and r.objective == pytest.approx(27.5)
    check = r.extra["solution_check"]
    assert check["ok"] and check["evaluated"] == 5 and check["rows"] > 5


def _point(model, **values):
    x = np.zeros(model.ir.num_cols)
    for j, name in enumerate(model.ir.col_name):
        if name in values and model.ir.col_key[j] == ():
            x[j] = values[name]
    return x


def test_a_violated_logical_constraint_is_named_with_its_values():
    m = pyopl.compile_text(LOGICAL)
    x = _point(m, x=20, y=0, b=0)  # the rows of c2 are violated too, but the model's word comes first
    rep = check_point(m.ir, x, 20.0, 1e-6, m.instance)
    first = rep.disagreements[0]
    assert (first.what, first.name, first.value, first.expected) == ("constraint", "c2", "false", "true")
    assert "20 <= 0 is false" in first.detail


def test_abs_is_judged_as_abs_not_through_its_epigraph_columns():
    m = pyopl.compile_text(LOGICAL)
    x = _point(m, x=40, y=0, b=1)  # |40 - 10| = 30 and |40 - 20| = 20 exceed 15; |40 - 30| = 10 does not
    rep = check_point(m.ir, x, 30.0, 1e-6, m.instance)  # (the epigraph columns, all 0, say nothing of it)
    named = {d.name: d for d in rep.disagreements if d.what == "constraint"}
    assert set(named) == {"c3[1]", "c3[2]"}
    assert named["c3[1]"].value == pytest.approx(30) and named["c3[1]"].expected == "<= 15"


def test_an_objective_that_is_not_the_models_is_named_with_both_values():
    m = pyopl.compile_text(LOGICAL)
    x = _point(m, x=25, y=12.5, b=1)
    rep = check_point(m.ir, x, 28.5, 1e-6, m.instance)
    assert not [d for d in rep.disagreements if d.what == "constraint"]  # (the epigraph rows are left at 0)
    [d] = [d for d in rep.disagreements if d.what == "objective"]
    assert d.value == 28.5 and d.expected == "27.5"


def test_integrality_is_checked_at_the_solvers_tolerance():
    m = pyopl.compile_text(LOGICAL)
    x = _point(m, x=25, y=12.5, b=0.5)
    rep = check_point(m.ir, x, 32.5, 1e-6, m.instance)
    assert any(d.what == "integrality" and d.name == "b" for d in rep.disagreements)


def test_a_lowering_bug_is_caught_by_the_models_own_evaluation():
    # a row made wrong on purpose (as a bug in a lowering path would): the solver satisfies the wrong
    # row, and only the evaluation from the declarations can tell
    text = "dvar float+ x; dvar float+ y;\nminimize x + y;\nsubject to {\n  need: x + y >= 10;\n}\n"
    m = pyopl.compile_text(text)
    data, _indices, _indptr = m.ir.csr()
    data[:] = [2.0, 2.0]  # 2x + 2y >= 10: optimum 5 instead of 10
    r = m.solve(solver="highs")
    assert r.status == "check_failed"
    assert "constraint need: 5 at the returned point, expected >= 10" in r.diagnostics[-1].message


def test_a_main_flow_solve_is_checked_and_fails_the_run():
    text = DROPPED + "main { thisOplModel.generate(); cplex.solve(); writeln(\"after\"); }\n"
    r = pyopl.compile_text(text).solve(solver="highs")
    assert r.status == "check_failed" and any(d.code == "OPL0709" for d in r.diagnostics)


def test_the_cli_exits_9_and_json_and_mcp_say_check_failed(tmp_path):
    (tmp_path / "m.mod").write_text(DROPPED)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(["solve", str(tmp_path / "m.mod"), "--format", "json", "--solver", "highs"])
    got = json.loads(out.getvalue())
    assert rc == 9 and got["status"] == "check_failed" and got["last_solve_status"] == "optimal"
    assert got["solution_check"]["disagreements"][0]["name"] == "c"
    mcp = work.solve(DROPPED, None, 30.0, 100)
    assert mcp["status"] == "check_failed" and mcp["errors"] == 1
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(["solve", str(tmp_path / "m.mod"), "--solver", "highs", "--no-verify"])
    assert rc == 0


@pytest.mark.parametrize("text,value", [("minimize 5;", 5), ("int n = 3;\nminimize n * 2;\nsubject to {}", 6)])
def test_a_constant_objective_is_reported_on_highs(text, value):
    # issue 43 class 3: HiGHS reports 0 for a model without columns; the objective is the constant
    r = pyopl.compile_text(text).solve(solver="highs")
    assert r.status == "optimal" and r.objective == value


def test_a_solution_at_an_assumed_bound_is_not_called_optimal():
    # x has no upper bound: the big-M of `b == 0 => x <= 0` assumed x <= 1e6, and the solver stops there
    # (the model is in fact unbounded: x grows without limit once b = 1)
    text = "dvar float+ x;\ndvar boolean b;\nmaximize x - b;\nsubject to { b == 0 => x <= 0; }\n"
    r = pyopl.compile_text(text).solve(solver="highs")
    assert r.status == "feasible" and r.last_solve_status == "optimal"
    assert r.extra["assumptions"] == [{"variable": "x", "side": "upper", "bound": 1e6,
                                       "for": "this logical constraint", "touched": True}]
    assert [d.code for d in r.diagnostics] == ["OPL0710"] and "optimal only within" in r.message


def test_an_assumed_bound_the_solution_stays_inside_is_recorded_and_the_optimum_stands():
    text = "dvar float+ x;\ndvar boolean b;\nminimize x + b;\nsubject to { b == 0 => x <= 0; x >= 5; }\n"
    r = pyopl.compile_text(text).solve(solver="highs")
    assert r.status == "optimal" and r.objective == pytest.approx(6)  # by hand: x = 5 forces b = 1
    assert [a["touched"] for a in r.extra["assumptions"]] == [False]


def test_a_coefficient_a_solver_would_drop_is_warned_at_the_constraint_before_the_solve():
    m = pyopl.compile_text(DROPPED)
    [w] = [d for d in m.diagnostics if d.code == "OPL0711"]
    assert w.severity == "warning" and (w.line, w.column) == (4, 3) and "1e-10" in w.message
    wide = "dvar float+ x; dvar float+ y;\nmaximize x + y;\nsubject to {\n  c: 1e-5 * x + 1e5 * y <= 1;\n}\n"
    [w] = [d for d in pyopl.compile_text(wide).diagnostics if d.code == "OPL0711"]
    assert "ratio of 1e+10" in w.message
    plain = "dvar float+ x; dvar float+ y;\nmaximize x + y;\nsubject to {\n  c: 1e-3 * x + 1e5 * y <= 1;\n}\n"
    assert not pyopl.compile_text(plain).diagnostics  # a range of 1e8 is within what solvers honour


def test_every_solution_of_a_pool_is_checked():
    from pyopl.backends.explain.solution_check import verify_result

    m = pyopl.compile_text(LOGICAL)
    r = m.solve(solver="highs", verify=False)
    good = r.column_values
    bad = _point(m, x=20, y=0, b=0)  # violates c2 (b = 0 but x > 0)
    r.extra["pool"] = [(r.objective, good), (20.0, bad)]
    verify_result(r, m.ir, m.instance)
    assert r.status == "check_failed"
    assert any("solution 1 of the pool" in d["detail"] and d["name"] == "c2"
               for d in r.extra["solution_check"]["disagreements"])


def test_the_sampled_plain_statements_are_bounded_by_work_not_time():
    """The plain statements' sample is bounded by a count (each instance costs the iterations its sums
    examine, plus one), so the same model checks the same instances on every run, and the check
    leaves the compile's work budget as it found it. Three statements of 20 instances, each a sum
    over 100 elements (101 a piece); 3 instances sampled per statement (about 300 terms each)."""
    text = "range J = 1..100;\ndvar float+ x[1..3][J];\nminimize sum(i in 1..3, j in J) x[i][j];\nsubject to {\n" + \
        "".join("  forall(k in 1..20) c%d: sum(j in J) x[%d][j] >= 0;\n" % (i, i) for i in range(1, 4)) + "}\n"
    m = pyopl.compile_text(text)
    r = m.solve(solver="highs", verify=False)
    used = m.instance.budget.used
    # by hand: 500 -> 3 of c1 (303) and 2 of c2 (505 >= 500 stops); 506 -> one more; 100 -> the first only
    for work, evaluated in ((500, 5), (505, 5), (506, 6), (100, 1), (10 ** 6, 9)):
        rep = check_point(m.ir, r.column_values, r.objective, 1e-6, m.instance, work)
        assert rep.evaluated == evaluated, (work, rep.evaluated)
        assert m.instance.budget.used == used
    runs = {m.solve(solver="highs").extra["solution_check"]["evaluated"] for _ in range(3)}
    assert runs == {9}


def test_coefficient_range_is_judged_per_row_past_the_whole_matrix_s_quick_test():
    """The whole matrix spans 1e-5 .. 1e5 (1e10), more than the 1e9 a row may span, so the quick
    test does not settle it; no single row spans more than 1e5: no warning. A row of 1e-5 and 1e5
    on its own (1e10) is warned about."""
    apart = ("dvar float+ x; dvar float+ y;\nmaximize x + y;\nsubject to {\n  c1: 1e-5 * x + y <= 1;\n"
             "  c2: 1e5 * x + y <= 10;\n}\n")
    assert not [d for d in pyopl.compile_text(apart).diagnostics if d.code == "OPL0711"]
    together = apart.replace("c1: 1e-5 * x + y", "c1: 1e-5 * x + 1e5 * y")
    [w] = [d for d in pyopl.compile_text(together).diagnostics if d.code == "OPL0711"]
    assert w.span.line == 4 and "ratio of 1e+10" in w.message


def test_a_constraint_used_as_a_value_against_a_number_is_judged_from_the_model():
    """`(max(z, x) == 1) >= 1` was skipped by the check (a constraint compared with `>=`): a point
    with max(z, x) = -2 passed, its rows satisfied through the `max` column alone."""
    text = "dvar int x in -2..3;\ndvar int z in -2..3;\nminimize x + 10*z;\nsubject to {\n  (max(z, x) == 1) >= 1;\n}\n"
    m = pyopl.compile_text(text)
    x = _point(m, x=-2, z=-2)
    x[[j for j, name in enumerate(m.ir.col_name) if name == "max"]] = 1.0  # the column says 1: the model says -2
    rep = check_point(m.ir, x, -22.0, 1e-6, m.instance)
    [d] = [d for d in rep.disagreements if d.what == "constraint"]
    assert "constraint at line 5: 0 at the returned point, expected >= 1" in d.text()
    good = _point(m, x=1, z=-2)
    good[[j for j, name in enumerate(m.ir.col_name) if name == "max"]] = 1.0
    assert not [d for d in check_point(m.ir, good, -19.0, 1e-6, m.instance).disagreements if d.what == "constraint"]


@pytest.mark.parametrize("statement, holds", [
    ("(max(z, x) == 1) >= 1", lambda x, z: max(z, x) == 1),
    ("(minl(-z - 4, -2*x + z + 1) == -3) >= 1", lambda x, z: min(-z - 4, -2 * x + z + 1) == -3),
    ("(min(x, z) >= 1) + (x == -2) >= 1", lambda x, z: (min(x, z) >= 1) + (x == -2) >= 1),
    ("(maxl(x, z) != 3) + (z >= 2) == 2", lambda x, z: (max(x, z) != 3) + (z >= 2) == 2),
    ("(abs(z - 3) <= 1) >= 1", lambda x, z: abs(z - 3) <= 1),
])
def test_max_and_min_inside_a_constraint_used_as_a_value_are_exact(statement, holds):
    """A constraint used as a 0/1 value made its rows through `enforce` while the statement was still
    being evaluated, so `max`/`min` (kept as epigraphs `t >= e_i`) were never made exact: `(max(z, x)
    == 1) >= 1` was 'optimal' at z = x = -2. Expected optima by enumeration."""
    import itertools

    text = "dvar int x in -2..3;\ndvar int z in -2..3;\nminimize x + 10*z;\nsubject to {\n  %s;\n}\n" % statement
    best = min(x + 10 * z for x, z in itertools.product(range(-2, 4), repeat=2) if holds(x, z))
    r = pyopl.compile_text(text).solve(solver="highs")
    assert r.status == "optimal" and r.objective == best
    assert holds(r["x"], r["z"])


@pytest.mark.parametrize("statement, bad_x, good_x", [("(x >= 3) == 1", 2, 4), ("1 == (x >= 3)", 2, 3), ("(x >= 3) != 0", 1, 4),
                                                      ("(x >= 3) == 0", 3, 2), ("((x >= 1) && (y >= 1)) == 1", 0, 1),
                                                      ("!((x >= 3) == 1)", 4, 2)])
def test_a_constraint_compared_with_0_or_1_is_judged_not_skipped(statement, bad_x, good_x):
    """`(x >= 3) == 1` (one side a constraint, the other a number) was counted `unchecked` and
    never evaluated; it is the constraint (or its negation), judged with the tolerance."""
    text = "dvar int x in 0..4;\ndvar int y in 0..4;\nmaximize x + 2*y;\nsubject to {\n  %s;\n}\n" % statement
    m = pyopl.compile_text(text)
    bad = check_point(m.ir, _point(m, x=bad_x, y=4), None, 1e-6, m.instance)
    assert bad.unchecked == 0 and [d.what for d in bad.disagreements if d.what == "constraint"] == ["constraint"]
    good = check_point(m.ir, _point(m, x=good_x, y=4), None, 1e-6, m.instance)
    assert good.unchecked == 0 and not [d for d in good.disagreements if d.what == "constraint"]
