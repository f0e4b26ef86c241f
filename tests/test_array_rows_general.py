"""Issue 46: the shapes the array rows now take (``?:`` of data, comparisons as 0/1, ``minl``/``maxl``,
ranges and filters that depend on the ``forall``'s indices, a column twice in a row, braced bodies of
several constraints) give exactly the rows of the row-by-row path, and the array path is taken."""
from __future__ import annotations

import numpy as np
import pytest

import pyopl
from pyopl.lowering.arrays import ragged, vectorised_rows
from pyopl.lowering.arrays.array_types import _Fallback
from ir_compare import assert_same_ir
from test_vectorised_rows import _check

HEAD = ("int n = 9; range R = 1..n; float d[i in R] = (i == 2) ? 0 : i * 0.5; int m[i in R] = i mod 4 - 1;\n"
        "{string} S = {\"a\", \"b\", \"c\"};\n"
        "dvar float+ x[R]; dvar float y; dvar float+ z[S];\nminimize sum(i in R) x[i] + y; subject to { %s }")

TAKEN = [
    # `?:` of data, nested, on either side
    "forall(i in R, j in R) c: x[i] - x[j] <= (i == j ? 1 : (i < j ? d[i] : -d[j]));",
    "forall(i in R) c: (i > 4 ? d[i] : 2) >= x[i] + y;",
    "forall(s in S, i in R) c: z[s] + x[i] <= (s == \"b\" ? 1 : 2.5);",
    # comparisons as 0/1, minl/maxl, abs of data
    "forall(i in R) c: x[i] <= d[i] * (i >= 3) + (i == 5) - (i != 7);",
    "forall(i in R) c: x[i] + y <= maxl(d[i], 2) + minl(i, 4, m[i]) + abs(m[i]);",
    # ranges and filters depending on the forall's indices (ragged), empty ranges included
    "forall(i in R) c: sum(j in i-m[i]..i : j >= 1) x[j] <= 1 + y;",
    "forall(i in R) c: sum(j in i-2..i+m[i] : j >= 1 && j <= n) d[j] * x[j] <= 1;",
    "forall(i in R) c: sum(j in R : j >= i - 2 && j <= i) x[j] <= y;",
    "forall(i in R) c: sum(j in R : i - 2 < j && j < i + 1.5 && j != 3) x[j] <= y;",
    "forall(i in R, k in 1..3) c: sum(j in maxl(1, i - k)..i) x[j] - x[i] <= k;",
    # a column twice in a row: summed (integer coefficients), cancelled ones dropped
    "forall(i in R) c: sum(j in R : j <= i) x[j] - x[i] <= 1;",
    "forall(i in R) c: 2 * x[i] + 3 * x[(i mod 3) + 1] - y <= 1;",
]

ROW_PATH = [
    "forall(i in R) c: x[i] <= (i > 1 ? 1 / d[i] : 0);",  # division by zero in a picked branch (i = 2)
    "forall(i in R) c: sum(j in R) sum(k in 1..2) 0.1 * x[(j + k) mod 4 + 1] <= 1 + y;",  # fractions in a nest
    "forall(i in R) c: (i > 3 ? x[i] : 2147483647) + 1 <= y;",  # 2**31 where data is picked: the row path's error
    "forall(i in R) c: x[i] - x[prev(R, i)] <= 1;",  # `prev` of the first element: the row path's error
]

