"""What the CP-SAT build of a scheduling model is made of (issue 46, item 6): a sequence array filtered
by its own index (``all(j, o : Ops[j][o].mch == m)``) evaluated once and grouped must give each
sequence the intervals, in the order, that the filter gives term by term; an interval of fixed size
gets no CP-SAT size variable (the expected counts are worked out by hand from the model)."""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

import pyopl
from pyopl.backends.cp import cpsat

SHOP = """using CP;
tuple Operation { int mch; int pt; };
Operation Ops[j in 0..2][o in 0..1] = ...;
dvar interval itvs[j in 0..2][o in 0..1] size Ops[j][o].pt;
dvar sequence mchs[m in 0..3] in all(j in 0..2, o in 0..1 : %s) itvs[j][o];
subject to { forall(m in 0..3) noOverlap(mchs[m]); }
"""


DAT = "Ops = [[<1, 3>, <0, 2>], [<0, 4>, <1, 1>], [<1, 2>, <2, 5>]];"


def _machines(text: str) -> list[list[str]]:
    ir = pyopl.compile_model(text, data=DAT, source="text").ir
    return [[ir.intervals[k].label() for k in c.data["intervals"]] for c in ir.cp_constraints if c.kind == "noOverlap"]


# by hand from Ops: machine 0 runs (0,1) and (1,0); machine 1 (0,0), (1,1), (2,0); machine 2 (2,1);
# machine 3 nothing; within a machine, the comprehension's order (j, then o)
BY_HAND = [["itvs[0][1]", "itvs[1][0]"], ["itvs[0][0]", "itvs[1][1]", "itvs[2][0]"], ["itvs[2][1]"], []]


@pytest.mark.parametrize("cond", ["Ops[j][o].mch == m", "m == Ops[j][o].mch"])
def test_a_sequence_array_filtered_by_its_index_takes_each_machines_intervals_in_order(cond):
    assert _machines(SHOP % cond) == BY_HAND


def test_a_filter_that_is_not_an_equality_with_the_index_is_still_evaluated_term_by_term():
    # `mch >= m`: machine m takes every operation on machine m or later (by hand from Ops)
    got = _machines(SHOP % "Ops[j][o].mch >= m")
    assert got[2] == ["itvs[2][1]"] and got[3] == [] and len(got[0]) == 6
    assert got[1] == ["itvs[0][0]", "itvs[1][1]", "itvs[2][0]", "itvs[2][1]"]


def test_an_interval_of_fixed_size_has_no_size_variable_in_cp_sat():
    ir = pyopl.compile_model("""using CP;
    dvar interval a[1..3] size 2;
    dvar interval b size 1;
    dvar interval c size 1..4;
    subject to { noOverlap(append(a, [b, c])); }""", source="text").ir
    m = cpsat.build(cp_model, ir)[0]
    # start and end of each of the 5 intervals (10) and c's size (1): the fixed sizes are constants of the
    # intervals, as a direct build writes them, with no variable of their own
    assert len(m.proto.variables) == 11
    ivs = [c.interval for c in m.proto.constraints if c.has_interval()]
    assert [(list(iv.size.vars), iv.size.offset) for iv in ivs][:4] == [([], 2), ([], 2), ([], 2), ([], 1)]
    assert len(ivs[4].size.vars) == 1


def test_a_fixed_size_interval_model_solves_with_its_sizes():
    r = pyopl.compile_model("""using CP;
    dvar interval a[1..3] size 2;
    dvar interval b size 3;
    minimize max(i in 1..3) endOf(a[i]) + endOf(b);
    subject to { noOverlap(append(a, [b])); }""", source="text").solve(threads=1)
    # by hand: b must not overlap the three a's (6 units); b first ends at 3, the a's at 5, 7, 9: 9 + 3 = 12;
    # b last ends at 9 and the a's at most 6: 6 + 9 = 15; so 12
    assert r.status == "optimal" and r.objective == 12
    assert [r["a"][i].size for i in (1, 2, 3)] == [2, 2, 2] and r["b"].size == 3


