"""`dvar int x in {2, 5, 9}` is not OPL (IBM declares a decision variable's domain as a range; its technote
swg21608891 states allowed values with gaps as constraints): OPL0625 says so and writes the fix with the
model's names. The fix the help gives is applied as written, and the fixed model's optimum is compared
with a brute force over the allowed values."""
from __future__ import annotations

import itertools
import re

import pytest

import pyopl

ALLOWED = (2, 5, 9)


def _diag(src: str):
    diags = [d for d in pyopl.check(src) if d.code == "OPL0625"]
    assert len(diags) == 1, [str(d) for d in pyopl.check(src)]
    return diags[0]


def _apply(src: str, d) -> str:
    """The model with the help's fix applied as written: the domain replaced by the range it names, and
    the constraint it gives (the last backquoted text) put in the constraints, in a `forall` for an array."""
    hull = re.search(r"\(`in ([^`]+)`\)", d.help).group(1)
    cons = re.findall(r"`([^`]+)`", d.help)[-1]
    lines = src.split("\n")
    line = lines[d.span.line - 1]
    lines[d.span.line - 1] = line[:d.span.column - 1] + hull + line[d.span.end_column - 1:]
    if "[...]" in cons:
        cons = "forall(i in I) " + cons.replace("[...]", "[i]")
    return "\n".join(lines).replace("subject to {", "subject to { " + cons)


@pytest.mark.parametrize("cp", [False, True])
def test_a_scalar_set_domain_is_explained_and_its_fix_gives_the_brute_force_optimum(cp):
    src = ("using CP;\n" if cp else "") + "dvar int x in {2,5,9};\nmaximize x;\nsubject to { x <= 6; }\n"
    d = _diag(src)
    assert d.message == ("the domain of `x` is a set of values ({2, 5, 9}): OPL declares a decision variable's "
                         "domain as a range (`lo..hi` or a `range`), not a set")
    assert (d.span.line, d.span.column, d.span.end_column) == (2 if cp else 1, 15, 22)  # `{2,5,9}`
    assert ("`x in {2, 5, 9};`" if cp else "`sum(v in {2, 5, 9}) (x == v) == 1;`") in d.help
    fixed = _apply(src, d)
    r = pyopl.solve(fixed)
    assert r.status == "optimal" and r.objective == max(v for v in ALLOWED if v <= 6)  # 5, by hand


@pytest.mark.parametrize("cp", [False, True])
def test_an_array_over_a_named_set_gets_the_fix_with_the_set_s_name(cp):
    # three x[i] in {1, 4, 6}, sum at most 10, maximise 3*x[1] + 2*x[2] + x[3]
    src = (("using CP;\n" if cp else "") + "range I = 1..3;\n{int} S = {1, 4, 6};\ndvar int x[I] in S;\n"
           "maximize 3*x[1] + 2*x[2] + x[3];\nsubject to { sum(i in I) x[i] <= 10; }\n")
    d = _diag(src)
    assert "inside a `forall` over its indices" in d.help and "`in 1..6`" in d.help
    r = pyopl.solve(_apply(src, d))
    best = max(3 * a + 2 * b + c for a, b, c in itertools.product((1, 4, 6), repeat=3) if a + b + c <= 10)
    assert r.status == "optimal" and r.objective == best  # 21 (6,1,1 or 4,4,1)
    assert all(v in (1, 4, 6) for v in r.variables["x"].values())


def test_consecutive_values_are_the_range_they_are():
    r = pyopl.solve("dvar int x in {3, 1, 2};\nmaximize x;\n")
    assert r.status == "optimal" and r.objective == 3
