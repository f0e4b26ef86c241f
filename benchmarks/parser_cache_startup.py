"""Start-up cost of the parser-table strategies (issue 14: no pickle from a shared folder).

Runs ``python -c "import pyopl; pyopl.check(...)"`` in fresh processes, N times per strategy,
and prints medians: the process's wall and CPU time (CPU time is steadier on a busy machine) and
the wall time of building the parser tables in it:

- ``lark-tmp-pickle``: Lark's ``cache=True`` (a pickle in the shared /tmp; the old, unsafe way)
- ``no-cache``: the tables built in every process
- ``private-pickle``: Lark's pickle cache in a private 0700 folder
- ``private-marshal``: pyopl's choice (pyopl/syntax/parser_cache.py), plain data written with ``marshal``
  in a private 0700 folder (until December 2026: JSON of Lark's own serialisation, the same folder)

Each strategy runs once first to fill its cache. Usage: ``python benchmarks/parser_cache_startup.py [N]``.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

CHECK = ("import time; from pyopl.syntax.parser import lark_parser; t = time.perf_counter(); lark_parser('opl'); "
         "lark_parser('dat'); print(time.perf_counter() - t); "
         "import pyopl; pyopl.check('dvar float x; minimize x; subject to { x >= 1; }')")
PATCH = {
    "lark-tmp-pickle": "from lark import Lark; import pyopl.syntax.parser_cache as pc; from pyopl.syntax.parser import grammar_text; "
                       "pc.build = lambda n: Lark(grammar_text(n), cache=True, **pc.OPTIONS); ",
    "no-cache": "from lark import Lark; import pyopl.syntax.parser_cache as pc; from pyopl.syntax.parser import grammar_text; "
                "pc.build = lambda n: Lark(grammar_text(n), **pc.OPTIONS); ",
    "private-pickle": "import os; from lark import Lark; import pyopl.syntax.parser_cache as pc; "
                      "from pyopl.syntax.parser import grammar_text; "
                      "pc.build = lambda n: Lark(grammar_text(n), cache=os.path.join(pc.cache_folder(), n + '.pickle'), **pc.OPTIONS); ",
    "private-marshal": "",
}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as cache:
        os.chmod(cache, 0o700)
        env = dict(os.environ, PYTHONPATH=root, XDG_CACHE_HOME=cache)
        codes = {name: patch + CHECK for name, patch in PATCH.items()}
        for code in codes.values():
            subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)  # fills the cache
        wall: dict[str, list[float]] = {k: [] for k in codes}
        tables: dict[str, list[float]] = {k: [] for k in codes}
        cpu: dict[str, list[float]] = {k: [] for k in codes}
        for _ in range(n):  # interleaved, so a change of machine load hits every strategy alike
            for name, code in codes.items():
                t = time.perf_counter()
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                wall[name].append(time.perf_counter() - t)
                cpu[name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
                tables[name].append(float(out.stdout.split()[0]))
        print("%-16s %14s %14s %14s" % ("strategy", "process wall", "process CPU", "tables wall"))
        for name in codes:
            print("%-16s %13.3fs %13.3fs %13.3fs" % (name, statistics.median(wall[name]), statistics.median(cpu[name]),
                                                    statistics.median(tables[name])))
        base = time.perf_counter()
        for _ in range(n):
            subprocess.run([sys.executable, "-c", "import pyopl"], env=env, check=True)
        print("%-16s %13.3fs" % ("import pyopl", (time.perf_counter() - base) / n))


if __name__ == "__main__":
    main()
