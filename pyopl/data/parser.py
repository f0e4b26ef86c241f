""".dat text -> ``{name: DataItem}`` with Python values that remember where they were written.

Values: numbers, strings (quoted, or unquoted names as OPL allows), ``DList``
for ``[...]``, ``DSet`` for ``{...}``, ``DTuple`` for ``<...>``, ``DKeyed`` for
``#[k: v]#``, ``DNamed`` for ``#<f: v>#`` and ``DRange`` for ``a..b``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Token, Transformer, v_args
from lark.exceptions import VisitError

from ..diagnostics.diagnostic import Span
from ..diagnostics.reporter import Reporter
from ..syntax.number_literals import float_literal, shown
from ..syntax.parser import lark_parser
from ..syntax.recovery import parse_with_recovery


class DList(list):
    span: Span


class DSet(list):
    """``{...}``.  A set of tuples that the fast path read in bulk may say ``fields = (number of tuples,
    type of each field)``: all its tuples have those fields, each of exactly that Python type (a parsed
    value is never changed afterwards, so conversion can take this instead of looking at each)."""

    span: Span
    fields: tuple[int, tuple] | None = None
    columns: list | None = None  # with ``fields``: each field's values as a float64 array (NumPy's read)


class Unfilled:
    """A list read in bulk whose elements are made on first use: ``_fill`` (a function giving them)
    until :meth:`fill` runs it once."""

    _fill: Any

    @property
    def filled(self) -> bool:
        return self._fill is None

    def fill(self) -> Any:
        """Make the elements now (once); returns the list itself."""
        if self._fill is not None:
            make, self._fill = self._fill, None
            self.extend(make())
        return self


class UnfilledTuples(Unfilled, DSet):
    """A large numeric tuple set read in bulk whose tuples are not made yet: an empty list until
    :meth:`fill` makes them (``fill`` gives the DTuples), with ``fields`` and ``columns`` set.
    :attr:`DataItem.value` fills it, so every reader of data sees the whole set; the conversion of
    a tuple-set declaration reads ``DataItem.raw_value`` and may build a columnar set from the
    columns without ever filling it (see ``convert.convert_set``)."""

    def __init__(self, fill: Any):
        super().__init__()
        self._fill = fill


class UnfilledRows(Unfilled, DList):
    """A large matrix of numbers read in bulk (``[[1, 2.5], [3, 4]]``) whose rows are not made yet: an
    empty list until :meth:`fill` makes them (each row a :class:`DList` of Python ints and floats, as
    written), with ``numbers`` set: every number, row after row, as one read-only float64 array of
    ``rows`` x ``width`` values (ints written without a point are exact there: the reader keeps this
    form only below 2**53).  :attr:`DataItem.value` fills it, so every reader of data sees the whole
    matrix; the conversion of a `float` array declaration reads ``DataItem.raw_value`` and takes the
    array as it is (see ``convert.convert_array``), so a ten-million-number matrix never becomes ten
    million Python floats."""

    def __init__(self, numbers: Any, rows: int, width: int, fill: Any):
        super().__init__()
        self.numbers, self.rows, self.width = numbers, rows, width
        self._fill = fill


class DTuple(list):
    span: Span


class DKeyed(dict):
    span: Span


class DNamed(dict):
    span: Span


class DName(str):
    """An unquoted word in data (a string where OPL allows it unquoted)."""


@dataclass
class DRange:
    """A range ``lo..hi`` written in data."""

    lo: Any
    hi: Any
    span: Span


class DataItems(dict):
    """``{name: DataItem}`` of a run's data, with its data files' scripts (OPL Language Quick
    Reference, "prepare", "invoke"): ``prepare`` holds ``(body, file, line, column)`` per block,
    ``invokes`` maps an element name to ``(function name, span of the invoke clause)``;
    ``connections`` and ``publish`` its data sources and the writes to them after the solve
    (:mod:`pyopl.data.connections`)."""

    def __init__(self, *args: Any, **kw: Any):
        super().__init__(*args, **kw)
        self.prepare: list = []
        self.invokes: dict = {}
        self.connections: dict = {}  # name -> pyopl.data.connections.statements.Connection
        self.publish: list = []  # (Transfer, Connection) written or run after the solve, in order


@dataclass
class DataItem:
    """One ``name = value;`` of the data.  ``value`` is the value as read, whole; ``raw_value`` may
    be an :class:`UnfilledTuples` or :class:`UnfilledRows` still to be filled (for the conversion's
    columnar paths only)."""

    name: str
    raw_value: Any
    span: Span  # the whole assignment
    name_span: Span
    value_span: Span
    file: str

    @property
    def value(self) -> Any:
        v = self.raw_value
        if isinstance(v, Unfilled) and not v.filled:
            v.fill()
        return v

    @value.setter
    def value(self, v: Any) -> None:
        self.raw_value = v


def _with_span(obj: Any, span: Span) -> Any:
    obj.span = span
    return obj


class _ToData(Transformer):
    def __init__(self, file: str, reporter: Reporter):
        super().__init__()
        self.file = file
        self.reporter = reporter
        self.items: list[Any] = []

    def _s(self, meta) -> Span:
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _t(self, tok: Token) -> Span:
        return Span(self.file, tok.line, tok.column, tok.end_line, tok.end_column)

    def start(self, c):
        return [x for x in c if x is not None]

    @v_args(meta=True)
    def assign(self, meta, c):
        name, value = c
        return DataItem(str(name), value, self._s(meta), self._t(name), _span_of(value, self._s(meta)), self.file)

    @v_args(meta=True)
    def assign_indexed(self, meta, c):
        self.reporter.emit("data-unsupported", self._s(meta), "assigning one element (`%s[...] = ...`) in a data file is "
                           "not supported" % c[0], help="give the whole array, e.g. with `#[key: value]#`")
        return None

    @v_args(meta=True)
    def include(self, meta, c):
        return ("include", str(c[0])[1:-1], self._s(meta))

    @v_args(meta=True)
    def connection(self, meta, c):
        """``SheetConnection s("book.xlsx");`` or a bare ``DBExecute(db, "...");``: read by the loader
        (:mod:`pyopl.data.connections`)."""
        word = c[0]
        rest = c[1] if len(c) > 1 else None
        return ("connection", str(word), word, rest, self._s(meta))

    @v_args(meta=True)
    def read_from(self, meta, c):
        return ("transfer", "from", str(c[0]), self._t(c[0]), c[1], self._s(meta))

    @v_args(meta=True)
    def write_to(self, meta, c):
        return ("transfer", "to", str(c[0]), self._t(c[0]), c[1], self._s(meta))

    def dempty(self, c):
        return None

    @v_args(meta=True)
    def drange(self, meta, c):
        return DRange(c[0], c[1], self._s(meta))

    @v_args(meta=True)
    def darray(self, meta, c):
        return _with_span(DList(c[0]), self._s(meta))

    @v_args(meta=True)
    def dset(self, meta, c):
        return _with_span(DSet(c[0]), self._s(meta))

    @v_args(meta=True)
    def dtuple(self, meta, c):
        return _with_span(DTuple(c[0]), self._s(meta))

    @v_args(meta=True)
    def dkeyed_array(self, meta, c):
        d = DKeyed()
        for k, v in c:
            if _hashable(k) in d:
                self.reporter.emit("data-duplicate-key", _span_of(k, self._s(meta)),
                                   "the key %s is given twice" % (k if not isinstance(k, str) else '"%s"' % k),
                                   help="keep one value per key")
            d[_hashable(k)] = v
        return _with_span(d, self._s(meta))

    @v_args(meta=True)
    def dnamed_tuple(self, meta, c):
        seen: set = set()
        for f, v in c:  # IBM, "Initializing tuples": each field is initialized exactly once
            if f in seen:
                self.reporter.emit("data-duplicate-key", _span_of(v, self._s(meta)),
                                   "the field `%s` is given twice in this named tuple" % f,
                                   help="keep one value per field")
            seen.add(f)
        return _with_span(DNamed(c), self._s(meta))

    def delems(self, c):
        return list(c)

    def dkeyed(self, c):
        return (c[0], c[1])

    def dfield(self, c):
        return (str(c[0]), c[1])

    def dnumber(self, c):
        return self._number(c[0])

    def dneg(self, c):
        return -self._number(c[0])

    def _number(self, tok: Token) -> Any:
        text = str(tok)
        if not any(ch in text for ch in ".eE"):
            return int_literal(text)  # (past every float: refused by the conversion, with the name)
        value = float_literal(text)
        if value is None:  # `1e309`: float() gives infinity, silently (issue 33)
            self.reporter.emit("number-too-large", self._t(tok), "the number %s is larger than any floating-point "
                               "number (about 1.8e308)" % shown(text),
                               help="use a number below 1.8e308, or `infinity` if no bound is meant")
            return 0.0
        return value

    def dstring(self, c):
        from ..syntax.handlers import _unquote, unquote_warning

        tok = c[0]
        if "\\" not in tok or tok.line is None:
            return _unquote(str(tok))
        return unquote_warning(self.reporter, str(tok), self.file, tok.line, tok.column)

    def dname(self, c):
        return DName(str(c[0]))

    def dinf(self, c):
        return float("inf")

    def dneginf(self, c):
        return float("-inf")

    def dmaxint(self, c):
        return 2**31 - 1


def _hashable(k: Any) -> Any:
    if isinstance(k, list):
        return tuple(_hashable(x) for x in k)
    return k


def _span_of(value: Any, default: Span) -> Span:
    return getattr(value, "span", None) or default


def parse_data(text: str, file: str, reporter: Reporter) -> list[Any]:
    """Parse .dat text; returns DataItems and ``("include", path, span)`` entries in order."""
    tree, _broken = parse_with_recovery(lark_parser("dat"), text, file, reporter, kind="data")
    if tree is None:
        return []
    try:
        return _ToData(file, reporter).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RecursionError):
            _too_deep(tree, file, reporter)
            return []
        raise e.orig_exc
    except RecursionError:  # Lark's transformer recurses once per level: a value nested hundreds deep
        _too_deep(tree, file, reporter)
        return []


#: Nesting of data values reported as too deep (real data nests a few levels: arrays of arrays of tuples).
DATA_NESTING = 100


def _too_deep(tree: Any, file: str, reporter: Reporter) -> None:
    """Report the first data value nested deeper than :data:`DATA_NESTING` (nesting-limit)."""
    from lark import Tree

    stack, at = [(tree, 0)], None
    while stack and at is None:
        t, depth = stack.pop()
        if depth > DATA_NESTING and not t.meta.empty:
            at = t
        stack.extend((c, depth + 1) for c in t.children if isinstance(c, Tree))
    span = Span(file, at.meta.line, at.meta.column, at.meta.end_line, at.meta.end_column) if at is not None \
        else Span(file, 1, 1, 1, 2)
    reporter.emit("nesting-limit", span, "this data value is nested more than %d levels deep" % DATA_NESTING,
                  help="data values nest a few levels (arrays of arrays, tuples in sets); check the brackets")


def int_literal(text: str) -> int:
    """The value of a string of digits; past 400 digits (beyond every float, so refused later as
    ``number-too-large``) only a value that large is kept, as ``int()`` stops at 4300 digits."""
    digits = text.lstrip("0")
    if len(digits) <= 400:
        return int(text)
    return int(digits[:400]) * 10 ** min(len(digits) - 400, 1000)  # bounded: any of these is refused
