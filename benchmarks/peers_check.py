"""The peers' formulations in ``models.py`` mean the family's problem: each one's optimum, row, column and
nonzero counts against the family's direct arrays (NumPy + highspy), on small instances.

Run with a peer's own python (``run.py`` makes the environments), e.g.

    benchmarks/.venvs/linopy/bin/python benchmarks/peers_check.py linopy
    benchmarks/.venvs/pyoframe/bin/python benchmarks/peers_check.py pyoframe
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models  # noqa: E402

SMALL = [models.assignment(8), models.transport(5, 7), models.facility(4, 9), models.facility(10, 40),
         models.netflow(40), models.netflow(300), models.production(4, 6), models.production(12, 20),
         models.issue31(40), models.issue31(300),
         models.mcnd(12, 3, 5), models.mcnd(30, 4, 12), models.unitcommit(3, 10), models.unitcommit(6, 30),
         models.sparse_assign(4, 9, 3), models.sparse_assign(20, 120, 6)]


def direct_solution(case: models.Case) -> tuple[float, int, int, int]:
    """(optimum, rows, columns, nonzeros) of the family's direct arrays, solved by SciPy's ``milp`` (in every
    peer's environment, without the peer)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    d = case.direct()
    r = milp(d.sense * d.c, integrality=d.integrality, bounds=Bounds(d.col_lower, d.col_upper),
             constraints=LinearConstraint(d.A, d.row_lower, d.row_upper))
    assert r.success, r.message
    return d.sense * r.fun, d.A.shape[0], d.A.shape[1], int(d.A.nnz)


def peer_solution(tool: str, case: models.Case) -> tuple | None:
    """(optimum, rows, columns, nonzeros) of linopy's model, (optimum,) of pyoframe's; None where the peer
    has no formulation."""
    build = getattr(case, tool)
    if build is None:
        return None
    if tool == "linopy":
        import linopy

        h = build(linopy).to_highspy()
        h.setOptionValue("output_flag", False)
        h.run()
        lp = h.getLp()
        return h.getInfo().objective_function_value, lp.num_row_, lp.num_col_, len(lp.a_matrix_.index_)
    import polars as pl
    import pyoframe as pf

    m = build(pf, pl)
    m.attr.Silent = True
    m.optimize()
    return (m.objective.value,)


def main() -> None:
    tool = sys.argv[1]
    bad = 0
    for case in SMALL:
        got = peer_solution(tool, case)
        if got is None:
            continue
        want = direct_solution(case)
        ok = abs(got[0] - want[0]) <= 1e-6 * max(1.0, abs(want[0])) and got[1:] == want[1:len(got)]
        bad += not ok
        print("%-10s %-10s %s: %s, direct %s" % (case.family, case.size, "same" if ok else "DIFFERENT", got, want))
    print("%d different" % bad)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
