"""Which database writes a ``.dat`` file may make (docs/data-sources.md, "Writes"):

- ``x to DBUpdate(db, "...")`` is one ``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE`` on one table:
  those tables are the ones the data file *declares* it writes;
- ``DBExecute(db, "...")`` may create, drop, empty or alter only those tables of the same
  connection (IBM's examples drop and re-create the result table before ``DBUpdate`` fills it).

Anything else (a statement on another table, several statements, one pyopl cannot read) is
refused (``data-db-write-refused``) unless the user passes ``--allow-db-writes``
(``allow_db_writes=True``): a data file is data, and should not be able to drop a database's
tables by itself. Values are always bound to ``?`` placeholders, never formatted into SQL.
"""
from __future__ import annotations

import re
from typing import Any

_NAME = r'("[^"]+"|`[^`]+`|\[[^\]]+\]|[\w$]+(?:\.[\w$]+)?)'
_UPDATE = re.compile(r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+%s" % _NAME, re.I)
_EXECUTE = re.compile(r"^\s*(?:DROP\s+TABLE(?:\s+IF\s+EXISTS)?|CREATE\s+TABLE(?:\s+IF\s+NOT\s+EXISTS)?|DELETE\s+FROM"
                      r"|TRUNCATE(?:\s+TABLE)?|ALTER\s+TABLE|INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE)\s+%s" % _NAME, re.I)
_STRINGS = re.compile(r"'(?:[^']|'')*'")


def table_of(sql: str, pattern: re.Pattern = _UPDATE) -> str | None:
    """The one table a statement writes (unquoted, lower case), or None when the statement is not
    one write of the kind ``pattern`` reads, or holds a second statement after a ``;``."""
    m = pattern.match(sql)
    if m is None or ";" in _STRINGS.sub("", sql).rstrip().rstrip(";"):
        return None
    return m.group(1).strip('"`[]').lower()


def check_writes(items: Any, reporter: Any, allow_db_writes: bool) -> None:
    """Report every recorded write of ``items.publish`` that its data file may not make (see the
    module docstring) and drop it, so that it never runs."""
    declared: dict[str, set[str]] = {}
    for t, conn in items.publish:
        if t.word == "DBUpdate":
            table = table_of(t.query.value)
            if table is not None:
                declared.setdefault(conn.name, set()).add(table)
    kept = []
    for t, conn in items.publish:
        if t.word == "DBUpdate" and table_of(t.query.value) is None:
            reporter.emit("data-db-write-refused", t.query.span, "`DBUpdate` writes rows with one INSERT, UPDATE or DELETE "
                          "on one table; this statement is not one", help="write `INSERT INTO t(a, b) VALUES(?, ?)`, one `?` "
                          "per field of the element's tuples")
            continue
        if t.word == "DBExecute" and not allow_db_writes:
            table = table_of(t.query.value, _EXECUTE)
            mine = declared.get(conn.name, set())
            if table is None or table not in mine:
                what = ("the table `%s`, which no `DBUpdate` of this file writes" % table) if table is not None else \
                    "a statement pyopl does not read as one create, drop, delete or alter of a table"
                reporter.emit("data-db-write-refused", t.query.span, "this `DBExecute` changes %s" % what,
                              help="pass `--allow-db-writes` (Python: `allow_db_writes=True`) if the data file may make "
                                   "this change; %s" % ("this file writes %s" % ", ".join("`%s`" % x for x in sorted(mine))
                                                        if mine else "this file declares no table it writes"))
                continue
        kept.append((t, conn))
    items.publish[:] = kept
