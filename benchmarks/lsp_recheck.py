"""Warm re-check latency of the language server: the time of one analysis (parse, checks, data,
instance, IR: what `pyopl lsp` runs after a pause in typing) after a one-character edit.

Run: ``python benchmarks/lsp_recheck.py`` (needs the ``lsp`` extra). Prints, per model, its
lines and the median of 7 re-checks in milliseconds, after 2 warm-up runs in the same process.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from pyopl.lsp.analysis import analyse

ROOT = Path(__file__).resolve().parents[1]


def generated(blocks: int = 30) -> tuple[str, str]:
    """A 300-line model (10 lines per block) with its data: sets, data, variables, constraints."""
    mod, dat = ["{string} Items = ...;", "int n = 20;", "range T = 1..n;"], ['Items = {"a", "b", "c", "d", "e"};']
    for k in range(blocks):
        mod += ["// block %d" % k,
                "float cost%d[Items] = ...;" % k,
                "float cap%d = ...;" % k,
                "dvar float+ x%d[Items][T];" % k,
                "dexpr float total%d = sum(i in Items, t in T) cost%d[i] * x%d[i][t];" % (k, k, k),
                "constraint lim%d;" % k,
                "subject to {",
                "  forall(t in T) sum(i in Items) x%d[i][t] <= cap%d;" % (k, k),
                "  forall(i in Items) sum(t in T) x%d[i][t] >= 1;" % k,
                "}"]
        dat += ["cost%d = [%s];" % (k, ", ".join(str((k * 7 + j) % 11 + 1) for j in range(5))), "cap%d = %d;" % (k, 10 + k)]
    mod.append("minimize sum(k in 0..0) (%s);" % " + ".join("total%d" % k for k in range(blocks)))
    return "\n".join(mod) + "\n", "\n".join(dat) + "\n"


def measure(model: str, data: str | None, runs: int = 7) -> float:
    for k in range(2):
        analyse(model + "// warm %d\n" % k, data)
    times = []
    for k in range(runs):
        edited = model + "//%d\n" % k  # a new text each time: nothing is served from a cache
        t0 = time.perf_counter()
        an = analyse(edited, data)
        times.append(time.perf_counter() - t0)
        assert not any(d.is_error for d in an.diagnostics), an.diagnostics[:3]
    return statistics.median(times) * 1000


def main() -> int:
    cases = []
    for mod in sorted((ROOT / "examples").glob("*.mod")):
        dat = mod.with_suffix(".dat")
        cases.append((mod.name, mod.read_text(), dat.read_text() if dat.exists() else None))
    cases.append(("generated-300", *generated()))
    print("%-18s %6s %10s" % ("model", "lines", "median ms"))
    for name, model, data in cases:
        print("%-18s %6d %10.1f" % (name, model.count("\n"), measure(model, data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
