"""Issue 46, round 9: the practitioner spellings that round 8 left row by row, now taken by the array rows.

Each statement gives exactly the rows of the row-by-row path (IR bit for bit, same diagnostics:
``test_vectorised_rows._check``), and the array path made its family (``vectorised_rows._add`` or
``_add_interleaved`` called, no row made one by one); a case worked by hand where the rule is new.
"""
from __future__ import annotations

import pytest

import pyopl
from pyopl.lowering.arrays import vectorised_rows
from pyopl.lowering.model import constraints
from test_vectorised_rows import _check

HEAD = """
int n = 9; range R = 1..n; {string} S = {"a", "b", "c"};
float d[i in R] = (i == 2) ? 0 : i * 0.5; int m[i in R] = i mod 4 - 1;
{int} odd[s in S] = {t | t in R : t mod 2 == (s == "a" ? 1 : 0)};
{int} given[1..3] = ...; {int} nb[i in R] = {j | j in R : (i + j) mod 3 == 0};
tuple arc { int i; int j; } {arc} Arcs = {<1, 2>, <2, 3>, <3, 1>, <2, 2>, <4, 9>, <9, 1>};
tuple pair { string s; int t; } {pair} Pairs = {<"a", 1>, <"c", 3>, <"b", 2>, <"a", 7>};
tuple karc { key int i; int j; } {karc} Keyed = {<1, 2>, <2, 3>};
dvar float+ x[R]; dvar float y; dvar float+ z[S]; dvar boolean b[R][R]; dvar float+ f[Arcs];
minimize sum(i in R) x[i] + y + sum(s in S) z[s];
subject to { %s }
"""
DAT = "given = [{1, 4}, {}, {4, 2, 8}];"

# 1. `ordered i, j in S` where S depends on an earlier iterator: j runs after i within that row's own S
ORDERED = [
    "forall(k in 2..4, ordered i, j in 1..k) c: x[i] - x[j] <= k;",
    "forall(k in 0..3, ordered i, j in 1..k) c[k][i][j]: x[i] + x[j] <= k + 10 * b[i][j];",  # k = 0, 1: none
    "forall(k in 1..3, ordered i, j in given[k]) c[k][i][j]: x[i] + d[i] <= x[j] + 100 * (1 - b[i][j]);",
    "forall(s in S, ordered i, j, t in odd[s] : i + j != t) c: z[s] + x[i] + x[j] - x[t] <= 2;",
    "forall(k in R, ordered i, j in k..minl(n, k + m[k] + 1) : i + j > 5) c: x[i] - x[j] + y <= d[k];",
    "forall(k in 1..3, ordered i, j in given[k]) { a: x[i] <= x[j] + k; e[i][j]: b[i][j] + b[j][i] <= 1; }",
    # nested in a loop over k (flattened into one family), and in a braced body
    "forall(k in 2..5) forall(ordered i, j in 1..k : i + j != 5) a[k][i][j]: x[i] <= x[j] + k;",
    "forall(k in 1..3) { forall(ordered i, j in given[k]) a: x[i] <= x[j] + k; e: x[k] <= 4; }",
    "forall(s in S) { forall(ordered i, j, t in odd[s]) a: x[i] + x[j] <= x[t] + 1; forall(i, j in odd[s] : i != j) e: x[i] - x[j] <= 3; }",
]

# 2. `min`/`max` of data over the loop's iterators in a row (each row's own iterations, reduced per row)
MINMAX = [
    "forall(i in R) c: x[i] <= max(j in 1..i) d[j];",
    "forall(i in R) c: x[i] + y >= min(j in i..n : j != 4) m[j] * 0.5 + max(j in 1..i) m[j];",
    "forall(s in S, i in R) c: z[s] + x[i] <= max(t in odd[s] : t <= i + 1) d[t] + i;",
    "forall(i in R) c: x[i] <= maxl(max(j in 1..i) d[j], 1) - min(j in R : j >= i) d[j];",
    "forall(i in R) c: x[i] <= (i > 1 ? max(j in 1..i-1) d[j] : 0) + y;",  # picked only where not empty
]
MINMAX_ROW_PATH = [
    "forall(i in R) c: x[i] + y >= max(j in 1..i) (-d[j]);",  # -0.0 (d[2] = 0): Python keeps the first of equals
    "forall(i in R) c: x[i] + y >= max(j in 1..i-1) d[j] - 5;",  # i = 1: an empty max, the row path's -inf
]

