"""Issue 33, class 5 (and issue 30): every front end reports the same outcome for the same run.

The same model text goes through ``pyopl solve --format json`` (a file), the Python API
(``pyopl.solve`` on text), the MCP ``solve`` tool's work function (and once through its bounded
worker process), syntagm's sandbox (the request its worker serves) and, for what an analysis
can know, ``pyopl check``, ``check_text``, the language server's analysis and the MCP ``check``
tool. Status, objective, values and the diagnostics' codes must agree: a post-processing block
or ``main`` that fails is an error on every front end, never a bare ``optimal``.

Expected optima are worked out by hand in the comments.
"""
from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

import pyopl
from pyopl.cli import main as cli
from pyopl.mcp import work

# x[s] <= cap[s] (1, 2, 3); y[<a,b>] <= 1 + 0, y[<b,c>] <= 1 + 1 (ord is 0-based); z all at 1 (6 of them):
# objective = (1 + 2 + 3) + 2 * (1 + 2) + 6 = 18
INDEXED = """{string} S = {"a","b","c"};
float cap[S] = [1, 2, 3];
tuple E { string f; string t; }
{E} Es = {<"a","b">, <"b","c">};
dvar float+ x[S] in 0..10;
dvar float+ y[Es] in 0..5;
dvar float+ z[S][1..2] in 0..1;
maximize sum(s in S) x[s] + sum(e in Es) 2*y[e] + sum(s in S, k in 1..2) z[s][k];
subject to { forall(s in S) x[s] <= cap[s]; forall(e in Es) y[e] <= 1 + ord(Es, e); }
execute { writeln("post ", x["c"]); }
"""
BY_HAND = {"x": {("a",): 1, ("b",): 2, ("c",): 3}, "y": {('<"a","b">',): 1, ('<"b","c">',): 2},
           "z": {(s, k): 1 for s in "abc" for k in (1, 2)}}

SMALL = "dvar float+ x in 0..2;\nmaximize x;\nsubject to { x <= 1.5; }\n"  # optimum 1.5
POST_FAILS = SMALL + 'execute { writeln("before"); IloOplCallJava("rm -rf /"); }\n'
MAIN_FAILS = SMALL + 'main { thisOplModel.generate(); cplex.solve(); throw "boom"; }\n'
PRE_FAILS = 'float w[1..3] = [0, 0, 0];\nexecute { w[4] = 1; }\n' + SMALL


def _cli_json(tmp_path, text: str) -> tuple[int, dict]:
    (tmp_path / "m.mod").write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(["solve", str(tmp_path / "m.mod"), "--format", "json", "--solver", "highs"])
    return rc, json.loads(out.getvalue())


def _codes(diags) -> list[str]:
    return sorted(d["code"] for d in diags or [])


def _syntagm(text: str) -> dict:
    from syntagm.assess import sandbox

    return sandbox.handle({"op": "solve", "model": text, "data": "", "time_limit_s": 30, "solver": "highs"})


def _syntagm_codes(answer: dict) -> list[str]:
    return sorted(re.findall(r"\[(OPL\d{4})\]", " ".join(answer.get("diagnostics") or [answer.get("message", "")])))


def _nested(mcp_values: list) -> dict:
    return {tuple(e["index"]): e["value"] for e in mcp_values}


