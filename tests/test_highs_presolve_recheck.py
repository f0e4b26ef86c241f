"""HiGHS 1.16's MIP presolve reports a beaten point as optimal on opl-corpus2's dmc2015 burger model
(tools/highs_presolve_dmc2015.py): pyopl re-solves a small MIP with presolve off (docs/solvers.md).

Expected optima come from a brute force over all 5^8 points with NumPy, never from pyopl's output."""
import itertools

import numpy as np
import pytest

import pyopl
from pyopl.backends.common import SolveOptions
from pyopl.backends.mp import highs as highs_backend
from pyopl.diagnostics.registry import lookup

SODIUM, FAT, CALORIES = [50, 330, 310, 1, 260, 3, 160, 3], [17, 9, 6, 2, 0, 0, 0, 0], [220, 260, 70, 10, 5, 4, 20, 9]
DMC2015 = lookup("OPL0712").bad  # the burger model with `maximize id;` and `id <= 153886;`


def _brute_force_max_id(ub: int) -> int:
    """The largest id = sum (qty[f]-1) * 5^(f-1) over qty in 1..5^8 meeting the rows, with id <= ub."""
    q = np.array(list(itertools.product(range(1, 6), repeat=8)), dtype=np.int64)
    ok = (q @ SODIUM <= 3000) & (q @ FAT <= 150) & (q @ CALORIES <= 3000) & (q[:, 6] == q[:, 5]) & (q[:, 4] == q[:, 7])
    ids = (q - 1) @ (5 ** np.arange(8))
    ok &= ids <= ub
    return int(ids[ok].max())


def test_dmc2015_gets_the_brute_force_optimum_with_a_warning():
    best = _brute_force_max_id(153886)
    assert best == 153886  # (the id bound itself is reachable: qty = 2,3,1,2,2,5,5,2)
    r = pyopl.compile_model(DMC2015).solve(solver="highs")
    assert r.status == "optimal" and r.objective == best
    [w] = [d for d in r.diagnostics if d.code == "OPL0712"]
    assert w.severity == "warning" and "153886" in w.message and "presolve" in w.help
    rec = r.extra["presolve_recheck"]
    assert rec["ran"] and rec["outcome"] == "better point" and rec["objective"] == best
    assert r.extra["solution_check"]["ok"] is True  # the re-solve's point went through the usual check
    assert r.variables["qty"] == {(f,): q for f, q in enumerate([2, 3, 1, 2, 2, 5, 5, 2], 1)}
    assert pyopl.compile_model(DMC2015).solve(solver="highs", mip_gap=0).objective == best


@pytest.mark.parametrize("value", ["on", "off"])
def test_an_explicit_presolve_choice_is_respected_without_a_second_solve(value):
    """`presolve` set by the user (or `cplex.preind` in a script) is their choice: no second solve,
    no warning; with `on` HiGHS's own answer (153884 in HiGHS 1.16) is what comes back."""
    r = pyopl.compile_model(DMC2015).solve(solver="highs", options={"presolve": value})
    assert "presolve_recheck" not in r.extra and not [d for d in r.diagnostics if d.code == "OPL0712"]
    assert r.status == "optimal" and r.objective <= 153886
    if value == "off":
        assert r.objective == 153886


SMALL = """range I = 1..6;
int w[I] = [12, 7, 11, 8, 9, 6];
int v[I] = [24, 13, 23, 15, 16, 11];
dvar boolean take[I];
maximize sum(i in I) v[i] * take[i];
subject to { sum(i in I) w[i] * take[i] <= 26; }"""


def _knapsack_optimum() -> int:
    w, v = np.array([12, 7, 11, 8, 9, 6]), np.array([24, 13, 23, 15, 16, 11])
    t = np.array(list(itertools.product((0, 1), repeat=6)))
    return int((t @ v)[t @ w <= 26].max())


def test_a_normal_small_mip_gets_the_same_answer_and_no_warning():
    r = pyopl.compile_model(SMALL).solve(solver="highs")
    assert r.status == "optimal" and r.objective == _knapsack_optimum()
    assert not [d for d in r.diagnostics if d.code == "OPL0712"]
    assert r.extra["presolve_recheck"]["ran"] and r.extra["presolve_recheck"]["outcome"] == "agree"


def test_an_lp_and_a_large_mip_are_not_rechecked(monkeypatch):
    lp = pyopl.compile_model("dvar float+ x;\nmaximize x;\nsubject to { x <= 4; }").solve(solver="highs")
    assert lp.objective == 4 and "presolve_recheck" not in lp.extra
    monkeypatch.setattr(highs_backend, "RECHECK_MAX_SIZE", 5)
    r = pyopl.compile_model(SMALL).solve(solver="highs")
    assert r.objective == _knapsack_optimum() and "presolve_recheck" not in r.extra


def _first_run(objective: float):
    """A made-up first HiGHS run of SMALL claiming ``objective`` optimal (bound = objective)."""
    ir = pyopl.compile_model(SMALL).ir
    return ir, np.zeros(ir.num_cols), objective, {"best_bound": float(objective), "mip_gap": 0.0}


def test_a_first_optimum_beaten_beyond_its_bound_is_replaced():
    ir, x, obj, info = _first_run(24)  # take[1] only: 24, the real optimum is higher
    got = highs_backend._presolve_recheck(ir, SolveOptions(), x, obj, info, 0.01)
    status, x2, obj2, _ = got["use"]
    assert status == "optimal" and obj2 == _knapsack_optimum() and "24" in got["warning"]


