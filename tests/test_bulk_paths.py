"""The bulk paths of data conversion, dvar allocation and indexing give what the one-by-one paths give."""
import pytest

import pyopl
from pyopl.data import convert
from pyopl.lowering.forms.errors import EvalError
from pyopl.semantics.values import OplRange, OplSet

SPAN = None


def _both(value, elem, dims, monkeypatch):
    fast = convert.convert_array(value, elem, dims, "a", SPAN)
    with monkeypatch.context() as m:
        m.setattr(convert, "_plain_numbers", lambda v, e: False)  # no bulk row insert
        m.setattr(convert, "_flat_numbers", lambda v, e, d: None)  # no flat array
        slow = convert.convert_array(value, elem, dims, "a", SPAN)
    return fast, slow


@pytest.mark.parametrize("elem,value", [
    ("float", [[1, 2.5, -0.0], [3, 4, 5e300]]),
    ("float", [[1.5, 2.5, -0.0], [3.0, 4.25, 1e300]]),  # floats only: kept as they are
    ("int", [[1, 2, 3], [4, True, 6]]),  # a boolean: element by element
    ("int", [[1, 2, 3], [4, 5, 6]]),
    ("int", [[1, 2.0, 3], [4, 5, 6]]),  # a float row: element by element (2.0 -> 2)
])
def test_numeric_rows_same_values_types_and_order(elem, value, monkeypatch):
    dims = [OplSet(["p", "q"], "string"), OplRange(1, 3)]
    fast, slow = _both(value, elem, dims, monkeypatch)
    assert list(fast.data.items()) == list(slow.data.items())
    assert [type(v) for v in fast.data.values()] == [type(v) for v in slow.data.values()]
    assert [type(v) for v in fast.data.values()] == [float if elem == "float" else int] * 6
    plain = (int, float) if elem == "float" else (int,)
    assert (fast.flat is not None) == all(type(x) in plain for r in value for x in r)


@pytest.mark.parametrize("elem,value", [("float", [[1, "x", 3], [4, 5, 6]]), ("int", [[1, 2.5, 3], [4, 5, 6]]),
                                        ("float", [[1, True, 3], [4, 5, 6]]), ("float", [[1, 2], [4, 5, 6]])])
def test_bad_rows_same_diagnostic(elem, value, monkeypatch):
    dims = [OplRange(1, 2), OplRange(1, 3)]
    msgs = []
    for plain, flat in ((convert._plain_numbers, convert._flat_numbers), (lambda v, e: False, lambda v, e, d: None)):
        with monkeypatch.context() as m:
            m.setattr(convert, "_plain_numbers", plain)
            m.setattr(convert, "_flat_numbers", flat)
            try:
                convert.convert_array(value, elem, dims, "a", SPAN)
                msgs.append(None)
            except EvalError as e:
                msgs.append((e.slug, str(e)))
    assert msgs[0] == msgs[1]
    assert (msgs[0] is None) == (elem == "float" and value[0][1] is True)


def test_bulk_dvars_and_direct_indexing_solve():
    # x: bulk columns with a constant domain; y: per-element domain; cost[i][j] and x[i][j] indexed directly
    mod = """
    range I = 1..3; range J = 1..2;
    float cost[I][J] = [[1, 2], [3, 1], [2, 2]];
    dvar int x[I][J] in 0..5;
    dvar float+ y[i in I] in 0..i;
    minimize sum(i in I, j in J) cost[i][j] * x[i][j] - sum(i in I) y[i];
    subject to {
      forall(i in I) ct: x[i][1] + x[i][2] >= 2;
      forall(i in I) y[i] <= x[i][2];
    }
    """
    m = pyopl.compile_model(mod)
    assert list(m.ir.col_upper) == [5.0] * 6 + [1.0, 2.0, 3.0]
    r = m.solve()
    # each i independently: min over x1 + x2 >= 2 of c1 x1 + c2 x2 - min(i, x2); computed by hand:
    # i=1: c=(1,2): x=(1,1) -> 1+2-1 = 2 ; x=(2,0) -> 2 ; x=(0,2) -> 4-1 = 3  => 2
    # i=2: c=(3,1): x=(0,2) -> 2-2 = 0; x=(0,3) -> 3-2 = 1 => 0
    # i=3: c=(2,2): x=(0,2) -> 4-2 = 2; x=(0,3) -> 6-3 = 3 => 2
    assert r.objective == pytest.approx(4.0)


@pytest.mark.parametrize("data", [
    "Arcs = {<1, 2, 3.5, \"a\">, <2, 3, 4, \"b c\">, <3, 1, -1e3, \"\">};",  # plain: read a field at a time
    "Arcs = {<1, 2, 3.5, \"a\">, <2.0, 3, 4, \"b\">};",  # 2.0 for an int field: converted item by item
    "Arcs = {<1, 2, 3.5, \"a\">, <2, 3, 4>};",  # a short tuple: the arity diagnostic
    "Arcs = {<1, 2, 3.5, 7>};",  # a number for a string field: the type diagnostic
    "Arcs = {<1, 2, 3.5, \"a\">, <1, 2, 3.5, \"a\">};",  # a duplicate element
    "Arcs = {};",
])
def test_plain_tuple_sets_same_as_item_by_item(data, monkeypatch):
    mod = 'tuple Arc { int src; int dst; float cost; string tag; } {Arc} Arcs = ...;\n' \
          'dvar float+ f[Arcs]; minimize sum(a in Arcs) a.cost * f[a]; subject to { forall(a in Arcs) f[a] <= a.src; }'
    results = []
    for plain in (convert._plain_tuples, lambda v, t: None):
        with monkeypatch.context() as m:
            m.setattr(convert, "_plain_tuples", plain)
            diags = pyopl.check(mod, data)
            try:
                ir = pyopl.compile_model(mod, data).ir
                results.append((repr(ir.col_key[:]), [type(x).__name__ for k in ir.col_key for x in k[0]],
                                ir.obj.tolist(), [(d.code, d.message, d.span) for d in diags]))
            except pyopl.CompileError:
                results.append(("error", [(d.code, d.message, d.span) for d in diags]))
    assert results[0] == results[1]
    if "-1e3" in data:
        assert results[0][1][:4] == ["int", "int", "float", "str"] and results[0][2] == [3.5, 4.0, -1000.0]