def test_indexed_and_tuple_indexed_values_agree_with_the_cli(tmp_path):
    rc, cli_out = _cli_json(tmp_path, INDEXED)
    mcp = work.solve(INDEXED, None, 30.0, 1000)
    api = pyopl.solve(INDEXED, source="text", solver="highs")
    assert rc == 0 and cli_out["status"] == mcp["status"] == api.status == "optimal"
    assert cli_out["objective"] == mcp["objective"] == api.objective == pytest.approx(18)
    for name, expected in BY_HAND.items():
        assert _nested(mcp["variables"][name]) == pytest.approx(expected)
        flat = {}
        for k1, v1 in cli_out["variables"][name].items():  # the CLI's nested JSON, flattened
            for k2, v2 in (v1.items() if isinstance(v1, dict) else [(None, v1)]):
                flat[(k1,) if k2 is None else (k1, int(k2))] = v2
        assert flat == pytest.approx(expected)
    assert mcp["script_output"] == cli_out["script_output"] == api.script_output == "post 3\n"
    assert mcp["errors"] == 0 and "diagnostics" not in mcp
    small = work.solve(INDEXED, None, 30.0, 2)  # the value budget counts entries across names
    assert sum(len(v) for v in small["variables"].values()) == 2 and small["values_truncated"]


@pytest.mark.parametrize("text,code", [(POST_FAILS, "OPL1057"), (MAIN_FAILS, None)])
def test_a_failed_script_after_the_solve_is_an_error_on_every_front_end(tmp_path, text, code):
    rc, cli_out = _cli_json(tmp_path, text)
    cli_codes = _codes([d for d in cli_out["diagnostics"] if d["severity"] == "error"])
    assert rc != 0 and cli_codes and (code is None or cli_codes == [code])
    mcp = work.solve(text, None, 30.0, 1000)
    api = pyopl.solve(text, source="text", solver="highs")
    api_codes = sorted(d.code for d in api.diagnostics if d.is_error)
    mcp_codes = _codes([d for d in mcp.get("diagnostics", []) if d["severity"] == "error"])
    assert cli_codes == api_codes == mcp_codes and mcp["errors"] == len(cli_codes)
    assert cli_out["status"] == mcp["status"] == api.status  # one status vocabulary (issue 25 names it)
    assert mcp.get("script_output") == cli_out.get("script_output")
    syn = _syntagm(text)
    assert syn["status"] in ("script_error", cli_out["status"]) and syn["status"] not in ("optimal", "feasible")
    assert _syntagm_codes(syn) == cli_codes


def test_the_mcp_worker_process_reports_the_failure_too():
    answer = work.run_bounded("solve", (POST_FAILS, None, 10.0, 100), 120)
    assert [d["code"] for d in answer["diagnostics"] if d["severity"] == "error"] == ["OPL1057"]
    assert answer["errors"] == 1 and answer["script_output"].startswith("before")


def test_a_pre_processing_failure_is_the_same_error_everywhere(tmp_path):
    rc, cli_out = _cli_json(tmp_path, PRE_FAILS)
    assert rc == 1 and _codes(cli_out["diagnostics"]) == ["OPL1052"]
    mcp = work.solve(PRE_FAILS, None, 30.0, 10)
    assert mcp["status"] == "compile_error" and _codes(mcp["diagnostics"]) == ["OPL1052"]
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_text(PRE_FAILS)
    assert [d.code for d in e.value.diagnostics] == ["OPL1052"]
    syn = _syntagm(PRE_FAILS)
    assert syn["status"] == "compile_error" and "OPL1052" in syn["message"]
    from pyopl.lsp.analysis import analyse

    analyses = [[d.code for d in pyopl.check(tmp_path / "m.mod")], [d.code for d in pyopl.check_text(PRE_FAILS)],
                [d.code for d in analyse(PRE_FAILS).diagnostics], [d["code"] for d in work.check(PRE_FAILS, None)["diagnostics"]]]
    assert analyses == [["OPL1052"]] * 4
    line = [d for d in pyopl.check_text(PRE_FAILS)][0]
    assert (line.line, line.column) == (2, 11)


# Issue 43: a solution the model's own evaluation rejects is `check_failed` on every front end.
# HiGHS drops the coefficient 1e-10 and returns x = 1e12; the model bounds x by 1e10.
DROPPED = "dvar float+ x;\nmaximize x;\nsubject to {\n  c: 1e-10 * x <= 1;\n  x <= 1e12;\n}\n"
# x reaches the 1e6 pyopl assumed for the big-M of the implication: feasible, not optimal
ASSUMED = "dvar float+ x;\ndvar boolean b;\nmaximize x - b;\nsubject to { b == 0 => x <= 0; }\n"


