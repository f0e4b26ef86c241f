"""An array given positionally in the data keeps its values on the keys they were read for when a
script later adds to one of its index sets (``I.add(0)`` in a sorted set puts 0 first): the values
must not shift onto the new order, on the row path or the array paths.  (Found by a new-user sweep
of the large-matrix reader; the behaviour was older than that reader and on every data path.)
Expected values: the keyed form of the same data (``#[1: ..., 2: ...]#``), which has no positions,
and sums computed here from the data."""
from __future__ import annotations

import pytest

import pyopl

TINY = """sorted {int} I = ...; range J = 1..2;
float cost[I][J] = ...;
execute { I.add(0); writeln(cost[1][1], " ", cost[2][1]); }
dvar float+ y; minimize y; subject to { y >= cost[1][1]; }
"""


@pytest.mark.parametrize("cost", ["[[11, 12], [21, 22], [31, 32]]",
                                  "#[1: [11, 12], 2: [21, 22], 3: [31, 32]]#"])
def test_a_script_adding_to_a_sorted_set_does_not_shift_the_array(tmp_path, cost):
    dat = tmp_path / "m.dat"
    dat.write_text("I = {1, 2, 3};\ncost = %s;\n" % cost)
    res = pyopl.compile_model(TINY, str(dat)).solve()
    assert res.objective == pytest.approx(11.0) and res.script_output.strip() == "11 21"


FAMILY = """sorted {int} I = ...; range J = 1..2;
float cost[I][J] = ...;
execute { I.add(0); }
dvar float+ x[I];
minimize sum(i in I : i >= 1) x[i];
subject to { forall(i in I : i >= 1) ct: x[i] >= cost[i][1] + 2 * cost[i][2]; }
"""


@pytest.mark.parametrize("n", [5, 400])  # the row path, and a family the array paths take
def test_rows_over_the_grown_set_read_the_values_of_their_own_keys(tmp_path, n):
    rows = [[float(i), float(1000 + i)] for i in range(1, n + 1)]
    dat = tmp_path / "m.dat"
    dat.write_text("I = {%s};\ncost = [%s];\n" % (", ".join(str(i) for i in range(1, n + 1)),
                                                 ", ".join("[%r, %r]" % tuple(r) for r in rows)))
    res = pyopl.compile_model(FAMILY, str(dat)).solve()
    assert res.objective == pytest.approx(sum(a + 2 * b for a, b in rows), rel=1e-12)