# issue 46, second round: a `?:` with decision terms in a branch (each branch evaluated only where it is
# picked), columns repeated in a row with fractional coefficients (summed in the row path's order)
TAKEN_2 = [
    "forall(i in R) c: x[i] <= (i > 1 ? d[i-1] : 0);",  # the branch not picked fails for i = 1
    "forall(i in R) c: x[i] - (i > 1 ? x[i-1] : d[i]) <= 1;",  # a decision in one branch (x[0] not there)
    "forall(i in R) c: x[i] == (i == 1 ? 3 : x[i-1] + 0.5 * y) + d[i] * y;",  # an inventory balance
    "forall(i in R) c: (i mod 2 == 0 ? 2 * x[i] : -x[i] + y) + y <= (i > 4 ? x[i-4] : 1.5);",
    "forall(i in R, j in R : j != i) c: x[i] + (i < j ? x[j] : 0.3 * x[i]) <= d[j];",  # a repeat in one branch
    "forall(i in R) c: sum(j in R) (j <= i ? x[j] : 0.5 * y) <= 1;",  # inside a sum
    "forall(i in R) c: (i > 3 ? x[i] : 2) + 1 <= 4;",  # a data pick, then data (numbers on the row path)
    "forall(i in R) c: 0.1 * x[i] + 0.2 * x[i] + 0.7 * x[(i mod 2) + 1] <= 1;",  # fractions, one term
    "forall(i in R) c: 0.1 * x[i] + 0.2 * (x[i] + 0.7 * x[(i mod 3) + 1]) - 0.3 * x[(i mod 2) + 1] <= 1;",
    "forall(i in R) c: sum(j in R : j <= i) 0.1 * x[(j mod 3) + 1] - 0.3 * x[(i mod 3) + 1] <= y;",
    # set functions of an iterator in an index: prev/next (past an end: filtered out), the wrapping ones, item
    "forall(i in R : i > 1) c: x[i] - x[prev(R, i)] <= d[i];",
    "forall(i in R : i < n) c: x[next(R, i)] + x[prevc(R, i)] - x[nextc(R, i)] <= 2 * d[i];",
    "forall(i in R) c: x[item(R, ord(R, i) div 2)] + y <= i;",
    "forall(s in S : s != \"a\") c: z[prev(S, s)] - z[s] <= 1;",
    "forall(i in R) c: 0.7 * x[i] + sum(j in 1..3) 0.1 * x[j] - 0.2 * x[1] == sum(j in 1..2) 0.3 * x[j] + y;",
]

