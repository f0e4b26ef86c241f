"""Offsets of a ``.dat`` text -> (line, column), 1-based as Lark counts them: the spans the fast path
(:mod:`pyopl.data.fastpath`) gives the values it reads, one at a time or for a large set's tuples all
at once (NumPy over the offsets of the text's newlines)."""
from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from ..diagnostics.diagnostic import Span


class Positions:
    """Offsets -> (line, column), 1-based as Lark counts them."""

    def __init__(self, text: str, ascii_text: bytes | None = None):
        self.text = text
        self._newlines: list[int] | None = None  # made on first use, as the array below
        self._nl: np.ndarray | None = None
        self._ascii: bytes | None = ascii_text  # (given: the file's bytes, when they are the text's ASCII)
        self._classes: dict[bytes, bytes] = {}
        self._marks: list[int] = []  # offsets :meth:`at` counted the lines of (a large text), ascending,
        self._counts: list[int] = []  # and the newlines before each

    @property
    def newlines(self) -> list[int]:
        """The offset of every newline of the text, in order."""
        if self._newlines is None:
            if self._bulk():
                self._newlines = self.array().tolist()
            else:  # (str.find: no regex or NumPy set-up, which is most of the cost in a small text)
                text, out = self.text, []
                k = text.find("\n")
                while k >= 0:
                    out.append(k)
                    k = text.find("\n", k + 1)
                self._newlines = out
        return self._newlines

    def array(self) -> np.ndarray:
        """:attr:`newlines` as a NumPy array."""
        if self._nl is None:
            if self._newlines is None and self._bulk():  # an ASCII text's bytes have the same offsets
                self._nl = np.flatnonzero(np.frombuffer(self.ascii(), dtype=np.uint8) == 10)
            else:
                self._nl = np.asarray(self.newlines, dtype=np.int64)
        return self._nl

    def lines(self) -> Any:
        """:meth:`array` made when first called (a callable): for the spans of a large set's tuples, which
        are made only if one is read.  It holds the text, not these positions (nor their bytes)."""
        if self._nl is not None:
            return Lines(None, self._nl)
        return Lines(self.text)

    def ascii(self) -> bytes | None:
        """The text as ASCII bytes (same offsets), encoded once and shared by the bulk readers; None for a
        text that is not ASCII."""
        if self._ascii is None and self.text.isascii():
            self._ascii = self.text.encode("ascii")
        return self._ascii

    def classes(self, table: bytes) -> bytes:
        """:meth:`ascii` translated by ``table`` (:func:`_classes`), made once per table for all the bodies
        of the text that are read in bulk (each then a view: no copy of a body)."""
        out = self._classes.get(table)
        if out is None:
            out = self._classes[table] = self.ascii().translate(table)
        return out

    def _bulk(self) -> bool:
        # NumPy's first calls in a process cost more than a small text's regex scan (0.1 ms)
        return len(self.text) >= 65536 and self.text.isascii()

    def at(self, offset: int) -> tuple[int, int]:
        if self._newlines is None and self._bulk():  # (a large text: no list of millions of ints)
            if self._nl is None:
                return self._counted(offset)
            nl = self._nl
            k = int(np.searchsorted(nl, offset))
            return k + 1, offset - (int(nl[k - 1]) if k else -1)
        newlines = self.newlines
        k = bisect.bisect_left(newlines, offset)
        return k + 1, offset - (newlines[k - 1] if k else -1)

    def _counted(self, offset: int) -> tuple[int, int]:
        """:meth:`at` of a large ASCII text without its array of newlines: those before ``offset``
        counted (``bytes.count``, in C) from the nearest offset counted before it, so that a few
        spans (a statement's, its name's, a large set's own) cost about one pass over the text, not
        the offsets of its millions of newlines."""
        data = self.ascii()
        k = bisect.bisect_right(self._marks, offset)
        base, before = (self._marks[k - 1], self._counts[k - 1]) if k else (0, 0)
        before += newlines_in(data, base, offset)
        self._marks.insert(k, offset)
        self._counts.insert(k, before)
        return before + 1, offset - data.rfind(b"\n", 0, offset)

    def spans(self, file: str, starts: np.ndarray, ends: np.ndarray) -> list[Span]:
        """:meth:`_Reader.span` of many ``[start, end)`` ranges at once."""
        return spans(self.array(), file, starts, ends)


_COUNT_BLOCK = 1 << 18  # bytes per block of :func:`newlines_in`: its mask stays in the processor's cache


def newlines_in(data: bytes, start: int, end: int) -> int:
    """``data.count(b"\\n", start, end)``, a third of the time over a large range: ``bytes.count`` of
    one character tests byte by byte (0.033 s over the sparse assignment's 63 MB), NumPy compares and
    counts a block at a time (0.011 s)."""
    if end - start < _COUNT_BLOCK:
        return data.count(b"\n", start, end)
    codes = np.frombuffer(data, dtype=np.uint8)
    mask = np.empty(_COUNT_BLOCK, dtype=np.bool_)
    total = 0
    for a in range(start, end, _COUNT_BLOCK):
        b = min(a + _COUNT_BLOCK, end)
        part = mask[:b - a]
        np.equal(codes[a:b], 10, out=part)
        total += int(np.count_nonzero(part))
    return total


class Lines:
    """The offsets of a text's newlines (as :meth:`Positions.array` finds them), found when first
    called: a large set's lazily made spans keep this, not an array of millions of offsets."""

    __slots__ = ("text", "nl")

    def __init__(self, text: str | None, nl: np.ndarray | None = None):
        self.text, self.nl = text, nl

    def __call__(self) -> np.ndarray:
        if self.nl is None:
            self.nl = Positions(self.text).array()
            self.text = None
        return self.nl


def spans(nl: np.ndarray, file: str, starts: np.ndarray, ends: np.ndarray) -> list[Span]:
    """The spans of ``[start, end)`` ranges of a text whose newlines are at ``nl``."""
    before = np.concatenate(([-1], nl))  # offset of the newline before each line
    k1 = np.searchsorted(nl, starts, side="left")
    k2 = np.searchsorted(nl, ends - 1, side="left")
    l1, c1 = (k1 + 1).tolist(), (starts - before[k1]).tolist()
    l2, c2 = (k2 + 1).tolist(), (ends - 1 - before[k2] + 1).tolist()
    return [Span(file, a, b, c, d) for a, b, c, d in zip(l1, c1, l2, c2)]
