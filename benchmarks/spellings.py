"""Cliff finder over spellings (issue 31.3): each benchmark family's model written every way of one meaning
(``spelling_sets.py``), each spelling as a ratio to the NumPy floor, and the WORST ratio of each family.

    python benchmarks/spellings.py --repeat 2                       # every family at its largest size
    python benchmarks/spellings.py --family issue31 --size 6400     # one family, another size
    python benchmarks/spellings.py --family transport facility --only "as written" "dexpr in between"
    python benchmarks/spellings.py --family sparse_assign --before /tmp/before   # and a checkout of another commit

Each spelling is measured in fresh processes (``measure.py``), pyopl and the floor alternated, best of
``--repeat`` each, and the ratios are taken within that pair (the machine is shared: ratios, not seconds).
Two floors: **floor** is run.py's (the family's NumPy arrays, built in memory, to CSC, and highspy's
``passModel``); **floor + read** adds NumPy reading the ``.dat`` text (``dat_floor.py``), the floor
issue 31 names ("read the .dat text, NumPy CSC, highspy").  Where a peer can express the family (linopy,
pyoframe: ``models.py``) and its virtual environment exists, its build + hand-over is measured against the
slowest spelling.  The load average is printed before and after; each process's CPU seconds (``time.process_time``, over
the same stages) give the CPU ratios, steadier than wall time when other work shares the machine; the user
CPU ratio leaves out the kernel's time (page faults of the large arrays: 1.1-3 s of system time between
runs of one floor on an idle machine).  ``--before DIR``: a checkout of another commit (``git worktree add
/tmp/before main``) measured the same way in the same alternation (its own ``benchmarks/measure.py`` and
``pyopl``), and its CPU ratio to the floor printed beside ours.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import models  # noqa: E402
import spelling_sets  # noqa: E402
from mincostflow import case_dir  # noqa: E402
from run import VENVS, measure  # noqa: E402


def _load() -> str:
    return "load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0)


def _measure_before(before: Path, case: Path, timeout: float) -> dict:
    """``measure.py pyopl CASE`` of the checkout ``before`` (its own measure.py and pyopl), as ``run.measure``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(before)
    try:
        p = subprocess.run([sys.executable, str(before / "benchmarks" / "measure.py"), "pyopl", str(case)],
                           capture_output=True, text=True, timeout=timeout, cwd=str(case), env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    lines = p.stdout.strip().splitlines()
    return json.loads(lines[-1]) if p.returncode == 0 and lines else {"error": (p.stderr or "")[-200:]}


def run_family(family: str, size: list, names: list[str] | None, repeat: int, timeout: float,
               peer_repeat: dict | None = None, before: Path | None = None) -> tuple:
    """Measure each spelling; print its row; return (worst ratio, name) to the floor, to the floor + read,
    and in CPU time to the floor."""
    generator, _big, _small, spellings = spelling_sets.FAMILIES[family]
    case = getattr(models, generator)(*size)
    base = case_dir(generator, size, case)
    print("\n| %s %s: spelling | pyopl s | floor s | ratio | floor + read s | ratio to floor + read "
          "| CPU ratio | CPU ratio to floor + read | user CPU ratio |" % (family, case.size))
    print("|---|---|---|---|---|---|---|---|---|")
    worst, worst_read, worst_seconds, worst_cpu = (0.0, ""), (0.0, ""), (0.0, ""), (0.0, "")
    for name in names or spellings:
        if name not in spellings:
            continue
        d = base.parent / ("%s-%s-%s" % (generator, "-".join(map(str, size)),
                                         "".join(c if c.isalnum() else "-" for c in name)))
        d.mkdir(parents=True, exist_ok=True)
        (d / "model.mod").write_text(spelling_sets.spelled(family, name, case.mod))
        if not (d / "model.dat").exists():
            (d / "model.dat").symlink_to(base / "model.dat")
        (d / "case.json").write_text((base / "case.json").read_text())
        ours, floor, then = [], [], []
        for _ in range(repeat):
            ours.append(measure(sys.executable, "pyopl", d, timeout))
            if before is not None:
                then.append(_measure_before(before, d, timeout))
            floor.append(measure(sys.executable, "direct", d, timeout))
        bad = [r for r in ours + floor if "total_s" not in r]
        if bad:
            cell = "> %d s" % timeout if "timeout" in bad[0] else json.dumps(bad[0])[:200]
            print("| %s | %s | - | - | - | - | - | - | - |" % (name, cell), flush=True)
            worst = worst_read = worst_cpu = (float("inf"), name)
            continue
        p = min(r["total_s"] for r in ours)
        q = min(r["total_s"] for r in floor)
        qr = min(r["total_read_s"] for r in floor)
        pc = min(r["total_cpu_s"] for r in ours)
        qc, qrc = min(r["total_cpu_s"] for r in floor), min(r["total_read_cpu_s"] for r in floor)
        worst, worst_read = max(worst, (p / q, name)), max(worst_read, (p / qr, name))
        worst_cpu = max(worst_cpu, (pc / qc, name))
        pu, qu = min(r["total_user_s"] for r in ours), min(r["total_user_s"] for r in floor)
        worst_seconds = max(worst_seconds, (p, name))
        print("| %s | %.3f | %.3f | %.1f× | %.3f | %.1f× | %.1f× | %.1f× | %.1f× |" % (
            name, p, q, p / q, qr, p / qr, pc / qc, pc / qrc, pu / qu), flush=True)
        done = [r["total_cpu_s"] for r in then if "total_cpu_s" in r]
        if before is not None:
            print("|   (before: %s) | CPU %s s, ours %.3f s | CPU ratio %s |" % (
                before, "%.3f" % min(done) if done else "-", pc, "%.2f× -> %.2f×" % (min(done) / qc, pc / qc)
                if done else json.dumps(then[0])[:120]), flush=True)
    print("\n%s WORST ratio to the floor: %.1f× (%s); to the floor + read: %.1f× (%s); in CPU time, to the floor: "
          "%.1f× (%s)" % (family, worst[0], worst[1], worst_read[0], worst_read[1], worst_cpu[0], worst_cpu[1]),
          flush=True)
    _peers(base, case, worst_seconds, repeat, timeout, peer_repeat or {})
    return worst, worst_read, worst_cpu


def _peers(base: Path, case: models.Case, worst_seconds: tuple, repeat: int, timeout: float,
           peer_repeat: dict) -> None:
    """The peers that can express the family, in their own virtual environments (``run.py`` makes them),
    against the slowest spelling: best of ``repeat`` fresh runs each (``peer_repeat[tool]`` where given:
    pyoframe takes minutes on the largest families)."""
    for tool in ("linopy", "pyoframe"):
        if peer_repeat.get(tool, repeat) <= 0:
            continue
        if getattr(case, tool) is None:
            continue
        py = VENVS / tool / "bin" / "python"
        if not py.exists():
            print("%s: skipped (no %s; `python benchmarks/run.py` installs it)" % (tool, py), flush=True)
            continue
        runs = [measure(str(py), tool, base, timeout) for _ in range(peer_repeat.get(tool, repeat))]
        ok = [r["total_s"] for r in runs if "total_s" in r]
        if not ok:
            print("%s: %s" % (tool, json.dumps(runs[0])[:200]), flush=True)
            continue
        print("%s (build + hand-over): %.3f s; the slowest spelling (%s, %.3f s) takes %.2f× its time"
              % (tool, min(ok), worst_seconds[1], worst_seconds[0], worst_seconds[0] / min(ok)), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", nargs="*", choices=list(spelling_sets.FAMILIES), help="default: all")
    ap.add_argument("--size", type=int, nargs="*", help="the generator's size arguments (one family only); "
                                                        "default: the family's largest benchmark size")
    ap.add_argument("--nodes", type=int, help="issue31 only: --family issue31 --size NODES")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--only", nargs="*", help="spellings to run (default: all)")
    ap.add_argument("--peer-repeat", nargs="*", default=[], metavar="TOOL=N",
                    help="runs of a peer other than --repeat (`pyoframe=1`; 0 leaves it out)")
    ap.add_argument("--before", type=Path, help="a checkout of another commit, measured in the same alternation")
    args = ap.parse_args()
    families = args.family or list(spelling_sets.FAMILIES)
    if args.nodes:
        families, args.size = ["issue31"], [args.nodes]
    if args.size and len(families) != 1:
        ap.error("--size needs exactly one --family")
    print(_load())
    summary = []
    for family in families:
        size = args.size or spelling_sets.FAMILIES[family][1]
        peer_repeat = {k: int(v) for k, v in (x.split("=", 1) for x in args.peer_repeat)}
        summary.append((family, size) + run_family(family, size, args.only, args.repeat, args.timeout, peer_repeat,
                                                       args.before.resolve() if args.before else None))
    print("\n| family | size | worst ratio to the floor | worst ratio to the floor + read | worst CPU ratio to the floor |")
    print("|---|---|---|---|---|")
    for family, size, (w, wn), (r, rn), (c, cn) in summary:
        print("| %s | %s | %.1f× (%s) | %.1f× (%s) | %.1f× (%s) |" % (family, "×".join(map(str, size)), w, wn, r, rn,
                                                                   c, cn))
    print(_load())


if __name__ == "__main__":
    main()
