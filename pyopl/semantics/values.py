"""Run-time values of OPL data: tuples, sets, ranges and arrays.

Index keys stay structured (tuples of values) everywhere: ``x["a"]["b_c"]``
and ``x["a_b"]["c"]`` are different keys.  Sets keep OPL's order (insertion
order unless declared ``sorted``/``reversed``); ``ord`` is 0-based.
"""
from __future__ import annotations

import bisect
import contextlib
import gc
import itertools
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator


@dataclass(eq=False)
class TupleType:
    """A declared ``tuple`` type: field names and types in order; ``keys`` are the ``key`` fields."""

    name: str
    fields: list[str]
    types: list[Any]  # "int" | "float" | "string" | "boolean" | TupleType | SetType-like strings
    keys: list[str] = field(default_factory=list)

    def index(self, name: str) -> int:
        return self.fields.index(name)

    def __repr__(self) -> str:
        return "tuple %s" % self.name


class OplTuple(tuple):
    """A tuple value; compares and hashes as a plain tuple, knows its type for field access."""

    ttype: TupleType | None

    def __new__(cls, items: Iterable[Any], ttype: TupleType | None = None):
        obj = super().__new__(cls, items)
        obj.ttype = ttype
        return obj

    @classmethod
    def many(cls, rows: Iterable[Iterable[Any]], ttype: TupleType | None) -> list["OplTuple"]:
        """``[OplTuple(row, ttype) for row in rows]``, about twice as fast for a large tuple set.

        The tuples share one attribute dict (``{"ttype": ttype}``) instead of each getting its own:
        nothing sets an attribute on a tuple after it is made, and a dict per tuple is most of the
        cost.  Made with the cyclic collector paused (see :func:`gc_paused`)."""
        shared = {"ttype": ttype}
        with gc_paused():
            out = list(map(tuple.__new__, itertools.repeat(cls), rows))
            for t in out:
                t.__dict__ = shared
        return out

    def field(self, name: str) -> Any:
        return self[self.ttype.index(name)]

    def key(self) -> tuple:
        """The value of the ``key`` fields (the whole tuple when none are declared)."""
        if self.ttype is None or not self.ttype.keys:
            return tuple(self)
        return tuple(self[self.ttype.index(k)] for k in self.ttype.keys)

    def __repr__(self) -> str:
        return "<" + ", ".join(_show(v) for v in self) + ">"


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a block makes many objects, restored as it was after.

    As half a million new tuples or lists pile up, the collector walks every live object again and
    again (0.3 s of the 0.35 s it takes to make 512,000 small lists); the objects made in bulk here
    form no reference cycles, so nothing is left for it to find."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _show(v: Any) -> str:
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v)


def show(v: Any) -> str:
    """A value as OPL would write it: strings quoted, tuples in ``<...>``."""
    if isinstance(v, OplSet):
        items = list(v)
        body = ", ".join(show(x) for x in items[:8]) + (", ..." if len(items) > 8 else "")
        return "{" + body + "}"
    if isinstance(v, OplRange):
        return "%d..%d" % (v.lo, v.hi)
    return _show(v)


