"""Issue 46, round 7: a ``sum`` over one cell of an array of sets indexed by the ``forall``'s indices
(``sum(a in outArcs[v]) x[a]``, the network-flow practitioner's spelling) goes through the array rows
as one ragged domain (the cells' elements laid out cell after cell, each row reading its own slice),
and gives exactly the rows of the row-by-row path: same rows, order, coefficients and summation order."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.lowering.arrays import ragged, vectorised_rows
from pyopl.lowering.arrays.vectorised import VectorCache
from pyopl.semantics.values import OplArray, OplSet
from test_vectorised_rows import _check

INTS = """
int n = 6; range V = 1..n;
{int} A = {1, 2, 3, 4, 5, 6, 7, 8};
int src[A] = [1, 1, 2, 3, 3, 5, 2, 4];
int dst[A] = [2, 3, 3, 1, 3, 1, 2, 2];
float c[a in A] = a * 0.3;
float b[v in V] = (v == 6) ? 0 : v - 3.5;
{int} outArcs[v in V] = {a | a in A : src[a] == v};
{int} inArcs[v in V] = {a | a in A : dst[a] == v};
dvar float+ x[A]; dvar float y;
minimize sum(a in A) c[a] * x[a] + y;
subject to { %s }
"""

TUPLES = """
tuple arc { int o; int d; float cost; }
{arc} Arcs = ...;
range Nodes = 1..5;
{arc} out[n in Nodes] = {a | a in Arcs : a.o == n};
{arc} into[n in Nodes] = {a | a in Arcs : a.d == n};
{int} nbrs[n in Nodes] = {a.d | a in Arcs : a.o == n};
dvar float+ flow[Arcs]; dvar float+ z[Nodes];
minimize sum(a in Arcs) a.cost * flow[a];
subject to { %s }
"""
TUPLES_DAT = "Arcs = { <1,2,1.5>, <1,3,0.1>, <2,3,2>, <3,1,0.7>, <2,2,0.3>, <3,4,1>, <4,1,0.2>, <1,4,0.9> };"

INT_ROWS = [
    # the network-flow balance, node 4 has no outgoing arc and node 6 none at all (empty cells)
    "forall(v in V) bal: sum(a in outArcs[v]) x[a] - sum(a in inArcs[v]) x[a] == b[v];",
    # coefficients from data, a self-loop (arc 5: 3 -> 3) repeats a column in its row
    "forall(v in V) c1: sum(a in outArcs[v]) c[a] * x[a] - sum(a in inArcs[v]) 0.1 * x[a] + y <= 4;",
    # a filter on the inner index, and on both
    "forall(v in V) c2: sum(a in outArcs[v] : a != 2) x[a] <= v;",
    "forall(v in V) c3: sum(a in inArcs[v] : a > v && c[a] >= 0.6) x[a] >= y;",
    # a cell indexed by an expression of the loop index
    "forall(v in V) c4: sum(a in outArcs[(v mod n) + 1]) x[a] <= 2 * v;",
    # `card` of a cell in the forall's filter and in the row
    "forall(v in V : card(outArcs[v]) >= 1) c5: sum(a in outArcs[v]) x[a] <= card(inArcs[v]);",
    # two loops, the cell of one of them
    "forall(v in V, w in 1..2) c6: sum(a in outArcs[v]) w * x[a] <= w;",
    # a loop over the cell (round 8): one row per arc leaving v
    "forall(v in V, a in outArcs[v]) c7: x[a] - 0.5 * y <= b[v] + 10;",
]

TUPLE_ROWS = [
    "forall(n in Nodes) bal: sum(a in out[n]) flow[a] - sum(a in into[n]) flow[a] == (n == 5 ? 0 : n - 3);",
    "forall(n in Nodes) c: sum(a in out[n] : a.d != 1) a.cost * flow[a] <= z[n];",
    "forall(n in Nodes) c: sum(m in nbrs[n]) z[m] - z[n] <= 1;",
    "forall(n in Nodes : card(into[n]) > 0) c: sum(a in into[n]) flow[a] >= 1;",
]


@pytest.mark.parametrize("stmt", INT_ROWS)
def test_int_cells_same_rows_as_the_row_path(monkeypatch, stmt):
    _check(INTS % stmt, "", monkeypatch)


@pytest.mark.parametrize("stmt", TUPLE_ROWS)
def test_tuple_cells_same_rows_as_the_row_path(monkeypatch, stmt):
    _check(TUPLES % stmt, TUPLES_DAT, monkeypatch)


def test_cells_read_from_data(monkeypatch):
    mod = ("range V = 1..4; {int} nb[V] = ...; dvar float+ x[V];\nminimize sum(v in V) x[v];\n"
           "subject to { forall(v in V) c: sum(u in nb[v]) x[u] - x[v] >= v; }")
    _check(mod, "nb = [{2, 3}, {}, {4, 1, 2}, {4}];", monkeypatch)


def _taken(monkeypatch, mod, dat="") -> list:
    added = []
    real = vectorised_rows._add
    monkeypatch.setattr(vectorised_rows, "MIN_ROWS", 0)
    monkeypatch.setattr(vectorised_rows, "_add", lambda inst, cons, r: (added.append("one"), real(inst, cons, r)))
    pyopl.compile_model(mod, dat)
    monkeypatch.undo()
    return added


@pytest.mark.parametrize("stmt", INT_ROWS)
def test_the_array_path_takes_int_cells(monkeypatch, stmt):
    assert _taken(monkeypatch, INTS % stmt) == ["one"]


@pytest.mark.parametrize("stmt", TUPLE_ROWS)
def test_the_array_path_takes_tuple_cells(monkeypatch, stmt):
    assert _taken(monkeypatch, TUPLES % stmt, TUPLES_DAT) == ["one"]


def test_the_balance_rows_by_hand():
    """Computed by hand from the arcs: node 1's row is +x[1] + x[2] - x[4] - x[6] (arcs 1, 2 leave it,
    4 and 6 enter); node 3's self-loop (arc 5) cancels; node 6 has no arc and no row."""
    ir = pyopl.compile_model(INTS % INT_ROWS[0]).ir
    assert len(ir.row_upper) == 5
    a = ir.A.toarray()
    cols = {ir.col_key[j]: j for j in range(a.shape[1]) if ir.col_name[j] == "x"}
    assert {k: a[0, j] for k, j in cols.items() if a[0, j] != 0} == {(1,): 1.0, (2,): 1.0, (4,): -1.0, (6,): -1.0}
    assert {k: a[2, j] for k, j in cols.items() if a[2, j] != 0} == {(4,): 1.0, (2,): -1.0, (3,): -1.0}
    assert ir.row_upper[0] == ir.row_lower[0] == -2.5


