"""Issue 46, round 10: the spellings round 9 left row by row, now taken by the array rows.

Each statement gives exactly the rows of the row-by-row path (IR bit for bit, the sign of every zero
included, and the same diagnostics), and the array path made its family (``vectorised_rows._add``
called, no row made one by one); a case worked by hand where the rule is new.
"""
from __future__ import annotations

import pytest

import pyopl
from ir_compare import assert_same_bits
from test_array_rows_round9 import _made as _made9
from test_vectorised_rows import _check

HEAD = """
int n = 9; range R = 1..n; {string} S = {"a", "b", "c"}; range K = 1..3;
float d[i in R] = (i == 2) ? 0 : i * 0.5; int m[i in R] = i mod 4 - 1; float e[k in K] = k * 1.5 - 2;
int a[i in R][k in K] = (i * k) mod 5 - 1; float f[i in R][k in K] = (i + k) * 0.3;
{int} given[1..3] = ...; {int} nb[i in R] = {j | j in R : (i + j) mod 3 == 0};
dvar float+ x[R]; dvar float y; dvar float+ z[S]; dvar float+ w[R][R];
minimize sum(i in R) x[i] + y + sum(s in S) z[s];
subject to { %s }
"""
DAT = "given = [{1, 4}, {}, {4, 2, 8}];"


def _made(monkeypatch, stmt: str) -> tuple[list, int]:
    import test_array_rows_round9 as r9
    monkeypatch.setattr(r9, "HEAD", HEAD)
    monkeypatch.setattr(r9, "DAT", DAT)
    try:
        return _made9(monkeypatch, stmt)
    finally:
        monkeypatch.undo()


def _same(monkeypatch, stmt: str) -> None:
    """The array path's IR is the row path's bit for bit (signs of zeros, dtypes, names), same diagnostics."""
    from pyopl.lowering.arrays import vectorised_rows
    from pyopl.lowering.model import constraints
    mod = HEAD % stmt
    on = _check(mod, DAT, monkeypatch)
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: None)
    try:
        off = pyopl.compile_model(mod, DAT).ir
    except pyopl.CompileError:
        off = None
    monkeypatch.undo()
    assert_same_bits(on, off)


# 1. the negation of a bracketed chain holding a sum of decisions: LinExpr.scaled(-1.0) of the folded bracket
NEGATED = [
    "forall(i in R) c: -(sum(j in 1..i) x[j] + y) <= 1;",
    "forall(i in R) c: -(sum(j in 1..i) x[j] + y) * 2 <= 1;",
    "forall(i in R) c: x[i] - (3 - (sum(j in 1..i) 0.1 * x[j] + 0.2 * x[i])) <= d[i];",  # x[i] twice
    "forall(i in R) c: -(sum(j in R) w[i][j] + x[i] - d[i]) >= -10;",
    "forall(i in R) c: y + -(i > 3 ? sum(j in 1..i) x[j] + 1 : d[i] + 1) <= 4;",  # a data branch
    "forall(i in R) c: -(i > 3 ? sum(j in 1..i) x[j] : m[i] + 2) + x[i] <= 4;",
    "forall(i in R) c: -(-(sum(j in 1..i) 0.3 * x[j] - y)) / 3 >= 0.2;",
]
NEGATED_ROW_PATH = [
    "forall(i in R) c: -(sum(j in 1..i) x[j] + y) / d[i] <= 1;",  # d[2] = 0: the row path's words
    "forall(i in R) c: y + -(i > 3 ? sum(j in 1..i) x[j] + 1 : 0) <= 4;",  # the int 0 negated is +0 there
    "forall(i in R) c: -(i > 3 ? sum(j in 1..i) x[j] : m[i]) + x[i] <= 4;",  # m[1] = 0
    # a bracket that is a number in some rows (given[2] is empty: the sum is the int 0), divided: the row
    # path divides the number (3.5 / 3), where a linear form is scaled by 1 / 3 (a different last bit)
    "forall(i in R) c: (sum(j in given[i mod 3 + 1]) x[j] + d[i]) / 3 + x[i] <= 1;",
    "forall(i in R) c: -(sum(j in given[i mod 3 + 1]) x[j] + d[i]) / 3 + -(sum(j in i..n) x[j] - 0.5) * 2 <= 1;",
]