# issue 46, round 8: a `?:` whose branch holds a `sum` (each branch on the rows that pick it), sums of data
# in a row (each row's values folded in iteration order, as the Evaluator's `acc += v`)
TAKEN_3 = [
    "forall(i in R) c: x[i] == (i == 1 ? 3 : sum(j in 1..i-1) 0.5 * x[j]);",  # an inventory from a window
    "forall(i in R) c: x[i] - (i > 2 ? sum(j in R : j < i) d[j] * x[j] : y) <= 1;",  # decisions in both
    "forall(i in R) c: (i mod 2 == 0 ? -sum(j in 1..i) x[j] : x[i]) + y >= -5;",  # a negated sum in a branch
    "forall(i in R) c: x[i] - (i > 1 ? sum(j in 1..i) 0.3 * x[j] : 0) <= 1;",  # x[i] repeated, fractions
    "forall(i in R) c: x[i] == (i <= 2 ? 1 : (i <= 5 ? sum(j in 1..2) x[j] : sum(j in 3..i-1) x[j]));",
    "forall(i in R) c: x[i] >= (i > 1 ? sum(j in 1..i-1) d[j] : 0);",  # data: the cumulative demand before i
    "forall(i in R) c: sum(j in 1..i) x[j] >= sum(j in 1..i) d[j];",  # cumulative production and demand
    "forall(i in R) c: x[i] + y <= 2 * sum(j in 1..i : m[j] >= 0) m[j] + 0.1;",  # ints, a filter
    "forall(i in R) c: x[i] * sum(j in 1..i) 0.1 * j <= 4;",  # 0.1 + 0.2 + 0.3 ...: the order of additions
    "forall(i in R, s in S) c: z[s] - x[i] <= sum(j in R : j != i) (j < i ? d[j] : -0.25);",
    # aggregates of data free of the loop: evaluated once (the value every row gets)
    "forall(i in R) c: x[i] <= sum(j in R) d[j] * 0.1;",
    "forall(i in R) c: x[i] + y <= max(j in R : j < 5) d[j] + min(j in R) m[j] - i;",
    "forall(i in R) c: x[i] * sum(j in 1..3) j <= 6 * (sum(j in R : j > 7) j);",
    # membership in a set literal or range, as a condition or as 0/1
    "forall(i in R) c: x[i] <= (i in {2, 5, 7} ? d[i] : 1);",
    "forall(i in R, s in S) c: z[s] + x[i] <= 1 + (s not in {\"a\"}) * 2 + (i in 3..5);",
    # several names in one binder (split: the product, filtered once both are bound), and `ordered`
    "forall(i, j in R : i < j) c: x[i] - x[j] + 10 * y <= d[i];",
    "forall(ordered i, j in R) c[i][j]: x[i] + x[j] <= 1 + m[i];",
    "forall(s in S, ordered i, j, k in 1..5 : i + j != k) c: z[s] + x[i] + x[j] - x[k] <= 2;",
    "forall(ordered s, t in S, i in 1..3) c: z[s] - z[t] <= i;",
    "forall(k in 2..4, i, j in 1..k : i != j) c: x[i] - x[j] <= k;",  # both over a range of k
    # a sum of decisions scaled by data (the folded sum scaled, as LinExpr.scaled: no column repeated in it)
    "forall(i in R) c: y <= 0.5 * sum(j in 1..i) x[j];",
    "forall(i in R) c: x[i] - (sum(j in R : j != i) d[j] * x[j]) / 3 >= -1;",
    "forall(i in R) c: m[i] * sum(j in 1..i) x[j] + y >= 1;",  # m[i] = 0 and -1 in some rows
    "forall(i in R) c: y - sum(j in 1..i) x[j] * d[i] <= (i > 4 ? sum(j in 1..2) x[j] / d[i] : 3);",
    # label indices that are expressions of the loop's iterators (their values, as the row path makes them)
    "forall(i in R : i > 1) c[i - 1]: x[i] - x[i-1] <= 1;",
    "forall(i in R, s in S) c[s][i + 1]: z[s] + x[i] <= 3;",
    "forall(i in R) c[m[i]][i]: x[i] <= 4;",
    "forall(i in R) c[i mod 2]: x[i] <= 1;",  # the same key again
    "forall(s in S, i in R : i < 3) c[s][2 * i - 1][s]: z[s] - x[i] >= -1;",
    # a loop's range over earlier iterators (ragged: each row of the outer loops its own range)
    "forall(i in R, j in 1..i) c: x[j] - x[i] <= d[j];",
    "forall(i in R, j in i+1..n : (i + j) mod 3 != 0) c: x[i] + x[j] <= 1 + y;",
    "forall(i in R, j in i-m[i]..i) c[j][i]: x[j] <= i;",  # m[i] = -1: an empty range
    "forall(i in R) forall(j in 1..i) c: x[j] <= i;",
    "forall(s in S, i in 1..3, j in i..3) c: z[s] + x[j] - x[i] <= 2;",
    # a set literal of the row's own index (round 10: each element compared, ragged._literal_member)
    "forall(i in R) c: sum(j in R) (j in {1, i} ? x[j] : 0) <= 2;",
]

ROW_PATH_3 = [
    "forall(i in R) c: x[i] <= (i > 1 ? sum(j in 1..i-1) d[j] / d[i] : 1);",  # division by zero at i = 2
    "forall(i in R) c[i / 2]: x[i] <= 1;",  # a float key
    "forall(i in R) c: 0.3 * sum(j in 1..i) (x[j] + x[i]) <= 1;",  # x[i] repeated in the scaled sum
    "forall(i in R) c: y <= sum(j in 1..i) x[j] / (i - 2);",  # division by zero at i = 2
]

