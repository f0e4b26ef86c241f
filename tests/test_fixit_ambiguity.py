"""A fix with two or more equally good candidates is never applied (issue 25, class 3).

`x <= capC;` with `capA` and `capB` declared: both are one edit away, so renaming to either
would be a guess. The help lists every candidate; no fix is attached, so `pyopl check --fix`,
the LSP's preferred action and syntagm's automatic repair leave the text alone. A unique best
candidate still gets its fix.
"""
from __future__ import annotations

import pytest

import pyopl
from pyopl.cli import main as cli
from pyopl.diagnostics.reporter import did_you_mean, near_miss, near_misses
from pyopl.fixes.edit import apply_fixes
from pyopl.fixes.select import repair

MODEL = "float capA = 5;\nfloat %s = 6;\ndvar float+ x;\nmaximize x;\nsubject to { x <= capC; }\n"


def test_two_equally_close_names_give_help_and_no_fix():
    m = MODEL % "capB"
    [e] = pyopl.check(m).errors
    assert e.code == "OPL0101" and e.fix is None
    assert e.help == "did you mean `capA` or `capB`?"
    assert apply_fixes(m, [e]) == (m, 0)
    new, _data, applied = repair(m, None)
    assert new == m and not applied


def test_a_unique_best_name_keeps_its_fix():
    m = MODEL % "limit"
    [e] = pyopl.check(m).errors
    assert e.fix is not None and e.fix.applicability == "machine-applicable" and e.help == "did you mean `capA`?"
    new, n = apply_fixes(m, [e])
    assert n == 1 and "x <= capA;" in new and pyopl.compile_model(new).solve().objective == 5


def test_check_fix_on_a_file_leaves_an_ambiguous_name(tmp_path, capsys):
    f = tmp_path / "m.mod"
    f.write_text(MODEL % "capB")
    rc = cli(["check", str(f), "--fix"])
    capsys.readouterr()
    assert rc == 1 and f.read_text() == MODEL % "capB"


def test_ambiguous_tuple_field_and_function_names():
    m = ("tuple T { int wa; int wb; }\n{T} S = {<1, 2>};\ndvar float+ x;\nmaximize x;\n"
         "subject to { forall(t in S) x <= t.wc; }\n")
    [e] = pyopl.check(m).errors
    assert e.code == "OPL0102" or "field" in e.message
    assert e.fix is None and "`wa` or `wb`" in e.help
    # `maxk`: `max` (one deletion) and `maxl` (one substitution) tie: no fix
    [e2] = pyopl.check("dvar float+ x in 0..3;\nmaximize maxk(x, 1);\n").errors
    assert e2.fix is None and e2.help == "did you mean `max` or `maxl`?"
    # `ceiil`: only `ceil` is one edit away
    [e3] = pyopl.check("float a = ceiil(2.5);\ndvar float+ x in 0..3;\nmaximize x;\n").errors
    assert e3.fix is not None and e3.fix.edits[0].replacement == "ceil"


@pytest.mark.parametrize("name,cands,want", [
    ("capC", ["capA", "capB"], ["capA", "capB"]),
    ("capC", ["capA", "other"], ["capA"]),
    ("Cap", ["cap", "CAP"], ["CAP", "cap"]),  # two case-only matches: ambiguous too
    ("zzzz", ["capA"], []),
])
def test_near_misses_returns_every_tie(name, cands, want):
    assert near_misses(name, cands) == want
    assert near_miss(name, cands) == (want[0] if len(want) == 1 else None)
    assert (did_you_mean(name, cands) is None) == (not want)
