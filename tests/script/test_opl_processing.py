"""IBM OPL's processing order with scripts: pre-processing changes the data the model sees,
post-processing reads the solution (each expected value worked out by hand in the comments)."""
from __future__ import annotations

import pytest

import pyopl

# The issue's example: w = [1.5, 3, 4.5, 6], every x at its bound 1: 1.5 + 3 + 4.5 + 6 = 15.
ISSUE = """
int n = 4;
float w[1..n];
execute { for (var i = 1; i <= n; i++) w[i] = i * 1.5; }
dvar float+ x[1..n] in 0..1;
maximize sum(i in 1..n) w[i] * x[i];
subject to { sum(i in 1..n) x[i] <= 4; }
"""


def test_issue_example_gives_15_and_no_zero_fill_warning():
    m = pyopl.compile_model(ISSUE)
    assert "OPL0414" not in [d.code for d in m.diagnostics]
    r = m.solve()
    assert r.status == "optimal"
    assert r.objective == pytest.approx(15.0)
    assert r.script_output == ""


def test_array_never_filled_by_a_script_keeps_the_zero_fill_warning():
    text = ISSUE.replace("w[i] = i * 1.5;", "writeln(i);")
    m = pyopl.compile_model(text)
    assert [d.line for d in m.diagnostics if d.code == "OPL0414"] == [3]
    assert m.solve().objective == pytest.approx(0.0)


def test_scalar_changed_before_the_model_reaches_later_declarations_and_constraints():
    # n becomes 3: range R = 1..3, so the bound sum(x) <= n is 3 and c[i] = 2*i = 2, 4, 6;
    # maximize sum c[i] x[i] with x in 0..1 and sum <= 3: 2 + 4 + 6 = 12.
    text = """
int n = 10;
execute { n = 3; }
range R = 1..n;
float c[i in R] = 2 * i;
dvar float+ x[R] in 0..1;
maximize sum(i in R) c[i] * x[i];
subject to { sum(i in R) x[i] <= n; }
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(12.0)
    assert len(r["x"]) == 3


def test_two_dimensional_items_and_string_indices():
    # cap["b"][2] = 10 replaces 4; the objective sums the second column: 2 + 10 + 6 = 18.
    text = """
{string} C = {"a", "b", "c"};
int cap[C][1..2] = [[1, 2], [3, 4], [5, 6]];
execute { cap["b"][2] = 10; }
dvar float+ y[C];
maximize sum(c in C) y[c];
subject to { forall(c in C) y[c] <= cap[c][2]; }
"""
    assert pyopl.solve(text).objective == pytest.approx(18.0)


def test_dexpr_and_bounds_see_data_set_by_a_script():
    # u = 7 is set by the script; the dvar's domain 0..u and the dexpr 2*x give 14.
    text = """
float u = 1;
execute { u = 7; }
dvar float x in 0..u;
dexpr float twice = 2 * x;
maximize twice;
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(14.0)


def test_upper_bound_set_in_pre_processing():
    # x.UB = 2 and y["b"].LB = 1 before the solve: minimize y sum with x + y >= ..., maximize x - y["b"] = 2 - 1.
    text = """
{string} K = {"a", "b"};
dvar float+ x in 0..100;
dvar float+ y[K] in 0..5;
execute { x.UB = 2; y["b"].LB = 1; }
maximize x - sum(k in K) y[k];
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(1.0)
    assert r["y"]["b"] == pytest.approx(1.0)


def test_post_processing_output_line_by_line():
    # maximize 3x + 2y with x + y <= 4, x <= 3: x = 3, y = 1, objective 11; the slack of c1 is 0 and
    # its dual 2 (one more unit of capacity is worth one more y); the dexpr total = x + y = 4.
    text = """
dvar float+ x in 0..3;
dvar float+ y;
dexpr float total = x + y;
maximize 3 * x + 2 * y;
subject to { c1: x + y <= 4; }
execute POST {
  writeln("x = ", x, ", y = ", y.solutionValue);
  writeln("objective ", cplex.getObjValue(), " status ", cplex.status);
  writeln("total ", total, " slack ", c1.slack, " dual ", c1.dual);
  write("UB of x: "); writeln(x.UB);
}
"""
    r = pyopl.solve(text)
    assert r.script_output.splitlines() == [
        "x = 3, y = 1",
        "objective 11 status 1",
        "total 4 slack 0 dual 2",
        "UB of x: 3",
    ]


def test_post_processing_declaration_is_computed_from_the_solution():
    # the chosen items are those with y = 1: maximize 5y1 + 4y2 + 3y3 with y1 + y2 + y3 <= 2 -> {1, 2}.
    text = """
