#!/usr/bin/env python3
"""The outcome of every model of a CP corpus and, for each that reaches no solver answer, why.

Usage (from the project root):
  python tools/cp_corpus_reasons.py [--corpus ../shared/cp-corpus] [--time-limit S] [--only ID,ID]

Each model is solved with ``python -m pyopl solve ... --format json`` (its ``model.dat`` when there is
one, its folder as the working directory, a scratch output folder); one line per model: its id, the
status, the objective, and for a model that reaches no answer (optimal, feasible, time_limit with a
solution, infeasible) the first error diagnostics (code and message).  The last line counts them.
``../shared/tools/check_corpus.py --corpus cp-corpus`` gives the same pass/fail without the reasons.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ANSWERS = {"optimal", "feasible", "time_limit", "infeasible"}


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def outcome(folder: str, time_limit: str) -> tuple[str, object, list]:
    """``(status, objective, [(code, message), ...] of the errors)`` of the model in ``folder``."""
    args = [os.path.join(folder, "model.mod")]
    if os.path.exists(os.path.join(folder, "model.dat")):
        args.append(os.path.join(folder, "model.dat"))
    out_dir = tempfile.mkdtemp(prefix="cp-corpus-")
    try:
        p = subprocess.run([sys.executable, "-m", "pyopl", "solve"] + args + [
            "--format", "json", "--time-limit", time_limit, "--output-dir", out_dir],
            capture_output=True, text=True, timeout=int(float(time_limit)) * 3 + 30, cwd=folder)
        out = json.loads(p.stdout)
    except (subprocess.TimeoutExpired, ValueError) as e:
        return "cli-failure (%s)" % type(e).__name__, None, []
    status = str(out.get("status"))
    if status == "time_limit" and out.get("objective") is None and not out.get("values"):
        status = "time_limit (no solution)"
    errors = [(d.get("code"), d.get("message", "")) for d in out.get("diagnostics", []) if d.get("severity") == "error"]
    return status, out.get("objective"), errors


def main() -> int:
    corpus = _arg("--corpus", os.path.join("..", "shared", "cp-corpus"))
    time_limit = _arg("--time-limit", "10")
    only = set(_arg("--only", "").split(",")) - {""}
    models = json.load(open(os.path.join(corpus, "manifest.json"), encoding="utf-8"))["models"]
    answered = 0
    for m in models:
        if only and m["id"] not in only:
            continue
        status, obj, errors = outcome(os.path.abspath(os.path.join(corpus, m["id"])), time_limit)
        ok = status in ANSWERS
        answered += ok
        print("%-4s %-40s %-26s %s" % ("ok" if ok else "FAIL", m["id"], status, "" if obj is None else obj))
        if not ok:
            for code, message in errors[:2]:
                print("       %s %s" % (code, message[:200]))
    total = len(models) if not only else len(only)
    print("%d of %d reach a solver answer" % (answered, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
