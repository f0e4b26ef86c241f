"""Columns of numeric tuple sets (data/fastpath.py ``_numpy_columns``, ``OplSet.column``): NumPy's
one-pass read gives the numbers, bit for bit and of the same Python types, that reading the tokens
one by one gives; the columns are dropped once a script changes the set; positions hashed late equal
positions hashed at once; distinctness checked on the columns equals the dict's verdict."""
from __future__ import annotations

import math
import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import examples

import pyopl
from pyopl.data import convert, fastpath
from pyopl.data.fastpath import parse_data_fast
from pyopl.diagnostics.reporter import Reporter
from pyopl.semantics.values import OplSet, OplTuple
from pyopl.syntax.number_literals import MAYBE_TOO_LARGE

COUNT = {"columns": 0}

_INT = st.integers(-(2 ** 60), 2 ** 60).map(str) | st.integers(-99, 99).map(lambda v: ("+" if v > 0 else "") + str(v))
_DOUBLE = st.integers(0, 2 ** 64 - 1).map(lambda b: struct.unpack("d", struct.pack("Q", b))[0]).filter(math.isfinite)
_FLOAT = (_DOUBLE.map(repr) | st.floats(-1e6, 1e6, allow_nan=False).map(repr)
          | st.tuples(st.integers(0, 10 ** 20), st.integers(0, 10 ** 25), st.integers(-340, 330)).map(
              lambda t: "%d.%de%d" % t)
          | st.sampled_from(["5e-324", "2.4703282292062327e-324", "1e400", "-1e400", "-0.0", ".5", "5.", "0.1",
                             "1.7976931348623158e308", "9007199254740993.0"]))


def _read(text: str, monkeypatch=None, numpy: bool = True):
    """The tuple values of ``Arcs`` as (type name, bits) per number, and its columns."""
    if not numpy:
        monkeypatch.setattr(fastpath, "_numpy_columns", lambda *a: None)
    item, = [i for i in parse_data_fast(text, "d.dat", Reporter()) if getattr(i, "name", None) == "Arcs"]
    if not numpy:
        monkeypatch.undo()
    vals = [[(type(x).__name__, struct.pack("d", x) if isinstance(x, float) else x) for x in t] for t in item.value]
    return vals, getattr(item.value, "columns", None)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["i", "f"]), min_size=1, max_size=4), st.data())
def test_numpys_read_equals_reading_token_by_token(monkeypatch, kinds, data):
    rows = data.draw(st.lists(st.tuples(*[_INT if k == "i" else _FLOAT for k in kinds]), min_size=1, max_size=30))
    text = "Arcs = {%s};\n" % ",\n ".join("<%s>" % ", ".join(r) for r in rows)
    fast, cols = _read(text)
    slow, none = _read(text, monkeypatch, numpy=False)
    assert fast == slow and none is None
    big = any(k == "i" and abs(int(r[j])) >= 2 ** 53 for r in rows for j, k in enumerate(kinds))
    # an int column reaching 2**53 is read token by token; a text with a number that may lie past the
    # double range (an exponent of 200 or more) is read by the full parser, which reports it in place
    big = big or MAYBE_TOO_LARGE.search(text) is not None
    assert (cols is None) == big
    if cols is not None:
        COUNT["columns"] += 1
        for j, col in enumerate(cols):
            assert col.tobytes() == np.array([float(r[j]) for r in rows]).tobytes()
    print("columns fuzz: %d examples read by NumPy" % COUNT["columns"])


def test_a_number_numpy_would_misread_goes_token_by_token():
    text = "Arcs = {<1, 2.5>, <2, 3.5>};\n"
    vals, cols = _read(text)
    assert cols is not None and [c.tolist() for c in cols] == [[1.0, 2.0], [2.5, 3.5]]
    for bad in ("1.5e", "1..2", "--1"):
        assert fastpath._numpy_columns("1 %s" % bad, np.array([2]), np.array([False, True])) is None


MOD = """
tuple Arc { int src; int dst; float cost; }
{Arc} Arcs = ...;
dvar float+ flow[Arcs];
minimize sum(a in Arcs) a.cost * flow[a];
subject to { forall(v in 1..3) sum(a in Arcs : a.src == v) flow[a] >= 1; }
"""


def test_the_columns_reach_the_set_and_are_dropped_when_a_script_changes_it():
    items = convert.convert_set(
        parse_data_fast("Arcs = {<1, 2, 0.5>, <2, 3, 1.0>, <3, 1, 2.5>};", "d.dat", Reporter())[0].value,
        convert.SetOf(_arc_type()), "Arcs", None)
    assert isinstance(items, OplSet) and items.column(2)[0].tolist() == [0.5, 1.0, 2.5]
    assert items.column(0)[1] is True and items.column(2)[1] is False  # ints / floats
    items.add(OplTuple([4, 1, 3.0], items.elem_type))  # (a script's `add`)
    assert items.column(0) is None  # four tuples now: the three-number columns are not the set's
    items.replace(list(items)[:3])
    assert items.column(0) is None  # a new list, even of the same length


def _arc_type():
    from pyopl.semantics.values import TupleType

    return TupleType("Arc", ["src", "dst", "cost"], ["int", "int", "float"])


def test_the_model_compiles_the_same_with_and_without_the_columns(monkeypatch):
    dat = "Arcs = {%s};" % ", ".join("<%d, %d, %s>" % (i % 3 + 1, (i * 7) % 3 + 1, repr(i / 7)) for i in range(40))
    a = pyopl.compile_model(MOD, dat).ir
    monkeypatch.setattr(fastpath, "_numpy_columns", lambda *x: None)
    b = pyopl.compile_model(MOD, dat).ir
    from tests.ir_compare import assert_same_bits

    assert_same_bits(a, b)


@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([0.0, -0.0, 1.5, 2.0])), max_size=12))
def test_distinct_on_columns_is_the_dicts_verdict(rows):
    cols = [np.array([float(r[k]) for r in rows]) for k in range(2)]
    assert convert._distinct_rows(cols) == (len(set(rows)) == len(rows))


@given(st.lists(st.integers(-5, 5) | st.sampled_from(["a", "b", 2.5]), unique=True, max_size=10),
       st.integers(-6, 6) | st.sampled_from(["a", "c", 2.5, 3.0, [1]]))
def test_positions_hashed_late_equal_positions_hashed_at_once(items, probe):
    late, now = OplSet.distinct(list(items), None, index_now=False), OplSet(items)
    assert (probe in late) == (probe in now)
    assert late.positions() == now.positions()
    if probe in now:
        assert late.ord(probe) == now.ord(probe)
