"""After the solve: the ``.dat`` file's writes (``x to SheetWrite(...)``, ``x to DBUpdate(...)``) and
``DBExecute`` statements, in the file's order (IBM's "publish" step, after post-processing).

- ``SheetWrite`` never changes the workbook the data was read from: the first write of a run copies
  it into the run's output folder (``--output-dir``, by default ``<model stem>.out``) and every
  write goes into that copy (docs/data-sources.md). The copy is saved through a temporary file
  renamed over it.
- ``DBUpdate`` runs its statement once per element, the element's fields bound to the ``?``
  placeholders; ``DBExecute`` runs its statement as it is. Each connection commits once, at the
  end, and only when every write of it succeeded (a failed write rolls the others back).

Nothing is published for a run without a solution, nor for a failed run.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Callable

from ...semantics.values import OplArray, OplSet, OplTuple
from .sources import SourceError, database, sheet_range, workbook


def close_all(conns: Any) -> None:
    """Close every open workbook or database of ``conns`` (they are opened again when needed)."""
    for conn in conns:
        h = conn.handle
        conn.handle = None
        if h is not None and hasattr(h, "close"):
            try:
                h.close()
            except Exception:  # a connection already gone: nothing left to close
                pass


def rows_of(value: Any) -> list[list[Any]]:
    """An OPL value as rows of cells: a scalar one cell; a set one row per element (a tuple's fields
    across); a one-dimensional array one row per cell (a tuple's fields across, or the value); a
    two-dimensional array one row per first index."""
    if isinstance(value, OplSet) or isinstance(value, (set, frozenset)):
        return [_flat(v) for v in value]
    if isinstance(value, (OplArray, dict)):
        data = value.data if isinstance(value, OplArray) else value
        keys = [k if isinstance(k, tuple) else (k,) for k in data]
        vals = list(data.values())
        if keys and len(keys[0]) == 2:
            grid: dict = {}
            for k, v in zip(keys, vals):
                grid.setdefault(k[0], []).append(_cell(v))
            return list(grid.values())
        return [_flat(v) for v in vals]
    return [_flat(value)]


def _flat(v: Any) -> list[Any]:
    if isinstance(v, (OplTuple, tuple, list)):
        out: list = []
        for x in v:
            out.extend(_flat(x) if isinstance(x, (OplTuple, tuple)) else [_cell(x)])
        return out
    return [_cell(v)]


def _cell(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    return v


def keyed_rows(value: Any) -> list[list[Any]]:
    """Rows for ``DBUpdate``: a set's elements (fields across), an array's cells as its index values
    followed by the value, a scalar as one row of one value."""
    if isinstance(value, (OplArray, dict)):
        data = value.data if isinstance(value, OplArray) else value
        return [_flat(k if isinstance(k, tuple) else (k,)) + _flat(v) for k, v in data.items()]
    return rows_of(value)


def publish(entries: list, value_of: Callable[[Any], Any], output_root: str | None, reporter: Any) -> list[str]:
    """Run the recorded writes of a solved run; returns the files written. Each failure is reported
    on ``reporter`` at its ``.dat`` line (``data-connection-failed``, ``data-source-missing``,
    ``data-shape-mismatch``) and the rest still run, except the writes of a database that failed."""
    written: list[str] = []
    copies: dict[str, Any] = {}  # connection name -> (workbook, path of the copy)
    failed: set[str] = set()
    conns = {}
    for t, conn in entries:
        conns[conn.name] = conn
        if conn.name in failed:
            continue
        try:
            if conn.kind == "sheet":
                _sheet_write(t, conn, value_of(t), output_root, copies)
            else:
                db = database(conn)
                if t.action == "execute":
                    db.execute(t.query.value, (), t.query.span)
                else:
                    for row in keyed_rows(value_of(t)):
                        db.execute(t.query.value, tuple(row), t.query.span)
        except SourceError as e:
            reporter.emit(e.slug, e.span, e.message, help=e.help)
            failed.add(conn.name)
    for name, (wb, path) in copies.items():
        if name in failed:
            continue
        fd, tmp = tempfile.mkstemp(prefix=".pyopl-", suffix=".xlsx", dir=os.path.dirname(path))
        os.close(fd)
        try:
            wb.save(tmp)
            os.replace(tmp, path)
            written.append(path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    for name, conn in conns.items():
        if conn.kind == "db" and conn.handle is not None:
            if name in failed:
                conn.handle.db.rollback()
            else:
                conn.handle.commit()
    close_all(conns.values())
    return written


def _sheet_write(t: Any, conn: Any, value: Any, output_root: str | None, copies: dict) -> None:
    if conn.name not in copies:
        src_wb = workbook(conn)  # checks the input exists and is a workbook
        if output_root is None:
            raise SourceError("data-connection-failed", "`SheetWrite` writes a copy of \"%s\" into the output folder, and "
                              "this run has none (the model was given as text)" % conn.args[0].value, t.query.span,
                              help="compile the model from its file, or give `output_dir=` (`--output-dir DIR`)")
        os.makedirs(output_root, exist_ok=True)
        target = os.path.join(os.path.realpath(output_root), os.path.basename(conn.path))
        if os.path.realpath(target) == os.path.realpath(conn.path):
            raise SourceError("data-connection-failed", "the output folder holds the input workbook \"%s\" itself"
                              % conn.args[0].value, t.query.span,
                              help="give another output folder (`--output-dir DIR`): the input is never written over")
        if os.path.islink(target):
            raise SourceError("data-connection-failed", "the copy `%s` would be written through a symbolic link" % target,
                              t.query.span, help="remove the link from the output folder")
        shutil.copyfile(conn.path, target + ".part")
        os.replace(target + ".part", target)
        src_wb.close() if hasattr(src_wb, "close") else None
        import openpyxl

        conn.handle = openpyxl.load_workbook(target)  # formulas kept: only the written cells change
        copies[conn.name] = (conn.handle, target)
    wb = copies[conn.name][0]
    ws, ref = sheet_range(wb, conn, t.query)
    from openpyxl.utils.cell import range_boundaries

    c0, r0, c1, r1 = range_boundaries(ref if ":" in ref else "%s:%s" % (ref, ref))
    rows = rows_of(value)
    height, width = r1 - r0 + 1, c1 - c0 + 1
    if height == 1 and width > 1 and all(len(r) == 1 for r in rows):  # a column of values into a row range
        rows = [[r[0] for r in rows]]
    n, w = len(rows), max((len(r) for r in rows), default=0)
    if n > height or w > width:
        raise SourceError("data-shape-mismatch", "`%s` has %d row%s and %d column%s, more than the range \"%s\" holds "
                          "(%d x %d)" % (t.target, n, "s" * (n != 1), w, "s" * (w != 1), t.query.value, height, width),
                          t.query.span, help="make the range at least %d x %d" % (n, w))
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            cell = ws.cell(row=r0 + i, column=c0 + j, value=v)
            if isinstance(v, str) and cell.data_type == "f":  # openpyxl takes text starting with `=` as a formula:
                cell.data_type = "s"  # the model's string is written as text (no formula injection)