# 3. a bracketed chain holding a sum of decisions, scaled or added (folded into one LinExpr first, as the row path)
BRACKETS = [
    "forall(i in R) c: (sum(j in 1..i) 0.1 * x[j] + 0.2 * y) * 3 <= 1;",
    "forall(i in R) c: y - (sum(j in R : j < i) d[j] * x[j] + x[i]) >= -1;",
    "forall(i in R) c: 3 * (sum(j in 1..2) x[j] - d[i] * y + 1.5) + x[i] <= 10;",  # x[1], x[2] again outside
    "forall(s in S, i in R) c: z[s] + (i > 3 ? (sum(j in 1..i) x[j] + y) * 0.5 : y) <= 4;",
    "forall(i in R) c: (3 + sum(j in 1..i) x[j]) * 2 - 0.1 * (sum(j in i..n) x[j] - y) <= 10 + i;",
    "forall(i in R) c: (sum(j in 1..i) 0.3 * x[j] + 0.7 * y - 0.1) / 3 >= 0.2;",
    "forall(i in R) c: x[i] == (i > 1 ? sum(j in 1..i-1) x[j] + 1 : 2);",  # a chain as a `?:` branch
    # a column twice in the bracket: summed in the row path's order, then scaled
    "forall(i in R) c: (sum(j in 1..i) 0.1 * x[j] + 0.7 * x[2]) * 3 <= 1;",
    "forall(i in R) c: (sum(j in 1..i) 0.1 * x[j] + 0.2 * x[i]) * 3 <= 1;",
    "forall(i in R) c: d[i] * (sum(j in R) 0.3 * b[i][j] - sum(j in R) 0.1 * b[j][i]) + 0.7 * b[i][i] <= y;",
    "forall(i in R) c: y - 3 * (x[i] - sum(j in 1..i) 0.1 * x[j]) >= 0;",  # x[i]: 1 - 0.1, then * 3
]
BRACKETS_ROW_PATH = [
    "forall(i in R) c: (sum(j in 1..i) x[j] + y) / d[i] <= 1;",  # d[2] = 0: the row path's words
]
# (a negated bracket, `-(sum(j in 1..i) x[j] + y) * 2`, is taken since round 10: test_array_rows_round10.py)

# 4. a tuple literal of the iterators in a filter (`<i, j> in Arcs`) and as an index (`f[<i, j>]`)
TUPLES = [
    "forall(i in R, j in R : <i, j> in Arcs) c: x[i] - x[j] <= d[i];",
    "forall(i in R) c: sum(j in R : <i, j> in Arcs) f[<i, j>] <= x[i];",
    "forall(j in R) c: sum(i in R : <i, j> in Arcs && i != j) f[<i, j>] + y >= 1;",
    "forall(i in R, j in R : <i, j> not in Arcs && i < 4 && j < 4) c[i][j]: x[i] + x[j] <= 1;",
    "forall(s in S, t in R : <s, t> in Pairs) c: z[s] + x[t] <= t;",
    "forall(i in R, j in R : <j, i + 1.0> in Arcs) c: x[i] + y <= x[j] + 1;",  # 2.0 equals the int 2
    "forall(i in R, j in R : <i, j> in Arcs) c: f[<i, j>] <= x[i] + x[j];",
]
TUPLES_ROW_PATH = [
    "forall(i in R) c: sum(j in R : i != j) f[<i, j>] <= 1;",  # <1, 1> is no arc: the row path's words
    "forall(i in R, j in R : <i, j> in Keyed) c: x[i] <= x[j];",  # a type with keys: the row path's rule
]

# a value in a cell of an array of sets indexed by the iterators (`j in nb[i]`), in a filter, as 0/1, in `?:`
CELLS = [
    "forall(i in R) c: y <= sum(j in R : j in nb[i] && j != i) x[j];",
    "forall(i in R) c: y <= sum(j in R) x[j] * (j in nb[i]) + sum(j in R : j not in nb[i]) 0.5 * x[j];",
    "forall(s in S, t in R : t + 1 in odd[s]) c: z[s] + x[t] <= 3;",
    "forall(k in 1..3) c: sum(j in R : j in given[k] || j == 9) x[j] >= 1;",
    "forall(i in R) c: x[i] <= (i * 1.0 in nb[maxl(1, i - 1)] ? 1 : 2) + y;",
]

