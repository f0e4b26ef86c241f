"""A fast path for large .dat files: long numeric arrays and simple sets read without the LALR parser.

Large data files are mostly statements such as ``cost = [[1.5, 2, ...], ...];``
or ``Arcs = {<1, 2, 3.5>, ...};``.  The Lark parser builds a tree node per
number, about 3,000 lines a second; this module reads such statements with
regular expressions instead (a whole run of numbers is matched at once and
converted with ``int``/``float``), and leaves every other statement to the
full parser:

1. Scan the text statement by statement.  A statement ``NAME = value;`` whose
   value is a ``[...]``, ``{...}`` or ``<...>`` built only of numbers and
   quoted strings is read here, into the same ``DList``/``DSet``/``DTuple``
   values, with the same spans, as :mod:`pyopl.data.parser` gives.
2. Blank those statements out (spaces, newlines kept, so every position in
   the rest stays the same) and parse what is left with the full parser.
3. If that parse reports anything at all, parse the whole original text with
   the full parser instead, so diagnostics are exactly the full parser's.

The tokens follow ``grammar/dat.lark``: ``NUMBER`` (with ``-``/``+``
directly before it), ``STRING``, optional commas between elements, white
space ``[ \\t\\f\\r\\n]``.  Anything else (names, ranges, ``infinity``,
comments inside a value, ``#[...]#``) makes the statement go to the full
parser.  ``tests/test_data_fastpath.py`` checks both paths against each other
on generated data.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable

import numpy as np

from ..diagnostics.diagnostic import Span
from ..diagnostics.reporter import Reporter, TooManyErrors
from ..semantics.values import gc_paused
from ..syntax.number_literals import maybe_too_large
from ..syntax.parser import _unquote
from . import numscan
from .parser import DataItem, DList, DSet, DTuple, UnfilledRows, UnfilledTuples, parse_data
from .positions import Positions as _Positions, spans as _spans


_WS = r"[ \t\f\r\n]"
_NUMBER = r"(?:\d+\.(?!\.)\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+"  # grammar/dat.lark NUMBER
_ELEM = r"[+-]?(?>%s)" % _NUMBER
_TOKEN = re.compile(r"""
    (?P<ws>%(ws)s++)
  | (?P<num>%(elem)s(?:%(ws)s*+,?%(ws)s*+%(elem)s)*+)
  | (?P<str>"(?:[^"\\\n]|\\.)*+")
  | (?P<punct>[\[\]{}<>,])
