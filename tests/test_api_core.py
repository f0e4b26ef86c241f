"""The Python API: sources as paths, text or dicts; results keyed by OPL indices; errors as data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import pyopl

ROOT = Path(__file__).resolve().parents[1]

MODEL = """
{string} Plants = ...;
{string} Markets = ...;
float supply[Plants] = ...;
float demand[Markets] = ...;
float cost[Plants][Markets] = ...;
dvar float+ ship[Plants][Markets];
minimize sum(p in Plants, m in Markets) cost[p][m] * ship[p][m];
subject to {
  forall(p in Plants) ctSupply: sum(m in Markets) ship[p][m] <= supply[p];
  forall(m in Markets) ctDemand: sum(p in Plants) ship[p][m] >= demand[m];
}
"""
DATA = {"Plants": ["A", "B"], "Markets": ["X", "Y"], "supply": [10, 10], "demand": [6, 8],
        "cost": [[1, 4], [3, 2]]}


def test_data_as_python_dict_and_indexed_result():
    r = pyopl.compile_model(MODEL, DATA).solve()
    assert r.status == "optimal"
    assert r.objective == pytest.approx(6 * 1 + 8 * 2)
    assert r["ship"]["A", "X"] == pytest.approx(6) and r["ship"]["B"]["Y"] == pytest.approx(8)


def test_data_as_dat_text_gives_the_same_result():
    dat = 'Plants = {"A" "B"}; Markets = {"X", "Y"}; supply = [10 10]; demand = [6, 8]; cost = [[1, 4], [3, 2]];'
    assert pyopl.compile_model(MODEL, dat).solve().objective == pytest.approx(22.0)


def test_keyed_data_form():
    dat = ('Plants = {"A", "B"}; Markets = {"X", "Y"}; supply = #["B": 10, "A": 10]#; demand = [6, 8];'
           'cost = #["A": [1, 4], "B": [3, 2]]#;')
    assert pyopl.compile_model(MODEL, dat).solve().objective == pytest.approx(22.0)


def test_compile_error_carries_every_diagnostic():
    with pytest.raises(pyopl.CompileError) as err:
        pyopl.compile_model(MODEL, {**DATA, "supply": [10]})
    (d,) = err.value.errors
    assert d.code == "OPL0404" and "supply" in d.message and "2" in d.message


def test_check_returns_diagnostics_without_raising():
    diags = pyopl.check("dvar float+ x;\nminimize y;")
    assert [d.code for d in diags.errors] == ["OPL0101"]
    assert diags.errors[0].line == 2 and diags.errors[0].column == 10


def test_model_from_path(tmp_path: Path):
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float x in 0..3;\nmaximize 2 * x;")
    assert pyopl.compile_model(mod).solve().objective == pytest.approx(6.0)


def test_result_to_dict_is_json_ready():
    import json

    r = pyopl.compile_model(MODEL, DATA).solve()
    out = json.loads(r.to_json())
    assert out["variables"]["ship"]["A"]["X"] == pytest.approx(6.0)
    assert out["status"] == "optimal"


def test_absurd_index_set_is_refused_before_allocating():
    diags = pyopl.check("range R = 1..1000000000000;\ndvar float x[R];\nminimize sum(r in R) x[r];")
    d = diags.errors[0]
    assert d.code == "OPL0604" and d.line == 2 and "1,000,000,000,000" in d.message
    assert {e.code for e in diags.errors} == {"OPL0604"}


def test_absurd_iteration_is_refused():
    diags = pyopl.check("dvar float x;\nminimize x;\nsubject to { forall(i in 1..100000000000) x >= i; }")
    assert [d.code for d in diags.errors] == ["OPL0604"]


def test_feasibility_model_without_objective():
    r = pyopl.compile_model("dvar int x in 0..10;\nsubject to { 2 * x == 6; }").solve()
    assert r.status == "optimal" and r["x"] == 3 and r.objective is None


def test_strict_inequality_on_integers_means_step_of_one():
    r = pyopl.compile_model("dvar int x in 0..10;\nmaximize x;\nsubject to { x < 4; }").solve()
    assert r.objective == 3


def test_quadratic_objective_on_highs():
    r = pyopl.compile_model("dvar float x in 0..10;\nminimize (x - 3) ^ 2 + 1;").solve()
    assert r.status == "optimal" and r.objective == pytest.approx(1.0, abs=1e-6)
    assert r["x"] == pytest.approx(3.0, abs=1e-4)


def test_dexpr_values_are_reported():
    r = pyopl.compile_model("dvar float x in 0..4;\ndexpr float twice = 2 * x;\nmaximize twice;").solve()
    assert r.dexprs["twice"] == pytest.approx(8.0)


def test_model_size_and_compile_time_are_reported(capsys):
    from pyopl.cli import main

    mod = ROOT / "examples" / "transport.mod"
    m = pyopl.compile_model(mod, data=ROOT / "examples" / "transport.dat")
    assert m.size == {"columns": 12, "integer_columns": 0, "rows": 7, "nonzeros": 24}
    assert 0.0 < m.compile_time_s < 60.0
    assert main(["solve", str(mod), str(ROOT / "examples" / "transport.dat"), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model_size"]["nonzeros"] == 24 and out["compile_time_s"] > 0.0
    assert main(["solve", str(mod), str(ROOT / "examples" / "transport.dat")]) == 0
    assert "model: 12 columns (0 integer), 7 rows, 24 nonzeros, compiled in" in capsys.readouterr().out
