"""Compile-time benchmark: pyopl against a direct NumPy + highspy baseline and other tools.

    python benchmarks/run.py                  # every family and size, with rhetor, Pyomo, linopy and pyoframe
    python benchmarks/run.py --scale quick    # two sizes fewer per family
    python benchmarks/run.py --no-others      # pyopl and the baseline only
    python benchmarks/run.py --scale medium --only transport --tools linopy pyoframe   # some peers only

Every measurement runs in a fresh process (``measure.py``), so each gets
its own peak-memory figure and none profits from another's warm caches;
pyopl and the direct baseline run ``--repeat`` times each (alternating), as
does any other tool whose run takes under 2 s, and the fastest run counts;
the Lark grammars are built before the clock starts (``grammar_s``
reports that one-off cost).  Other tools are installed into virtual
environments under ``benchmarks/.venvs/`` (never into ours); a tool that
cannot be installed is skipped with a message.  Results go to
``benchmarks/results/results.json`` and ``benchmarks/results/compile_vs_nnz.png``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
VENVS = HERE / ".venvs"
sys.path.insert(0, str(HERE))

import models  # noqa: E402

TARGETS = {
    "assignment n=100 parse->IR": "< 0.3 s",
    "transport 1000x1000 parse->IR": "< 10 s, < 2 GB, <= 5x direct",
    "slope of compile time vs nnz": "0.9 .. 1.1",
    "1,000,000-number .dat": "< 2 s",
    "vs rhetor": ">= 20x faster",
}


# ---------------------------------------------------------------------- environments
#: the other tools: (packages installed into ``benchmarks/.venvs/<tool>``, the imports that show it works)
OTHERS = {
    "rhetor": (["rhetor"], "pyopl.pyopl_core"),
    "pyomo": (["pyomo", "highspy", "numpy", "scipy"], "pyomo.contrib.appsi.solvers.highs, numpy, scipy"),
    "linopy": (["linopy", "highspy", "numpy", "scipy"], "linopy, numpy, scipy"),
    # pyoframe reaches HiGHS through pyoptinterface, which loads the HiGHS library of `highsbox`
    "pyoframe": (["pyoframe", "highsbox", "numpy", "scipy"], "pyoframe, polars, highsbox, numpy, scipy"),
}

def venv_python(name: str, packages: list[str], import_name: str) -> str | None:
    """The python of ``benchmarks/.venvs/<name>`` with ``packages`` installed, or None (with a message)."""
    env = VENVS / name
    py = env / "bin" / "python"
    try:
        if not py.exists():
            print("  creating %s and installing %s (once) ..." % (env, " ".join(packages)), flush=True)
            subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        ok = subprocess.run([str(py), "-c", "import %s" % import_name], capture_output=True).returncode == 0
        if not ok:
            subprocess.run([str(py), "-m", "pip", "install", "-q", *packages], check=True, timeout=3600)
        return str(py)
    except (subprocess.SubprocessError, OSError) as e:
        print("  skipping %s: could not install it (%s)" % (name, e))
        return None


def measure(python: str, tool: str, case_dir: Path, timeout: float) -> dict:
    # children keep their bytecode as an installed package does: with PYTHONDONTWRITEBYTECODE set, every
    # module edited since its last .pyc (and first imported inside a timed stage) is compiled again each run
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:
        p = subprocess.run([python, str(HERE / "measure.py"), tool, str(case_dir)], capture_output=True, text=True,
                           timeout=timeout, cwd=str(case_dir), env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else "exit %d" % p.returncode}
    return json.loads(p.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- the .dat and parser figures
def data_load(n_numbers: int = 1_000_000) -> dict:
    """Load a .dat file of ``n_numbers`` floats (1000 per line) through pyopl's loader, fast path and Lark."""
    case_dir = RESULTS / "cases" / "dat-1M"
    case_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    rows = n_numbers // 1000
    vals = np.round(rng.uniform(0, 100, size=(rows, 1000)), 3)
    path = case_dir / "big.dat"
    if not path.exists():
        path.write_text("a = %s;\n" % models.fmt_matrix(vals))
    code = """
import json, sys, time
sys.path[:0] = [%r, %r]
from measure import _peak_mib
from pyopl.syntax.parser import lark_parser
lark_parser("dat")
from pyopl.data.loader import load_data
from pyopl.diagnostics.reporter import Reporter
t = time.perf_counter()
items = load_data(%r, Reporter(), {}, ".")
s = time.perf_counter() - t
print(json.dumps({"load_s": s, "numbers": sum(len(r) for r in items["a"].value),
                  "peak_mib": _peak_mib()}))
""" % (str(HERE), str(ROOT), str(path))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1]}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["bytes"] = path.stat().st_size
    return out


