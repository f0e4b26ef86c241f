"""Constructs real OPL models use (issue 15): piecewise forms and `pwlFunction`, `range float`,
`item(S, <key>)`, multi-field `with`, labelled `if`, `assert { ... }` blocks, `.dat` number forms.

Each optimum is worked out by hand in the comment (or by a second formulation in the test);
each mistake asserts its code, line, column and the user's names.
"""
from __future__ import annotations

import pytest

import pyopl


def opt(model: str, data=None) -> float:
    r = pyopl.compile_model(model, data).solve()
    assert r.status == "optimal", r.status
    return r.objective


def err(model: str, data=None):
    d = pyopl.check(model, data)
    assert len(d.errors) == 1, [(e.code, e.line, e.column, e.message) for e in d.errors]
    return d.errors[0]


# f: slope 1 up to x = 2, slope 3 up to x = 5, then flat; f(0) = 0 unless anchored.
# f(1) = 1, f(2) = 2, f(3) = 2 + 3 = 5.  Anchored at (1, 4): every value is 3 higher.
PW = "piecewise{1 -> 2; 3 -> 5; 0}"


@pytest.mark.parametrize("anchor, want", [("", 5), ("(0, 0)", 5), ("(1, 4)", 8)])
def test_piecewise_with_and_without_anchor(anchor, want):
    assert opt("dvar float x in 0..10;\nminimize %s%s x;\nsubject to { x >= 3; }" % (PW, anchor)) == want


def test_piecewise_breakpoints_from_arrays_inside_forall_sum():
    # x[1] >= 2, x[2] >= 3: f(2) + f(3) = 2 + 5 = 7; a second formulation with the literal gives the same
    m = """int n = 2;
float slope[1..n+1] = [1, 3, 0];
float bp[1..n] = [2, 5];
dvar float x[1..2] in 0..10;
minimize sum(j in 1..2) piecewise(i in 1..n){slope[i] -> bp[i]; slope[n+1]} x[j];
subject to { forall(j in 1..2) x[j] >= j + 1; }"""
    literal = "dvar float x[1..2] in 0..10;\nminimize sum(j in 1..2) %s x[j];\nsubject to { forall(j in 1..2) x[j] >= j + 1; }" % PW
    assert opt(m) == opt(literal) == 7


@pytest.mark.parametrize("anchor, want", [("", 5 + 1), ("(1, 4)", 8 + 4)])
def test_named_pwl_function_applied_to_two_expressions(anchor, want):
    # f(x) + f(y) with x >= 3, y >= 1: f(3) + f(1) = 5 + 1 (or 8 + 4 anchored at (1, 4))
    m = "pwlFunction f = %s%s;\ndvar float x in 0..10;\ndvar float y in 0..10;\nminimize f(x) + f(y);\nsubject to { x >= 3; y >= 1; }" % (PW, anchor)
    assert opt(m) == want


@pytest.mark.parametrize("model, line, col, words", [
    # the expression: IBM's syntax ends the list with the slope after the last breakpoint
    ("dvar float q in 0..10;\nmaximize piecewise{7 -> 80; 9 -> 160} q;", 2, 10, "no final slope"),
    ("pwlFunction f = piecewise{1 -> 2};\ndvar float x in 0..5;\nminimize f(x);", 1, 1, "no final slope"),
    # a lone slope is the last item only
    ("dvar float q in 0..10;\nmaximize piecewise{7; 9 -> 16; 1} q;", 2, 20, "only as the last item"),
])
def test_piecewise_without_final_slope_is_opl0044(model, line, col, words):
    # accepted silently before, the slope past the last breakpoint taken as 0
    e = err(model)
    assert (e.code, e.line, e.column) == ("OPL0044", line, col) and words in e.message, e.message


def test_piecewise_anchor_with_one_value_is_opl0045_not_a_file_that_ends():
    """Before: `piecewise{2->4; 0.5}(0) z` gave "the file ends in the middle of a statement" (OPL0007)
    at the `(`, a "missing `;`" fix-it that broke the model further, and a third error: recovery
    blanked the statement from the `}` of `piecewise{...}`, as if it closed a block."""
    m = "dvar float z in 0..9;\nmaximize piecewise{2->4; 0.5}(0) z;\nsubject to { z <= 5; }"
    ds = [d for d in pyopl.check(m) if d.severity == "error"]
    assert [(d.code, d.span.line, d.span.column, d.span.end_column) for d in ds] == [("OPL0045", 2, 30, 33)]
    assert "`(0)`" in ds[0].message and "`z`" in ds[0].message and "(x0, y0)" in ds[0].message
    # the two-value point is fine, and means what IBM says: through (0, 0), slope 2 up to 4, then 0.5:
    # at z = 5, 2 * 4 + 0.5 * 1 = 8.5
    assert opt(m.replace("(0) z", "(0, 0) z")) == 8.5


