"""Export speed: ``pyopl export --mps`` of the transport family against writing the same MPS from
the direct arrays with HiGHS's default names, each in fresh processes.

    python benchmarks/export.py [M N] [--repeat R] [--root DIR]   # default 1000 1000, R = 3

- ``pyopl``: the CLI's path in one process: ``compile_model`` then
  :func:`pyopl.backends.export.write_model` (names made from the OPL names, handed to HiGHS, written);
  the stages are timed apart: ``compile_s``, ``export_s`` (names + hand-over + write).
- ``direct``: the NumPy arrays of ``benchmarks/models.py`` (``build_s``), ``passModel`` and
  ``writeModel`` with HiGHS's default names ``c0, c1, ...`` (``export_s``).

Printed: the fastest of R runs of each (fresh processes, alternated), the ratio of the totals and
of the export stages alone, and each run's peak resident memory.  ``--root`` times another
checkout of pyopl (e.g. the previous commit) with the same harness.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

PYOPL = r"""
import json, sys, time
sys.path.insert(0, %(root)r)
import pyopl
from pyopl.backends.export import write_model
t, c = time.perf_counter(), time.process_time()
model = pyopl.compile_model(%(mod)r, data=%(dat)r)
compile_s, compile_cpu = time.perf_counter() - t, time.process_time() - c
t, c = time.perf_counter(), time.process_time()
write_model(model.ir, %(out)r, "mps")
export_s, export_cpu = time.perf_counter() - t, time.process_time() - c
from measure import _peak_mib
print(json.dumps({"compile_s": compile_s, "export_s": export_s, "total_s": compile_s + export_s,
                  "export_cpu": export_cpu, "total_cpu": compile_cpu + export_cpu, "peak_mib": _peak_mib()}))
"""

DIRECT = r"""
import json, os, sys, time
sys.path.insert(0, %(here)r)
import numpy as np
import highspy
import models
from measure import _peak_mib, _quiet_highs
case = models.transport(%(m)d, %(n)d)
t, c = time.perf_counter(), time.process_time()
d = case.direct()
build_s, build_cpu = time.perf_counter() - t, time.process_time() - c
t, c = time.perf_counter(), time.process_time()
h = _quiet_highs()
A = d.A
h.passModel(A.shape[1], A.shape[0], int(A.nnz), int(highspy.MatrixFormat.kColwise), d.sense, 0.0,
            np.ascontiguousarray(d.c, dtype=np.float64), d.col_lower, d.col_upper, d.row_lower, d.row_upper,
            A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data.astype(np.float64), d.integrality)
fd = os.dup(1); os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
h.writeModel(%(out)r)
os.dup2(fd, 1)
export_s, export_cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"build_s": build_s, "export_s": export_s, "total_s": build_s + export_s,
                  "export_cpu": export_cpu, "total_cpu": build_cpu + export_cpu, "peak_mib": _peak_mib()}))
"""


def _run(code: str) -> dict:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(HERE))
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    args = sys.argv[1:]
    repeat, root = 3, ROOT
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if "--root" in args:
        i = args.index("--root")
        root = Path(args[i + 1]).resolve()
        del args[i:i + 2]
    m, n = (int(args[0]), int(args[1])) if len(args) >= 2 else (1000, 1000)
    sys.path.insert(0, str(HERE))
    import models

    case = models.transport(m, n)
    with tempfile.TemporaryDirectory() as tmp:
        mod, dat = os.path.join(tmp, "model.mod"), os.path.join(tmp, "model.dat")
        Path(mod).write_text(case.mod)
        Path(dat).write_text(case.dat)
        ours = dict(root=str(root), mod=mod, dat=dat, out=os.path.join(tmp, "pyopl.mps"))
        theirs = dict(here=str(HERE), m=m, n=n, out=os.path.join(tmp, "direct.mps"))
        runs: dict[str, list[dict]] = {"pyopl": [], "direct": []}
        for _ in range(repeat):
            runs["pyopl"].append(_run(PYOPL % ours))
            runs["direct"].append(_run(DIRECT % theirs))
        size = os.path.getsize(ours["out"]), os.path.getsize(theirs["out"])
    best = {k: min(v, key=lambda r: r["total_s"]) for k, v in runs.items()}
    p, d = best["pyopl"], best["direct"]
    print("transport %dx%d: %d columns; MPS %.1f MB (pyopl) / %.1f MB (direct); load %.2f; fastest of %d"
          % (m, n, m * n, size[0] / 1e6, size[1] / 1e6, os.getloadavg()[0], repeat))
    print("pyopl : compile %.2f s + export %.2f s = %.2f s, peak %.0f MiB   (all totals: %s)"
          % (p["compile_s"], p["export_s"], p["total_s"], p["peak_mib"],
             ", ".join("%.2f" % r["total_s"] for r in runs["pyopl"])))
    print("direct: arrays  %.2f s + export %.2f s = %.2f s, peak %.0f MiB   (all totals: %s)"
          % (d["build_s"], d["export_s"], d["total_s"], d["peak_mib"],
             ", ".join("%.2f" % r["total_s"] for r in runs["direct"])))
    print("ratio pyopl/direct: total %.2f, export stage alone %.2f (wall)" % (p["total_s"] / d["total_s"],
                                                                             p["export_s"] / d["export_s"]))
    print("ratio pyopl/direct: total %.2f, export stage alone %.2f (CPU: pyopl %.2f + %.2f s, direct %.2f + %.2f s)"
          % (p["total_cpu"] / d["total_cpu"], p["export_cpu"] / d["export_cpu"], p["total_cpu"] - p["export_cpu"],
             p["export_cpu"], d["total_cpu"] - d["export_cpu"], d["export_cpu"]))


if __name__ == "__main__":
    main()
