"""The notes on a logical constraint's helper columns (``#[x[1] >= 5]`` in an explanation), made when read.

A model with 50,000 logical constraints makes 100,000 helper columns, and writing each one's note
(OPL names of its variables, its numbers with ``%g``) cost about 15% of lowering them, while a note
is read only by an explanation (:func:`pyopl.backends.explain.iis.column_text`) or by the note of a
nested condition.  :class:`ColumnNotes` keeps, per column, either the text or what it is made from
(:class:`LeafNote`, :class:`JoinedNote`: the same inputs the text was made from when it was written at
once, copied so that nothing changed later alters it), and writes the text on first read, the same
text as before.
"""
from __future__ import annotations

import math
from typing import Any

from ...ir import opl_label


def leaf_text(cols: Any, terms: dict, const: float, lo: float, hi: float, max_terms: int = 4) -> str:
    """``x[1] >= 5``: the linear constraint ``lo <= sum(terms) + const <= hi`` with OPL variable names
    (``cols.name``/``cols.key``) and its constant moved to the right, for the note on a helper column
    (what the column's value 1 stands for)."""
    parts = []
    for j in sorted(j for j, c in terms.items() if c):
        c = float(terms[j])
        coef = "" if abs(c) == 1 else "%g * " % abs(c)
        parts.append(("- " if c < 0 else "+ ") + coef + opl_label(cols.name[j], cols.key[j]))
    if len(parts) > max_terms:
        parts = parts[:max_terms] + ["+ ..."]
    lhs = " ".join(parts)[2:] if parts else "0"
    lhs = "-" + lhs if parts and parts[0].startswith("- ") else lhs
    k = float(const)
    lo, hi = lo - k, hi - k
    if lo == hi:
        return "%s == %g" % (lhs, lo)
    if math.isinf(hi):
        return "%s >= %g" % (lhs, lo)
    if math.isinf(lo):
        return "%s <= %g" % (lhs, hi)
    return "%g <= %s <= %g" % (lo, lhs, hi)


class LeafNote:
    """The note of a leaf ``lo <= e <= hi``, written when read: the columns (names are only ever
    appended), a copy of ``e``'s terms, its constant and the two sides."""

    __slots__ = ("cols", "terms", "const", "lo", "hi")

    def __init__(self, cols: Any, terms: dict, const: float, lo: float, hi: float):
        self.cols, self.terms, self.const, self.lo, self.hi = cols, dict(terms), const, lo, hi

    def text(self, notes: ColumnNotes) -> str:
        """The note (``notes`` unused: a leaf names no other column's note)."""
        return leaf_text(self.cols, self.terms, self.const, self.lo, self.hi)


class JoinedNote:
    """The note of an ``and``/``or`` condition: its parts joined by ``" && "`` or ``" || "`` (or
    ``empty`` where no part is left); a part is a text, a :class:`LeafNote`, or ``("col", j)``: the note
    of another helper column ``j`` (made before this one, so it is already in the notes), bracketed,
    ``...`` where ``j`` has none (a binary variable of the model used as the literal)."""

    __slots__ = ("sep", "parts", "empty")

    def __init__(self, sep: str, parts: list, empty: str):
        self.sep, self.parts, self.empty = sep, parts, empty

    def text(self, notes: ColumnNotes) -> str:
        """The joined text, each part's read from ``notes`` where it is another column's note."""
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif isinstance(p, LeafNote):
                out.append(p.text(notes))
            else:
                out.append("(%s)" % notes.get(p[1], "..."))
        return self.sep.join(out) or self.empty


class ColumnNotes(dict):
    """helper column -> the condition it stands for; a value stored as a :class:`LeafNote` or
    :class:`JoinedNote` is written on first read (``[]``, ``get``, ``items``, ``values``, a copy with
    ``dict(...)``, ``==``, pickling) and kept as text from then on."""

    def __getitem__(self, j: int) -> str:
        v = dict.__getitem__(self, j)
        if type(v) is not str:
            v = v.text(self)
            dict.__setitem__(self, j, v)
        return v

    def get(self, j: int, default: Any = None) -> Any:
        """The note of ``j`` (written now if it was not yet), else ``default``."""
        return self[j] if dict.__contains__(self, j) else default

    def __iter__(self):  # (not dict's own slot: `dict(notes)` then copies through `[]`, so as text)
        return dict.__iter__(self)

    def items(self) -> list:  # type: ignore[override]
        """(column, note) pairs, every note written."""
        return [(j, self[j]) for j in dict.keys(self)]

    def values(self) -> list:  # type: ignore[override]
        """Every note, written."""
        return [self[j] for j in dict.keys(self)]

    def copy(self) -> ColumnNotes:
        """A copy keeping unwritten notes unwritten (each is written from its own inputs)."""
        out = ColumnNotes()
        for j in dict.keys(self):
            dict.__setitem__(out, j, dict.__getitem__(self, j))
        return out

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, dict) and dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple:
        return (ColumnNotes, (dict(self.items()),))
