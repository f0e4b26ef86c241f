"""The status of a run with scripts (issue 25, class 2; contract in docs/cli.md, "Run status").

A script error after a solve fails the run: `script_error` in JSON, in the text report's first
line and in `Result.status`, the solve's own status in `last_solve_status`, exit 1. A `main`
run reports what `main` did: output, return value, and which model each solve belonged to.
Expected objectives are worked by hand in the comments.
"""
from __future__ import annotations

import json

import pytest

import pyopl
from pyopl.cli import exit_codes
from pyopl.cli import main as cli

POST_FAILS = """dvar float+ x in 0..4;
maximize x;
subject to { x <= 3; }
execute { writeln("x=", x); writeln(nosuch.y); }
"""

SUB = "int n = ...;\ndvar float+ y in 0..n;\nmaximize 2 * y;\n"

MAIN = """int n = 2;
dvar float+ x in 0..n;
maximize x;
main {
  thisOplModel.generate();
  cplex.solve();
  writeln("base ", cplex.getObjValue());
  var def = new IloOplModelDefinition(new IloOplModelSource("sub.mod"));
  var m = new IloOplModel(def, cplex);
  var d = new IloOplDataElements();
  d.n = 5;
  m.addDataSource(d);
  m.generate();
  cplex.solve();
  writeln("sub ", cplex.getObjValue());
  %s
}
"""


def _run(tmp_path, capsys, text: str, fmt: str = "json"):
    (tmp_path / "sub.mod").write_text(SUB)
    mod = tmp_path / "m.mod"
    mod.write_text(text)
    rc = cli(["solve", str(mod), "--format", fmt, "--quiet"])
    out = capsys.readouterr().out
    return rc, (json.loads(out) if fmt == "json" else out)


def test_post_processing_error_after_an_optimal_solve_fails_the_run(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, POST_FAILS)
    assert rc == exit_codes.SCRIPT_ERROR == 1
    assert out["status"] == "script_error" and out["last_solve_status"] == "optimal"
    assert out["objective"] == 3.0  # max x, x <= 3: the last solve's value is still reported
    assert [d["code"] for d in out["diagnostics"] if d["severity"] == "error"] == ["OPL1001"]
    rc, text = _run(tmp_path, capsys, POST_FAILS, "text")
    assert rc == 1 and text.splitlines()[0] == "status: script_error (last solve: optimal)"
    r = pyopl.solve(POST_FAILS)
    assert (r.status, r.last_solve_status, r.run_failed) == ("script_error", "optimal", True)


def test_main_that_fails_after_solving_a_sub_model_fails_the_run(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, MAIN % "var z = nosuch.q;")
    assert rc == 1 and out["status"] == "script_error" and out["last_solve_status"] == "optimal"
    assert out["script_exit"] == 1 and "main_return" not in out
    # thisOplModel: max x, x <= 2 -> 2; sub.mod with n = 5: max 2y, y <= 5 -> 10
    assert out["solves"] == [{"model": "thisOplModel", "status": "optimal", "objective": 2.0},
                             {"model": "sub.mod", "status": "optimal", "objective": 10.0}]
    assert out["solved_model"] == "sub.mod" and out["script_output"] == "base 2\nsub 10\n"
    rc, text = _run(tmp_path, capsys, MAIN % "var z = nosuch.q;", "text")
    lines = text.splitlines()
    assert rc == 1 and lines[0] == "status: script_error (last solve: optimal)"
    assert lines[1] == "main: failed, 2 solves (thisOplModel: optimal 2, sub.mod: optimal 10)"


def test_main_that_succeeds_reports_what_it_did(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, MAIN % "return 4;")
    assert rc == 4  # main's return value is the exit status (IBM OPL)
    assert out["status"] == "optimal" and "last_solve_status" not in out
    assert out["script_exit"] == 4 and out["main_return"] == 4
    assert [s["model"] for s in out["solves"]] == ["thisOplModel", "sub.mod"] and out["solved_model"] == "sub.mod"
    assert out["objective"] == 10.0 and out["variables"] == {"y": 5.0}  # the sub-model's, and labelled so
    rc, text = _run(tmp_path, capsys, MAIN % "return 4;", "text")
    lines = text.splitlines()
    assert lines[:3] == ["status: optimal", "main: exit status 4, 2 solves (thisOplModel: optimal 2, sub.mod: optimal 10)",
                         "values below: the last solve's, of sub.mod"]
    # the size is the sub-model's (y: one column, no rows), not the main model's; before, the main
    # model's line with its compile time stood over the sub-model's values
    assert "model: 1 columns (0 integer), 0 rows, 0 nonzeros" in lines
    assert "solved_ir" not in out  # (the JSON above has no IR)


def test_main_that_fails_before_any_solve_has_no_last_solve_status(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, "dvar float+ x in 0..1;\nmaximize x;\nmain {\n  var z = nosuch.q;\n}\n")
    assert rc == 1 and out["status"] == "script_error" and "last_solve_status" not in out
    assert out.get("solves") is None and out["objective"] is None


def test_main_that_solves_nothing_is_not_solved(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, "dvar float+ x in 0..1;\nmaximize x;\nmain {\n  writeln(1);\n}\n")
    assert rc == 0 and out["status"] == "not_solved" and "last_solve_status" not in out


