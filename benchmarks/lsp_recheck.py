"""Warm re-check latency of the language server: the time of one analysis (parse, checks, data,
instance, IR: what `pyopl lsp` runs after a pause in typing) after an edit of the model.

Run: ``python benchmarks/lsp_recheck.py`` (needs the ``lsp`` extra). Prints, per model, its
lines and the median of 7 re-checks in milliseconds after 2 warm-up runs in the same process,
in two columns: ``full`` analyses every text from scratch (parse, data and all: the server
before the incremental re-check), ``warm`` keeps the server's caches between edits
(:class:`pyopl.lsp.analysis.Caches`: statements parsed before, the data loaded before).
The edits alternate between the two kinds an editor sends most: a changed character inside
one statement (a number in the middle of the model becomes another), and a new comment line
near the top (every statement below it moves down a line).
"""
from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

from pyopl.lsp.analysis import Caches, analyse

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


def edits(model: str, runs: int) -> list[str]:
    """``runs`` edited texts, each new: odd ones change a number in the middle of the model, even
    ones add a comment line after the first line."""
    lines = model.split("\n")
    number = re.compile(r"(?<![\w.])\d+(?![\w.])")
    mid = next((k for k in range(len(lines) // 2, len(lines))
                if not lines[k].lstrip().startswith("//") and number.search(lines[k].split("//")[0])), None)
    out = []
    for k in range(runs):
        if k % 2 and mid is not None:
            edited = list(lines)
            line = edited[mid]
            at = [m for m in number.finditer(line.split("//")[0])][-1]
            edited[mid] = line[:at.start()] + str(int(at.group(0)) + 1 + k) + line[at.end():]
        else:
            edited = lines[:1] + ["// edit %d" % k] + lines[1:]
        out.append("\n".join(edited))
    return out


def measure(model: str, data: str | None, runs: int = 7, warm: bool = True) -> float:
    caches = Caches() if warm else None
    texts = edits(model, runs + 2)
    for text in texts[:2]:
        analyse(text, data, caches=caches)
    times = []
    for text in texts[2:]:
        t0 = time.perf_counter()
        an = analyse(text, data, caches=caches)
        times.append(time.perf_counter() - t0)
        assert not any(d.is_error for d in an.diagnostics), an.diagnostics[:3]
    return statistics.median(times) * 1000


def main() -> int:
    cases = []
    for mod in sorted((ROOT / "examples").glob("*.mod")):
        dat = mod.with_suffix(".dat")
        cases.append((mod.name, mod.read_text(), dat.read_text() if dat.exists() else None))
    cases.append(("generated-300", *generated()))
    print("%-18s %6s %12s %12s" % ("model", "lines", "full ms", "warm ms"))
    for name, model, data in cases:
        print("%-18s %6d %12.1f %12.1f" % (name, model.count("\n"), measure(model, data, warm=False),
                                          measure(model, data, warm=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
