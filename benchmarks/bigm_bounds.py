"""Big-M bounds: compile time of a model whose logical constraints take their big-M values from
implied bounds (each implication adds a column, so the bounds are recomputed each time), with the
incremental recomputation (pyopl.lowering.linearise.bounds) and with the full one it replaced (from
tests/test_implied_bounds.py), in this process; the IRs are compared too.

    python benchmarks/bigm_bounds.py [N ...]      # implications per model (default 250 500 1000)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

MODEL = """
int n = %d;
range I = 1..n;
float cap[i in I] = 5 + (i mod 7);
dvar float+ x[I];
dvar boolean z[I];
minimize sum(i in I) (x[i] + z[i]);
subject to {
  forall(i in I) ctCap: x[i] <= cap[i];
  forall(i in I : i > 1) ctPair: x[i] + x[i - 1] <= cap[i] + 2;
  forall(i in I) (x[i] >= 3) => (z[i] == 1);
}
"""


def main() -> None:
    import pyopl
    from pyopl.lowering.linearise import bounds
    from test_implied_bounds import _reference_refresh, _same_ir

    sizes = [int(a) for a in sys.argv[1:]] or [250, 500, 1000]
    incremental = bounds.ImpliedBounds.refresh
    print("%8s %14s %14s %8s %10s" % ("n", "incremental s", "full s", "ratio", "same IR"))
    for n in sizes:
        text = MODEL % n
        times, irs = {}, {}
        for name, refresh in (("incremental", incremental), ("full", _reference_refresh)):
            bounds.ImpliedBounds.refresh = refresh
            t = time.process_time()
            irs[name] = pyopl.compile_model(text, source="text").ir
            times[name] = time.process_time() - t
        bounds.ImpliedBounds.refresh = incremental
        print("%8d %14.2f %14.2f %7.1fx %10s" % (n, times["incremental"], times["full"],
                                              times["full"] / times["incremental"],
                                              _same_ir(irs["incremental"], irs["full"])), flush=True)


if __name__ == "__main__":
    main()
