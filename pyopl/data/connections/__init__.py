"""IBM's ``.dat`` data sources: spreadsheets (``SheetConnection``, ``SheetRead``, ``SheetWrite``),
databases (``DBConnection``, ``DBRead``, ``DBUpdate``, ``DBExecute``) and CSV files
(``CSVConnection``, ``CSVRead``). Reads happen while the data is loaded (the values are shaped by
the declaration they fill: :mod:`.table`); writes and ``DBExecute`` statements are recorded, checked
(:mod:`.confine`) and run after the solve (:mod:`.publish`). docs/data-sources.md describes them.

The loader hands each statement the data grammar read to :func:`take_statement`.
"""
from __future__ import annotations

from typing import Any

from ...diagnostics.diagnostic import Span
from ..parser import DataItem
from .sources import READERS, SourceError
from .statements import CONNECTION_KINDS, TRANSFERS, StatementError, parse_connection, parse_transfer

__all__ = ["take_statement", "SourceError"]


def take_statement(entry: tuple, reporter: Any, items: Any, base_dir: str | None, file: str) -> DataItem | None:
    """One ``("connection", ...)`` or ``("transfer", ...)`` entry of :func:`pyopl.data.parser.parse_data`:
    a connection is recorded in ``items.connections``; a read returns the :class:`DataItem` it fills;
    a write or a ``DBExecute`` is recorded in ``items.publish`` (run after the solve). Mistakes are
    reported on ``reporter`` at their place in the .dat file; nothing is raised."""
    try:
        if entry[0] == "connection":
            _, word, word_tok, rest, span = entry
            if word in CONNECTION_KINDS:
                if rest is None:
                    raise StatementError("`%s` needs a name and its arguments" % word, span,
                                         help='e.g. `%s s("file")`' % word)
                conn = parse_connection(word, str(rest), rest.line, rest.column, file, span, base_dir, reporter)
                items.connections[conn.name] = conn
                return None
            if word != "DBExecute":
                raise StatementError("`%s` reads or writes an element: write `x from %s(...)` or `x to %s(...)`"
                                     % (word, word, word), span, help="name the data element it fills or publishes")
            text = word + (str(rest) if rest is not None else "")
            t = parse_transfer(None, None, text, word_tok.line, word_tok.column, file, span, reporter)
            return _record(t, items, reporter)
        _, direction, target, target_span, rest, span = entry
        t = parse_transfer(target, target_span, str(rest), rest.line, rest.column, file, span, reporter)
        if (t.action == "read") != (direction == "from"):
            raise StatementError("`%s` %s, so it follows `%s`" % (
                t.word, "reads" if t.action == "read" else "writes", "from" if t.action == "read" else "to"), span,
                help="write `%s %s %s(...)`" % (target, "from" if t.action == "read" else "to", t.word))
        if t.action == "execute":
            raise StatementError("`DBExecute` stands on its own: `DBExecute(db, \"...\");`", span,
                                 help="remove `%s to`" % target)
        return _record(t, items, reporter)
    except StatementError as e:
        reporter.emit("data-unsupported-connection", e.span, e.message, help=e.help)
    except SourceError as e:
        reporter.emit(e.slug, e.span, e.message, help=e.help)
    return None


def _record(t: Any, items: Any, reporter: Any) -> DataItem | None:
    conn = items.connections.get(t.connection.value)
    kind = TRANSFERS[t.word][0]
    if conn is None:
        from ...diagnostics.reporter import did_you_mean

        near = did_you_mean(t.connection.value, list(items.connections))
        raise SourceError("data-connection-unknown", "`%s` is not a connection declared above" % t.connection.value,
                          t.connection.span, help=near or "declare it first, e.g. `%s %s(\"...\");`" % (
                              next(w for w, k in CONNECTION_KINDS.items() if k == kind), t.connection.value))
    if conn.kind != kind:
        raise SourceError("data-connection-unknown", "`%s` takes a %s connection, but `%s` is a %s" % (
            t.word, _KIND_NAMES[kind], conn.name, next(w for w, k in CONNECTION_KINDS.items() if k == conn.kind)),
            t.connection.span, help="use a `%s`" % next(w for w, k in CONNECTION_KINDS.items() if k == kind))
    if t.action == "read":
        table = READERS[kind](conn, t.query)
        return DataItem(t.target, table, t.span, t.target_span, t.query.span, t.span.file)
    if kind == "sheet":
        from .sources import source_path

        source_path(conn, conn.args[0])  # the workbook must exist: its copy in the output folder is written
    items.publish.append((t, conn))
    return None


_KIND_NAMES = {"sheet": "`SheetConnection`", "db": "`DBConnection`", "csv": "`CSVConnection`"}