# data terms before a `?:` whose branch holds decisions (`cap[t] - (t > 1 ? sum(...) : 0)`): added as the
# row path adds them as numbers, where they stay within 32 bits (an overflow is the row path's to word)
DATA_FIRST = [
    "forall(i in R) c: x[i] <= d[i] - (i > 1 ? sum(j in 1..i-1) x[j] : 0);",
    "forall(i in R) c: x[i] <= 0.5 + m[i] + (i > 3 ? x[i-1] : -0.0) - d[i];",
    "forall(i in R) c: y + x[i] >= 1 - (i mod 2 == 0 ? sum(j in 1..i) 0.5 * x[j] : 1) + 3 * (i > 4 ? y : 0);",
]
DATA_FIRST_ROW_PATH = [
    "forall(i in R) c: x[i] <= m[i] + 2147483647 - (i > 1 ? x[i-1] : 0);",  # 2**31 at i = 2: the row path's words
]

# an aggregate of data free of every loop inside a sum's body (evaluated once, as the row path's value)
INVARIANT_IN_SUM = [
    "forall(i in R) c: y <= sum(j in R) x[j] * d[j] / sum(k in R) d[k];",
    "forall(i in R) c: y <= sum(j in 1..i) x[j] * max(k in R) d[k] - sum(j in R) 0.1 * x[j] * sum(k in 1..3) k;",
]
INVARIANT_IN_SUM_ROW_PATH = [
    "forall(i in R) c: y <= sum(j in R) x[j] / sum(k in R : k > 20) d[k];",  # an empty sum: division by zero
]
# (a sum of the sum's own iterator, `sum(j in R) x[j] * sum(k in 1..j) d[k]`, is taken since round 10)


def _made(monkeypatch, stmt: str) -> tuple[list, int]:
    """(the array families added, the rows made one by one) compiling ``stmt``."""
    added, one = [], [0]
    real, braced, cons = vectorised_rows._add, vectorised_rows._add_interleaved, constraints._cons
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, c, r: (added.append("one"), real(inst, c, r)))
    monkeypatch.setattr(vectorised_rows, "_add_interleaved",
                        lambda inst, fams, placed: (added.append(len(fams)), braced(inst, fams, placed)))

    def counted(inst, s, env):
        one[0] += 1
        return cons(inst, s, env)

    monkeypatch.setattr(constraints, "_cons", counted)
    try:
        pyopl.compile_model(HEAD % stmt, DAT)
    except pyopl.CompileError:  # (the row path's words: a division by zero)
        pass
    finally:
        monkeypatch.undo()
    return added, one[0]


@pytest.mark.parametrize("stmt", ORDERED + MINMAX + MINMAX_ROW_PATH + BRACKETS + BRACKETS_ROW_PATH
                                  + TUPLES + TUPLES_ROW_PATH + CELLS + DATA_FIRST
                                  + DATA_FIRST_ROW_PATH + INVARIANT_IN_SUM + INVARIANT_IN_SUM_ROW_PATH)
def test_same_rows_as_the_row_path(monkeypatch, stmt):
    _check(HEAD % stmt, DAT, monkeypatch)


@pytest.mark.parametrize("stmt", ORDERED + MINMAX + BRACKETS + TUPLES + CELLS + DATA_FIRST
                                  + INVARIANT_IN_SUM)
def test_the_array_path_takes_it(monkeypatch, stmt):
    added, one = _made(monkeypatch, stmt)
    assert len(added) == 1 and one == 0


def test_ordered_pairs_of_each_rows_cell_by_hand():
    """``given = [{1, 4}, {}, {4, 2, 8}]``: the pairs in each cell's own order (4 before 2), none for the
    empty cell, and ``1..k`` gives the pairs i < j <= k."""
    ir = pyopl.compile_model(HEAD % ORDERED[2], DAT).ir
    assert list(ir.row_key) == [(1, 1, 4), (3, 4, 2), (3, 4, 8), (3, 2, 8)]
    assert ir.row_upper.tolist() == [100 - 0.5, 100 - 2.0, 100 - 2.0, 100 - 0.0]
    ir = pyopl.compile_model(HEAD % ORDERED[1], DAT).ir
    assert list(ir.row_key) == [(k, i, j) for k in range(0, 4) for i in range(1, k + 1) for j in range(i + 1, k + 1)]


@pytest.mark.parametrize("stmt", MINMAX_ROW_PATH + BRACKETS_ROW_PATH + TUPLES_ROW_PATH
                                  + DATA_FIRST_ROW_PATH + INVARIANT_IN_SUM_ROW_PATH)
def test_what_the_array_path_cannot_decide_goes_row_by_row(monkeypatch, stmt):
    added, one = _made(monkeypatch, stmt)
    assert added == [] and one > 0


def test_a_running_maximum_by_hand():
    """``x[i] <= max(j in 1..i) d[j]`` with ``d[j] = j / 2`` except ``d[2] = 0``: 0.5, 0.5, 1.5, 2, ..."""
    ir = pyopl.compile_model(HEAD % MINMAX[0], DAT).ir
    assert ir.row_upper.tolist() == [max(0 if j == 2 else j * 0.5 for j in range(1, i + 1)) for i in range(1, 10)]


