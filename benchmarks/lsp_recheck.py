"""Warm re-check latency of the language server: the time of one analysis (parse, checks, data,
instance, IR: what `pyopl lsp` runs after a pause in typing) after an edit of the model.

Run: ``python benchmarks/lsp_recheck.py`` (needs the ``lsp`` extra). Prints, per model, its
lines and the median of 15 re-checks in milliseconds after 2 warm-up runs in the same process,
as wall-clock time and as this process's CPU time (the figure to read on a shared, loaded
machine, where the wall clock also counts other processes' turns), in three columns: ``full`` analyses every text from scratch (parse, data and all: the server
before the incremental re-check), ``warm`` keeps the server's caches between edits
(:class:`pyopl.lsp.analysis.Caches`: statements parsed before, the data loaded before).
The edits make an editing session, each text one edit after the one before, alternating the
two kinds an editor sends most: a changed character inside one statement (a number in the
middle of the model becomes another), and a new comment line near the top (every statement
below it moves down a line).  ``syntax error`` is the warm
re-check of text caught mid-typing (that number deleted: ``x >= ;``), which falls back to one
parse of the whole text with its error recovery (pyopl/lsp/incremental.py says why).
"""
from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _number_line(lines: list[str]) -> int | None:
    """A line in the second half of the model with a number outside comments (None: no such line)."""
    return next((k for k in range(len(lines) // 2, len(lines))
                 if not lines[k].lstrip().startswith("//") and NUMBER.search(lines[k].split("//")[0])), None)


def edits(model: str, runs: int) -> list[str]:
    """``runs`` texts of an editing session, each one edit after the one before: odd edits
    change the number of a line in the middle of the model, even ones add a comment line after
    the first line (every statement below it moves down a line)."""
    lines = model.split("\n")
    mid = _number_line(lines)
    out = []
    for k in range(runs):
        if k % 2 and mid is not None:
            line = lines[mid]
            at = list(NUMBER.finditer(line.split("//")[0]))[-1]
            lines[mid] = line[:at.start()] + str(int(at.group(0)) + 1) + line[at.end():]
        else:
            lines.insert(1, "// edit %d" % k)
            mid = None if mid is None else mid + 1
        out.append("\n".join(lines))
    return out


def broken(model: str, runs: int) -> list[str]:
    """``runs`` texts, each new, with a syntax error: the number :func:`edits` changes deleted
    (``x >= ;``), or for a model without one, the last line's last ``;``."""
    lines = model.rstrip("\n").split("\n")
    k = _number_line(lines)
    if k is not None:
        at = list(NUMBER.finditer(lines[k].split("//")[0]))[-1]
        lines[k] = lines[k][:at.start()] + lines[k][at.end():]
    else:
        k = max(j for j, line in enumerate(lines) if ";" in line)
        cut = lines[k].rindex(";")
        lines[k] = lines[k][:cut] + lines[k][cut + 1:]
    return ["\n".join(lines[:1] + ["// typing %d" % j] + lines[1:]) + "\n" for j in range(runs)]


def _timed(text: str, data: str | None, caches: Caches | None, wall: list, cpu: list) -> Any:
    t0, c0 = time.perf_counter(), time.process_time()
    an = analyse(text, data, caches=caches)
    wall.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
    return an


def measure(model: str, data: str | None, runs: int = 15) -> list[tuple[float, float]]:
    """[(median wall-clock ms, median CPU ms of this process)] of ``runs`` re-checks each: full,
    warm, warm with a syntax error.  The three kinds take turns edit by edit, so that a busy
    machine slows them alike."""
    caches, caches_bad = Caches(), Caches()  # two sessions: one typing correct text, one mid-typing
    analyse(model, data, caches=caches)
    analyse(model, data, caches=caches_bad)
    good, bad = edits(model, runs + 2), broken(model, runs + 2)
    for g, b in zip(good[:2], bad[:2]):  # warm-up: imports, parser tables, first caches
        analyse(g, data)
        analyse(g, data, caches=caches)
        analyse(b, data, caches=caches_bad)
    times: list = [([], []) for _ in range(3)]
    for g, b in zip(good[2:], bad[2:]):
        an = _timed(g, data, None, *times[0])
        assert not any(d.is_error for d in an.diagnostics), an.diagnostics[:3]
        an = _timed(g, data, caches, *times[1])
        assert not any(d.is_error for d in an.diagnostics), an.diagnostics[:3]
        an = _timed(b, data, caches_bad, *times[2])
        assert any(d.is_error for d in an.diagnostics)
    return [(statistics.median(w) * 1000, statistics.median(c) * 1000) for w, c in times]


def main() -> int:
    cases = []
    for mod in sorted((ROOT / "examples").glob("*.mod")):
        dat = mod.with_suffix(".dat")
        cases.append((mod.name, mod.read_text(), dat.read_text() if dat.exists() else None))
    cases.append(("generated-300", *generated()))
    print("%-16s %5s %15s %15s %15s" % ("ms: wall / cpu", "lines", "full", "warm", "syntax error"))
    for name, model, data in cases:
        got = measure(model, data)
        print("%-16s %5d %s" % (name, model.count("\n"), " ".join("%7.1f / %5.1f" % g for g in got)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
