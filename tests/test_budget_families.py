"""Issue 31.1: the default work budget accepts every benchmark family at its largest benchmark size.

The work a compile charges (``Budget.used``: candidate bindings examined) is measured at two small
sizes of each family, with the nonzeros of the built matrix; it must grow with the nonzeros (no
hidden product of a filter's set and the rows) at a few bindings per nonzero. The largest sizes'
nonzeros follow from each family's structure (the formulas are checked against the small builds),
and that many nonzeros times the measured rate must stay below ``DEFAULT_MAX_WORK``. The 17-city
subtour family, whose size grows as 2**n, is compiled at its largest size outright."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import pyopl
from pyopl.data.parser import parse_data
from pyopl.diagnostics.reporter import Reporter
from pyopl.limits import DEFAULT_MAX_WORK
from pyopl.lowering.build import build_ir
from pyopl.lowering.driver import run as lower_items
from pyopl.lowering.instance import Instance
from pyopl.script.flow import processing
from pyopl.syntax.parser import parse_model

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import models  # noqa: E402
import spelling_sets  # noqa: E402

#: nonzeros of each family's matrix by its generator's size arguments (each decision's appearances)
NNZ = {
    "assignment": lambda n: 2 * n * n,  # x[i][j] in its row's and its column's constraint
    "transport": lambda m, n: 2 * m * n,  # ship[p][k] in its supply and its demand row
    "facility": lambda w, c: 4 * w * c + w,  # demand row; capacity row (+ open[w]); link row (+ open[w])
    "production": lambda p, t: 4 * p * t - p,  # balances: 2 terms in period 1, 3 after; capacity: 1 each
    "netflow": lambda nodes: 24 * nodes,  # 8 arcs a node: in two balance rows and one capacity row
    "issue31": lambda nodes: 16 * nodes,  # 8 arcs a node, each in two balance rows
    # flow[a][k] in two balance rows and a capacity row (+ open[a]); a self-loop's two entries cancel
    "mcnd": lambda nodes, degree, k: (3 * (nodes * degree + len(range(0, nodes, 50))) * k
                                      - 2 * len(range(0, nodes, 50)) * k + nodes * degree + len(range(0, nodes, 50))),
    "unitcommit": lambda nu, nt: _uc_nnz(nu, nt),
    "sparse_assign": lambda nw, nt, per: 2 * nt * per,  # x[p] in its task's and its worker's row
}


def _uc_nnz(nu: int, nt: int) -> int:
    """Demand and reserve rows 1 each, min and max 2 each, the first start 2 a unit, ramps 2 + 2 and start 3
    after the first period, and the min-up window ``min(minUp[u], t)`` terms plus ``on`` per row."""
    import numpy as np

    minup = models.families6._uc_data(nu, nt, 8)[3]
    window = int(np.minimum(minup[:, None], np.arange(1, nt + 1)[None, :]).sum())
    return 6 * nu * nt + 2 * nu + 7 * nu * (nt - 1) + window + nu * nt


def _compile(mod: str, dat: str) -> tuple[int, int]:
    """(work charged, nonzeros) of one compile with the default limits."""
    rep = Reporter()
    items = {i.name: i for i in parse_data(dat, "d.dat", rep)}
    inst = Instance(parse_model(mod, "m.mod", rep), items, rep, script_host=processing)
    lower_items(inst)
    ir = build_ir(inst)
    assert not rep.has_errors, [d.message for d in rep.diagnostics]
    return inst.budget.used, ir.nnz


@pytest.mark.parametrize("family", sorted(NNZ))
def test_the_work_charged_grows_with_the_nonzeros_and_the_largest_size_fits(family):
    generator, big, small, spellings = spelling_sets.FAMILIES[family]
    rates = []
    first = next(iter(spellings))  # the model as written
    for size in (small, [2 * s for s in small]):
        case = getattr(models, generator)(*size)
        for name in spellings:  # every spelling: a filter or pattern that fell off the joins would show here
            used, nnz = _compile(spelling_sets.spelled(family, name, case.mod), case.dat)
            if name == first:
                assert nnz == NNZ[family](*size)  # the formula, checked where it can be
            rates.append((used / nnz, size, name))
    worst = max(rates)
    small_rate = max(r for r, s, _ in rates if s == small)
    large_rate = max(r for r, s, _ in rates if s != small)
    assert large_rate <= 1.25 * small_rate, rates  # linear in the nonzeros: doubling the size keeps the rate
    assert worst[0] <= 4.0, worst
    assert worst[0] * NNZ[family](*big) < DEFAULT_MAX_WORK / 2  # the largest size, with room to spare


def test_subtour_at_its_largest_size_compiles_with_the_default_budget():
    generator, big, _small, _s = spelling_sets.FAMILIES["subtour"]
    case = getattr(models, generator)(*big)
    used, nnz = _compile(case.mod, case.dat)
    assert used < DEFAULT_MAX_WORK and nnz > 100_000  # 17 cities: 131,070 subtour rows