# 2. `prod` of data in a row: each row's iterations folded from the int 1 as the Evaluator folds them
PROD = [
    "forall(i in R) c: x[i] <= prod(k in K) f[i][k];",
    "forall(i in R) c: x[i] <= prod(k in 1..i) m[k] + 1;",  # ints: 0 * -1 is +0, as in Python
    "forall(i in R) c: x[i] + y >= prod(k in K : k != i) a[i][k] * 2;",
    "forall(i in R) c: x[i] <= prod(k in 1..3) e[k] + prod(k in i..i+1) (k * 0.5);",
    "forall(i in R) c: x[i] <= prod(k in 1..i-1) e[k mod 3 + 1] - d[i];",  # i = 1: no iteration, 1
    "forall(i in R) c: y <= sum(j in R) x[j] * prod(k in K) e[k];",  # free of the loops: evaluated once
    "forall(i in R) c: x[i] <= prod(j in nb[i]) (j * 0.25);",  # each row's cell
]
PROD_ROW_PATH = [
    "forall(i in R) c: x[i] <= prod(k in 1..i) d[k];",  # d[2] is the int 0 among floats: a zero's sign
    "forall(i in R) c: x[i] <= prod(k in 1..i) (a[i][1] * 1000 + 7);",  # an int overflow: the row path's words
]

# 3. an aggregate of data over a sum's own iterator in its body: per iteration of that sum
OWN_ITERATOR = [
    "forall(i in R) c: y <= sum(j in R) (max(k in K) a[j][k]) * x[j];",
    "forall(i in R) c: y <= sum(j in R) x[j] * sum(k in 1..j) d[k];",
    "forall(i in R) c: y <= sum(j in 1..i) x[j] * sum(k in j..i) d[k] - x[i];",  # the loop's and its own
    "forall(i in R) c: y + x[i] <= sum(j in R : j != i) w[i][j] * min(k in nb[j] : k != j) d[k];",
    "forall(s in S) c: z[s] <= sum(j in R) x[j] * prod(k in K : k <= j) e[k] / sum(k in K) e[k];",
    "forall(i in R) c: -(sum(j in R) x[j] * max(k in 1..j) m[k] + y) <= i;",
]
OWN_ITERATOR_ROW_PATH = [
    "forall(i in R) c: y <= sum(j in R) x[j] * max(k in 1..j-1) d[k];",  # j = 1: an empty max, -inf
    "forall(i in R) c: y <= sum(j in R) x[j] / sum(k in 1..j : k != 2) (d[k] - d[k]);",  # division by zero
]

# 4. a set built per row as a sum's domain: a comprehension or a `diff`, iterated as a filter over its source
SETS = [
    "forall(i in R) c: y <= sum(j in {k | k in R : (i + k) mod 3 > 0}) x[j];",
    "forall(i in R) c: y <= sum(j in {j | j in R : a[i][1] + j > 3}) w[i][j];",  # the same name
    "forall(i in R) c: x[i] <= sum(j in {k | k in 1..i : f[k][1] > 0.7} : j != 3) w[i][j];",  # ragged, own filter
    "forall(i in R) c: y <= sum(j in R diff nb[i]) x[j];",
    "forall(i in R) c: y <= sum(j in nb[i] diff {i}) w[i][j];",
    "forall(s in S) c: z[s] <= sum(t in S diff {s, \"c\"}) z[t];",
    "forall(i in R) c: y <= sum(j in R diff {i, i + 1} : j > 2) x[j] + sum(j in {k | k in given[1]}) x[j];",
    "forall(i in R) c: y <= sum(j in R diff given[(i mod 3) + 1]) x[j];",  # given[2] is empty
    "forall(i in R) c: y + x[i] <= sum(j in given[(i mod 3) + 1] diff {i, 4}) 2 * w[j][i];",
]
FORALL_SETS = [  # a loop's own binder over a set built from the earlier iterators; `inter`
    "forall(i in R, j in R diff {i}) c: x[i] + x[j] <= 1;",
    "forall(i in R, j in {k | k in R : k > i && m[k] >= 0}) c[i][j]: x[i] - x[j] <= d[j];",
    "forall(i in R, j in R inter nb[i] : j < i) c: w[i][j] + w[j][i] <= 1;",
    "forall(s in S, t in S diff {s}) c: z[s] - z[t] <= 1;",
    "forall(i in R) c: y <= sum(j in R inter nb[i] : j != i) x[j];",
    "forall(i in 1..3, j in R diff given[i]) c: x[j] <= i;",
]
SETS_ROW_PATH = [
    "forall(i in R) c: y <= sum(j in {k | k in R : m[k + i - 1] > 0}) x[j];",  # m[10]: the row path's words
    "forall(i in R) c: y <= sum(j in nb[i] diff given[i]) x[j];",  # given[4]: evaluated in every row
    "forall(i in R, j in nb[i] diff given[i]) c: x[i] + x[j] <= 1;",
]

