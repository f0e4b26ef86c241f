"""Issue 44, section 3: forms real MP models (IBM's examples among them) use, each with an answer
worked out by hand from IBM's documented semantics."""
from __future__ import annotations

import pytest

import pyopl


def _codes(r) -> list[str]:
    return [d.code for d in r.diagnostics]


def test_execute_before_a_tuple_declaration_with_external_data():
    """An `execute` block placed before `tuple T` (IBM's `mulprod_change_main`, `lifegame` examples
    open with a settings block): external data of type `T` read after it is initialised before
    the script (IBM's order) and after `T`. x[<1,2.5>] <= 1, x[<2,3.5>] <= 2: 2.5 + 7 = 9.5."""
    model = """
execute { writeln("first"); }
tuple T { int a; float b; }
{T} S = ...;
T one = ...;
dvar float+ x[S] in 0..10;
maximize sum(s in S) s.b * x[s] + one.b;
subject to { forall(s in S) x[s] <= s.a; }
"""
    data = "S = {<1, 2.5>, <2, 3.5>}; one = <3, 1.0>;"
    r = pyopl.solve(model, data, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(10.5)
    assert r.script_output.splitlines() == ["first"]


def test_script_assigns_non_key_fields_of_tuples_in_sets_arrays_and_scalars():
    """IBM ILOG Script for OPL, "Limitations: value assignments": tuple components of type int,
    float or string may be assigned. The loop doubles each job's `dur` (2, 3 -> 4, 6); the array
    `w` indexed by `jobs` keeps its values on the changed tuples (10, 20); `best`, declared without
    a value, gets dur 7; the array item `pair[2]` gets dur 1. Each x <= 1:
    (4 + 10) + (6 + 20) + 7 + 1 = 48."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<1, 2>, <2, 3>};
float w[jobs] = [10, 20];
Job best;
Job pair[1..2] = [<5, 0>, <6, 0>];
execute {
  for (var j in jobs) j.dur = j.dur * 2;
  best.dur = 7;
  pair[2].dur = 1;
  writeln(jobs, " ", best, " ", pair);
}
dvar float+ x[jobs] in 0..1;
maximize sum(j in jobs) (j.dur + w[j]) * x[j] + best.dur + pair[1].dur + pair[2].dur;
subject to { sum(j in jobs) x[j] <= 2; }
"""
    r = pyopl.solve(model, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(48.0)
    assert r.script_output.splitlines() == ["{<1 4> <2 6>} <0 7> [<5 0> <6 1>]"]


@pytest.mark.parametrize("body, words", [
    ("for (var j in jobs) j.id = 9;", "key field"),
    ("var t = jobs.get(1); t.tags = 3;", "no field `tags`"),
    ("for (var j in jobs) j.dur = \"long\";", "cannot take"),
])
def test_script_tuple_field_assignments_ibm_refuses(body, words):
    """Key fields are the tuple's identity (arrays and decisions are indexed by them); a field
    that does not exist, or a value of the wrong type, is a script error at the assignment."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<1, 2>, <2, 3>};
execute { %s }
dvar float+ x[jobs] in 0..1;
maximize sum(j in jobs) x[j];
""" % body
    d = pyopl.check(model, source="text")
    errs = [x for x in d if x.severity == "error"]
    assert errs and words in errs[0].message, [str(x) for x in d]


def test_opl_item_takes_a_position_on_an_int_keyed_tuple_set_and_find_takes_keys():
    """IBM "Functions over sets": item(S, n) is the n-th item, from 0, whatever the keys; the keys
    here (7, 3) are not positions. `find` takes the key values, or every component."""
    model = """
tuple Job { key int id; float dur; }
{Job} jobs = {<7, 2>, <3, 5>};
execute {
  writeln(Opl.item(jobs, 0), Opl.item(jobs, 1), jobs.find(3), jobs.get(7, 2), jobs.find(3, 4));
}
dvar float+ x in 0..1;
maximize x;
"""
    r = pyopl.solve(model, source="text")
    assert r.script_output.splitlines() == ["<7 2><3 5><3 5><7 2>null"]


def test_dat_matrix_row_broken_across_lines_and_trailing_comma_in_a_tuple():
    """IBM's data files are free-form: white space (line breaks included) separates values, commas
    are optional, a tuple may end with `,` (IBM's diet example data). a = [[1 2 3] [4 5 6]] sums to
    21, n = 1, the tuples' f fields 2.5 + 4: y <= 28.5."""
    model = """
int n = ...;
float a[1..2][1..3] = ...;
tuple T { int x; string s; float f; }
{T} S = ...;
dvar float+ y in 0..100;
maximize y;
subject to { y <= n + sum(i in 1..2, j in 1..3) a[i][j] + sum(t in S) t.f; }
"""
    data = "n = 1;\na = [[1, 2,\n      3],\n     [4\n 5 6]];\nS = {<1, \"a\", 2.5,>, <2, \"b\",\n 4>};\n"
    r = pyopl.solve(model, data, source="text")
    assert r.status == "optimal", [str(d) for d in r.diagnostics]
    assert r.objective == pytest.approx(28.5)


def test_dat_hash_is_not_a_comment_and_says_so():
    """`#` opens only `#[...]#` and `#<...>#` in IBM's data files; comments are `//` and `/* */`."""
    d = pyopl.check("int n = ...;\ndvar float x in 0..n;\nmaximize x;", "n = 1; # note\n", source="text")
    errs = [x for x in d if x.severity == "error"]
    assert errs[0].code == "OPL0042" and "`#` does not start a comment" in errs[0].message
    assert (errs[0].line, errs[0].column) == (1, 8)


@pytest.mark.parametrize("name, base", [("c:\\\\temp\\\\res.txt", "res.txt"), ("/tmp/pyopl-never-%d.txt", None)])
def test_absolute_output_path_goes_into_the_output_folder_with_a_warning(tmp_path, name, base):
    """IBM's examples write results to `c:\\temp\\...`; pyopl writes only in the output folder, so the
    file goes there under its last part, the warning (OPL1080) says where, and the model solves."""
    import os

    if base is None:
        name = name % os.getpid()
        base = os.path.basename(name)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "m.mod").write_text('dvar float+ x in 0..2;\nmaximize x;\nexecute {\n'
                                    '  var f = new IloOplOutputFile("%s");\n  f.writeln(x);\n  f.close();\n}\n' % name)
    r = pyopl.solve(tmp_path / "m.mod", output_dir=out)
    assert r.status == "optimal" and r.objective == pytest.approx(2.0)
    w = [d for d in r.diagnostics if d.code == "OPL1080"]
    assert len(w) == 1 and w[0].severity == "warning" and (w[0].line, w[0].column) == (4, 11)
    assert str(out / base) in w[0].message
    assert (out / base).read_text() == "2\n"
    assert not os.path.exists(name)
