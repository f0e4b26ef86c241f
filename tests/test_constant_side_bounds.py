"""`k <= e` is the range k <= e <= +inf (Concert's IloRange(k, e, +inf)), so a script's `ct.LB = v` in `main`
moves k; before, pyopl stored `k - e <= 0` (UB = -k) and `ct.LB = 600` made the row 600 <= -e <= -300,
infeasible (corpus afp-tips-severalincrementalchanges, Alex Fleischer's "several incremental changes")."""
from __future__ import annotations

import pyopl

BUSES = """
int nbKids = 300;
dvar int+ nbBus40;
dvar int+ nbBus30;
minimize 500*nbBus40 + 400*nbBus30;
subject to {
  ctKids1: 40*nbBus40 + 30*nbBus30 <= nbKids;
  ctKids2: nbKids <= 40*nbBus40 + 30*nbBus30;
}
main {
  thisOplModel.generate();
  cplex.solve();
  writeln("LB ", thisOplModel.ctKids2.LB, " UB ", thisOplModel.ctKids1.UB);
  var buffer = 600;
  thisOplModel.ctKids1.UB = buffer;
  thisOplModel.ctKids2.LB = buffer;
  cplex.solve();
}
"""


def _brute(kids: int) -> int:
    """Cheapest 40a + 30b == kids by enumeration."""
    return min(500 * a + 400 * b for a in range(kids // 40 + 1) for b in range(kids // 30 + 1) if 40 * a + 30 * b == kids)


def test_constant_on_the_left_is_the_lower_bound_a_script_moves():
    r = pyopl.solve(BUSES)
    assert r.status == "optimal"
    assert r.objective == _brute(600) == 7500
    assert "LB 300 UB 300" in r.script_output


def test_constant_on_the_left_reads_as_the_row_lower_bound():
    m = pyopl.compile_model("dvar float+ x;\nminimize x;\nsubject to { c: 4 <= 2*x; d: 10 >= x; }\n")
    lo, hi = list(m.ir.row_lower), list(m.ir.row_upper)
    # c is 4 <= 2x (+inf above), d is x <= 10: the modeller's coefficients, not negated
    assert (lo[0], hi[0]) == (4.0, float("inf")) and m.ir.A.toarray()[0].tolist() == [2.0]
    assert hi[1] == 10.0 and m.ir.A.toarray()[1].tolist() == [1.0]
    assert m.solve().objective == 2.0


def test_a_forall_family_takes_the_constant_side_as_the_row_path_does():
    # enough rows for the vectorised family path (pyopl.lowering.arrays.vectorised_rows); by hand: row i is i <= 2*x[i]
    m = pyopl.compile_model("range I = 1..4;\ndvar float+ x[I];\nminimize sum(i in I) x[i];\n"
                            "subject to { forall(i in I) c: i <= 2*x[i]; }\n")
    assert list(m.ir.row_lower) == [1.0, 2.0, 3.0, 4.0]
    assert all(v == float("inf") for v in m.ir.row_upper)
    assert m.ir.A.toarray().tolist() == [[2.0, 0, 0, 0], [0, 2.0, 0, 0], [0, 0, 2.0, 0], [0, 0, 0, 2.0]]
    assert m.solve().objective == 5.0  # x[i] = i/2