BRACED = [
    "forall(i in R) { a: x[i] <= d[i] + 1; b: x[i] + y >= 1; x[i] - y <= 3; }",
    "forall(i in R) { c1: d[i] * x[i] <= 4; c2: x[i] <= 5; }",  # row i = 2 of c1 has nothing: left out
    "forall(i in R : i > 1) { up: x[i] - x[i-1] <= d[i]; down: x[i-1] - x[i] <= 1; }",
    "forall(i in R) forall(s in S) { p: z[s] <= x[i]; q: sum(j in 1..i) x[j] >= (s == \"a\" ? 1 : 0); }",
    # issue 46, second round: nested `forall`s, `if`s and indexed labels in the body
    "forall(i in R) { c: x[i] <= d[i]; e[i]: x[i] + y >= 1; }",
    "forall(i in R) { a[i]: x[i] <= 4; forall(s in S) b[s][i]: z[s] - x[i] <= 1; c: x[i] + y >= 0; }",
    "forall(i in R) { forall(s in S : s != \"b\") { p: z[s] <= x[i]; q[s]: z[s] + y >= i; } r: x[i] <= 9; }",
    "forall(i in R) { if (i > 3) up: x[i] - x[i-1] <= d[i]; else lo: x[i] >= 0.5; w: x[i] + y <= 20; }",
    "forall(i in R) { if (m[i] >= 0) { a: x[i] <= 3; b[i]: x[i] + y <= 4; } forall(j in R : j < i) o: x[i] - x[j] <= 2; }",
    "forall(i in R) if (i mod 2 == 0) even[i]: x[i] + (i > 2 ? x[i-2] : 0) <= 3;",
    "forall(s in S) { forall(i in R) { forall(j in 1..2) t[s][i][j]: z[s] + x[i] - x[j] <= i; } u: z[s] <= 8; }",
    "forall(i in R) { c[i - 1]: x[i] <= d[i]; e[i + 1][i]: x[i] >= 0.5; }",  # label indices that are expressions
    "forall(i in R) { c: x[i] <= d[i]; forall(j in 1..i) o: x[j] <= i; }",  # a range of the outer index
    "forall(ordered i, j in 1..4) { a: x[i] <= x[j] + 1; b[j][i]: x[j] - x[i] <= 2; }",
    "forall(i in R) { forall(j in i+1..n) { p[i][j]: x[i] + x[j] <= 1; } q: x[i] >= 0.1; }",
    # a set of the outer index (round 10: a filter over the set it is built from, forall_set_domains)
    "forall(i in R) { c: x[i] <= d[i]; forall(j in R diff {i}) o: x[j] <= i; }",
]

BRACED_ROW_PATH = [
    "forall(i in R) { c: x[i] <= d[i]; forall(j in {i} union nb[i]) o: x[j] <= i; }",  # a set of the outer index
]


@pytest.mark.parametrize("stmt", TAKEN + TAKEN_2 + TAKEN_3 + ROW_PATH + ROW_PATH_3 + BRACED + BRACED_ROW_PATH)
def test_same_rows_as_the_row_path(monkeypatch, stmt):
    _check(HEAD % stmt, "", monkeypatch)


def _families_added(monkeypatch, stmt) -> list:
    added = []
    real, braced = vectorised_rows._add, vectorised_rows._add_interleaved
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append("one"), real(inst, cons, r)))
    monkeypatch.setattr(vectorised_rows, "_add_interleaved",
                        lambda inst, fams, placed: (added.append(len(fams)), braced(inst, fams, placed)))
    try:
        pyopl.compile_model(HEAD % stmt)
    except pyopl.CompileError:  # (the row path's words: the division by zero)
        pass
    monkeypatch.undo()
    return added


@pytest.mark.parametrize("stmt", TAKEN + TAKEN_2 + TAKEN_3)
def test_the_array_path_takes_it(monkeypatch, stmt):
    assert _families_added(monkeypatch, stmt) == ["one"]


@pytest.mark.parametrize("stmt", BRACED_ROW_PATH)
def test_a_body_the_array_path_cannot_take_goes_iteration_by_iteration(monkeypatch, stmt):
    assert all(a == "one" for a in _families_added(monkeypatch, stmt))  # (a nested loop's rows: per iteration)


@pytest.mark.parametrize("stmt", ROW_PATH + ROW_PATH_3)
def test_what_the_array_path_cannot_decide_goes_row_by_row(monkeypatch, stmt):
    assert _families_added(monkeypatch, stmt) == []


def test_a_braced_body_is_one_interleaved_piece(monkeypatch):
    assert _families_added(monkeypatch, BRACED[0]) == [3]
    ir = pyopl.compile_model(HEAD % BRACED[0]).ir
    assert ir.row_label[:6] == ["a", "b", "", "a", "b", ""]
    assert ir.row_key[:4] == [(1,), (1,), (), (2,)]
    assert ir.row_upper[:3].tolist() == [1.5, np.inf, 3.0]
    assert ir.row_lower[1] == 1.0
    assert list(ir.families["a"].rows) == [0, 3, 6, 9, 12, 15, 18, 21, 24]
    assert [ir.stmt_spans[k].line for k in ir.row_stmt[:3]] == [ir.stmt_spans[ir.row_stmt[k]].line for k in (3, 4, 5)]


