"""Issue 31: a dexpr array's cells made all at once (``bulk_dexpr``) keep their linear forms as arrays
(``DexprCells``) and make each ``LinExpr`` when it is read; the forms, their order and the values
reported after a solve are those of the cell-by-cell path."""
from __future__ import annotations

import pyopl
from pyopl.lowering.model import build
from pyopl.lowering.arrays.vectorised_dexprs import DexprCells

MODEL = """
range Nodes = 1..4;
tuple arc {int o; int d; float c;}
{arc} Arcs = {<1, 2, 1.5>, <2, 3, 2.5>, <1, 3, 4>, <3, 4, 1>, <2, 4, 3>};
dvar float+ ship[a in Arcs] in 0..5;
dexpr float inflow[v in Nodes] = sum(a in Arcs : a.d == v) ship[a];
dexpr float net[v in Nodes] = sum(a in Arcs : a.d == v) ship[a] - sum(a in Arcs : a.o == v) 2 * ship[a] + v;
maximize sum(v in Nodes) inflow[v];
subject to { forall(v in Nodes) inflow[v] <= 100; }
"""


def _forms(ir) -> dict:
    return {name: [(k, (list(v.terms.items()), v.const) if hasattr(v, "terms") else v) for k, v in cells.items()]
            for name, cells in ir.dexprs.items()}


def test_cells_made_at_once_are_the_cells_made_one_by_one(monkeypatch):
    shipped = pyopl.compile_model(MODEL).ir
    assert all(isinstance(cells, DexprCells) for cells in shipped.dexprs.values())
    monkeypatch.setattr(build, "bulk_dexpr", lambda inst, arr: None)
    one_by_one = pyopl.compile_model(MODEL).ir
    assert not any(isinstance(cells, DexprCells) for cells in one_by_one.dexprs.values())
    assert _forms(shipped) == _forms(one_by_one)
    cells = shipped.dexprs["inflow"]
    # node 1 has no arc in: its cell is the number 0 (an empty sum); node 4's arcs in are the 4th and 5th
    assert cells[(1,)] == 0 and len(cells) == 4 and list(cells) == [(1,), (2,), (3,), (4,)]
    assert cells[(4,)].terms == {3: 1.0, 4: 1.0} and cells[(4,)].const == 0
    # net[2] = ship<1,2> - 2 ship<2,3> - 2 ship<2,4> + 2
    assert shipped.dexprs["net"][(2,)].terms == {0: 1.0, 1: -2.0, 4: -2.0} and shipped.dexprs["net"][(2,)].const == 2


def test_values_after_a_solve():
    r = pyopl.compile_model(MODEL).solve()
    # every arc at its upper bound 5: inflow 0, 5, 10, 10; net[v] = inflow - 2 * outflow + v
    assert [r.dexprs["inflow"][v] for v in (1, 2, 3, 4)] == [0, 5, 10, 10]
    assert [r.dexprs["net"][v] for v in (1, 2, 3, 4)] == [0 - 20 + 1, 5 - 20 + 2, 10 - 10 + 3, 10 + 4]
