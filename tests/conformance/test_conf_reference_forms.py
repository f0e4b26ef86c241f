"""Issue 44: entries marked supported, in the form their IBM page documents them (section 2), and the
rows of docs/conformance.md whose check needs more than one model (section 1: reserved words, named
tuples in `.dat` files, a data file that includes another, the segment readers in scripts); each
expected value worked out by hand from the page's own definition."""
from __future__ import annotations

import pytest

import pyopl


def _run(model: str) -> list[str]:
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    return r.script_output.splitlines()


def test_next_prev_nextc_prevc_with_a_step():
    """OPL Language Quick Reference, "prev": `prev(S, e, n)` is the n-th previous item (its example:
    `prev(Days, "Thursday", 3)`); next/nextc/prevc likewise, the `c` forms wrapping around. Days =
    Mon..Fri: 3 before Thursday is Monday; 2 after Monday is Wednesday; 3 after Thursday, wrapping,
    is Tuesday; 2 before Tuesday, wrapping, is Friday."""
    out = _run("""
{string} Days = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"};
string a = prev(Days, "Thursday", 3);
string b = next(Days, "Monday", 2);
string c = nextc(Days, "Thursday", 3);
string d = prevc(Days, "Tuesday", 2);
execute { writeln(a, " ", b, " ", c, " ", d); }
dvar float x in 0..1;
maximize x;
""")
    assert out == ["Monday Wednesday Tuesday Friday"]
    d = pyopl.check('{int} S = {1, 2, 3};\nint a = next(S, 2, 2);\ndvar float x in 0..a;\nmaximize x;', source="text")
    assert [x.code for x in d if x.severity == "error"] == ["OPL0307"]  # past the last item


def test_ordered_sorted_reversed_setof():
    """OPL Language Quick Reference, "setof", "sorted", "reversed": `sorted setof(T)` keeps its items in
    ascending order, `reversed` descending, `ordered` (the default) in the order given."""
    out = _run("""
tuple T { int a; }
sorted setof(T) S = {<3>, <1>, <2>};
reversed setof(int) R = {1, 3, 2};
ordered setof(int) O = {3, 1, 2};
execute { writeln(S, R, O); }
dvar float x in 0..1;
maximize x;
""")
    assert out == ["{<1> <2> <3>} {3 2 1} {3 1 2}"]  # (IBM: a space before a set after another argument)


def test_boolean_declared_in_0_1():
    """`dvar boolean b in 0..1` (IBM writes booleans so); `in 1..1` fixes it: min b + c is 1."""
    r = pyopl.solve("dvar boolean b in 1..1;\ndvar boolean c in 0..1;\nminimize b + c;", source="text")
    assert r.status == "optimal" and r.objective == pytest.approx(1.0)
    d = pyopl.check("dvar boolean b in 0..5;\nmaximize b;", source="text")
    assert [x.code for x in d] == ["OPL0219"]


def test_string_continued_with_a_backslash():
    """A backslash at the end of a line continues a string literal on the next line (the two parts joined)."""
    out = _run('string s = "abc\\\ndef";\nexecute { writeln(s, " ", s.length); }\ndvar float x in 0..1;\nmaximize x;\n')
    assert out == ["abcdef 6"]


def test_array_prototype_slice_on_arguments_and_this_in_a_plain_call():
    """ES3 15.4.4.10: `Array.prototype.slice` is generic, so `slice.call(arguments, 1)` is an array of
    the arguments after the first; ES3 10.2.3: `this` in a plain call is the global object, where the
    block's top-level `var` lives."""
    out = _run("""
execute {
  function f() { var rest = Array.prototype.slice.call(arguments, 1); return rest.length + ":" + rest.join("-"); }
  writeln(f(1, 2, 3));
  var top = 7;
  function g() { return this.top; }
  writeln(g());
}
dvar float x in 0..1;
maximize x;
""")
    assert out == ["2:2-3", "7"]


@pytest.mark.parametrize("word", ["initial", "template", "struct"])
def test_reserved_words_for_future_use_and_deprecated_cannot_name_data(word):
    """OPL Language Quick Reference, summary table of keywords: reserved words cannot name variables;
    `initial` and `template` are reserved for future use, `struct` is deprecated (use `tuple`)."""
    d = pyopl.check("int %s = 3;\ndvar float x;\nminimize x;\nsubject to { x == %s; }" % (word, word), source="text")
    assert [(x.code, x.line, x.column) for x in d if x.severity == "error"][0] == ("OPL0103", 1, 5)


# ---------------------------------------------------------------- rows of docs/conformance.md that need several checks
# (IBM, "Initializing tuples", "Data files"; the segment readers of the Quick Reference); values worked out by hand


def _diags(tmp_path, mod: str, dat: str | None = None) -> tuple[list, object]:
    (tmp_path / "m.mod").write_text(mod, encoding="utf-8")
    dat_path = None
    if dat is not None:
        dat_path = tmp_path / "m.dat"
        dat_path.write_text(dat, encoding="utf-8")
    try:
        m = pyopl.compile_model(tmp_path / "m.mod", dat_path)
    except pyopl.CompileError as e:
        return list(e.diagnostics), None
    r = m.solve()
    return list(m.diagnostics) + list(r.diagnostics), r


