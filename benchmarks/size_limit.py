"""The model size limit (issue 34, item 6): how long a runaway compile runs before and after it, and
what it costs large models that are not runaways (they must still compile, by default).

    python benchmarks/size_limit.py                        # before = the commit before the limit
    python benchmarks/size_limit.py --before-timeout 60 --only iefc tsp
    python benchmarks/size_limit.py --before 214ea51

Each model is compiled (``pyopl.compile_model``, model and data) in a fresh process with each tree
first on ``sys.path``: *before*, a ``git archive`` of ``--before`` (by default the commit before the
size limit), and *after*, this tree. A compile still running after ``--before-timeout`` seconds is
stopped and shown as ``> N``. Each model is compiled ``--repeat`` times with each tree, alternating, and
the fastest is shown (the machine is shared: single runs vary by up to 2x). The outcome column says whether the model compiled (its nonzeros) or
was refused (the diagnostic code). The ratio is after / before wall time, both measured in this run.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "opl-corpus"
sys.path.insert(0, str(HERE))

import models  # noqa: E402

#: The commit before the size limit (the dexpr-cells change of issue 34.2 sits on top of 214ea51).
BEFORE = "75ac795"

_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import pyopl
mod, dat = sys.argv[2], sys.argv[3] or None
t = time.perf_counter()
try:
    m = pyopl.compile_model(mod, data=dat)
    out = {"outcome": "%s nonzeros" % format(m.ir.nnz, ","), "s": time.perf_counter() - t}
except pyopl.CompileError as e:
    codes = sorted({d.code for d in e.diagnostics if d.is_error})
    out = {"outcome": "refused " + " ".join(codes), "s": time.perf_counter() - t}
print(json.dumps(out))
"""


def corpus_case(name: str) -> tuple[str, Path, Path | None]:
    d = CORPUS / name
    dat = d / "model.dat"
    return name, d / "model.mod", dat if dat.exists() else None


def generated_case(case: models.Case, folder: Path) -> tuple[str, Path, Path]:
    d = folder / ("%s-%s" % (case.family, case.size))
    d.mkdir(parents=True, exist_ok=True)
    (d / "model.mod").write_text(case.mod)
    (d / "model.dat").write_text(case.dat)
    return "%s %s" % (case.family, case.size), d / "model.mod", d / "model.dat"


def compile_once(tree: Path, mod: Path, dat: Path | None, timeout: float) -> dict:
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(mod), str(dat or "")], capture_output=True,
                           text=True, timeout=timeout, cwd=str(mod.parent))
    except subprocess.TimeoutExpired:
        return {"outcome": "still compiling", "s": None, "wall": time.perf_counter() - t}
    if p.returncode != 0:
        return {"outcome": "crashed: " + p.stderr.strip().splitlines()[-1][:80], "s": None, "wall": time.perf_counter() - t}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["wall"] = time.perf_counter() - t
    return out


def best_of(before: Path, after: Path, mod: Path, dat: Path | None, timeout: float, repeat: int) -> tuple[dict, dict]:
    """The fastest of ``repeat`` compiles with each tree, alternating (a compile stopped by the
    timeout is not repeated)."""
    best: list[dict | None] = [None, None]
    for _ in range(repeat):
        for k, tree in enumerate((before, after)):
            if best[k] is not None and best[k]["s"] is None:
                continue
            r = compile_once(tree, mod, dat, timeout)
            if best[k] is None or r["s"] is None or r["s"] < best[k]["s"]:
                best[k] = r
    return best[0], best[1]


def before_tree(rev: str, folder: Path) -> Path:
    """A copy of the package at ``rev`` (``git archive``), for the *before* column."""
    archive = folder / "before.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "pyopl"], check=True)
    with tarfile.open(archive) as t:
        t.extractall(folder / "before", filter="data")
    return folder / "before"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", default=BEFORE, help="git revision of the before column (default %(default)s)")
    ap.add_argument("--before-timeout", type=float, default=180.0, metavar="S",
                    help="stop a compile after S seconds (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, metavar="N",
                    help="compiles per tree and model, alternating; the fastest is shown (default %(default)s)")
    ap.add_argument("--only", nargs="+", default=None, metavar="WORD", help="only the models whose name has WORD")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        before = before_tree(args.before, folder)
        todo = [corpus_case("iefc-orderpicking-best"), corpus_case("afp-howto-tspremovecircuit"),
                generated_case(models.transport(3162, 3162), folder), generated_case(models.facility(316, 10000), folder),
                generated_case(models.subtour(17), folder), generated_case(models.netflow(64000), folder)]
        if args.only:
            todo = [c for c in todo if any(w in c[0] for w in args.only)]
        print("before = %s (git archive), after = %s; fresh process per compile, wall seconds of "
              "`pyopl.compile_model`, fastest of %d" % (args.before, ROOT, args.repeat))
        print()
        print("| model | before s | before outcome | after s | after outcome | after / before |")
        print("|---|---|---|---|---|---|")
        for name, mod, dat in todo:
            b, a = best_of(before, ROOT, mod, dat, args.before_timeout, args.repeat)
            bs = "%.2f" % b["s"] if b["s"] is not None else "> %.0f" % args.before_timeout
            as_ = "%.2f" % a["s"] if a["s"] is not None else "> %.0f" % args.before_timeout
            if a["s"] is not None and b["s"] is not None:
                ratio = "%.2f" % (a["s"] / b["s"])
            elif a["s"] is not None:
                ratio = "< %.3f" % (a["s"] / args.before_timeout)
            else:
                ratio = "-"
            print("| %s | %s | %s | %s | %s | %s |" % (name, bs, b["outcome"], as_, a["outcome"], ratio), flush=True)


if __name__ == "__main__":
    main()
