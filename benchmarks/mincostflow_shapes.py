"""Cliff finder: the min-cost-flow model in random shapes of the same meaning, each as a ratio to the floor.

    python benchmarks/mincostflow_shapes.py                       # 12 random shapes at 6400 nodes
    python benchmarks/mincostflow_shapes.py --nodes 640 --shapes 30 --seed 3

Each shape draws, independently: how the balance row is written (which sum first, ``a.src == v``
or ``v == a.src``, a unary minus, coefficients), where the capacity goes (per-element ``dvar``
bounds ``in 0..a.cap`` or ``cap`` rows, ``float+`` or ``float`` with an explicit lower end), the
row sense, the type of the ``src``/``dst`` fields (int or float: the data are the same numbers),
a label or none, and how the objective reads the cost (a field, or a tuple pattern binder).  The
graph and data are those of ``models.mincostflow`` at the given size, so the floor is that
family's direct NumPy + passModel build (median of 3 fresh runs); each shape's pyopl figure is the
median of ``--repeat`` fresh runs, killed at ``--timeout`` seconds.  A shape far above the others
is a cliff: a form the array paths do not take.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import models  # noqa: E402
from mincostflow import case_dir, median_runs  # noqa: E402
from run import measure  # noqa: E402

TEMPLATE = """\
{int} Nodes = ...;
tuple Arc {
  %(ftype)s src;
  %(ftype)s dst;
  float cost;
  float cap;
}
{Arc} Arcs = ...;
float b[Nodes] = ...;

dvar %(dvar)s;

minimize %(objective)s;

subject to {
%(caprows)s  forall(v in Nodes)
    %(label)s%(balance)s %(op)s b[v];
}
"""

BALANCE = {
    "src-dst": "sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a]",
    "dst-src": "sum(a in Arcs : a.dst == v) flow[a] - sum(a in Arcs : a.src == v) flow[a]",
    "v==field": "sum(a in Arcs : v == a.src) flow[a] - sum(a in Arcs : v == a.dst) flow[a]",
    "-sum+sum": "-sum(a in Arcs : a.dst == v) flow[a] + sum(a in Arcs : a.src == v) flow[a]",
    "coefs": "sum(a in Arcs : a.src == v) 1.0 * flow[a] - sum(a in Arcs : a.dst == v) a.cost * flow[a]",
}
CAPACITY = {
    "in 0..a.cap": ("float+ flow[a in Arcs] in 0..a.cap", ""),
    "float in 0..a.cap": ("float flow[a in Arcs] in 0..a.cap", ""),
    "cap rows": ("float+ flow[Arcs]", "  forall(a in Arcs)\n    ctCap: flow[a] <= a.cap;\n"),
    "cap rows, binder": ("float+ flow[a in Arcs]", "  forall(a in Arcs)\n    flow[a] <= a.cap;\n"),
}
OBJECTIVE = {
    "a.cost": "sum(a in Arcs) a.cost * flow[a]",
    "pattern": "sum(<s, d, c, u> in Arcs) c * flow[<s, d, c, u>]",
}
OPS = {"==": "==", "<=": "<=", ">=": ">="}


def draw(rng: random.Random) -> tuple[str, str]:
    """(a short description, the model text) of one random shape."""
    pick = {k: rng.choice(sorted(v)) for k, v in
            (("balance", BALANCE), ("capacity", CAPACITY), ("objective", OBJECTIVE), ("op", OPS))}
    pick["ftype"] = rng.choice(["int", "float"])
    pick["label"] = rng.choice(["", "balance: "])
    dvar, caprows = CAPACITY[pick["capacity"]]
    text = TEMPLATE % dict(ftype=pick["ftype"], dvar=dvar, objective=OBJECTIVE[pick["objective"]], caprows=caprows,
                           label=pick["label"], balance=BALANCE[pick["balance"]], op=pick["op"])
    desc = "%s; %s; %s; obj %s; %s fields%s" % (pick["balance"], pick["op"], pick["capacity"], pick["objective"],
                                                  pick["ftype"], "; labelled" if pick["label"] else "")
    return desc, text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=6400)
    ap.add_argument("--shapes", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0))
    case = models.mincostflow(args.nodes)
    base = case_dir("mincostflow", [args.nodes], case)
    _p, floor = median_runs(base, 3)
    print("floor (direct NumPy + passModel, %d nodes): %.3f s" % (args.nodes, floor["total_s"]))
    print("| shape | pyopl s | ratio |")
    print("|---|---|---|")
    rng = random.Random(args.seed)
    for k in range(args.shapes):
        desc, text = draw(rng)
        d = base.parent / ("mincostflow-shape-%d-%d" % (args.nodes, k))
        d.mkdir(parents=True, exist_ok=True)
        (d / "model.mod").write_text(text)
        (d / "model.dat").write_text(case.dat)
        (d / "case.json").write_text((base / "case.json").read_text())  # the floor's generator (not checked)
        runs = [measure(sys.executable, "pyopl", d, args.timeout) for _ in range(args.repeat)]
        bad = [r for r in runs if "total_s" not in r]
        if bad:
            cell = "> %d s" % args.timeout if "timeout" in bad[0] else "error: %s" % bad[0].get("error")
            print("| %s | %s | - |" % (desc, cell), flush=True)
            continue
        t = statistics.median(r["total_s"] for r in runs)
        print("| %s | %.3f | %.1f× |" % (desc, t, t / floor["total_s"]), flush=True)


if __name__ == "__main__":
    main()