def test_named_pwl_function_with_two_arguments_is_opl1161():
    m = "pwlFunction cost = %s;\ndvar float x in 0..10;\ndvar float y in 0..10;\nminimize cost(x, y);" % PW
    e = err(m)
    assert (e.code, e.line, e.column) == ("OPL1161", 4, 10) and "`cost`" in e.message and "2 are given" in e.message


def test_indexed_pwl_function_is_one_unsupported_feature_diagnostic():
    m = "{int} I = {1, 2};\npwlFunction f[i in I] = %s;\ndvar float x in 0..10;\nminimize x;" % PW
    e = err(m)
    assert (e.code, e.line, e.column) == ("OPL0603", 2, 13) and "indexed `pwlFunction`" in e.message


def test_range_float_as_a_decision_domain_inline_and_from_data():
    m = "range float R = 1.5..4.25;\ndvar float x[1..2] in R;\nminimize x[1] + x[2];"
    assert opt(m) == 3.0  # both at the range's lower end 1.5
    m2 = "range float R = ...;\ndvar float x in R;\nmaximize x;"
    assert opt(m2, "R = 1.5..4.25;") == 4.25
    # membership of data in a float range: 2.0 is in 1.5..4.25, so x <= 3 applies
    m3 = "range float R = 1.5..4.25;\nfloat v = 2.0;\ndvar float x in 0..5;\nmaximize x;\nsubject to { if (v in R) x <= 3; }"
    assert opt(m3) == 3


def test_iterating_a_float_range_is_an_error_at_the_domain():
    m = "range float R = 1..3;\ndvar float x in R;\nmaximize x;\nsubject to { forall(i in R) x <= i; }"
    e = err(m)
    assert (e.code, e.line, e.column) == ("OPL0203", 4, 26) and "float range" in e.message


def test_item_by_key_values_then_field():
    m = """tuple T { key string name; key int k; int cap; }
{T} S = {<"p", 1, 3>, <"q", 2, 5>, <"q", 1, 9>};
dvar float x;
maximize x;
subject to { x <= item(S, <"q", 2>).cap + item(S, 0).cap; }"""
    assert opt(m) == 5 + 3


def test_item_with_a_missing_key_names_the_set_the_keys_and_the_values():
    m = 'tuple T { key string name; int cap; }\n{T} S = {<"p", 3>};\ndvar float x;\nmaximize x;\nsubject to { x <= item(S, <"z">).cap; }'
    e = err(m)
    assert (e.code, e.line, e.column) == ("OPL0308", 5, 27)
    assert "`S`" in e.message and "`name`" in e.message and '"z"' in e.message


WITH = """{string} Nodes = ...;
tuple Arc { string o; string d; float c; }
{Arc} Arcs with o, d in Nodes = ...;
dvar float+ f[Arcs];
minimize sum(a in Arcs) a.c * f[a];
subject to { sum(a in Arcs : a.o == "s") f[a] >= 2; }"""


def test_with_several_fields_sharing_one_set():
    # two arcs out of s; the cheaper (cost 1) carries the 2 units: objective 2
    data = 'Nodes = {"s", "t", "u"};\nArcs = {<"s", "t", 1>, <"s", "u", 4>};'
    assert opt(WITH, data) == 2


def test_with_violation_points_at_the_data_line_of_the_tuple():
    data = 'Nodes = {"s", "t"};\nArcs = {\n  <"s", "t", 1>,\n  <"s", "x", 4>\n};'
    e = err(WITH, data)
    assert (e.code, e.file, e.line, e.column) == ("OPL0415", "<data>", 4, 3)
    assert '`d` = "x"' in e.message and "`Nodes`" in e.message and "`Arcs`" in e.message


IF_LABEL = """dvar float x[1..2] in 0..10;
maximize sum(i in 1..2) x[i];
subject to {
  forall(i in 1..2)
    %s: if (i == 1) { x[i] <= 3; } else { x[i] <= 4; }
}"""


@pytest.mark.parametrize("label", ["ct", "ct[i]"])
def test_labels_on_if_else_in_a_forall(label):
    r = pyopl.compile_model(IF_LABEL % label).solve()
    assert r.objective == 3 + 4
    assert r.duals == {"ct": {(1,): 1.0, (2,): 1.0}}  # both branches' rows carry the label


def test_a_label_on_if_that_is_not_a_name_is_reported_at_the_label():
    e = err(IF_LABEL % "ct + 1")
    assert (e.code, e.line, e.column) == ("OPL0011", 5, 5) and "label" in e.message


def test_assert_block_with_several_conditions_and_foralls():
    m = """int n = 3;
int a[1..n] = [1, 2, 3];
assert {
  n >= 1;
  forall(i in 1..n) a[i] >= 1;
  sum(i in 1..n) a[i] == 6;
}
dvar float x;
maximize x;
subject to { x <= n; }"""
    assert opt(m) == 3
    bad = m.replace("a[i] >= 1", "a[i] >= 2")
    e = err(bad)
    assert (e.code, e.line, e.column) == ("OPL0422", 5, 21) and "i = 1" in e.message


