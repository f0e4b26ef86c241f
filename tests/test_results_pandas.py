"""Results and data in the shapes Python users have: DataFrames with named index levels and
dual/slack/reduced-cost columns, lookup of keyed tuple indices by their key fields, data given
as pandas DataFrames/Series and NumPy arrays (checked like .dat data), HTML for notebooks."""
from __future__ import annotations

import numpy as np
import pytest

import pyopl

pd = pytest.importorskip("pandas")

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
TRANSPORT = (ROOT / "examples" / "transport.mod").read_text()
COST = [[4.0, 6.5, 2.5, 8.0], [7.0, 2.0, 5.5, 9.5], [3.0, 9.0, 7.5, 4.5]]
PLANTS, MARKETS = ["Lyon", "Porto", "Gdansk"], ["Berlin", "Madrid", "Milan", "Oslo"]


@pytest.fixture(scope="module")
def transport():
    return pyopl.solve(TRANSPORT, ROOT / "examples" / "transport.dat")


def test_dataframe_levels_are_named_after_the_index_sets(transport):
    ship = transport.to_dataframe("ship")
    assert list(ship.index.names) == ["Plants", "Markets"]
    assert ship.loc[("Lyon", "Milan"), "value"] == 220  # docs/cli.md's report of examples/transport
    assert list(transport.to_dataframe("ctDemand").index.names) == ["Markets"]  # forall(m in Markets)
    assert list(transport.to_dataframe("ctSupply").index.names) == ["Plants"]


def test_dataframe_has_dual_slack_and_reduced_cost_columns(transport):
    dem = transport.to_dataframe("ctDemand")
    assert list(dem.columns) == ["dual", "slack"]
    # duals of the demand rows = delivered cost of the cheapest route at the optimum (by hand:
    # Gdansk's supply is binding with dual -1; Berlin 3+1, Madrid 2, Milan 2.5, Oslo 4.5+1)
    assert dem["dual"].to_dict() == pytest.approx({"Berlin": 4.0, "Madrid": 2.0, "Milan": 2.5, "Oslo": 5.5})
    assert (dem["slack"] == 0).all()
    ship = transport.to_dataframe("ship")
    assert list(ship.columns) == ["value", "reduced_cost"]
    # reduced cost of Lyon->Madrid: cost 6.5 - (dual Madrid 2 - dual Lyon 0) = 4.5
    assert ship.loc[("Lyon", "Madrid"), "reduced_cost"] == pytest.approx(4.5)
    assert transport.to_dataframe("ctSupply").loc["Lyon", "slack"] == pytest.approx(100.0)


def test_repeated_and_unnamed_index_sets():
    r = pyopl.solve("{string} S = {\"a\", \"b\"};\ndvar float+ x[S][S];\ndvar float+ y[i in 1..2];\n"
                    "dvar float+ z[1..2];\nminimize sum(s in S, t in S) x[s][t] + sum(i in 1..2) (y[i] + z[i]);\n"
                    "subject to { forall(s in S, t in S) c: x[s][t] >= 1; }")
    assert list(r.to_dataframe("x").index.names) == ["S", "S_2"]
    assert r.to_dataframe("y").index.name == "i" and r.to_dataframe("z").index.name is None
    assert list(r.to_dataframe("c").index.names) == ["S", "S_2"]


KEYED = """
tuple Route { key string src; key string dst; float capacity; }
{Route} Routes = ...;
dvar float+ flow[Routes];
dvar float+ extra[Routes][1..2];
maximize sum(r in Routes) (flow[r] + sum(k in 1..2) k * extra[r][k]);
subject to {
  forall(r in Routes) ctCap: flow[r] <= r.capacity;
  forall(r in Routes, k in 1..2) ctExtra: extra[r][k] <= k;
}
"""


def test_keyed_tuple_index_is_found_by_its_key_fields():
    r = pyopl.solve(KEYED, {"Routes": [("s", "a", 5.0), ("t", "b", 7.5)]})
    assert r["flow"][("s", "a")] == 5.0 and r["flow"][("t", "b")] == 7.5  # as OPL's flow[<"s","a">]
    assert r["flow"][("s", "a", 5.0)] == 5.0  # the whole tuple still works
    assert r["extra"][("t", "b"), 2] == 2.0
    assert r.duals["ctCap"][("t", "b")] == pytest.approx(1.0)
    with pytest.raises(KeyError):
        r["flow"][("s", "b")]


def test_data_from_dataframes_series_and_numpy_gives_the_dat_result(transport):
    cost = pd.DataFrame(COST, index=pd.Index(PLANTS, name="Plants"), columns=MARKETS)
    data = {"Plants": cost.index, "Markets": cost.columns,
            "supply": pd.Series([400, 300, 350], index=PLANTS),
            "demand": pd.Series({"Oslo": 180, "Berlin": 250, "Madrid": 200, "Milan": 220}),  # by key, any order
            "cost": cost}
    r = pyopl.solve(TRANSPORT, data)
    assert r.objective == transport.objective == 2590
    assert r.to_dataframe("ship")["value"].to_dict() == transport.to_dataframe("ship")["value"].to_dict()
    long_cost = cost.stack()  # a Series with a (Plants, Markets) MultiIndex
    r2 = pyopl.solve(TRANSPORT, {**data, "cost": long_cost, "supply": np.array([400, 300, 350]),
                                 "demand": np.array([250, 200, 220, 180], dtype=np.int64)})
    assert r2.objective == 2590


