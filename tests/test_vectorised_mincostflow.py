"""The min-cost-flow model as users write it, on the array paths and off them: the same IR bit for bit.

The shape (issue 20): arcs as a tuple set with number fields, ``dvar float+ flow[a in Arcs] in
0..a.cap`` (per-element bounds: :func:`pyopl.lowering.arrays.vectorised_subsets.vector_domain_bounds`) and balance rows
``sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a] == b[v]``
(:mod:`pyopl.lowering.arrays.vectorised_rows`).  Seeded random instances and shape variants (the filters'
sides and order, ``<=``/``>=`` rows, int or float fields, other range ends, other dvar types) are
compiled with the array paths as they ship and with them switched off; the IRs and the diagnostics
must agree, and the array paths must actually have been taken.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import pyopl
from pyopl.lowering.model import constraints, declarations
from pyopl.lowering.arrays import vectorised_rows
from tests.ir_compare import array_paths_off, assert_same_bits, check_and_compile

MOD = """\
{int} Nodes = ...;
tuple Arc { %(ftype)s src; %(ftype)s dst; float cost; %(ctype)s cap; %(ctype)s low; }
{Arc} Arcs = ...;
float b[Nodes] = ...;
dvar %(vtype)s flow[a in Arcs] in %(domain)s;
minimize sum(a in Arcs) a.cost * flow[a];
subject to {
  forall(v in Nodes)
    %(label)s%(lhs)s %(op)s b[v];
}
"""

BALANCES = [
    "sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a]",
    "sum(a in Arcs : a.dst == v) flow[a] - sum(a in Arcs : a.src == v) flow[a]",
    "sum(a in Arcs : v == a.src) flow[a] - sum(a in Arcs : v == a.dst) flow[a]",
    "-sum(a in Arcs : a.dst == v) flow[a] + sum(a in Arcs : a.src == v) flow[a]",
    "sum(a in Arcs : a.src == v) 2.5 * flow[a] - sum(a in Arcs : a.dst == v) a.cost * flow[a]",
]
DOMAINS = ["0..a.cap", "-a.cap..a.cap", "a.low..a.cap", "0..a.cap * 2", "a.low..100", "-0.0..a.cap"]


def _number(rng: random.Random, ctype: str) -> str:
    if ctype == "int":
        return str(rng.randint(-5, 60))
    return repr(rng.choice([float(rng.randint(0, 60)), round(rng.uniform(0, 60), 3), -0.0, 0.0, 1e-300]))


def _instance(rng: random.Random, ftype: str, ctype: str, ring: bool = False) -> str:
    n = rng.randint(2, 12)
    seen, arcs = set(), []
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(2, 4 * n))]
    for s, t in ([(k, (k + 1) % n) for k in range(n)] if ring else []) + pairs:  # a ring: every node has arcs
        if (s, t) in seen or (ring and s == t):  # a self-loop puts a column twice in a row: left to the row path
            continue
        seen.add((s, t))
        f = (lambda x: repr(float(x))) if ftype == "float" else str
        arcs.append("<%s, %s, %r, %s, %s>" % (f(s), f(t), round(rng.uniform(-3, 20), 2), _number(rng, ctype),
                                                _number(rng, ctype)))
    b = [repr(rng.choice([0.0, -0.0, float(rng.randint(-9, 9)), round(rng.uniform(-5, 5), 4)])) for _ in range(n)]
    return "Nodes = {%s};\nArcs = {%s};\nb = [%s];\n" % (
        ", ".join(map(str, range(n))), ", ".join(arcs), ", ".join(b))


def _compile(mod: str, dat: str, monkeypatch, on: bool, taken: list):
    if on:
        rows, doms = vectorised_rows.vector_forall, declarations.vector_domain_bounds
        monkeypatch.setattr(constraints, "vector_forall",
                            lambda inst, s, env: taken.append(("rows", rows(inst, s, env))) or taken[-1][1])
        monkeypatch.setattr(declarations, "vector_domain_bounds",
                            lambda *a: taken.append(("bounds", doms(*a) is not None)) or doms(*a))
    else:
        array_paths_off(monkeypatch)
    return check_and_compile(mod, dat, monkeypatch)


def _same(mod: str, dat: str, monkeypatch) -> list:
    taken: list = []
    ir_on, d_on = _compile(mod, dat, monkeypatch, True, taken)
    ir_off, d_off = _compile(mod, dat, monkeypatch, False, [])
    assert d_on == d_off
    assert_same_bits(ir_on, ir_off)
    return taken


@pytest.mark.parametrize("seed", range(40))
def test_random_min_cost_flow_shapes_compile_as_the_tree_walk(monkeypatch, seed):
    rng = random.Random(seed)
    ftype, ctype = rng.choice(["int", "float"]), rng.choice(["int", "float"])
    shape = dict(ftype=ftype, ctype=ctype, vtype=rng.choice(["float+", "float", "int+", "int"]),
                 domain=rng.choice(DOMAINS), label=rng.choice(["", "balance: "]), lhs=rng.choice(BALANCES),
                 op=rng.choice(["==", "<=", ">="]))
    mod = MOD % shape
    ring = rng.random() < 0.7  # without it, some node may have no arc: a row the array path leaves to the row path
    taken = _same(mod, _instance(rng, ftype, ctype, ring), monkeypatch)
    assert ("bounds", True) in taken, (shape, taken)
    if ring:
        assert ("rows", True) in taken, (shape, taken)


def test_the_issue_shape_takes_both_array_paths(monkeypatch):
    mod = MOD % dict(ftype="int", ctype="float", vtype="float+", domain="0..a.cap", label="balance: ",
                     lhs=BALANCES[0], op="==")
    taken = _same(mod, _instance(random.Random(7), "int", "float", ring=True), monkeypatch)
    assert ("bounds", True) in taken and ("rows", True) in taken


def test_bounds_are_the_range_ends_clipped_to_the_type():
    # computed by hand: float+ clips the lower end at 0; an integral -0.0 end becomes 0.0 (an int range)
    mod = MOD % dict(ftype="int", ctype="float", vtype="float+", domain="-a.cap..a.cap", label="", lhs=BALANCES[0],
                     op="==")
    dat = "Nodes = {0, 1};\nArcs = {<0, 1, 1.0, 2.5, 0>, <1, 0, 1.0, -0.0, 0>, <0, 0, 1.0, 7.0, 0>};\nb = [0, 0];\n"
    ir = pyopl.compile_model(mod, dat).ir
    assert ir.col_lower.tolist() == [0.0, 0.0, 0.0]
    assert ir.col_upper.tolist() == [2.5, 0.0, 7.0]
    assert not np.signbit(ir.col_upper[1])  # `0.0..0.0` is an int range: its ends went through int()


def test_bounds_of_a_two_dimensional_array_follow_the_key_order():
    mod = ("range I = 1..3; {string} J = {\"a\", \"b\"}; float u[I][J] = [[1, 2], [3.5, 4], [5, 6]];\n"
           "dvar float x[i in I][j in J] in -i..u[i][j];\nminimize sum(i in I, j in J) x[i][j];\n"
           "subject to { forall(i in I) sum(j in J) x[i][j] >= 0; }")
    ir = pyopl.compile_model(mod).ir
    assert ir.col_lower.tolist() == [-1.0, -1.0, -2.0, -2.0, -3.0, -3.0]
    assert ir.col_upper.tolist() == [1.0, 2.0, 3.5, 4.0, 5.0, 6.0]


@pytest.mark.parametrize("domain", ["0..a.name", "0..a.cap / a.low", "0..(a.cap > 1)", "-infinity..a.cap",
                                    "a.cap..infinity", "a.cap..a.low", "a.low - 2147483647..a.cap",
                                    "a.low + 2147483647..a.cap", "0..a.cap / 0.0", "-a.low..-a.low"])
def test_other_domains_compile_and_report_as_the_element_path(monkeypatch, domain):
    mod = ("tuple Arc { string name; float cap; int low; } {Arc} Arcs = {<\"p\", 2.0, 0>, <\"q\", 3.0, 1>};\n"
           "dvar float+ flow[a in Arcs] in %s;\nminimize sum(a in Arcs) flow[a];\nsubject to { }" % domain)
    _same(mod, "", monkeypatch)


PATTERN_MOD = """\
tuple Arc { int src; int dst; float cost; float cap; }
{Arc} Arcs = {<0, 1, 1.5, 4>, <1, 2, -2.25, 3>, <2, 0, 0.1, 5>, <0, 2, 7, 1>};
float w[Arcs] = [1, 2, 3, 4];
dvar float+ flow[a in Arcs] in 0..a.cap;
minimize %s;
subject to { forall(v in 0..2) sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a] == 0; }
"""


@pytest.mark.parametrize("objective", [
    "sum(<s, d, c, u> in Arcs) c * flow[<s, d, c, u>]",
    "sum(<s, d, c, u> in Arcs : s < d) (c + u) * flow[<s, d, c, u>] - 2",
    "sum(<s, d, c, u> in Arcs) w[<s, d, c, u>] * flow[<s, d, c, u>]",
    "sum(<s, d, c, u> in Arcs) flow[<s, d, c, u>] + sum(<s, d, c, u> in Arcs) -c * flow[<s, d, c, u>]",
    "sum(<s, d, c, u> in Arcs) flow[<d, s, c, u>]",  # a literal that is not the element: left to the tree walk
    "sum(<s, d, c> in Arcs) flow[<s, d, c, 1>]",  # too few components: the row path words it
    "sum(<s, d, c, u> in Arcs) s * d * flow[<s, d, c, u>]",
])
def test_a_sum_over_a_tuple_pattern_compiles_as_the_tree_walk(monkeypatch, objective):
    taken: list = []
    from pyopl.lowering.arrays import vectorised_inline

    real = vectorised_inline.single_name_form
    monkeypatch.setattr(vectorised_inline, "single_name_form",
                        lambda *a: taken.append(real(*a) is not None) or real(*a))
    _same(PATTERN_MOD % objective, "", monkeypatch)
    assert taken and all(taken) == ("<s, d, c>" not in objective)  # rewritten (the array path may still refuse)


def test_a_sum_over_a_tuple_pattern_sums_the_fields_by_hand():
    ir = pyopl.compile_model(PATTERN_MOD % "sum(<s, d, c, u> in Arcs) (c + s) * flow[<s, d, c, u>]").ir
    assert ir.obj.tolist() == [1.5, 1 - 2.25, 2 + 0.1, 7.0]


@pytest.mark.parametrize("rows", [
    "forall(s in 0..2) sum(<s, d, c, u> in Arcs) flow[<s, d, c, u>] <= 1;",  # s bound outside: a filter
    "forall(v in 0..2) sum(<s, d, c, u> in Arcs : d == v) c * flow[<s, d, c, u>] <= 9;",
    "forall(v in 0..2) sum(<s, d, c, u> in Arcs : s == v) flow[<s, d, c, u>] - sum(<s, d, c, u> in Arcs : d == v) "
    "flow[<s, d, c, u>] == 0;",
])
def test_rows_with_sums_over_tuple_patterns_compile_as_the_tree_walk(monkeypatch, rows):
    mod = PATTERN_MOD.replace("subject to {", "subject to { %s" % rows) % "sum(a in Arcs) flow[a]"
    _same(mod, "", monkeypatch)
