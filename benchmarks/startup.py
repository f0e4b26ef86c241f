"""Start-up cost: ``import pyopl`` and a small solve in fresh processes, against baselines in the same run.

    python benchmarks/startup.py [N]              # N runs of each command (default 15), interleaved
    python benchmarks/startup.py [N] --no-bytecode   # every import compiles its source again
    python benchmarks/startup.py [N] --root=DIR      # time another checkout of pyopl (e.g. the last commit)
    python benchmarks/startup.py [N] --before=DIR    # also time DIR's pyopl, interleaved in the same run

Children run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` removed; the ``.pyc`` files go
to a temporary ``PYTHONPYCACHEPREFIX``), as in an installed package, unless ``--no-bytecode``.

Each command runs N times in a fresh interpreter, the commands interleaved so that a change of
machine load hits all of them alike; it prints the median wall time and the median CPU time
(user + system, steadier than wall on a shared machine) of each, and the ratios of pyopl's
commands to two baselines measured in the same run: ``python -c pass`` (the interpreter alone)
and ``python -c "import highspy, numpy"`` (the libraries any HiGHS model builder needs).

Then, in this process, a warm re-compile of every example in ``examples/``: the second
``pyopl.compile_model`` of the same files (what the language server and syntagm's loop pay
per check), median of N.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = None  # another checkout timed in the same run (``--before=DIR``)
for _a in sys.argv[1:]:
    if _a.startswith("--root="):
        ROOT = Path(_a.split("=", 1)[1]).resolve()
    if _a.startswith("--before="):
        BEFORE = Path(_a.split("=", 1)[1]).resolve()
EXAMPLES = ROOT / "examples"


COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import highspy, numpy": [sys.executable, "-c", "import highspy, numpy"],
    "import pyopl": [sys.executable, "-c", "import pyopl"],
    "pyopl solve transport": [sys.executable, "-m", "pyopl", "solve", str(EXAMPLES / "transport.mod"), str(EXAMPLES / "transport.dat")],
}


if BEFORE is not None:  # the same commands with the other checkout's pyopl (PYTHONPATH below)
    COMMANDS["import pyopl (before)"] = COMMANDS["import pyopl"]
    COMMANDS["pyopl solve transport (before)"] = COMMANDS["pyopl solve transport"]


def _env(name: str, env: dict[str, str]) -> dict[str, str]:
    return dict(env, PYTHONPATH=str(BEFORE)) if name.endswith("(before)") else env


def _cwd(name: str) -> str:
    # (the current folder comes first on sys.path: it must be the checkout timed)
    return str(BEFORE) if name.endswith("(before)") else str(ROOT)


def _examples() -> list[tuple[Path, Path | None]]:
    out = []
    for mod in sorted(EXAMPLES.glob("*.mod")):
        dat = mod.with_suffix(".dat")
        out.append((mod, dat if dat.exists() else None))
    return out


def fresh_processes(n: int, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each command over ``n`` fresh processes."""
    for name, cmd in COMMANDS.items():  # once first: .pyc files and the parser-table cache are made
        subprocess.run(cmd, env=_env(name, env), check=True, capture_output=True, cwd=_cwd(name))
    wall: dict[str, list[float]] = {k: [] for k in COMMANDS}
    cpu: dict[str, list[float]] = {k: [] for k in COMMANDS}
    for _ in range(n):
        for name, cmd in COMMANDS.items():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, env=_env(name, env), check=True, capture_output=True, cwd=_cwd(name))
            wall[name].append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in COMMANDS}


def warm_recompile(n: int) -> dict[str, tuple[float, float]]:
    """Per example: (first compile, median of ``n`` later compiles) in this process, seconds."""
    sys.path.insert(0, str(ROOT))
    import pyopl
    import pyopl.api  # noqa: F401  (the compiler's own imports outside "first compile", whatever __init__ imports)

    out = {}
    for mod, dat in _examples():
        t = time.perf_counter()
        pyopl.compile_model(mod, data=dat)
        first = time.perf_counter() - t
        times = []
        for _ in range(n):
            t = time.perf_counter()
            pyopl.compile_model(mod, data=dat)
            times.append(time.perf_counter() - t)
        out[mod.name] = (first, statistics.median(times))
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 15
    bytecode = "--no-bytecode" not in sys.argv
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as pyc:
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pyc
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        load = os.getloadavg()
        print("%d runs each, %d cores, bytecode cache %s, load average %.2f %.2f %.2f at the start"
              % ((n, os.cpu_count(), "on" if bytecode else "off") + load))
        res = fresh_processes(n, env)
    base_pass, base_libs = res["python -c pass"], res["import highspy, numpy"]
    print("%-32s %9s %9s %10s %10s %11s %11s" % ("command", "wall (s)", "CPU (s)", "wall/pass", "CPU/pass",
                                                  "wall/hs+np", "CPU/hs+np"))
    for name, (w, c) in res.items():
        print("%-32s %9.3f %9.3f %10.2f %10.2f %11.2f %11.2f" % (name, w, c, w / base_pass[0], c / base_pass[1],
                                                              w / base_libs[0], c / base_libs[1]))
    for name in [k for k in res if k.startswith(("import pyopl", "pyopl solve"))]:
        w, c = res[name]
        print("%s minus the interpreter (python -c pass): wall %.3f s, CPU %.3f s" % (name, w - base_pass[0],
                                                                                    c - base_pass[1]))
    print("load average %.2f %.2f %.2f at the end" % os.getloadavg())
    print()
    print("%-16s %14s %22s" % ("example", "first compile", "warm re-compile (median)"))
    for name, (first, warm) in warm_recompile(n).items():
        print("%-16s %12.1f ms %20.1f ms" % (name, 1e3 * first, 1e3 * warm))


if __name__ == "__main__":
    main()