class OplRange:
    """The integer range ``lo..hi`` (empty when ``hi < lo``); never materialised unless iterated."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: int, hi: int):
        self.lo = lo
        self.hi = hi

    @property
    def size(self) -> int:
        """The number of elements, exactly (a Python int: ``1..2^70`` has 2^70)."""
        return max(0, self.hi - self.lo + 1)

    def __len__(self) -> int:
        # ``len()`` cannot exceed sys.maxsize (OverflowError, an internal error, for ``1..2^63``): a
        # larger range says sys.maxsize, which every size limit refuses; messages use :attr:`size`
        return min(max(0, self.hi - self.lo + 1), sys.maxsize)

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.lo, self.hi + 1))

    def __contains__(self, v: Any) -> bool:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        return self.lo <= v <= self.hi and float(v).is_integer()

    def ord(self, v: Any) -> int:
        return int(v) - self.lo

    def item(self, k: int) -> int:
        return self.lo + k

    def items(self) -> list[int]:
        return list(range(self.lo, self.hi + 1))

    @property
    def elem_type(self) -> str:
        return "int"

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, OplRange):
            return (self.lo, self.hi) == (other.lo, other.hi) or (len(self) == 0 and len(other) == 0)
        if isinstance(other, OplSet):
            return other == self
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.lo, self.hi))

    def __repr__(self) -> str:
        return "%d..%d" % (self.lo, self.hi)


class FloatRange:
    """``range float R = a..b``: used as a continuous domain only."""

    def __init__(self, lo: float, hi: float):
        self.lo = lo
        self.hi = hi

    def __contains__(self, v: Any) -> bool:
        return isinstance(v, (int, float)) and self.lo <= v <= self.hi

    def __repr__(self) -> str:
        return "%g..%g" % (self.lo, self.hi)


class OplSet:
    """An ordered set of ints, floats, strings or tuples.

    ``order`` is ``None`` (OPL's default: insertion order), ``sorted`` or ``reversed``.

    A large tuple set read from data in bulk may be *columnar* (:meth:`from_columns`): it holds each
    field as a float64 array and makes its :class:`OplTuple` items only when one is asked for (by
    iteration, ``item``, ``ord``, ``in``...); the array paths of the lowering read the columns
    (:meth:`column`) and ``len`` only, so a set they alone read never gets a tuple per element.
    """

    __slots__ = ("_items", "_pos", "elem_type", "_by_key", "columns", "_make", "order")

    def __init__(self, items: Iterable[Any] = (), elem_type: Any = None, order: str | None = None):
        uniq = list(items)  # (a copy: the caller's list stays the caller's)
        pos: dict[Any, int] = dict(zip(uniq, range(len(uniq))))
        if len(pos) != len(uniq):  # a value twice: keep the first of equal values, at its first position
            uniq = list(dict.fromkeys(uniq))  # (a dict keeps the key object it got first)
            pos = dict(zip(uniq, range(len(uniq))))
        if order in ("sorted", "reversed"):
            uniq.sort(key=_sort_key, reverse=(order == "reversed"))
            pos = {v: k for k, v in enumerate(uniq)}
        self._items = uniq
        self._pos = pos
        self.elem_type = elem_type
        self._by_key = None
        # a tuple set read in bulk: (its item list or None while columnar, each field as a float64 array,
        # whether each is all ints), valid while the set holds that same list with that many items
        # (see ``column``)
        self.columns = None
        self._make = None  # columnar: makes the item list on first use
        self.order = order if order in ("sorted", "reversed") else None  # kept by a script's `add`

    @classmethod
    def distinct(cls, items: list, elem_type: Any = None, index_now: bool = True) -> "OplSet":
        """``OplSet(items, elem_type)`` for a fresh list of ``items`` known to be distinct (the list is
        kept, not copied): the array paths make many small sets at once.  ``index_now=False``: each
        item's position is hashed into the set's dict on first use (a large tuple set that only the
        array paths read never needs it)."""
        s = cls.__new__(cls)
        s._items = items
        s._pos = dict(zip(items, range(len(items)))) if index_now else None
        s.elem_type = elem_type
        s._by_key = None
        s.columns = None
        s._make = None
        s.order = None
        return s

    @classmethod
    def from_columns(cls, columns: list, ints: tuple, ttype: "TupleType") -> "OplSet":
        """A columnar set of distinct tuples of ``ttype``: field ``k`` of the i-th tuple is ``columns[k][i]``
        (read-only float64 arrays of one length), an ``int`` where ``ints[k]`` (each value exact, below
        2**53) and a ``float`` otherwise.  The caller vouches that no two rows are equal, and that a
        column written as ints holds no ``-0.0`` (the int 0, or 0.0 as a float field).  The tuples,
        made on first use, are those ``OplTuple.many`` makes from the same Python values."""
        s = cls.__new__(cls)
        s._items = None
        s._pos = None
        s.elem_type = ttype
        s._by_key = None
        s.columns = (None, columns, tuple(ints))
        s.order = None
        s._make = lambda: OplTuple.many(
            zip(*[c.astype("int64").tolist() if i else c.tolist() for c, i in zip(columns, ints)]),
            ttype)
        return s

    def _list(self) -> list:
        """The item list, made now if the set is columnar."""
        if self._items is None:
            self._items = self._make()
            self._make = None
            c = self.columns
            self.columns = (self._items, c[1], c[2])
        return self._items

    def column(self, k: int) -> tuple | None:
        """(field ``k`` of every tuple as a float64 array, whether they are all ints) when the data
        reader kept the set's columns and the set has not changed since; None otherwise."""
        c = self.columns
        if c is None or c[0] is not self._items or len(c[1][k]) != len(self):
            return None
        return c[1][k], c[2][k]

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self.columns[1][0])

    def __iter__(self) -> Iterator[Any]:
        return iter(self._list())

    def __contains__(self, v: Any) -> bool:
        try:
            return v in self._pos
        except TypeError:
            if self._pos is not None:
                return False  # (an unhashable value)
        try:
            return v in self.positions()
        except TypeError:
            return False

    def ord(self, v: Any) -> int:
        return (self._pos if self._pos is not None else self.positions())[v]

    def item(self, k: int) -> Any:
        if self._items is None:  # columnar: this one tuple (equal to, not the same object as, the k-th made later)
            _, columns, ints = self.columns
            vals = [c[k] for c in columns]
            return OplTuple([int(v) if i else float(v) for v, i in zip(vals, ints)], self.elem_type)
        return self._items[k]

    def items(self) -> list[Any]:
        return self._list()

    def positions(self) -> dict[Any, int]:
        """Each item's position (``ord``) as a dict, in the set's order: the set's own, not to be changed."""
        if self._pos is None:  # (see ``distinct``)
            items = self._list()
            self._pos = dict(zip(items, range(len(items))))
        return self._pos

    def add(self, v: Any) -> None:
        """Add ``v`` unless the set holds it (a script's ``add``): at the end, or in its place in a
        ``sorted`` or ``reversed`` set (which stays in that order, as OPL keeps it)."""
        if v in self:
            return
        items = self._list()
        if self.order is None:
            items.append(v)
            self.positions()[v] = len(items) - 1
        else:
            key = _sort_key(v)
            if self.order == "sorted":
                k = bisect.bisect_right(items, key, key=_sort_key)
            else:  # (descending: the first item below it)
                k = next((i for i, x in enumerate(items) if _sort_key(x) < key), len(items))
            items.insert(k, v)
            self._pos = None  # (the positions after it moved: made again on first use)
        self._by_key = None

    def replace(self, items: Iterable[Any]) -> None:
        """Make the set hold ``items`` (distinct), in that order (a script's assignment)."""
        self._items = list(items)
        self._make = None
        self._pos = {v: k for k, v in enumerate(self._items)}
        self._by_key = None

    def by_key(self, key: tuple) -> Any:
        """The tuple whose ``key`` fields equal ``key`` (for ``Arcs[<"a","b">]``), or None."""
        if self._by_key is None:
            self._by_key = {t.key(): t for t in self._list() if isinstance(t, OplTuple)}
        return self._by_key.get(key)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (OplSet, OplRange)):
            return set(self) == set(other) and len(self) == len(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._list()))

    def __repr__(self) -> str:
        return show(self)