def parser_speed(lines_target: int = 20_000) -> dict:
    """Lines per second of the model parser (Lark LALR) on a long generated model."""
    body = ["int n = 10;", "range R = 1..n;", "dvar float+ x[R];", "minimize sum(i in R) x[i];", "subject to {"]
    k = 0
    while len(body) < lines_target:
        body.append("  c%d: x[%d] + 2 * x[%d] - 0.5 * x[%d] >= %d;" % (k, 1 + k % 10, 1 + (k * 3) % 10, 1 + (k * 7) % 10, k % 5))
        k += 1
    body.append("}")
    text = "\n".join(body) + "\n"
    code = """
import json, sys, time
sys.path.insert(0, %r)
from pyopl.syntax.parser import parse_model, prepare
from pyopl.diagnostics.reporter import Reporter
t = time.perf_counter(); prepare(); g = time.perf_counter() - t
text = sys.stdin.read()
t = time.perf_counter(); parse_model(text, "big.mod", Reporter()); s = time.perf_counter() - t
print(json.dumps({"grammar_s": g, "parse_s": s, "lines": text.count("\\n"), "bytes": len(text)}))
""" % str(ROOT)
    p = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1]}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["lines_per_s"] = out["lines"] / out["parse_s"]
    return out


# ---------------------------------------------------------------------- report
def fit_slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log10(time) on log10(nnz)."""
    pts = [(x, y) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    lx, ly = np.log10([p[0] for p in pts]), np.log10([p[1] for p in pts])
    return float(np.polyfit(lx, ly, 1)[0])


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return "%.3f" % v if v < 10 else "%.1f" % v


def _tool_cell(r: dict | None) -> str:
    if not r:
        return "-"
    if "timeout" in r:
        return "> %ds" % r["timeout"]
    if "error" in r:
        return "error"
    if "skipped" in r:
        return "-"
    return _fmt(r.get("total_s"))


def table(results: list[dict]) -> str:
    head = ("| model | size | cols | rows | nnz | parse | data | lower+build | **parse→IR** | hand-over | peak MiB "
            "| direct NumPy+passModel | ratio | direct peak MiB | memory ratio | rhetor | × rhetor | Pyomo | linopy "
            "| pyoframe | IR = direct |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        p = r.get("pyopl", {})
        if "compile_s" not in p:
            lines.append("| %s | %s | %s |" % (r["family"], r["size"], _tool_cell(p)))
            continue
        d = r.get("direct", {})
        rh = r.get("rhetor")
        ratio = p["total_s"] / d["total_s"] if d.get("total_s") else None
        x_rh = rh["total_s"] / p["compile_s"] if rh and "total_s" in rh else None
        mem = p["peak_mib"] / d["peak_mib"] if d.get("peak_mib") else None
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["family"], r["size"], f"{p['cols']:,}", f"{p['rows']:,}", f"{p['nnz']:,}", _fmt(p["parse_s"]),
            _fmt(p["data_s"]), _fmt(p["lower_s"] + p["build_s"]), _fmt(p["compile_s"]), _fmt(p["handover_s"]),
            p["peak_mib"], _fmt(d.get("total_s")), "%.1f×" % ratio if ratio else "-",
            "%.0f" % d["peak_mib"] if d.get("peak_mib") else "-", "%.2f×" % mem if mem else "-", _tool_cell(rh),
            "%.0f×" % x_rh if x_rh else "-", _tool_cell(r.get("pyomo")), _tool_cell(r.get("linopy")),
            _tool_cell(r.get("pyoframe")),
            {True: "yes", False: "NO"}.get(r.get("check", {}).get("same"), "-")))
    return "\n".join(lines)


def plot(results: list[dict], slopes: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return False
    fig, ax = plt.subplots(figsize=(7.5, 5))
    fams = sorted({r["family"] for r in results})
    for fam in fams:
        pts = [(r["pyopl"]["nnz"], r["pyopl"]["compile_s"]) for r in results
               if r["family"] == fam and "compile_s" in r.get("pyopl", {})]
        if pts:
            ax.loglog(*zip(*pts), "o-", label="pyopl %s (slope %.2f; top 3 decades %.2f)" % (
                fam, slopes.get(fam) or float("nan"), slopes.get(fam + " (top 3 decades)") or float("nan")))
    pts = [(r["pyopl"]["nnz"], r["direct"]["total_s"]) for r in results
           if "total_s" in r.get("direct", {}) and "nnz" in r.get("pyopl", {})]
    if pts:
        pts.sort()
        ax.loglog(*zip(*pts), "k--", alpha=0.5, label="direct NumPy + passModel")
    pts = sorted((r["pyopl"]["nnz"], r["rhetor"]["total_s"]) for r in results
                 if "total_s" in (r.get("rhetor") or {}) and "nnz" in r.get("pyopl", {}))
    if pts:
        ax.loglog(*zip(*pts), "rx", label="rhetor (all families)")
    ax.set_xlabel("nonzeros in the constraint matrix")
    ax.set_ylabel("seconds, parse → IR (pyopl) / build + hand-over (direct)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Compile time vs. model size (%d cores)" % os.cpu_count())
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", choices=["full", "medium", "quick", "smoke"], default="full",
                    help="medium: one size fewer per family, quick: two fewer, smoke: the two smallest")
    ap.add_argument("--only", nargs="*", help="families: assignment, transport, facility, netflow, production, subtour")
    ap.add_argument("--no-others", action="store_true", help="skip rhetor, Pyomo, linopy and pyoframe")
    ap.add_argument("--no-rhetor", action="store_true")
    ap.add_argument("--tools", nargs="*", choices=list(OTHERS), help="the other tools to run (default: all)")
    ap.add_argument("--rhetor-python", help="a python that already has rhetor installed")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds allowed to another tool per case")
    ap.add_argument("--repeat", type=int, default=3, help="runs of pyopl and of the direct baseline per case (fastest kept)")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()

    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    rhetor_py = pyomo_py = linopy_py = pyoframe_py = None
    tools = set(args.tools if args.tools is not None else OTHERS) - ({"rhetor"} if args.no_rhetor else set())
    if not args.no_others:
        if "rhetor" in tools:
            rhetor_py = args.rhetor_python or venv_python("rhetor", *OTHERS["rhetor"])
        pyomo_py = venv_python("pyomo", *OTHERS["pyomo"]) if "pyomo" in tools else None
        linopy_py = venv_python("linopy", *OTHERS["linopy"]) if "linopy" in tools else None
        pyoframe_py = venv_python("pyoframe", *OTHERS["pyoframe"]) if "pyoframe" in tools else None

    results: list[dict] = []
    given_up: set[tuple[str, str]] = set()  # (tool, family) that timed out at a smaller size
    for case in models.cases(args.scale):
        if args.only and case.family not in args.only:
            continue
        case_dir = out_dir / "cases" / ("%s-%s" % (case.family, case.size.replace(" ", "")))
        case_dir.mkdir(parents=True, exist_ok=True)
        (case_dir / "model.mod").write_text(case.mod)
        (case_dir / "model.dat").write_text(case.dat)
        gen = {"assignment": "assignment", "transport": "transport", "facility": "facility",
               "netflow": "netflow", "production": "production", "subtour": "subtour"}[case.family]
        (case_dir / "case.json").write_text(json.dumps({"generator": gen, "args": _args_of(case)}))
        r: dict = {"family": case.family, "size": case.size}
        print("%-11s %-12s" % (case.family, case.size), end=" ", flush=True)
        # ours and the floor, each in fresh processes, alternated, the fastest of `--repeat` runs
        # kept (timeit's rule: slower runs measure the machine's other work, not the code)
        runs = {"pyopl": [], "direct": []}
        for _ in range(max(1, args.repeat)):
            runs["pyopl"].append(measure(py, "pyopl", case_dir, 1800))
            runs["direct"].append(measure(py, "direct", case_dir, 600))
        for tool, rs in runs.items():
            ok = [x for x in rs if "total_s" in x]
            r[tool] = dict(min(ok, key=lambda x: x["total_s"]), runs_total_s=[x["total_s"] for x in ok]) if ok else rs[0]
        r["check"] = measure(py, "check", case_dir, 1800)
        for tool, tpy in (("rhetor", rhetor_py), ("pyomo", pyomo_py), ("linopy", linopy_py),
                         ("pyoframe", pyoframe_py)):
            if tpy and (tool, case.family) not in given_up:
                r[tool] = measure(tpy, tool, case_dir, args.timeout)
                if "timeout" in r[tool] or "error" in r[tool]:
                    given_up.add((tool, case.family))
                elif r[tool].get("total_s", 1e9) < 2.0:  # cheap: the same fastest-of rule as ours
                    again = [measure(tpy, tool, case_dir, args.timeout) for _ in range(max(1, args.repeat) - 1)]
                    r[tool] = min([r[tool]] + [x for x in again if "total_s" in x], key=lambda x: x["total_s"])
        rh = r.get("rhetor") or {}
        if "total_s" in rh and "compile_s" in r["pyopl"] and rh["total_s"] < 20 * r["pyopl"]["compile_s"]:
            # short of 20x: how much of rhetor/20 a bare Lark parse of the model text already takes
            lk = [measure(py, "lark", case_dir, 600) for _ in range(max(1, args.repeat))]
            r["lark"] = min([x for x in lk if "parse_s" in x] or lk[:1], key=lambda x: x.get("parse_s", 1e9))
        p = r["pyopl"]
        print(" ".join("%s=%s" % (k, _tool_cell(r.get(k)) if k != "pyopl" else _fmt(p.get("compile_s", None)))
                       for k in ("pyopl", "direct", "rhetor", "pyomo", "linopy", "pyoframe") if k in r), flush=True)
        results.append(r)

    slopes = {}
    for fam in sorted({r["family"] for r in results}):
        pts = [(r["pyopl"]["nnz"], r["pyopl"]["compile_s"]) for r in results
               if r["family"] == fam and "compile_s" in r["pyopl"]]
        slopes[fam] = fit_slope(pts)
        # the slope over the three largest decades of sizes, where the fixed cost of a compile
        # (a few milliseconds in a fresh process) no longer dominates
        top = max((p[0] for p in pts), default=0)
        big = [p for p in pts if p[0] >= top / 1000.0]
        slopes[fam + " (top 3 decades)"] = fit_slope(big) if len(big) >= 2 else None
        last = [p for p in pts if p[0] >= top / 10.0]  # the largest decade: the per-nonzero cost alone
        slopes[fam + " (top decade)"] = fit_slope(last) if len(last) >= 2 else None
        # the floor's own slope over the same sizes: fixed costs bend it too
        floor = [(r["pyopl"]["nnz"], r["direct"]["total_s"]) for r in results
                 if r["family"] == fam and "total_s" in r.get("direct", {}) and "nnz" in r["pyopl"]]
        slopes[fam + " (direct baseline)"] = fit_slope(floor)
    extra = {"data_1M": data_load(), "parser": parser_speed()}
    meta = {"machine": platform.machine(), "cores": os.cpu_count(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M"), "scale": args.scale}
    (out_dir / "results.json").write_text(json.dumps(
        {"meta": meta, "cases": results, "slopes": slopes, "extra": extra, "targets": TARGETS}, indent=1))
    print()
    print(table(results))
    print()
    for k, v in slopes.items():
        print("slope %-28s %s" % (k, "%.2f" % v if v is not None else "-"))
    for r in results:
        if "parse_s" in (r.get("lark") or {}):
            print("%s %s: rhetor %.1f ms / 20 = %.2f ms; pyopl parse->IR %.2f ms; Lark's bare parse of the model text "
                  "%.2f ms (fresh process)" % (r["family"], r["size"], 1e3 * r["rhetor"]["total_s"],
                                               50 * r["rhetor"]["total_s"], 1e3 * r["pyopl"]["compile_s"],
                                               1e3 * r["lark"]["parse_s"]))
    d1 = extra["data_1M"]
    print("1,000,000-number .dat: %s s (peak %s MiB)" % (_fmt(d1.get("load_s")), _fmt(d1.get("peak_mib"))))
    ps = extra["parser"]
    if "lines_per_s" in ps:
        print("model parser: %d lines in %.2f s = %.0f lines/s (grammar built once in %.2f s)" % (
            ps["lines"], ps["parse_s"], ps["lines_per_s"], ps["grammar_s"]))
    if plot(results, slopes, out_dir / "compile_vs_nnz.png"):
        print("plot: %s" % (out_dir / "compile_vs_nnz.png"))
    print("results: %s" % (out_dir / "results.json"))


def _args_of(case: "models.Case") -> list:
    if case.family in ("netflow", "subtour"):
        return [int(case.size.split()[0])]
    a, _, b = case.size.partition("x")
    return [int(a)] if case.family == "assignment" else [int(a), int(b)]


if __name__ == "__main__":
    main()
