"""The CP conflict refiner (pyopl/backends/cp/conflict.py): for an infeasible ``using CP;`` model the
conflict names constraints, global ones included, that cannot hold together while dropping any one
makes the rest feasible. Each expectation is checked independently: feasibility of every subset by
brute force over the small domains."""
import itertools

import pytest

import pyopl

pytest.importorskip("ortools")

# x[1..4] in 1..4, z in 0..10; constraints by name, as predicates on (x, z)
CONSTRAINTS = {
    "ad": lambda x, z: len(set(x)) == 4,
    "lo": lambda x, z: all(v >= 2 for v in x),  # lo[1..4] together: one statement
    "zz": lambda x, z: z >= 5,
    "free": lambda x, z: x[0] <= 4,
}
MODEL = """using CP;
dvar int x[1..4] in 1..4;
dvar int z in 0..10;
subject to {
  ad: allDifferent(x);
  forall(i in 1..4) lo: x[i] >= 2;
  zz: z >= 5;
  free: x[0 + 1] <= 4;
}
"""


def _feasible(names):
    return any(all(CONSTRAINTS[n](x, z) for n in names)
               for x in itertools.product(range(1, 5), repeat=4) for z in range(11))


def test_a_global_constraint_and_rows_form_an_irreducible_conflict():
    r = pyopl.solve(MODEL)
    assert r.status == "infeasible" and r.conflict is not None
    found = {row.label for row in r.conflict.rows}
    assert found == {"ad", "lo"} and r.conflict.irreducible and not r.conflict.partial
    assert sorted(row.text for row in r.conflict.rows if row.label == "lo") == ["lo[%d]" % i for i in range(1, 5)]
    # independently: the set is infeasible, and dropping any one of its members makes it feasible
    assert not _feasible(found) and all(_feasible(found - {n}) for n in found)
    assert any(d.code == "OPL0704" for d in r.diagnostics)


def test_cp_refine_conflict_and_write_conflict_in_main():
    r = pyopl.solve("""using CP;
    dvar interval a in 0..10 size 6;
    dvar interval b in 0..10 size 5;
    dvar int k in 0..3;
    subject to { no: noOverlap([a, b]); kk: k >= 1; }
    main {
      thisOplModel.generate();
      if (!cp.solve()) { writeln("refined: ", cp.refineConflict()); cp.writeConflict(); }
    }""")
    # by hand: sizes 6 + 5 do not fit in 0..10 one after the other; `kk` alone is satisfiable
    assert r.script_output.splitlines()[0] == "refined: true"
    assert "no                   noOverlap(...) over 2 intervals" in r.script_output
    assert "kk" not in r.script_output


def test_refine_conflict_is_false_after_a_feasible_solve():
    r = pyopl.solve("""using CP;
    dvar int x in 0..3;
    subject to { x >= 1; }
    main { thisOplModel.generate(); cp.solve(); writeln(cp.refineConflict()); cp.writeConflict(); }""")
    assert r.script_output == "false\nno conflict: the last solve was not infeasible\n"


LOGIC = """using CP;
dvar int x[1..3] in 0..3;
maximize sum(i in 1..3) (4 - i) * x[i];
subject to {
%s
}
"""
BLOCK = """  forall(i in 1..3) (x[i] == 1) => (x[i mod 3 + 1] != 2);
  forall(i in 1..3) (x[i] == 3) => (x[(i + 1) mod 3 + 1] <= 1);
  (x[1] == 3) || (x[2] == 3) || (x[3] == 0);
"""


def test_repeated_conditions_share_their_literals_in_a_cp_model():
    # lowering/linearise/logical.py: a condition written again reuses its literal (half-reified, so sharing is exact)
    once = pyopl.compile_model(LOGIC % BLOCK)
    twice = pyopl.compile_model(LOGIC % (BLOCK + BLOCK))
    assert twice.ir.num_cols == once.ir.num_cols
    r = twice.solve(threads=1)
    best = max(3 * a + 2 * b + c for a, b, c in itertools.product(range(4), repeat=3)
               if all(not (v[i] == 1) or v[(i + 1) % 3] != 2 for v in [(a, b, c)] for i in range(3))
               and all(not (v[i] == 3) or v[(i + 2) % 3] <= 1 for v in [(a, b, c)] for i in range(3))
               and (a == 3 or b == 3 or c == 0))
    assert r.status == "optimal" and r.objective == best


def test_a_cumul_function_constraint_is_named_by_its_text():
    """Before: `(unlabelled)  cumul(...)`. By hand: the level starts at 5 (`step(0, 5)`) and drops by 8
    when `a` starts, to -3, so `stock >= 0` cannot hold on its own; `room` (-3 >= -10) alone holds."""
    model = """using CP;
dvar interval a in 0..10 size 3;
cumulFunction stock = step(0, 5) - stepAtStart(a, 8);
subject to {
  %sstock >= 0;
  room: stock >= -10;
}"""
    r = pyopl.solve(model % "")
    assert r.status == "infeasible" and r.conflict is not None
    [row] = r.conflict.rows
    assert (row.label, row.text, row.expression) == ("", "stock >= 0", "stock >= 0")
    assert (row.span.line, row.span.column) == (5, 3)
    assert r.conflict.summary() == "`stock >= 0` cannot hold"
    assert "cumul(" not in r.conflict.text()
    [row] = pyopl.solve(model % "low: ").conflict.rows
    assert (row.label, row.text, row.expression) == ("low", "low", "stock >= 0")
