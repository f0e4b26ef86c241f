"""What the solution check costs (issue 43): its time beside the compile time, per benchmark family.

For each family of ``benchmarks/models.py`` (one size per family, ``--scale`` picks which) the model is
compiled, solved once by HiGHS with the check off (``verify=False``, a time limit; a MIP may stop at
an incumbent), and then :func:`pyopl.backends.explain.solution_check.check_point` is timed on the returned
point (the fastest of ``--repeat`` runs, timeit's rule), split into the array part (rows, bounds,
integrality) and the evaluation from the model's declarations. Run from the project root::

    python benchmarks/solution_check.py [--scale small|large] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import models  # noqa: E402  (benchmarks/models.py)

SIZES = {
    "small": [("assignment", (100,)), ("transport", (100, 100)), ("facility", (10, 100)), ("netflow", (640,)),
              ("production", (100, 120)), ("subtour", (11,)), ("mincostflow", (640,)), ("logical", (500,))],
    "large": [("assignment", (316,)), ("transport", (316, 316)), ("facility", (32, 316)), ("netflow", (6400,)),
              ("production", (300, 400)), ("subtour", (14,)), ("mincostflow", (6400,)), ("logical", (5000,))],
}


LOGICAL_MOD = """int n = ...; range R = 1..n;
float c[i in R] = (i % 7) + 1;
dvar float x[R] in 0..10; dvar boolean b[R];
maximize sum(i in R) (c[i] * x[i] - 5 * b[i]);
subject to { forall(i in R) ct: b[i] == 0 => x[i] <= 2; forall(i in R) cap: x[i] + abs(x[i] - 3) <= 12; }
"""


class _Logical:
    """n implications and n rows with `abs`: statements the check evaluates at every instance."""

    def __init__(self, n: int):
        self.mod, self.dat, self.size = LOGICAL_MOD, "n = %d;\n" % n, "%d + %d" % (n, n)


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    import pyopl
    from pyopl.backends.explain import solution_check as sc

    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", choices=sorted(SIZES), default="large")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args()
    print("| model | size | cols | rows | nnz | compile s | check s | arrays s | from the model s | evaluated | check / compile | point |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for family, size in SIZES[args.scale]:
        case = _Logical(*size) if family == "logical" else getattr(models, family)(*size)
        t0 = time.perf_counter()
        m = pyopl.compile_model(case.mod, data=case.dat, source="text")
        compile_s = time.perf_counter() - t0
        r = m.solve(solver="highs", time_limit=args.time_limit, verify=False)
        x = r.column_values if r.column_values is not None else np.where(np.isfinite(m.ir.col_lower), m.ir.col_lower, 0)
        obj = r.objective
        budget = max(0.005, 0.1 * compile_s)  # what Model.solve gives it (verify_result)
        whole = _best(lambda: sc.check_point(m.ir, x, obj, 1e-6, m.instance, budget), args.repeat)
        arrays = _best(lambda: sc.check_point(m.ir, x, obj, 1e-6, None), args.repeat)
        rep = sc.check_point(m.ir, x, obj, 1e-6, m.instance, budget)
        if r.column_values is not None:  # (without a solution the point is the lower bounds: not feasible)
            assert rep.ok, [d.text() for d in rep.disagreements]
        print("| %s | %s | %d | %d | %d | %.3f | %.4f | %.4f | %.4f | %d | %.1f%% | %s |" % (
            family, case.size, m.ir.num_cols, m.ir.num_rows, m.ir.nnz, compile_s, whole, arrays,
            max(0.0, whole - arrays), rep.evaluated, 100 * whole / compile_s,
            r.status if r.column_values is not None else "lower bounds (%s)" % r.status))


if __name__ == "__main__":
    main()