def test_a_scaled_bracket_by_hand():
    """``(sum(j in 1..2) x[j] - d[i] * y + 1.5) * 3 + x[i] <= 10`` at i = 1: x[1] gets 3 + 1, x[2] 3, y
    -0.5 * 3, and the bound 10 - 4.5; at i = 2 (d[2] = 0) y's 0 coefficient is dropped."""
    ir = pyopl.compile_model(HEAD % BRACKETS[2], DAT).ir
    a = ir.A.tocsr()
    col = {(ir.col_name[j], ir.col_key[j]): j for j in range(a.shape[1])}
    row = [{j: v for j, v in zip(a.indices[a.indptr[r]:a.indptr[r + 1]].tolist(),
                                 a.data[a.indptr[r]:a.indptr[r + 1]].tolist())} for r in range(2)]
    assert row[0] == {col["x", (1,)]: 4.0, col["x", (2,)]: 3.0, col["y", ()]: -1.5}
    assert ir.row_upper[0] == 10 - 4.5 and col["y", ()] not in row[1]


def test_tuple_membership_by_hand():
    """The arcs (i, j) of ``Arcs`` with both ends in R, in the loop's order (i, then j); ``<j, i + 1.0>``
    finds ``<1, 2>`` at i = 1 (2.0 == 2), and ``f[<i, j>]`` is the arc's own column (the self-loop
    ``<2, 2>`` has ``x[2]`` twice, summed)."""
    ir = pyopl.compile_model(HEAD % TUPLES[6], DAT).ir
    arcs = [(1, 2), (2, 2), (2, 3), (3, 1), (4, 9), (9, 1)]
    assert list(ir.row_key) == arcs
    a = ir.A.tocsr()
    for r, (i, j) in enumerate(arcs):
        got = {(ir.col_name[c], ir.col_key[c]): v for c, v in zip(a.indices[a.indptr[r]:a.indptr[r + 1]].tolist(),
                                                                    a.data[a.indptr[r]:a.indptr[r + 1]].tolist())}
        want = {("f", ((i, j),)): 1.0}
        for k in (i, j):
            want["x", (k,)] = want.get(("x", (k,)), 0.0) - 1.0
        assert got == want
    assert list(pyopl.compile_model(HEAD % TUPLES[5], DAT).ir.row_key) == [(1, 1), (1, 2), (2, 2), (8, 4)]


def test_a_value_in_each_rows_cell_by_hand():
    """``nb[i] = {j : (i + j) mod 3 == 0}`` less ``i`` itself: row i = 3 holds x[6], x[9]; i = 1 holds x[2],
    x[5], x[8]."""
    ir = pyopl.compile_model(HEAD % CELLS[0], DAT).ir
    a = ir.A.tocsr()
    for r, i in enumerate(range(1, 10)):
        cols = a.indices[a.indptr[r]:a.indptr[r + 1]].tolist()
        assert sorted(ir.col_key[c][0] for c in cols if ir.col_name[c] == "x") == \
            [j for j in range(1, 10) if (i + j) % 3 == 0 and j != i]


def test_a_column_twice_in_a_bracket_is_summed_then_scaled_by_hand():
    """``(sum(j in 1..i) 0.1 * x[j] + 0.7 * x[2]) * 3``: at i = 2, x[2] gets ``(0.1 + 0.7) * 3`` (the row
    path folds the bracket, then scales), not ``0.1 * 3 + 0.7 * 3``; x[2] stays at its first place."""
    ir = pyopl.compile_model(HEAD % BRACKETS[7], DAT).ir
    a = ir.A.tocsr()
    x = {ir.col_key[j][0]: j for j in range(a.shape[1]) if ir.col_name[j] == "x"}
    row = dict(zip(a.indices[a.indptr[1]:a.indptr[2]].tolist(), a.data[a.indptr[1]:a.indptr[2]].tolist()))
    assert (0.1 + 0.7) * 3 != 0.1 * 3 + 0.7 * 3
    assert row == {x[1]: 0.1 * 3, x[2]: (0.1 + 0.7) * 3}