@pytest.mark.parametrize("stmt", BRACED[4:])
def test_nested_loops_ifs_and_indexed_labels_are_taken(monkeypatch, stmt):
    assert len(_families_added(monkeypatch, stmt)) == 1


def test_a_nested_body_keeps_the_row_paths_order_and_keys(monkeypatch):
    """Written out by hand: for each i, ``a[i]``, then ``b[s][i]`` for each s, then ``c`` keyed by i."""
    ir = pyopl.compile_model(HEAD % BRACED[5]).ir
    want_labels, want_keys = [], []
    for i in range(1, 10):
        want_labels += ["a"] + ["b"] * 3 + ["c"]
        want_keys += [(i,)] + [(s, i) for s in "abc"] + [(i,)]
    assert list(ir.row_label) == want_labels and list(ir.row_key) == want_keys
    ifs = pyopl.compile_model(HEAD % BRACED[7]).ir  # `if (i > 3) up else lo`, then w
    assert list(ifs.row_label) == ["lo", "w"] * 3 + ["up", "w"] * 6


def test_a_ragged_range_is_never_the_full_product(monkeypatch):
    """``sum(s in t-w[u]+1..t : s >= 1)`` over 300 x 300 rows charges the window's candidates, not 300**3."""
    mod = ("range U = 1..300; range T = 1..300; int w[u in U] = u mod 5 + 1; dvar float+ s[U][T];\n"
           "minimize sum(u in U, t in T) s[u][t];\n"
           "subject to { forall(u in U, t in T) c: sum(k in t-w[u]+1..t : k >= 1) s[u][k] >= 1; }")
    charged = []
    real = ragged._bind

    def spy(sub, b, counts, lo, domain, base):
        charged.append(int(counts.sum()))
        return real(sub, b, counts, lo, domain, base)

    monkeypatch.setattr(ragged, "_bind", spy)
    ir = pyopl.compile_model(mod).ir
    assert charged == [300 * sum(u % 5 + 1 for u in range(1, 301))]
    assert ir.A.nnz == sum(min(u % 5 + 1, t) for u in range(1, 301) for t in range(1, 301))


def test_fractional_repeats_are_added_in_the_row_paths_order(monkeypatch):
    """The coefficient of a repeated column is the row path's fold, by hand: ``(0.1 + 0.2) - 0.3`` for a flat
    chain, ``0.1 - (0.3 - 0.2)`` for a bracket, each a different double; and the array path made it."""
    mod = HEAD % ("forall(i in 1..3) c: 0.1 * x[i] + 0.2 * x[i] - 0.3 * x[i] + y <= 1;"
                  "forall(i in 1..3) e: 0.1 * x[i] - (0.3 * x[i] - 0.2 * x[i]) + y <= 1;")
    assert _families_added(monkeypatch, mod[mod.index("forall"):mod.rindex("}")]) == ["one", "one"]
    a = pyopl.compile_model(mod).ir.A.tocsr()
    assert (0.1 + 0.2) - 0.3 != 0.1 - (0.3 - 0.2)
    for r, want in ((0, (0.1 + 0.2) - 0.3), (3, 0.1 - (0.3 - 0.2))):
        assert a[r, 0] == want and a[r, 9] == 1.0  # x[1], y


