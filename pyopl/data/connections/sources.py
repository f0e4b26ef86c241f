"""Opening the data sources a ``.dat`` file connects to and reading blocks of cells from them:
spreadsheets through openpyxl (``.xlsx``/``.xlsm``), databases through Python's sqlite3 (the
``"sqlite"`` driver, a file) or SQLAlchemy (any other driver, given a database URL), CSV files
through Python's csv module. Every read becomes a :class:`~.table.TableValue`; every failure a
:class:`SourceError` whose span is the part of the ``.dat`` line at fault.

File names are relative to the data file's folder and must stay inside its folder tree (as
``include`` does, docs/safety.md); data given as text opens no file and no database at all.
"""
from __future__ import annotations

import contextlib
import csv
import os
import re
from typing import Any, Iterator
from urllib.parse import parse_qsl

from ...diagnostics.diagnostic import Span
from .statements import Arg, Connection
from .table import TableValue

#: what to install for each kind of source (the extras of pyproject.toml)
INSTALL = {"openpyxl": 'pip install "pyopl[sheets]"', "sqlalchemy": 'pip install "pyopl[databases]"'}


class SourceError(Exception):
    """A data source that cannot be read as the statement asks: ``slug`` (a registered diagnostic
    kind), ``message`` and ``help``, at ``span``."""

    def __init__(self, slug: str, message: str, span: Span, help: str):
        super().__init__(message)
        self.slug, self.message, self.span, self.help = slug, message, span, help


def source_path(conn: Connection, arg: Arg) -> str:
    """The real path of the file ``arg`` names for ``conn``, inside its data file's folder tree.
    Raises :class:`SourceError` for data given as text, a name leading outside, or a missing file."""
    from ...files.source_io import resolve_include

    if conn.base_dir is None:
        raise SourceError("data-connection-failed", "`%s` names the file \"%s\", but data given as text opens no files"
                          % (conn.name, arg.value), arg.span,
                          help="give the data as a .dat file, or pass the values as a Python dict")
    target, why = resolve_include(conn.base_dir, arg.value)
    if target is None:
        raise SourceError("data-source-missing", "the file \"%s\" of `%s` is %s" % (
            arg.value, conn.name, "not a file name" if why == "nul" else "outside the data file's folder"), arg.span,
            help="keep the workbook, database or CSV file in the data file's folder (or a folder below it)")
    if not os.path.isfile(target):
        raise SourceError("data-source-missing", "the file \"%s\" of `%s` does not exist" % (arg.value, conn.name),
                          arg.span, help="check the name: it is read from the data file's folder")
    return target


def _need(module: str, conn: Connection) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise SourceError("data-connection-failed", "reading `%s` needs the Python package %s, which is not installed"
                          % (conn.name, module), conn.span, help="install it: %s" % INSTALL[module])


# ---------------------------------------------------------------- spreadsheets
#: most cells one SheetRead reads (openpyxl makes a Python object per cell)
MAX_CELLS = 5_000_000
_CELLS = re.compile(r"^\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?$")


def workbook(conn: Connection) -> Any:
    """The workbook of a ``SheetConnection`` (opened once, values of formulas as Excel last saved them)."""
    if conn.handle is None:
        path = source_path(conn, conn.args[0])
        openpyxl = _need("openpyxl", conn)
        try:
            conn.handle = openpyxl.load_workbook(path, data_only=True)
        except Exception as e:  # openpyxl raises many kinds for a file that is not a workbook
            raise SourceError("data-connection-failed", "\"%s\" cannot be read as a workbook: %s" % (
                conn.args[0].value, e), conn.args[0].span,
                help="save it as .xlsx (Excel 2007 or later; the old .xls format is not read)")
        conn.path = path
    return conn.handle