def test_a_sum_holding_an_aggregate_of_data_is_one_array_sum(monkeypatch):
    """``sum(j in R) x[j] * w[j] / sum(k in K) w[k]`` outside a ``forall`` (a single constraint): the inner
    sum is data free of ``j``, evaluated once; the outer sum is made by ``vector_sum`` (it was made term
    by term, the inner sum evaluated again for each of the 300 terms), with the row path's IR."""
    from pyopl.lowering.arrays import vectorised
    mod = ("range R = 1..300; range K = 1..7; float w[j in R] = j mod 7 + 0.5; dvar float+ x[R]; dvar float y;\n"
           "minimize y; subject to { c: y <= sum(j in R) x[j] * w[j] / sum(k in K) w[k]; }")
    ir = _check(mod, None, monkeypatch)
    made = []
    real = vectorised.vector_sum
    monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: (lambda r: (made.append(r), r)[1])(
        real(ev, node, env)))
    pyopl.compile_model(mod)
    monkeypatch.undo()
    assert any(r is not None for r in made)
    total = sum(k % 7 + 0.5 for k in range(1, 8))
    # (x[j] * w[j]) / S: the form scaled by 1 / S, as LinExpr.scaled(1.0 / k) scales it
    assert ir.A.tocsr()[[0], :].toarray()[0][:3].tolist() == [-((j % 7 + 0.5) * (1.0 / total)) for j in range(1, 4)]


# the objective: the same shapes as a row's side (data aggregates in a sum's body, brackets, `?:` of sums),
# taken by `vector_objective`; each gives the IR of the term-by-term path (every array path off)
OBJECTIVES = [
    "sum(i in R) x[i] * d[i] / sum(k in R) d[k] + y",
    "sum(i in R) x[i] * max(k in R) d[k] - sum(j in R) 0.1 * x[j] * sum(k in 1..3) k",
    "sum(s in S) z[s] * 3 / sum(k in R) m[k] + sum(i in R) x[i] * min(k in R : k > 1) d[k]",
    "(sum(i in R) 0.1 * x[i] + 0.7 * x[2]) * 3 + y",  # x[2] twice in the bracket: summed, then scaled
    "y - (sum(j in R) d[j] * x[j] + x[1])",
    "(n > 3 ? sum(i in R) x[i] : y) + max(k in R) d[k]",
    "-(sum(i in R) x[i] + y) * 2",  # a negated bracket (round 10)
    "sum(i in R) x[i] * sum(k in 1..i) d[k]",  # an aggregate of the sum's own iterator (round 10)
]
OBJECTIVES_TERM_BY_TERM = [
    "sum(i in R) x[i] / sum(k in R : k > 20) d[k]",  # an empty sum: the row path's division by zero
]


def _objective_made(monkeypatch, mod: str) -> list:
    """What ``vector_objective`` returned compiling ``mod`` (None: the objective was built term by term)."""
    made, real = [], vectorised_rows.vector_objective
    monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: (
        lambda r: (made.append(r), r)[1])(real(inst, expr)))
    try:
        pyopl.compile_model(mod, DAT)
    except pyopl.CompileError:
        pass
    monkeypatch.undo()
    return made


@pytest.mark.parametrize("obj", OBJECTIVES + OBJECTIVES_TERM_BY_TERM)
def test_objective_same_as_term_by_term(monkeypatch, obj):
    from ir_compare import array_paths_off, assert_same_bits, check_and_compile
    mod = HEAD.replace("minimize sum(i in R) x[i] + y + sum(s in S) z[s];", "minimize %s;" % obj) % "y >= -5;"
    on = check_and_compile(mod, DAT, monkeypatch)
    array_paths_off(monkeypatch)
    off = check_and_compile(mod, DAT, monkeypatch)
    assert on[1] == off[1]
    assert_same_bits(on[0], off[0])
    made = _objective_made(monkeypatch, mod)
    assert made and (made[0] is not None) == (obj in OBJECTIVES)


def test_a_normalised_objective_by_hand(monkeypatch):
    """``minimize sum(i in I) x[i] * w[i] / sum(k in I) w[k]``: one array objective (it was made term by term,
    the inner sum evaluated again for every term); each coefficient ``w[i] * (1 / S)``, as ``LinExpr.scaled``
    scales ``x[i] * w[i]`` by ``1.0 / S``."""
    mod = ("range I = 1..400; float w[i in I] = i mod 7 + 0.5; dvar float+ x[I];\n"
           "minimize sum(i in I) x[i] * w[i] / sum(k in I) w[k]; subject to { sum(i in I) x[i] >= 1; }")
    made = _objective_made(monkeypatch, mod)
    assert len(made) == 1 and made[0] is not None
    total = sum(k % 7 + 0.5 for k in range(1, 401))
    assert pyopl.compile_model(mod).ir.obj.tolist() == [(i % 7 + 0.5) * (1.0 / total) for i in range(1, 401)]