def test_merge_repeats_equals_a_left_to_right_fold():
    rng = np.random.default_rng(0)
    m = 200
    counts = rng.integers(0, 8, size=m)
    indptr = np.concatenate(([0], np.cumsum(counts)))
    col = rng.integers(0, 6, size=indptr[-1])
    coef = rng.integers(-3, 4, size=indptr[-1]).astype(float)
    merged = coef.copy()
    ragged.merge_repeats(indptr, col, merged)
    for r in range(m):
        fold: dict = {}
        for j, c in zip(col[indptr[r]:indptr[r + 1]].tolist(), coef[indptr[r]:indptr[r + 1]].tolist()):
            fold[j] = fold.get(j, 0.0) + c
        got = {j: c for j, c in zip(col[indptr[r]:indptr[r + 1]].tolist(), merged[indptr[r]:indptr[r + 1]].tolist())
               if c != 0.0}
        assert got == {j: c for j, c in fold.items() if c != 0.0}
    fractions = np.array([0.1, 0.2, -0.3, 0.5, 0.25])
    ragged.merge_repeats(np.array([0, 5]), np.array([1, 1, 1, 2, 2]), fractions)
    assert fractions.tolist() == [(0.1 + 0.2) - 0.3, 0.0, 0.0, 0.75, 0.0]
    terms = np.array([0.1, 0.2, -0.3])  # three terms, the last on the right side: (0.1 + 0.2) + -0.3
    ragged.merge_repeats(np.array([0, 3]), np.array([4, 4, 4]), terms, np.array([0, 1, 2]), 2)
    assert terms[0] == (0.1 + 0.2) - 0.3
    sides = np.array([0.1, 0.2, -0.3])  # the first term left, two right: 0.1 + (0.2 + -0.3)
    ragged.merge_repeats(np.array([0, 3]), np.array([4, 4, 4]), sides, np.array([0, 1, 2]), 1)
    assert sides[0] == 0.1 + (0.2 - 0.3)
    with pytest.raises(_Fallback):  # a fraction repeated inside a flattened nest of sums
        ragged.merge_repeats(np.array([0, 2]), np.array([1, 1]), np.array([0.1, 0.2]), np.array([0, 0]), 1, [0])


def test_a_failed_declaration_leaves_the_family_to_the_row_path(monkeypatch):
    """A ``dvar`` whose declaration failed: the row path stops at its first use without more words, so the
    array path must not bind the loop first (it charged the work budget 490,000 for nothing, and the
    next statement was then refused)."""
    mod = ("range R = 1..700; float a[R] = ...; dvar float x[i in R] in 0..a[i + 1000]; dvar float+ u;\n"
           "minimize u;\n"
           "subject to { forall(i in R, j in R) { x[i] <= u + j; } forall(i in R, j in R) ct: u >= i - j; }")
    dat = "a = [%s];" % ", ".join(["1"] * 700)
    limits = pyopl.Limits(max_work=800_000)
    on = [(d.code, d.span.line) for d in pyopl.check(mod, dat, limits=limits) if d.is_error]
    from pyopl.lowering.model import constraints
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    assert on == [(d.code, d.span.line) for d in pyopl.check(mod, dat, limits=limits) if d.is_error] == [("OPL0301", 1)]


GENERIC = [
    "float g[i in R][s in S] = (s == \"a\" ? d[i] : (i > 3 ? -d[i] : 0));",
    "float g[i in R][j in R] = (i == j) * 2 - (i < j) * d[j] + maxl(i, m[j]);",
    "int g[i in R][j in R] = i * 10 + j - (i == j ? 0 : m[i]);",
    "int g[i in R][j in R] = (i > 2 ? i div 2 : -0);",
    "float g[i in R][j in R] = (i > 2 ? 1 / d[i - 2] : 0);",  # d[0]: the element path's words
    "int g[i in R][j in R] = (i > 2 ? d[i] : 0);",  # a float for an int: the element path's words
]


@pytest.mark.parametrize("decl", GENERIC)
def test_generic_number_arrays_equal_the_element_path(monkeypatch, decl):
    from pyopl.lowering.arrays import vectorised_subsets

    use = "g[i][%s]" % ("s" if "s in S" in decl else "j")
    loop = "s in S" if "s in S" in decl else "j in R"
    mod = HEAD.replace("dvar float+ x[R];", decl + "\ndvar float+ x[R];") % (
        "forall(i in R, %s) c: x[i] + y >= %s; forall(i in R) x[i] * %s <= 5;"
        % (loop, use, "g[i][1]" if loop == "j in R" else "g[i][\"a\"]"))
    on = _check(mod, "", monkeypatch)
    monkeypatch.setattr(vectorised_subsets, "vector_number_array", lambda *a: None)
    element = [(d.code, d.message, d.span) for d in pyopl.check(mod)]
    try:
        element_ir = pyopl.compile_model(mod).ir
    except pyopl.CompileError:
        element_ir = None
    monkeypatch.undo()
    assert [(d.code, d.message, d.span) for d in pyopl.check(mod)] == element
    assert_same_ir(on, element_ir)
    taken = []
    real = vectorised_subsets.vector_number_array
    monkeypatch.setattr(vectorised_subsets, "vector_number_array",
                        lambda *a: (taken.append(1), real(*a))[1])
    try:
        pyopl.compile_model(mod)
    except pyopl.CompileError:
        pass
    monkeypatch.undo()
    assert taken and (on is not None) == ("d[i - 2]" not in decl and "int g[i in R][j in R] = (i > 2 ? d" not in decl)


