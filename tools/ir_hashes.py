#!/usr/bin/env python3
"""A hash of the IR of every model of the shared MP corpora, to compare two trees (or the array paths on and off).

Usage (from the project root; each model compiled in its own process with ``PYTHONPATH`` the tree given)::

    python tools/ir_hashes.py --tree /work/main > /tmp/main.txt
    python tools/ir_hashes.py --tree . > /tmp/branch.txt
    diff /tmp/main.txt /tmp/branch.txt

Options: ``--corpus NAME`` (repeatable; default ``opl-corpus`` and ``opl-corpus2``), ``--only ID,ID``,
``--paths-off`` (the array paths switched off as ``tests/ir_compare.array_paths_off`` does), ``--timeout S``.
Each line: the model's id and a SHA-256 of its bounds, objective, matrix (CSR, indices sorted), integrality,
column names and keys, row labels, keys and statements and the row families, and for a ``using CP;`` model
the CP-SAT model it builds (intervals, cumul functions, global constraints); or ``error: <kind>`` where
compiling raised (a compile error's codes are hashed as the IR is). Run it twice with different
``PYTHONHASHSEED`` values (``--corpus cp-corpus`` too) to find a lowering whose output depends on hash order.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared")

CHILD = r"""
import hashlib, sys, tempfile
import numpy as np
mod, dat, off = sys.argv[1], sys.argv[2] or None, sys.argv[3] == "1"
if off:
    import os
    sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"], "tests"))
    import pytest
    from ir_compare import array_paths_off
    array_paths_off(pytest.MonkeyPatch())
import pyopl
h = hashlib.sha256()
try:
    ir = pyopl.compile_model(mod, data=dat, output_dir=tempfile.mkdtemp(prefix="irhash-")).ir
except pyopl.CompileError as e:
    h.update(repr(sorted(d.code for d in e.diagnostics)).encode())
    print("compile-error " + h.hexdigest()[:16])
    sys.exit(0)
if ir is None:
    print("no-ir")
    sys.exit(0)
for f in ("obj", "col_lower", "col_upper", "row_lower", "row_upper", "col_integer"):
    a = np.ascontiguousarray(getattr(ir, f))
    h.update(f.encode() + str(a.dtype).encode() + a.tobytes())
h.update(repr(ir.obj_constant).encode())
A = ir.A.tocsr()
A.sort_indices()
for a in (A.indptr, A.indices, A.data):
    h.update(np.ascontiguousarray(a).tobytes())
h.update(repr((A.shape, list(ir.col_name), list(ir.col_key), list(ir.row_label), list(ir.row_key),
               list(ir.row_stmt))).encode())
h.update(repr(sorted((k, list(f.rows), list(f.keys), f.indexed) for k, f in ir.families.items())).encode())
if ir.engine == "cp":  # intervals, cumul functions and global constraints: the CP-SAT model they make
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    h.update(str(cpsat.build(cp_model, ir)[0].Proto()).encode())
print(h.hexdigest()[:16])
"""


def main(argv: list[str]) -> int:
    """Print one line per model: ``id hash``. Returns the process exit status (0)."""
    arg = lambda k, d: argv[argv.index(k) + 1] if k in argv else d  # noqa: E731
    tree = os.path.abspath(arg("--tree", "."))
    corpora = [argv[k + 1] for k, a in enumerate(argv) if a == "--corpus"] or ["opl-corpus", "opl-corpus2"]
    only = set(arg("--only", "").split(",")) - {""}
    timeout = int(arg("--timeout", "120"))
    env = dict(os.environ, PYTHONPATH=tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for corpus in corpora:
        root = os.path.join(SHARED, corpus)
        for e in json.load(open(os.path.join(root, "manifest.json")))["models"]:
            if only and e["id"] not in only:
                continue
            d = os.path.join(root, e["id"])
            dat = os.path.join(d, "model.dat")
            cmd = [sys.executable, "-c", CHILD, os.path.join(d, "model.mod"), dat if os.path.exists(dat) else "",
                   "1" if "--paths-off" in argv else "0"]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=d, env=env)
                out = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else \
                    "error: " + (p.stderr.strip().splitlines() or ["?"])[-1][:80]
            except subprocess.TimeoutExpired:
                out = "error: timeout"
            print(f"{corpus}/{e['id']} {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
