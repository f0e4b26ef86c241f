"""Issue 46, the sparse assignment's lowering: the shortcuts that keep its 3.2M-pair families cheap give the
IR of the term-by-term path bit for bit (signs of zeros, names and keys included: ``assert_same_bits``).

Covered: a join's other conjuncts evaluated on the matches only, and settled by a field's smallest and
largest values where they decide it (``p.c >= 0``); ``x[p]`` of a block of consecutive columns as
``first + position`` (a block at column 0 and one after another dvar); the array objective made
without ``np.add.at`` where its columns are distinct (``0.0 + c``: a -0.0 cost gives 0.0, as the dict
fold gives); dexpr cells with a coefficient that is one number; integer codes wider than 16 bits
ordered by packed keys; the column names kept as runs.
"""
from __future__ import annotations

import numpy as np
import pytest

import pyopl
from ir_compare import array_paths_off, assert_same_bits
from pyopl.lowering.arrays import vectorised_rows
from pyopl.lowering.model import constraints
from pyopl.lowering.model.instance import RunList
from pyopl.sparse_order import stable_order

HEAD = """
int nbW = ...; int nbT = ...;
range W = 1..nbW; range T = 1..nbT;
tuple pair { int i; int j; float c; }
{pair} Pairs = ...;
float cap[W] = ...;
"""


def _dat(shuffled: bool = False, ids: int = 1) -> str:
    """4 workers, 9 tasks (ids ``ids * k``), every task offered; costs with 0.0, -0.0 and a repeat."""
    pairs = [(i, j, float((7 * i + 3 * j) % 11) * 10.0) for i in range(1, 5) for j in range(1, 10) if (i + j) % 3 != 0]
    pairs += [(2, 3, 5.0), (4, 6, 0.0)]  # (every task offered: 3 and 6 need a worker)
    pairs = [(i, j, -0.0 if (i, j) == (1, 1) else c) for i, j, c in pairs]
    if shuffled:
        pairs = pairs[5:] + pairs[:5]
    text = ", ".join("<%d, %d, %r>" % (i, j * ids, c) for i, j, c in pairs)
    return "nbW = 4; nbT = 9; Pairs = {%s}; cap = [3, 2, 4, 3];" % text


def _compile(mod: str, dat: str, monkeypatch, on: bool):
    """(the IR, how many families the array rows added, whether the objective came as arrays)."""
    seen = {"families": 0, "objective": False}
    if on:
        add, objective = constraints.vector_forall, vectorised_rows.vector_objective

        def counted(inst, s, env):
            took = add(inst, s, env)
            seen["families"] += took
            return took

        def spied(inst, expr):
            out = objective(inst, expr)
            seen["objective"] = seen["objective"] or isinstance(out, vectorised_rows.ArrayLinExpr)
            return out

        monkeypatch.setattr(constraints, "vector_forall", counted)
        monkeypatch.setattr(vectorised_rows, "vector_objective", spied)
    else:
        array_paths_off(monkeypatch)
    try:
        ir = pyopl.compile_model(mod, dat).ir
    finally:
        monkeypatch.undo()
    return ir, seen["families"], seen["objective"]


def _both(mod: str, dat: str, monkeypatch):
    on, families, objective = _compile(mod, dat, monkeypatch, True)
    off, _f, _o = _compile(mod, dat, monkeypatch, False)
    assert_same_bits(on, off)
    return on, families, objective


# x after another dvar (its block starts at column nbW) and x alone (its block starts at 0)
AFTER = HEAD + """
dvar float+ y[W];
dvar boolean x[Pairs];
minimize sum(p in Pairs) p.c * x[p] + sum(w in W) y[w];
subject to {
  forall(k in T) ctTask: sum(<i, j, c> in Pairs : j == k) x[<i, j, c>] == 1;
  forall(w in W) ctWorker: sum(p in Pairs : p.i == w && %s) x[p] <= cap[w] + y[w];
}
"""
ALONE = HEAD + """
dvar boolean x[Pairs];
minimize sum(p in Pairs) p.c * x[p];
subject to {
  forall(k in T) ctTask: sum(p in Pairs : k == p.j) x[p] == 1;
  forall(w in W) ctWorker: sum(p in Pairs : p.i == w && %s) x[p] <= cap[w];
}
"""
CONJUNCTS = ["p.c >= 0", "0 <= p.c", "p.c >= 50", "p.c != 1000", "p.c < 0", "p.c <= 100 && p.j != 4",
             "p.c == 10", "p.j > 0"]