def sheet_range(wb: Any, conn: Connection, query: Arg) -> tuple[Any, str]:
    """(worksheet, cell range) of ``"Sheet1!A1:C3"``, ``"'gas data'!B2:E4"``, ``"A1:C3"`` (the active
    sheet, as IBM) or a defined name (a named range, workbook- or sheet-scoped)."""
    text = query.value.strip()
    if "!" in text:
        sheet, ref = text.rsplit("!", 1)
        sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") and sheet.endswith("'") else sheet
        if sheet not in wb.sheetnames:
            raise SourceError("data-source-missing", "the workbook \"%s\" has no sheet \"%s\"" % (conn.args[0].value, sheet),
                              query.span, help="its sheets are %s" % ", ".join('"%s"' % s for s in wb.sheetnames))
        if not _CELLS.match(ref):
            raise SourceError("data-source-missing", "\"%s\" is not a cell range" % ref, query.span,
                              help='write a range as `Sheet1!A1:C3` (R1C1 references are not read, as in IBM\'s OPL)')
        return wb[sheet], ref.replace("$", "")
    if _CELLS.match(text):
        return wb.active, text.replace("$", "")
    found = _defined_name(wb, text)
    if found is None:
        raise SourceError("data-source-missing", "the workbook \"%s\" has no range named \"%s\"" % (conn.args[0].value, text),
                          query.span, help="name the range in the workbook, or give it as `Sheet1!A1:C3`")
    sheet, ref = found
    if sheet not in wb.sheetnames:
        raise SourceError("data-source-missing", "the range \"%s\" points to the missing sheet \"%s\"" % (text, sheet),
                          query.span, help="fix the named range in the workbook")
    return wb[sheet], ref.replace("$", "")


def _defined_name(wb: Any, name: str) -> tuple[str, str] | None:
    scopes = [wb.defined_names] + [ws.defined_names for ws in wb.worksheets]
    for scope in scopes:
        dn = scope.get(name) if hasattr(scope, "get") else None
        if dn is not None:
            for sheet, ref in dn.destinations:
                return sheet, ref
    return None