def test_cell_layout_is_cells_in_key_order():
    """The layout is each cell's elements in its own order, cell after cell, with empty cells of length 0."""
    arr = OplArray("s", [range(3)], {(0,): OplSet([3, 1]), (1,): OplSet([]), (2,): OplSet([2])})
    items, offsets, lens = ragged.cell_layout(VectorCache(), arr)
    assert list(items) == [3, 1, 2]
    assert offsets.tolist() == [0, 2, 2]
    assert lens.tolist() == [2, 0, 1]


# ---------------------------------------------------------------------- the data side: cells grouped by a field
GROUPED = """
tuple arc { int o; int d; float cost; }
{arc} Arcs = { <1,2,1.5>, <1,3,0.1>, <2,3,2>, <3,1,0.7>, <1,2,0.3>, <3,4,1>, <4,1,0.2> };
range Nodes = 1..5;
{string} Names = {"a", "b", "c"};
tuple job { string who; int len; }
{job} Jobs = { <"b", 3>, <"a", 1>, <"b", 2>, <"z", 9> };
{int} A = {1, 2, 3, 4, 5, 6, 7, 8};
int src[A] = [1, 1, 2, 3, 3, 5, 2, 4];
int dst[A] = [2, 3, 3, 1, 3, 1, 2, 2];
float w[A] = [1, 2, 3, 1, 1, 2, 4, 5];
int head[a in Arcs] = a.d;
%s
"""

GROUPED_DECLS = [
    "{arc} out[n in Nodes] = {a | a in Arcs : a.o == n};",
    "{arc} into[n in Nodes] = {a | a in Arcs : n == a.d};",
    "{int} nbrs[n in Nodes] = {a.d | a in Arcs : a.o == n};",  # 1 -> 2 twice: kept once
    "{float} costs[n in Nodes] = {a.cost | a in Arcs : a.d == n};",
    "{float} heads[n in Nodes] = {a.d | a in Arcs : a.o == n};",  # ints converted to float as declared
    "{int} lens[s in Names] = {j.len | j in Jobs : j.who == s};",  # string keys, one with no element
    "{int} same[n in Nodes] = {i | i in Nodes : i == n};",
    # issue 46, round 8: the key (and the value) an expression of the element, a data array indexed by it
    "{int} outA[n in Nodes] = {a | a in A : src[a] == n};",
    "{int} inA[n in Nodes] = {a | a in A : n == dst[a]};",
    "{int} succ[n in Nodes] = {dst[a] | a in A : src[a] == n};",  # 2 -> 3, 2 -> 2: in the order met
    "{int} byMod[n in Nodes] = {a | a in A : (a mod 5) + 1 == n};",
    "{arc} viaHead[n in Nodes] = {a | a in Arcs : head[a] == n};",  # an array indexed by tuples
]

# not grouped (the element path builds them, the same sets): a float key, a key that depends on the cell
NOT_GROUPED_DECLS = [
    "{int} byWeight[n in Nodes] = {a | a in A : w[a] == n};",
    "{int} shifted[n in Nodes] = {a + n | a in A : src[a] == n};",
    "{float} weights[n in Nodes] = {w[a] | a in A : dst[a] == n};",  # float values
]