def test_tuple_set_from_a_dataframe_by_column_name():
    frame = pd.DataFrame({"capacity": [5.0, 7.5], "dst": ["a", "b"], "src": ["s", "t"]})  # columns in any order
    r = pyopl.solve(KEYED, {"Routes": frame})
    assert r["flow"][("t", "b")] == 7.5 and r.objective == pytest.approx(5.0 + 7.5 + 2 * (1 + 2 * 2))
    indexed = frame.set_index(["src", "dst"])  # named index levels are fields too
    assert pyopl.solve(KEYED, {"Routes": indexed}).objective == r.objective


def _codes(diags):
    return [d.code for d in diags if d.is_error]


def test_dataframe_data_gets_the_dat_diagnostics():
    cost = pd.DataFrame(COST, index=PLANTS, columns=MARKETS)
    base = {"Plants": PLANTS, "Markets": MARKETS, "supply": [400, 300, 350], "demand": [250, 200, 220, 180]}
    missing = cost.copy()
    missing.loc["Porto", "Oslo"] = float("nan")
    d = pyopl.check(TRANSPORT, {**base, "cost": missing})
    assert _codes(d) == ["OPL0407"] and 'has no value for "Oslo"' in d.errors[0].message  # as a .dat with a hole
    d = pyopl.check(TRANSPORT, {**base, "cost": cost.rename(index={"Porto": "Braga"})})
    assert _codes(d) == ["OPL0406"] and '"Braga"' in d.errors[0].message  # a key outside the index set
    d = pyopl.check(TRANSPORT, {**base, "cost": pd.Series([1.0, 2.0, 3.0], index=PLANTS)})
    assert _codes(d) == ["OPL0405"] and "index level" in d.errors[0].message
    d = pyopl.check(KEYED, {"Routes": pd.DataFrame({"src": ["s"], "dst": ["a"], "cap": [1.0]})})
    assert _codes(d) and "cap" in d.errors[0].message  # an unknown column names the field
    d = pyopl.check("int n = ...;\ndvar float+ x;\nminimize x;", {"n": pd.Series([1, 2])})
    assert _codes(d) == ["OPL0403"] and "pandas Series" in d.errors[0].message


def test_a_label_given_twice_is_the_dat_duplicate_key_error():
    # a repeated row, column or Series label would silently keep its last value (310 instead of the
    # sums of one row each); a .dat file gets OPL0428 for the same data
    cost = pd.DataFrame(COST, index=PLANTS, columns=MARKETS)
    base = {"Plants": PLANTS, "Markets": MARKETS, "supply": [400, 300, 350], "demand": [250, 200, 220, 180]}
    again = pd.concat([cost, cost.iloc[:1] * 100])
    d = pyopl.check(TRANSPORT, {**base, "cost": again})
    assert _codes(d) == ["OPL0428"]
    assert d.errors[0].message == 'the key "%s" is given twice in the index of the DataFrame for `cost`' % PLANTS[0]
    cols = cost.set_axis([MARKETS[0]] + MARKETS[1:-1] + [MARKETS[0]], axis=1)
    d = pyopl.check(TRANSPORT, {**base, "cost": cols})
    assert _codes(d) == ["OPL0428"] and "in the columns of the DataFrame" in d.errors[0].message
    supply = pd.Series([400, 300, 350, 1], index=PLANTS + PLANTS[1:2])
    d = pyopl.check(TRANSPORT, {**base, "cost": cost, "supply": supply})
    assert _codes(d) == ["OPL0428"] and d.errors[0].message == (
        'the key "%s" is given twice in the index of the Series for `supply`' % PLANTS[1])


def test_html_for_notebooks_is_escaped_and_complete(transport):
    html = transport._repr_html_()
    assert "<table" in html and "optimal" in html and "2590" in html
    assert "Plants, Markets" in html and "&quot;Lyon&quot;" in html  # level names; OPL keys escaped
    diags = pyopl.check("dvar float x;\nminimize x + <y>;")
    html = diags._repr_html_()
    assert "<td" in html and all(d.code in html for d in diags) and "<y>" not in html
    assert pyopl.check("dvar float+ x;\nminimize x;")._repr_html_() == "<p>no problems found</p>"


TUPLE_MODEL = """tuple conn { string o; string d; }
tuple route { string p; conn e; }
{route} Routes = {<"p1", <"a", "b">>, <"p2", <"b", "c">>};
range T = 1..2;
dvar float+ x[Routes][T] in 1..10;
minimize sum(r in Routes, t in T) x[r][t];
subject to { forall(r in Routes, t in T) x[r][t] >= t; }
"""


def test_a_tuple_index_becomes_one_level_per_field_named_after_the_fields():
    pytest.importorskip("pandas")
    r = pyopl.compile_model(TUPLE_MODEL).solve()
    df = r.to_dataframe("x")
    assert list(df.index.names) == ["p", "e.o", "e.d", "T"]
    # by hand: each x[r][t] sits at its lower bound max(1, t)
    assert df.loc[("p2", "b", "c", 2), "value"] == 2 and df.loc[("p1", "a", "b", 1), "value"] == 1


def test_csv_gives_a_tuple_index_one_column_per_field():  # (float variable: 2.0)
    r = pyopl.compile_model(TUPLE_MODEL).solve()
    lines = r.to_csv().splitlines()
    assert lines[0] == "kind,name,index,index_1,index_2,index_3,index_4,value"
    assert 'variable,x,"[<""p2"",<""b"",""c"">>][2]",p2,b,c,2,2.0' in lines