def test_cp_sat_names_are_the_columns_and_intervals_opl_labels():
    # the build formats each int/str index part once; the names must stay what column_label and
    # IntervalVar.label give one at a time (strings quoted, tuples in <...>, ints bare)
    from pyopl.backends.cp.constraints import interval_labels

    ir = pyopl.compile_model("""using CP;
    {string} S = {"a", "b"};
    tuple T { int i; string s; };
    {T} TS = {<1, "x">, <2, "1">};
    dvar interval a[S][1..2] size 2;
    dvar int y[TS] in 0..3;
    dvar interval b[TS] size 1;
    subject to { noOverlap(all(s in S, k in 1..2) a[s][k]); }""", source="text").ir
    m = cpsat.build(cp_model, ir)[0]
    names = [v.name for v in m.proto.variables]
    expected = [ir.column_label(j) for j in range(ir.num_cols) if ir.col_lower[j] != ir.col_upper[j]]
    assert names == expected and 'a.start["a"][1]' in names and 'y[<2,"1">]' in names
    assert interval_labels(ir.intervals) == [iv.label() for iv in ir.intervals]
    assert interval_labels(ir.intervals)[-1] == 'b[<2, "1">]'


ROW_MODELS = [
    SHOP % "Ops[j][o].mch == m" + "subject to { forall(j in 0..2) endBeforeStart(itvs[j][0], itvs[j][1], 1); }\n",
    """using CP;
dvar int x in -5..20; dvar int y in 0..9; dvar int z in 0..3;
dvar interval a size 5; dvar interval b in 0..40 size 2..6;
minimize x + 2 * y;
subject to {
  3 * x - 2 * y >= 1;  x + y <= 10;  2 <= x - y <= 5;  x >= 2.5;  y <= 7.999999999999;  z == 1;
  x + sizeOf(a) <= 12;  sizeOf(b) + x >= 4;  y - z >= -4.2;  -x <= 3;
  endBeforeStart(a, b, 2);  startOf(b) - endOf(a) <= 30;
}
""",
]


@pytest.mark.parametrize("text", ROW_MODELS)
def test_rows_made_in_one_call_are_the_constraints_the_sum_of_their_terms_makes(text, monkeypatch):
    ir = pyopl.compile_model(text, data=DAT, source="text").ir
    fast = str(cpsat.build(cp_model, ir)[0].proto)
    add_rows = cpsat._add_rows
    monkeypatch.setattr(cpsat, "_whole_bounds", lambda lower, upper: None)  # each row's inner_bounds
    monkeypatch.setattr(cpsat, "_add_rows", lambda m, ir, xs, part=None, weighted_sum=None: add_rows(m, ir, xs, part))
    assert fast == str(cpsat.build(cp_model, ir)[0].proto)
    assert fast.count("linear {") >= 2


def test_every_row_s_integer_bounds_are_found_at_once_as_row_by_row():
    from pyopl.backends.cpsat_scale import inner_bounds

    rng = __import__("numpy").random.default_rng(7)
    values = [0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 3.0000000001, 2.9999999999, -7.3, 1e15 + 0.5, -4e15, 1e-12, 7.999999999999]
    values += rng.normal(0, 1e3, 200).tolist() + rng.integers(-10**6, 10**6, 50).astype(float).tolist()
    inf = float("inf")
    lower, upper = values + [-inf, 3.0], values[::-1] + [inf, -inf]
    got = cpsat._whole_bounds(lower, upper)
    assert got == ([inner_bounds(lo, hi, 1)[0] for lo, hi in zip(lower, upper)],
                   [inner_bounds(lo, hi, 1)[1] for lo, hi in zip(lower, upper)])
    assert all(type(v) is int for v in got[0] + got[1] if v is not None)
    assert cpsat._whole_bounds([2.0 ** 53], [0.0]) is None and cpsat._whole_bounds([float("nan")], [0.0]) is None
