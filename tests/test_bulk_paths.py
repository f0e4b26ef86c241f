"""The bulk paths of data conversion, dvar allocation and indexing give what the one-by-one paths give."""
import pytest

import pyopl
from pyopl.data import convert
from pyopl.lowering.errors import EvalError
from pyopl.semantics.values import OplRange, OplSet

SPAN = None


def _both(value, elem, dims, monkeypatch):
    fast = convert.convert_array(value, elem, dims, "a", SPAN)
    with monkeypatch.context() as m:
        m.setattr(convert, "_plain_numbers", lambda v, e: False)
        slow = convert.convert_array(value, elem, dims, "a", SPAN)
    return fast, slow


@pytest.mark.parametrize("elem,value", [
    ("float", [[1, 2.5, -0.0], [3, 4, 5e300]]),
    ("int", [[1, 2, 3], [4, 5, 6]]),
    ("int", [[1, 2.0, 3], [4, 5, 6]]),  # a float row: element by element (2.0 -> 2)
])
def test_numeric_rows_same_values_types_and_order(elem, value, monkeypatch):
    dims = [OplSet(["p", "q"], "string"), OplRange(1, 3)]
    fast, slow = _both(value, elem, dims, monkeypatch)
    assert list(fast.data.items()) == list(slow.data.items())
    assert [type(v) for v in fast.data.values()] == [type(v) for v in slow.data.values()]
    assert [type(v) for v in fast.data.values()] == [float if elem == "float" else int] * 6


@pytest.mark.parametrize("elem,value", [("float", [[1, "x", 3], [4, 5, 6]]), ("int", [[1, 2.5, 3], [4, 5, 6]]),
                                        ("float", [[1, True, 3], [4, 5, 6]]), ("float", [[1, 2], [4, 5, 6]])])
def test_bad_rows_same_diagnostic(elem, value, monkeypatch):
    dims = [OplRange(1, 2), OplRange(1, 3)]
    msgs = []
    for plain in (convert._plain_numbers, lambda v, e: False):
        with monkeypatch.context() as m:
            m.setattr(convert, "_plain_numbers", plain)
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
