"""A dexpr array keeps only its definition; a cell is built where it is used (IBM OPL Language
User's Manual, "Expressions of decision variables": "Not all the expressions for each value of the
indices are created"). So a cell that the model never uses and whose definition cannot be
evaluated (here `cost[<i,j>]` for a pair of nodes that is not an arc) is no error: the model
solves, the cell is left out of the reported values, and only reading it (in a constraint, or in
a script) is an error there (issue 34, item 2: before, every cell was evaluated for the report and
such a model failed with OPL0301)."""
from __future__ import annotations

import pytest

import pyopl

# three arcs with costs 1, 2, 5; a path 1 -> 3 is either <1,3> (cost 5) or <1,2>, <2,3> (cost 1 + 2)
HEAD = """tuple Arc { int i; int j; }
{Arc} Arcs = {<1,2>, <2,3>, <1,3>};
range Nodes = 1..3;
float cost[Arcs] = [1, 2, 5];
dvar float+ x[Arcs];
dexpr float fc[i in Nodes][j in Nodes] = cost[<i,j>] * x[<i,j>];
"""
PATH = "subject to {\n  x[<1,2>] + x[<1,3>] >= 1;\n  x[<1,2>] == x[<2,3>];\n}\n"


def test_a_dexpr_over_all_pairs_used_only_on_the_arcs_solves():
    r = pyopl.solve(HEAD + "minimize sum(<i,j> in Arcs) fc[i][j];\n" + PATH)
    assert r.status == "optimal"
    assert r.objective == pytest.approx(3.0)  # by hand: 1 + 2 via node 2 beats 5 direct
    # the reported cells are those that can be computed: the three arcs, none of the six other pairs
    assert dict(r["fc"]) == {(1, 2): pytest.approx(1.0), (2, 3): pytest.approx(2.0), (1, 3): pytest.approx(0.0)}
    assert r["fc"][1, 2] == pytest.approx(1.0)


def test_the_json_report_has_exactly_the_cells_that_exist():
    r = pyopl.solve(HEAD + "minimize sum(<i,j> in Arcs) fc[i][j];\n" + PATH)
    fc = r.to_dict()["dexprs"]["fc"]
    assert {(i, j) for i, row in fc.items() for j in row} == {("1", "2"), ("2", "3"), ("1", "3")}


def test_a_post_processing_declaration_and_a_script_read_the_existing_cells():
    text = HEAD + "minimize sum(<i,j> in Arcs) fc[i][j];\n" + PATH + (
        "float tot = sum(<i,j> in Arcs) fc[i][j];\n"
        "execute { writeln(tot); for (var a in Arcs) writeln(a.i, a.j, \" \", fc[a.i][a.j]); }\n")
    r = pyopl.solve(text)
    assert r.status == "optimal"
    assert r.script_output.splitlines() == ["3", "12 1", "23 2", "13 0"]


def test_a_cell_that_the_model_uses_is_still_an_error_where_it_is_used():
    text = HEAD + "minimize sum(i, j in Nodes) fc[i][j];\n" + PATH
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    errs = [d for d in e.value.diagnostics if d.is_error]
    assert [d.code for d in errs] == ["OPL0301"]
    # at `<i,j>` of `cost[<i,j>]` in the dexpr's definition (line 6), for the first pair <1,1>
    assert (errs[0].line, errs[0].column) == (6, len("dexpr float fc[i in Nodes][j in Nodes] = cost[") + 1)
    assert "<1, 1> is not in the index set" in errs[0].message
    # and the use that asked for the cell: `fc[i][j]` in the objective (line 7), for i = j = 1
    assert [(lab.span.line, lab.span.column, lab.message) for lab in errs[0].labels] == [
        (7, len("minimize sum(i, j in Nodes) ") + 1, "`fc[1][1]` is used here")]


def test_a_script_reading_a_cell_that_cannot_be_computed_gets_a_diagnostic_at_the_read():
    text = HEAD + "minimize sum(<i,j> in Arcs) fc[i][j];\n" + PATH + "execute {\n  writeln(fc[1][1]);\n}\n"
    r = pyopl.solve(text)
    assert r.status == "script_error"
    d = [d for d in r.diagnostics if d.is_error][0]
    assert d.code == "OPL0301"
    assert (d.line, d.column) == (13, len("  writeln(") + 1)
    assert "`fc[1][1]` cannot be computed" in d.message and "(its definition, line 6)" in d.message


def test_writing_the_whole_array_in_a_script_names_the_cell_at_the_statement():
    text = HEAD + "minimize sum(<i,j> in Arcs) fc[i][j];\n" + PATH + "execute {\n  writeln(fc);\n}\n"
    r = pyopl.solve(text)
    assert r.status == "script_error"
    d = [d for d in r.diagnostics if d.is_error][0]
    assert d.code == "OPL0301" and d.line == 13
    assert "`fc[1][1]` cannot be computed" in d.message


def test_many_cells_go_through_the_all_at_once_path_and_keep_only_the_arcs():
    # 40 nodes, arcs i -> i+1 with cost i, each at least 1: objective 1 + 2 + ... + 39 = 780
    text = """tuple Arc { int i; int j; }
range Nodes = 1..40;
{Arc} Arcs = {<i,j> | i, j in Nodes : j == i + 1};
float cost[a in Arcs] = a.i;
dvar float+ x[Arcs];
dexpr float fc[i in Nodes][j in Nodes] = cost[<i,j>] * x[<i,j>];
minimize sum(<i,j> in Arcs) fc[i][j];
subject to { forall(a in Arcs) x[a] >= 1; }
"""
    r = pyopl.solve(text)
    assert r.objective == pytest.approx(780.0)
    assert dict(r["fc"]) == {(i, i + 1): pytest.approx(float(i)) for i in range(1, 40)}
