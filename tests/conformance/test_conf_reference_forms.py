"""Issue 44, section 2: entries marked supported, in the form their IBM page documents them; each
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
