"""CP job shop build: pyopl's compile plus CP-SAT model build of IBM's ``sched_jobshop`` spelling
(``dvar interval`` with a data size, ``dvar sequence ... in all(j, o : Ops[j][o].mch == m)``,
``noOverlap``, ``endBeforeStart``, a makespan objective) against the same job shop built directly
with ``ortools.sat.python.cp_model`` (start and end variables over the sum of the processing times,
constant sizes, one makespan variable).  CPU time (``process_time``), the two alternating in one
process, best of N; prints both times, their ratio and the CP-SAT variable and constraint counts.
Nothing is solved.  Issue 46 item 6 (target: pyopl within 1.3x the direct build).

Two measures: in this process (compile + build against the direct build, imports done before any
figure), and with ``--process`` whole processes as the issue measured them (``python`` started, the
imports, the data made, the model built; the child's user + system CPU from ``os.wait4``).  The
children run with bytecode caching on, as in an installed package (``PYTHONDONTWRITEBYTECODE``
removed, the ``.pyc`` files in a temporary ``PYTHONPYCACHEPREFIX``, made by a first run of each
that is not timed), as ``benchmarks/startup.py`` does: without it every one of pyopl's modules is
compiled from its source in every child (about 0.2 s), while NumPy's and OR-Tools' come compiled.

    python benchmarks/cp_jobshop.py [--process] [JOBS MACHINES [REPEATS]]   # default 50 20 5
    python benchmarks/cp_jobshop.py --process --before=DIR [...]   # also DIR's pyopl, interleaved in the run
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BEFORE = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--before=")), None)
_CHILD_ROOT = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--root=")), None)
sys.path[:0] = [_CHILD_ROOT or str(ROOT)]  # (a child of --before imports the other checkout's pyopl)

MODEL = """\
using CP;
int nbJobs = ...;
int nbMchs = ...;
range Jobs = 0..nbJobs-1;
range Mchs = 0..nbMchs-1;
tuple Operation { int mch; int pt; };
Operation Ops[j in Jobs][m in Mchs] = ...;

dvar interval itvs[j in Jobs][o in Mchs] size Ops[j][o].pt;
dvar sequence mchs[m in Mchs] in all(j in Jobs, o in Mchs : Ops[j][o].mch == m) itvs[j][o];

minimize max(j in Jobs) endOf(itvs[j][nbMchs-1]);
subject to {
  forall (m in Mchs)
    noOverlap(mchs[m]);
  forall (j in Jobs, o in 0..nbMchs-2)
    endBeforeStart(itvs[j][o], itvs[j][o+1]);
}
"""


def instance(jobs: int, mchs: int, seed: int = 46) -> tuple[list, list]:
    """Machines (each job visits every machine once, in a random order) and processing times 1..99."""
    rng = np.random.default_rng(seed)
    mch = [[int(m) for m in rng.permutation(mchs)] for _ in range(jobs)]
    pt = [[int(p) for p in rng.integers(1, 100, size=mchs)] for _ in range(jobs)]
    return mch, pt


def dat_text(jobs: int, mchs: int, mch: list, pt: list) -> str:
    rows = ",\n".join("  [%s]" % ", ".join("<%d, %d>" % (m, p) for m, p in zip(ms, ps)) for ms, ps in zip(mch, pt))
    return "nbJobs = %d;\nnbMchs = %d;\nOps = [\n%s\n];\n" % (jobs, mchs, rows)


def direct(mch: list, pt: list):
    """The same job shop built directly with cp_model: the floor."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    horizon = sum(map(sum, pt))
    per_machine: dict = {}
    ends = []
    for j, (ms, ps) in enumerate(zip(mch, pt)):
        prev = None
        for o, (k, p) in enumerate(zip(ms, ps)):
            s = m.new_int_var(0, horizon, "s%d_%d" % (j, o))
            e = m.new_int_var(0, horizon, "e%d_%d" % (j, o))
            iv = m.new_interval_var(s, p, e, "itvs%d_%d" % (j, o))
            per_machine.setdefault(k, []).append(iv)
            if prev is not None:
                m.add(prev <= s)
            prev = e
        ends.append(prev)
    for ivs in per_machine.values():
        m.add_no_overlap(ivs)
    mk = m.new_int_var(0, horizon, "makespan")
    m.add_max_equality(mk, ends)
    m.minimize(mk)
    return m