def read_sheet(conn: Connection, query: Arg) -> TableValue:
    """``SheetRead(conn, query)``: the range's cells, row by row."""
    wb = workbook(conn)
    ws, ref = sheet_range(wb, conn, query)
    from openpyxl.utils.cell import range_boundaries

    c0, r0, c1, r1 = range_boundaries(ref if ":" in ref else "%s:%s" % (ref, ref))
    # a range past the cells the sheet uses holds only empty cells there: read up to the last used
    # row and column (`A:A`-like ranges of a million rows cost nothing), then count what is left
    r1, c1 = min(r1, max(r0, ws.max_row)), min(c1, max(c0, ws.max_column))
    if (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_CELLS:
        raise SourceError("data-connection-failed", "the range \"%s\" holds %s cells, more than pyopl reads from a "
                          "sheet (%s)" % (query.value, f"{(r1 - r0 + 1) * (c1 - c0 + 1):,}", f"{MAX_CELLS:,}"),
                          query.span, help="read a smaller range, or keep data this large in a database or CSV file")
    rows = [list(r) for r in ws.iter_rows(min_row=r0, max_row=r1, min_col=c0, max_col=c1, values_only=True)]
    return TableValue(rows, 'SheetRead(%s, "%s")' % (conn.name, query.value), query.span)


# ---------------------------------------------------------------- databases
class Database:
    """One open database: sqlite3's connection, or a SQLAlchemy engine's connection, with IBM's ``?``
    placeholders bound either way (never formatted into the statement)."""

    def __init__(self, conn: Connection):
        self.conn = conn
        driver = conn.args[0].value.strip().lower()
        if len(conn.args) < 2:
            raise SourceError("data-connection-failed", "`%s` names no database" % conn.name, conn.span,
                              help='e.g. `DBConnection %s("sqlite", "plan.db");`' % conn.name)
        where = conn.args[1]
        in_file = file_database(where.value)
        if in_file is not None:  # a SQLAlchemy URL of a database file: the same file rules as "sqlite"
            driver, where = "sqlite", Arg(in_file, False, where.span)
        if driver in ("sqlite", "sqlite3"):
            import sqlite3

            self.path = source_path(conn, where)
            self.kind = "sqlite"
            self.db = sqlite3.connect("file:%s?mode=rw" % self.path.replace("?", "%3f").replace("#", "%23"), uri=True)
        elif "://" in where.value:
            if conn.base_dir is None:
                raise SourceError("data-connection-failed", "data given as text connects to no database", where.span,
                                  help="give the data as a .dat file, or pass the values as a Python dict")
            sqlalchemy = _need("sqlalchemy", conn)
            self.kind, self.path = "sqlalchemy", None
            try:
                self.engine = sqlalchemy.create_engine(where.value)
                self.db = self.engine.connect()
            except Exception as e:  # a driver missing, a server down, a refused login
                raise SourceError("data-connection-failed", "cannot connect `%s` to its database: %s" % (
                    conn.name, _first_line(e)), where.span,
                    help="check the URL (`dialect+driver://user@host:port/name`) and that the database is running")
        else:
            raise SourceError("data-connection-failed", "`%s` uses the driver \"%s\", which pyopl does not open" % (
                conn.name, conn.args[0].value), conn.args[0].span,
                help='use "sqlite" with a file, or give a SQLAlchemy URL as the second argument '
                     '(`DBConnection db("postgresql", "postgresql+pg8000://user@host/db")`)')

    def execute(self, sql: str, params: tuple = (), span: Span | None = None) -> Any:
        """Run one statement with ``params`` bound to its ``?`` placeholders; returns the cursor or result."""
        try:
            if self.kind == "sqlite":
                return self.db.execute(sql, params)
            from sqlalchemy import text

            named, k = [], 0

            def sub(m: re.Match) -> str:
                nonlocal k
                if m.group(0) != "?":
                    return m.group(0)
                named.append("p%d" % k)
                k += 1
                return ":" + named[-1]

            stmt = re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?", sub, sql)
            return self.db.execute(text(stmt), dict(zip(named, params)))
        except Exception as e:
            raise _db_error(e, self.conn, span)

    def commit(self) -> None:
        self.db.commit()

    def close(self) -> None:
        self.db.close()


_FILE_URL = re.compile(r"^\s*sqlite(?:\+\w+)?://(/?)([^?]*)", re.I)


def file_database(url: str) -> str | None:
    """The file a SQLAlchemy SQLite URL names (``sqlite:///plan.db`` -> ``plan.db``,
    ``sqlite+pysqlite:////abs/plan.db`` -> ``/abs/plan.db``), or None for any other text. Such a
    file is opened as the ``"sqlite"`` driver's is, inside the data file's folder tree: through
    SQLAlchemy it could otherwise be read, or created empty, anywhere (docs/safety.md)."""
    m = _FILE_URL.match(url)
    if m is None:
        return None
    return m.group(2) or ":memory:"


def _first_line(e: Exception) -> str:
    return (str(getattr(e, "orig", None) or e).strip().splitlines() or [type(e).__name__])[0]


_MISSING = re.compile(r"no such (table|column)|(relation|column|table) .* does not exist|unknown (column|table)"
                      r"|doesn't exist", re.I)


def _db_error(e: Exception, conn: Connection, span: Span | None) -> SourceError:
    msg = _first_line(e)
    if _MISSING.search(msg):
        return SourceError("data-source-missing", "the database of `%s` says: %s" % (conn.name, msg), span or conn.span,
                           help="check the table and column names of the statement against the database")
    return SourceError("data-connection-failed", "the database of `%s` refused the statement: %s" % (conn.name, msg),
                       span or conn.span, help="check the statement's SQL against the database")


def database(conn: Connection) -> Database:
    """The open database of a ``DBConnection`` (opened once)."""
    if conn.handle is None:
        conn.handle = Database(conn)
    return conn.handle


def read_db(conn: Connection, query: Arg) -> TableValue:
    """``DBRead(conn, "SELECT ...")``: the query's rows, with its column names as the header."""
    head = query.value.lstrip().split(None, 1)[0].upper() if query.value.strip() else ""
    if head not in ("SELECT", "WITH", "VALUES"):
        raise SourceError("data-connection-failed", "`DBRead` runs a query, but this statement starts with `%s`" % (
            head or "nothing"), query.span, help="read with `SELECT ...`; change the database with `DBExecute` or "
                                                 "`x to DBUpdate(...)` (run after the solve)")
    db = database(conn)
    with read_only(db, query):
        cur = db.execute(query.value, (), query.span)
        header = [d[0] for d in cur.description] if getattr(cur, "description", None) else list(cur.keys())
        rows = [list(r) for r in cur.fetchall()]
    return TableValue(rows, 'DBRead(%s, "%s")' % (conn.name, _short(query.value)), query.span, header=header)


#: sqlite3 authorizer actions a query may take: read tables and columns, call functions, recurse
_READ_ACTIONS = frozenset({20, 21, 31, 33})  # SQLITE_READ, SQLITE_SELECT, SQLITE_FUNCTION, SQLITE_RECURSIVE
#: what the refused actions do, in words (sqlite3's authorizer action codes)
_WRITE_WORDS = {9: "deletes from", 18: "inserts into", 23: "updates", 24: "attaches", 25: "detaches"}


@contextlib.contextmanager
def read_only(db: Database, query: Arg) -> Iterator[None]:
    """Run ``DBRead``'s query so that it cannot change the database, whatever its first word says
    (``WITH a AS (SELECT 1) DELETE FROM t RETURNING x`` starts like a read): SQLite refuses every
    action but reading through an authorizer; another database's transaction is rolled back after
    the rows are fetched. Raises :class:`SourceError` (``data-db-write-refused``) naming the first
    change the query tried. Source of the rule: ``pyopl check`` writes nothing (docs/cli.md), and a
    data file's writes are only the ones it declares (docs/data-sources.md, "Writing")."""
    refused: list[str] = []
    if db.kind == "sqlite":
        import sqlite3

        def authorize(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
            if action in _READ_ACTIONS:
                return sqlite3.SQLITE_OK
            if not refused:
                word = _WRITE_WORDS.get(action)
                refused.append("%s `%s`" % (word, arg1) if word and arg1 else "changes the database")
            return sqlite3.SQLITE_DENY

        db.db.set_authorizer(authorize)
    try:
        yield
    except SourceError:
        if refused:
            raise SourceError("data-db-write-refused", "`DBRead` only reads, but this query %s" % refused[0],
                              query.span, help="read with a `SELECT` that changes nothing; write with "
                                               "`x to DBUpdate(...)` or `DBExecute(...)`, which run after the solve")
        raise
    finally:
        if db.kind == "sqlite":
            db.db.set_authorizer(None)
        else:
            db.db.rollback()


def _short(sql: str) -> str:
    sql = " ".join(sql.split())
    return sql if len(sql) <= 40 else sql[:37] + "..."


# ---------------------------------------------------------------- CSV files
def read_csv(conn: Connection, query: Arg) -> TableValue:
    """``CSVRead(conn, "")`` of ``CSVConnection c("file.csv?firstIsHeader=true", "")``: every row;
    options after ``?``: ``firstIsHeader`` (the first row names the columns; default false),
    ``separator`` (default ``,``), ``encoding`` (default utf-8)."""
    spec = conn.args[0].value
    name, _, opts = spec.partition("?")
    options = {k.lower(): v for k, v in parse_qsl(opts, keep_blank_values=True)}
    unknown = sorted(set(options) - {"firstisheader", "separator", "encoding"})
    if unknown:
        raise SourceError("data-connection-failed", "the CSV option `%s` is not known" % unknown[0], conn.args[0].span,
                          help="the options are firstIsHeader=true|false, separator=, and encoding=")
    path = source_path(conn, Arg(name, False, conn.args[0].span))
    sep = options.get("separator", ",") or ","
    try:
        with open(path, newline="", encoding=options.get("encoding", "utf-8-sig")) as f:
            rows = [row for row in csv.reader(f, delimiter=sep[0]) if row]
    except (OSError, UnicodeDecodeError, LookupError, csv.Error) as e:
        raise SourceError("data-connection-failed", "\"%s\" cannot be read as CSV: %s" % (name, e), conn.args[0].span,
                          help="save it as UTF-8 text, or give `encoding=` in the connection's options")
    header = None
    if options.get("firstisheader", "false").lower() == "true" and rows:
        header, rows = [h.strip() for h in rows[0]], rows[1:]
    rows = [[None if cell.strip() == "" else cell for cell in row] for row in rows]
    return TableValue(rows, 'CSVRead(%s)' % conn.name, query.span, header=header)


READERS = {"sheet": read_sheet, "db": read_db, "csv": read_csv}
