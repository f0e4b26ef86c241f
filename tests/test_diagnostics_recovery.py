"""Several errors per compile, no cascades, and golden snapshots of rendered diagnostics."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import pyopl

SNAP = Path(__file__).parent / "snapshots" / "diagnostics"

THREE_MISTAKES = """\
float capacity = 10;
dvar float+ x[1..3];
dvar float+ y;
maximize sum(i in 1..3) x[i];
subject to {
  sum(i in 1..3) x[i] <= capacty;
  x[1] = 2;
  y / x[2] <= 4;
}
"""


def test_three_independent_mistakes_give_three_errors():
    d = pyopl.check(THREE_MISTAKES)
    errs = [(e.code, e.line) for e in d.errors]
    assert errs == [("OPL0101", 6), ("OPL0003", 7), ("OPL0503", 8)], errs


def test_syntax_errors_in_several_statements_are_all_reported_once():
    text = "dvar float+ x;\nminimize x;\nsubject to {\n  x =< 3;\n  x ** 2 <= 1;\n  x <> 2;\n}\n"
    d = pyopl.check(text)
    assert [(e.code, e.line) for e in d.errors] == [("OPL0018", 4), ("OPL0020", 5), ("OPL0022", 6)], \
        [(e.code, e.line, e.message) for e in d.errors]


def test_a_static_error_is_not_repeated_by_lowering():
    text = "dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3 : x[i] >= 1) x[i] <= 2; }"
    d = pyopl.check(text)
    assert [e.code for e in d.errors] == ["OPL0513"]


CASES = {
    "undeclared": ("float capacity = 10;\ndvar float+ x;\nmaximize x;\nsubject to { x <= capacty; }", None),
    "missing_semicolon": ("int n = 3\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", None),
    "assign_in_constraint": ("dvar float+ x;\nminimize x;\nsubject to { x = 5; }", None),
    "unclosed_paren": ("dvar float+ x;\nminimize (2 * x;\nsubject to { x >= 1; }", None),
    "duplicate": ("float price = 2.5;\nfloat price = 3.5;\ndvar float+ x;\nminimize price * x;", None),
    "unknown_field": ('tuple P { string name; float price; }\n{P} Ps = {<"a", 1.5>};\ndvar float+ q[Ps];\n'
                      'maximize sum(p in Ps) p.prize * q[p];\nsubject to { forall(p in Ps) q[p] <= 1; }', None),
    "index_out_of_set": ("range Days = 1..5;\ndvar float+ work[Days];\nminimize sum(d in Days) work[d];\n"
                         "subject to { forall(d in Days) work[d + 1] >= 1; }", None),
    "product": ("dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x * y <= 10; }", None),
    "strict": ("dvar float+ x;\nminimize x;\nsubject to { x > 3; }", None),
    "decision_in_data": ("dvar float+ x;\nfloat limit = x + 1;\nminimize x;", None),
    "decision_in_filter": ("dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\n"
                           "subject to { forall(i in 1..3 : x[i] >= 1) x[i] <= 2; }", None),
    "data_length": ("int n = ...;\nfloat w[1..n] = ...;\ndvar float+ x;\nminimize x;\n"
                    "subject to { x >= sum(i in 1..n) w[i]; }", "n = 4;\nw = [1, 2, 3];"),
    "ragged": ("float w[1..2][1..3] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1][1]; }",
               "w = [[1, 2, 3],\n     [4, 5]];"),
    "data_missing": ("float cap = ...;\nfloat rate = ...;\ndvar float+ x;\nmaximize rate * x;\n"
                     "subject to { x <= cap; }", "rate = 2;"),
    "tuple_type_mismatch": ("tuple Arc { int i; int j; }\ntuple Pair { int i; int j; }\n{Arc} Arcs = {<1, 2>};\n"
                            "{Pair} Pairs = {<1, 2>};\ndvar float+ flow[Arcs];\nminimize sum(p in Pairs) flow[p];", None),
    "array_called": ("float cost[1..3] = [1, 2, 3];\ndvar float+ x[1..3];\nminimize sum(i in 1..3) cost(i) * x[i];", None),
    "misspelled_keyword": ("dvar float+ x;\nminimise x;", None),
    "mismatched_closer": ("dvar float+ x[1..3];\nminimize (x[1] + x[2]];", None),
    "unused_iterator": ("dvar float+ x[1..3];\ndvar float+ y;\nminimize sum(i in 1..3) y;\n"
                        "subject to { forall(i in 1..3) x[i] >= y; }", None),
    "bigm": ("dvar float x;\nminimize x;\nsubject to { abs(x) >= 2; }", None),
    "data_declaration": ("int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", "int n = 3;"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rendered_text_matches_snapshot(name, tmp_path):
    model, data = CASES[name]
    mod = tmp_path / "model.mod"
    mod.write_text(model + "\n")
    dat = None
    if data:
        dat = tmp_path / "data.dat"
        dat.write_text(data + "\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        # checked for HiGHS: under `auto` (the default) an installed SCIP takes the quadratic case
        d = pyopl.check(Path("model.mod"), Path("data.dat") if dat else None, solver="highs")
    finally:
        os.chdir(cwd)
    text = d.render() + "\n"
    snap = SNAP / (name + ".txt")
    if os.environ.get("PYOPL_BLESS") or not snap.exists():
        snap.parent.mkdir(parents=True, exist_ok=True)
        snap.write_text(text)
    assert text == snap.read_text(), "rendered text changed; rerun with PYOPL_BLESS=1 if deliberate"


def test_statement_bounds_do_not_end_at_the_brace_of_a_value():
    """The `}` of `piecewise{...}` or of a set value ends no statement (the `}` of a block does):
    recovery blanks the whole statement, not the part after that brace."""
    from pyopl.syntax.recovery import statement_bounds

    text = "dvar float z;\nmaximize piecewise{2->4; 0.5}(0) z;\nsubject to { forall(i in {1, 2}) { z >= i; } z <= 3; }"
    start, end, top = statement_bounds(text, text.index("z;", 20))
    assert text[start:end].strip() == "maximize piecewise{2->4; 0.5}(0) z;" and top
    start, end, top = statement_bounds(text, text.index("z <= 3"))
    assert text[start:end].strip() == "z <= 3;" and not top  # after the forall's block


def test_typographic_characters_are_named_with_their_ascii_fix():
    """Before: an en dash pasted from a PDF (`x <= 2 – 1`) gave OPL0002 "missing `;`" with a
    machine-applicable fix that broke the model further, then "the character `–` is not allowed
    here, remove it" (which makes `2 1`). Now OPL0046 names the character OPL expects, the fix
    replaces it, and the rest of the statement is still checked; columns after `≤ ` stay exact."""
    import pyopl

    m = "dvar float x in 0..10;\nmaximize x;\nsubject to { c: x \u2264 10 \u2013 3; x \u2265 \u22121; }"
    ds = pyopl.check(m)
    assert [(d.code, d.span.line, d.span.column) for d in ds.errors] == [
        ("OPL0046", 3, 19), ("OPL0046", 3, 24), ("OPL0046", 3, 31), ("OPL0046", 3, 33)]
    assert [d.fix.edits[0].replacement for d in ds.errors] == ["<=", "-", ">=", "-"]
    assert "(an en dash) is not OPL's `-`" in ds.errors[1].message
    fixed = "dvar float x in 0..10;\nmaximize x;\nsubject to { c: x <= 10 - 3; x >= -1; }"
    assert pyopl.compile_model(fixed).solve().objective == 7  # what the fixes give: x <= 7
    # a .dat: the dash and a curly-quoted string (both quotes in one fix)
    data = pyopl.check("int n = ...;\n{string} S = ...;\ndvar float x in n..10;\nminimize x;",
                            "n = \u20133;\nS = {\u201ca\u201d};")
    assert [(d.code, d.span.line, d.span.column) for d in data.errors] == [("OPL0046", 1, 5), ("OPL0046", 2, 6)]
    assert [e.replacement for e in data.errors[1].fix.edits] == ['"', '"']
    # a script: its own parser names the character too
    [d] = pyopl.check("dvar float x in 0..1;\nmaximize x;\nexecute { writeln(\u201cdone\u201d); }").errors
    assert d.code == "OPL1000" and "(a curly quote) is not the script's `\"`" in d.message and d.help == 'write `"`'


def test_an_error_after_a_set_type_drops_only_its_statement():
    """Before: one error in `{int} F = setof(int i ...) ...;` gave five, the first "the file ends in
    the middle of a statement" on line 2, and errors on every later line: recovery took the `}` of
    `{int}` for the end of a block, blanked only `F = ...;` and left `{int}` to swallow the next line."""
    import pyopl

    text = "{int} E = {1};\n{int} F = setof(int i in 1..10: i < 4) i*i;\n{int} G = E inter {2, 3};\nint c = 3;\n"
    assert [(d.code, d.span.line, d.span.column) for d in pyopl.check(text).errors] == [("OPL0001", 2, 21)]
