"""Ratios of two pyopl revisions against the direct NumPy + passModel floor, measured in the same run.

    git archive <base-commit> | tar -x -C /tmp/base      # the revision to compare against
    python benchmarks/compare_base.py /tmp/base netflow:64000 subtour:17 --repeat 5

Each case (``generator:args``, the generators of ``models.py``) is written once under
``benchmarks/results/cases``; then the base revision's ``measure.py pyopl``, this revision's, and
``measure.py direct`` run in turn, each in a fresh process, ``--repeat`` times, and the fastest run
of each counts (timeit's rule: on a shared machine the slower runs measure the other work).  The
IR of this revision is checked equal to the direct arrays first.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import models  # noqa: E402
from mincostflow import case_dir  # noqa: E402
from run import measure  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="a folder holding the base revision's tree (its benchmarks/measure.py is run)")
    ap.add_argument("cases", nargs="+", help="generator:arg[,arg] (e.g. netflow:64000, production:3000,1200)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base-repeat", type=int, default=None, help="runs of the base revision (default --repeat)")
    args = ap.parse_args()
    base_measure = Path(args.base) / "benchmarks" / "measure.py"
    print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0))
    print("| case | IR = direct | base parse→IR s | parse→IR s | base total s | total s | direct s | base ratio | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.cases:
        gen, _, raw = spec.partition(":")
        gargs = [int(x) for x in raw.split(",")] if raw else []
        d = case_dir(gen, gargs, getattr(models, gen)(*gargs))
        same = measure(sys.executable, "check", d, 3600).get("same")
        runs: dict[str, list] = {"base": [], "new": [], "direct": []}
        for k in range(args.repeat):
            if k < (args.base_repeat if args.base_repeat is not None else args.repeat):
                runs["base"].append(_base(base_measure, d))
            runs["new"].append(measure(sys.executable, "pyopl", d, 3600))
            runs["direct"].append(measure(sys.executable, "direct", d, 3600))
        best = {k: min((r for r in rs if "total_s" in r), key=lambda r: r["total_s"], default={})
                for k, rs in runs.items()}
        b, n, q = best["base"], best["new"], best["direct"]
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            spec, {True: "yes", False: "NO"}.get(same, "?"), _f(b.get("compile_s")), _f(n.get("compile_s")),
            _f(b.get("total_s")), _f(n.get("total_s")), _f(q.get("total_s")), _r(b, q), _r(n, q)), flush=True)


def _base(script: Path, d: Path) -> dict:
    import json
    import subprocess

    p = subprocess.run([sys.executable, str(script), "pyopl", str(d)], capture_output=True, text=True,
                       timeout=3600, cwd=str(d))
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def _f(v) -> str:
    return "-" if v is None else "%.3f" % v


def _r(p: dict, q: dict) -> str:
    return "%.1f×" % (p["total_s"] / q["total_s"]) if p.get("total_s") and q.get("total_s") else "-"


if __name__ == "__main__":
    main()
