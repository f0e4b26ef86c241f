"""Columnar tuple sets (``OplSet.from_columns``, ``UnfilledTuples``, ``convert._columnar_set``): a large
numeric tuple set read in bulk keeps only its columns until something asks for a tuple, and then
gives the tuples, values, errors and spans that converting it tuple by tuple gives."""
from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pyopl
from pyopl.data import convert
from pyopl.data.fastpath import parse_data_fast
from pyopl.data.parser import UnfilledTuples
from pyopl.diagnostics.diagnostic import CompileError
from pyopl.diagnostics.reporter import Reporter
from pyopl.semantics.values import OplSet, ProductKeys, TupleType

from tests.test_tuple_bulk import NETFLOW as MOD  # (arcs as a tuple set, balance rows as filtered sums)


def _dat(n: int = 12, arcs: str | None = None) -> str:
    arcs = arcs if arcs is not None else ",\n".join(
        "<%d, %d, %d.5, %d>" % (i, (i + k) % n, (i * k) % 7, 3 + k) for i in range(n) for k in (1, 2, 3, 4))
    return "Nodes = {%s};\nArcs = {%s};\nsupply = [%s];\n" % (
        ", ".join(map(str, range(n))), arcs, ", ".join(["5"] + ["0"] * (n - 2) + ["-5"]))


def _arcs(text: str):
    item, = [i for i in parse_data_fast(text, "d.dat", Reporter()) if getattr(i, "name", None) == "Arcs"]
    return item


def _bits(values) -> list:
    return [[(type(x).__name__, struct.pack("d", x) if isinstance(x, float) else x) for x in t] for t in values]


def test_a_large_tuple_set_is_read_unfilled_and_filled_when_its_value_is_read():
    item = _arcs(_dat())
    assert type(item.raw_value) is UnfilledTuples and not item.raw_value.filled and len(item.raw_value) == 0
    assert len(item.value) == 48 and item.raw_value.filled  # reading `value` made the 48 tuples
    assert item.value[0] == [0, 1, 0.5, 4] and item.value[0].span.line == 2


def test_the_model_compiles_to_the_same_ir_and_solution_with_the_set_kept_columnar(monkeypatch):
    from tests.ir_compare import assert_same_bits

    columnar = pyopl.compile_model(MOD, _dat())
    monkeypatch.setattr(convert, "_columnar_set", lambda v, t: None)
    plain = pyopl.compile_model(MOD, _dat())
    assert_same_bits(columnar.ir, plain.ir)
    assert list(columnar.ir.row_key) == list(plain.ir.row_key)  # the keys, made from the columns, are the tuples
    assert columnar.solve().objective == pytest.approx(plain.solve().objective)


def test_the_array_paths_never_make_the_tuples(monkeypatch):
    made = []
    real = OplSet._list

    def spy(self):
        if self._items is None:
            made.append(len(self))
        return real(self)

    monkeypatch.setattr(OplSet, "_list", spy)
    ir = pyopl.compile_model(MOD, _dat(40)).ir
    assert ir.num_cols == 160 and ir.num_rows == 200
    assert made == []  # no tuple of the 160 arcs was made to compile the model


@pytest.mark.parametrize("written,declared,expect", [
    ("-0", "float", ("float", struct.pack("d", 0.0))),       # the int 0 made a float: +0.0
    ("-0.0", "float", ("float", struct.pack("d", -0.0))),    # a float keeps its sign
    ("-0", "int", ("int", 0)),
    ("7", "float", ("float", struct.pack("d", 7.0))),
    ("2.5", "float", ("float", struct.pack("d", 2.5))),
])
def test_tuples_made_from_the_columns_are_those_made_tuple_by_tuple(written, declared, expect):
    rows = ",".join("<%d, %s>" % (i, written) for i in range(40))
    ttype = TupleType("T", ["k", "v"], ["int", declared])
    columnar = convert.convert_set(_arcs("Arcs = {%s};" % rows).raw_value, convert.SetOf(ttype), "Arcs", None)
    plain = convert.convert_set(_arcs("Arcs = {%s};" % rows).value, convert.SetOf(ttype), "Arcs", None)
    assert columnar._items is None and plain._items is not None
    assert _bits([columnar.item(3)]) == _bits([plain.item(3)])  # one tuple, the others still not made
    assert columnar._items is None
    assert _bits(columnar) == _bits(plain) and _bits(columnar)[0][1] == expect
    assert all(t.ttype is ttype for t in columnar)