def test_a_solution_that_fails_the_model_is_check_failed_everywhere(tmp_path):
    rc, cli_out = _cli_json(tmp_path, DROPPED)
    mcp = work.solve(DROPPED, None, 30.0, 100)
    api = pyopl.solve(DROPPED, source="text", solver="highs")
    assert rc == 9 and cli_out["status"] == mcp["status"] == api.status == "check_failed"
    assert cli_out["last_solve_status"] == mcp["last_solve_status"] == api.last_solve_status == "optimal"
    api_codes = sorted(d.code for d in api.diagnostics if d.is_error)
    assert _codes([d for d in cli_out["diagnostics"] if d["severity"] == "error"]) == api_codes == ["OPL0709"]
    assert _codes([d for d in mcp["diagnostics"] if d["severity"] == "error"]) == ["OPL0709"]
    syn = _syntagm(DROPPED)
    assert syn["status"] == "check_failed" and _syntagm_codes(syn) == ["OPL0709"]


def test_an_optimum_at_an_assumed_bound_is_feasible_everywhere(tmp_path):
    rc, cli_out = _cli_json(tmp_path, ASSUMED)  # (--solver highs: the big-M with its assumed bound)
    api = pyopl.solve(ASSUMED, source="text", solver="highs")
    assert rc == 0 and cli_out["status"] == api.status == "feasible"
    assert cli_out["assumptions"][0]["touched"] is True
    warn = sorted(d.code for d in api.diagnostics)
    assert _codes(cli_out["diagnostics"]) == warn and "OPL0710" in warn and "OPL0901" in warn
    assert _syntagm(ASSUMED)["status"] == "feasible"
    # the MCP tool solves with `auto`, which takes the implication as an exact indicator constraint on a
    # backend that has them (SCIP here): the model is in truth unbounded (x grows once b = 1)
    from pyopl.backends.capabilities import installed

    mcp = work.solve(ASSUMED, None, 30.0, 100)
    auto = pyopl.solve(ASSUMED, source="text")
    assert mcp["status"] == auto.status == ("unbounded" if installed("scip") else "feasible")


# max x + y over the disc x^2 + y^2 <= 8: x = y = 2 by symmetry, objective 4 (by hand)
DISC = "dvar float x in 0..10;\ndvar float y in 0..10;\nmaximize x + y;\nsubject to { x*x + y*y <= 8; }\n"


def test_check_and_solve_agree_on_what_the_default_solver_takes(tmp_path):
    """Issue 43, class 11: `pyopl check` (and the MCP `check`, the API, the language server) judged a
    quadratic constraint an error for HiGHS while `pyopl solve` (`--solver auto`) solved it on SCIP."""
    from pyopl.backends.capabilities import choose
    from pyopl.lsp.analysis import analyse

    solvable = choose(pyopl.compile_text(DISC).ir)[0] is not None  # SCIP, Gurobi or CPLEX installed
    (tmp_path / "m.mod").write_text(DISC)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        check_rc = cli(["check", str(tmp_path / "m.mod")])
        solve_rc = cli(["solve", str(tmp_path / "m.mod")])
    errors = [[d.code for d in pyopl.check_text(DISC) if d.is_error],
              [d.code for d in analyse(DISC).diagnostics if d.severity == "error"],
              [d["code"] for d in work.check(DISC, None)["diagnostics"] if d["severity"] == "error"]]
    assert errors == ([[]] * 3 if solvable else [["OPL1163"]] * 3)
    assert (check_rc == 0) == (solve_rc == 0) == solvable
    if solvable:
        r = pyopl.solve(DISC)
        assert r.status == "optimal" and r.objective == pytest.approx(4.0, abs=1e-5)
    # checking for HiGHS alone still names the construct
    [e] = pyopl.check_text(DISC, solver="highs")
    assert (e.code, e.severity, e.line, e.column) == ("OPL1163", "error", 4, 14)


