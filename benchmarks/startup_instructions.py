"""Start-up in instructions: what ``benchmarks/startup.py`` times, counted with valgrind's callgrind.

    python benchmarks/startup_instructions.py                 # this checkout
    python benchmarks/startup_instructions.py --before=DIR    # and DIR's pyopl (e.g. a copy of an older commit)

Wall and CPU time of a fresh process on the shared machine move with the load; the number of
user-space instructions a process executes does not (repeated runs agree within about 0.3%), so
two versions can be compared at any load. Each command runs once first (``.pyc`` files, the
parser-table cache), then once under ``valgrind --tool=callgrind``; bytecode caching on, as in
an installed package. The stages add to each other in one process: the libraries, pyopl's
command line and API modules, Lark, the compiler's modules, the model grammar's tables and the
AST parser, then the whole ``pyopl solve examples/transport.mod examples/transport.dat``.
Needs ``valgrind`` on PATH; about 20-60 s per command.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STAGES = [
    ("python -c pass", "pass"),
    ("import highspy, numpy", "import highspy, numpy"),
    ("import pyopl", "import pyopl"),
    ("+ pyopl.cli, pyopl.api", "import highspy, numpy, pyopl.cli, pyopl.api"),
    ("+ lark", "import highspy, numpy, pyopl.cli, pyopl.api, lark"),
    ("+ the compiler's modules", "import highspy, numpy, pyopl.cli, pyopl.api, lark, pyopl.syntax.parser, "
     "pyopl.data.loader, pyopl.lowering.build, pyopl.lowering.driver, pyopl.lowering.instance, "
     "pyopl.semantics.checker, pyopl.syntax.nesting, pyopl.script, pyopl.backends.mp.highs"),
    ("+ tables and AST parser", "import highspy, numpy, pyopl.cli, pyopl.api, lark, pyopl.syntax.parser, "
     "pyopl.data.loader, pyopl.lowering.build, pyopl.lowering.driver, pyopl.lowering.instance, "
     "pyopl.semantics.checker, pyopl.syntax.nesting, pyopl.script, pyopl.backends.mp.highs\n"
     "from pyopl.syntax.parser_cache import lark_parser\nfrom pyopl.syntax.inline_parse import _ast_parser\n"
     "lark_parser('opl'); _ast_parser()"),
]


def count(args: list[str], root: Path, env: dict[str, str]) -> int:
    """User-space instructions of ``python ARGS`` run in ``root`` with ``root``'s pyopl."""
    env = dict(env, PYTHONPATH=str(root))
    subprocess.run([sys.executable] + args, env=env, cwd=str(root), capture_output=True, check=True)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable] + args,
                         env=env, cwd=str(root), capture_output=True, text=True, check=True)
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if m is None:
        raise RuntimeError("callgrind printed no count:\n" + out.stderr[-2000:])
    return int(m.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    before = next((Path(a.split("=", 1)[1]).resolve() for a in sys.argv[1:] if a.startswith("--before=")), None)
    solve = ["-m", "pyopl", "solve", str(ROOT / "examples" / "transport.mod"), str(ROOT / "examples" / "transport.dat")]
    with tempfile.TemporaryDirectory() as pyc:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=pyc)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        rows = [(name, count(["-c", code], ROOT, env)) for name, code in STAGES]
        rows.append(("pyopl solve transport", count(solve, ROOT, env)))
        if before is not None:
            rows.append(("import pyopl (before)", count(["-c", "import pyopl"], before, env)))
            rows.append(("pyopl solve transport (before)", count(solve, before, env)))
    libs = dict(rows)["import highspy, numpy"]
    print("%-32s %16s %14s" % ("command", "instructions", "beyond hs+np"))
    for name, n in rows:
        print("%-32s %16s %14s" % (name, f"{n:,}", f"{n - libs:,}" if n >= libs else ""))


if __name__ == "__main__":
    main()
