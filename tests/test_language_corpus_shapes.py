"""Shapes from the real-model corpus that used to compile slowly, pinned for their values.

- ``sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e]``: membership filters in a sum are
  answered with arrays (once per distinct value of ``e.i``), as in the powerset subtour rows of
  afp-howto-tspremovecircuit; the optimum is checked against a brute force over tours.
- nested numeric builtins ``ftoi(pow(2, ord(S, i)))`` evaluate each argument once (each level
  used to evaluate its argument twice: 2**depth evaluations).
"""
from __future__ import annotations

import itertools

import pytest

import pyopl
from pyopl.lowering.functions import builtins as builtins_mod
from pyopl.lowering.arrays import vectorised, vectorised_rows


def opt(model: str, data=None) -> float:
    r = pyopl.compile_model(model, data).solve()
    assert r.status == "optimal", r.status
    return r.objective


# The corpus model, verbatim apart from the data: every subset but the empty one and the whole
# set gets a subtour row, the subset of number k being the nodes whose bit ord(nodes, i) is set.
TSP_POWERSET = """
int n = ...;
range Cities = 1..n;
tuple edge {int i; int j;}
setof(edge) Edges = {<i,j> | ordered i,j in Cities};
int dist[Edges] = ...;
dvar boolean x[Edges];
{int} nodes = {i.i | i in Edges} union {i.j | i in Edges};
range r = 1..-2+ftoi(pow(2,card(nodes)));
{int} nodes2[k in r] = {i | i in nodes: ((k div (ftoi(pow(2,(ord(nodes,i))))) mod 2) == 1)};
minimize sum(<i,j> in Edges) dist[<i,j>]*x[<i,j>];
subject to {
  forall(j in Cities)
    sum(<i,j> in Edges) x[<i,j>] + sum(<j,k> in Edges) x[<j,k>] == 2;
  forall(k in r)
    sum(e in Edges : (e.i in nodes2[k]) && (e.j in nodes2[k])) x[e] <= card(nodes2[k]) - 1;
}
"""

# Six cities; a symmetric distance table chosen so that two triangles (1-2-3, 4-5-6) are much
# cheaper than any tour: without the subtour rows the optimum would be 6, not the tour's.
D6 = {(1, 2): 1, (1, 3): 1, (2, 3): 1, (4, 5): 1, (4, 6): 1, (5, 6): 1,
      (1, 4): 20, (1, 5): 27, (1, 6): 31, (2, 4): 26, (2, 5): 19, (2, 6): 33,
      (3, 4): 29, (3, 5): 24, (3, 6): 18}


def _brute_force_tour(n: int, d: dict) -> int:
    """The shortest Hamiltonian cycle, by enumerating tours that start at city 1."""
    best = None
    for perm in itertools.permutations(range(2, n + 1)):
        tour = (1,) + perm + (1,)
        length = sum(d[min(a, b), max(a, b)] for a, b in zip(tour, tour[1:]))
        best = length if best is None else min(best, length)
    return best


def test_powerset_subtour_rows_reach_the_brute_force_tour(monkeypatch):
    want = _brute_force_tour(6, D6)
    assert want == 1 + 1 + 18 + 1 + 1 + 19  # the tour 2-1-3-6-4-5-2: each triangle opened, joined by 3-6 and 5-2
    calls = []
    real = vectorised_rows.subset_join
    monkeypatch.setattr(vectorised_rows, "subset_join", lambda *a: calls.append(real(*a)) or calls[-1])
    data = "n = 6; dist = [%s];" % " ".join(str(D6[e]) for e in sorted(D6))
    assert opt(TSP_POWERSET, data) == pytest.approx(want)
    assert True in calls  # the 62 subtour rows took the array path as one family (vectorised_subsets.py)


MEMBERSHIP = """
tuple arc {string src; string dst; int cost;}
{arc} Arcs = {<"a","b",3>, <"a","c",5>, <"b","c",7>, <"c","a",11>, <"b","a",13>, <"c","b",17>,
              <"a","d",19>, <"d","a",23>, <"b","d",29>};
{string} S = {"a", "b"};
dvar float+ x[Arcs] in 0..1;
maximize sum(a in Arcs : %s) a.cost * x[a];
subject to { }
"""


@pytest.mark.parametrize("cond, want", [
    ("a.src in S", 3 + 5 + 7 + 13 + 19 + 29),                     # sources a or b
    ("a.src not in S", 11 + 17 + 23),                             # sources c and d
    ("a.src in S && a.dst in S", 3 + 13),                         # a->b and b->a
    ("a.src in S && !(a.dst in S)", 5 + 7 + 19 + 29),
    ("a.dst not in S || a.cost > 20", 5 + 7 + 19 + 29 + 23),       # dst c or d, or d->a (cost 23)
    ("a in {<\"a\",\"b\",3>, <\"d\",\"a\",23>}", 3 + 23),          # the iterator itself
])
@pytest.mark.parametrize("arrays", [True, False])
def test_membership_filters_in_sums(cond, want, arrays, monkeypatch):
    if not arrays:  # the term-by-term Evaluator must agree
        monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: None)
    assert opt(MEMBERSHIP % cond) == pytest.approx(want)


def test_membership_of_ints_in_a_float_set_and_a_range():
    # i in F: 1 and 4 are in {1.0, 4.0, 2.5} (an int equals the float); i in 6..7: 6 and 7.
    model = """
    {float} F = {1.0, 4.0, 2.5};
    range I = 1..10;
    dvar float+ x[I] in 0..1;
    maximize sum(i in I : i in F || i in 6..7) i * x[i];
    subject to { }
    """
    assert opt(model) == pytest.approx(1 + 4 + 6 + 7)


@pytest.mark.parametrize("expr, want", [
    ("sum(i in S) ftoi(pow(2, ord(S, i)))", 1 + 2 + 4 + 8),       # S = {7, 3, 9, 4}: positions 0..3
    ("sum(i in S : (11 div ftoi(pow(2, ord(S, i)))) mod 2 == 1) i", 7 + 3 + 4),  # 11 = 0b1011
    ("abs(abs(abs(-2.5)))", 2.5),
    ("ftoi(floor(ceil(2.5) + 0.5))", 3),
])
def test_nested_numeric_builtins(expr, want):
    model = "{int} S = {7, 3, 9, 4};\ndvar float x;\nminimize x;\nsubject to { x >= %s; }" % expr
    assert opt(model) == pytest.approx(want)


def test_nested_builtins_evaluate_each_argument_once(monkeypatch):
    calls = []
    real = builtins_mod.call_builtin
    monkeypatch.setattr(builtins_mod, "call_builtin", lambda ev, node, env: calls.append(node.func) or real(ev, node, env))
    depth = 12
    model = "dvar float x;\nminimize x;\nsubject to { x >= %s-3%s; }" % ("abs(" * depth, ")" * depth)
    m = pyopl.compile_model(model)
    assert len(calls) == depth  # was 2**depth - 1 = 4095
    r = m.solve()
    assert r.status == "optimal" and r.objective == pytest.approx(3)
    assert len(calls) == 2 * depth  # the solution check evaluates the statement once more, on numbers


def test_builtin_of_a_string_still_names_the_argument():
    codes = [d.code for d in pyopl.check('dvar float x; minimize x; subject to { x >= ftoi(abs("a")); }')]
    assert codes == ["OPL0202"]  # type-expected-number
