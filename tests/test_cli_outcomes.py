"""The command line as scripts use it: numbers in full, integer values as integers, one exit code
per outcome, Ctrl-C keeping the incumbent, the progress line, ``--show`` and ``--no-constraints``."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import pyopl
from pyopl.cli import exit_codes
from pyopl.cli import main
from pyopl.results.numbers import format_number, integral_value
from solver_support import needs_gurobi

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp_path, *args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "pyopl", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _write(tmp_path, text, name="m.mod"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


# -- numbers -----------------------------------------------------------------------------------

def test_format_number_round_trips_what_six_digits_would_round():
    for v in (12894.125, 12345678.9, 0.1 + 0.2, -1e-7, 2.5e-300, 1.7976931348623157e308):
        text = format_number(v)
        assert float(text) == v, (v, text)
    assert format_number(12894.125) == "12894.125"  # %.6g gave 12894.1
    assert format_number(12345678.9) == "12345678.9"  # %.6g gave 1.23457e+07
    assert format_number(2590.0) == "2590" and format_number(-0.0) == "0" and format_number(None) == "-"
    assert format_number(float("inf")) == "inf" and format_number(float("nan")) == "nan"


def test_report_and_json_print_objective_and_values_in_full(tmp_path, capsys):
    mod = _write(tmp_path, "dvar float x; dvar float y;\nminimize x + y;\n"
                           "subject to { x >= 12894.125; y >= 12345678.9; }\n")
    assert main(["solve", mod]) == 0
    out = capsys.readouterr().out
    assert "objective: 12358573.025" in out  # 12894.125 + 12345678.9 in binary floating point
    assert "  x = 12894.125" in out and "  y = 12345678.9" in out
    assert main(["solve", mod, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["variables"]["x"] == 12894.125 and doc["variables"]["y"] == 12345678.9
    assert doc["objective"] == 12894.125 + 12345678.9


def test_integral_value_removes_solver_noise_within_the_tolerance_only():
    assert integral_value(4014.9999999999995) == 4015 and type(integral_value(4014.9999999999995)) is int
    assert integral_value(-3.3e-14) == 0 and type(integral_value(-3.3e-14)) is int
    assert integral_value(2.5) == 2.5
    assert integral_value(3.00001) == 3.00001  # 1e-5 away: more than HiGHS's 1e-6 tolerance
    assert integral_value(3.00001, 1e-4) == 3


def test_integer_decisions_come_back_as_integers(tmp_path, capsys):
    from pyopl.backends.common import by_dvar

    model = pyopl.compile_model("dvar int n[1..3] in 0..10000; dvar float+ z;\n"
                                "maximize sum(i in 1..3) n[i] - z;\nsubject to { sum(i in 1..3) n[i] <= 7.5; }")
    noisy = np.array([4014.9999999999995, -3.3e-14, 2.0000000001, 1.25])  # what a solver may return
    vals = by_dvar(model.ir, noisy)
    assert [vals["n"][i] for i in (1, 2, 3)] == [4015, 0, 2]
    assert all(type(vals["n"][i]) is int for i in (1, 2, 3))
    assert vals["z"] == 1.25 and type(vals["z"]) is float  # continuous values are left alone
    mod = _write(tmp_path, "dvar int n in 0..100;\nmaximize n;\nsubject to { 2 * n <= 15; }\n")
    assert main(["solve", mod, "--format", "json"]) == 0
    raw = capsys.readouterr().out
    assert '"n": 7\n' in raw or '"n": 7,' in raw  # an integer in JSON, not 7.0
    assert main(["solve", mod]) == 0
    assert "  n = 7\n" in capsys.readouterr().out + "\n"


# -- exit codes --------------------------------------------------------------------------------

EXIT_CASES = {
    "optimal": ("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n", [], exit_codes.OK),
    "infeasible": ("dvar float+ x;\nminimize x;\nsubject to { x >= 2; x <= 1; }\n", [], exit_codes.INFEASIBLE),
    "unbounded": ("dvar float+ x;\nmaximize x;\nsubject to { x >= 1; }\n", [], exit_codes.UNBOUNDED),
    "compile error": ("dvar float+ x;\nminimize x + y;\n", [], exit_codes.COMPILE_ERRORS),
    "bad solver option": ("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n", ["--option", "no_such_option=1"],
                          exit_codes.SOLVER_ERROR),
    "usage": ("dvar float+ x;\nminimize x;\n", ["--time-limit", "-1"], exit_codes.USAGE),
}


@pytest.mark.parametrize("case", sorted(EXIT_CASES))
def test_exit_code_per_outcome(tmp_path, capsys, case):
    text, extra, code = EXIT_CASES[case]
    mod = _write(tmp_path, text)
    try:
        rc = main(["solve", mod, "--format", "json", *extra])
    except SystemExit as e:  # argparse's own usage errors
        rc = e.code
    assert rc == code
    capsys.readouterr()


@pytest.mark.parametrize("flag,value,words", [
    ("--threads", "-1", "must be from 0 to 1024, got -1"),
    ("--threads", "100000", "must be from 0 to 1024, got 100000"),  # HiGHS would start them all
    ("--seed", "-5", "must be from 0 to 2147483647, got -5"),
    ("--script-steps", "0", "expected a positive whole number, got '0'"),
    ("--script-steps", "-1", "expected a positive whole number, got '-1'"),
])
def test_numeric_options_out_of_range_are_usage_errors(tmp_path, capsys, flag, value, words):
    # not a solver error (exit 1) after compiling, nor a budget of -1 steps reported as exceeded
    mod = _write(tmp_path, "dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n")
    with pytest.raises(SystemExit) as e:
        main(["solve", mod, flag, value])
    assert e.value.code == exit_codes.USAGE
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("command", ["solve", "check", "export"])
def test_a_missing_model_names_only_the_model_as_required(capsys, command):
    # data files are optional: argparse called them required when none was given with no model either
    with pytest.raises(SystemExit) as e:
        main([command])
    assert e.value.code == exit_codes.USAGE
    err = capsys.readouterr().err
    assert "required: model" in err and "data" not in err.split("required:")[1]


def test_exit_codes_are_distinct_and_documented_in_help():
    codes = [c for c, _ in exit_codes.TABLE]
    assert len(set(codes)) == len(codes)
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", "--help"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    for code, meaning in exit_codes.TABLE:
        assert "%3d  %s" % (code, meaning) in p.stdout
    assert exit_codes.for_result("infeasible_or_unbounded", False) == exit_codes.INFEASIBLE_OR_UNBOUNDED
    assert exit_codes.for_result("time_limit", True) == exit_codes.OK
    assert exit_codes.for_result("feasible", False) == exit_codes.NO_SOLUTION_AT_LIMIT


# -- a long MIP: limit without a solution, Ctrl-C, progress ------------------------------------

MARKET_SPLIT = """int m = ...; int n = ...;
range R = 1..m; range C = 1..n;
int a[R][C] = ...; int d[R] = ...;
dvar boolean x[C];
dvar float+ over[R]; dvar float+ under[R];
minimize sum(i in R) (over[i] + under[i]);
subject to { forall(i in R) ctSplit: sum(j in C) a[i][j] * x[j] - over[i] + under[i] == d[i]; }
"""


def _market_split(tmp_path, cp: bool = False) -> tuple[str, str, list[list[int]], list[int]]:
    """A market-split instance (Cornuejols and Dawande): 5 rows, 40 binaries, hard for every MIP
    solver to prove optimal (minutes or more), but an incumbent comes at once. 50 columns and 5 rows
    are within Gurobi's size-limited licence. ``cp``: the same as a `using CP;` model (integer
    deviations, for CP-SAT, which proves it no faster)."""
    rng = random.Random(7)
    a = [[rng.randrange(100) for _ in range(40)] for _ in range(5)]
    d = [sum(r) // 2 for r in a]
    dat = "m = 5;\nn = 40;\na = [%s];\nd = [%s];\n" % (",".join("[%s]" % ",".join(map(str, r)) for r in a),
                                                       ",".join(map(str, d)))
    model = MARKET_SPLIT if not cp else "using CP;\n" + MARKET_SPLIT.replace(
        "dvar float+ over[R]; dvar float+ under[R];", "dvar int over[R] in 0..100000; dvar int under[R] in 0..100000;")
    return _write(tmp_path, model, "split.mod"), _write(tmp_path, dat, "split.dat"), a, d


@pytest.mark.parametrize("solver", ["highs", pytest.param("gurobi", marks=needs_gurobi)])
def test_limit_without_a_solution_has_its_own_exit_code(tmp_path, solver):
    mod, dat, _a, _d = _market_split(tmp_path)
    p = _run(tmp_path, "solve", mod, dat, "--solver", solver, "--time-limit", "0", "--format", "json")
    doc = json.loads(p.stdout)
    assert doc["status"] == "time_limit" and doc["objective"] is None
    assert p.returncode == exit_codes.NO_SOLUTION_AT_LIMIT


def _installed(module: str) -> pytest.MarkDecorator:
    import importlib.util

    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason="%s is not installed" % module)


@pytest.mark.parametrize("solver", ["highs", pytest.param("gurobi", marks=needs_gurobi),
                                    pytest.param("scip", marks=_installed("pyscipopt")),
                                    pytest.param("cplex", marks=_installed("cplex")), "cpsat"])
def test_ctrl_c_stops_the_solve_and_reports_the_incumbent(tmp_path, solver):
    """Every backend shows progress with its incumbent (SCIP and CPLEX from their callbacks, issue
    48), and Ctrl-C then stops it with that incumbent. (cpsat: CP-SAT caught Ctrl-C itself and the
    stop was reported `feasible`, exit 0; issue 43)"""
    mod, dat, a, d = _market_split(tmp_path, cp=solver == "cpsat")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "pyopl", "solve", mod, dat, "--solver", solver, "--format", "json",
                             "--progress"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    seen = []
    try:
        deadline = time.monotonic() + 120
        for line in proc.stderr:  # the progress lines: interrupt once the solver has an incumbent
            seen.append(line)
            if line.startswith("pyopl solving:") and "incumbent" in line and "no incumbent" not in line:
                break
            assert time.monotonic() < deadline, "".join(seen)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == exit_codes.INTERRUPTED, err
    doc = json.loads(out)  # stdout holds only the JSON (progress went to stderr)
    assert doc["status"] == "interrupted"
    x = doc["variables"]["x"]
    assert all(x[str(j)] in (0, 1) for j in range(1, 41))
    # the reported incumbent satisfies every split row, and the objective is its over + under; an
    # incumbent that is not optimal may have both over[i] and under[i] positive (CP-SAT's often
    # do), so the objective is at least, not exactly, the total deviation from the targets
    over, under = doc["variables"]["over"], doc["variables"]["under"]
    for i in range(5):
        lhs = sum(a[i][j] * x[str(j + 1)] for j in range(40)) - over[str(i + 1)] + under[str(i + 1)]
        assert lhs == pytest.approx(d[i], abs=1e-6)
    assert doc["objective"] == pytest.approx(sum(over.values()) + sum(under.values()), abs=1e-6)
    deviation = sum(abs(sum(a[i][j] * x[str(j + 1)] for j in range(40)) - d[i]) for i in range(5))
    assert doc["objective"] >= deviation - 1e-6
    assert doc["objective"] > 0  # not proven optimal in a few seconds (instance's optimum is far from reach)


def test_progress_line_goes_to_stderr_and_quiet_silences_it(tmp_path):
    mod, dat, _a, _d = _market_split(tmp_path)
    p = _run(tmp_path, "solve", mod, dat, "--time-limit", "1.5", "--format", "json", "--progress")
    assert json.loads(p.stdout)["status"] == "time_limit"
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("pyopl solving:")]
    assert lines and all(" s" in ln for ln in lines)
    q = _run(tmp_path, "solve", mod, dat, "--time-limit", "0.5", "--progress", "--quiet")
    assert "pyopl solving" not in q.stderr and q.stdout.startswith("status: time_limit")


# -- --show and --no-constraints -----------------------------------------------------------------

def test_show_and_no_constraints(tmp_path, capsys):
    ex = ROOT / "examples"
    args = ["solve", str(ex / "transport.mod"), str(ex / "transport.dat")]
    assert main(args) == 0
    full = capsys.readouterr().out
    assert 'ship["Lyon"]["Milan"] = 220' in full and 'ctDemand["Oslo"]' in full
    assert main(args + ["--show", "ship", "--no-constraints"]) == 0
    out = capsys.readouterr().out
    assert 'ship["Lyon"]["Milan"] = 220' in out and "ctDemand" not in out and "dual" not in out
    assert main(args + ["--show", "shp"]) == exit_codes.USAGE
    assert "did you mean `ship`?" in capsys.readouterr().err


def test_a_limit_other_than_time_is_named_on_the_status_line(tmp_path, capsys):
    """HiGHS's iteration limit is `time_limit` in the one status vocabulary; the text report said only
    `status: time_limit` for it (JSON had `stopped_by`), so a user hunted for a time limit never set."""
    (tmp_path / "t.mod").write_text("dvar float+ x[1..6];\nmaximize sum(i in 1..6) i * x[i];\n"
                                    "subject to { forall(i in 1..5) x[i] + x[i + 1] <= i; sum(i in 1..6) x[i] <= 9; }\n")
    rc = main(["solve", str(tmp_path / "t.mod"), "--option", "simplex_iteration_limit=1", "--option", "presolve=off"])
    out = capsys.readouterr().out
    assert rc == exit_codes.NO_SOLUTION_AT_LIMIT
    assert out.splitlines()[0] == "status: time_limit (stopped by the iteration limit)"


def test_o_holds_the_outcome_of_a_model_with_errors_too(tmp_path, capsys):
    """`-o` was written for every outcome (infeasible, script_error...) but a model with errors: a batch
    that reads the result files found none. It holds what `--format json` prints; never over a file the
    compile read (an included data file with the error)."""
    mod = _write(tmp_path, "int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= nn; }\n")
    (tmp_path / "d.dat").write_text("n = 3;\n")
    assert main(["solve", mod, str(tmp_path / "d.dat"), "-o", str(tmp_path / "r.json"), "-q"]) == exit_codes.COMPILE_ERRORS
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["status"] == "error" and [d["code"] for d in doc["diagnostics"]] == ["OPL0101"]
    assert doc["diagnostics"][0]["line"] == 4 and "nn" in doc["diagnostics"][0]["message"]
    (tmp_path / "w.dat").write_text('include "inc.dat";\n')
    (tmp_path / "inc.dat").write_text("n = = 3;\n")
    assert main(["solve", mod, str(tmp_path / "w.dat"), "-o", str(tmp_path / "inc.dat"), "-q"]) == exit_codes.COMPILE_ERRORS
    assert (tmp_path / "inc.dat").read_text() == "n = = 3;\n"
    capsys.readouterr()