# `card` of a set built per row: the count of its source's elements the filter keeps (an int)
CARD = [
    "forall(i in R) c: x[i] <= card({j | j in R : j < i});",
    "forall(i in R) c: x[i] + y <= card({j | j in nb[i] : j != i}) * 0.5 + d[i];",
    "forall(i in R) c: x[i] <= card({j | j in R : j < i}) + card({k | k in 1..i}) - sum(j in 1..i) x[j];",
    "forall(i in R) c: card({k | k in nb[i] : k != i}) * 0.5 <= x[i];",  # data on the left: the range's constant
    "forall(i in R) c: card({k | k in nb[i] : k != sum(j in 1..2) m[j]}) <= x[i] + y;",
]
CARD_ROW_PATH = [
    "forall(i in R) c: x[i] <= card({j | j in R : m[j + i - 1] > 0});",  # m[10]: the row path's words
    "forall(i in R) c: x[i] <= card({j mod 2 | j in 1..i});",  # a value twice: the set keeps it once
]

ALL = NEGATED + PROD + OWN_ITERATOR + SETS + FORALL_SETS + CARD
ALL_ROW_PATH = NEGATED_ROW_PATH + PROD_ROW_PATH + OWN_ITERATOR_ROW_PATH + SETS_ROW_PATH + CARD_ROW_PATH


@pytest.mark.parametrize("stmt", ALL + ALL_ROW_PATH)
def test_same_rows_as_the_row_path(monkeypatch, stmt):
    _same(monkeypatch, stmt)


@pytest.mark.parametrize("stmt", ALL)
def test_the_array_path_takes_it(monkeypatch, stmt):
    added, one = _made(monkeypatch, stmt)
    assert len(added) == 1 and one == 0


@pytest.mark.parametrize("stmt", ALL_ROW_PATH)
def test_what_the_array_path_cannot_decide_goes_row_by_row(monkeypatch, stmt):
    added, one = _made(monkeypatch, stmt)
    assert added == [] and one > 0


def _row(ir, r: int) -> dict:
    a = ir.A.tocsr()
    return {(ir.col_name[j], ir.col_key[j]): v for j, v in zip(a.indices[a.indptr[r]:a.indptr[r + 1]].tolist(),
                                                                 a.data[a.indptr[r]:a.indptr[r + 1]].tolist())}


def test_a_negated_bracket_by_hand():
    """``-(sum(j in 1..i) x[j] + y) <= 1`` at i = 3: x[1..3] and y at -1, the bound 1; and
    ``x[i] - (3 - (sum(j in 1..i) 0.1 * x[j] + 0.2 * x[i]))`` at i = 2: x[2] gets 1 + (0.1 + 0.2), x[1] 0.1,
    the bound d[2] + 3 = 3."""
    ir = pyopl.compile_model(HEAD % NEGATED[0], DAT).ir
    assert _row(ir, 2) == {("x", (1,)): -1.0, ("x", (2,)): -1.0, ("x", (3,)): -1.0, ("y", ()): -1.0}
    assert ir.row_upper[2] == 1.0
    ir = pyopl.compile_model(HEAD % NEGATED[2], DAT).ir
    assert _row(ir, 1) == {("x", (2,)): 1.0 + (0.1 + 0.2), ("x", (1,)): 0.1}
    assert ir.row_upper[1] == 0.0 + 3.0