@pytest.mark.parametrize("shuffled", [False, True])
@pytest.mark.parametrize("conjunct", CONJUNCTS)
def test_join_with_a_conjunct_gives_the_row_paths_rows(conjunct, shuffled, monkeypatch):
    for mod in (AFTER, ALONE):
        ir, families, objective = _both(mod % conjunct, _dat(shuffled), monkeypatch)
        # both families and the objective built from arrays (with no pair kept and no y, each row is `0 <= cap[w]`:
        # no decision term, which the row path words or drops)
        assert families == (1 if conjunct == "p.c < 0" and mod is ALONE else 2) and objective
        if mod is AFTER:  # (every worker's row has y[w]; without it a row left empty holds and is not added)
            assert ir.num_rows == 9 + 4


def test_a_settled_conjunct_keeps_every_match(monkeypatch):
    """Worked by hand: every cost is >= 0 (-0.0 included), so `p.i == w && p.c >= 0` is `p.i == w`:
    worker w's row holds exactly its pairs, in the set's order, with coefficient 1."""
    ir, _families, _objective = _both(ALONE % "p.c >= 0", _dat(), monkeypatch)
    A = ir.A.tocsr()
    pairs = [k for k in ir.col_key]
    for w in range(1, 5):
        row = 9 + (w - 1)
        cols = A.indices[A.indptr[row]:A.indptr[row + 1]]
        assert [pairs[j][0][0] for j in cols] == [w] * len(cols)
        assert len(cols) == sum(1 for p in pairs if p[0][0] == w)
        assert np.all(A.data[A.indptr[row]:A.indptr[row + 1]] == 1.0)
    # nothing is settled where the costs straddle the bound: p.c >= 50 keeps some pairs only
    part, _f, _o = _both(ALONE % "p.c >= 50", _dat(), monkeypatch)
    assert part.nnz < ir.nnz


def test_objective_of_distinct_columns_is_the_dict_fold(monkeypatch):
    """`0.0 + c` per column: the pair whose cost is -0.0 gets +0.0, as the term-by-term fold from 0.0 gives;
    the repeated columns of two sums (`+ sum(p : p.i == 1) x[p]`) are added in order."""
    only_x = AFTER.replace(" + sum(w in W) y[w];", ";")  # (x's columns after y's: one scatter, not every column)
    for mod in (AFTER % "p.c >= 0", ALONE % "p.c >= 0", only_x % "p.c >= 0"):
        ir, _f, objective = _both(mod, _dat(), monkeypatch)
        assert objective
        j = next(j for j, k in enumerate(ir.col_key) if ir.col_name[j] == "x" and tuple(k[0])[:2] == (1, 1))
        assert ir.obj[j] == 0.0 and not np.signbit(ir.obj[j])
    twice = ALONE.replace("minimize sum(p in Pairs) p.c * x[p];",
                          "minimize sum(p in Pairs) p.c * x[p] + sum(p in Pairs : p.i == 1) 0.5 * x[p];")
    ir, _f, objective = _both(twice % "p.c >= 0", _dat(), monkeypatch)
    assert objective
    first = [j for j, k in enumerate(ir.col_key) if tuple(k[0])[0] == 1]
    assert all(ir.obj[j] == float((7 + 3 * tuple(ir.col_key[j][0])[1]) % 11) * 10.0 + 0.5 or ir.obj[j] == 0.5
               for j in first)


def test_nested_objective_in_another_order(monkeypatch):
    """The pairs task by task: distinct columns not in order (one scatter where np.add.at was)."""
    mod = ALONE.replace("minimize sum(p in Pairs) p.c * x[p];",
                        "minimize sum(k in T) sum(p in Pairs : p.j == k) (p.c + 1) * x[p];")
    _both(mod % "p.c >= 0", _dat(), monkeypatch)


