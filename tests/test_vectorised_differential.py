"""Differences found by differential fuzzing of the array paths against the one-by-one paths.

Each case compiles one small model with the array paths as they ship (default thresholds) and with
them switched off (``vector_forall``, ``vector_objective`` and ``vector_sum`` refusing), and expects
the same diagnostics and the same IR bit for bit.  Each case was a real difference once, now
fixed: a read-only column block sorted in place, the sign of zero of ``-sum``'s constant, a
stray Unicode space after the last .dat statement, a column repeated inside one objective term.
"""
from __future__ import annotations

import math

import pytest

import pyopl
from pyopl.lowering.model import constraints
from pyopl.lowering.arrays import vectorised, vectorised_rows
from tests.ir_compare import assert_same_ir


def _compile(mod: str, monkeypatch, on: bool):
    if not on:
        monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
        monkeypatch.setattr(vectorised_rows, "vector_objective", lambda inst, expr: None)
        monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: None)
    diags = [(d.code, d.message, d.span) for d in pyopl.check(mod)]
    try:
        ir = pyopl.compile_model(mod).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, diags


def _both(mod: str, monkeypatch):
    on = _compile(mod, monkeypatch, True)
    off = _compile(mod, monkeypatch, False)
    return on, off


@pytest.mark.parametrize("stmt", [
    "forall(j in R) sum(i in R) x[5 - i] <= j;",
    "forall(j in R) ct: sum(e in Arcs) -x[e.dst] <= j;",
])
def test_a_lone_array_block_with_unsorted_columns_compiles(monkeypatch, stmt):
    mod = "range R = 1..4; tuple Arc { int src; int dst; } {Arc} Arcs = {<1, 4>, <1, 2>};\n" \
          "dvar float+ x[R];\nminimize sum(i in R) x[i];\nsubject to { %s }" % stmt
    (ir_on, d_on), (ir_off, d_off) = _both(mod, monkeypatch)
    assert d_on == d_off
    assert_same_ir(ir_on, ir_off)


@pytest.mark.parametrize("objective", ["-sum(i in R) x[i]", "-sum(i in R) x[i] - t"])
def test_objective_constant_keeps_its_sign_of_zero(monkeypatch, objective):
    mod = "range R = 1..3; dvar float+ x[R]; dvar float t;\nminimize %s;\nsubject to { t >= 0; }" % objective
    (ir_on, _), (ir_off, _) = _both(mod, monkeypatch)
    assert math.copysign(1.0, ir_on.obj_constant) == math.copysign(1.0, ir_off.obj_constant)


@pytest.mark.parametrize("tail", ["\x0b", "\xa0", "\u3000", "\u2028", "\x1c"])
def test_stray_unicode_space_after_the_last_statement_is_reported(monkeypatch, tail):
    from pyopl.data import loader, parser

    mod = "int n = ...; dvar float x; minimize x; subject to { x >= n; }"
    dat = "n = 1;" + tail
    fast = [(d.code, d.message, d.span) for d in pyopl.check(mod, dat)]
    monkeypatch.setattr(loader, "parse_data_fast", lambda text, file, rep, *_bytes: parser.parse_data(text, file, rep))
    full = [(d.code, d.message, d.span) for d in pyopl.check(mod, dat)]
    assert full and fast == full


@pytest.mark.parametrize("objective", ["u - (u + 1.7 * u)", "(u + t) - (u - u * -1.7) + sum(i in 1..3) t"])
def test_objective_with_a_column_repeated_inside_one_term_folds_as_the_evaluator(monkeypatch, objective):
    mod = "dvar float+ u; dvar float+ t;\nminimize %s;\nsubject to { u <= 1; t <= 1; }" % objective
    (ir_on, d_on), (ir_off, d_off) = _both(mod, monkeypatch)
    assert d_on == d_off
    assert ir_on.obj.tobytes() == ir_off.obj.tobytes(), (ir_on.obj.tolist(), ir_off.obj.tolist())


@pytest.mark.parametrize("stmt", [
    "forall(<i, j> in P : j < 3) c: x[<i, j + 1>] - x[<i, j>] >= 1;",
    "forall(i in 1..3) sum(p in P : p.i == i) x[<p.i, p.j>] <= 10 + i;",
    "forall(i in 1..3) sum(k in Keys) y[<k>] * k >= i;",
    "forall(<i, j> in P : j > 1) x[<i, j - 1>] <= y[<i>];",
    "forall(<i, j> in P) x[<i, j + 5>] >= 0;",  # (outside the set: the one-by-one path's error)
])
def test_a_tuple_literal_index_from_arrays_is_the_one_by_one_ir(monkeypatch, stmt):
    """``x[<i, j + 1>]`` and ``y[<k>]`` (a key literal) looked up from arrays (ragged.literal_positions):
    the same IR, or the same diagnostics, as one by one."""
    mod = ("tuple Pair { int i; int j; } {Pair} P = {<i, j> | i in 1..3, j in 1..3};\n"
           "tuple K { key int id; string name; } {K} Ks = {<1, \"a\">, <2, \"b\">, <3, \"c\">};\n"
           "{int} Keys = {1, 2, 3};\n"
           "dvar float+ x[P]; dvar float+ y[Ks];\nminimize sum(p in P) x[p] + sum(k in Ks) y[k];\n"
           "subject to { %s }" % stmt)
    (ir_on, d_on), (ir_off, d_off) = _both(mod, monkeypatch)
    assert d_on == d_off
    if ir_off is None:
        assert ir_on is None and d_on
    else:
        assert_same_ir(ir_on, ir_off)


@pytest.mark.parametrize("stmt", [
    "forall(t in Tasks) c: sum(j in 1..5 : j in t.succs) x[j] <= t.pt;",
    "forall(t in Tasks, s in t.succs : s != 2) x[s] - x[t.id] >= t.pt;",
    "forall(t in Tasks) sum(s in t.succs) x[s] >= 1 + t.id;",
])
def test_a_tuple_s_set_field_from_arrays_is_the_one_by_one_ir(monkeypatch, stmt):
    """``s in t.succs`` (a tuple's set-valued field) as a loop set or a membership test over arrays
    (``ragged._cells``): the same IR as one by one."""
    mod = ("tuple Task { key int id; int pt; {int} succs; }\n"
           "{Task} Tasks = {<1, 3, {2, 3}>, <2, 2, {4}>, <3, 4, {}>, <4, 1, {5, 2}>, <5, 2, {1}>};\n"
           "dvar float+ x[1..5];\nminimize sum(j in 1..5) x[j];\nsubject to { %s }" % stmt)
    (ir_on, d_on), (ir_off, d_off) = _both(mod, monkeypatch)
    assert d_on == d_off
    assert_same_ir(ir_on, ir_off)