def via_pyopl(mod: str, dat: str):
    """pyopl's path: compile the model with its data, then the CP-SAT model (no solve)."""
    import pyopl
    from ortools.sat.python import cp_model
    try:
        from pyopl.backends.cp import cpsat
    except ImportError:  # a checkout before issue 49's move (``--before=DIR``)
        from pyopl.backends import cpsat

    ir = pyopl.compile_model(mod, data=dat, source="text").ir
    return cpsat.build(cp_model, ir)[0]


def counts(m) -> tuple[int, int]:
    p = m.proto
    return len(p.variables), len(p.constraints)


def one(name: str, jobs: int, mchs: int) -> None:
    """A child of ``--process``: build one way, print the CP-SAT variable and constraint counts."""
    mch, pt = instance(jobs, mchs)
    m = via_pyopl(MODEL, dat_text(jobs, mchs, mch, pt)) if name == "pyopl" else direct(mch, pt)
    print(*counts(m))


def child_cpu(name: str, jobs: int, mchs: int, env: dict | None = None) -> tuple[float, str]:
    """User + system CPU seconds of a whole ``python`` process that builds one way, and its output
    (``pyopl (before)``: pyopl's way with the checkout ``--before=DIR``)."""
    extra = ["--root=%s" % BEFORE] if name == "pyopl (before)" else []
    p = subprocess.Popen([sys.executable, __file__, "--one", name.split()[0], str(jobs), str(mchs)] + extra,
                         stdout=subprocess.PIPE, text=True, env=env)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise SystemExit("the %s child failed" % name)
    return ru.ru_utime + ru.ru_stime, out


def processes(jobs: int, mchs: int, reps: int) -> None:
    names = ("pyopl", "direct") + (("pyopl (before)",) if BEFORE else ())
    best = {name: float("inf") for name in names}
    out: dict = {}
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as pyc:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=pyc)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name in names:  # the .pyc files made, not timed
            child_cpu(name, jobs, mchs, env)
        for _ in range(reps):
            for name in names:
                t, out[name] = child_cpu(name, jobs, mchs, env)
                best[name] = min(best[name], t)
    print("job shop %dx%d, whole processes, best of %d (CPU s), load average %.2f at the start, %.2f at the end"
          % (jobs, mchs, reps, load[0], os.getloadavg()[0]))
    for name in names:
        v, c = out[name].split()
        print("  %-14s %8.3f s  %6s CP-SAT variables  %6s constraints" % (name, best[name], v, c))
    print("  ratio          %8.2fx" % (best["pyopl"] / best["direct"]))
    if BEFORE:
        print("  ratio (before) %8.2fx" % (best["pyopl (before)"] / best["direct"]))


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["--one"]:
        one(argv[1], int(argv[2]), int(argv[3]))
        return
    whole = "--process" in argv
    args = [int(a) for a in argv if not a.startswith("--")]
    jobs, mchs = (args[0], args[1]) if len(args) >= 2 else (50, 20)
    reps = args[2] if len(args) >= 3 else 5
    if whole:
        processes(jobs, mchs, reps)
        return
    mch, pt = instance(jobs, mchs)
    dat = dat_text(jobs, mchs, mch, pt)
    via_pyopl(MODEL, dat)  # grammar, imports and caches made before any figure
    direct(mch, pt)
    best = {"pyopl": float("inf"), "direct": float("inf")}
    models: dict = {}
    for _ in range(reps):
        for name, run in (("pyopl", lambda: via_pyopl(MODEL, dat)), ("direct", lambda: direct(mch, pt))):
            t = time.process_time()
            models[name] = run()
            best[name] = min(best[name], time.process_time() - t)
    print("job shop %dx%d, best of %d (CPU s)" % (jobs, mchs, reps))
    for name in ("pyopl", "direct"):
        v, c = counts(models[name])
        print("  %-7s %8.3f s  %6d CP-SAT variables  %6d constraints" % (name, best[name], v, c))
    print("  ratio   %8.2fx" % (best["pyopl"] / best["direct"]))


if __name__ == "__main__":
    main()
