"""Tuple patterns that repeat a name bound by an earlier pattern of the same iteration are joins."""
from __future__ import annotations

import itertools

import pytest

import pyopl

_DATA = """
tuple Tr { string o; string h; string s; }
tuple Ro { string o; string h; string d; }
{Tr} Triples = {<"a","x","s1">, <"a","y","s2">, <"b","x","s3">};
{Ro} Routes = {<"a","x","d1">, <"a","x","d2">, <"b","y","d3">, <"b","x","d4">};
"""
_TRIPLES = [("a", "x", "s1"), ("a", "y", "s2"), ("b", "x", "s3")]
_ROUTES = [("a", "x", "d1"), ("a", "x", "d2"), ("b", "y", "d3"), ("b", "x", "d4")]
_PAIRS = [(t, r) for t, r in itertools.product(_TRIPLES, _ROUTES) if t[:2] == r[:2]]


def test_repeated_names_are_equality_conditions_in_sum_and_forall():
    """IBM page "Tuple patterns" (OPL Language Reference, "Formal parameters"): in
    `sum(<o,h,s> in Triples, <o,h,d> in Routes)` the second `o` and `h` take the values the first
    pattern bound, so only matching pairs are iterated (a join)."""
    text = _DATA + """
int cnt = sum(<o,h,s> in Triples, <o,h,d> in Routes) 1;
dvar float+ f[Triples][Routes];
minimize sum(<o,h,s> in Triples, <o,h,d> in Routes) f[<o,h,s>][<o,h,d>];
subject to { forall(<o,h,s> in Triples, <o,h,d> in Routes) f[<o,h,s>][<o,h,d>] >= 1; }
execute { writeln(cnt); }
"""
    r = pyopl.solve(text)
    assert len(_PAIRS) == 3  # by hand: (a,x) x {d1, d2}, (b,x) x {d4}
    assert r.script_output.strip() == str(len(_PAIRS))
    assert r.objective == pytest.approx(len(_PAIRS))
    nonzero = {k for k, v in r["f"].items() if v > 0.5}
    assert nonzero == {(t, ro) for t, ro in _PAIRS}


def test_join_in_a_set_comprehension():
    """IBM page "Tuple patterns": the join also applies to the iterators of a set comprehension."""
    text = _DATA + """
tuple P { string s; string d; }
{P} legs = {<s, d> | <o,h,s> in Triples, <o,h,d> in Routes};
execute { writeln(legs); }
dvar float+ x;
minimize x;
subject to { x >= card(legs); }
"""
    r = pyopl.solve(text)
    assert r.script_output.strip() == "{" + " ".join('<"%s" "%s">' % (t[2], ro[2]) for t, ro in _PAIRS) + "}"


def test_repeated_plain_iterator_is_still_an_error():
    """A plain iterator bound twice (`i in I, i in J`) is no pattern: OPL0116 stays."""
    r = pyopl.check("dvar float+ x[1..2][1..2];\nminimize sum(i in 1..2, i in 1..2) x[i][i];")
    assert [d.code for d in r if d.severity == "error"] == ["OPL0116"]
