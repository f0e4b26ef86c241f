"""Bounds of magnitude 1e20 or more are infinite, as CPLEX reads them (CPLEX parameter reference,
"infinity"; IBM's examples write `<= 1e+20`).  Issue 34, item 3: before, OPL0431 refused them."""
from __future__ import annotations

import math

import pyopl


def test_bounds_at_cplex_infinity_are_no_bounds():
    model = ("dvar float+ x in 0..1e+20;\ndvar float y in -1e20..1e20;\nmaximize -x - y;\n"
             "subject to { c1: x + y >= 2; c2: x - y <= 1e+20; c3: -1e20 <= x + 2*y <= 1e21; y >= -5; }\n")
    m = pyopl.compile_model(model)
    assert math.isinf(m.ir.col_upper[0]) and m.ir.col_upper[0] > 0
    assert math.isinf(m.ir.col_lower[1]) and m.ir.col_lower[1] < 0 and math.isinf(m.ir.col_upper[1])
    r = m.solve()
    # by hand: maximize -(x + y) with x + y >= 2 -> x + y = 2, reachable with y = -5, x = 7 (x - y = 12)
    assert r.status == "optimal" and r.objective == -2


def test_a_lower_bound_at_plus_infinity_is_still_refused():
    d = [d for d in pyopl.check("dvar float x in 1e20..1e21;\nminimize x;\nsubject to { x >= 0; }\n") if d.is_error]
    assert [x.code for x in d] == ["OPL0431"] and d[0].span.line == 1


def test_a_script_upper_bound_of_1e20_is_no_bound():
    model = ("dvar float+ x;\nexecute { x.UB = 1e20; }\nmaximize x;\nsubject to { c: x <= 5; }\n")
    r = pyopl.compile_model(model).solve()
    assert r.status == "optimal" and r.objective == 5
