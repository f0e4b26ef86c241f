"""Declarations without an initializer hold IBM's default values until a script assigns them."""
from __future__ import annotations

import pytest

import pyopl


def _codes(r) -> list[str]:
    return [d.code for d in r.diagnostics]


def test_defaults_of_every_kind_until_a_script_assigns():
    """IBM page "Pitfall of lazy initialization of data": before the script runs, a string array
    declared without a value holds empty strings; ints are 0, sets empty, tuples of defaults."""
    text = """
tuple Arc { string o; int c; float w[1..2]; }
int n;
string s;
{int} picked;
Arc best;
float w[1..3];
string names[0..2];
dvar float+ x;
minimize x;
subject to { x >= 1; }
execute { writeln(n, "|", s, "|", picked, "|", best, "|", w, "|", names); }
"""
    r = pyopl.solve(text)
    # (IBM's writeln puts a space before a set that follows another argument: `| {}`)
    assert r.script_output.splitlines() == ['0|| {}|<"" 0 [0 0]>|[0 0 0]|["" "" ""]']
    assert "OPL0413" not in _codes(r) and "OPL0414" not in _codes(r)  # the model does not use them


def test_preprocessing_assigns_scalar_and_set_then_model_uses_them():
    """IBM page "Preprocessing of data": execute blocks before the model set the data it sees.
    x >= n + card(picked) with n = 4 and picked = {2, 5}: the minimum of x is 6."""
    text = """
int n;
{int} picked;
execute { n = 4; picked.add(2); picked.add(5); }
dvar float+ x;
minimize x;
subject to { x >= n + card(picked); }
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(6.0)
    assert "OPL0413" not in _codes(r)


def test_postprocessing_fills_a_tuple_set_declared_without_value():
    """IBM page "Postprocessing of data": a set declared without value collects the solution."""
    text = """
tuple Arc { int o; int d; }
{Arc} arcs = {<1,2>, <2,3>, <1,3>};
dvar boolean use[arcs];
maximize sum(a in arcs) (a.o + a.d) * use[a];
subject to { sum(a in arcs) use[a] <= 2; }
{Arc} used;
execute { for (var a in arcs) if (use[a] == 1) used.add(a.o, a.d); writeln(used); }
"""
    r = pyopl.solve(text)
    # weights 3, 5, 4: the two best are <2,3> and <1,3> (in the order of `arcs`)
    assert r.objective == pytest.approx(9.0)
    assert r.script_output.strip() == "{<2 3> <1 3>}"


def test_warning_only_where_model_uses_it_and_nothing_assigns():
    """IBM page "Data types": a declaration without value is legal; pyopl warns (OPL0413, OPL0414)
    only where the constraints use the default and no script assigns it."""
    text = """
int n;
int unused;
float a[1..2];
range R = 1..n;
dvar float+ x[R];
minimize sum(i in R) x[i];
subject to { forall(i in R) x[i] >= a[1]; }
"""
    r = pyopl.check(text)
    warned = sorted((d.code, d.span.line) for d in r if d.code in ("OPL0413", "OPL0414"))
    assert warned == [("OPL0413", 2), ("OPL0414", 4)]
    assert all(d.severity == "warning" for d in r if d.code in ("OPL0413", "OPL0414"))
