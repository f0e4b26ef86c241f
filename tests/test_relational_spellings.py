"""Issue 31: filters as hash joins, dexpr cells inlined and tuple patterns read as fields in row families.

Each spelling of one small min-cost-flow model (enough arcs for the joins to apply) is compiled three
ways: as shipped, with the array paths off, and with the array paths and the tree walk's joins off
(every domain scanned: the reference). The IRs must be equal bit for bit, and the spellings the row
families now take must be taken by them (counted with a spy on ``vector_forall``)."""
from __future__ import annotations

import random

import pytest

import pyopl
from pyopl.lowering.model import constraints
from pyopl.lowering.evaluate import iteration
from tests.ir_compare import array_paths_off, assert_same_ir

NODES, ARCS = 12, 90


def _data() -> str:
    rng = random.Random(7)
    pairs = sorted({(o, d) for o, d in ((rng.randint(1, NODES), rng.randint(1, NODES)) for _ in range(ARCS * 3))
                    if o != d})[:ARCS]  # (no loop: a column in and out of one row falls back, as it should)
    arcs = ", ".join("<%d, %d, %d.5, %d>" % (o, d, rng.randint(1, 9), rng.randint(5, 40)) for o, d in pairs)
    b = ", ".join(str(rng.randint(-3, 3)) for _ in range(NODES))
    return "int n = %d;\nrange Nodes = 1..n;\ntuple arc { int orig; int dest; float unitCost; int capacity; }\n" \
           "{arc} Arcs = {%s};\nfloat b[Nodes] = [%s];\n" % (NODES, arcs, b)


IN = "sum(a in Arcs : a.dest == v) ship[a]"
OUT = "sum(a in Arcs : a.orig == v) ship[a]"
PIN = "sum(<o, d, c, u> in Arcs : d == v) ship[<o, d, c, u>]"
POUT = "sum(<o, d, c, u> in Arcs : o == v) ship[<o, d, c, u>]"
DEXPR = "dexpr float inflow[v in Nodes] = %s;\ndexpr float outflow[w in Nodes] = %s;\n" % (IN, OUT.replace("v", "w"))
SPELLINGS = {  # name -> (extra declarations, the balance rows, whether the row family takes it)
    "issue": ("", "ctBalance: %s - %s == -b[v];" % (IN, OUT), True),
    "sides swapped": ("", "-b[v] == %s - %s;" % (IN, OUT), True),
    "b moved across": ("", "%s - %s + b[v] == 0;" % (IN, OUT), True),
    "reordered, v == field": ("", "-%s + sum(a in Arcs : v == a.dest) ship[a] == -b[v];" % OUT, True),
    "two inequalities": ("", "lo: %s - %s <= -b[v];\n  forall(v in Nodes) hi: %s - %s >= -b[v];" % (IN, OUT, IN, OUT),
                         True),
    "tuple patterns": ("", "ct: %s - %s == -b[v];" % (PIN, POUT), True),
    "conjunct first": ("", "sum(a in Arcs : a.dest == v && a.capacity >= 10) ship[a] - %s == -b[v];" % OUT, True),
    "conjunct second": ("", "sum(a in Arcs : a.capacity >= 10 && v == a.dest) ship[a] - %s == -b[v];" % OUT, True),
    "dexpr in between": (DEXPR, "ct: inflow[v] - outflow[v] == -b[v];", True),
    "dexpr, plain rows": (DEXPR, "inflow[v] == outflow[v] - b[v];", True),
    "dexpr with a constant": ("dexpr float net[v in Nodes] = %s - %s + b[v];\n" % (IN, OUT), "ct: net[v] == 0;", True),
    # `2 * sum(...)`: a scaled sum (issue 46, round 8), taken, the same IR
    "dexpr with a scaled sum": ("dexpr float net[v in Nodes] = 2 * %s - %s + b[v];\n" % (IN, OUT),
                                "ct: net[v] == 0;", True),
    "scalar dexpr": ("dvar float+ s;\ndexpr float slack = 2 * s;\n", "%s - %s <= slack - b[v];" % (IN, OUT), True),
}
TEMPLATE = "%sdvar float+ ship[a in Arcs] in 0..a.capacity;\n%sminimize sum(a in Arcs) a.unitCost * ship[a];\n" \
           "subject to {\n  forall(v in Nodes)\n    %s\n}\n"


def _model(name: str) -> str:
    extra, rows, _taken = SPELLINGS[name]
    return TEMPLATE % (_data(), extra, rows)


def _ir(mod: str):
    return pyopl.compile_model(mod).ir


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_spelling_gives_the_reference_ir(monkeypatch, name):
    mod = _model(name)
    taken = []
    real = constraints.vector_forall
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: taken.append(real(inst, s, env)) or taken[-1])
    shipped = _ir(mod)
    monkeypatch.undo()
    assert any(taken) == SPELLINGS[name][2]
    array_paths_off(monkeypatch)
    walk_with_joins = _ir(mod)
    monkeypatch.setattr(iteration.Iteration, "joins", False)
    reference = _ir(mod)
    assert reference.A.shape[0] >= NODES
    assert_same_ir(shipped, reference)
    assert_same_ir(walk_with_joins, reference)
    assert _forms(shipped) == _forms(reference)  # dexpr cells made all at once: the same forms, term order too


def _forms(ir) -> dict:
    return {name: {k: (list(v.terms.items()), v.const, str(v.const)) if hasattr(v, "terms") else v
                   for k, v in cells.items()} for name, cells in ir.dexprs.items()}


def test_a_join_on_a_forall_binder_keeps_the_domain_order(monkeypatch):
    mod = TEMPLATE % (_data(), "", "ct: sum(a in Arcs : a.orig == v) ship[a] <= 1;\n  forall(a in Arcs : a.dest == 3) "
                      "in3[a]: ship[a] <= 2;")
    mod = mod.replace("forall(v in Nodes)\n    ct:", "forall(v in Nodes)\n    ct:", 1)
    shipped = _ir(mod)
    array_paths_off(monkeypatch)
    monkeypatch.setattr(iteration.Iteration, "joins", False)
    reference = _ir(mod)
    assert_same_ir(shipped, reference)
    # the rows of `in3` are the arcs into node 3, in the set's order (worked out from the data text)
    arcs = [t for t in _data().split("{arc} Arcs = {")[1].split("}")[0].split(">, ")]
    into3 = [a for a in arcs if a.strip("<> ").split(", ")[1] == "3"]
    assert sum(1 for lab in shipped.row_label if lab == "in3") == len(into3)


def test_a_filter_on_a_string_field_joins(monkeypatch):
    names = ["n%d" % k for k in range(70)]
    mod = ("{string} S = {%s};\ntuple e { string from; string to; }\n{e} E = {%s};\ndvar float+ x[E];\n"
           "minimize sum(t in E) x[t];\nsubject to { forall(s in S) sum(t in E : t.from == s) x[t] "
           "+ sum(t in E : s == t.to && t.from != s) x[t] >= 1; }\n") % (
        ", ".join('"%s"' % s for s in names),
        ", ".join('<"%s", "%s">' % (names[k], names[(k * 7 + 3) % 70]) for k in range(70)))
    shipped = _ir(mod)
    array_paths_off(monkeypatch)
    monkeypatch.setattr(iteration.Iteration, "joins", False)
    reference = _ir(mod)
    assert_same_ir(shipped, reference)
    assert shipped.A.shape == (70, 70) and shipped.A.nnz == 140  # each node: its one out-arc and its one in-arc
