"""Export with names made in bulk and handed to HiGHS whole: the files are byte for byte the ones
the per-name way writes (each name sanitised on its own by ``_sanitise``, passed with
``passColName``/``passRowName``), which this file keeps as the reference."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.backends.common import SolveOptions, quiet_stdout
from pyopl.backends.mp.highs import _new_solver, _pass
from pyopl.backends.export import _name, _sanitise, column_names, row_names, write_model
from shared_material import SHARED, load_cases, needs_shared

ACCEPTANCE = load_cases("acceptance")


def _reference_names(ir):
    cols = _sanitise([_name(n, tuple(k)) for n, k in zip(ir.col_name, ir.col_key)])
    rows = _sanitise([_name(l or "c%d" % i, tuple(k)) for i, (l, k) in enumerate(zip(ir.row_label, ir.row_key))])
    return cols, rows


def _reference_file(ir, path):
    """The file as the per-name way writes it."""
    c, c0 = (ir.lex_objectives[0] if ir.lex_objectives else (ir.obj, ir.obj_constant))
    h = _new_solver(SolveOptions())
    cols, rows = _reference_names(ir)
    with quiet_stdout():
        _pass(h, ir, c, c0, ir.sense)
        for j, name in enumerate(cols):
            h.passColName(j, name)
        for i, name in enumerate(rows):
            h.passRowName(i, name)
        h.writeModel(str(path))
    return path.read_bytes()


MODELS = {
    # product blocks over strings that sanitise alike: "a b" and "a_b" collide, so the bulk names
    # are not unique and the per-name rule (suffix _1) must be used
    "collide": """
{string} A = {"a b", "a_b", "c"};
{string} B = {"x", "y"};
dvar float+ x[A][B];
minimize sum(a in A, b in B) x[a][b];
subject to { forall(a in A) ct: sum(b in B) x[a][b] >= 1; }
""",
    # tuple keys, float and negative int keys, an unlabelled row, a scalar named like a number,
    # a keyword-named dvar, three dimensions, a label with `#`-free odd characters
    "mixed": """
tuple P { int i; string s; }
{P} Ps = {<1, "p">, <2, "q r">, <-3, "é">};
{float} F = {0.5, 2.0, 1e-7};
range R = -2..1;
dvar float+ z[Ps];
dvar float+ w[F][R][1..2];
dvar float+ e1;
dvar float+ st;
dvar int+ k[R] in 0..5;
minimize sum(p in Ps) z[p] + sum(f in F, r in R, t in 1..2) f * w[f][r][t] + e1 + st + sum(r in R) k[r] + 3;
subject to {
  forall(p in Ps) ctTuple: z[p] >= p.i;
  forall(f in F, r in R) ctW: sum(t in 1..2) w[f][r][t] >= 1;
  e1 + st >= 2;
  forall(r in R) k[r] >= r;
}
""",
    # string keys with commas and parentheses: x("a,b")("c") and x("a")("b,c") are both
    # `x(a,b,c)`, so names of one block meet (the per-name rule adds _1); `y` with such keys
    # but no meeting names; a row label spelled like a keyed name of another block
    "commas": """
{string} A = {"a,b", "a"};
{string} B = {"c", "b,c"};
{string} P = {"(p)", "q)"};
dvar float+ x[A][B];
dvar float+ y[P];
minimize sum(a in A, b in B) x[a][b] + sum(p in P) y[p];
subject to {
  forall(a in A) ct: sum(b in B) x[a][b] >= 1;
  forall(p in P) y[p] >= 1;
}
""",
    # `e1` is written `ne1`, which another dvar is called: two whole blocks meet; an unlabelled
    # row 0 is `c0`, which a labelled row is called too
    "prefix": """
dvar float+ e1[1..2];
dvar float+ ne1[1..2];
minimize sum(i in 1..2) (e1[i] + ne1[i]);
subject to {
  e1[1] + ne1[1] >= 1;
  c0: e1[2] >= 1;
  forall(i in 1..2) ne1c: ne1[i] >= 0.5;
}
""",
    "quadratic": """
dvar float x[1..3] in -5..5;
minimize sum(i in 1..3) (x[i] * x[i] - i * x[i]);
subject to { ctSum: sum(i in 1..3) x[i] <= 4; }
""",
    # one name of 256 characters after the "n" the LP rules add: cut at 255 by the per-name rule
    "long": "dvar float+ %s[1..2];\nminimize sum(i in 1..2) %s[i];\nsubject to { ct: sum(i in 1..2) %s[i] >= 1; }\n"
            % (("e" + "9" * 255,) * 3),
}


@pytest.mark.parametrize("fmt", ["mps", "lp"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_bulk_names_and_files_equal_the_per_name_way(name, fmt, tmp_path):
    ir = pyopl.compile_model(MODELS[name], source="text").ir
    assert (column_names(ir), row_names(ir)) == _reference_names(ir)
    out = tmp_path / ("bulk." + fmt)
    write_model(ir, str(out), fmt)
    assert out.read_bytes() == _reference_file(ir, tmp_path / ("ref." + fmt))


def test_commas_in_keys_are_told_apart_by_the_per_name_rule():
    cols = column_names(pyopl.compile_model(MODELS["commas"], source="text").ir)
    # x["a,b"]["c"], x["a,b"]["b,c"], x["a"]["c"], x["a"]["b,c"]: the first and the last meet
    assert cols[:4] == ["x(a,b,c)", "x(a,b,b,c)", "x(a,c)", "x(a,b,c)_1"]
    assert cols[4:] == ["y((p))", "y(q))"]


def test_names_of_different_blocks_that_meet_are_told_apart():
    ir = pyopl.compile_model(MODELS["prefix"], source="text").ir
    assert column_names(ir) == ["ne1(1)", "ne1(2)", "ne1(1)_1", "ne1(2)_1"]
    assert row_names(ir)[:2] == ["c0", "c0_1"]


def test_collisions_and_long_names_fall_back_to_the_per_name_rule():
    cols = column_names(pyopl.compile_model(MODELS["collide"], source="text").ir)
    assert cols[:4] == ["x(a_b,x)", "x(a_b,y)", "x(a_b,x)_1", "x(a_b,y)_1"]
    long = column_names(pyopl.compile_model(MODELS["long"], source="text").ir)
    # "ne99...9(1)" is cut to 255 characters; "ne99...9(2)" cut alike meets it, so it becomes the
    # first 247 characters and "_1"
    assert long[0] == ("ne" + "9" * 255)[:255] and long[1] == long[0][:247] + "_1"


@needs_shared
@pytest.mark.parametrize("case", ACCEPTANCE, ids=[c["name"] for c in ACCEPTANCE])
def test_acceptance_models_export_as_before(case, tmp_path):
    base = SHARED / "acceptance"
    ir = pyopl.compile_model(base / case["model"], data=(base / case["data"]) if case["data"] else None).ir
    out = tmp_path / "bulk.mps"
    write_model(ir, str(out), "mps")
    assert out.read_bytes() == _reference_file(ir, tmp_path / "ref.mps")
