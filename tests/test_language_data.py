"""The data side of the language: .dat syntax, keyed and named forms, tuple sets, keyed
comprehensions with 0 defaults, tuple fields given by key, and `include` of model files."""
from __future__ import annotations

import pytest

import pyopl


def opt(model, data=None) -> float:
    r = pyopl.compile_model(model, data).solve()
    assert r.status == "optimal", r.status
    return r.objective


def codes(model, data=None) -> list[str]:
    return [d.code for d in pyopl.check(model, data)]


PICK = "dvar float x;\nminimize x;\nsubject to { x >= %s; }"


@pytest.mark.parametrize("decl, dat, expr, want", [
    ("int a[1..3] = ...;", "a = [1 2 3];", "sum(i in 1..3) a[i]", 6),                     # commas optional
    ("int a[1..3] = ...;", "a = [1, 2, 3,];", "sum(i in 1..3) a[i]", 6),
    ("{string} S = ...; int a[S] = ...;", "S = {x y z}; a = #[z: 3, x: 1, y: 2]#;", 'a["z"] * 10 + a["x"]', 31),
    ("range R = ...;", "R = 2..5;", "sum(r in R) r", 14),
    ("int a[1..2][1..3] = ...;", "a = [[1 2 3] [4 5 6]];", "a[2][3] * 10 + a[1,2]", 62),
    ("tuple t { string n; int v; } {t} T = ...;", 'T = {<"a" 1> <"b" 2>};', "sum(x in T) x.v", 3),
    ("tuple t { string n; int v; } t one = ...;", "one = #<v: 7, n: \"q\">#;", "one.v", 7),
    ("float f = ...;", "f = -2.5e1;", "f", -25),
])
def test_data_syntax(decl, dat, expr, want):
    assert opt(decl + "\n" + PICK % expr, dat) == pytest.approx(want)


def test_a_connection_statement_not_written_as_ibms_is_a_diagnostic():
    """(Data sources themselves: tests/test_data_sources.py.) A read after `to`, a call without its
    string, an unknown source are OPL0419, never ignored."""
    for dat in ('SheetConnection s("book.xlsx");\nn to SheetRead(s, "A1");',
                'CSVConnection c("n.csv");\nn from CSVRead(c);', 'n from FileRead(c, "x");'):
        assert "OPL0419" in codes("int n = ...;\n" + PICK % "n", dat), dat


def test_keyed_comprehension_fills_unlisted_cells_with_zero():
    # ibm-nurses: incompat[s1][s2] = 1 only where the filter holds
    m = """{int} S = {1, 2, 3};
    int inc[S][S] = [ s1 : [ s2 : 1 ] | s1, s2 in S : s2 == s1 + 1 ];
    """ + PICK % "sum(i, j in S) inc[i][j] * (10 * i + j)"
    assert opt(m) == 12 + 23


def test_tuple_fields_given_by_key_in_data():
    m = """tuple person { key string name; int age; }
    tuple pair { person a; person b; }
    {person} People = ...;
    {pair} Pairs = ...;
    """ + PICK % "sum(p in Pairs) (p.a.age + p.b.age)"
    assert opt(m, 'People = {<"Ann" 30> <"Bo" 40>}; Pairs = {<"Ann", "Bo">};') == 70


def test_identical_keyed_tuples_count_once_and_conflicting_keys_are_an_error():
    m = "tuple t { key string k; int v; } {t} T = ...;\n" + PICK % "sum(x in T) x.v"
    assert opt(m, 'T = {<"a" 1> <"a" 1> <"b" 2>};') == 3
    assert codes(m, 'T = {<"a" 1> <"a" 5>};')


def test_with_clause_is_checked_against_the_data():
    m = """{string} Nodes = {"a", "b"};
    tuple arc { string o; string d; }
    {arc} Arcs with o in Nodes, d in Nodes = ...;
    """ + PICK % "card(Arcs)"
    assert opt(m, 'Arcs = {<"a" "b">};') == 1
    assert "OPL0415" in codes(m, 'Arcs = {<"a" "zz">};')


