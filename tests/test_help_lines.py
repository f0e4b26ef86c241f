"""Help lines lead to a model that compiles: the code a help quotes, put where it says, removes the
error (issue 30: help lines with a generic `n`, `x` or `[...]` did not), and every fix-it a registered
bad example carries is registered (so tests/test_diagnostics_registry.py applies it and recompiles)."""
from __future__ import annotations

import re

import pytest

import pyopl
from pyopl.diagnostics.registry import all_kinds, lookup
from pyopl.testing.examples import run_example

# (code, model text, the fragment the help replaces); the expected help code is written by hand
CASES = [
    ("OPL0020", "dvar float+ y;\nminimize y ** 2;\n", "**", "^"),
    ("OPL0021", "dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(j = 1..3) x[j] >= 1; }\n",
     "=", "in"),
    ("OPL0115", "float cost[1..3] = [1, 2, 3];\ndvar float+ x[1..3];\nminimize sum(k in 1..3) cost(k) * x[k];\n",
     "cost(k)", "cost[k]"),
    ("OPL0207", "range R = {2, 3, 4};\ndvar float+ x[R];\nminimize sum(r in R) x[r];\n",
     "range R = {2, 3, 4};", "range R = 2..4;"),
    ("OPL0207", "range R = {1, 3};\ndvar float+ x[R];\nminimize sum(r in R) x[r];\n",
     "range R = {1, 3};", "{int} R = {1, 3};"),
]


@pytest.mark.parametrize("code,text,fragment,expected", CASES, ids=[c[0] + "-" + c[3] for c in CASES])
def test_the_code_a_help_quotes_compiles_in_place(code, text, fragment, expected):
    """Before: `write x^2` for `y ** 2`, `write i in 1..n` (no `n`), `write cost[...]`, `range R = 1..n;`."""
    [d] = [d for d in pyopl.check(text) if d.code == code][:1]
    quoted = re.findall(r"`([^`]+)`", d.help)
    assert quoted[-1] == expected, d.help
    after = pyopl.check(text.replace(fragment, quoted[-1], 1))
    assert not after.errors, [(x.code, x.message) for x in after.errors]


KINDS = [k for k in all_kinds() if k.bad and k.at is not None]


def test_every_fix_it_of_a_registered_example_is_registered(tmp_path):
    """A bad example whose diagnostic carries a fix-it declares it (`fixable=`), so the registry test
    applies it and checks the result compiles without that error (OPL0006's `remove $` was not)."""
    missing = []
    for k in KINDS:
        fixes = [d.fix.applicability for d in run_example(k, str(tmp_path)) if d.code == k.code and d.fix is not None]
        if fixes and k.fixable not in fixes:
            missing.append((k.code, fixes[0]))
    assert missing == []
    assert lookup("OPL0006").fixable == "maybe-incorrect"