def test_two_runs_that_contradict_each_other_are_feasible_not_optimal():
    """A first run claiming more than the model has (a bound presolve-off refutes): the first point is
    kept (the solution check judges it) but the status is `feasible` and a warning says so."""
    best = _knapsack_optimum()
    ir, x, obj, info = _first_run(best + 5)
    got = highs_backend._presolve_recheck(ir, SolveOptions(), x, obj, info, 0.01)
    status, _x, obj2, info2 = got["use"]
    assert status == "feasible" and obj2 == best + 5 and info2["best_bound"] is None
    assert "disagree" in got["warning"] and got["record"]["outcome"] == "contradiction"


def test_no_time_left_skips_the_second_solve():
    ir, x, obj, info = _first_run(24)
    got = highs_backend._presolve_recheck(ir, SolveOptions(time_limit=1.0), x, obj, info, 2.0)
    assert got["use"] is None and got["record"] == {"ran": False, "first_objective": 24, "first_bound": 24.0,
                                                    "skipped": "no time left"}


def _brute_force_lex(ub: int) -> tuple[int, int]:
    """(the largest id, then the largest sum of qty among the points with that id) over all 5^8 points."""
    q = np.array(list(itertools.product(range(1, 6), repeat=8)), dtype=np.int64)
    ok = (q @ SODIUM <= 3000) & (q @ FAT <= 150) & (q @ CALORIES <= 3000) & (q[:, 6] == q[:, 5]) & (q[:, 4] == q[:, 7])
    ids = (q - 1) @ (5 ** np.arange(8))
    ok &= ids <= ub
    best = int(ids[ok].max())
    return best, int(q[ok & (ids == best)].sum(axis=1).max())


def test_each_level_of_a_static_lex_is_rechecked():
    """staticLex on HiGHS solves one MIP per objective, each holding the earlier optima: a first level
    that HiGHS's presolve gets wrong (153884) would hold the second to a beaten id, called optimal."""
    first, second = _brute_force_lex(153886)
    assert (first, second) == (153886, 22)  # qty = 2,3,1,2,2,5,5,2 is the only point with id 153886
    src = DMC2015.replace("maximize id;", "maximize staticLex(id, sum(f in F) qty[f]);")
    r = pyopl.compile_model(src).solve(solver="highs")
    assert r.status == "optimal" and r.extra["objectives"] == [first, second] and r.objective == first
    assert r.variables["qty"] == {(f,): q for f, q in enumerate([2, 3, 1, 2, 2, 5, 5, 2], 1)}
    recs = r.extra["presolve_recheck"]
    assert [rec["level"] for rec in recs] == [1, 2] and all(rec["ran"] for rec in recs)
    assert recs[0]["objective"] == first and recs[1]["outcome"] == "agree"
    [w] = [d for d in r.diagnostics if d.code == "OPL0712"]
    assert w.message.startswith("objective 1 of the staticLex:") and "153886" in w.message
    r_off = pyopl.compile_model(src).solve(solver="highs", options={"presolve": "off"})
    assert "presolve_recheck" not in r_off.extra and r_off.extra["objectives"] == [first, second]


def test_a_warning_of_an_earlier_solve_in_main_reaches_the_result_once():
    """OPL0712 raised by solves 1 and 2 of a `main` block whose last solve (presolve off through
    `cplex.preind = 0`) raises none: the run's result carries it once, naming the solves; before, only
    the last solve's diagnostics reached the result. Each solve's objective is the brute-force optimum."""
    best = _brute_force_max_id(153886)
    flow = "\n".join(["main {", "  thisOplModel.generate();", "  cplex.solve();", "  writeln(cplex.getObjValue());",
                      "  cplex.solve();", "  writeln(cplex.getObjValue());", "  cplex.preind = 0;",
                      "  cplex.solve();", "  writeln(cplex.getObjValue());", "}"])
    r = pyopl.solve(DMC2015 + "\n" + flow, solver="highs")
    assert r.status == "optimal" and r.script_output.split() == [str(best)] * 3
    [w] = [d for d in r.diagnostics if d.code == "OPL0712"]
    assert w.severity == "warning" and str(best) in w.message
    assert w.notes[-1] == "from solves 1, 2 of the 3 the `main` block ran"


def test_a_loop_of_many_solves_shows_ten_warnings_of_a_code_and_a_count():
    """12 distinct OPL0712 warnings from solves 1..12 of 13 (the 13th gave none): 10 shown, the
    tenth says 2 more were left out."""
    from types import SimpleNamespace

    from pyopl.diagnostics.diagnostic import Diagnostic, Span
    from pyopl.script.flow.main_flow import Flow

    flow = Flow.__new__(Flow)
    flow.solves, flow.solve_warnings = 13, {}
    for n in range(1, 13):
        d = Diagnostic("OPL0712", "warning", "objective %d" % n, Span("m.mod", 1, 1, 1, 2))
        flow.solve_warnings[(d.code, d.span, d.message)] = [d, [n]]
    shown = flow.earlier_warnings(SimpleNamespace(diagnostics=[]))
    assert [d.message for d in shown] == ["objective %d" % n for n in range(1, 11)]
    assert shown[0].notes == ("from solve 1 of the 13 the `main` block ran",)
    assert shown[-1].notes[-1] == "2 more OPL0712 warnings of other solves are left out"
