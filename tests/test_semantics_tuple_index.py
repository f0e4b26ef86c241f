"""An array indexed by one tuple type and indexed with a tuple of another type, or with a tuple
literal that does not fit the type, is a type error at the index, naming both types.

Two tuple types with the same fields are different types (OPL); before this check a tuple of
another type whose values matched was looked up as if it were the array's own tuple, and the
model silently used the element (`c2` below was 5, the optimum 5).
"""
from __future__ import annotations

import pytest

import pyopl

BASE = ("tuple arc { int o; int d; }\ntuple edge { int o; int d; }\ntuple hold { edge e; int k; }\n"
        "{arc} A = {<1, 2>, <2, 3>};\n{edge} E = {<1, 2>, <2, 3>};\n{hold} H = {<<1, 2>, 1>, <<2, 3>, 2>};\n"
        "float cost[A] = [5, 6];\ndvar float+ x;\ndvar float+ y[A];\n")
LINE = BASE.count("\n") + 1  # the line after BASE


def only_error(model: str):
    errs = [d for d in pyopl.check(model) if d.is_error]
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


@pytest.mark.parametrize("tail, what, line", [
    # a generic array's initializer (the static check never saw it)
    ("float c2[e in E] = cost[e];\nminimize x;\nsubject to { x >= c2[<1, 2>]; }", "`e`", LINE),
    # a tuple-typed scalar
    ("edge e1 = first(E);\nminimize x;\nsubject to { x >= cost[e1]; }", "`e1`", LINE + 2),
    # a tuple field of another type, in data, in a constraint's data and in a decision index
    ("float tot = sum(h in H) cost[h.e];\nminimize x + y[<1, 2>];\nsubject to { x >= tot; }", "`h.e`", LINE),
    ("minimize x;\nsubject to { x >= sum(h in H) cost[h.e] * y[<1, 2>]; }", "`h.e`", LINE + 1),
    ("minimize x;\nsubject to { x >= sum(h in H) y[h.e]; }", "`h.e`", LINE + 1),
])
def test_tuple_of_another_type_is_a_type_error_at_the_index(tail, what, line):
    d = only_error(BASE + tail)
    assert d.code == "OPL0217"
    assert "indexed by `arc` tuples" in d.message and what in d.message and "`edge`" in d.message, d.message
    assert d.span.line == line


@pytest.mark.parametrize("literal", ["<1, 2, 3>", '<1, "a">', "<1>"])
def test_tuple_literal_that_does_not_fit_the_type_is_a_type_error(literal):
    d = only_error(BASE + "minimize x + y[<1, 2>];\nsubject to { x >= cost[%s]; }" % literal)
    assert d.code == "OPL1103"
    assert "indexed by `arc` tuples" in d.message and literal in d.message
    assert "`<int o, int d>`" in d.help
    assert d.span.line == LINE + 1


def test_fitting_literals_and_own_tuples_still_index():
    # cost[<2, 3>] = 6 and y over its own tuples: minimise x >= 6 + sum(y) with y >= 0: 6
    model = BASE + "minimize x + sum(a in A) y[a];\nsubject to { x >= cost[<2, 3>] + sum(a in A) cost[a] * y[a]; }"
    r = pyopl.compile_model(model).solve()
    assert r.objective == pytest.approx(6)


def test_key_fields_literal_indexes_a_keyed_tuple_set():
    model = ('tuple link { key string o; key string d; float len; }\n{link} L = {<"a", "b", 4.5>};\n'
             'float w[L] = [7];\ndvar float z;\nminimize z;\nsubject to { z >= w[<"a", "b">]; }')
    assert pyopl.compile_model(model).solve().objective == pytest.approx(7)
