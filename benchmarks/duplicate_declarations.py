"""A reply of N repeated declarations (``int n = 3;`` N times, the shape of an LLM reply that looped):
what ``pyopl.check`` and syntagm's handling of the reply (include scan, the sandboxed check, the repair
payload) cost, each in a fresh process, optionally against another checkout in the same run.

    python benchmarks/duplicate_declarations.py [N] [--repeat=R] [--before=DIR]

Prints per step the median wall seconds and the peak resident memory (MiB) of the process, this tree
and DIR's alternated so a change of machine load hits both alike.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
n = int(sys.argv[1])
model = "dvar float+ x;\n" + "int n = 3;\n" * n + "minimize x;\nsubject to { x >= n; }\n"
import pyopl
from syntagm.assess import compiler, sandbox
pyopl.check("int a = 1;")
t0 = time.perf_counter()
compiler.include_refusals(model, "")
t1 = time.perf_counter()
res = sandbox.handle({"op": "check", "model": model, "data": ""})  # the worker's work, in this process
t2 = time.perf_counter()
report = compiler.CheckReport([sandbox.diagnostic_from_json(d) for d in res["diagnostics"]], res["crash"])
compiler.diagnostics_payload(report, model, "")
t3 = time.perf_counter()
print(json.dumps({"include scan": t1 - t0, "check": t2 - t1, "payload": t3 - t2, "total": t3 - t0,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main(argv: list[str]) -> int:
    """Run the benchmark; returns the exit status."""
    n = int(next((a for a in argv if not a.startswith("--")), "200000"))
    repeat = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--repeat=")), "1"))
    before = next((a.split("=", 1)[1] for a in argv if a.startswith("--before=")), None)
    trees = [("this tree", str(ROOT))] + ([("before", str(Path(before).resolve()))] if before else [])
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(repeat):
        for name, tree in trees:
            out = subprocess.run([sys.executable, "-c", CHILD, str(n)], capture_output=True, text=True,
                                 env=dict(env, PYTHONPATH=tree), cwd=tree, check=True)
            import json

            runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print("%d repeated declarations (%.1f MB of model text), load average %.2f" %
          (n, (15 + 11 * n + 40) / 1e6, os.getloadavg()[0]))
    for name, rs in runs.items():
        cells = ", ".join("%s %.2f s" % (k, statistics.median(r[k] for r in rs))
                          for k in ("include scan", "check", "payload", "total"))
        print("%-10s %s; peak RSS %.0f MiB" % (name, cells, statistics.median(r["rss_mib"] for r in rs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
