"""Infeasibility explained in OPL terms: the conflicting constraints by label and index (and the
variable bounds), from HiGHS's IIS, Gurobi's computeIIS and pyopl's elastic filter; unbounded
models name the variables along the ray."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import pyopl
from pyopl.backends.explain.iis import elastic_filter, explain_infeasible
from shared_material import SHARED, needs_shared
from solver_support import gurobi_reason

SOLVERS = ["highs", "gurobi"]


def _skip(solver):
    if solver == "gurobi" and gurobi_reason():
        pytest.skip(gurobi_reason())


def _names(conflict):
    return sorted(r.text for r in conflict.rows)


@needs_shared
@pytest.mark.parametrize("solver", SOLVERS)
def test_infeasible_acceptance_case_names_ctdemand_and_the_ctcap_rows(solver):
    _skip(solver)
    path = SHARED / "acceptance" / "infeasible" / "model.mod"
    res = pyopl.compile_model(path).solve(solver=solver)
    assert res.status == "infeasible"
    assert _names(res.conflict) == ["ctCap[1]", "ctCap[2]", "ctCap[3]", "ctDemand"]
    assert res.conflict.bounds == [] and res.conflict.irreducible
    assert res.message == "ctDemand and ctCap[1], ctCap[2], ctCap[3] cannot hold together"
    d = [d for d in res.diagnostics if d.code == "OPL0704"][0]
    assert (d.line, d.column) == (11, 3) and "`ctDemand`" in d.message  # the span is the label in the model
    assert d.labels and d.labels[0].span.line == 10
    doc = res.to_dict()["conflict"]
    assert [(c["label"], c["index"]) for c in doc["constraints"]] == [("ctCap", [1]), ("ctCap", [2]), ("ctCap", [3]),
                                                                       ("ctDemand", [])]
    assert doc["constraints"][3]["expression"] == "make[1] + make[2] + make[3] >= 45"


@needs_shared
@pytest.mark.parametrize("solver", SOLVERS)
def test_cli_explains_infeasibility_by_default_in_text_and_json(solver):
    _skip(solver)
    path = str(SHARED / "acceptance" / "infeasible" / "model.mod")
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", path, "--solver", solver, "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "infeasible"
    assert out["conflict"]["summary"] == "ctDemand and ctCap[1], ctCap[2], ctCap[3] cannot hold together"
    assert any(d["code"] == "OPL0704" for d in out["diagnostics"])
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", path, "--solver", solver],
                       capture_output=True, text=True, timeout=120)
    assert "ctCap[2]             make[2] <= 10" in p.stdout and "warning[OPL0704]" in p.stderr
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", path, "--solver", solver, "--format", "json",
                        "--no-explain-infeasible"], capture_output=True, text=True, timeout=120)
    assert "conflict" not in json.loads(p.stdout)


BOUNDS = """
dvar float x in 0..5;
dvar float+ y;
minimize x + y;
subject to {
  ctLow: x >= 8;
  ctOther: y <= 100;
}
"""


@pytest.mark.parametrize("solver", SOLVERS)
def test_variable_bounds_take_part_in_the_conflict(solver):
    _skip(solver)
    res = pyopl.compile_model(BOUNDS).solve(solver=solver)
    assert _names(res.conflict) == ["ctLow"]
    assert [b.text for b in res.conflict.bounds] == ["x <= 5"]
    assert res.message == "`ctLow` and the bound `x <= 5` cannot hold together".replace("`", "")


MIP = """
dvar int a in 0..10;
dvar int b in 0..10;
dvar float+ c;
minimize a + b + c;
subject to {
  ctOdd: 2*a + 2*b == 7;
  ctFree: c <= 50;
  ctBig: a + b <= 20;
}
"""


@pytest.mark.parametrize("solver", SOLVERS)
def test_infeasible_mip_with_a_feasible_relaxation(solver):
    _skip(solver)
    # 2a + 2b is even, so it never equals 7; the LP relaxation is feasible, so HiGHS has no LP IIS
    # and pyopl's elastic filter (with integrality kept) finds the conflict on HiGHS
    res = pyopl.compile_model(MIP).solve(solver=solver)
    assert res.status == "infeasible"
    assert _names(res.conflict) == ["ctOdd"]
    want = "Gurobi" if solver == "gurobi" else "elastic"
    assert want in res.conflict.method


def test_elastic_filter_is_irreducible_on_an_lp():
    text = """
