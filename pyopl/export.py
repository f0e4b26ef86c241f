"""LP and MPS export through HiGHS's writer (names derived from OPL names, sanitised and unique)."""
from __future__ import annotations

import re

from .ir import IR


def _sanitise(names: list[str], limit: int = 255) -> list[str]:
    out, seen = [], {}
    for n in names:
        s = re.sub(r"[^A-Za-z0-9_.\[\]]", "_", n)[:limit] or "x"
        if s[0].isdigit() or s[0] in ".[":
            s = "n" + s
        base, k = s, seen.get(s, 0)
        while s in seen:
            k += 1
            s = "%s_%d" % (base, k)
        seen[s] = 0
        seen[base] = k
        out.append(s)
    return out


def column_names(ir: IR) -> list[str]:
    from .ir import opl_label

    return _sanitise([opl_label(n, k).replace('"', "") for n, k in zip(ir.col_name, ir.col_key)])


def row_names(ir: IR) -> list[str]:
    from .ir import opl_label

    return _sanitise([opl_label(l or "c%d" % i, k).replace('"', "") for i, (l, k) in enumerate(zip(ir.row_label, ir.row_key))])


def write_model(ir: IR, path: str, fmt: str) -> None:
    """Write ``ir`` to ``path`` as ``lp`` or ``mps`` (the objective constant is kept as an offset)."""
    from .backends.common import SolveOptions, quiet_stdout
    from .backends.highs import _new_solver, _pass

    h = _new_solver(SolveOptions())
    with quiet_stdout():
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
        for j, name in enumerate(column_names(ir)):
            h.passColName(j, name)
        for i, name in enumerate(row_names(ir)):
            h.passRowName(i, name)
        if not path.lower().endswith("." + fmt):
            path = path + "." + fmt
        h.writeModel(path)
