"""Python data dict values OPL data has no counterpart for: a NaN in a plain list, dict, tuple,
set, scalar or NumPy array is OPL0403 naming the element (it reached the objective as a NaN
coefficient, OPL0431, or nothing at all when unused), and ``True``/``False`` for an ``int`` are 1/0
(OPL's flags are 0/1 ints; IBM's ``boolean`` is a dvar domain only). Expected optima by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

import pyopl

MODEL = """float c[1..3] = ...; float s = ...; {float} F = ...; int k[1..2] = ...;
tuple T { string a; float b; } {T} Ts = ...;
dvar float+ x[1..3] in 0..10;
minimize sum(i in 1..3) c[i] * x[i];
subject to { sum(i in 1..3) x[i] >= 1; }
"""
BASE = {"c": [1, 2, 3], "s": 1, "F": [1.0], "k": [1, 2], "Ts": [("a", 1.0)]}


@pytest.mark.parametrize("change, element", [
    ({"s": float("nan")}, "`s`"),
    ({"c": {1: 1, 2: math.nan, 3: 3}}, "`c[2]`"),
    ({"c": np.array([1.0, np.nan, 3.0])}, "`c[2]`"),
    ({"c": [1.0, 2.0, float("nan")]}, "`c[3]`"),
    ({"k": np.array([1.0, np.nan])}, "`k[2]`"),
    ({"F": [float("nan")]}, "`F`"),
    ({"Ts": [("a", np.nan)]}, "`T.b`"),
])
def test_a_nan_is_refused_at_its_data_element(change, element):
    data = dict(BASE, **change)
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(MODEL, data=data)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0403" and d.message.startswith(element) and "NaN" in d.message, d.message
    assert "fillna" in d.help
    assert "OPL0431" not in [x.code for x in e.value.diagnostics]


def test_booleans_are_zero_one_ints():
    r = pyopl.solve("int on = ...; int off = ...; float w[1..2] = ...;\ndvar float+ x in 0..10;\n"
                    "maximize (on + off) * x + w[1] - w[2];\n",
                    data={"on": True, "off": False, "w": np.array([True, False])})
    assert r.status == "optimal" and r.objective == 1 * 10 + 1 - 0
    assert not [d for d in r.diagnostics if d.severity != "note"]


def test_a_nan_in_a_pandas_tuple_set_or_set_is_refused_at_its_element():
    pd = pytest.importorskip("pandas")
    model = ("tuple R { string o; float cap; } {R} Routes = ...; {float} F = ...;\ndvar float+ x[Routes];\n"
             "maximize sum(r in Routes) x[r];\nsubject to { forall(r in Routes) x[r] <= r.cap; }\n")
    with pytest.raises(pyopl.CompileError) as e:  # (was OPL0431 at the constraint, bounds [nan, nan])
        pyopl.solve(model, data={"Routes": pd.DataFrame({"o": ["a", "b"], "cap": [1.0, np.nan]}), "F": [1.0]})
    d = e.value.diagnostics[0]
    assert d.code == "OPL0403" and "`R.cap`" in d.message and "NaN" in d.message
    assert "in element 2 of the value given for `Routes`" in d.notes
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(model, data={"Routes": pd.DataFrame({"o": ["a"], "cap": [1.0]}), "F": pd.Series([1.0, np.nan])})
    assert e.value.diagnostics[0].code == "OPL0403" and "`F`" in e.value.diagnostics[0].message
    r = pyopl.solve(model, data={"Routes": pd.DataFrame({"o": ["a", "b"], "cap": [1.0, 2.5]}), "F": [1.0]})
    assert r.objective == 3.5