def test_a_product_per_row_by_hand():
    """``x[i] <= prod(k in 1..i) m[k] + 1`` with ``m[k] = k mod 4 - 1``: m = 0, 1, 2, -1, 0, ...: every
    product is 0 (a +0, so the bound is 1); ``prod(k in K) f[i][k]`` with ``f[i][k] = (i + k) * 0.3``."""
    ir = pyopl.compile_model(HEAD % PROD[1], DAT).ir
    assert ir.row_upper.tolist() == [1.0] * 9
    ir = pyopl.compile_model(HEAD % PROD[0], DAT).ir
    assert ir.row_upper.tolist() == [(i + 1) * 0.3 * ((i + 2) * 0.3) * ((i + 3) * 0.3) for i in range(1, 10)]
    ir = pyopl.compile_model(HEAD % PROD[4], DAT).ir
    e = {k: k * 1.5 - 2 for k in (1, 2, 3)}
    want = []
    for i in range(1, 10):
        p = 1
        for k in range(1, i):
            p = p * e[k % 3 + 1]
        want.append(p - (0 if i == 2 else i * 0.5))
    assert ir.row_upper.tolist() == want


def test_an_aggregate_of_the_sums_own_iterator_by_hand():
    """``y <= sum(j in R) (max(k in K) a[j][k]) * x[j]`` with ``a[j][k] = (j * k) mod 5 - 1``: each x[j]'s
    coefficient is minus its own row's maximum (0 for j = 5, so x[5] is dropped)."""
    ir = pyopl.compile_model(HEAD % OWN_ITERATOR[0], DAT).ir
    got = _row(ir, 0)
    want = {("y", ()): 1.0}
    for j in range(1, 10):
        c = max((j * k) % 5 - 1 for k in (1, 2, 3))
        if c:
            want["x", (j,)] = -1.0 * c
    assert got == want


def test_card_of_a_set_built_per_row_by_hand():
    """``x[i] <= card({j | j in R : j < i})``: i - 1; ``card({j | j in nb[i] : j != i}) * 0.5 + d[i]``: the
    multiples-of-3 partners of i other than itself, halved."""
    ir = pyopl.compile_model(HEAD % CARD[0], DAT).ir
    assert ir.row_upper.tolist() == [float(i - 1) for i in range(1, 10)]
    ir = pyopl.compile_model(HEAD % CARD[1], DAT).ir
    want = [sum(1 for j in range(1, 10) if (i + j) % 3 == 0 and j != i) * 0.5 + (0 if i == 2 else i * 0.5)
            for i in range(1, 10)]
    assert ir.row_upper.tolist() == want


def test_sets_built_per_row_by_hand():
    """``sum(j in R diff nb[i]) x[j]``: row i holds the x[j] with ``(i + j) mod 3 != 0``;
    ``sum(j in nb[i] diff {i}) w[i][j]``: the cell's elements but i."""
    ir = pyopl.compile_model(HEAD % SETS[3], DAT).ir
    for r, i in enumerate(range(1, 10)):
        assert set(_row(ir, r)) == {("y", ())} | {("x", (j,)) for j in range(1, 10) if (i + j) % 3 != 0}
    ir = pyopl.compile_model(HEAD % SETS[4], DAT).ir
    for r, i in enumerate(range(1, 10)):
        assert set(_row(ir, r)) == {("y", ())} | {("w", (i, j)) for j in range(1, 10) if (i + j) % 3 == 0 and j != i}


# 5. `using CP;`: `presenceOf(t[i])` of an interval array in a sum's body, alone or times data
CP_HEAD = """
using CP;
int n = 9; range R = 1..n; int w[i in R] = i mod 4 - 1; float h[i in R] = i * 0.5 - 2; {int} opt = {2, 3, 5, 7, 8};
dvar interval t[i in R] optional(i in opt) size 3; dvar interval a[i in R] size 2; dvar interval o[R] optional size 1;
dvar int q[R] in 0..10;
maximize sum(i in R) presenceOf(o[i]);
subject to { %s }
"""
PRESENCE_ROWS = [
    "forall(k in 1..3) c: sum(i in R : i mod 3 == k - 1) presenceOf(o[i]) * h[i] + q[k] <= 4;",
    "forall(k in 1..3) c: sum(i in k..n) w[i] * presenceOf(o[i]) >= -3 + q[k];",
    "forall(k in R) c: q[k] - sum(i in R : i != k) presenceOf(o[i]) <= 2;",
]
PRESENCE_ROWS_ROW_PATH = [
    "forall(k in 1..3) c: sum(i in R) presenceOf(t[i]) * w[i] + q[k] <= 20;",  # always present ones: a constant
    "forall(k in 1..3) c: sum(i in R) -presenceOf(o[i]) + q[k] <= 4;",  # the row path's words
    "forall(k in 1..3) c: sum(i in R) (presenceOf(o[i]) + presenceOf(o[i]) * k) <= 4;",
]
PRESENCE_SUMS = [  # one constraint: each sum made by `vector_sum`
    "sum(i in R) presenceOf(o[i]) * w[i] <= 10;",
    "sum(i in R) h[i] * presenceOf(o[i]) + sum(i in R) presenceOf(t[i]) * (w[i] + 3) >= -20;",  # present: 1
    "sum(i in R, j in 1..2) presenceOf(o[i]) * (w[i] + j) + q[1] <= 12;",  # a column twice: added in order
]