DEXPR_HEAD = HEAD.replace("dvar float y;", "dvar float y;\ndexpr float tot[i in R] = sum(j in R : j <= i) d[j] * x[j];")


@pytest.mark.parametrize("stmt", [
    "forall(i in R, j in 1..2) c: x[i] + y <= tot[i] / 2 + j;",  # the dexpr's `j` renamed, not captured
    "forall(j in R) c: x[j] - 0.25 * tot[j] >= 0;",
])
def test_a_dexpr_cell_whose_sum_binds_a_loop_name_is_inlined(monkeypatch, stmt):
    _check(DEXPR_HEAD % stmt, "", monkeypatch)
    added = []
    real = vectorised_rows._add
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append("one"), real(inst, cons, r)))
    pyopl.compile_model(DEXPR_HEAD % stmt)
    monkeypatch.undo()
    assert added == ["one"]


def test_label_index_expressions_and_data_sums_by_hand(monkeypatch):
    """``c[i - 1]:`` keys each row by ``i - 1``; the cumulative demand ``sum(j in 1..i) d[j]`` is each row's
    lower bound, added left to right by hand (``d[j] = j / 2`` except ``d[2] = 0``); the array path made both."""
    stmt = "forall(i in R : i > 1) c[i - 1]: sum(j in 1..i) x[j] >= sum(j in 1..i) d[j];"
    assert _families_added(monkeypatch, stmt) == ["one"]
    ir = pyopl.compile_model(HEAD % stmt).ir
    assert list(ir.row_label) == ["c"] * 8 and list(ir.row_key) == [(k,) for k in range(1, 9)]
    want = []
    for i in range(2, 10):
        acc = 0
        for j in range(1, i + 1):
            acc += 0 if j == 2 else j * 0.5
        want.append(acc)
    assert ir.row_lower.tolist() == want
    assert ir.A.tocsr()[3].nnz == 5  # i = 5: x[1] .. x[5]


# issue 46, round 8: a `forall` over a tuple pattern, in the single-name form (keys: the pattern's values)
TUPLE_HEAD = ("tuple P { int a; string s; float w; }\n"
              "{P} Ps = {<1, \"a\", 0.5>, <2, \"b\", 1.5>, <3, \"a\", -0.0>, <1, \"c\", 2>, <4, \"b\", 0.25>};\n") + HEAD

PATTERN_FORALLS = [
    "forall(<a, s, w> in Ps) c: x[a] + z[s] <= w + 3;",
    "forall(<a, s, w> in Ps : w > 0) c[s][a]: x[a] - y >= -w;",
    "forall(<a, s, w> in Ps) sum(j in 1..a) x[j] <= w * z[s];",
    "forall(<a, s, w> in Ps) forall(j in 1..2) c: x[j] + x[a] <= w + j;",
    "forall(<a, s, w> in Ps) c: x[a] + sum(t in Ps : t.s == s) t.w * x[t.a] <= 4;",
    # a loop's name in a sum's pattern is a condition on that field
    "forall(a in 1..4) c: sum(<a, s, w> in Ps) w * x[a] + y >= a;",
    "forall(s in S) c: sum(<a, s, w> in Ps : w > 0.3) x[a] <= 2 + z[s];",
    "forall(a in R, s in S) c: sum(<a, s, w> in Ps) w * x[a] + z[s] >= 0;",
    "forall(w in 1..2) c: sum(<a, s, w> in Ps) x[a] + y >= w;",  # the float 2 equals the int 2
]
PATTERN_OTHERS = [
    "forall(<a, s, w> in Ps) c: x[a] + sum(<b, t, v> in Ps : t == s) v * x[b] <= 4;",  # a pattern in a pattern
    "forall(<a, s, w> in Ps) { c: x[a] <= w + 1; e: z[s] >= a; }",  # a braced body: iteration by iteration
    "forall(i in R) c: sum(<a, s, w> in Ps) sum(j in 1..a) w * x[j] <= i;",  # a pattern sum holding a sum
    "forall(i in R) c: sum(<a, s, w> in Ps) sum(<b, t, v> in Ps : b == a) x[b] <= i;",  # patterns nested
]


