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


LABELLED = MODEL.replace("forall(m in Markets) sum", "forall(m in Markets) need: sum")


def test_a_misspelt_label_of_the_duals_and_slacks_gets_the_closest_one():
    """`result.duals["nead"]` raised a bare KeyError('nead') while `result["shp"]` named `ship`."""
    r = pyopl.compile_model(LABELLED).solve()
    for table in (r.duals, r.slacks):
        with pytest.raises(UnknownName) as e:
            table["nead"]
        assert str(e.value) == "no constraint label `nead`; did you mean `need`?"
    with pytest.raises(UnknownName, match="no decision `shp`; did you mean `ship`"):
        r.reduced_costs["shp"]
    assert r.duals["need"]["Chicago"] == 1.0  # (each market needs 1 unit at cost 1 per unit: dual 1)
    assert r.to_dict()["duals"] == {"need": {"NewYork": 1.0, "Chicago": 1.0}}


def test_a_mip_without_duals_says_why_a_label_has_none():
    r = pyopl.compile_model("dvar int x in 0..3;\nmaximize x;\nsubject to { c: x <= 2; }").solve()
    assert r.objective == 2 and r.duals == {}
    with pytest.raises(UnknownName, match=r"no constraint label `c`; the result has no duals \(a MIP has them "
                                          r"only when solved with `duals=True`"):
        r.duals["c"]


def test_to_dataframe_of_a_misspelt_name_gets_the_closest_one():
    pytest.importorskip("pandas")
    r = pyopl.compile_model(LABELLED).solve()
    with pytest.raises(UnknownName, match=r"no decision, dexpr or constraint label `shp`; did you mean `ship`\?"):
        r.to_dataframe("shp")
    with pytest.raises(UnknownName, match="`ship` has no dual values; it has variable, reduced_cost"):
        r.to_dataframe("ship", kind="dual")
    assert list(r.to_dataframe("need", kind="dual")["value"]) == [1.0, 1.0]
