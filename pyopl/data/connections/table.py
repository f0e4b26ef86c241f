"""A block of cells read from a data source (a spreadsheet range, a query's rows, a CSV file),
kept until the declaration it is read into says what shape it must have (as
:class:`pyopl.data.frames.PandasValue` is for pandas data).

The shapes are IBM's ("Reading from a spreadsheet", "DBRead"): a scalar takes one cell (a tuple
one row); a set of scalars takes the cells of one row or one column; a set of tuples, and a
one-dimensional array of tuples, one row per tuple with one column per field (by name when the
source has a header naming every field); a one-dimensional array of scalars one row or one
column, in the index set's order; a two-dimensional array of scalars the rows and columns of its
index sets, or the same block transposed (a square block is read row by row). An array also takes
keyed rows, one column per index then the value (``SELECT plant, market, cost FROM costs``).
"""
from __future__ import annotations

import math
from typing import Any

from ...diagnostics.diagnostic import Span


class TableValue:
    """``rows`` (lists of Python values, None for an empty cell) read by ``what`` (e.g.
    ``SheetRead(s, "A1:B3")``) at ``span`` (the query string in the .dat file); ``header``: the
    column names where the source has them (a query's columns, a CSV header), else None."""

    def __init__(self, rows: list[list[Any]], what: str, span: Span, header: list[str] | None = None):
        self.rows, self.what, self.span, self.header = rows, what, span, header

    @property
    def shape(self) -> str:
        n = len(self.rows)
        w = max((len(r) for r in self.rows), default=0)
        return "%d row%s and %d column%s" % (n, "s" * (n != 1), w, "s" * (w != 1))

    def resolve(self, typ: Any, dims: list[Any], name: str, span: Any) -> Any:
        """The plain value for declaration ``name`` (element type ``typ`` over index sets ``dims``), in
        the forms the data conversion takes (:mod:`pyopl.data.convert`). Raises
        :class:`~pyopl.lowering.forms.errors.EvalError` (``data-shape-mismatch``, ``data-type-mismatch``) at
        the read's place for a block that does not fit."""
        from ...semantics.values import TupleType
        from ..types import SetOf

        if len(dims) > 2:
            self._shape(name, "has %d dimensions; a data source fills arrays of one or two" % len(dims),
                        "read it into a set of tuples and build the array in the model")
        if not dims and isinstance(typ, SetOf):
            if isinstance(typ.elem, TupleType):
                return self._tuples(typ.elem, name)
            return [self._cell(v, typ.elem, name, r, c) for r, c, v in self._line(name, "a set of single values")]
        if not dims:
            if isinstance(typ, TupleType):
                rows = self._tuples(typ, name)
                if len(rows) != 1:
                    self._shape(name, "is one tuple, but %s gives %s" % (self.what, self.shape), "read one row")
                return rows[0]
            if len(self.rows) != 1 or len(self.rows[0]) != 1:
                self._shape(name, "is a single value, but %s gives %s" % (self.what, self.shape), "read one cell")
            return self._cell(self.rows[0][0], typ, name, 0, 0)
        if isinstance(typ, TupleType):
            if len(dims) != 1:
                self._shape(name, "is a two-dimensional array of tuples; a data source fills one dimension",
                            "declare it over one index set (a tuple set works too)")
            return self._tuples(typ, name)
        if self._keyed(dims):
            return self._by_keys(typ, dims, name)
        if len(dims) == 1:
            return [self._cell(v, typ, name, r, c) for r, c, v in self._line(name, "a one-dimensional array")]
        return self._grid(typ, dims, name)

    def _keyed(self, dims: list[Any]) -> bool:
        """Whether the rows are keyed cells (one column per index, then the value: a query's
        ``SELECT plant, market, cost``) rather than the array's cells in place."""
        rows, k = self.rows, len(dims)
        if not rows or any(len(r) != k + 1 for r in rows):
            return False
        sizes = [_size(d) for d in dims]
        n, w = len(rows), k + 1
        if k == 1:
            return n > 1 or sizes[0] == 1
        return sizes != [n, w] and sizes != [w, n]

    def _by_keys(self, typ: Any, dims: list[Any], name: str) -> dict:
        """``{key: value}`` (nested per index) from keyed rows; a key given twice is an error."""
        from ...lowering.forms.errors import EvalError

        out: dict = {}
        for r, row in enumerate(self.rows):
            keys = [_key(v, d) for v, d in zip(row[:-1], dims)]
            node = out
            for kk in keys[:-1]:
                node = node.setdefault(kk, {})
            if keys[-1] in node:
                raise EvalError("data-duplicate-key", self.span, "`%s` gets the key %s twice from %s (row %d)" % (
                    name, ", ".join(map(repr, keys)), self.what, r + 1), help="give each key once")
            node[keys[-1]] = self._cell(row[-1], typ, name, r, len(row) - 1)
        return out

    # ------------------------------------------------------------------ shapes
    def _shape(self, name: str, what: str, help: str) -> None:
        from ...lowering.forms.errors import EvalError

        raise EvalError("data-shape-mismatch", self.span, "`%s` %s" % (name, what), help=help)

    def _line(self, name: str, kind: str) -> list[tuple[int, int, Any]]:
        """The cells of a single row or a single column, with their positions."""
        rows = self.rows
        if len(rows) == 1:
            return [(0, c, v) for c, v in enumerate(rows[0])]
        if all(len(r) == 1 for r in rows):
            return [(r, 0, row[0]) for r, row in enumerate(rows)]
        self._shape(name, "is %s, but %s gives %s" % (kind, self.what, self.shape),
                    "read one row or one column (or declare `%s` with two dimensions)" % name)
        return []

    def _tuples(self, t: Any, name: str) -> list[tuple]:
        fields = list(t.fields)
        order = list(range(len(fields)))
        if self.header is not None:
            cols = [str(h) for h in self.header]
            lower = [c.lower() for c in cols]
            if all(f.lower() in lower for f in fields):  # by name, in the tuple's order
                order = [lower.index(f.lower()) for f in fields]
            elif len(cols) != len(fields):
                missing = [f for f in fields if f.lower() not in lower]
                self._shape(name, "has the fields %s, but %s has the columns %s (no `%s`)" % (
                    ", ".join(fields), self.what, ", ".join(cols), missing[0]),
                    "name the columns after the fields (`SELECT a AS %s ...`), or give one column per field in order"
                    % missing[0])
        out = []
        for r, row in enumerate(self.rows):
            if self.header is None and len(row) != len(fields):
                self._shape(name, "has %d field%s (%s), but row %d of %s has %d cell%s" % (
                    len(fields), "s" * (len(fields) != 1), ", ".join(fields), r + 1, self.what, len(row),
                    "s" * (len(row) != 1)), "read a block with one column per field")
            out.append(tuple(self._cell(row[k] if k < len(row) else None, ft, "%s.%s" % (name, f), r, k)
                             for k, f, ft in zip(order, fields, t.types)))
        return out

    def _grid(self, typ: Any, dims: list[Any], name: str) -> list[list[Any]]:
        rows = self.rows
        n, w = len(rows), max((len(r) for r in rows), default=0)
        sizes = [_size(d) for d in dims]
        if sizes == [n, w] or None in sizes:
            grid = rows
        elif sizes == [w, n]:  # written the other way round: IBM reads it column by column
            grid = [[row[j] if j < len(row) else None for row in rows] for j in range(w)]
        else:
            self._shape(name, "is %d x %d, but %s gives %s" % (sizes[0], sizes[1], self.what, self.shape),
                        "read a block of %d rows and %d columns" % (sizes[0], sizes[1]))
            grid = rows
        return [[self._cell(v, typ, name, r, c) for c, v in enumerate(row)] for r, row in enumerate(grid)]

    # ------------------------------------------------------------------ cells
    def _cell(self, v: Any, t: Any, name: str, r: int, c: int) -> Any:
        """One cell as the type ``t`` wants it: a CSV's text as a number where a number is declared,
        a spreadsheet's number as text where a string is; an empty cell is an error naming its place."""
        from ...lowering.forms.errors import EvalError

        if v is None or (isinstance(v, float) and math.isnan(v)):
            raise EvalError("data-type-mismatch", self.span, "`%s` gets an empty cell from %s (row %d, column %d)"
                            % (name, self.what, r + 1, c + 1), help="fill the cell, or read a block without empty cells")
        if hasattr(v, "isoformat"):  # a date or time: OPL has none
            raise EvalError("data-type-mismatch", self.span, "`%s` gets the date %s from %s (row %d, column %d); OPL "
                            "has no date type" % (name, v.isoformat(), self.what, r + 1, c + 1),
                            help="store the date as a number (e.g. days since a start) or as text")
        if t in ("int", "float") and isinstance(v, str):
            text = v.strip()
            try:
                return int(text) if t == "int" and text.lstrip("+-").isdigit() else float(text)
            except ValueError:
                raise EvalError("data-type-mismatch", self.span, "`%s` is declared `%s`, but %s gives \"%s\" (row %d, "
                                "column %d)" % (name, t, self.what, v, r + 1, c + 1), help="give a number in that cell")
        if t == "string" and isinstance(v, (int, float)) and not isinstance(v, bool):
            return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
        if t == "int" and isinstance(v, float) and not v.is_integer():
            raise EvalError("data-type-mismatch", self.span, "`%s` is declared `int`, but %s gives %s (row %d, column %d)"
                            % (name, self.what, v, r + 1, c + 1), help="give an integer, or declare it `float`")
        if t in ("int", "float") and not isinstance(v, (int, float)):
            raise EvalError("data-type-mismatch", self.span, "`%s` is declared `%s`, but %s gives %r (row %d, column %d)"
                            % (name, t, self.what, v, r + 1, c + 1), help="give a number in that cell")
        return v


def _key(v: Any, index_set: Any) -> Any:
    """A key cell as the index set's values are: a CSV's "3" is 3 in an integer set, a float 3.0 is 3."""
    try:
        first = next(iter(index_set))
    except (TypeError, StopIteration):
        return v
    if isinstance(first, int) and not isinstance(first, bool):
        if isinstance(v, str) and v.strip().lstrip("+-").isdigit():
            return int(v)
        if isinstance(v, float) and v.is_integer():
            return int(v)
    if isinstance(first, str) and isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
    return v


def _size(index_set: Any) -> int | None:
    try:
        return len(index_set)
    except TypeError:
        return None
