"""Cliff finder over spellings: issue 31's network-flow model written every way of one meaning, each
as a ratio to the NumPy floor, and the WORST ratio printed last.

    python benchmarks/spellings.py                      # 64,000 nodes, 512,000 arcs, best of 2 per spelling
    python benchmarks/spellings.py --nodes 6400 --repeat 3

The data and the floor are ``models.issue31``'s (read the .dat text, NumPy CSC, highspy passModel); each
spelling is measured in fresh processes (``measure.py``), pyopl and the floor alternated, best of
``--repeat`` each, and the ratio is taken within that pair (the machine is shared: ratios, not seconds).
The spellings: sides swapped, ``-b[v]`` moved across, sums reordered with ``v == a.f``, ``==`` as two
inequalities, tuple patterns instead of iterators, an extra filter conjunct on either side of the
equality, ``dexpr`` arrays in between (labelled or not), a scalar ``dexpr`` on the other side, and the
capacities as rows instead of bounds.  (Other families: not yet; see docs/performance.md.)
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

IN = "sum(a in Arcs : a.dest == v) ship[a]"
OUT = "sum(a in Arcs : a.orig == v) ship[a]"
PIN = "sum(<o, d, c, u> in Arcs : d == v) ship[<o, d, c, u>]"
POUT = "sum(<o, d, c, u> in Arcs : o == v) ship[<o, d, c, u>]"
ROW = "ctBalance: %s - %s == -b[v];" % (IN, OUT)
DEXPR = ("minimize", "dexpr float inflow[v in Nodes] = %s;\ndexpr float outflow[w in Nodes] = %s;\nminimize"
         % (IN, OUT.replace("== v", "== w")))
SPELLINGS = {  # name -> [(old, new), ...] applied to models.ISSUE31_MOD
    "as in the issue": [],
    "unlabelled": [(ROW, ROW.replace("ctBalance: ", ""))],
    "sides swapped": [(ROW, "ctBalance: -b[v] == %s - %s;" % (IN, OUT))],
    "-b[v] moved across": [(ROW, "ctBalance: %s - %s + b[v] == 0;" % (IN, OUT))],
    "sums reordered, v == a.f": [(ROW, "ctBalance: -%s + sum(a in Arcs : v == a.dest) ship[a] == -b[v];" % OUT)],
    "== as two inequalities": [(ROW, "lo: %s - %s <= -b[v];\n  forall(v in Nodes)\n    hi: %s - %s >= -b[v];"
                                % (IN, OUT, IN, OUT))],
    "tuple patterns": [(ROW, "ctBalance: %s - %s == -b[v];" % (PIN, POUT))],
    "conjunct after": [(ROW, ROW.replace("a.dest == v", "a.dest == v && a.capacity >= 0"))],
    "conjunct before": [(ROW, ROW.replace("a.orig == v", "a.capacity >= 0 && v == a.orig"))],
    "dexpr in between": [DEXPR, (ROW, "ctBalance: inflow[v] - outflow[v] == -b[v];")],
    "dexpr, unlabelled, other side": [DEXPR, (ROW, "inflow[v] == outflow[v] - b[v];")],
    "capacity rows": [("dvar float+ ship[a in Arcs] in 0..a.capacity;", "dvar float+ ship[Arcs];"),
                      ("subject to {\n", "subject to {\n  forall(a in Arcs)\n    ctCap: ship[a] <= a.capacity;\n")],
}


def spelled(name: str) -> str:
    text = models.ISSUE31_MOD
    for old, new in SPELLINGS[name]:
        assert old in text, (name, old)
        text = text.replace(old, new)
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=64000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--only", nargs="*", help="spellings to run (default: all)")
    args = ap.parse_args()
    print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d CPUs" % (*os.getloadavg(), os.cpu_count() or 0))
    case = models.issue31(args.nodes)
    base = case_dir("issue31", [args.nodes], case)
    print("| spelling (%s nodes, %s arcs) | pyopl s | floor s | ratio |" % (f"{args.nodes:,}", f"{8 * args.nodes:,}"))
    print("|---|---|---|---|")
    worst = (0.0, "")
    for name in args.only or SPELLINGS:
        d = base.parent / ("issue31-%d-%s" % (args.nodes, "".join(c if c.isalnum() else "-" for c in name)))
        d.mkdir(parents=True, exist_ok=True)
        (d / "model.mod").write_text(spelled(name))
        if not (d / "model.dat").exists():
            (d / "model.dat").symlink_to(base / "model.dat")
        (d / "case.json").write_text((base / "case.json").read_text())
        ours, floor = [], []
        for _ in range(args.repeat):
            ours.append(measure(sys.executable, "pyopl", d, args.timeout))
            floor.append(measure(sys.executable, "direct", d, args.timeout))
        bad = [r for r in ours if "total_s" not in r]
        if bad:
            print("| %s | %s | - | - |" % (name, "> %d s" % args.timeout if "timeout" in bad[0] else bad[0]), flush=True)
            worst = (float("inf"), name)
            continue
        p, q = min(r["total_s"] for r in ours), min(r["total_s"] for r in floor)
        worst = max(worst, (p / q, name))
        print("| %s | %.3f | %.3f | %.1f× |" % (name, p, q, p / q), flush=True)
    print("\nWORST ratio to the floor: %.1f× (%s)" % worst)


if __name__ == "__main__":
    main()