@pytest.mark.parametrize("stmt", PATTERN_FORALLS + PATTERN_OTHERS)
def test_tuple_pattern_foralls_same_rows_as_the_row_path(monkeypatch, stmt):
    _check(TUPLE_HEAD % stmt, "", monkeypatch)


@pytest.mark.parametrize("stmt", PATTERN_FORALLS)
def test_tuple_pattern_foralls_are_taken(monkeypatch, stmt):
    added = []
    real = vectorised_rows._add
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append("one"), real(inst, cons, r)))
    pyopl.compile_model(TUPLE_HEAD % stmt)
    monkeypatch.undo()
    assert added == ["one"]


def test_tuple_pattern_keys_by_hand():
    ir = pyopl.compile_model(TUPLE_HEAD % PATTERN_FORALLS[0]).ir
    assert list(ir.row_key) == [(1, "a", 0.5), (2, "b", 1.5), (3, "a", -0.0), (1, "c", 2.0), (4, "b", 0.25)]
    assert ir.row_upper.tolist() == [3.5, 4.5, 3.0, 5.0, 3.25]


# issue 46, round 8: a row's value in the binder's cell (`t in covers[s]`: the shifts covering period t)
COVER_HEAD = """
int n = 9; range R = 1..n; {string} S = {"a", "b", "c"};
{int} cov[s in 1..6] = {t | t in R : t >= s && t < s + 3};
{int} odd[s in S] = {t | t in R : t mod 2 == (s == "a" ? 1 : 0)};
{int} given[1..3] = ...;
dvar float+ w[1..6]; dvar float+ z[S];
minimize sum(s in 1..6) w[s] + sum(s in S) z[s];
subject to { %s }
"""
COVER_DAT = "given = [{1, 4}, {}, {4, 2, 8}];"
COVER_ROWS = [
    "forall(t in 1..8) c: sum(s in 1..6 : t in cov[s]) w[s] >= 1;",
    "forall(t in 1..8) c: sum(s in 1..6 : t in cov[s] && s != 3) 0.5 * w[s] + sum(s in S : t + 1 in odd[s]) z[s] >= 1;",
    "forall(t in R, u in S) c: sum(s in S : t not in odd[s]) z[s] - z[u] <= t;",
    "forall(t in R) c: sum(k in 1..3 : t in given[k]) w[k] + w[4] >= 2;",
]


@pytest.mark.parametrize("stmt", COVER_ROWS)
def test_a_rows_value_in_the_binders_cell(monkeypatch, stmt):
    from pyopl.lowering.arrays import vectorised_subsets
    _check(COVER_HEAD % stmt, COVER_DAT, monkeypatch)
    used, added = [], []
    real, add = vectorised_subsets.mask_rows, vectorised_rows._add
    monkeypatch.setattr(vectorised_subsets, "mask_rows", lambda *a: (used.append(1), real(*a))[1])
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append("one"), add(inst, cons, r)))
    pyopl.compile_model(COVER_HEAD % stmt, COVER_DAT)
    monkeypatch.undo()
    assert added == ["one"] and used


def test_covering_rows_by_hand():
    """Period t is covered by the shifts s with s <= t < s + 3 (s in 1..6): t = 1 by w[1]; t = 5 by w[3..5]."""
    ir = pyopl.compile_model(COVER_HEAD % COVER_ROWS[0], COVER_DAT).ir
    a = ir.A.toarray()
    cols = {ir.col_key[j][0]: j for j in range(a.shape[1]) if ir.col_name[j] == "w"}
    assert [sorted(s for s, j in cols.items() if a[r, j]) for r in range(8)] == [
        [s for s in range(1, 7) if s <= t < s + 3] for t in range(1, 9)]
