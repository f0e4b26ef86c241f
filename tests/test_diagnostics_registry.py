"""Every registered diagnostic kind: its bad example yields it at the documented place,
its corrected example compiles without errors, its fix-it repairs the model, and
`pyopl explain` knows it."""
from __future__ import annotations

import contextlib
import io

import pytest

from pyopl.cli import main
from pyopl.diagnostics.docs import DOC_PATH, render_markdown
from pyopl.testing.examples import run_example
from pyopl.diagnostics.registry import all_kinds
from pyopl.fixes.edit import apply_fixes

KINDS = all_kinds()
TESTED = [k for k in KINDS if k.bad and k.at is not None]
FIXABLE = [k for k in TESTED if k.fixable]
MIN_KINDS, MIN_FIXITS = 170, 20  # the issue asks for 170 user-reachable kinds and 20 with fix-its


def test_codes_are_well_formed_and_unique():
    codes = [k.code for k in KINDS]
    assert len(codes) == len(set(codes))
    for k in KINDS:
        assert k.code.startswith("OPL") and len(k.code) == 7 and k.code[3:].isdigit(), k.code
        assert k.severity in ("error", "warning", "note"), k.code
        assert k.title and k.explanation, k.code


def test_enough_user_reachable_kinds_are_tested():
    reachable = [k for k in TESTED if not k.internal]
    assert len(reachable) >= MIN_KINDS, len(reachable)


def test_enough_kinds_carry_fixits():
    assert len(FIXABLE) >= MIN_FIXITS, [k.code for k in FIXABLE]


@pytest.mark.parametrize("kind", TESTED, ids=[k.code for k in TESTED])
def test_bad_example_yields_its_code_at_the_documented_place(kind, tmp_path):
    diags = run_example(kind, str(tmp_path))
    hits = [d for d in diags if d.code == kind.code]
    assert hits, "%s not produced; got %s" % (kind.code, [(d.code, d.message) for d in diags])
    line, col = kind.at
    assert any(d.line == line and d.column == col for d in hits), [(d.line, d.column, d.message) for d in hits]
    assert all(d.severity == kind.severity for d in hits)
    for d in hits:
        assert d.message and d.help, "every diagnostic says how to fix it: %s" % kind.code


@pytest.mark.parametrize("kind", [k for k in TESTED if k.good], ids=[k.code for k in TESTED if k.good])
def test_corrected_example_has_no_error(kind, tmp_path):
    diags = run_example(kind, str(tmp_path), good=True)
    assert not [d for d in diags if d.is_error], [(d.code, d.message) for d in diags]
    assert kind.code not in [d.code for d in diags]


@pytest.mark.parametrize("kind", FIXABLE, ids=[k.code for k in FIXABLE])
def test_fixit_repairs_the_bad_example(kind, tmp_path):
    import pyopl

    diags = run_example(kind, str(tmp_path))
    mine = [d for d in diags if d.code == kind.code and d.fix is not None]
    assert mine and all(d.fix.applicability == kind.fixable for d in mine)
    in_data = mine[0].fix.edits[0].span.file.endswith(".dat")
    model, data = kind.bad + "\n", (kind.bad_data + "\n") if kind.bad_data else None
    fixed, n = apply_fixes(data if in_data else model, mine, kind.fixable)
    assert n >= 1
    after = pyopl.check(model if in_data else fixed, fixed if in_data else data)
    assert kind.code not in [d.code for d in after], fixed
    assert not after.errors, (fixed, [(d.code, d.message) for d in after.errors])


def _run(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(argv)
    return rc, out.getvalue()


def test_explain_every_code_and_list():
    rc, listing = _run(["explain", "--list"])
    assert rc == 0
    lines = listing.splitlines()
    assert len(lines) == len(KINDS)
    for k, line in zip(KINDS, lines):
        assert line.startswith(k.code) and k.title in line
        rc, text = _run(["explain", k.code])
        assert rc == 0 and k.title in text and k.slug in text
        if k.bad:
            assert k.bad.splitlines()[0] in text


def test_explain_unknown_code_suggests_a_near_one():
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["explain", "OPL01O1"])
    assert rc == 2 and "did you mean OPL01" in err.getvalue()


def test_docs_are_generated_from_the_registry():
    assert DOC_PATH.read_text(encoding="utf-8") == render_markdown(), \
        "docs/diagnostics.md is stale: run `python -m pyopl.diagnostics.docs`"


def test_a_retired_code_says_so_in_its_title():
    """`pyopl explain --list` showed OPL0602 as "CP Optimizer models are not supported" long after
    `using CP;` models ran: the list shows titles only, so a retired code's title says it is retired."""
    from pyopl.diagnostics.registry import all_kinds

    retired = [k for k in all_kinds() if k.explanation.startswith("Retired")]
    assert {k.code for k in retired} >= {"OPL0602", "OPL0623"}
    assert [k.code for k in retired if not k.title.startswith("Retired:")] == []
