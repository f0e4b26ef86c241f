"""A filter `i == e` over a range takes that one element without visiting the others, as IBM's OPL
"slices" (IBM's tip "if is slower than slicing", opl-corpus2 afp-tips2-ifslowerthanslicing2:
`forall(i in 1..100000000 : i == 2) x == i;` runs in 0.027 s in IBM's OPL; pyopl refused the range,
100,000,000 elements being more than it iterates). Expected values worked out by hand."""
import time

import pytest

import pyopl

BIG = 100_000_000


def test_ibms_slicing_tip_runs_and_binds_the_one_element():
    text = "int N = %d;\nrange r = 1..N;\ndvar int x;\nsubject to {\n forall(i in r : i == 2) x == i;\n}\n" % BIG
    began = time.process_time()
    r = pyopl.solve(text)
    assert r.status == "optimal" and r.variables["x"] == 2  # the one row: x == 2
    assert time.process_time() - began < 5


@pytest.mark.parametrize("text,objective,values", [
    # maximize x[3] - sum(x)/100 with x[4] <= 2: x[3] = 10, the rest 0: 10 - 0.1
    ("dvar float x[1..5] in 0..10;\nmaximize sum(i in 1..%d : i == 3) x[i] - sum(i in 1..5) x[i] / 100;\n"
     "subject to { forall(i in 1..%d : i == 4) x[i] <= 2; }\n" % (BIG, BIG), 9.9, {"x": {(1,): 0, (2,): 0, (3,): 10, (4,): 0, (5,): 0}}),
    # j = 1: i = 2 fails `i > 2`; j = 2: y[2] <= 4; j = 3: y[3] <= 6; y[1] = 10: 10 + 4 + 6
    ("dvar float y[1..3] in 0..10;\nmaximize sum(j in 1..3) y[j];\n"
     "subject to { forall(j in 1..3, i in 1..%d : i == j * 2 && i > 2) ct: y[j] <= i; }\n" % BIG, 20, {"y": {(1,): 10, (2,): 4, (3,): 6}}),
    # 2.5 is no integer (no row); 7.0 equals 7 (z <= 7); 0 is outside the range (no row)
    ("dvar float z in 0..10;\nmaximize z;\nsubject to { forall(i in 1..%d : i == 2.5) z <= 1;\n"
     "forall(i in 1..%d : 7.0 == i) z <= i;\nforall(i in 1..%d : i == 0) z <= 0; }\n" % (BIG, BIG, BIG), 7, {"z": 7}),
])
def test_a_filter_equal_to_one_value_takes_that_element_of_a_range(text, objective, values):
    r = pyopl.solve(text)
    assert r.status == "optimal" and r.objective == pytest.approx(objective)
    for name, want in values.items():
        got = r.variables[name]
        assert (got == pytest.approx(want)) if not isinstance(want, dict) else \
            {k: pytest.approx(v) for k, v in want.items()} == got


def test_the_same_filter_on_a_small_range_gives_the_same_rows_as_a_scan():
    """Slicing changes how the element is found, never which: the IR matches a scan's (joins off)."""
    from pyopl.lowering.evaluate.expressions import Evaluator

    text = ("int k = 3;\ndvar float x[1..9] in 0..10;\nmaximize sum(i in 1..9) x[i];\n"
            "subject to { forall(j in 1..4, i in 1..9 : i == j + k) c: x[i] <= j; }\n")
    sliced = pyopl.compile_model(text).ir
    Evaluator.joins = False
    try:
        scanned = pyopl.compile_model(text).ir
    finally:
        Evaluator.joins = True
    assert (sliced.A != scanned.A).nnz == 0 and list(sliced.row_upper) == list(scanned.row_upper) == [1, 2, 3, 4]