range R = 1..4;
dvar float+ v[R];
minimize sum(r in R) v[r];
subject to {
  forall(r in R) ctUp: v[r] <= r;
  ctSum: sum(r in R) v[r] >= 20;
  ctPair: v[1] + v[2] >= 1;
  ctLoose: v[3] <= 100;
}
"""
    ir = pyopl.compile_model(text).ir
    (rows, bounds), irreducible, partial = elastic_filter(ir)
    assert not partial
    names = sorted(ir.row_text(i) for i, _ in rows)
    assert names == ["ctSum", "ctUp[1]", "ctUp[2]", "ctUp[3]", "ctUp[4]"] and irreducible
    assert bounds == []
    # the same answer from HiGHS's own IIS
    assert _names(explain_infeasible(ir, "highs")) == names


def test_feasible_model_has_no_conflict():
    ir = pyopl.compile_model("dvar float+ x;\nminimize x;\nsubject to { c: x >= 1; }").ir
    assert elastic_filter(ir) == (None, True, False)


def test_unlabelled_rows_are_written_out():
    res = pyopl.compile_model("dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { x + 2*y <= 3; x >= 4; }").solve()
    assert res.status == "infeasible"
    assert sorted(r.expression for r in res.conflict.rows) == ["x + 2 * y <= 3", "x >= 4"]
    assert "`x + 2 * y <= 3`" in res.diagnostics[-1].message


def test_unlabelled_rows_are_pointed_at_where_they_are_written():
    # the conflict is lines 4 and 5 (both unlabelled): the diagnostic points there, not at 1:1
    text = "dvar float x in 0..10;\nmaximize x;\nsubject to {\n  x >= 2;\n  x <= 1;\n}\n"
    res = pyopl.compile_model(text).solve()
    assert res.status == "infeasible"
    d = [d for d in res.diagnostics if d.code == "OPL0704"][0]
    assert (d.line, d.column) == (4, 3)
    assert [(lb.span.line, lb.span.column) for lb in d.labels] == [(5, 3)]


@pytest.mark.parametrize("solver", SOLVERS)
def test_unbounded_model_names_the_variables_along_the_ray(solver):
    _skip(solver)
    text = "dvar float+ x;\ndvar float+ y;\ndvar float+ z;\nmaximize x + y;\nsubject to { c1: x - y <= 1; c2: z <= 4; }\n"
    res = pyopl.compile_model(text).solve(solver=solver)
    assert res.status == "unbounded"
    assert set(res.ray) == {"x", "y"} and all(v > 0 for v in res.ray.values())
    d = res.diagnostics[-1]
    assert d.code == "OPL0705" and "`x`" in d.message and "`y`" in d.message and "`z`" not in d.message
    assert (d.line, d.column) == (4, 1)  # at `maximize`
    assert res.to_dict()["ray"] == res.ray


def test_an_infeasible_mip_whose_relaxation_is_infeasible_names_its_rows_on_highs():
    # The nurses pattern (ibm-nurses in the corpus): a nurse required on two shifts at the same
    # hour, while at most one of them may be worked.  The relaxation already conflicts: the
    # conflict is the three rows, never the 0..1 bounds of every assignment.
    text = """
range S = 1..6;
dvar int work[S] in 0..1;
minimize sum(s in S) work[s];
subject to {
  ctSameHour: work[2] + work[5] <= 1;
  forall(s in {2, 5}) ctRequired: work[s] == 1;
  forall(s in S) ctCover: work[s] + work[(s mod 6) + 1] >= 1;
}
"""
    res = pyopl.compile_model(text).solve()
    assert res.status == "infeasible"
    assert _names(res.conflict) == ["ctRequired[2]", "ctRequired[5]", "ctSameHour"]
    assert res.conflict.bounds == [] and "relaxation" in res.conflict.method


def test_an_undecided_elastic_solve_reports_no_conflict_rather_than_a_wrong_one(monkeypatch):
    import pyopl.backends.explain.iis as iis

    ir = pyopl.compile_model(MIP).ir
    real = iis._sub_feasible

    def undecided_elastic(ir_, rows, lower, upper, elastic=None, clock=None):
        return None if elastic is not None else real(ir_, rows, lower, upper, clock=clock)

    monkeypatch.setattr(iis, "_sub_feasible", undecided_elastic)
    assert elastic_filter(ir) == (None, True, False)


def test_the_summary_names_each_logical_constraint_once():
    """Before: `pick, cap and link[1], link[1], link[1], link[2], link[2], link[2] (and 3 more)`: each
    row of a logical constraint's linearisation repeated its name. Infeasible by hand: two of the b[i]
    are 1, so two x[i] >= 5, and their sum 10 exceeds cap's 9."""
    m = """range I = 1..3;
dvar int x[I] in 0..10;
dvar boolean b[I];
minimize sum(i in I) x[i];
subject to {
  forall(i in I) link: b[i] == 1 => x[i] >= 5;
  pick: sum(i in I) b[i] >= 2;
  cap: sum(i in I) x[i] <= 9;
}"""
    r = pyopl.compile_model(m).solve(solver="highs")
    assert r.status == "infeasible" and r.conflict is not None
    summary = r.conflict.summary()
    assert "`link[" in summary and "`cap`" in summary, summary
    for name in ("`pick`", "`cap`", "`link[1]`", "`link[2]`", "`link[3]`"):
        assert summary.count(name) <= 1, summary


