"""Computed arrays of subsets and row families filtered by membership in them (vectorised_subsets.py,
vectorised_calls.py): the same IR, bit for bit, and the same diagnostics as one element and one row
at a time, and rows checked against subsets worked out by hand."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import examples

import pyopl
from pyopl.lowering.arrays import vectorised_rows, vectorised_subsets
from tests.ir_compare import array_paths_off, assert_same_bits, check_and_compile

EXAMPLES = {"fuzz": 0, "covered": 0}  # counts of the fuzz campaign (printed by -s; see docs/performance.md)


def _compile(mod: str, dat: str, monkeypatch, on: bool, taken: list | None = None):
    if on and taken is not None:
        real_set, real_join = vectorised_subsets.vector_set_array, vectorised_rows.subset_join

        def set_array(*a):
            out = real_set(*a)
            if out is not None:
                taken.append("set")
            return out

        def join(*a):
            hit = real_join(*a)
            if hit:
                taken.append("join")
            return hit
        monkeypatch.setattr(vectorised_subsets, "vector_set_array", set_array)
        monkeypatch.setattr(vectorised_rows, "subset_join", join)
    if not on:
        array_paths_off(monkeypatch)
    return check_and_compile(mod, dat or None, monkeypatch)


def _same(mod: str, dat: str, monkeypatch) -> list:
    taken: list = []
    ir_on, d_on = _compile(mod, dat, monkeypatch, True, taken)
    ir_off, d_off = _compile(mod, dat, monkeypatch, False)
    assert d_on == d_off
    assert_same_bits(ir_on, ir_off)
    return taken


BITS_MOD = """
int n = %d;
range Nodes = 1..n;
tuple Edge { int i; int j; }
{Edge} Edges = {<i, j> | ordered i, j in Nodes};
range K = 1..ftoi(pow(2, n)) - 2;
{int} S[k in K] = {v | v in Nodes : (k div ftoi(pow(2, ord(Nodes, v)))) mod 2 == 1};
dvar boolean x[Edges];
minimize sum(e in Edges) x[e];
subject to {
  forall(k in K)
    %s
}
"""


def test_subtour_rows_are_the_subsets_worked_out_by_hand(monkeypatch):
    n = 5
    taken = _same(BITS_MOD % (n, "ct: sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;"), "",
                  monkeypatch)
    assert taken.count("set") == 2 and taken.count("join") == 2  # (check, then compile)
    ir = pyopl.compile_model(BITS_MOD % (n, "ct: sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] "
                                            "<= card(S[k]) - 1;")).ir
    edges = list(itertools.combinations(range(1, n + 1), 2))
    want_rows, want_keys, want_hi = [], [], []
    for k in range(1, 2 ** n - 1):
        s = {v for v in range(1, n + 1) if (k >> (v - 1)) & 1}
        cols = [c for c, (i, j) in enumerate(edges) if i in s and j in s]
        if cols:  # a single city: `0 <= 0` holds and makes no row
            want_rows.append(cols)
            want_keys.append((k,))
            want_hi.append(len(s) - 1.0)
    A = ir.A.tocsr()
    assert [sorted(A.indices[A.indptr[r]:A.indptr[r + 1]].tolist()) for r in range(A.shape[0])] == want_rows
    assert list(ir.row_key) == want_keys and ir.row_upper.tolist() == want_hi
    assert set(ir.row_lower.tolist()) == {-np.inf}


@pytest.mark.parametrize("stmt", [
    "sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;",
    "sum(e in Edges : e.i in S[k] && e.j not in S[k]) x[e] >= 1;",
    "sum(e in Edges : !(e.i in S[k]) || e.j in S[k]) x[e] >= card(S[k]) div 2;",
    "ct: sum(e in Edges : k > 3 && e.i in S[k] && e.j < 4) x[e] <= card(S[k]) mod 3 + 1;",
    "sum(e in Edges : e in T[k]) x[e] <= 1;",  # a set of tuples from data... computed: T below
    "sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 2;",  # singletons: 0 <= -1, reported
    "sum(e in Edges : e.i in S[k]) 2 * x[e] - sum(e in Edges : e.j in S[k]) x[e] == ftoi(pow(2, card(S[k])));",
])
def test_row_family_shapes_equal_row_by_row(monkeypatch, stmt):
    mod = (BITS_MOD % (4, stmt)).replace(
        "dvar boolean", "{Edge} T[k in K] = {e | e in Edges : (k div ftoi(pow(2, e.i - 1))) mod 2 == 1};\ndvar boolean")
    _same(mod, "", monkeypatch)


@pytest.mark.parametrize("decl", [
    "{int} S[k in K] = {v | v in Nodes : v mod k == 0};",
    "{int} S[k in K] = {v | v in Nodes : v div (k - 3) > 0};",  # division by zero at k = 3: reported
    "{int} S[k in K] = {v | v in Nodes : ftoi(pow(k, v)) > 40};",
    "{int} S[k in K] = {v | v in Nodes : ftoi(pow(k * 100, v)) > 40};",  # past 2^31: int-overflow reported
    "{int} S[k in K] = {v | v in Nodes : pow(k * 7000, v) > 40};",  # past 2^52: computed one by one
    "{int} S[k in K] = {v | v in Nodes : abs(v - k) <= 1 || round(k / 2.5) == v};",
    "{int} S[k in K] = {v | v in Nodes : floor(k / v) == ceil(k / v)};",
    "{int} S[k in K] = {v | v in Nodes : ord(Nodes, v) < card(Nodes) - k};",
    "{int} S[k in K] = {v | v in Nodes};",
    "{int} S[k in K][j in 1..2] = {v | v in Nodes : v + j > k};",
    "{float} S[k in K] = {v | v in Nodes : v > k};",  # converted to float: the element path
])
def test_computed_set_arrays_equal_element_by_element(monkeypatch, decl):
    mod = """
