"""LP and MPS export through HiGHS's writer, with row and column names derived from OPL names.

Names follow the strictest rules of the formats and of the readers we test
(HiGHS and Gurobi; HiGHS's writer drops every name if one has a bracket):
indices go in parentheses, ``ship["Seattle"]["Chicago"]`` is written
``ship(Seattle,Chicago)`` and a tuple index ``<1,"a">`` as ``(1,a)``; only
letters, digits and ``_ . ( ) ,`` remain (anything else becomes ``_``),
at most 255 characters, no leading digit or period, no name that an LP
reader takes for a number (``e1``) or a keyword (``st``, ``bounds``, ``free``...).
Sanitised names that collide get ``_1``, ``_2``... so every name stays unique.
The objective constant is written as HiGHS's objective offset (a constant term in
LP, the negated RHS of the objective row in MPS), so re-reading the file gives
the same optimum.
"""
from __future__ import annotations

import re

from .ir import IR

# Words an LP reader treats as section keywords (CPLEX LP format, as read by HiGHS and Gurobi).
_LP_KEYWORDS = {"st", "s.t.", "subject", "such", "bound", "bounds", "bin", "binary", "binaries", "gen", "general",
                "generals", "int", "integer", "integers", "semi", "semis", "semi-continuous", "free", "end", "inf",
                "infinity", "min", "max", "minimize", "maximize", "minimum", "maximum", "sos", "sos1", "sos2"}


def _sanitise(names: list[str], limit: int = 255) -> list[str]:
    """Make each name legal in LP and MPS files and unique (the first spelling keeps its name)."""
    out: list[str] = []
    seen: set[str] = set()
    for n in names:
        s = re.sub(r"[^A-Za-z0-9_.(),]", "_", n)[:limit] or "x"
        if s[0].isdigit() or s[0] in ".()," or re.match(r"[eE](\d|$)", s) or s.lower() in _LP_KEYWORDS:
            s = ("n" + s)[:limit]
        if s in seen:
            k = 1
            while "%s_%d" % (s[:limit - 8], k) in seen:
                k += 1
            s = "%s_%d" % (s[:limit - 8], k)
        seen.add(s)
        out.append(s)
    return out


def _part(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(_part(x) for x in v) + ")"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _name(name: str, key: tuple) -> str:
    return name + ("(" + ",".join(_part(k) for k in key) + ")" if key else "")


def column_names(ir: IR) -> list[str]:
    """One legal, unique name per column: ``ship(Seattle,Chicago)``."""
    return _sanitise([_name(n, tuple(k)) for n, k in zip(ir.col_name, ir.col_key)])


def row_names(ir: IR) -> list[str]:
    """One legal, unique name per row: ``ctDemand(Chicago)``; ``c17`` for an unlabelled row 17;
    rows a linearisation added keep their constraint's label (``ctX#aux`` becomes ``ctX_aux``)."""
    return _sanitise([_name(l or "c%d" % i, tuple(k)) for i, (l, k) in enumerate(zip(ir.row_label, ir.row_key))])


def write_model(ir: IR, path: str, fmt: str) -> list[str]:
    """Write ``ir`` to ``path`` as ``lp`` or ``mps``; returns notes for the user (empty when nothing was lost).

    The objective constant is kept as an offset. A ``staticLex`` model is written with
    its first objective only (neither format has priorities), and the note says so.
    Written through :mod:`pyopl.safe_write` (a device such as ``/dev/null`` is written in place, a
    symbolic link's target is replaced, the mode kept). Raises
    :class:`~pyopl.safe_write.WriteError` (an OSError) when the file cannot be written."""
    from .backends.common import SolveOptions, quiet_stdout
    from .backends.highs import _new_solver, _pass

    notes = []
    if ir.lex_objectives and len(ir.lex_objectives) > 1:
        notes.append("staticLex: only the first of %d objectives is written (LP and MPS have no priorities)"
                     % len(ir.lex_objectives))
    if getattr(ir, "qcons", None):
        notes.append("the %d quadratic constraint(s) are NOT written (the HiGHS writer takes linear rows only): "
                     "the file is not the whole model" % len(ir.qcons))
    c, c0 = (ir.lex_objectives[0] if ir.lex_objectives else (ir.obj, ir.obj_constant))
    import os

    from .safe_write import write_with

    def produce(tmp: str) -> None:
        # HiGHS names the file itself and picks the format from the extension: it writes a
        # temporary `.lp`/`.mps` beside the target, which the safe writer then moves (safe_write.py).
        import highspy

        h = _new_solver(SolveOptions())
        with quiet_stdout():
            _pass(h, ir, c, c0, ir.sense)
            for j, name in enumerate(column_names(ir)):
                h.passColName(j, name)
            for i, name in enumerate(row_names(ir)):
                h.passRowName(i, name)
            status = h.writeModel(tmp)
        if status == highspy.HighsStatus.kError or not os.path.getsize(tmp):
            raise OSError("HiGHS could not write the model (is the disk full or the folder read-only?)")

    write_with(path, produce, suffix="." + fmt)
    return notes