def test_a_subset_indexes_the_block_by_lookup(monkeypatch):
    """`x[p]` with p over a subset of the pairs: positions looked up in Pairs, range-checked, then
    `first + position` (y's block comes first)."""
    mod = (AFTER % "p.c >= 0").replace("subject to {", """{pair} Cheap = {p | p in Pairs : p.c < 50};
subject to {
  forall(w in W) cheap: sum(p in Cheap : p.i == w) x[p] <= 1 + y[w];""")
    ir, families, _objective = _both(mod, _dat(shuffled=True), monkeypatch)
    assert families == 3


def test_wide_ids_join_and_dexpr_cells(monkeypatch):
    """Task ids 100000 apart (codes wider than 16 bits: the packed-key sort) and a dexpr in between whose
    cells (coefficient 1.0 in every entry) are those the cell-by-cell path makes."""
    mod = HEAD.replace("range T = 1..nbT;", "{int} T = ...;") + """
dvar boolean x[Pairs];
dexpr float load[w in W] = sum(p in Pairs : p.i == w) x[p];
dexpr float weighted[w in W] = sum(p in Pairs : p.i == w) p.c * x[p];
minimize sum(p in Pairs) p.c * x[p];
subject to {
  forall(k in T) ctTask: sum(p in Pairs : p.j == k) x[p] == 1;
  forall(w in W) ctWorker: load[w] <= cap[w];
}
"""
    dat = _dat(shuffled=True, ids=100000) + " T = {%s};" % ", ".join(str(100000 * k) for k in range(1, 10))
    ir, families, objective = _both(mod, dat, monkeypatch)
    assert families == 2 and objective
    off, _f, _o = _compile(mod, dat, monkeypatch, False)
    for name in ("load", "weighted"):
        got = {k: (dict(v.terms), v.const) for k, v in ir.dexprs[name].items()}
        want = {k: (dict(v.terms), v.const) for k, v in off.dexprs[name].items()}
        assert got == want and len(got) == 4


def test_grouped_join_by_string_field_evaluates_the_whole_filter(monkeypatch):
    mod = """
{string} Names = {"a", "b", "c"};
tuple sp { string s; int t; float c; }
{sp} SP = {<"a", 1, 2.0>, <"b", 2, 0.5>, <"a", 3, 3.0>, <"c", 4, 1.5>, <"b", 5, 4.0>, <"a", 6, 0.0>};
dvar float+ z[SP];
minimize sum(q in SP) q.c * z[q];
subject to {
  forall(s in Names) cs: sum(q in SP : q.s == s && q.c > 1) z[q] <= 3;
  forall(s in Names) ct: sum(q in SP : q.s == s && q.c >= 0) z[q] >= 1;
}
"""
    _both(mod, None, monkeypatch)


def test_stable_order_of_owned_codes():
    rng = np.random.default_rng(7)
    for width in (3, 70_000, 2 ** 31):
        codes = rng.integers(0, width, 5000).astype(np.int64)
        want = np.argsort(codes, kind="stable")
        assert np.array_equal(stable_order(codes.copy(), width), want)
        assert np.array_equal(stable_order(codes, width, owned=True), want)


def test_column_names_stay_runs():
    names = RunList()
    names.extend_run("x", 5)
    names.append("y")
    names.append("z")
    names.extend_run("w", 3)
    seq = names.sequence()
    names.append("later")  # (a later column does not change the names already taken)
    assert list(seq) == ["x"] * 5 + ["y", "z"] + ["w"] * 3 and len(seq) == 10
    assert seq[4] == "x" and seq[5] == "y" and seq[9] == "w" and seq == ["x"] * 5 + ["y", "z"] + ["w"] * 3
    bounds = RunList()
    bounds.extend_run(1.0, 4)
    a = bounds.array(float)
    a[0] = 7.0  # (one run's array is the caller's own: the runs are untouched)
    assert bounds.array(float).tolist() == [1.0] * 4