""" % {"ws": _WS, "elem": _ELEM}, re.VERBOSE)
_NUM_ONE = re.compile(_ELEM)
_GAP = re.compile(r"(?:%s++|//[^\n]*+|/\*[\s\S]*?\*/)*+" % _WS)  # white space and comments between statements
_WS_CHARS = " \t\f\r\n"
_GAP_WS = re.compile(r"%s*+" % _WS)
_NOT_NUMERIC = str.maketrans("", "", "0123456789.eE+-," + _WS_CHARS)  # deletes what a run of numbers may hold
_TWO_COMMAS = re.compile(r",%s*+," % _WS)
_LEADING_COMMA = re.compile(r"%s*+," % _WS)
_SCALAR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*+)%s*+=%s*+(?:(?P<num>%s)|(?P<str>\"(?:[^\"\\\n]|\\.)*+\"))%s*+;" % (
    _WS, _WS, _ELEM, _WS))  # `n = 10;`, `name = "a b";`: a plain value has no span of its own
_HEAD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*+)%s*+=%s*+(?=[\[{<])" % (_WS, _WS))
_SEMI = re.compile(r"%s*+;" % _WS)
_SKIP = re.compile(r"""(?:[^;"/]++|"(?:[^"\\\n]|\\.)*+"|//[^\n]*+|/\*[\s\S]*?\*/|/)*+;""")
_NOT_NAMES = {"include", "infinity", "maxint", "from", "to", "SheetConnection", "DBConnection", "DBRead", "DBUpdate",
              "DBExecute", "SheetRead", "SheetWrite", "CSVConnection", "CSVRead"}
_CLOSE = {"[": "]", "{": "}", "<": ">"}
_KIND = {"[": DList, "{": DSet, "<": DTuple}


class _NotFast(Exception):
    """This statement needs the full parser."""


def _numbers(run: str) -> list:
    """The numbers of a run such as ``1, 2.5 -3e2`` as ints and floats, as the full parser reads them."""
    # A run is numbers with optional white space and commas between them, so splitting there gives
    # its numbers, except where two are written with nothing between them (`1-2`, `.5.5`): such a
    # token is no valid int or float, so conversion fails and the regex splits the run instead.
    try:
        return _convert(run, run.replace(",", " ").split())
    except ValueError:
        return _convert(run, _NUM_ONE.findall(run))


def _convert(run: str, toks: list[str]) -> list:
    try:
        return _convert_fast(run, toks)
    except ValueError:  # a number of more than 4300 digits: int() refuses it
        from .parser import int_literal

        return [float(t) if ("." in t or "e" in t or "E" in t) else int_literal(t) for t in toks]


def _convert_fast(run: str, toks: list[str]) -> list:
    if "e" not in run and "E" not in run:
        dots = run.count(".")
        if dots == 0:
            return list(map(int, toks))
        if dots == len(toks):  # one point in every number: all floats
            return list(map(float, toks))
    return [float(t) if ("." in t or "e" in t or "E" in t) else int(t) for t in toks]


# The body of a numeric tuple set, one byte per character: white space 0, number characters 1, `,` 2,
# `>` 3, `<` 4, anything else 255 (the body goes to the token loop).  A number and a `>` are odd, so
# "a comma after white space, a comma or a `<`" is a comma after an even class (:func:`_comma_after`).
_WS_B, _NUM_B, _COMMA_B, _GT_B, _LT_B, _BAD_B = 0, 1, 2, 3, 4, 255
_OPENS_FIRST = re.compile(rb"\x00*+\x04")  # white space, then a `<`


def _classes(opener: str, closer: str) -> bytes:
    """The ``bytes.translate`` table of the classes above, with ``opener``/``closer`` as ``<``/``>``."""
    return bytes(_NUM_B if c in b"0123456789.eE+-" else _COMMA_B if c == ord(",") else _LT_B if c == ord(opener)
                 else _GT_B if c == ord(closer) else _WS_B if c in _WS_CHARS.encode() else _BAD_B for c in range(256))


_CLASS_BYTES = _classes("<", ">")  # a tuple set's body: tuples of numbers
_ROW_CLASS_BYTES = _classes("[", "]")  # an array's: rows of numbers
_ROWS_END = re.compile(r"\][ \t\f\r\n,]*+\]")  # a row's end, then the array's: the end of a matrix of numbers
_BULK_FROM = 4096  # characters from which a matrix or a row of numbers is read by numscan in one pass
_FLOAT_BYTES = bytes(int(c in b".eE") for c in range(256))  # a number holding one of these is read with float()
_SEPARATORS = str.maketrans("<>,", "   ")
_LAZY_SPANS_FROM = 32  # tuple sets at least this large get their spans on first use


_BLOCK = 1 << 20  # elements per block of a whole-body check: its temporaries stay in the cache (no page faults)


def _comma_after(classes: bytes | memoryview) -> bool:
    """Whether the class bytes ``classes`` hold a comma right after a byte of an even class (white
    space, a comma or a `<`); read as 16-bit pairs ``(before, comma)``, at even and at odd offsets
    (half the passes of comparing byte by byte), a block at a time."""
    for offset in (0, 1):
        count = (len(classes) - offset) // 2
        if count < 1:
            break
        pairs = np.frombuffer(classes, dtype="<u2", offset=offset, count=count)
        scratch = np.empty(min(count, _BLOCK), dtype=np.uint16)
        for a in range(0, count, _BLOCK):
            part = scratch[:min(_BLOCK, count - a)]
            np.bitwise_and(pairs[a:a + _BLOCK], 0xFF01, out=part)
            if (part == _COMMA_B << 8).any():
                return True
    return False


def _count_at_least(cls: np.ndarray, low: int) -> int:
    """How many of the bytes ``cls`` are ``low`` or more, a block at a time."""
    scratch = np.empty(min(len(cls), 8 * _BLOCK), dtype=np.bool_)
    total = 0
    for a in range(0, len(cls), 8 * _BLOCK):
        part = scratch[:min(8 * _BLOCK, len(cls) - a)]
        np.greater_equal(cls[a:a + 8 * _BLOCK], low, out=part)
        total += int(np.count_nonzero(part))
    return total


def _tuple_layout(data: bytes, table: bytes = _CLASS_BYTES, bounds: tuple[int, int] | None = None,
                  classes: bytes | None = None, by_field: bool = False) -> tuple[
                      np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | list | None, int] | None:
    """Where the tuples of a numeric tuple set's body are: (offset of each ``<``, of each ``>``, numbers
    in each tuple, whether each number is written as a float, the numbers as float64 as ``float()``
    reads them or None when :func:`pyopl.data.numscan.read_tokens` leaves them to the caller, the length
    of the longest run of number characters), or None
    when the body holds anything but number characters, commas, ``<>`` and the grammar's white space,
    or breaks a rule of reading it tuple by tuple: white space first, then tuples ``<...>`` each with
    at least one number, no comma first and no two commas in a row, at most one comma between two
    tuples and after the last, nothing else outside the tuples.

    Every check is a C pass over the body's bytes (``bytes.translate``) or a NumPy pass over them
    or over the tokens: the body of a large network's arcs is millions of characters.  ``data``: ASCII
    bytes (any other byte is refused) holding the body at ``bounds`` (``[start, end)``; all of ``data``
    when None); offsets are the body's own.  ``table``: :data:`_ROW_CLASS_BYTES` reads the rows
    ``[...]`` of a matrix by the same rules.  ``classes``: ``data.translate(table)`` where the caller
    has it (the reader translates a text once for all its bodies: no copy of a body is made here).
    ``by_field``: where every tuple holds the same number of numbers, brackets touching them (the usual
    layout), the numbers come back as a list of one float64 array per field (:func:`_field_numbers`)
    instead of one array in the text's order."""
    a, b = (0, len(data)) if bounds is None else bounds
    if classes is None:
        classes = data.translate(table)
    if classes.find(b"\xff", a, b) >= 0 or not _OPENS_FIRST.match(classes, a, b):
        return None
    view = memoryview(classes)[a:b]
    # the rules on commas: before each comma (white space left out) a number or a `>`, so no comma
    # first, no `,,`, no `<,` and at most one comma after a tuple; where no comma follows white space,
    # a comma or a `<` directly, the text without its white space is not needed
    if _comma_after(view) and _comma_after(classes[a:b].translate(None, b"\x00")):
        return None
    cls = np.frombuffer(view, dtype=np.uint8)
    starts, ends = numscan.runs_of(cls, _NUM_B)
    tight = _tight_tuples(cls, starts, ends)
    if tight is not None:  # the usual case: `width` numbers in each tuple, its brackets touching them
        opens, closes, width = tight
        counts = np.broadcast_to(width, len(opens))  # (read only, no memory)
    else:
        at = np.flatnonzero(cls >= _GT_B)  # the brackets: `<` `>` `<` `>` ..., nothing nested or left open
        brackets = cls[at]
        if len(at) % 2 or np.any(brackets[0::2] != _LT_B) or np.any(brackets[1::2] != _GT_B):
            return None
        opens, closes = at[0::2], at[1::2]
        # the numbers in each tuple: those from its `<` to the next `<` (the last: to the end), each of
        # them before its tuple's `>` (no number between two tuples) and none before the first
        width = len(starts) // len(opens)
        uniform = width and width * len(opens) == len(starts) and np.all(starts[0::width] > opens) \
            and np.all(starts[width - 1::width] < closes)
        if uniform:  # `width` numbers in each tuple
            counts = np.broadcast_to(width, len(opens))
        else:
            first = np.searchsorted(starts, opens)
            counts = np.diff(np.append(first, len(starts)))
            if first[0] or not counts.min() or np.any(starts[first[1:] - 1] > closes[:-1]) \
                    or starts[-1] > closes[-1]:
                return None
    del cls, view
    body = memoryview(data)[a:b]
    longest: list[int] = []
    def signs() -> bool:  # (looked for only if a field needs numscan's general reader)
        return data.find(b"-", a, b) >= 0 or data.find(b"+", a, b) >= 0

    if by_field and tight is not None and width > 1:
        fields = _field_numbers(body, starts, ends, width, signs)
        if fields is not None:
            return opens, closes, counts, fields[1], fields[0], fields[2]
    read = numscan.read_tokens(body, starts, ends, longest, signs)
    if read is not None:
        nums, floats = read
    else:  # a token that is no number, or many numbers float() must read: the caller decides
        nums, floats = None, np.zeros(len(starts), dtype=bool)
        floats[np.searchsorted(starts, np.flatnonzero(np.frombuffer(bytes(body).translate(_FLOAT_BYTES), dtype=np.bool_)),
                               side="right") - 1] = True
    if not longest:  # (read_tokens stopped early)
        longest.append(int((ends - starts).max()) if len(starts) else 0)
    return opens, closes, counts, floats, nums, longest[0]


def _field_numbers(body: memoryview, starts: np.ndarray, ends: np.ndarray, width: int,
                   signs: Callable[[], bool]) -> tuple[list[np.ndarray], np.ndarray, int] | None:
    """The numbers of tuples of ``width`` numbers each, each field read as a column of its own by
    :func:`pyopl.data.numscan.read_columns`: (one float64 array per field, whether each number is
    written as a float, in the text's order, the length of the longest token); None where a field's
    read gives None (the caller then reads all the numbers together, as before).  ``signs``: answers
    whether the body holds a ``-`` or ``+``, asked only if a batch needs numscan's general reader.

    The values are what ``float()`` gives for each token however the tokens are batched; reading a
    field as a column lets a field of plain ints (a tuple's ids) or of numbers with as many digits
    after the point (``91.0``) take numscan's shorter path, where a batch of the text's order mixes
    the fields, and each field comes back as its own array (no strided copy of it later)."""
    longest: list[int] = []
    read = numscan.read_columns(body, [(starts[k::width], ends[k::width]) for k in range(width)], longest, signs)
    if read is None:
        return None
    floats = np.empty(len(starts), dtype=np.bool_)
    by_tuple = floats.reshape(-1, width)
    for k, (_values, points) in enumerate(read):
        by_tuple[:, k] = points
    return [values for values, _points in read], floats, max(longest, default=0)


def _tight_tuples(cls: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, int] | None:
    """(offset of each ``<``, of each ``>``, numbers in each tuple) of a body whose tuples all hold the
    same number of numbers, each ``<`` right before its tuple's first number and each ``>`` right after
    its last (``<1, 2, 3.5>``: how data is usually written); None for any other body, which
    :func:`_tuple_layout` reads from the places of all its brackets.  ``cls``: the body's classes;
    ``starts``, ``ends``: its numbers (:func:`pyopl.data.numscan.token_bounds`).

    With ``2n`` brackets in the body and ``n * width`` numbers, the byte before number ``k * width``
    being a ``<`` and the byte after number ``k * width + width - 1`` a ``>`` for every tuple ``k``
    accounts for every bracket; they then alternate, each tuple holds its ``width`` numbers and no
    number lies outside the tuples: the general rules, without listing every bracket's place."""
    pairs, odd = divmod(_count_at_least(cls, _GT_B), 2)
    if odd or not pairs or not len(starts) or len(starts) % pairs:
        return None
    width = len(starts) // pairs
    if starts[0] < 1 or ends[-1] >= len(cls):
        return None
    opens, closes = np.empty(pairs, dtype=np.int64), np.empty(pairs, dtype=np.int64)
    for a in range(0, pairs, _TUPLES_BLOCK):  # (both from one part of the offsets at a time: read once)
        b = min(a + _TUPLES_BLOCK, pairs)
        o, c = opens[a:b], closes[a:b]
        np.subtract(starts[a * width:b * width:width], 1, out=o)
        c[:] = ends[a * width + width - 1:b * width:width]
        if np.any(cls[o] != _LT_B) or np.any(cls[c] != _GT_B):
            return None
    return opens, closes, width


_TUPLES_BLOCK = 1 << 15  # tuples per block of :func:`_tight_tuples`


def _numpy_columns(text: str, counts: np.ndarray, floats: np.ndarray, nums: np.ndarray | None = None,
                   longest: int | None = None) -> tuple | None:
    """What :func:`_tuple_values` gives for tuples of one width whose fields are each written one way,
    from ``nums`` (every number as a float64, as :func:`_tuple_layout` read them) or, when None, read by
    NumPy's own parser in one pass (``text``: the body, ``<>,`` are read as spaces); and each field
    as a float64 array (the set's columns).  Both read a number as ``float()`` does (Python's
    correctly rounded conversion; an int, written without ``.eE``, below 2**53 is exact), and NumPy
    refuses what ``float()`` refuses; None when a column of ints reaches 2**53 or anything else
    differs, and :func:`_tuple_values` reads the tokens one by one.  ``longest``: the longest token of
    ``nums`` (under 16 characters, no int can reach 2**53 and that is not checked again)."""
    n = len(counts)
    width = int(counts[0]) if n else 0
    if not n or not width or n * width != len(floats) or not np.all(counts == width):
        return None
    kinds = floats.reshape(n, width)
    first = kinds[0]
    # (each field written as its first tuple writes it: a reduction over each column, not a comparison of all)
    if not all(kinds[:, k].all() if f else not kinds[:, k].any() for k, f in enumerate(first.tolist())):
        return None
    by_field = isinstance(nums, list)  # (one array per field, each its own: :func:`_field_numbers`)
    if nums is None:
        try:
            nums = np.fromstring(text.translate(_SEPARATORS), dtype=np.float64, sep=" ")
        except ValueError:  # two numbers touching (`1-2`), a lone sign or point: read one by one
            return None
    if (sum(map(len, nums)) if by_field else len(nums)) != len(floats):
        return None
    types = tuple(float if f else int for f in first.tolist())
    cols = []
    for k, t in enumerate(types):
        col = nums[k] if by_field else nums[k::width]
        if t is int:
            if (longest is None or longest >= 16) and np.abs(col).max() >= 2.0 ** 53:
                return None  # (int() keeps every digit)
            col = np.add(col, 0.0, out=col) if by_field else col + 0.0  # `-0` is the int 0: no -0.0 in a column of ints
        col = np.array(col) if col.base is not None or not col.flags.c_contiguous else col  # (its own copy)
        col.flags.writeable = False  # shared with the lowering's caches: never changed
        cols.append(col)

    def rows() -> Iterable:
        return zip(*[col.astype(np.int64).tolist() if t is int else col.tolist() for col, t in zip(cols, types)])
    return rows, types, cols


def _typed(nums: np.ndarray, floats: np.ndarray) -> list | None:
    """Numbers read by numscan as :func:`_convert` gives them: a float for each written as one, an int
    for the others; None when an int reaches 2**53 (the float64 read may have rounded it)."""
    if floats.all():
        return nums.tolist()
    ints = ~floats
    if np.abs(nums[ints]).max() >= 2.0 ** 53:
        return None
    if not floats.any():
        return (nums + 0.0).astype(np.int64).tolist()  # (`-0` is the int 0)
    out = nums.tolist()
    for i, v in zip(np.flatnonzero(ints).tolist(), (nums[ints] + 0.0).astype(np.int64).tolist()):
        out[i] = v
    return out


def _matrix_rows(nums: np.ndarray, floats: np.ndarray, counts: np.ndarray, newlines: np.ndarray, file: str,
                 starts: np.ndarray, ends: np.ndarray) -> list | None:
    """The rows of a matrix read in bulk, each a :class:`DList` of ``counts[k]`` of the numbers (as
    :func:`_typed` gives them) spanning ``starts[k]:ends[k]``; None where an int reaches 2**53."""
    bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
    with gc_paused():  # (the collector would walk the million numbers once per 700 rows made)
        values = _typed(nums, floats)
        if values is None:
            return None
        rows = []
        for a, b, span in zip(bounds, bounds[1:], _spans(newlines, file, starts, ends)):
            row = DList(values[a:b])
            row.span = span
            rows.append(row)
    return rows


def _bulk_numbers(body: str) -> list | None:
    """The numbers of a long run such as ``1, 2.5 -3e2`` (:func:`_numbers`' input, checked as there),
    read by numscan in one pass; None when numscan leaves them to :func:`_convert`."""
    data = body.encode("ascii")
    starts, ends = numscan.token_bounds(numscan.number_mask(data))
    read = numscan.read_tokens(data, starts, ends)
    return None if read is None else _typed(*read)


def _tuple_values(toks: list[str], counts: np.ndarray, floats: np.ndarray) -> tuple[Iterable, tuple | None]:
    """The values of each tuple, an iterable of ``counts[k]`` numbers for the k-th, as :func:`_convert` reads them:
    ``float`` for a number written with ``.``, ``e`` or ``E``, ``int`` otherwise; and the type of each
    field when every tuple has the same number of fields and each field is written the same way in
    all of them (the usual case, converted a column at a time), else None.  Raises ValueError where a
    token is no number."""
    n, width = len(counts), int(counts[0])
    if n * width == len(toks) and np.all(counts == width):
        kinds = floats.reshape(n, width)
        first = kinds[0]
        if np.all(kinds == first):
            types = tuple(float if f else int for f in first.tolist())
            cols = [list(map(f, toks[k::width])) for k, f in enumerate(types)]
            return zip(*cols), types
    vals = [float(t) if f else int(t) for t, f in zip(toks, floats.tolist())]
    bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
    return [vals[a:b] for a, b in zip(bounds, bounds[1:])], None


class _LazySpans:
    """The ``span`` of the tuples of one large set read in bulk: made for all of them, in one NumPy pass,
    the first time one is read (most never are: spans are for messages).  A non-data descriptor on the
    set's own DTuple subclass, so the spans it stores on the tuples are found there afterwards."""

    def __init__(self, newlines: Any, file: str, starts: np.ndarray, ends: np.ndarray):
        self.newlines, self.file, self.starts, self.ends = newlines, file, starts, ends  # (newlines: a positions.Lines)
        self.tuples: list | None = None

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        if self.tuples is not None:
            tuples, self.tuples = self.tuples, None
            with gc_paused():
                for t, span in zip(tuples, _spans(self.newlines(), self.file, self.starts, self.ends)):
                    t.span = span
            self.newlines = self.starts = self.ends = None
        try:
            return obj.__dict__["span"]
        except KeyError:  # a tuple not made by the reader (there are none): no span, as a bare DTuple
            raise AttributeError("span") from None


def _reduce_dtuple(t: DTuple) -> tuple:
    """Copies and pickles of a lazily spanned tuple are plain DTuples with the span."""
    return _spanned_dtuple, (list(t), getattr(t, "span", None))


def _spanned_dtuple(items: list, span: Any) -> DTuple:
    out = DTuple(items)
    if span is not None:
        out.span = span
    return out


def _spanned_later(rows: Iterable, newlines: Any, file: str, starts: np.ndarray, ends: np.ndarray) -> list:
    """A DTuple of each row whose ``span`` (``starts[k]:ends[k]`` of the text whose newlines are at
    ``newlines()``, a :class:`~pyopl.data.positions.Lines`) is made for all of them on first use (see :class:`_LazySpans`)."""
    cls = type("DTuple", (DTuple,), {"__slots__": (), "__reduce__": _reduce_dtuple,
                                      "span": _LazySpans(newlines, file, starts, ends)})
    with gc_paused():  # (hundreds of thousands of new lists, no cycles among them)
        tuples = list(map(cls, rows))
    cls.span.tuples = tuples
    return tuples


class _Reader:
    """Reads one value (a container of numbers and strings) from ``text`` at an offset."""

    def __init__(self, text: str, file: str, pos: _Positions):
        self.text = text
        self.file = file
        self.pos = pos
        self.rows_budget = 2 * len(text) + 65536  # characters :meth:`_numeric_rows` may search in all
        self.cleared: list[tuple[int, int]] = []  # bodies read in bulk that hold no run of 100 digits

    def span(self, start: int, end: int) -> Span:
        """Span of the characters ``text[start:end]`` (``end`` exclusive, on one line for the closer)."""
        l1, c1 = self.pos.at(start)
        l2, c2 = self.pos.at(end - 1)
        return Span(self.file, l1, c1, l2, c2 + 1)

    def _numbers_only(self, start: int, opener: str, closer: str) -> tuple[Any, int] | None:
        """A container holding nothing but numbers (a row of a large array, a numeric tuple), read with
        string methods instead of the token loop; None for anything else, which the loop reads.  The
        loop's rules: commas only between numbers (one trailing comma allowed), a sign touching its
        number; a token that breaks them is no valid number, or is caught below."""
        end = self.text.find(closer, start + 1)
        if end < 0:
            return None
        body = self.text[start + 1:end]
        # (after the translate test the body holds only number characters, commas and the grammar's
        # white space, so `isspace` is that white space; the checks copy nothing)
        if body.translate(_NOT_NUMERIC) or not body or body.isspace() or _LEADING_COMMA.match(body) \
                or _TWO_COMMAS.search(body):
            return None
        nums = _bulk_numbers(body) if len(body) >= _BULK_FROM else None
        if nums is None:
            try:
                nums = _convert(body, body.replace(",", " ").split())
            except ValueError:  # two numbers touching (`1-2`), a lone sign or point: the loop decides
                return None
        value = _KIND[opener](nums)
        value.span = self.span(start, end + 1)
        return value, end + 1

    def _numeric_tuples(self, start: int) -> tuple[Any, int] | None:
        """A set of tuples of numbers only (``{<1, 2, 3.5>, <2, 3, 4>}``, network data), read in bulk: the
        layout is checked with NumPy over the characters of the whole body, the numbers are split and
        converted once for all tuples, and the spans are computed in one NumPy pass (on first use, for
        a large set); None for anything else (strings, nesting, an empty tuple, a comma out of place),
        which the token loop reads.  The rules are those of reading each ``<...>`` as
        :meth:`_numbers_only` reads one (see :func:`_tuple_layout`)."""
        end = self.text.find("}", start + 1)
        if end < 0:
            return None
        layout = self._layout(start + 1, end, _CLASS_BYTES, by_field=True)
        if layout is None:
            return None
        opens, closes, counts, floats, nums, longest = layout
        starts, ends = opens, closes  # (the layout's own arrays, made for this read: moved in place)
        starts += start + 1
        ends += start + 2
        body = self.text[start + 1:end] if nums is None else ""  # (the str copy only where it is read)
        with gc_paused():  # (hundreds of thousands of new lists, no cycles among them)
            fast = _numpy_columns(body, counts, floats, nums, longest if nums is not None else None)
            columns = None
            if fast is not None:
                rows, types, columns = fast
                if len(counts) >= _LAZY_SPANS_FROM:  # the tuples are made when first asked for
                    newlines, file = self.pos.lines(), self.file  # (not the reader: it holds the whole text)
                    value = UnfilledTuples(lambda: _spanned_later(rows(), newlines, file, starts, ends))
                    value.span = self.span(start, end + 1)
                    value.fields, value.columns = (len(counts), types), columns
                    return value, end + 1
                tuples = rows()
            else:
                toks = self.text[start + 1:end].translate(_SEPARATORS).split()
                if len(toks) != len(floats):  # cannot happen: the same runs of number characters
                    return None
                try:
                    tuples, types = _tuple_values(toks, counts, floats)
                except ValueError:  # two numbers touching (`1-2`), a lone sign or point: the loop decides
                    return None
            tuples = self._dtuples(tuples, starts, ends)
        value = DSet(tuples)
        value.span = self.span(start, end + 1)
        if types is not None:  # what the conversion would otherwise check tuple by tuple (see DSet)
            value.fields = (len(value), types)
            value.columns = columns  # each field as a float64 array, or None (see DSet)
        return value, end + 1

    def _layout(self, a: int, b: int, table: bytes, by_field: bool = False) -> tuple | None:
        """:func:`_tuple_layout` of ``text[a:b]`` (from the text's ASCII bytes, encoded once); None for a
        text that is not ASCII.  A body whose runs of number characters are all shorter than 100 is
        noted in :attr:`cleared`: it holds no run of 100 digits (see :func:`parse_data_fast`)."""
        data = self.pos.ascii()
        layout = None if data is None else _tuple_layout(data, table, (a, b), self.pos.classes(table), by_field)
        if layout is not None and layout[5] < 100:
            self.cleared.append((a, b))
        return layout

    def _dtuples(self, rows: Iterable, starts: np.ndarray, ends: np.ndarray) -> list[DTuple]:
        """A DTuple of each row, spanning ``text[starts[k]:ends[k]]`` (spans made on first use for a large set)."""
        if len(starts) >= _LAZY_SPANS_FROM:
            return _spanned_later(rows, self.pos.lines(), self.file, starts, ends)
        with gc_paused():  # (hundreds of thousands of new lists, no cycles among them)
            tuples = list(map(DTuple, rows))
            for t, span in zip(tuples, self.pos.spans(self.file, starts, ends)):
                t.span = span
            return tuples

    def _numeric_rows(self, start: int, top: bool = False) -> tuple[Any, int] | None:
        """A large matrix of numbers only (``[[1, 2.5], [3, 4]]``), its rows read in one pass as
        :meth:`_numeric_tuples` reads tuples (the rules on commas are the same, and each row is
        what :meth:`_numbers_only` gives); None for anything else, or a small one, which is read
        row by row.  A large one that is a whole data item (``top``) with rows of one length comes
        back as an :class:`UnfilledRows`: its numbers as one array, its rows made when first asked for."""
        if self.rows_budget <= 0:  # (a matrix nested in a matrix is searched again from inside: bounded)
            return None
        m = _ROWS_END.search(self.text, start + 1)
        self.rows_budget -= (m.end() if m is not None else len(self.text)) - start
        if m is None or m.end() - start < _BULK_FROM:
            return None
        end = m.end() - 1
        layout = self._layout(start + 1, end, _ROW_CLASS_BYTES)
        if layout is None or layout[4] is None:
            return None
        opens, closes, counts, floats, nums, _longest = layout
        starts, ends = opens + (start + 1), closes + (start + 2)
        all_floats = bool(floats.all())
        if top and len(counts) >= _LAZY_SPANS_FROM and np.all(counts == counts[0]) and \
                (all_floats or np.abs(nums[~floats]).max() < 2.0 ** 53):
            # a whole data item, every row as long: its numbers kept as one array, the rows made if asked
            numbers = nums if all_floats else np.add(nums, 0.0, out=nums.copy(), where=~floats)  # (`-0`: 0)
            numbers.flags.writeable = False
            newlines, file = self.pos.lines(), self.file  # (not the reader: it holds the whole text)
            value = UnfilledRows(numbers, len(counts), int(counts[0]),
                                 lambda: _matrix_rows(nums, floats, counts, newlines(), file, starts, ends))
        else:
            rows = _matrix_rows(nums, floats, counts, self.pos.array(), self.file, starts, ends)
            if rows is None:
                return None
            value = DList(rows)
        value.span = self.span(start, end + 1)
        return value, end + 1

    def token(self, i: int):
        m = _TOKEN.match(self.text, i)
        if m is None:
            raise _NotFast()
        if m.lastgroup == "ws":
            m = _TOKEN.match(self.text, m.end())
            if m is None:
                raise _NotFast()
        return m

    def container(self, start: int, top: bool = False) -> tuple[Any, int]:
        """The container opened at ``start``; returns (value, offset after its closer).  ``top``: it is
        a data item's whole value (a large matrix may then stay one array: :meth:`_numeric_rows`)."""
        opener = self.text[start]
        closer = _CLOSE[opener]
        if opener == "{" and self.text.startswith("<", _GAP_WS.match(self.text, start + 1).end()):
            flat = self._numeric_tuples(start)  # (a body holding `<` is not numbers only)
        elif opener == "[" and self.text.startswith("[", _GAP_WS.match(self.text, start + 1).end()):
            flat = self._numeric_rows(start, top)  # (nor one holding `[`)
        else:
            flat = self._numbers_only(start, opener, closer)
        if flat is not None:
            return flat
        out: list = []
        i = start + 1
        after_elem = False
        while True:
            m = self.token(i)
            kind, tok = m.lastgroup, m.group()
            if kind == "punct":
                if tok == closer:
                    value = _KIND[opener](out)
                    value.span = self.span(start, m.end())
                    return value, m.end()
                if tok == ",":
                    if not after_elem:
                        raise _NotFast()
                    after_elem = False
                    i = m.end()
                    continue
                if tok in _CLOSE:
                    v, i = self.container(m.start())
                    out.append(v)
                    after_elem = True
                    continue
                raise _NotFast()
            if kind == "num":
                out.extend(_numbers(tok))
            else:  # str
                out.append(_known_escapes(tok))
            after_elem = True
            i = m.end()


def _unknown_escape(tok: str) -> bool:
    """Whether the string literal ``tok`` holds an escape OPL does not define (OPL0931): the full
    parser reads such a statement, to warn at its place."""
    if "\\" not in tok:
        return False
    unknown: list = []
    _unquote(tok, unknown)
    return bool(unknown)


def _known_escapes(tok: str) -> str:
    """The value of the string literal ``tok``; :class:`_NotFast` if it holds an unknown escape."""
    if _unknown_escape(tok):
        raise _NotFast()
    return _unquote(tok)


def _fast_items(text: str, file: str, ascii_text: bytes | None = None) -> tuple[
        list[tuple[int, int, DataItem]], list[tuple[int, int]], list[tuple[int, int]]]:
    """Statements read here: ``(start, end, item)`` each, the ``(start, end)`` ranges to blank, and the
    ranges read in bulk that hold no run of 100 digits (:attr:`_Reader.cleared`)."""
    pos = _Positions(text, ascii_text)
    reader = _Reader(text, file, pos)
    items: list[tuple[int, int, DataItem]] = []
    i, n = 0, len(text)
    while True:
        i = _GAP.match(text, i).end()
        if i >= n:
            break
        head = _HEAD.match(text, i)
        if head is not None and head.group(1) not in _NOT_NAMES:
            try:
                value, j = reader.container(head.end(), top=True)
                semi = _SEMI.match(text, j)
                if semi is None:
                    raise _NotFast()
            except (_NotFast, RecursionError):
                pass
            else:
                name_span = reader.span(head.start(1), head.end(1))
                whole = reader.span(i, semi.end())
                items.append((i, semi.end(), DataItem(head.group(1), value, whole, name_span, value.span, file)))
                i = semi.end()
                continue
        scalar = _SCALAR.match(text, i)
        if scalar is not None and scalar.group(1) not in _NOT_NAMES and not (
                scalar.group("str") and _unknown_escape(scalar.group("str"))):
            value = _numbers(scalar.group("num"))[0] if scalar.group("num") else _unquote(scalar.group("str"))
            whole = reader.span(i, scalar.end())
            name_span = reader.span(scalar.start(1), scalar.end(1))
            items.append((i, scalar.end(), DataItem(scalar.group(1), value, whole, name_span, whole, file)))
            i = scalar.end()
            continue
        skip = _SKIP.match(text, i)
        if skip is None:  # no end of statement that we can find: the full parser takes the rest
            break
        i = skip.end()
    return items, [(a, b) for a, b, _ in items], reader.cleared


def _blank(text: str, ranges: list[tuple[int, int]]) -> str:
    parts, last = [], 0
    for a, b in ranges:
        parts.append(text[last:a])
        parts.append("\n".join(map(" ".__mul__, map(len, text[a:b].split("\n")))))
        last = b
    parts.append(text[last:])
    return "".join(parts)


def parse_data_fast(text: str, file: str, reporter: Reporter, ascii_text: bytes | None = None) -> list[Any]:
    """Same contract and result as :func:`pyopl.data.parser.parse_data`, faster on large numeric data.

    Returns DataItems and ``("include", path, span)`` entries in source order.
    Used for every text, small ones too: the statements it reads cost about 0.15 ms in a
    10x10 transport file where the full parser takes 1.5 ms.  ``ascii_text``: ``text.encode("ascii")``
    where the caller has it (the file's bytes as read: a 63 MB text is then not copied again).
    """
    fast, ranges, cleared = _fast_items(text, file, ascii_text)
    # a number that may be beyond every double: the full parser reports it at its place (the bodies read
    # in bulk were shown to hold no run of 100 digits as they were read: not searched for one again)
    if maybe_too_large(text, cleared):
        return parse_data(text, file, reporter)
    if not fast:
        return parse_data(text, file, reporter)
    slow: list[Any] = []
    bounds = [0] + [x for r in ranges for x in r] + [len(text)]
    if any(text[a:b].strip(_WS_CHARS) for a, b in zip(bounds[0::2], bounds[1::2])):
        # something besides the grammar's white space (`\x0b` or `\xa0` left over is an error to report)
        rest = _blank(text, ranges)
        scratch = Reporter(reporter.max_errors)
        try:
            slow = parse_data(rest, file, scratch)
        except TooManyErrors:
            return parse_data(text, file, reporter)
        if scratch.diagnostics:  # the full parser's own words, from the whole text
            return parse_data(text, file, reporter)
    entries = [((it.span.line, it.span.column), it) for _a, _b, it in fast]
    for e in slow:
        span = e[-1] if isinstance(e, tuple) else e.span  # (an include's or a data source's span is last)
        entries.append(((span.line, span.column), e))
    entries.sort(key=lambda p: p[0])
    return [e for _k, e in entries]