def _sort_key(v: Any):
    """The order of a ``sorted`` set: numbers, then strings, then tuples; a tuple of a type with
    ``key`` fields by those fields in their order of declaration, any other tuple field by field
    (IBM, OPL language reference, "Sorted and ordered sets": "For tuple sets with keys, sorting
    takes place on all keys in their order of declaration")."""
    if isinstance(v, str):
        return (1, v)
    if isinstance(v, tuple):
        if isinstance(v, OplTuple) and v.ttype is not None and v.ttype.keys:
            v = v.key()
        return (2, tuple(_sort_key(x) for x in v))
    return (0, v)


def is_set(v: Any) -> bool:
    return isinstance(v, (OplSet, OplRange))


class FloatColumn:
    """The values of a `float` array read from data as one float64 NumPy array (a large matrix the
    ``.dat`` reader kept whole: ``data.parser.UnfilledRows``), in key order, as
    :attr:`OplArray.flat` holds them.  Vectorised lowering takes :attr:`array` as it is (read-only);
    anything else sees a read-only sequence of Python floats (``len``, iteration, ``flat[k]``),
    made into a list once, when first asked for."""

    __slots__ = ("array", "_list")

    def __init__(self, array: Any):
        self.array = array  # float64, one dimension, not writeable
        self._list: list | None = None

    def tolist(self) -> list:
        """The values as Python floats (the list is this column's own: read it, do not change it)."""
        if self._list is None:
            self._list = self.array.tolist()
        return self._list

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, k: Any) -> Any:
        return self.tolist()[k]

    def __iter__(self):
        return iter(self.tolist())


class OplArray:
    """An array over index sets ``dims``; ``data`` maps full keys (tuples) to values.

    An array read from data as plain numbers over its whole index space may instead be given
    as ``flat``: its values in the order of the keys (the product of ``dims``, last index
    fastest).  ``data`` is then built on first use, so an array that only vectorised
    lowering reads (which takes ``flat`` as it is) never gets a million key tuples.
    """

    __slots__ = ("name", "dims", "_data", "flat", "flat_floats", "_keys")

    def __init__(self, name: str, dims: list[Any], data: dict[tuple, Any] | None = None,
                 flat: list | FloatColumn | None = None, flat_floats: bool = False):
        self.name = name
        self.dims = dims
        self._data = data
        self.flat = flat
        self.flat_floats = flat_floats  # every value of ``flat`` is a Python float
        # the keys of ``flat`` as the index sets are now: a script may add to a set later (`I.add(0)`
        # in a sorted set puts 0 first), and the values belong to the keys they were read for
        self._keys = ProductKeys(dims) if flat is not None else None

    @property
    def data(self) -> dict[tuple, Any]:
        if self._data is None:
            self._data = dict(zip(self.flat_keys(), self.flat))
        return self._data

    def flat_keys(self) -> "ProductKeys":
        """The key of each value of :attr:`flat`, in order (the index sets as they were when it was given)."""
        return self._keys if self._keys is not None else ProductKeys(self.dims)

    def flat_aligned(self) -> bool:
        """:attr:`flat` is set and its values are still in the order of the index sets' items (no set has
        changed since): the array paths may then read it by position."""
        return self.flat is not None and (self._keys is None or self._keys.unchanged())

    def __len__(self) -> int:
        return len(self.dims[0]) if self.dims else 0

    def __repr__(self) -> str:
        return "array %s" % self.name