def test_helper_columns_of_a_logical_constraint_are_named_by_what_they_stand_for():
    """Before: `#logic["link"][1] + #logic["link"][1] >= 1`, two different helper columns under one
    name. `b[1] == 1 => x[1] >= 5` is `b[1] != 1 || x[1] >= 5`: one helper stands for `b[1] <= 0`,
    the other for `x[1] >= 5`, and the disjunction row is their sum >= 1 (rows written by hand).
    Infeasible: two b[i] are 1, so two x[i] >= 5, and 10 > 9. Only the labels change, not the rows."""
    m = """range I = 1..3;
dvar boolean b[I];
dvar float+ x[I];
minimize sum(i in I) x[i];
subject to {
  forall(i in I) link: b[i] == 1 => x[i] >= 5;
  sum(i in I) b[i] >= 2;
  sum(i in I) x[i] <= 9;
}"""
    model = pyopl.compile_model(m)
    r = model.solve(solver="highs")
    assert r.status == "infeasible" and r.conflict is not None
    link1 = sorted(row.expression for row in r.conflict.rows if row.text == "link[1]")
    assert link1 == ["#[b[1] <= 0] + #[x[1] >= 5] >= 1", "b[1] + #[b[1] <= 0] <= 1", "x[1] - 5 * #[x[1] >= 5] >= 0"]
    assert "#logic" not in r.conflict.text()
    ir = model.ir
    helpers = [j for j in range(ir.num_cols) if ir.col_name[j] == "#logic"]
    assert len(helpers) == 6 and [ir.col_lower[j] for j in helpers] == [0] * 6 and all(ir.col_integer[helpers])


BOUNDS_LP = """
dvar float x in 0..5;
dvar float y in 0..5;
dvar float z in 0..5;
minimize x + y + z;
subject to {
  ctNeed: x + y >= 12;
  ctLoose: x + z <= 100;
}
"""


def test_a_first_set_too_large_for_highs_is_made_irreducible_by_pyopls_deletion_filter(monkeypatch):
    """HiGHS's own deletion pass ignores its time limit, so past IIS_IRREDUCIBLE_MAX rows and bounds
    pyopl's filter makes HiGHS's first set irreducible.  By hand: x + y <= 5 + 5 = 10 < 12, so
    ctNeed and the upper bounds of x and y conflict; ctLoose, z and the lower bounds play no part."""
    import pyopl.backends.mp.highs as highs

    monkeypatch.setattr(highs, "IIS_IRREDUCIBLE_MAX", 0)
    c = explain_infeasible(pyopl.compile_model(BOUNDS_LP).ir, "highs")
    assert "deletion filter" in c.method and c.irreducible and not c.partial
    assert _names(c) == ["ctNeed"]
    assert sorted(b.text for b in c.bounds) == ["x <= 5", "y <= 5"]
    monkeypatch.setattr(highs, "IIS_IRREDUCIBLE_MAX", 1000)  # the same set from HiGHS's own pass
    c = explain_infeasible(pyopl.compile_model(BOUNDS_LP).ir, "highs")
    assert c.method == "HiGHS's IIS (getIis)"
    assert _names(c) == ["ctNeed"] and sorted(b.text for b in c.bounds) == ["x <= 5", "y <= 5"]


ASSIGNMENT = """
int n = 60;
range C = 1..n;
dvar float x[i in C][j in C] in 0..1;
minimize sum(i in C, j in C) x[i][j];
subject to {
  forall(i in C) out: sum(j in C : j != i) x[i][j] == 1;
  forall(j in C) inn: sum(i in C : i != j) x[i][j] == 1;
  total: sum(i in C, j in C : i != j) x[i][j] <= n - 1;
}
"""


def test_the_explanation_of_a_large_lp_keeps_to_its_budget():
    """rs-tsp-mtsp (opl-corpus2): an assignment whose n arcs must fit in n - 1 ran for minutes in
    HiGHS's deletion pass (its time limit does not reach it).  By hand the conflict is `total` with
    all of `out` (or all of `inn`): their sum is n; no bound takes part."""
    import time

    ir = pyopl.compile_model(ASSIGNMENT).ir
    t0 = time.monotonic()
    c = explain_infeasible(ir, "highs", time_limit=1.0)
    assert time.monotonic() - t0 < 8.0  # HiGHS's irreducible pass alone took ~15 s on this model
    names = _names(c)
    assert "total" in names
    if not c.partial:
        assert c.irreducible and not c.bounds
        assert names in (sorted(["total"] + ["out[%d]" % i for i in range(1, 61)]),
                         sorted(["total"] + ["inn[%d]" % i for i in range(1, 61)]))