range I = 1..3;
int v[I] = [5, 4, 3];
dvar boolean y[I];
maximize sum(i in I) v[i] * y[i];
subject to { sum(i in I) y[i] <= 2; }
{int} chosen = {i | i in I : y[i] == 1};
execute { writeln(chosen, " ", y); }
"""
    r = pyopl.solve(text)
    assert r.script_output == "{1 2} [1 1 0]\n"


def test_pre_processing_output_comes_first_and_json_carries_it(tmp_path):
    import json

    from pyopl.cli import main
    import contextlib
    import io

    mod = tmp_path / "m.mod"
    mod.write_text('execute { writeln("before"); }\ndvar float+ x in 0..2;\nmaximize x;\n'
                   'execute { writeln("after ", x); }\n')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["solve", str(mod), "--format", "json"])
    assert rc == 0
    assert json.loads(out.getvalue())["script_output"] == "before\nafter 2\n"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["solve", str(mod)])
    text = out.getvalue()
    assert text.index("objective: 2") < text.index("script output:") < text.index("before\nafter 2")


def test_a_script_error_stops_the_compile_with_its_span():
    text = "float w[1..3];\nexecute {\n  w[4] = 1;\n}\ndvar float+ x;\nminimize x;\n"
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = [d for d in e.value.diagnostics if d.code == "OPL1052"][0]
    assert (d.line, d.column) == (3, 3)
    assert "index 4 is outside the index set of `w` (1..3)" in d.message


@pytest.mark.parametrize("text, where", [
    # a syntax error in a post-processing block (line 4, the `;` after `=` at column 19)
    ("dvar float x in 0..1;\nmaximize x;\nexecute { writeln(x); }\nexecute { var a = ; }\n", (4, 19)),
    # and in `main` (line 3, the `=` where a name belongs, column 19)
    ("dvar float x in 0..1;\nmaximize x;\nmain { cplex.solve(); var = 2; }\n", (3, 27)),
])
def test_a_syntax_error_in_a_later_block_stops_before_the_solve(text, where):
    # IBM compiles the whole .mod first: nothing is solved, no earlier post block runs
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = [d for d in e.value.diagnostics if d.code == "OPL1000"][0]
    assert (d.line, d.column) == where


def test_post_processing_error_makes_the_cli_exit_1(tmp_path):
    from pyopl.cli import main
    import contextlib
    import io

    mod = tmp_path / "m.mod"
    mod.write_text("dvar float+ x in 0..2;\nmaximize x;\nexecute { writeln(x.nosuch); }\n")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        rc = main(["solve", str(mod)])
    assert rc == 1
    assert "has no member `nosuch`" in err.getvalue()


def test_no_scripts_is_an_error_when_a_skipped_block_sets_model_data():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(ISSUE, scripts=False)
    d = [d for d in e.value.diagnostics if d.code == "OPL1059"][0]
    assert d.line == 4 and "`w`" in d.message
    # a block that only prints is skipped with a warning
    m = pyopl.compile_model('dvar float+ x in 0..1;\nmaximize x;\nexecute { writeln("hi"); }\n', scripts=False)
    assert [d.code for d in m.diagnostics] == ["OPL0601"]
    assert m.solve().script_output == ""


_SKIP_TAIL = "dvar float+ x[1..3] in 0..1;\nmaximize sum(i in 1..3) w[i] * x[i];\n"


@pytest.mark.parametrize("body", [
    "var f = function (a) { a[2] = 9; }; f(w);",          # changed through a function's parameter
    "var a = w; a[1] = 5;",                                # through an alias
    "var q = thisOplModel; q[\"w\"][1] = 5;",              # through the model object and a computed name
    "var t = [w]; t[0][3] = 1;",                           # through an array holding it
    "thisOplModel.w[2] += 1;",
])
def test_no_scripts_sees_changes_made_through_another_name(body):
    # the block would change `w`: skipping it would silently solve another model than IBM's
    text = "float w[1..3] = [1, 2, 3];\nexecute {\n  " + body + "\n}\n" + _SKIP_TAIL
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text, scripts=False)
    d = [d for d in e.value.diagnostics if d.code == "OPL1059"][0]
    assert (d.line, d.column) == (2, 1) and "`w`" in d.message


def test_no_scripts_reading_a_model_element_is_only_a_warning():
    # a scalar is copied when handed on (`var k = n;`, `f(n)`): that cannot change `n`
    text = ("int n = 3;\nfloat w[1..3] = [1, 2, 3];\nexecute {\n  var s = 0; for (var i in w) s += w[i]; writeln(w, s, Opl.card(w));\n"
            "  var b = w[1] + 1; b = 2; var k = n; k = k + 1; writeln(k, f(n));\n"
            "  function f(v) { v = 5; return v; }\n}\n" + _SKIP_TAIL)
    m = pyopl.compile_model(text, scripts=False)
    assert [d.code for d in m.diagnostics if d.code != "OPL0922"] == ["OPL0601"]  # (OPL0922: `n` is unused)
    assert m.solve().objective == 6


def test_no_scripts_skips_main_and_says_when_that_changes_the_model():
    text = ("int n = 2;\ndvar float+ y in 0..n;\nmaximize y;\nmain {\n  thisOplModel.generate();\n"
            "  thisOplModel.y.UB = 1; cplex.solve(); writeln(cplex.getObjValue());\n}\n")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text, scripts=False)
    d = [d for d in e.value.diagnostics if d.code == "OPL1059"][0]
    assert (d.line, d.column) == (4, 1) and "`main` block" in d.message and "`y`" in d.message
    # a `main` that only generates, solves and prints is skipped with a warning, and the model solved as declared
    plain = text.replace("thisOplModel.y.UB = 1; ", "")
    m = pyopl.compile_model(plain, scripts=False)
    assert [d.code for d in m.diagnostics] == ["OPL0601"]
    r = m.solve()
    assert r.objective == 2 and r.script_output == ""


def test_array_indexed_by_tuples_filled_by_a_script_with_keyed_get():
    # the pattern of IBM's transp4 (INITIALIZE): Cost[<"p", <"A", "B">>] = 3 and Cost[<"q", <"A", "C">>] = 5;
    # one unit must go on each route, so the cost is 3 + 5 = 8.
    text = """