# min x + y outside the disc x^2 + y^2 >= 2 over the box [-10, 10]^2: non-convex; by hand the corner
# x = y = -10 (200 >= 2) gives -20
RING = "dvar float x in -10..10;\ndvar float y in -10..10;\nminimize x + y;\nsubject to { x*x + y*y >= 2; }\n"


def _solve_cli(tmp_path, text: str, *extra: str) -> tuple[int, dict]:
    (tmp_path / "m.mod").write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(["solve", str(tmp_path / "m.mod"), "--format", "json", *extra])
    return rc, json.loads(out.getvalue())


def test_solve_says_once_where_a_quadratic_constraint_goes(tmp_path):
    """`pyopl solve` reported the compile's OPL1163 warning (written for no solver in particular) beside
    the solve's own answer: a warning and an error for one refusal, a warning that `auto` gives the
    constraint to no solver when `--solver scip` had been asked, a warning and OPL0703 for HiGHS."""
    pytest.importorskip("pyscipopt")
    rc, out = _solve_cli(tmp_path, RING)
    assert rc == 8 and out["status"] == "error"
    assert [(d["code"], d["severity"]) for d in out["diagnostics"]] == [("OPL1163", "error")]
    rc, out = _solve_cli(tmp_path, RING, "--solver", "scip")
    assert rc == 0 and out["status"] == "optimal" and out["objective"] == pytest.approx(-20, abs=1e-6)
    assert "diagnostics" not in out
    rc, out = _solve_cli(tmp_path, RING, "--solver", "highs")
    assert [d["code"] for d in out["diagnostics"]] == ["OPL0703"]
    rc, out = _solve_cli(tmp_path, DISC)  # convex: `auto` gives it to SCIP, as `pyopl check` says nothing
    assert rc == 0 and out["objective"] == pytest.approx(4.0, abs=1e-5) and "diagnostics" not in out


def test_the_mcp_solve_tool_says_a_refused_quadratic_constraint_once():
    pytest.importorskip("pyscipopt")
    out = work.solve(RING, None, 30.0, 100)
    assert out["status"] == "error"
    assert [(d["code"], d["severity"]) for d in out["diagnostics"]] == [("OPL1163", "error")]


# y <= 10 and (b = 0 => y <= 2), (b = 1 => x + y <= 3) with x >= -100: b = 1, x = -100, y = 10
# gives y - x = 110; `unused` is a warning (OPL0922), `zz` in the data another (OPL0402)
WARNED = """int unused = 3;
int n = ...;
dvar float x;
dvar float y in 0..10;
dvar boolean b;
maximize y - x;
subject to { b == 1 => x + y <= 3; b == 0 => y <= 2; x >= -100 * n; }
"""


def test_the_compile_warnings_reach_the_one_call_api_as_they_reach_the_cli(tmp_path):
    """`pyopl.solve` returned `result.diagnostics == []` where the CLI's JSON and MCP `solve`
    carried the compile's warnings: the one-call API drops the compiled model, so they were lost."""
    (tmp_path / "m.dat").write_text("n = 1;\nzz = 2;\n")
    (tmp_path / "m.mod").write_text(WARNED)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(["solve", str(tmp_path / "m.mod"), str(tmp_path / "m.dat"), "--format", "json"])
    cli_out = json.loads(out.getvalue())
    api = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    mcp = work.solve(WARNED, "n = 1;\nzz = 2;\n", 30.0, 1000)
    assert rc == 0 and cli_out["status"] == api.status == mcp["status"] == "optimal"
    assert cli_out["objective"] == api.objective == pytest.approx(110)
    assert _codes(cli_out["diagnostics"]) == sorted(d.code for d in api.diagnostics) == _codes(mcp["diagnostics"]) \
        == ["OPL0402", "OPL0922"]
