"""`cplex.status` follows CPLEX's status codes per problem type, and script `cplex.*` settings reach
every backend (or are named in a warning).

Expected codes are those of IBM's table (CPLEX Callable Library reference, group
optim.cplex.solutionstatus): CPX_STAT_OPTIMAL 1, CPX_STAT_UNBOUNDED 2, CPX_STAT_INFEASIBLE 3,
CPX_STAT_ABORT_TIME_LIM 11, CPXMIP_OPTIMAL 101, CPXMIP_OPTIMAL_TOL 102, CPXMIP_INFEASIBLE 103,
CPXMIP_SOL_LIM 104, CPXMIP_TIME_LIM_FEAS 107, CPXMIP_TIME_LIM_INFEAS 108."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.script.solver.settings import apply_settings, cplex_status


@pytest.mark.parametrize("args, kw, code", [
    (("optimal", False), {}, 1), (("unbounded", False), {}, 2), (("infeasible", False), {}, 3),
    (("time_limit", False), {}, 11), (("feasible", False), {"stopped_by": "iteration_limit"}, 10),
    (("optimal", True), {"gap": 0.0}, 101), (("optimal", True), {"gap": 5e-5}, 102),
    (("infeasible", True), {}, 103), (("feasible", True), {"stopped_by": "solution_limit"}, 104),
    (("time_limit", True, True), {}, 107), (("time_limit", True, False), {}, 108),
    (("feasible", True), {"stopped_by": "node_limit"}, 105), (("optimal", True), {"native": 1}, 1),
])
def test_status_codes_follow_ibms_table_per_problem_type(args, kw, code):
    assert cplex_status(*args, **kw) == code


MAIN = """dvar %s x in 0..10;
maximize x;
subject to { 2*x <= 7; }
main {
  thisOplModel.generate();
  cplex.solve();
  writeln(cplex.status);
}
"""


@pytest.mark.parametrize("solver", ["highs", "scip", "cplex"])
def test_script_status_after_an_optimal_solve(solver):
    # an LP (x = 3.5) is CPX_STAT_OPTIMAL 1; the same with an integer x (x = 3, gap closed) is 101
    lp = pyopl.compile_model(MAIN % "float").solve(solver=solver)
    assert lp.script_output.strip() == "1"
    mip = pyopl.compile_model(MAIN % "int").solve(solver=solver)
    assert mip.script_output.strip() == "101"


@pytest.mark.parametrize("solver, option", [("highs", ("mip_max_improving_sols", 1)), ("gurobi", ("SolutionLimit", 1)),
                                            ("scip", ("limits/solutions", 1)), ("cplex", ("mip.limits.solutions", 1))])
def test_intsollim_reaches_every_backend(solver, option):
    fields, extra, ignored = apply_settings({"intsollim": (1, None)}, solver, {})
    assert extra == dict([option]) and not ignored and not fields


def test_solnpoolintensity_passes_to_cplex_and_is_named_for_the_others():
    fields, extra, ignored = apply_settings({"solnpoolintensity": (4, None)}, "cplex", {})
    assert extra == {"mip.pool.intensity": 4}
    m = pyopl.compile_model("execute { cplex.solnpoolintensity = 4; }\ndvar int x in 0..3;\nmaximize x;\n")
    r = m.solve(solver="highs")
    d = [d for d in r.diagnostics if d.code == "OPL1058"][0]
    assert d.message == "`cplex.solnpoolintensity` has no equivalent in HiGHS; it is ignored" and d.line == 1
    r = m.solve(solver="cplex")
    assert r.objective == 3 and not [d for d in r.diagnostics if d.code == "OPL1058"]
    assert m.last_options.extra == {"mip.pool.intensity": 4}


def test_intsollim_from_a_script_reaches_the_solve():
    m = pyopl.compile_model("execute { cplex.intsollim = 1; }\ndvar int x in 0..3;\nmaximize x;\n")
    m.solve(solver="highs")
    assert m.last_options.extra == {"mip_max_improving_sols": 1}


def test_bendersstrategy_is_a_cplex_parameter_named_for_the_other_solvers():
    """ibm-benders-main (opl-corpus2) sets `cplex.bendersstrategy`; it was "not a CPLEX parameter pyopl
    knows". It is CPLEX's `benders.strategy` (the decomposition, not the model): max x over 0..3 is 3."""
    fields, extra, ignored = apply_settings({"bendersstrategy": (3, None)}, "cplex", {})
    assert extra == {"benders.strategy": 3} and not ignored and not fields
    m = pyopl.compile_model("execute { cplex.bendersstrategy = 3; }\ndvar int x in 0..3;\nmaximize x;\n")
    r = m.solve(solver="highs")
    assert r.objective == 3
    [d] = [d for d in r.diagnostics if d.code == "OPL1058"]
    assert d.message == "`cplex.bendersstrategy` has no equivalent in HiGHS; it is ignored" and d.line == 1