POINT = "tuple point { int x; int y; }\npoint p = ...;\ndvar float x;\nminimize x;\nsubject to { x == 10 * p.x + p.y; }\n"


@pytest.mark.parametrize("data, code", [
    ("p = #<y: 1, x: 2>#;", None),            # IBM's example: x = 2, y = 1, so 21
    ("p = #<x: 1, x: 2, y: 3>#;", "OPL0428"),  # x twice
    ("p = #<y: 1>#;", "OPL0409"),              # x missing
    ("p = #<x: 1, y: 2, z: 3>#;", "OPL0410"),  # no field z
])
def test_a_named_tuple_gives_each_field_exactly_once(data, code, tmp_path):
    """IBM, "Initializing tuples": the fields of `#<...>#` come in any order, "OPL checks whether all
    fields are initialized exactly once"; a field the tuple does not have is an error too."""
    diags, r = _diags(tmp_path, POINT, data)
    if code is None:
        assert not [d for d in diags if d.is_error]
        assert r.objective == pytest.approx(21.0)
    else:
        assert code in [d.code for d in diags if d.is_error], [(d.code, d.message) for d in diags]


def test_a_data_file_includes_another(tmp_path):
    """`include "other.dat";` in a data file reads the other file's values too (n = 1 here, m = 5 there)."""
    (tmp_path / "other.dat").write_text("m = 5;\n", encoding="utf-8")
    diags, r = _diags(tmp_path, "int n = ...;\nint m = ...;\ndvar float x;\nminimize x;\nsubject to { x == n + 10 * m; }\n",
                      'include "other.dat";\nn = 1;\n')
    assert not [d for d in diags if d.is_error], [(d.code, d.message) for d in diags]
    assert r.objective == pytest.approx(51.0)


@pytest.mark.parametrize("name", ["cumulFunctionValue", "stateFunctionValue", "segmentStart", "segmentEnd",
                                  "segmentValue", "numberOfSegments"])
def test_the_segment_readers_in_a_script_are_refused_by_name_unless_the_script_defines_them(name, tmp_path):
    """IBM's readers of a solved cumul or state function, called from a script, are refused with
    OPL1057 naming them (not "not defined"); a script function of the same name is the script's own."""
    base = "using CP;\ndvar interval a in 0..10 size 2;\nminimize startOf(a);\n"
    diags, _ = _diags(tmp_path, base + "execute { writeln(%s(1)); }\n" % name)
    hit = [d for d in diags if d.code == "OPL1057"]
    assert hit and name in hit[0].message and "a.start" in (hit[0].help or "")
    diags, r = _diags(tmp_path, base + "execute { function %s(t) { return t * 2; } writeln(%s(4)); }\n" % (name, name))
    assert not [d for d in diags if d.is_error] and r.script_output.strip() == "8"


def test_struct_declaring_a_type_is_refused_with_a_fix_to_tuple(tmp_path):
    """IBM's keyword table: `struct` is deprecated, use `tuple`; pyopl refuses `struct P {...}` at the
    word (OPL0036) with the fix-it writing `tuple`."""
    diags, _ = _diags(tmp_path, "struct P { int a; int b; }\nP p = <2, 3>;\ndvar float+ x;\nminimize x;\n")
    hit = [d for d in diags if d.code == "OPL0036"]
    assert hit and "tuple" in hit[0].message and (hit[0].span.line, hit[0].span.column) == (1, 1)
    assert hit[0].fix is not None and [e.replacement for e in hit[0].fix.edits] == ["tuple"]


@pytest.mark.parametrize("call, code", [("Opl.element(b, 3)", "OPL1052"), ("Opl.element(b, 1.5)", "OPL1052"),
                                        ("Opl.standardDeviation(S)", "OPL1055"), ("Opl.element(S, 0)", "OPL1055")])
def test_opl_element_and_standard_deviation_refuse_a_position_outside_or_a_non_array(call, code, tmp_path):
    """`Opl.element(a, n)` takes a position 0..size-1 of the flattened array (b has 3 items: 3 is outside,
    1.5 is no position); both functions take an array, not a set."""
    diags, _ = _diags(tmp_path, "float b[1..3] = [1, 2, 3];\n{int} S = {1};\nexecute { writeln(%s); }\n"
                      "dvar float+ x;\nminimize x;\n" % call)
    assert code in [d.code for d in diags if d.is_error], [(d.code, d.message) for d in diags]


def test_element_on_data_refuses_a_position_outside_the_flattened_array(tmp_path):
    """`element(c, n)` on data counts positions from 0 (IBM, "element"): c has 3 items, so 3 is outside (OPL0301)."""
    diags, _ = _diags(tmp_path, "int c[0..2] = [5, 3, 8];\ndvar float x;\nminimize x;\nsubject to { x >= element(c, 3); }\n")
    hit = [d for d in diags if d.code == "OPL0301"]
    assert hit and "0..2" in hit[0].message
