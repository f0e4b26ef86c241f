"""SCIP and CPLEX backends, the capability table and `--solver auto`.

Every optimum below is computed independently of pyopl: by brute force over the integer
domain (itertools), or by hand (the working is in the comment next to it)."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

import pyopl
from pyopl.backends import BACKENDS, SOLVER_CHOICES
from pyopl.backends.capabilities import CAPABILITIES, choose, model_features
from solver_support import gurobi_reason

# --- models -------------------------------------------------------------------------------

P = [4.0, 3.0, 5.0, 2.0]
C = {(1, 2): 2.0, (1, 3): 4.0, (2, 3): -1.0, (2, 4): 3.0, (3, 4): 1.5, (1, 4): -2.5}
MIQP = ("float p[1..4] = [%s];\n" % ", ".join(map(str, P)) +
        "float c[1..4][1..4] = [%s];\n" % ", ".join(
            "[" + ", ".join(str(C.get((i, j), 0.0)) for j in range(1, 5)) + "]" for i in range(1, 5)) +
        "dvar boolean x[1..4];\n"
        "minimize sum(i in 1..4, j in 1..4: i < j) c[i][j] * x[i] * x[j] - sum(i in 1..4) p[i] * x[i];\n"
        "subject to { ctCount: sum(i in 1..4) x[i] <= 3; }\n")


def _miqp_brute_force() -> float:
    best = np.inf
    for x in itertools.product((0, 1), repeat=4):
        if sum(x) > 3:
            continue
        v = sum(c * x[i - 1] * x[j - 1] for (i, j), c in C.items()) - sum(p * xi for p, xi in zip(P, x))
        best = min(best, v)
    return best


# min x + y subject to x^2 + y^2 <= 2: the point of the disc furthest along (-1, -1) is (-1, -1): -2
CONVEX_QCP = ("dvar float x in -5..5;\ndvar float y in -5..5;\nminimize x + y;\n"
              "subject to { ctDisc: x^2 + y^2 <= 2; }\n")
# max x + y with x*y <= 1 on [0, 4]^2 (not a convex set): for x >= 1/4, y = 1/x, and x + 1/x on
# [1/4, 4] is largest at the ends: 4 + 1/4 = 4.25 (x = 4, y = 0.25 or the mirror image)
NONCONVEX_QCP = ("dvar float x in 0..4;\ndvar float y in 0..4;\nmaximize x + y;\n"
                 "subject to { ctHyp: x * y <= 1; }\n")
# min 2x + 3y, x + y >= 4, x - y <= 1: both rows bind, x = 2.5, y = 1.5, objective 9.5; duals from
# 2 = a + b, 3 = a - b: a = 2.5 (ctA), b = -0.5 (ctB); reduced costs 0 (both variables basic)
LP = "dvar float+ x;\ndvar float+ y;\nminimize 2*x + 3*y;\nsubject to { ctA: x + y >= 4; ctB: x - y <= 1; }\n"


def _takers(feature: str) -> list[str]:
    out = [b for b in ("scip", "cplex", "gurobi") if feature in CAPABILITIES[b].features]
    return [b for b in out if b != "gurobi" or not gurobi_reason()]


# --- capabilities and auto ----------------------------------------------------------------


def test_every_backend_declares_its_capabilities_and_the_cli_offers_them():
    from pyopl.cli.commands import SOLVER_CHOICES as CLI_CHOICES

    assert set(CAPABILITIES) == set(BACKENDS) and CLI_CHOICES == SOLVER_CHOICES
    assert "miqp" in CAPABILITIES["scip"].features and "nonconvex_qcp" in CAPABILITIES["scip"].features
    assert "nonconvex_qcp" not in CAPABILITIES["cplex"].features  # CPLEX: convex quadratic constraints only
    assert CAPABILITIES["cplex"].max_cols == 1000 and CAPABILITIES["highs"].max_cols is None


def test_auto_keeps_highs_for_what_it_takes_and_sends_a_miqp_to_scip():
    lp = pyopl.compile_model(LP)
    assert choose(lp.ir)[0] == "highs" and lp.solve().solver == "highs"
    m = pyopl.compile_model(MIQP)
    assert model_features(m.ir) >= {"mip", "miqp"}
    r = m.solve()  # auto is the default
    assert r.solver == "scip" and r.status == "optimal"
    assert r.objective == pytest.approx(_miqp_brute_force(), abs=1e-6)
    assert "MIQP" in r.extra["solver_choice"] and "HiGHS does not take" in r.extra["solver_choice"]


# max x + y in the disc x^2 + y^2 <= 2: x = y = 1, objective 2 (convex: CPLEX takes it too)
DISC_QCP = "dvar float x in -4..4;\ndvar float y in -4..4;\nmaximize x + y;\nsubject to { x*x + y*y <= 2; }\n"


def test_auto_skips_a_backend_that_is_not_installed():
    ir = pyopl.compile_model(DISC_QCP).ir
    assert choose(ir)[0] == "scip"
    assert choose(ir, is_installed=lambda b: b != "scip")[0] == "gurobi"
    chosen, why = choose(ir, is_installed=lambda b: b == "highs")
    assert chosen is None and "SCIP, Gurobi and CPLEX" in why and "none of them is installed" in why
    assert pyopl.compile_model(DISC_QCP).solve().objective == pytest.approx(2.0, abs=1e-5)



def test_auto_with_no_taker_installed_says_how_to_install_one(monkeypatch):
    """``--solver auto`` on a quadratic constraint with only HiGHS installed (a fresh ``pip install
    pyopl``) falls back to HiGHS's refusal; its help named ``--solver scip`` "or leave `--solver
    auto` to choose" although auto had just chosen nothing: it names the pip extras instead."""
    from pyopl.backends import capabilities

    monkeypatch.setattr(capabilities, "installed", lambda b: b == "highs")
    res = pyopl.compile_model(DISC_QCP).solve(solver="highs")
    (d,) = res.diagnostics
    assert d.code == "OPL0703" and "HiGHS takes no quadratic constraints" in d.message
    assert 'SCIP, Gurobi and CPLEX take it, but none is installed: `pip install "pyopl[scip]"`' in d.help
    assert '`pip install "pyopl[gurobi]"`' in d.help and '`pip install "pyopl[cplex]"`' in d.help
    chosen, why = choose(pyopl.compile_model("using CP;\ndvar int x in 0..3;\nmaximize x;").ir,
                         is_installed=lambda b: b == "highs")
    assert chosen is None and why.endswith("CP-SAT takes it, but it is not installed")
    monkeypatch.setattr(capabilities, "installed", lambda b: True)  # installed: the help names the solver
    (d,) = pyopl.compile_model(DISC_QCP).solve(solver="highs").diagnostics
    assert d.help.startswith("solve it with `--solver scip`")

def test_cli_auto_names_the_solver_in_json_and_text(tmp_path):
    path = tmp_path / "m.mod"
    path.write_text(MIQP)
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path), "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["solver"] == "scip" and out["objective"] == pytest.approx(_miqp_brute_force(), abs=1e-6)
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path)], capture_output=True, text=True, timeout=120)
    assert "(scip" in p.stdout and "solver: scip, chosen because the model has a quadratic objective" in p.stdout


def test_forcing_highs_on_a_miqp_names_the_capability_and_every_solver_that_has_it():
    r = pyopl.compile_model(MIQP).solve(solver="highs")
    d = r.diagnostics[0]  # (this binary quadratic is not convex either: refused at the objective)
    assert d.code == "OPL0703" and "non-convex" in d.message and d.line == 4
    assert "`--solver scip`" in d.help and "`--solver cplex`" in d.help and "`--solver gurobi`" in d.help


def test_forcing_cplex_on_a_nonconvex_quadratic_constraint_points_at_the_product():
    r = pyopl.compile_model(NONCONVEX_QCP).solve(solver="cplex")
    d = r.diagnostics[0]
    assert r.status == "error" and d.code == "OPL0703" and d.line == 4
    assert "CPLEX takes only convex quadratic constraints" in d.message and "multiplies `x` and `y`" in d.message
    assert "`--solver scip`" in d.help


@pytest.mark.parametrize("backend, module, package", [("scip", "pyopl.backends.mp.scip", "pyscipopt"),
                                                      ("cplex", "pyopl.backends.mp.cplex", "cplex")])
def test_a_missing_package_is_a_diagnostic_with_the_install_command(monkeypatch, backend, module, package):
    import importlib

    mod = importlib.import_module(module)
    monkeypatch.setattr(mod, "_" + ("pyscipopt" if backend == "scip" else "cplex"), lambda: None)
    r = pyopl.compile_model(LP).solve(solver=backend)
    d = r.diagnostics[0]
    assert r.status == "error" and d.code == "OPL0702" and "`%s`" % package in d.message
    assert 'pip install "pyopl[%s]"' % backend in d.help and d.file == "--solver %s" % backend


# --- the models on every backend that takes them ------------------------------------------------


@pytest.mark.parametrize("solver", ["scip", "cplex", "gurobi"])
def test_miqp_with_binaries_in_products(solver):
    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())
    r = pyopl.compile_model(MIQP).solve(solver=solver)
    assert r.status == "optimal" and r.solver == solver
    assert r.objective == pytest.approx(_miqp_brute_force(), abs=1e-6)
    x = [r["x"][i] for i in range(1, 5)]
    assert all(v in (0, 1) for v in x) and sum(x) <= 3
    assert r.best_bound == pytest.approx(r.objective, abs=1e-6)


# A small MIQP with a continuous variable: min sum_i b_i (n_i - a_i)^2 + (x - c)^2, n integer in
# -10..10, x in -10..10, x + sum_i n_i >= 1.5. For each n the best x is max(c, 1.5 - sum n) (the
# square's minimum, pushed up by the row), so a brute force over the 21^3 integer points is exact.
MIQP_GAP = ([-0.396, 0.201, 1.439], [1.989, 1.898, 2.05], 2.644)


def _miqp_gap_model_and_optimum() -> tuple[str, float]:
    a, b, c = MIQP_GAP
    best = min(sum(b[i] * (n[i] - a[i]) ** 2 for i in range(3)) + (min(10, max(c, 1.5 - sum(n))) - c) ** 2
               for n in itertools.product(range(-10, 11), repeat=3))
    model = ("float a[1..3] = [%s];\nfloat b[1..3] = [%s];\ndvar int n[1..3] in -10..10;\n"
             "dvar float x in -10..10;\nminimize sum(i in 1..3) b[i] * (n[i] - a[i])^2 + (x - %s)^2;\n"
             "subject to { x + sum(i in 1..3) n[i] >= 1.5; }\n" % (",".join(map(str, a)), ",".join(map(str, b)), c))
    return model, best


def test_scip_miqp_objective_is_the_optimum_and_its_gap_is_the_real_one():
    """Issue 43, class 10: SCIP held the epigraph of the quadratic objective to its 1e-6 feasibility
    tolerance and reported this MIQP 7.6e-7 (relative) above the optimum with a gap of 0."""
    model, best = _miqp_gap_model_and_optimum()
    r = pyopl.compile_model(model).solve(solver="scip")
    assert r.status == "optimal"
    assert abs(r.objective - best) <= 1e-8 * max(1.0, abs(best)), (r.objective, best)
    real = max(0.0, r.objective - r.best_bound) / abs(r.objective)
    assert r.mip_gap == pytest.approx(real, abs=1e-12) and r.mip_gap <= 1e-8


@pytest.mark.parametrize("solver", _takers("qcp"))
def test_convex_qcp(solver):
    r = pyopl.compile_model(CONVEX_QCP).solve(solver=solver)
    assert r.status == "optimal" and r.objective == pytest.approx(-2.0, abs=1e-5)
    assert r["x"] == pytest.approx(-1.0, abs=1e-3) and r["y"] == pytest.approx(-1.0, abs=1e-3)


@pytest.mark.parametrize("solver", _takers("nonconvex_qcp"))
def test_nonconvex_quadratic_constraint(solver):
    r = pyopl.compile_model(NONCONVEX_QCP).solve(solver=solver)
    assert r.status == "optimal" and r.objective == pytest.approx(4.25, abs=1e-5)
    assert r["x"] * r["y"] <= 1 + 1e-5


def test_auto_refuses_a_nonconvex_quadratic_constraint_as_cplex_does_and_scip_solves_it_when_asked():
    # IBM OPL's engine refuses x * y <= 1 (CPLEX Error 5002: not convex); `auto` never picks a global
    # solver unasked, and says so at the product, as `pyopl check` does
    r = pyopl.compile_model(NONCONVEX_QCP).solve()
    [d] = [d for d in r.diagnostics if d.severity == "error"]
    assert r.status == "error" and d.code == "OPL1163" and d.line == 4 and "non-convex" in d.message
    assert "`x` and `y`" in d.message and "--solver scip" in d.help
    [c] = pyopl.check(NONCONVEX_QCP)
    assert (c.code, c.severity, c.line, c.column) == ("OPL1163", "error", d.line, d.column)
    # asked for: x = 4, y = 1/4 (or the mirror) maximises x + y on the hyperbola: 4.25
    assert pyopl.compile_model(NONCONVEX_QCP).solve(solver="scip").objective == pytest.approx(4.25, abs=1e-5)


@pytest.mark.parametrize("solver", ["highs", "scip", "cplex"])
def test_lp_duals_and_reduced_costs_by_opl_name(solver):
    r = pyopl.compile_model(LP).solve(solver=solver)
    assert r.status == "optimal" and r.objective == pytest.approx(9.5)
    assert r.duals["ctA"] == pytest.approx(2.5) and r.duals["ctB"] == pytest.approx(-0.5)
    assert r.reduced_costs["x"] == pytest.approx(0.0) and r.reduced_costs["y"] == pytest.approx(0.0)


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_maximised_lp_duals_have_the_shared_sign(solver):
    # max 3x + 2y, x + y <= 4, x + 3y <= 9, x <= 2 (a bound): x = 2, y = 2; ctA binds with dual 2
    # (y's cost); x's bound then earns 3 - 2 = 1 per unit (its reduced cost); ctB is slack (dual 0)
    text = "dvar float+ x in 0..2;\ndvar float+ y;\nmaximize 3*x + 2*y;\nsubject to { ctA: x + y <= 4; ctB: x + 3*y <= 9; }\n"
    r = pyopl.compile_model(text).solve(solver=solver)
    assert r.objective == pytest.approx(10.0)
    assert r.duals["ctA"] == pytest.approx(2.0) and r.duals["ctB"] == pytest.approx(0.0)
    assert r.reduced_costs["x"] == pytest.approx(1.0) and r.slacks["ctB"] == pytest.approx(1.0)


@pytest.mark.parametrize("solver", ["highs", "scip", "cplex"])
def test_a_slack_row_over_one_variable_has_dual_zero(solver):
    """SCIP holds a row over one variable as a bound and reports its multiplier as the variable's
    reduced cost; pyopl gave that cost to every such row of the variable, so `hi: x <= 10` (slack 5)
    had dual 1 beside the binding `lo: x >= 5`. Duals by hand: d(objective)/d(bound) is 1 for `lo`
    and `c` (each moves its variable one for one), 0 for the slack rows `hi` and `d` (complementary
    slackness); scipy's linprog marginals agree."""
    text = ("dvar float+ x;\ndvar float+ y;\nminimize x + y;\n"
            "subject to { lo: x >= 5; hi: 10 >= x; c: y >= 1; d: y <= 7; }\n")
    r = pyopl.compile_model(text).solve(solver=solver)
    assert r.objective == pytest.approx(6.0)
    assert dict(r.duals) == pytest.approx({"lo": 1.0, "hi": 0.0, "c": 1.0, "d": 0.0})
    assert dict(r.slacks) == pytest.approx({"lo": 0.0, "hi": 5.0, "c": 0.0, "d": 6.0})
    from scipy.optimize import linprog

    res = linprog([1, 1], A_ub=[[-1, 0], [1, 0], [0, -1], [0, 1]], b_ub=[-5, 10, -1, 7], bounds=[(0, None)] * 2,
                  method="highs")
    by_linprog = {"lo": -res.ineqlin.marginals[0], "hi": res.ineqlin.marginals[1], "c": -res.ineqlin.marginals[2],
                  "d": res.ineqlin.marginals[3]}  # (a >= row is -row <= -b: the chain rule flips the sign)
    assert dict(r.duals) == pytest.approx(by_linprog)


@pytest.mark.parametrize("solver", ["highs", "scip", "cplex"])
def test_an_infeasible_model_with_an_unbounded_direction_is_infeasible(solver):
    """CPLEX answered status 2 (an unbounded ray) for this model, which has no point at all (x0 <= 0
    and 6 <= x0): pyopl said `unbounded` (exit 5). By hand: r0 and x0's bound cannot both hold."""
    text = ("dvar float x0 in -5..0;\ndvar float x1;\ndvar float+ x2;\nmaximize -x0 - 2*x1 - x2;\n"
            "subject to {\n  r0: 6 <= x0 <= 9;\n}\n")
    assert pyopl.compile_model(text).solve(solver=solver).status == "infeasible"
    feasible = text.replace("6 <= x0 <= 9", "-3 <= x0 <= 9")  # the same ray, now with points: unbounded
    assert pyopl.compile_model(feasible).solve(solver=solver).status == "unbounded"


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_quadratic_objective_with_constant_and_maximisation(solver):
    # max 10 + 6x - x^2 - y^2 + 2y over x in 0..5, y in 0..5: x = 3, y = 1: 10 + 9 + 1 = 20
    text = "dvar float x in 0..5;\ndvar float y in 0..5;\nmaximize 10 + 6*x - x^2 - y^2 + 2*y;\nsubject to { x + y <= 10; }\n"
    r = pyopl.compile_model(text).solve(solver=solver)
    assert r.status == "optimal" and r.objective == pytest.approx(20.0, abs=1e-5)


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_infeasible_and_unbounded_statuses(solver):
    bad = "dvar float+ x;\nminimize x;\nsubject to { ctLow: x <= 1; ctHigh: x >= 2; }\n"
    r = pyopl.compile_model(bad).solve(solver=solver)
    assert r.status == "infeasible"
    if solver == "cplex":  # CPLEX's conflict refiner names both rows
        assert r.conflict is not None and {c.label for c in r.conflict.rows} == {"ctLow", "ctHigh"}
        assert "conflict refiner" in r.conflict.method
    unb = "dvar float+ x;\nmaximize x;\nsubject to { x >= 1; }\n"
    assert pyopl.compile_model(unb).solve(solver=solver, explain_infeasible=False).status in (
        "unbounded", "infeasible_or_unbounded")


def test_a_model_over_the_community_edition_limit_is_a_licence_diagnostic():
    text = "range R = 1..1001;\ndvar float+ x[R] in 0..1;\nmaximize sum(r in R) x[r];\nsubject to { sum(r in R) x[r] <= 500; }\n"
    r = pyopl.compile_model(text).solve(solver="cplex")
    d = r.diagnostics[0]
    assert r.status == "error" and d.code == "OPL0701"
    assert "1001 variables" in d.message and "Community Edition" in d.message and "--solver scip" in d.help
    assert pyopl.compile_model(text).solve().objective == pytest.approx(500.0)  # auto: HiGHS, no limit


def test_the_licence_diagnostic_points_at_what_grew_past_the_limit():
    """Before: OPL0701 at line 1, column 1 (here a `range` that is not the problem). Now at the
    declaration of the decision with the most columns when the columns are over the limit, else at
    the constraint statement that makes the most rows; each names how many it makes."""
    cols = "range R = 1..1500;\nint k = 2;\ndvar float+ y[1..k];\ndvar float+ x[R] in 0..1;\nmaximize sum(r in R) x[r];\n"
    d = pyopl.compile_model(cols).solve(solver="cplex").diagnostics[0]
    assert d.code == "OPL0701" and (d.span.line, d.span.column) == (4, 13) and "`x` alone makes 1500 variables" in d.message
    rows = "range R = 1..1200;\ndvar float+ x[1..3] in 0..1;\nmaximize sum(i in 1..3) x[i];\n" \
           "subject to {\n  top: x[1] <= 1;\n  forall(r in R) c: x[1] + x[2] <= r;\n}\n"
    d = pyopl.compile_model(rows).solve(solver="cplex").diagnostics[0]
    assert d.code == "OPL0701" and d.span.line == 6 and "this constraint alone makes 1200 constraints" in d.message


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_unknown_option_is_a_diagnostic_and_a_known_one_passes(solver):
    m = pyopl.compile_model(LP)
    r = m.solve(solver=solver, options={"no/such_option": 3})
    assert r.status == "error" and r.diagnostics[0].code == "OPL0707" and "no/such_option" in r.diagnostics[0].message
    known = {"limits/nodes": 10} if solver == "scip" else {"mip.limits.nodes": 10}
    assert m.solve(solver=solver, options=known).objective == pytest.approx(9.5)


def _market_split(m: int = 4, n: int = 30, seed: int = 7) -> str:
    """A market-split problem (Cornuéjols and Dawande, 1999): tiny, and slow to prove optimal."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 100, size=(m, n))
    rows = ",\n".join("[" + ", ".join(map(str, r)) + "]" for r in a)
    return ("int m = %d;\nint n = %d;\nint a[1..m][1..n] = [%s];\n" % (m, n, rows) +
            "int d[i in 1..m] = (sum(j in 1..n) a[i][j]) div 2;\n"
            "dvar boolean x[1..n];\ndvar float+ over[1..m];\ndvar float+ under[1..m];\n"
            "minimize sum(i in 1..m) (over[i] + under[i]);\n"
            "subject to { forall(i in 1..m) ctSplit: sum(j in 1..n) a[i][j] * x[j] - over[i] + under[i] == d[i]; }\n")


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_time_limit_keeps_the_incumbent_with_bound_and_gap(solver):
    r = pyopl.compile_model(_market_split()).solve(solver=solver, time_limit=0.3, threads=1, seed=1)
    if r.status == "optimal":
        pytest.skip("the solver proved this instance optimal within the limit")
    assert r.status == "time_limit" and r.objective is not None and r.variables["x"]
    assert r.best_bound is not None and r.best_bound <= r.objective + 1e-9 and r.mip_gap > 0


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_exported_mps_reads_back_into_the_solver_with_the_same_optimum(tmp_path, solver):
    from pyopl.backends.export import write_model

    path = str(tmp_path / "m.mps")
    write_model(pyopl.compile_model(MIQP.replace("c[i][j] * x[i] * x[j]", "c[i][j] * (x[i] + x[j])")).ir, path, "mps")
    # the linearised objective: brute force again
    best = min(sum(c * (x[i - 1] + x[j - 1]) for (i, j), c in C.items()) - sum(p * v for p, v in zip(P, x))
               for x in itertools.product((0, 1), repeat=4) if sum(x) <= 3)
    if solver == "scip":
        import pyscipopt

        s = pyscipopt.Model()
        s.hideOutput()
        s.readProblem(path)
        s.optimize()
        got = s.getObjVal()
    else:
        import cplex

        c = cplex.Cplex()
        for f in (c.set_results_stream, c.set_log_stream, c.set_warning_stream):
            f(None)
        c.read(path)
        c.solve()
        got = c.solution.get_objective_value()
    assert got == pytest.approx(best, abs=1e-6)


@pytest.mark.parametrize("solver", ["scip", "cplex"])
def test_log_goes_to_stderr_never_to_json_stdout(tmp_path, solver):
    path = tmp_path / "m.mod"
    path.write_text("dvar int x in 0..10;\nmaximize x;\nsubject to { 2*x <= 7; }\n")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(path), "--solver", solver, "--format", "json",
                        "--log"], capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "optimal" and out["objective"] == 3.0 and out["solver"] == solver
    assert ("SCIP Status" if solver == "scip" else "CPXPARAM") in p.stderr
