"""The Python API's look-up errors name what exists (issue 30: a bare KeyError before).  They are
KeyError subclasses, so code that catches KeyError keeps working."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.results.lookup_errors import UnknownKey, UnknownName

MODEL = """{string} Plants = {"Seattle", "Denver"};
{string} Markets = {"NewYork", "Chicago"};
dvar float+ ship[Plants][Markets];
dexpr float total = sum(p in Plants, m in Markets) ship[p][m];
minimize total;
subject to { forall(m in Markets) sum(p in Plants) ship[p][m] >= 1; }
"""


@pytest.fixture(scope="module")
def result():
    return pyopl.compile_model(MODEL).solve()


def test_a_misspelt_name_gets_the_closest_one(result):
    with pytest.raises(UnknownName) as e:
        result["shp"]
    assert isinstance(e.value, KeyError)
    assert str(e.value) == "no decision or dexpr `shp`; did you mean `ship`?"


def test_a_name_far_from_any_lists_the_names(result):
    with pytest.raises(KeyError) as e:
        result["qqqqqq"]
    assert "`ship`" in str(e.value) and "`total`" in str(e.value)


def test_a_wrong_key_names_the_index_set_and_the_closest_value(result):
    with pytest.raises(UnknownKey) as e:
        result["ship"]["Seatle", "NewYork"]
    msg = str(e.value)
    assert "`ship`" in msg and "index 1 (over `Plants`)" in msg and 'did you mean "Seattle"?' in msg


def test_a_wrong_key_one_level_down_lists_the_values(result):
    with pytest.raises(UnknownKey) as e:
        result["ship"]["Denver"]["Boston"]
    msg = str(e.value)
    assert msg.startswith('`ship["Denver"]` has no element ["Boston"]')
    assert "over `Markets`" in msg and '"NewYork", "Chicago"' in msg


def test_too_many_indices(result):
    with pytest.raises(UnknownKey, match="has 2 indices"):
        result["ship"]["Denver", "Chicago", 3]


def test_name_in_result_says_whether_the_model_has_it(result):
    """`"ship" in result` raised UnknownName "no decision or dexpr `0`" (Python's fallback tried
    result[0]); the module's promise is that `name in result` style code works."""
    assert "ship" in result and "total" in result
    assert "shp" not in result and 0 not in result


def test_a_wrong_key_of_a_dual_reads_as_english():
    r = pyopl.compile_model(MODEL.replace("forall(m in Markets) sum", "forall(m in Markets) need: sum")).solve()
    with pytest.raises(UnknownKey) as e:
        r.duals["need"]["Boston"]
    assert str(e.value).startswith('this name has no element ["Boston"]')  # (was "these values has")