def test_a_model_without_scripts_has_no_run_fields(tmp_path, capsys):
    rc, out = _run(tmp_path, capsys, "dvar float+ x in 0..4;\nmaximize x;\nsubject to { x <= 3; }\n")
    assert rc == 0 and out["status"] == "optimal"
    assert not {"last_solve_status", "solves", "solved_model", "main_return", "script_exit"} & set(out)


@pytest.mark.parametrize("status,code", [("script_error", 1), ("optimal", 0), ("not_solved", exit_codes.SOLVER_ERROR)])
def test_exit_code_of_each_run_status(status, code):
    assert exit_codes.for_result(status, status == "optimal") == code


PRE_FAILS = """int n = 3;
execute b1 { writeln("A"); if (n > 2) fail(); writeln("B"); }
execute b2 { writeln("C"); }
dvar float+ x;
minimize x;
subject to { x >= n; }
"""


def test_output_of_a_failed_pre_processing_run_is_shown(tmp_path, capsys):
    """Before: a pre-processing block that failed lost everything the blocks wrote (no `script output:`
    in the text report or the JSON; IBM's oplrun shows it as it runs). IBM's fail() example: b1 writes
    A and stops at fail(), b2 still runs and writes C."""
    rc, out = _run(tmp_path, capsys, PRE_FAILS)
    assert rc == 1 and out["status"] == "error" and out["script_output"] == "A\nC\n"
    assert [(d["code"], d["line"], d["column"]) for d in out["diagnostics"]] == [("OPL1067", 2, 39)]
    rc, text = _run(tmp_path, capsys, PRE_FAILS, "text")
    assert rc == 1 and text == "script output:\nA\nC\n"
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(PRE_FAILS)
    assert e.value.script_output == "A\nC\n"
    with pytest.raises(pyopl.CompileError) as e:  # a model without scripts has none
        pyopl.compile_model("dvar float+ x;\nminimize y;")
    assert e.value.script_output == ""


def test_a_script_error_after_an_optimal_mip_shows_no_bound_or_gap(tmp_path, capsys):
    """Before: `best bound: 2` and `gap: 0%` under `status: script_error (last solve: optimal)`, lines
    the report leaves out for an optimal solve. max x, x integer <= 2: optimal at 2 (by hand)."""
    text = "dvar int x in 0..3;\nmaximize x;\nsubject to { x <= 2; }\nexecute { writeln(nosuch); }\n"
    rc, out = _run(tmp_path, capsys, text, "text")
    lines = out.splitlines()
    assert rc == 1 and lines[:2] == ["status: script_error (last solve: optimal)", "objective: 2"]
    assert not any(line.startswith(("best bound:", "gap:")) for line in lines)


# An odd subset sum: the largest odd total of these weights that is at most 98863 (98863 itself, by the
# bitset dynamic programme in the test below), a model on which HiGHS's default relative gap (1e-4) stops early.
_WEIGHTS = [5185, 6874, 9684, 1475, 8628, 5080, 1849, 3569, 2854, 7091, 8685, 5039, 7238, 9908, 2670, 5085, 1214,
            4550, 7687, 5579, 3983, 7380, 3614, 2178, 3273, 8288, 3075, 3166, 1029, 1087, 4431, 4530, 3717, 3727,
            5739, 6138, 4258, 9834, 4355, 3976]
_SUBSET_SUM = """int w[1..40] = ...;
dvar boolean t[1..40];
dvar int+ y;
maximize sum(i in 1..40) w[i] * t[i];
subject to { sum(i in 1..40) w[i] * t[i] + 2 * y == 98863; }
"""


def test_an_optimal_mip_with_its_gap_left_open_shows_the_bound_and_says_so():
    """Before: `status: optimal`, `objective: 98857` and nothing else, while 98863 is reachable (the
    solver stopped at its default 1e-4 relative gap, CPLEX's "optimal with tolerance"). The report now
    gives the best bound and says the gap was left open; a closed gap still shows neither line."""
    from pyopl.results.report import text_report
    from pyopl.results.result import Result

    reach = 1
    for w in _WEIGHTS:
        reach |= reach << w
    best = max(v for v in range(98863, -1, -2) if reach >> v & 1)  # odd totals only: 98863 - 2y
    assert best == 98863
    lines = text_report(Result(status="optimal", objective=98857.0, best_bound=98863.0, mip_gap=6.07e-5)).splitlines()
    assert lines[:3] == ["status: optimal", "objective: 98857", "best bound: 98863"]
    assert lines[3].startswith("gap: 0.00607% left open: optimal within the MIP gap tolerance")
    closed = text_report(Result(status="optimal", objective=2.0, best_bound=2.0, mip_gap=0.0)).splitlines()
    assert not any(line.startswith(("best bound:", "gap:")) for line in closed)
    r = pyopl.compile_model(_SUBSET_SUM, {"w": _WEIGHTS}).solve(solver="highs")
    text = text_report(r)
    assert r.status == "optimal" and r.objective <= best
    if r.objective < best - 0.5:  # the gap was left open: the report must not look like a proved optimum
        assert "best bound:" in text and "left open" in text
