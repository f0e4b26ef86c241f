"""Lexing and parsing traps named in DESIGN.md, and script-block skipping."""
from __future__ import annotations

import pytest

import pyopl


def solve(text: str, data=None):
    return pyopl.compile_model(text, data).solve()


def test_range_literal_is_not_a_float():
    r = solve("int n = 10;\ndvar float x[1..n] in 0..1;\nmaximize sum(i in 1..10) x[i];")
    assert r.objective == pytest.approx(10.0)


def test_float_literals_and_exponents():
    r = solve("float a = 1.5e1;\nfloat b = .5;\nfloat c = 2.;\ndvar float x in 0..a;\nmaximize b * x + c;")
    assert r.objective == pytest.approx(0.5 * 15 + 2.0)


def test_unary_minus_binds_tighter_than_binary_minus():
    r = solve("dvar float x in -3..3;\nminimize - x - -2 * 1;")  # -x + 2 minimised at x = 3
    assert r.objective == pytest.approx(-1.0)


def test_comments_of_both_kinds_are_ignored():
    r = solve("/* block\n comment { */ dvar float x in 0..4; // trailing } comment\nmaximize x; /* end */")
    assert r.objective == pytest.approx(4.0)


def test_execute_block_with_braces_in_strings_and_comments_is_kept_whole_and_run():
    text = ('dvar float x in 0..2;\nmaximize x;\nexecute DISPLAY {\n  writeln("}{ not a brace");\n'
            '  // } still a comment\n  /* { */ var s = \'}\';\n}\nsubject to { x <= 1; }')
    model = pyopl.compile_model(text)
    assert model.warnings == []
    r = model.solve()
    assert r.objective == pytest.approx(1.0)
    assert r.script_output == "}{ not a brace\n"  # post-processing: the block follows the objective


def test_main_block_body_and_its_place_are_kept():
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.syntax.parser import parse_model

    ast = parse_model("dvar float x in 0..2;\nmaximize x;\nmain { thisOplModel.generate(); }", "<m>", Reporter())
    block = ast.items[-1]
    assert (block.kind, block.body, block.body_line, block.body_column) == ("main", " thisOplModel.generate(); ", 3, 7)


def test_tuple_literal_and_less_than_in_the_same_model():
    text = ('tuple P { int a; int b; }\n{P} S = {<1, 2>, <3, 4>};\n'
            'dvar float x[S] in 0..10;\n'
            'maximize sum(<a, b> in S : a < b) x[<a, b>] - x[<3, 4>];\n'
            'subject to { forall(p in S : p.a > 2) x[p] <= 1; }')
    r = solve(text)
    # x[<1,2>] = 10, x[<3,4>] counted + and - so it cancels: objective 10
    assert r.objective == pytest.approx(10.0)


def test_both_indexing_forms_address_the_same_variable():
    text = "dvar float x[1..2][1..2] in 0..5;\nmaximize x[1,2] + x[2][1];\nsubject to { x[1][2] <= 2; x[2,1] <= 3; }"
    assert solve(text).objective == pytest.approx(5.0)


def test_implication_and_comparison_operators_are_distinct():
    text = ("dvar boolean b;\ndvar int x in 0..10;\nminimize x - 5 * b;\n"
            "subject to { b == 1 => x >= 4; x != 5; }")
    r = solve(text)
    assert r.objective == pytest.approx(-1.0)  # b = 1, x = 4


def test_index_keys_stay_structured():
    text = ('{string} A = {"a", "a_b"};\n{string} B = {"b_c", "c"};\n'
            'dvar float x[A][B] in 0..1;\nmaximize x["a"]["b_c"] - x["a_b"]["c"];')
    r = solve(text)
    assert r.objective == pytest.approx(1.0)
    assert r["x"]["a", "b_c"] == 1 and r["x"]["a_b", "c"] == 0


@pytest.mark.parametrize("name", ["time", "model", "sum", "len", "gp", "h", "result", "self"])
def test_user_names_never_collide_with_ours(name):
    text = "float %s = 3;\ndvar float x in 0..10;\nminimize x;\nsubject to { x >= %s; }" % (name, name)
    assert solve(text).objective == pytest.approx(3.0)