def test_dat_number_forms_and_separators():
    # .5 + 1. + 1e3 - .25 + 2 = 1003.25, separated by a comma, spaces and a newline
    m = "float a[1..5] = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= sum(i in 1..5) a[i]; }"
    assert opt(m, "a = [.5, 1.  1e3\n -.25, 2];") == 1003.25


def test_two_commas_in_a_data_tuple_point_at_the_empty_field():
    m = "tuple T { int a; int b; }\n{T} S = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= card(S); }"
    e = err(m, "S = {<1, 2>,\n     <3,, 4>};")
    assert (e.code, e.file, e.line, e.column) == ("OPL1162", "<data>", 2, 9) and "tuple" in e.message
    assert e.fix.applicability == "maybe-incorrect"


def test_colon_equals_in_data_is_opl0017_with_its_fix():
    m = "int n = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= n; }"
    e = err(m, "n := 3;")
    assert (e.code, e.file, e.line, e.column) == ("OPL0017", "<data>", 1, 3) and e.fix.applicability == "machine-applicable"


SHADOW = """{int} N = {1, 2, 3};
tuple E { int i; int j; }
{E} Edges = {<1, 2>, <3, 2>};
dvar float x[Edges] in 0..1;
maximize sum(e in Edges) x[e];
subject to { forall(j in N) sum(<i, j> in Edges) x[<i, j>] <= j; }"""


def test_a_tuple_pattern_component_matching_an_enclosing_iterator_is_not_shadowing():
    # the pattern's j matches the loop's j: row j = 2 is x[<1,2>] + x[<3,2>] <= 2, so both are 1 -> 2;
    # rebinding j would give the row sum <= 1 for j = 1 and the optimum 1
    assert not pyopl.check(SHADOW)
    assert opt(SHADOW) == 2


def test_a_plain_inner_iterator_of_the_same_name_still_warns():
    m = SHADOW.replace("sum(<i, j> in Edges) x[<i, j>]", "sum(j in N) x[<1, 2>]")
    [w] = [d for d in pyopl.check(m) if d.code == "OPL0924"]
    assert (w.code, w.line, w.column) == ("OPL0924", 6, 33) and "`j`" in w.message


def test_a_name_read_or_set_only_by_a_script_is_not_reported_unused():
    model = ("int n = 3;\nfloat w[1..n];\nfloat unused = 2;\nexecute { for (var i = 1; i <= n; i++) w[i] = i; }\n"
             "dvar float+ x in 0..1;\nmaximize x;\nsubject to { x <= 1; }")
    unused = sorted(d.message for d in pyopl.check(model) if d.code == "OPL0922")
    assert unused == ["`unused` is declared but never used"]


def test_missing_data_with_no_data_at_all_says_no_data_file_was_given():
    model = "int n = ...;\nint m = ...;\ndvar float x in 0..n + m;\nmaximize x;"
    missing = [d for d in pyopl.check(model) if d.code == "OPL0401"]
    assert [d.span.line for d in missing][:1] == [1]
    assert any("no data was given" in n for n in missing[0].notes)
    # with a data file that sets something else, the note would mislead: it is not given
    with_data = [d for d in pyopl.check(model, data="m = 2;") if d.code == "OPL0401"]
    assert [d.message for d in with_data] == ["`n` is declared with `...` but the data gives it no value"]
    assert not any("no data was given" in n for n in with_data[0].notes)


def test_string_escapes_follow_c():
    # "\x41" and "\101" are both "A" (hex and octal), "\t" a tab: one element, and the tab counts
    model = ('{string} S = {"\\x41", "\\101", "A"};\n{string} T = {"a\\tb", "a\\x09b"};\n'
             'dvar float x;\nminimize x;\nsubject to { x >= card(S) * 10 + card(T); }')
    assert pyopl.compile_model(model).solve().objective == pytest.approx(11)


def test_an_included_folder_is_named_as_a_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "m.mod").write_text('include "sub";\ndvar float x;\nminimize x;\nsubject to { x >= 1; }\n')
    diags = [d for d in pyopl.check(tmp_path / "m.mod") if d.is_error]
    assert [(d.code, d.span.line) for d in diags] == [("OPL0609", 1)]
    assert "`sub` is a folder, not a file" in diags[0].message


def test_missing_external_data_help_shows_the_shape_of_the_value():
    """Before: `add `a = ...;` with its value to the data file`, where `...` is the model's "read it
    from the data": the help now shows the value's shape for each kind of declaration."""
    m = ("int n = ...;\nfloat a[1..3] = ...;\n{string} S = ...;\nfloat g[1..2][1..2] = ...;\ndvar float x;\n"
         "minimize x;\nsubject to { x >= n + a[1] + card(S) + g[1][1]; }")
    helps = [d.help for d in pyopl.check(m, "k = 1;").errors if d.code == "OPL0401"]
    assert helps == ["give it a value in the data file: `n = VALUE;`", "give it a value in the data file: `a = [..., ...];`",
                     "give it a value in the data file: `S = {...};`", "give it a value in the data file: `g = [[...], [...]];`"]
