"""IR assembly (``build_ir``) and HiGHS hand-over (``_pass``) of two revisions: wall and CPU time.

    git archive <base-commit> | tar -x -C /tmp/base
    python benchmarks/run.py --only netflow --no-others --repeat 1     # writes the case folders
    python benchmarks/stage_times.py /tmp/base benchmarks/results/cases/netflow-64000nodes --repeat 7

Each run is ``measure.py pyopl`` (its JSON: ``build_s``, ``handover_s``, ...) in a fresh process of
the revision's own tree, with ``build_ir`` and ``highs._pass`` also timed in CPU seconds of the
process (``time.process_time``): on the shared machine wall time swings 2x with the other
sessions' load, CPU time much less.  Base and this revision alternate; the fastest and the median
of ``--repeat`` runs are printed per stage.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import json, sys, time
root, case = sys.argv[1], sys.argv[2]
sys.path[:0] = [root, root + "/benchmarks"]
import measure
import pyopl.lowering.build as build, pyopl.backends.mp.highs as highs
cpu = {}
def timed(mod, name, key):
    f = getattr(mod, name)
    def g(*a, **k):
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            cpu[key] = time.process_time() - t
    setattr(mod, name, g)
timed(build, "build_ir", "build_cpu_s")
timed(highs, "_pass", "handover_cpu_s")
from pathlib import Path
out = measure.run_pyopl(Path(case))
out.update(cpu, tree=build.__file__)
print(json.dumps(out))
"""

STAGES = ("build_s", "build_cpu_s", "handover_s", "handover_cpu_s", "compile_s", "total_s")


def _run(root: Path, case: Path) -> dict:
    p = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(case)], capture_output=True, text=True, cwd=str(case))
    if p.returncode != 0:
        raise SystemExit("%s: %s" % (root, (p.stderr or p.stdout).strip().splitlines()[-1:]))
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if not out["tree"].startswith(str(root)):  # the revision's own pyopl, not the installed one
        raise SystemExit("%s imported %s" % (root, out["tree"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="a folder holding the base revision's tree")
    ap.add_argument("cases", nargs="+", help="case folders (model.mod, model.dat, case.json) as run.py writes them")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    trees = {"base": Path(args.base).resolve(), "this": HERE.parent}
    print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0))
    print("| case | stage | base fastest | base median | fastest | median |\n|---|---|---|---|---|---|")
    for case in map(Path, args.cases):
        runs: dict[str, list[dict]] = {k: [] for k in trees}
        for _ in range(args.repeat):
            for k, root in trees.items():
                runs[k].append(_run(root, case.resolve()))
        for stage in STAGES:
            cells = []
            for k in trees:
                v = [r[stage] for r in runs[k]]
                cells += ["%.3f" % min(v), "%.3f" % statistics.median(v)]
            print("| %s | %s | %s |" % (case.name, stage, " | ".join(cells)), flush=True)
        print("| %s | peak MiB | %.0f | | %.0f | |" % (case.name, *(min(r["peak_mib"] for r in runs[k]) for k in trees)))


if __name__ == "__main__":
    main()
