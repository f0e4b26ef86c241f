"""Issue 44, section 3: forms real MP models (IBM's examples among them) use, each with an answer
worked out by hand from IBM's documented semantics."""
from __future__ import annotations

import pytest

import pyopl


def _codes(r) -> list[str]:
    return [d.code for d in r.diagnostics]


def test_execute_before_a_tuple_declaration_with_external_data():
    """An `execute` block placed before `tuple T` (IBM's `mulprod_change_main`, `lifegame` examples
    open with a settings block): external data of type `T` read after it is initialised before
    the script (IBM's order) and after `T`. x[<1,2.5>] <= 1, x[<2,3.5>] <= 2: 2.5 + 7 = 9.5."""
    model = """
execute { writeln("first"); }
tuple T { int a; float b; }
{T} S = ...;
T one = ...;
dvar float+ x[S] in 0..10;
maximize sum(s in S) s.b * x[s] + one.b;
subject to { forall(s in S) x[s] <= s.a; }
"""
    data = "S = {<1, 2.5>, <2, 3.5>}; one = <3, 1.0>;"
    r = pyopl.solve(model, data, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(10.5)
    assert r.script_output.splitlines() == ["first"]