def test_a_set_the_columnar_path_does_not_take_gives_the_usual_errors():
    rows = ",".join("<%d, %d.5>" % (i, i) for i in range(40))
    with pytest.raises(CompileError) as e:  # a float written for an `int` field
        pyopl.compile_model("tuple T { int k; int v; } {T} S = ...; dvar float x; minimize x;",
                            "S = {%s};" % rows)
    assert "S" in str(e.value) and "int" in str(e.value)
    dup = ",".join("<%d, %d>" % (i % 39, i % 39) for i in range(40))  # the last tuple repeats the first
    with pytest.raises(CompileError) as e:
        pyopl.compile_model("tuple T { int k; int v; } {T} S = ...; dvar float x; minimize x;", "S = {%s};" % dup)
    assert "OPL" in str(e.value) and "<0, 0>" in str(e.value) and "more than once" in str(e.value)


@pytest.mark.parametrize("n", [5, 40])  # read tuple by tuple, and in bulk
@pytest.mark.parametrize("decl,code", [("tuple T { int k; float v; }", "OPL0408"),
                                       ("tuple T { key int k; float v; }", "OPL0429")])
def test_a_repeated_tuple_or_key_points_at_the_second_one(n, decl, code):
    rows = ["<%d, %d.5>" % (i, i) for i in range(n)] + ["<3, %s>" % ("3.50" if code == "OPL0408" else "7.5")]
    diags = pyopl.check(decl + " {T} S = ...; dvar float x; minimize x;", "S = {\n%s};" % ",\n".join(rows))
    (d,) = diags.errors
    assert d.code == code and (d.line, d.column, d.end_column) == (n + 2, 1, len(rows[-1]) + 1)


def test_a_negative_in_an_unsigned_field_of_a_columnar_set_points_at_its_tuple():
    rows = ",\n".join("<%d, %d>" % (i, -4 if i == 33 else i) for i in range(40))
    with pytest.raises(CompileError) as e:
        pyopl.compile_model("tuple T { int k; int+ v; } {T} S = ...; dvar float x; minimize x;",
                            "S = {\n%s};" % rows)
    d = e.value.diagnostics[0]
    assert "-4" in d.message and d.span.line == 35  # the 34th tuple, on line 35 of the data


def test_keys_over_a_columnar_set_are_its_tuples_and_the_last_is_made_alone():
    ttype = TupleType("T", ["a", "b"], ["int", "float"])
    rows = ",".join("<%d, %d>" % (i, 2 * i) for i in range(40))
    s = convert.convert_set(_arcs("Arcs = {%s};" % rows).raw_value, convert.SetOf(ttype), "Arcs", None)
    keys = ProductKeys([s, pyopl.semantics.values.OplRange(1, 2)])
    assert len(keys) == 80 and keys[-1] == ((39, 78.0), 2) and s._items is None
    assert list(keys) == [(t, j) for t in s for j in (1, 2)]


def test_script_changes_to_a_columnar_set_are_seen_by_the_model():
    mod = ("tuple T { int k; float v; } {T} S = ...;\n"
           "execute { S.add(100, 1.5); }\n"
           "dvar float x[S] in 0..1; maximize sum(t in S) t.v * x[t];")
    rows = ",".join("<%d, %d.0>" % (i, i) for i in range(40))
    res = pyopl.solve(mod, "S = {%s};" % rows)
    assert res.objective == pytest.approx(sum(range(40)) + 1.5)


@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([0.0, -0.0, 1.5, 2.0, 1e300])), max_size=40))
def test_distinct_rows_is_the_dicts_verdict_even_when_every_hash_collides(rows):
    cols = [np.array([float(r[k]) for r in rows]) for k in range(2)]
    want = len(set(rows)) == len(rows)
    assert convert._distinct_rows(cols) == want
    saved = convert._HASH_MUL
    convert._HASH_MUL = np.uint64(0)  # every row hashes alike: the rows are compared field by field
    try:
        assert convert._distinct_rows(cols) == want
    finally:
        convert._HASH_MUL = saved


def test_distinct_rows_on_a_large_set():
    rng = np.random.default_rng(1)
    cols = [rng.integers(0, 300, 20000).astype(float), rng.integers(0, 300, 20000).astype(float)]
    pairs = list(zip(cols[0].tolist(), cols[1].tolist()))
    assert convert._distinct_rows(cols) == (len(set(pairs)) == len(pairs))
    a, b = np.arange(20000.0), np.arange(20000.0) * 0.5
    assert convert._distinct_rows([a, b])
    a[7] = a[9000]
    b[7] = b[9000]
    assert not convert._distinct_rows([a, b])
    assert math.isfinite(a[7])