int n = 5; range Nodes = 1..n; range K = 1..6;
%s
dvar float+ x[Nodes];
minimize sum(v in Nodes) x[v];
subject to { forall(k in K) sum(v in Nodes : v in %s) x[v] >= 1; }
""" % (decl, "S[k][1]" if "[j in" in decl else "S[k]")
    _same(mod, "", monkeypatch)


def test_string_subsets_from_data_and_from_a_comprehension(monkeypatch):
    mod = """
{string} Cities = ...;
tuple Link { string a; string b; }
{Link} Links = ...;
{string} Given[1..3] = ...;
{string} Made[k in 1..3] = {c | c in Cities : c != "b" || k == 2};
dvar float+ y[Links];
minimize sum(l in Links) y[l];
subject to {
  forall(k in 1..3) given: sum(l in Links : l.a in Given[k] && l.b not in Given[k]) y[l] >= card(Given[k]);
  forall(k in 1..3) made: sum(l in Links : l.a in Made[k] || l.b in Made[k]) y[l] <= 7;
}
"""
    dat = """
Cities = {"a", "b", "c", "d"};
Links = {<"a", "b">, <"b", "c">, <"c", "a">, <"d", "a">, <"a", "d">};
Given = [{"a"}, {"b", "c"}, {"d", "a", "b"}];
"""
    taken = _same(mod, dat, monkeypatch)
    assert taken.count("join") == 4 and taken.count("set") == 2  # (check, then compile)


def test_the_sets_are_made_when_read_and_are_the_comprehensions():
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.lowering.model.driver import run
    from pyopl.lowering.model.instance import Instance
    from pyopl.syntax.parser import parse_model

    mod = BITS_MOD % (4, "sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;")
    inst = Instance(parse_model(mod, "m.mod", Reporter()), {}, Reporter())
    run(inst)
    S = inst.symbols["S"].value
    assert type(S).__name__ == "OplArray" and isinstance(S.flat, vectorised_subsets.MaskedSets)
    assert S.flat._sets is None and S._data is None  # the rows read the mask only
    assert list(S.data[(6,)]) == [2, 3] and S.data[(6,)].elem_type == "int"  # 6 = 0b110
    assert [list(S.data[(k,)]) for k in range(1, 15)] == [
        [v for v in range(1, 5) if (k >> (v - 1)) & 1] for k in range(1, 15)]


# ---------------------------------------------------------------------- differential fuzz
@st.composite
def _family(draw):
    n = draw(st.integers(2, 6))
    nk = draw(st.integers(1, 9))
    edges = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), min_size=0, max_size=10, unique=True))
    subset = draw(st.sampled_from([
        "(k div ftoi(pow(2, ord(Nodes, v)))) mod 2 == 1",
        "(k + v) mod %d == 0" % draw(st.integers(1, 4)),
        "v * %d <= k" % draw(st.integers(1, 3)),
        "k mod v != %d" % draw(st.integers(0, 2)),
        "abs(k - v) %s %d" % (draw(st.sampled_from(["<", "<=", ">", "=="])), draw(st.integers(0, 3))),
    ]))
    leaf = st.sampled_from(["e.i in S[k]", "e.j in S[k]", "e.i not in S[k]", "e.j not in S[k]",
                            "e.i < e.j", "k > %d" % draw(st.integers(0, 5)), "e.i in S[%s]" % draw(
                                st.sampled_from(["k", "nk + 1 - k"]))])
    cond = draw(leaf)
    for _ in range(draw(st.integers(0, 2))):
        cond = "%s %s %s" % (cond, draw(st.sampled_from(["&&", "||"])), draw(leaf))
    if draw(st.booleans()):
        cond = "!(%s)" % cond
    op = draw(st.sampled_from(["<=", ">=", "=="]))
    rhs = draw(st.sampled_from(["card(S[k]) - 1", "card(S[k]) div 2", "1", "0", "k mod 3"]))
    coef = draw(st.sampled_from(["", "2 * ", "0.5 * ", "-1.25 * "]))
    label = draw(st.sampled_from(["", "ct: "]))
    mod = """
int n = %d; int nk = %d;
range Nodes = 1..n; range K = 1..nk;
tuple Edge { int i; int j; }
{Edge} Edges = {%s};
{int} S[k in K] = {v | v in Nodes : %s};
dvar float+ x[Edges] in 0..10;
minimize sum(e in Edges) x[e];
subject to {
  forall(k in K) %ssum(e in Edges : %s) %sx[e] %s %s;
}
""" % (n, nk, ", ".join("<%d, %d>" % e for e in edges), subset, label, cond, coef, op, rhs)
    return mod


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(_family())
def test_random_subset_families_equal_row_by_row(monkeypatch, mod):
    taken = _same(mod, "", monkeypatch)
    EXAMPLES["fuzz"] += 1
    EXAMPLES["covered"] += "join" in taken
    print("subset fuzz: %(fuzz)d examples, %(covered)d through subset_join" % EXAMPLES)