@pytest.mark.parametrize("stmt", PRESENCE_ROWS + PRESENCE_ROWS_ROW_PATH + PRESENCE_SUMS)
def test_presence_same_as_the_row_path(monkeypatch, stmt):
    from ir_compare import array_paths_off, check_and_compile
    mod = CP_HEAD % stmt
    on = check_and_compile(mod, None, monkeypatch)
    array_paths_off(monkeypatch)
    off = check_and_compile(mod, None, monkeypatch)
    assert on[1] == off[1]
    assert_same_bits(on[0], off[0])


@pytest.mark.parametrize("stmt", PRESENCE_ROWS + PRESENCE_ROWS_ROW_PATH)
def test_presence_rows_path(monkeypatch, stmt):
    import test_array_rows_round9 as r9
    monkeypatch.setattr(r9, "HEAD", CP_HEAD)
    monkeypatch.setattr(r9, "DAT", None)
    added, one = _made9(monkeypatch, stmt)
    assert (len(added) == 1 and one == 0) if stmt in PRESENCE_ROWS else (added == [] and one > 0)


@pytest.mark.parametrize("stmt", PRESENCE_SUMS)
def test_presence_sums_are_array_sums(monkeypatch, stmt):
    from pyopl.lowering.arrays import vectorised
    made, real = [], vectorised.vector_sum
    monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: (lambda r: (made.append(r), r)[1])(
        real(ev, node, env)))
    pyopl.compile_model(CP_HEAD % stmt)
    monkeypatch.undo()
    assert sum(r is not None for r in made) == stmt.count("sum(") + 1  # (and the objective's)


def test_a_weighted_presence_sum_by_hand():
    """``sum(i in R) h[i] * presenceOf(o[i]) + sum(i in R) presenceOf(t[i]) * (w[i] + 3) >= -20``: each o[i]'s
    presence column gets ``h[i] = i / 2 - 2`` (0 at i = 4: dropped), each optional t[i] (i in opt) its
    ``w[i] + 3``; a t[i] always present is the number 1, so its ``w[i] + 3`` (3, 2, 4, 3 for i = 1, 4, 6, 9)
    moves the bound to -20 - 12."""
    m = pyopl.compile_model(CP_HEAD % PRESENCE_SUMS[1])
    ir, sym = m.ir, m.instance.symbols
    want = {sym["o"].value.data[(i,)].presence: i * 0.5 - 2 for i in range(1, 10) if i != 4}
    want.update({sym["t"].value.data[(i,)].presence: float(i % 4 - 1 + 3) for i in (2, 3, 5, 7, 8)})
    a = ir.A.tocsr()
    assert dict(zip(a.indices.tolist(), a.data.tolist())) == want
    assert ir.row_lower.tolist() == [-20 - 12.0]


def test_a_loop_over_the_others_by_hand():
    """``forall(i in R, j in R diff {i})``: the 72 ordered pairs of distinct i, j, i outside, keys (i, j);
    ``forall(i in 1..3, j in R diff given[i])``: given = [{1, 4}, {}, {4, 2, 8}]."""
    ir = pyopl.compile_model(HEAD % FORALL_SETS[0], DAT).ir
    assert list(ir.row_key) == [(i, j) for i in range(1, 10) for j in range(1, 10) if j != i]
    ir = pyopl.compile_model(HEAD % FORALL_SETS[5], DAT).ir
    given = {1: {1, 4}, 2: set(), 3: {4, 2, 8}}
    assert list(ir.row_key) == [(i, j) for i in (1, 2, 3) for j in range(1, 10) if j not in given[i]]