tuple connection { string o; string d; }
tuple route { string p; connection e; }
tuple rawRoute { string p; string o; string d; float cost; }
{rawRoute} Table = {<"p", "A", "B", 3>, <"q", "A", "C", 5>};
{connection} Connections = {<t.o, t.d> | t in Table};
{route} Routes = {<t.p, <t.o, t.d>> | t in Table};
float Cost[Routes];
execute INITIALIZE {
  for (var t in Table) Cost[Routes.get(t.p, Connections.get(t.o, t.d))] = t.cost;
}
dvar float+ Trans[Routes];
minimize sum(r in Routes) Cost[r] * Trans[r];
subject to { forall(r in Routes) Trans[r] >= 1; }
"""
    m = pyopl.compile_model(text)
    assert "OPL0414" not in [d.code for d in m.diagnostics]
    assert m.solve().objective == pytest.approx(8.0)


def test_script_change_reaches_the_vectorised_paths_of_a_large_array():
    # 3000 items of value 1 read from data (kept flat for the array fast paths); the script makes
    # c[5] = 100, and the constraints x[i] <= c[i]/100 then allow only x[5] = 1: objective 100.
    n = 3000
    mod = ("int n = ...;\nfloat c[1..n] = ...;\nexecute { c[5] = 100; }\ndvar float+ x[1..n] in 0..1;\n"
           "maximize sum(i in 1..n) c[i] * x[i];\n"
           "subject to { sum(i in 1..n) x[i] <= 1; forall(i in 1..n) x[i] <= c[i] / 100; }\n")
    dat = "n = %d;\nc = [%s];\n" % (n, ", ".join("1" for _ in range(n)))
    r = pyopl.solve(mod, dat)
    assert r.objective == pytest.approx(100.0)
    assert r["x"][5] == pytest.approx(1.0)
