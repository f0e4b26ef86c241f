"""Differential test of pyopl's script interpreter against Node.js over generated ES3 programs.

    python benchmarks/es_differential.py [--seed S] [--programs N] [--checks K] [--show M]

Prints the number of checks, how many agree, the agreement rate and the first M differences
(``check text``, Node's line, ours).  Needs ``node`` on the PATH (Debian: ``apt-get install
nodejs``).  The programs come from :mod:`es_programs` (same seed, same programs).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from es_programs import programs  # noqa: E402

NODE_WRITELN = ("function writeln() { var s = ''; for (var i = 0; i < arguments.length; i++) s += String(arguments[i]);"
                " process.stdout.write(s + '\\n'); }\n")


def run_node(progs: list[str]) -> list[list[str]]:
    """Each program's output lines from one Node process (each program in its own function)."""
    text = NODE_WRITELN + "\n".join("writeln('##PROGRAM');\n(function () {\n%s\n})();" % p for p in progs)
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False, encoding="utf-8") as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run(["node", path], capture_output=True, text=True, timeout=600,
                             env={"TZ": "UTC", "PATH": "/usr/bin:/bin:/usr/local/bin"}).stdout
    finally:
        Path(path).unlink()
    chunks = out.split("##PROGRAM\n")[1:]
    return [c.splitlines() for c in chunks]


def _run_one(text: str) -> list[str]:
    from pyopl.script.engine.interpreter import Interpreter
    from pyopl.script.engine.parser import parse_script
    from pyopl.script.language.values import ScriptError

    parsed = parse_script(text)
    if isinstance(parsed, list):
        return ["PARSE:" + parsed[0].code + " " + parsed[0].message]
    out: list[str] = []
    try:
        Interpreter(output=out.append).run(parsed)
    except ScriptError as e:
        out.append("DIAG:%s %s\n" % (e.code, e.message))
    return "".join(out).splitlines()


def run_pyopl(prog: str) -> list[str]:
    """The output lines of one program run by pyopl's interpreter.  Where the whole program does not
    parse, or stops at a diagnostic, each check runs on its own (so one check costs one line)."""
    lines = _run_one(prog)
    checks = [ln for ln in prog.splitlines() if ln.startswith("try {")]
    if len(lines) == len(checks) and not any(ln.startswith(("PARSE:", "DIAG:")) for ln in lines):
        return lines
    prelude = prog[:prog.index("try {")]
    out = []
    for c in checks:
        one = _run_one(prelude + c)
        out.append(one[0] if one else "<none>")
    return out


def compare(seed: int, count: int, checks: int):
    """(total checks, agreeing checks, [(check text, node line, our line)])."""
    progs = programs(seed, count, checks)
    node = run_node(progs)
    total = agree = 0
    diffs = []
    for prog, theirs in zip(progs, node):
        ours = run_pyopl(prog)
        lines = [ln for ln in prog.splitlines() if ln.startswith("try {")]
        for i, line in enumerate(lines):
            a = theirs[i] if i < len(theirs) else "<none>"
            b = ours[i] if i < len(ours) else "<none>"
            total += 1
            if a == b:
                agree += 1
            else:
                diffs.append((line[len("try { writeln(show("):line.index('); } catch')], a, b))
    return total, agree, diffs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=100)
    ap.add_argument("--checks", type=int, default=40)
    ap.add_argument("--show", type=int, default=20)
    a = ap.parse_args(argv)
    if shutil.which("node") is None:
        print("node is not installed (apt-get install nodejs)")
        return 2
    total, agree, diffs = compare(a.seed, a.programs, a.checks)
    print("checks %d, agree %d, rate %.4f" % (total, agree, agree / max(1, total)))
    for text, theirs, ours in diffs[:a.show]:
        print("  %s\n    node:  %s\n    pyopl: %s" % (text, theirs, ours))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
