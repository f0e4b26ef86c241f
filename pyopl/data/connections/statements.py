"""The connection statements of a ``.dat`` file, as IBM's OPL Language Reference writes them
("SheetConnection", "SheetRead", "SheetWrite", "DBConnection", "DBRead", "DBUpdate", "DBExecute",
and the CSV data source's "CSVConnection"/"CSVRead"), read from the text the data grammar leaves
after the keyword (``REST`` in grammar/dat.lark) into small records with the spans of their parts.

- ``SheetConnection s("book.xlsx");`` ``DBConnection db("sqlite", "plan.db");``
  ``CSVConnection c("rooms.csv?firstIsHeader=true", "");`` -> :class:`Connection`
- ``x from SheetRead(s, "Sheet1!A1:C3");`` ``x from DBRead(db, "SELECT ...");``
  ``x from CSVRead(c, "");`` -> :class:`Transfer` with ``action`` "read"
- ``x to SheetWrite(s, "B2:B5");`` ``x to DBUpdate(db, "INSERT ... VALUES(?, ?)");`` -> "write"
- ``DBExecute(db, "DELETE FROM t");`` -> "execute" (run after the solve, in the file's order)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...diagnostics.diagnostic import Span

#: connection keyword -> kind of data source
CONNECTION_KINDS = {"SheetConnection": "sheet", "DBConnection": "db", "CSVConnection": "csv"}
#: transfer keyword -> (kind of connection it takes, action)
TRANSFERS = {"SheetRead": ("sheet", "read"), "SheetWrite": ("sheet", "write"), "DBRead": ("db", "read"),
             "DBUpdate": ("db", "write"), "DBExecute": ("db", "execute"), "CSVRead": ("csv", "read")}

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<name>[^\W\d]\w*)|(?P<p>[(),]))')


@dataclass
class Arg:
    """One argument: a string literal's value (``is_name`` False) or a name, with its span."""

    value: str
    is_name: bool
    span: Span


@dataclass
class Connection:
    """``SheetConnection s("book.xlsx");``: ``kind`` "sheet", "db" or "csv", the name ``s``, its
    string arguments, the folder its relative file names are read from (None for data given as
    text: no file may be opened then) and where it is written."""

    kind: str
    name: str
    args: list[Arg]
    span: Span
    base_dir: str | None
    handle: Any = field(default=None, repr=False)  # the open workbook or database (sources.py)
    path: str | None = None  # the file it opened (a workbook's, for the copy SheetWrite writes)


@dataclass
class Transfer:
    """A read (``x from SheetRead(s, "A1:B2")``), a write after the solve (``x to DBUpdate(...)``)
    or a statement run after the solve (``DBExecute(db, "...")``, ``target`` None)."""

    action: str
    word: str
    target: str | None
    target_span: Span | None
    connection: Arg
    query: Arg
    span: Span


class StatementError(Exception):
    """A statement that is not written as IBM's syntax says: ``message`` at ``span``."""

    def __init__(self, message: str, span: Span, help: str):
        super().__init__(message)
        self.message, self.span, self.help = message, span, help


def _call(text: str, line: int, column: int, file: str, whole: Span, reporter: Any = None
          ) -> tuple[str, list[Arg], Span]:
    """``name(arg, arg)`` in ``text`` (which starts at ``line``:``column``) -> (name, args, name span)."""
    toks, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            if text[i:].strip() == "":
                break
            raise StatementError("`%s` is not a connection call" % text.strip(), whole,
                                 help='write it as IBM does, e.g. `SheetRead(s, "Sheet1!A1:B3")`')
        start = m.start(m.lastgroup)
        toks.append((m.lastgroup, m.group(m.lastgroup), _span(text, start, m.end(), line, column, file)))
        i = m.end()
    if len(toks) < 3 or toks[0][0] != "name" or toks[1][1] != "(" or toks[-1][1] != ")":
        raise StatementError("`%s` is not a connection call" % text.strip(), whole,
                             help='write it as IBM does, e.g. `SheetRead(s, "Sheet1!A1:B3")`')
    args, inner = [], toks[2:-1]
    for k, (kind, value, span) in enumerate(inner):
        if k % 2 == 1:
            if value != ",":
                raise StatementError("a `,` is missing between the arguments", span, help="separate the arguments with `,`")
            continue
        if kind == "str":
            from ...syntax.handlers import _unquote, unquote_warning

            text_of = _unquote(value) if reporter is None else unquote_warning(reporter, value, file, span.line,
                                                                                span.column)
            args.append(Arg(text_of, False, span))
        elif kind == "name":
            args.append(Arg(value, True, span))
        else:
            raise StatementError("an argument is missing", span, help="give the connection's name and a string")
    return toks[0][1], args, toks[0][2]


def _span(text: str, start: int, end: int, line: int, column: int, file: str) -> Span:
    before = text[:start]
    l0 = line + before.count("\n")
    c0 = (column + len(before)) if "\n" not in before else len(before) - before.rfind("\n")
    return Span(file, l0, c0, l0, c0 + (end - start))


def parse_connection(word: str, rest: str, rest_line: int, rest_col: int, file: str, whole: Span,
                     base_dir: str | None, reporter: Any = None) -> Connection:
    """``SheetConnection`` + `` s("book.xlsx")`` -> :class:`Connection`. Raises :class:`StatementError`.
    ``reporter``: where an escape OPL does not define in a string argument is warned (OPL0931)."""
    name, args, _ = _call(rest, rest_line, rest_col, file, whole, reporter)
    if any(a.is_name for a in args) or not args:
        raise StatementError("`%s %s` takes string arguments" % (word, name), whole,
                             help='e.g. `%s %s("file")`' % (word, name))
    return Connection(CONNECTION_KINDS[word], name, args, whole, base_dir)


def parse_transfer(target: str | None, target_span: Span | None, rest: str, rest_line: int, rest_col: int,
                   file: str, whole: Span, reporter: Any = None) -> Transfer:
    """`` SheetRead(s, "A1:B2")`` after ``x from`` (or ``x to``, or a bare ``DBExecute``) -> :class:`Transfer`.
    ``reporter`` as for :func:`parse_connection`."""
    word, args, word_span = _call(rest, rest_line, rest_col, file, whole, reporter)
    if word not in TRANSFERS:
        raise StatementError("`%s` is not a data source: IBM's are SheetRead, DBRead, CSVRead (after `from`), "
                             "SheetWrite, DBUpdate (after `to`) and DBExecute" % word, word_span,
                             help="read with `x from SheetRead(s, \"A1:B3\")` or `x from DBRead(db, \"SELECT ...\")`")
    if len(args) != 2 or not args[0].is_name or args[1].is_name:
        raise StatementError("`%s` takes a connection name and a string (`%s(conn, \"...\")`)" % (word, word), word_span,
                             help="e.g. `%s(s, \"%s\")`" % (word, "SELECT a, b FROM t" if word.startswith("DB") else "A1:B3"))
    return Transfer(TRANSFERS[word][1], word, target, target_span, args[0], args[1], whole)
