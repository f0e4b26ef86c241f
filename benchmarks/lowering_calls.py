"""Lowering overhead on a busy machine: Python function calls (cProfile, deterministic) and best CPU time
to compile models that go through the tree walk, closures and built-ins rather than the array paths.

    python benchmarks/lowering_calls.py                 # the two models below, 5 timed runs each
    python benchmarks/lowering_calls.py --case benchmarks/results/cases/mincostflow-6400

The call count does not depend on the machine's load, so it compares two versions of the code
(a refactoring, an import moved out of a hot loop) where wall-clock figures on a shared machine
cannot; run each version in turn (``PYTHONPATH=<other checkout> python <other checkout>/benchmarks/...``).
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import time

import pyopl

MODELS = {
    "filters+builtins": """
int n = 120;
range R = 1..n;
float c[i in R][j in R] = (i * 7 + j * 3) mod 11 + ftoi(floor(sqrt(i + j)));
dvar float+ x[R][R];
minimize sum(i in R, j in R : (i + j) mod 3 != 0) c[i][j] * x[i][j];
subject to {
  forall(i in R) sum(j in R : abs(i - j) <= 5 && ord(R, j) >= 0) x[i][j] >= minl(i, 7) + (i mod 2 == 0 ? 1 : 0);
  forall(i in R, j in R : i < j && (i * j) mod 17 == 1) x[i][j] + x[j][i] <= maxl(c[i][j], 1);
}
""",
    "treewalk-rows": """
int n = 4000;
range R = 1..n;
int w[i in R] = (i * 13) mod 7;
dvar float x[R] in -10..10;
dvar int y[R] in 0..5;
minimize sum(i in R) (w[i] * x[i] - y[i]);
subject to {
  forall(i in R : i > 1) x[i] - x[i-1] <= (w[i] > 3 ? 2 : 1) + y[i];
  forall(i in R) -x[i] + 2 * y[i] - (i mod 4) * x[i] >= -w[i] - card(R) / n;
  forall(i in R : i < n) x[i] + x[i+1] + y[i] * 2 <= 10 + abs(w[i] - 3);
}
""",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per model (the fastest CPU time is kept)")
    ap.add_argument("--case", action="append", default=[],
                    help="also a folder with model.mod and model.dat (as benchmarks/mincostflow.py writes them)")
    args = ap.parse_args()
    cases = [(name, (text,), {}) for name, text in MODELS.items()]
    for folder in args.case:
        cases.append((os.path.basename(folder.rstrip("/")), (os.path.join(folder, "model.mod"),),
                      {"data": os.path.join(folder, "model.dat")}))
    pyopl.compile_model(MODELS["treewalk-rows"])  # grammar, imports and caches made before any figure
    print("| model | function calls | best CPU s | rows | columns |")
    print("|---|---|---|---|---|")
    for name, a, kw in cases:
        prof = cProfile.Profile()
        prof.enable()
        pyopl.compile_model(*a, **kw)
        prof.disable()
        calls = pstats.Stats(prof).total_calls
        best = float("inf")
        for _ in range(args.repeat):
            gc.collect()
            t = time.process_time()
            model = pyopl.compile_model(*a, **kw)
            best = min(best, time.process_time() - t)
        print("| %s | %d | %.4f | %d | %d |" % (name, calls, best, model.ir.num_rows, model.ir.num_cols), flush=True)


if __name__ == "__main__":
    main()