def test_include_of_a_model_file(tmp_path):
    (tmp_path / "data_part.mod").write_text("int n = 3;\nfloat c[1..n] = [2, 1, 5];\n")
    main = tmp_path / "main.mod"
    main.write_text('include "data_part.mod";\ndvar float+ x[1..n];\nminimize sum(i in 1..n) c[i] * x[i];\n'
                    'subject to { sum(i in 1..n) x[i] >= 4; }\n')
    assert pyopl.compile_model(main).solve().objective == pytest.approx(4)  # all on the cheapest, c = 1


def test_a_mistake_in_an_included_file_shows_its_source_line(tmp_path):
    (tmp_path / "part.mod").write_text("int n = 3;\nfloat y = undefined_thing + 1;\n")
    main = tmp_path / "main.mod"
    main.write_text('include "part.mod";\ndvar float x;\nminimize x;\n')
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(main)
    text = str(e.value)
    assert "part.mod:2:11" in text and "2 | float y = undefined_thing + 1;" in text  # the line, not only the place
    assert text.count("^") == len("undefined_thing")


def test_include_outside_the_folder_or_missing_is_a_diagnostic(tmp_path):
    main = tmp_path / "m.mod"
    main.write_text('include "../elsewhere.mod";\ndvar float+ x;\nminimize x;\n')
    assert "OPL0609" in codes(main)
    main.write_text('include "absent.mod";\ndvar float+ x;\nminimize x;\n')
    assert "OPL0609" in codes(main)


def test_rand_is_seeded_and_warned():
    m = "float a[i in 1..3] = rand(10);\n" + PICK % "sum(i in 1..3) a[i]"
    first, second = pyopl.compile_model(m), pyopl.compile_model(m)
    assert "OPL0903" in [d.code for d in first.warnings]
    assert first.solve().objective == second.solve().objective


@pytest.mark.parametrize("model,data,shown", [
    ("int x = ...;", "x = 1..3;", "the range 1..3"),
    ("float x = ...;", "x = #[1: 2]#;", "a keyed array `#[...]#`"),
    ("int x = ...;", "x = #<a: 1>#;", "a named tuple `#<...>#`"),
    ("tuple t {int i; float c;} {t} T = ...;", "T = {<1, 2..5>};", "the range 2..5"),
    ("int x = ...;", {"x": None}, "None (no value)"),
])
def test_a_mistyped_data_value_is_described_in_opl_terms(model, data, shown):
    """The message names what the data wrote (a range, a keyed array...), not pyopl's class for it."""
    (d,) = pyopl.check(model + "\ndvar float v;\nminimize v;\n", data).errors
    assert d.code == "OPL0403" and d.message.endswith("but the value is " + shown), d.message


NESTED = """tuple P { int a; int b; }
tuple E { P p; string s; }
{E} Es = ...;
float w[Es] = ...;
dvar float+ x[Es];
minimize sum(e in Es) w[e] * x[e];
subject to { forall(e in Es) x[e] >= 1; }
"""


@pytest.mark.parametrize("w", ['#[ <<1,2>,"a">: 2, <<3,4>,"b">: 5 ]#', '[ <<1,2>,"a"> 2, <<3,4>,"b"> 5 ]', "[2, 5]"])
def test_array_keyed_by_a_nested_tuple_reads_its_values(w):
    # every x = 1: 2 * 1 + 5 * 1 = 7 by hand (the key-value list form was an internal error, issue 43)
    r = pyopl.compile_model(NESTED, 'Es = {<<1,2>,"a">, <<3,4>,"b">};\nw = %s;\n' % w).solve()
    assert r.status == "optimal" and r.objective == 7


def test_nested_tuple_key_not_in_the_index_set_is_named_at_the_data():
    d = [e for e in pyopl.check(NESTED, 'Es = {<<1,2>,"a">};\nw = #[ <<1,3>,"a">: 2 ]#;\n') if e.is_error]
    assert [(e.code, e.line, e.column) for e in d] == [("OPL0406", 2, 5)]
    assert '<<1,3>,"a">' in d[0].message and "internal" not in d[0].message
