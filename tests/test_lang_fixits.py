"""Fix-its that never make things worse (pyopl/fixes/select.py) and the LLM habits they repair.

Each repaired model is compared with the model written correctly by hand: the same text, or the
same optimum worked out in the comment."""
from __future__ import annotations

import pyopl
from pyopl.fixes.edit import apply_fixes
from pyopl.fixes.select import improves, repair, safe_fixes

BASE = "dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to {\n%s\n}"


def _fixed(model: str, data: str | None = None) -> str:
    new, new_data, applied = repair(model, data)
    assert applied and not pyopl.check(new, new_data).errors, pyopl.check(new, new_data).render()
    return new


def test_reversed_le_converges_on_repeated_fixes():
    m = BASE % "  c1: x + y =< 3;\n  x >= 1;"
    once, _ = apply_fixes(m, pyopl.check(m))
    twice, n = apply_fixes(once, pyopl.check(once))
    assert "x + y <= 3" in once and twice == once and n == 0  # never `==<`, `=<=`, `==<=`


def test_labelled_and_unlabelled_equals_and_ge_typed_as_implication():
    m = BASE % "  c1: x + y = 3;\n  x - y => 1;"
    # fixed: x + y == 3, x - y >= 1 -> min x + y = 3 (x = 2, y = 1 or any split): objective 3
    fixed = _fixed(m)
    assert "c1: x + y == 3;" in fixed and "x - y >= 1;" in fixed
    assert pyopl.compile_model(fixed).solve().objective == 3


def test_implication_between_decisions_and_data_gets_the_ge_fix():
    m = "float cap = 4;\n" + BASE % "  x + y => cap;"
    [e] = pyopl.check(m).errors
    assert e.code == "OPL1160" and e.fix.applicability == "machine-applicable"
    assert pyopl.compile_model(_fixed(m)).solve().objective == 4


def test_llm_habits_are_repaired_by_fixits_alone():
    good = "{int} I = {1, 2, 3};\nfloat c[I] = [3, 1, 2];\ndvar float x[I] in 0..1;\nmaximize sum(i in I) c[i] * x[i];\n" \
           "subject to {\n  forall(i in I) x[i] <= 1;\n}\n"
    variants = [
        good.replace("subject to", "s.t."),
        good.replace("subject to {", "subject to: {"),
        good.replace("maximize", "maximise"),
        good.replace("sum(i in I) c[i] * x[i]", "sum{i in I} c[i] * x[i]"),
        good.replace("forall(i in I) x[i]", "forall{i in I} x[i]"),
        good.replace("sum(i in I) c[i] * x[i]", "sum(c[i] * x[i] for i in I)"),
        "// the plan\n" + good.replace("dvar float", "dvar real"),
        good.rstrip().rstrip("}"),
    ]
    for v in variants:
        fixed = _fixed(v)
        assert pyopl.compile_model(fixed).solve().objective == 6, (v, fixed)  # all three at 1: 3 + 1 + 2


def test_strict_less_than_on_floats_names_the_variable_and_label_and_is_fixed():
    m = BASE % "  c1: x + y < 3;\n  x + y >= 1;"
    [e] = pyopl.check(m).errors
    assert e.code == "OPL0506" and "`x`, `y`" in e.message and "`c1`" in e.message
    assert "x + y <= 3" in _fixed(m)


def test_a_data_name_never_declared_is_one_error_and_its_fix_declares_it():
    m = "range R = 1..n;\ndvar float x[R] in 0..1;\nmaximize sum(i in R) x[i];\nsubject to { forall(i in R) x[i] <= n; }"
    d = pyopl.check(m, "n = 3;")
    assert [(e.code, e.line, e.column) for e in d] == [("OPL1167", 1, 14)]
    fixed, _data, _ = repair(m, "n = 3;")
    assert fixed.startswith("int n = ...;\nrange R = 1..n;")
    assert pyopl.compile_model(fixed, "n = 3;").solve().objective == 3


def test_a_data_name_an_unreadable_include_may_declare_points_at_the_include(tmp_path):
    """dowml-production-cloud (opl-corpus): the declarations live in `production_data.mod`, absent
    here; the fix is the include, so no declaration is offered and the include is named."""
    (tmp_path / "m.mod").write_text('include "decls.mod";\ndvar float x;\nmaximize x;\nsubject to { x <= n; }\n')
    (tmp_path / "m.dat").write_text("n = 3;\n")
    d = pyopl.check(str(tmp_path / "m.mod"), str(tmp_path / "m.dat"))
    assert [e.code for e in d.errors] == ["OPL0609", "OPL1167"]
    e = d.errors[1]
    assert (e.line, e.column) == (4, 19) and e.fix is None
    assert e.help.startswith("make the include on line 1 readable (it may declare `n`)")
    assert any(lab.message == "this include could not be read" and lab.span.line == 1 for lab in e.labels)


def test_a_fix_in_the_data_file_is_applied_and_checked():
    m = "int n = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= n; }"
    fixed, data, applied = repair(m, "n := 3;")
    assert data == "n = 3;" and fixed == m and [a.code for a in applied] == ["OPL0017"]


def test_a_fix_that_brings_a_new_error_is_not_kept():
    from pyopl.diagnostics.diagnostic import Diagnostic, Edit, Fix, Span

    m = BASE % "  x + y >= 1;"
    # a made-up fix that breaks the model: rejected by safe_fixes and by `improves`
    bad = Diagnostic("OPL0002", "error", "made up", Span("<model>", 5, 3, 5, 4),
                     fix=Fix("insert", (Edit(Span("<model>", 5, 3, 5, 3), "sum;"),)))
    assert safe_fixes(m, None, [bad]) == []
    from collections import Counter
    assert not improves(Counter({("OPL0002", "a"): 1}), Counter({("OPL0001", "b"): 1}), bad)


def test_setof_with_an_iterator_says_it_is_a_type_and_shows_the_comprehension():
    m = "{int} F = setof(int i in 1..10: i<4) i*i;\ndvar float x;\nmaximize x;\nsubject to { x <= sum(f in F) f; }"
    [e] = pyopl.check(m).errors
    assert (e.code, e.line, e.column) == ("OPL1170", 1, 21)  # at the `i` after `setof(int`
    assert e.message == "`setof(int)` is a type, as in `setof(int) S = ...;`, and takes no iterator"
    assert e.help.endswith("`{int} F = {i*i | i in 1..10: i<4};`")
    fixed, n = apply_fixes(m, [e], "maybe-incorrect")
    assert n == 1 and fixed.startswith("{int} F = {i*i | i in 1..10: i<4};\n")
    assert pyopl.compile_model(fixed).solve().objective == 1 + 4 + 9  # i = 1, 2, 3 squared
