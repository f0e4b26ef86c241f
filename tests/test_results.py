"""Results in the user's terms: dict/JSON (the CLI contract keys), CSV, pandas (optional), and the text report."""
from __future__ import annotations

import csv
import io
import json
import sys

import pytest

import pyopl
from pyopl.results.report import text_report

TEXT = """
{string} Plants = {"Seattle", "Denver"};
{string} Markets = {"NewYork", "Chicago"};
tuple Lane { string o; string d; }
{Lane} Lanes = {<"Seattle","NewYork">, <"Denver","Chicago">};
float cost[Plants][Markets] = [[2, 3], [4, 1]];
dvar float+ ship[Plants][Markets];
dvar float+ use[Lanes];
dexpr float total = sum(p in Plants, m in Markets) ship[p][m];
minimize sum(p in Plants, m in Markets) cost[p][m] * ship[p][m] + sum(l in Lanes) use[l];
subject to {
  forall(m in Markets) ctDemand: sum(p in Plants) ship[p][m] >= 10;
  forall(l in Lanes) ctLane: use[l] >= 1;
}
"""
# by hand: NewYork from Seattle (2), Chicago from Denver (1): 10*2 + 10*1 + 1 + 1 = 32


@pytest.fixture(scope="module")
def result():
    return pyopl.compile_model(TEXT).solve()


def test_values_are_keyed_by_opl_indices_including_tuples(result):
    assert result.status == "optimal" and result.objective == pytest.approx(32.0)
    assert result["ship"]["Seattle", "NewYork"] == 10.0 and result["ship"]["Seattle"]["NewYork"] == 10.0
    assert result["use"][("Seattle", "NewYork")] == 1.0
    assert result["total"] == 20.0
    assert result.duals["ctDemand"]["NewYork"] == pytest.approx(2.0)


def test_to_dict_keeps_the_cli_contract_and_is_json(result):
    d = json.loads(result.to_json())
    assert {"status", "objective", "variables", "solve_time_s"} <= set(d)
    assert d["variables"]["ship"]["Seattle"]["NewYork"] == 10.0
    assert d["variables"]["use"]["<\"Denver\",\"Chicago\">"] == 1.0
    assert d["dexprs"]["total"] == 20.0
    assert d["duals"]["ctDemand"]["Chicago"] == pytest.approx(1.0) and "slacks" in d and "reduced_costs" in d
    assert d["iterations"] >= 0


def test_csv_is_a_long_table(result, tmp_path):
    path = tmp_path / "r.csv"
    text = result.to_csv(path)
    assert path.read_text() == text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["kind", "name", "index", "index_1", "index_2", "value"]  # one column per index
    got = {(r["kind"], r["name"], r["index"]): float(r["value"]) for r in rows}
    ship = {(r["index_1"], r["index_2"]): float(r["value"]) for r in rows if r["kind"] == "variable" and r["name"] == "ship"}
    assert ship[("Seattle", "NewYork")] == 10.0 and ship[("Denver", "NewYork")] == 0.0
    assert [(r["index_1"], r["index_2"]) for r in rows if r["name"] == "use" and r["kind"] == "variable"] == [
        ("Seattle", "NewYork"), ("Denver", "Chicago")]  # a tuple index: one column per field
    assert [(r["index_1"], r["index_2"]) for r in rows if r["name"] == "total"] == [("", "")]
    assert got[("variable", "ship", '["Seattle"]["NewYork"]')] == 10.0
    assert got[("variable", "use", '[<"Denver","Chicago">]')] == 1.0
    assert got[("dexpr", "total", "")] == 20.0
    assert got[("dual", "ctDemand", '["NewYork"]')] == pytest.approx(2.0)
    assert ("slack", "ctLane", '[<"Seattle","NewYork">]') in got


def test_dataframes_when_pandas_is_installed(result):
    pd = pytest.importorskip("pandas")
    df = result.to_dataframe()
    assert list(df.columns) == ["kind", "name", "index", "value"] and len(df) == len(result.rows())
    ship = result.to_dataframe("ship")
    assert isinstance(ship.index, pd.MultiIndex) and ship.loc[("Denver", "Chicago"), "value"] == 10.0
    duals = result.to_dataframe("ctDemand", kind="dual")
    assert duals.loc["NewYork", "value"] == pytest.approx(2.0)
    assert result.to_dataframe("total")["value"].tolist() == [20.0]


def test_dataframe_without_pandas_says_how_to_get_it(result, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        result.to_dataframe()
    assert result.to_csv()  # CSV needs nothing


def test_text_report(result):
    text = text_report(result)
    assert text.splitlines()[:2] == ["status: optimal", "objective: 32"]
    assert '  ship["Seattle"]["NewYork"] = 10' in text and "  total = 20" in text
    assert 'ctDemand["NewYork"]' in text and "dual" in text and "slack" in text
    assert "iterations" in text


def test_cli_writes_csv(tmp_path):
    import subprocess

    mod = tmp_path / "m.mod"
    mod.write_text(TEXT)
    out = tmp_path / "out.csv"
    p = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(mod), "--format", "json", "--csv", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert json.loads(p.stdout)["objective"] == pytest.approx(32.0)
    assert out.read_text().startswith("kind,name,index,index_1,index_2,value\n")


def test_a_model_without_decisions_reports_no_negative_iteration_count():
    """Before: `solve time: 0.017 s (highs, -1 iterations)` for a model of data only (HiGHS counts -1
    when it ran no simplex). The objective is the constant 3 + 4 = 7."""
    r = pyopl.compile_model("int a = 3;\nminimize a + 4;").solve(solver="highs")
    assert r.status == "optimal" and r.objective == 7
    assert r.iterations == 0 and "-1 iterations" not in text_report(r)

