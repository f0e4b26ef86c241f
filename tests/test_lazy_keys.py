"""Key tuples made only when asked: ProductKeys, KeyList, flat arrays and consecutive dvar blocks."""
import itertools

import pytest

import pyopl
from pyopl.data import convert
from pyopl.lowering.model.instance import KeyList
from pyopl.lowering.forms.symbols import VarArray
from pyopl.semantics.values import OplRange, OplSet, ProductKeys

DIMS = [OplSet(["b", "a.x", "c d"], "string"), OplRange(0, 1), OplSet([7, 3], "int")]


def test_product_keys_behave_as_the_list_of_keys():
    keys = ProductKeys(DIMS)
    expected = list(itertools.product(["b", "a.x", "c d"], [0, 1], [7, 3]))
    assert len(keys) == 12
    assert list(keys) == expected and keys == expected
    assert [keys[k] for k in range(12)] == expected
    assert keys[-1] == ("c d", 1, 3) and keys[3:6] == expected[3:6]
    with pytest.raises(IndexError):
        keys[12]
    assert ProductKeys([]) == [()] and ProductKeys([OplRange(1, 0)]) == []


def test_key_list_mixes_single_keys_and_blocks():
    kl = KeyList()
    kl.append(())
    kl.extend(ProductKeys([OplRange(1, 3)]))
    kl.append(("aux",))
    kl.extend([("p",), ("q",)])
    kl.extend(ProductKeys([OplRange(1, 0)]))  # an empty block adds nothing
    expected = [(), (1,), (2,), (3,), ("aux",), ("p",), ("q",)]
    assert len(kl) == 7 and list(kl) == expected
    assert [kl[j] for j in range(7)] == expected and kl[-1] == ("q",) and kl[2:5] == expected[2:5]
    with pytest.raises(IndexError):
        kl[7]


def test_consecutive_var_array_builds_the_same_cols_on_demand():
    v = VarArray("x", DIMS, None, None, first=5)
    assert v.cols == {k: 5 + j for j, k in enumerate(itertools.product(*[list(d) for d in DIMS]))}


def test_plain_number_arrays_stay_flat_until_keys_are_needed():
    dims = [OplRange(1, 2), OplSet(["p", "q", "r"], "string")]
    arr = convert.convert_array([[1, 2, 3], [4, 5.5, 6]], "float", dims, "a", None)
    assert arr.flat == [1.0, 2.0, 3.0, 4.0, 5.5, 6.0] and arr._data is None
    assert arr.data == {(1, "p"): 1.0, (1, "q"): 2.0, (1, "r"): 3.0, (2, "p"): 4.0, (2, "q"): 5.5, (2, "r"): 6.0}
    assert all(type(v) is float for v in arr.data.values())
    # anything but an exact positional shape goes element by element, with its diagnostics
    with pytest.raises(Exception, match="expects 3 values"):
        convert.convert_array([[1, 2], [3, 4, 5]], "int", dims, "a", None)


def test_large_block_model_reports_keys_of_its_columns():
    mod = """
    range I = 1..40; range J = 1..30;
    float c[I][J] = ...;
    dvar float+ x[I][J];
    minimize sum(i in I, j in J) c[i][j] * x[i][j];
    subject to { forall(i in I) row: sum(j in J) x[i][j] >= i; }
    """
    dat = "c = [%s];" % ", ".join("[%s]" % ", ".join(str((i * 7 + j * 3) % 11 + 1) for j in range(1, 31))
                                   for i in range(1, 41))
    m = pyopl.compile_model(mod, data=dat)
    ir = m.ir
    assert ir.col_key[0] == (1, 1) and ir.col_key[31] == (2, 2) and ir.col_key[-1] == (40, 30)
    assert ir.column_label(31) == "x[2][2]"
    res = m.solve()
    # each row i buys i units at the cheapest c[i][j] = 1 (every row has one)
    assert res.status == "optimal" and res.objective == pytest.approx(sum(range(1, 41)))
    assert sum(res.variables["x"][2, j] for j in range(1, 31)) == pytest.approx(2.0)