class ProductKeys:
    """The index keys of an array over ``dims`` in OPL's order (the product of the index sets,
    last index fastest), as a read-only sequence that makes each key only when asked:
    ``len``, iteration, ``keys[k]`` and ``==`` with a list behave as the list of tuples would."""

    __slots__ = ("dims", "_items", "_len", "_lens")

    def __init__(self, dims: list[Any]):
        self.dims = dims
        if any(type(d) is OplSet and d._items is None for d in dims):  # a columnar set: its tuples when asked
            self._items = None
            self._lens = [len(d) for d in dims]
        else:
            self._items = [list(d) for d in dims]
            self._lens = [len(items) for items in self._items]
        n = 1
        for size in self._lens:
            n *= size
        self._len = n

    def _lists(self) -> list[list]:
        """Each index set's items, as they were when the keys were made (a set only grows by ``add``)."""
        if self._items is None:
            self._items = [list(d)[:size] for d, size in zip(self.dims, self._lens)]
        return self._items

    def __len__(self) -> int:
        return self._len

    def unchanged(self) -> bool:
        """Every index set still has the items (in order) it had when these keys were made."""
        if self._items is None:  # (a columnar set's items are not listed: its size tells)
            return [len(d) for d in self.dims] == self._lens
        return all(len(d) == len(items) and (len(items) == 0 or list(d) == items)
                   for d, items in zip(self.dims, self._items))

    def __iter__(self) -> Iterator[tuple]:
        return itertools.product(*self._lists())

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._len))]
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError("key position out of range")
        return self._key(k)

    def _key(self, k: int) -> tuple:
        """Key number ``k`` (``0 <= k < len``): the mixed-radix digits of ``k`` over the index sets."""
        out = []
        if self._items is None:  # a columnar set among the dims: each item by itself
            for d, size in zip(reversed(self.dims), reversed(self._lens)):
                k, r = divmod(k, size)
                out.append(d.item(r) if isinstance(d, (OplSet, OplRange)) else d[r])
            return tuple(reversed(out))
        for items in reversed(self._items):
            k, r = divmod(k, len(items))
            out.append(items[r])
        return tuple(reversed(out))

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (list, tuple, ProductKeys)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return "ProductKeys(%d keys)" % self._len


class ArraySlice:
    """``a[i]`` of a multi-dimensional array: a view waiting for the remaining indices."""

    __slots__ = ("array", "prefix")

    def __init__(self, array: Any, prefix: tuple):
        self.array = array
        self.prefix = prefix

    @property
    def dims(self) -> list[Any]:
        return self.array.dims[len(self.prefix):]

    @property
    def name(self) -> str:
        return self.array.name


def infer_elem_type(items: list) -> Any:
    """The element type OPL would give a set written with these values (None when empty)."""
    if not items:
        return None
    v = items[0]
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "float" if any(isinstance(x, float) for x in items) else "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, OplTuple):
        return v.ttype
    return None


def elem_kind(domain: Any) -> str | None:
    """``int``, ``float``, ``string`` or ``tuple``: what kind of values index this set (None if unknown)."""
    if isinstance(domain, OplRange):
        return "int"
    et = getattr(domain, "elem_type", None)
    if et in ("int", "float", "string"):
        return et
    if isinstance(et, TupleType):
        return "tuple"
    if et is None and isinstance(domain, OplSet) and len(domain):
        return elem_kind(OplSet([], infer_elem_type(domain.items()[:1])))
    return None


def same_kind(kind: str, v: Any) -> bool:
    """Whether ``v`` is a value of that kind (an int indexes a float set and the reverse)."""
    if kind in ("int", "float"):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if kind == "string":
        return isinstance(v, str)
    if kind == "tuple":
        return isinstance(v, tuple)
    return True
