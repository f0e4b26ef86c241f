"""Decision-array aliases (OPL manual, "Initialization of decision variable arrays", "Explicit arrays"):
``dvar int y[R] = all[R](i in R) x[i];`` and the other spellings IBM documents share the decisions
they name (pyopl/lowering/model/aliases.py). Each optimum is checked by brute force over the same domains."""
import itertools

import pytest

import pyopl

pytest.importorskip("ortools")


def _solve(text):
    m = pyopl.compile_model(text)
    r = m.solve(threads=1)
    r.n_cols = m.ir.num_cols
    return r


def test_every_documented_alias_spelling_shares_the_decisions():
    r = _solve("""using CP;
    int n = 5; range R = 1..n;
    dvar int x[i in R] in R;
    dvar int y1 = x[1];
    dvar int y[R] = all[R](i in R) x[i];
    dvar int y2[i in R] = x[i];
    dvar int y3[R] = [ i:x[i] | i in R ];
    dvar int y4[R] = [ x[1], x[2], x[3], x[4], x[5] ];
    dvar int y5[0..n-1] = append(all(i in R: i<2) x[i], all(i in R: i>=2) x[i]);
    maximize sum(i in R) i*x[i];
    subject to { allDifferent(y4); y1 == 2; y[2] <= y5[3]; y2[3] + y3[4] >= 3; }""")
    # brute force: x a permutation of 1..5 with x1 == 2, x2 <= x4 (y5 is 0-based), x3 + x4 >= 3
    best = max(sum((i + 1) * v for i, v in enumerate(p)) for p in itertools.permutations(range(1, 6))
               if p[0] == 2 and p[1] <= p[3] and p[2] + p[3] >= 3)
    assert r.status == "optimal" and r.objective == best == 54
    assert [r["x"][i] for i in range(1, 6)] == [2, 1, 3, 4, 5]
    assert r.n_cols == 5  # no new decisions: the aliases name x's columns


def test_generic_alias_reverses_and_is_read_by_a_script():
    r = _solve("""using CP;
    dvar int x[1..3] in 0..5;
    dvar int y[i in 1..3] = x[4-i];
    maximize sum(i in 1..3) i*y[i];
    subject to { allDifferent(y); forall(i in 1..2) y[i] <= y[i+1] - 1; }
    execute { writeln(y[1], " ", y); }""")
    best = max(x3 + 2 * x2 + 3 * x1 for x1, x2, x3 in itertools.product(range(6), repeat=3) if x3 < x2 < x1)
    assert r.status == "optimal" and r.objective == best == 26
    assert r.script_output.strip() == "3 [3 4 5]"


def test_interval_alias_is_the_same_intervals():
    r = _solve("""using CP;
    dvar interval a in 0..10 size 4; dvar interval b in 0..10 size 3; dvar interval c in 0..10 size 2;
    dvar interval itvs[1..3] = [a, b, c];
    minimize max(i in 1..3) endOf(itvs[i]);
    subject to { noOverlap(itvs); startOf(b) >= 1; }""")
    # three jobs on one machine, b not before 1: the makespan is the total size, 9, with b not first
    # (b first would start at 1 and end the schedule at 10)
    assert r.status == "optimal" and r.objective == 9
    spans = sorted([(r["a"].start, r["a"].end), (r["b"].start, r["b"].end), (r["c"].start, r["c"].end)])
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))


@pytest.mark.parametrize("decl, words", [
    ("dvar int y[1..2] = [x[1]];", "`y` has 2 cells, but this gives 1 decision variables"),
    ("dvar int y[1..3] = [x[1], x[2] + 1, x[3]];", "`y[2]` is an alias of decision variables, but this gives a decision expression"),
    ("dvar float f = 3;", "`f` is an alias of decision variables, but this gives 3"),
])
def test_an_alias_that_names_no_decision_is_refused(decl, words):
    diags = pyopl.check("using CP;\ndvar int x[1..3] in 0..5;\n%s\nmaximize sum(i in 1..3) x[i];\n" % decl)
    assert any(words in d.message for d in diags), [d.message for d in diags]
    d = next(d for d in diags if words in d.message)
    assert d.span.line == 3 and d.span.column == decl.index("=") + 3


def test_a_slice_of_a_decision_array_is_an_array_argument():
    # IBM's allDifferent(dvar int[]) takes a row `w[i]` of a 2-D array; brute force over 0..3
    r = _solve("""using CP;
    dvar int w[1..2][1..3] in 0..3;
    minimize sum(i in 1..2, j in 1..3) (i + j) * w[i][j];
    subject to { forall(i in 1..2) allDifferent(w[i]); count(w[2], 0) == 1; w[1][1] >= 1; }""")
    rows = [p for p in itertools.product(range(4), repeat=3) if len(set(p)) == 3]
    best = min(sum((1 + j + 1) * a[j] + (2 + j + 1) * b[j] for j in range(3))
               for a in rows for b in rows if b.count(0) == 1 and a[0] >= 1)
    assert r.status == "optimal" and r.objective == best


def test_a_slice_where_a_number_is_needed_is_named():
    diags = pyopl.check("using CP;\ndvar int w[1..2][1..2] in 0..3;\nminimize w[1][1];\n"
                        "subject to { abs(w[1]) <= 2; }\n")
    d = [d for d in diags if d.code == "OPL0202"]
    assert d and d[0].message == "the argument of `abs` must be a number, but this is an array"
