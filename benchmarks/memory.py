"""Peak resident memory of pyopl's compile + hand-over against the direct NumPy + ``passModel``
baseline, per benchmark family and size, each in a fresh process.

    python benchmarks/memory.py                       # every family, the sizes of run.py's "full" scale
    python benchmarks/memory.py --only transport --scale quick

The figures are ``measure.py``'s ``peak_mib`` (``VmHWM``: the process's own high-water mark,
interpreter and imports included) of ``measure.py pyopl`` (parse, data, lowering, IR,
``passModel``) and ``measure.py direct`` (the NumPy arrays and ``passModel``); run.py prints the
same two columns beside its times.  Cases are written to ``benchmarks/results/cases`` as run.py does.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import models  # noqa: E402
from run import _args_of  # noqa: E402


def measure(tool: str, case_dir: Path) -> dict:
    p = subprocess.run([sys.executable, str(HERE / "measure.py"), tool, str(case_dir)], capture_output=True,
                       text=True, cwd=str(case_dir))
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", choices=["full", "quick", "smoke"], default="full")
    ap.add_argument("--only", help="one family: assignment, transport, facility, netflow, production")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args()
    print("| model | size | nnz | pyopl peak MiB | direct peak MiB | ratio |")
    print("|---|---|---|---|---|---|")
    for case in models.cases(args.scale):
        if args.only and case.family != args.only:
            continue
        case_dir = Path(args.out) / "cases" / ("%s-%s" % (case.family, case.size.replace(" ", "")))
        case_dir.mkdir(parents=True, exist_ok=True)
        (case_dir / "model.mod").write_text(case.mod)
        (case_dir / "model.dat").write_text(case.dat)
        (case_dir / "case.json").write_text(json.dumps({"generator": case.family, "args": _args_of(case)}))
        p, d = measure("pyopl", case_dir), measure("direct", case_dir)
        if "peak_mib" not in p or "peak_mib" not in d:
            print("| %s | %s | error: %s %s |" % (case.family, case.size, p.get("error", ""), d.get("error", "")))
            continue
        print("| %s | %s | %s | %.0f | %.0f | %.2f× |" % (case.family, case.size, f"{p['nnz']:,}", p["peak_mib"],
                                                     d["peak_mib"], p["peak_mib"] / d["peak_mib"]), flush=True)


if __name__ == "__main__":
    main()
