"""Min-cost flow written as users write it (issue 20): pyopl against the direct NumPy + passModel floor.

    python benchmarks/mincostflow.py                      # 640, 6400 and 64,000 nodes (8 arcs each)
    python benchmarks/mincostflow.py --nodes 640 6400 --repeat 5
    python benchmarks/mincostflow.py --family netflow     # the run.py family, same sizes, same run
    python benchmarks/mincostflow.py --family subtour --nodes 11 14 17   # cities of run.py's subtour family

The model (``models.MINCOSTFLOW_MOD``) has the capacities as per-element ``dvar`` bounds
(``dvar float+ flow[a in Arcs] in 0..a.cap``) and the balance rows as a difference of two filtered
sums.  Each size is measured in fresh processes (``measure.py``), pyopl and the floor alternated
``--repeat`` times; the **median** of each counts (the machine may be shared: the load average is
printed) and the ratio is median over median.  Every size's IR is first checked equal to the
direct arrays.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import models  # noqa: E402
from run import RESULTS, measure  # noqa: E402


def case_dir(generator: str, args: list, case: models.Case) -> Path:
    """A folder with the case's ``model.mod``, ``model.dat`` and ``case.json`` (written once)."""
    d = RESULTS / "cases" / ("%s-%s" % (generator, "-".join(map(str, args))))
    d.mkdir(parents=True, exist_ok=True)
    spec = json.dumps({"generator": generator, "args": args})
    if not (d / "case.json").exists() or (d / "case.json").read_text() != spec:
        (d / "model.mod").write_text(case.mod)
        (d / "model.dat").write_text(case.dat)
        (d / "case.json").write_text(spec)
    return d


def median_runs(d: Path, repeat: int) -> tuple[dict, dict]:
    """pyopl's and the floor's runs, alternated; each field the median over the runs."""
    runs: dict[str, list] = {"pyopl": [], "direct": []}
    for _ in range(repeat):
        for tool in runs:
            r = measure(sys.executable, tool, d, 1800)
            if "error" in r or "timeout" in r:
                raise SystemExit("%s on %s: %s" % (tool, d.name, r))
            runs[tool].append(r)
    return tuple({k: statistics.median(r[k] for r in rs) for k in rs[0] if isinstance(rs[0][k], (int, float))}
                 for rs in runs.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, nargs="+", default=[640, 6400, 64000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--family", choices=["mincostflow", "netflow", "subtour", "issue31"], default="mincostflow",
                    help="netflow: the run.py family (capacities as rows), for a same-run comparison; "
                         "subtour: run.py's subtour family, --nodes giving its cities")
    args = ap.parse_args()
    print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0))
    print("| nodes | arcs | IR = direct | parse→IR s | lower s | pyopl total s | direct s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.nodes:
        d = case_dir(args.family, [n], getattr(models, args.family)(n))
        same = measure(sys.executable, "check", d, 1800).get("same")
        p, q = median_runs(d, args.repeat)
        print("| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f× |" % (
            f"{n:,}", f"{int(p['cols']):,}", {True: "yes", False: "NO"}.get(same, "?"), p["compile_s"],
            p["lower_s"], p["total_s"], q["total_s"], p["total_s"] / q["total_s"]), flush=True)


if __name__ == "__main__":
    main()