# by hand from the literals above
EXPECTED = {
    "nbrs": {(1,): [2, 3], (2,): [3], (3,): [1, 4], (4,): [1], (5,): []},
    "lens": {("a",): [1], ("b",): [3, 2], ("c",): []},
    "same": {(k,): [k] for k in range(1, 6)},
    "outA": {(1,): [1, 2], (2,): [3, 7], (3,): [4, 5], (4,): [8], (5,): [6]},
    "inA": {(1,): [4, 6], (2,): [1, 7, 8], (3,): [2, 3, 5], (4,): [], (5,): []},
    "succ": {(1,): [2, 3], (2,): [3, 2], (3,): [1, 3], (4,): [2], (5,): [1]},
    "byMod": {(1,): [5], (2,): [1, 6], (3,): [2, 7], (4,): [3, 8], (5,): [4]},
}


def _cells(mod: str, name: str, monkeypatch, on: bool, grouped: bool = True) -> dict:
    from pyopl.lowering.arrays import vectorised_subsets
    taken = []
    real = vectorised_subsets.vector_grouped_sets
    monkeypatch.setattr(vectorised_subsets, "vector_grouped_sets",
                        (lambda *a: (lambda r: (a[1].name != name or taken.append(r is not None), r)[1])(real(*a))) if on else
                        (lambda *a: None))
    arr = pyopl.compile_model(mod).instance.symbols[name].value
    monkeypatch.undo()
    assert taken == ([grouped] if on else [])
    return {k: (list(v), type(v).__name__, repr(v.elem_type), [type(x) for x in v]) for k, v in arr.data.items()}


@pytest.mark.parametrize("decl", GROUPED_DECLS)
def test_grouped_cells_equal_the_element_path(monkeypatch, decl):
    mod = GROUPED % decl
    name = decl.split("}")[1].split("[")[0].strip()
    on, off = _cells(mod, name, monkeypatch, True), _cells(mod, name, monkeypatch, False)
    assert on == off
    if name in EXPECTED:
        assert {k: v[0] for k, v in on.items()} == EXPECTED[name]


@pytest.mark.parametrize("decl", NOT_GROUPED_DECLS)
def test_not_grouped_cells_equal_the_element_path(monkeypatch, decl):
    mod = GROUPED % decl
    name = decl.split("}")[1].split("[")[0].strip()
    assert _cells(mod, name, monkeypatch, True, False) == _cells(mod, name, monkeypatch, False)


def test_grouped_cells_an_index_outside_its_set_is_the_element_paths_error(monkeypatch):
    """``part`` has no element 5: the group-by steps aside and the element path words it, as with it off."""
    mod = GROUPED % "int part[1..4] = [1, 2, 3, 4];\n{int} bad[n in Nodes] = {a | a in A : part[a] == n};"
    words = []
    for on in (True, False):
        if not on:
            from pyopl.lowering.arrays import vectorised_subsets
            monkeypatch.setattr(vectorised_subsets, "vector_grouped_sets", lambda *a: None)
        with pytest.raises(pyopl.CompileError) as e:
            pyopl.compile_model(mod)
        words.append(str(e.value))
    assert words[0] == words[1] and "part" in words[0]


def test_grouped_cells_a_missing_field_is_the_element_paths_error():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(GROUPED % "{int} bad[n in Nodes] = {a.d | a in Arcs : a.src == n};")
    assert "src" in str(e.value)


def test_grouped_cells_sum_rows_as_the_row_path(monkeypatch):
    mod = (GROUPED % "{int} nbrs[n in Nodes] = {a.d | a in Arcs : a.o == n};") + (
        "dvar float+ z[Nodes];\nminimize sum(n in Nodes) z[n];\n"
        "subject to { forall(n in Nodes) c: sum(m in nbrs[n]) z[m] - 2 * z[n] >= -1; }")
    _check(mod, "", monkeypatch)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_graphs_same_rows_as_the_row_path(monkeypatch, seed):
    """Random arcs over 8 nodes (self-loops, parallel arcs, nodes without arcs), fractional costs."""
    import random
    rng = random.Random(seed)
    arcs = sorted({(rng.randint(1, 8), rng.randint(1, 8), rng.randint(1, 9) / 4) for _ in range(rng.randint(5, 25))})
    dat = "Arcs = { %s };" % ", ".join("<%d,%d,%g>" % a for a in arcs)
    mod = TUPLES.replace("range Nodes = 1..5;", "range Nodes = 1..8;") % (
        "forall(n in Nodes, k in 1..2) c: sum(a in out[n]) a.cost * k * flow[a] - sum(a in into[n] : a.cost > 1)"
        " 0.3 * flow[a] + z[n] >= 0.5 * k;")
    _check(mod, dat, monkeypatch)
    assert _taken(monkeypatch, mod, dat) == ["one"]
