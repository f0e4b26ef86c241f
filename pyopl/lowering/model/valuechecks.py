"""Checks on a data declaration's value once it is read (from the data file, a Python dict or
the model's initializer): `int+`/`float+` data (and `int+`/`float+` tuple fields) are not
negative, and `int` values fit OPL's 32-bit `int` (IBM OPL language reference, "Integers" and
"Data types").

The value has already been converted to the declared type; this walks it once, with C-speed
``min``/``max`` over plain numeric arrays, and names the first offending element by its index.
"""
from __future__ import annotations

import itertools
import re

from operator import itemgetter
from typing import Any, Callable

from ...data.parser import Unfilled
from ...diagnostics.diagnostic import Span
from ...semantics.values import FloatColumn, OplArray, OplSet, OplTuple, TupleType, show
from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.int32 import INT32, range_words

_UNSIGNED = ("int+", "float+")


def check_declared_value(d: A.ParamDecl, typ: Any, value: Any, span: Span, symbols: dict | None = None,
                         raw: Any = None, bounds: tuple[int, int] = INT32) -> None:
    """Raise an :class:`EvalError` when ``value`` (of declaration ``d``, converted to ``typ``)
    has a negative element where `int+`/`float+` is declared, or an int outside ``bounds`` (OPL's 32
    bits; a ``using CP;`` model passes :data:`pyopl.lowering.forms.int32.INT64`).

    ``span`` is where the value was written (the data item, or the initializer); ``raw``, the
    value as the `.dat` parser read it, narrows it to the row or tuple (whose spans it keeps);
    ``symbols`` (the instance's) give the tuple declarations, for their `int+`/`float+` fields.
    """
    check = _Check(d.type.name in _UNSIGNED, symbols or {}, bounds)
    elem = getattr(typ, "elem", typ)  # a set's element type, or the scalar / tuple type
    if not check.unsigned and not check.relevant(elem):
        return
    if isinstance(value, OplArray):
        hit = check.first_in_array(value)
        if hit is not None:
            key, v, bad = hit
            raise _error(d, "%s[%s]" % (d.name, "][".join(show(k) for k in key)), v, bad,
                         _element_span(_filled(raw), value.dims, key, span), bounds)
        return
    bad = check.bad(value)
    if bad is not None:
        raise _error(d, d.name, value, bad, _tuple_span(_filled(raw), bad[1], span), bounds)


def _filled(raw: Any) -> Any:
    """The data as read, with a bulk-read tuple set's tuples or matrix's rows made (for their spans)."""
    return raw.fill() if isinstance(raw, Unfilled) else raw


def _element_span(raw: Any, dims: list, key: tuple, span: Span) -> Span:
    """The span of the innermost `[...]` row (or `<...>` tuple) of positional data ``raw`` that
    holds the element ``key``; ``span`` when ``raw`` has no such structure."""
    cur = raw
    for dim, k in zip(dims, key):
        if not isinstance(cur, list):
            return span
        span = getattr(cur, "span", None) or span
        lo = getattr(dim, "lo", None)
        pos = k - lo if lo is not None and type(k) is int else next((p for p, x in enumerate(dim) if x == k), None)
        if pos is None or not 0 <= pos < len(cur):
            return span
        cur = cur[pos]
    return getattr(cur, "span", None) or span


def _tuple_span(raw: Any, holder: Any, span: Span) -> Span:
    """The span of the `<...>` in the data set ``raw`` that gave the tuple ``holder``, else ``span``."""
    if holder is None or not isinstance(raw, list):
        return span
    want = _plain(holder)
    for t in raw:
        if isinstance(t, list) and _plain(t) == want:
            return getattr(t, "span", None) or span
    return span


def _plain(v: Any) -> Any:
    return tuple(_plain(x) for x in v) if isinstance(v, (list, tuple)) else v


class _Check:
    """What is wrong inside one declaration's value: ``bad(v)`` gives (number, tuple type, field)
    of the first offending number (tuple type and field None outside a tuple), or None."""

    def __init__(self, unsigned: bool, symbols: dict, bounds: tuple[int, int] = INT32):
        self.unsigned = unsigned
        self.lo, self.hi = bounds
        self.symbols = symbols
        self._fields: dict[str, frozenset] = {}

    def unsigned_fields(self, t: TupleType) -> dict:
        """Positions of the fields of ``t`` declared `int+`/`float+`, to that type word."""
        hit = self._fields.get(t.name)
        if hit is None:
            sym = self.symbols.get(t.name)
            decl = getattr(sym, "decl", None)
            hit = {t.index(f.name): f.type.name for f in getattr(decl, "fields", ())
                   if f.type.name in _UNSIGNED and not f.type.is_set and not f.dims and f.name in t.fields}
            self._fields[t.name] = hit
        return hit

    def relevant(self, t: Any, depth: int = 0) -> bool:
        if t == "int":
            return True
        if isinstance(t, TupleType):
            return depth < 8 and (bool(self.unsigned_fields(t)) or any(self.relevant(ft, depth + 1) for ft in t.types))
        return self.relevant(t.elem, depth + 1) if hasattr(t, "elem") and depth < 8 else False

    def bad(self, v: Any) -> tuple | None:
        """(offending number, the tuple holding it or None, its field's tuple type, field name, declared
        field type) for the first offending number in ``v``, or None."""
        t = type(v)
        if t is int or t is float:
            if (self.unsigned and v < 0) or (t is int and not self.lo <= v <= self.hi):
                return v, None, None, None, None
            return None
        if isinstance(v, OplTuple):
            b = self._tuple(v)
            return None if b is None else (b[0], v) + b[1:]
        if isinstance(v, OplSet):
            if isinstance(v.elem_type, TupleType) and len(v) and v.column(0) is not None \
                    and self._tuple_columns_fit(v.elem_type, v):  # (a columnar set: no tuple made)
                return None
            items = list(v)
            if items and set(map(type, items)) == {int}:  # {int}: one C pass each way
                lo, hi = min(items), max(items)
                if (self.unsigned and lo < 0) or lo < self.lo:
                    return lo, None, None, None, None
                return (hi, None, None, None, None) if hi > self.hi else None
            if items and type(items[0]) is OplTuple and self._tuple_columns_fit(items[0].ttype, v):
                return None
            for x in items:
                b = self.bad(x)
                if b is not None:
                    return b
        return None

    def _tuple_columns_fit(self, tt: TupleType | None, owner: OplSet) -> bool:
        """True when every int and unsigned field of the tuples of ``owner`` (of type ``tt``, the first
        one's) is fine, checked column by column at C speed; False: look tuple by tuple.  The set's
        columns (kept by the data reader) are read instead of the tuples when it has them."""
        if tt is None:
            return False
        items = None
        unsigned = self.unsigned_fields(tt)
        for k, ft in enumerate(tt.types):
            if isinstance(ft, TupleType):
                return False  # nested tuples: the general walk
            if ft != "int" and k not in unsigned:
                continue
            kept = owner.column(k) if owner.columns is not None else None
            if kept is not None and len(kept[0]) and owner.elem_type is tt:  # (numbers only, ints exact)
                lo, hi = float(kept[0].min()), float(kept[0].max())
                if (k in unsigned and lo < 0) or (ft == "int" and (lo < self.lo or hi > self.hi)):
                    return False
                continue
            items = list(owner) if items is None else items
            col = list(map(itemgetter(k), items))
            if not set(map(type, col)) <= {int, float}:
                return False
            lo, hi = min(col), max(col)
            if (k in unsigned and lo < 0) or (ft == "int" and (lo < self.lo or hi > self.hi)):
                return False
        return True

    def _tuple(self, v: OplTuple) -> tuple | None:
        tt = v.ttype
        unsigned = {} if tt is None else self.unsigned_fields(tt)
        for k, x in enumerate(v):
            if type(x) is int or type(x) is float:
                if (k in unsigned and x < 0) or (type(x) is int and not self.lo <= x <= self.hi):
                    return x, tt, tt.fields[k] if tt is not None else None, unsigned.get(k)
            elif isinstance(x, OplTuple):
                b = self._tuple(x)
                if b is not None:
                    return b
        return None

    def first_in_array(self, arr: OplArray) -> tuple | None:
        """(key, element value, what :meth:`bad` says) for the first bad element of ``arr``, or None."""
        candidates = getattr(arr.flat, "candidates", None)  # sets drawn from these items (vectorised_subsets.py)
        if candidates is not None and self.bad(OplSet.distinct(list(candidates))) is None:
            return None
        if type(arr.flat) is FloatColumn:  # floats read as one array: its extremes, no Python floats made
            lo, hi = float(arr.flat.array.min()), float(arr.flat.array.max())
            if not ((self.unsigned and lo < 0) or lo < self.lo or hi > self.hi):
                return None
        values = arr.flat if arr.flat is not None else list(arr.data.values())
        kinds = set(map(type, values))
        if kinds and kinds <= {int, float}:  # plain numbers: one C pass each way before looking closer
            lo, hi = min(values), max(values)
            if not ((self.unsigned and lo < 0) or lo < self.lo or hi > self.hi):
                return None
        if kinds == {OplSet}:  # an array of sets (`{int} S[k in K] = ...`): every element in one pass
            items = list(itertools.chain.from_iterable(values))
            if not items or set(map(type, items)) == {str}:
                return None
            if set(map(type, items)) == {int}:
                lo, hi = min(items), max(items)
                if not ((self.unsigned and lo < 0) or lo < self.lo or hi > self.hi):
                    return None
        keys: Callable[[], Any] = (lambda: arr.flat_keys()) if arr.flat is not None else (lambda: list(arr.data))
        for k, v in enumerate(values):
            b = self.bad(v)
            if b is not None:
                return keys()[k], v, b
        return None


_LONG_DIGITS = re.compile(r"\d{25,}")


def _elided(m: "re.Match[str]") -> str:
    """A long run of digits in a message as ``123456...789 (57 digits)``; past 400 digits the data
    reader kept only the magnitude (``parser.int_literal``), so the count is not given."""
    ds = m.group()
    return "%s...%s (%s digits)" % (ds[:6], ds[-3:], len(ds) if len(ds) <= 400 else "more than 400")


def _error(d: A.ParamDecl, what: str, v: Any, bad: tuple, span: Span, bounds: tuple[int, int] = INT32) -> EvalError:
    number, holder, tt, fname, ftype = bad
    if holder is not None:
        whole = "`%s` %s %s, whose field `%s` is %s" % (
            what, "is" if holder is v else "holds", show(holder), fname or "?", show(number))
    else:
        whole = "`%s` is %s" % (what, show(v)) if number is v else "`%s` holds %s" % (what, show(number))
    if type(number) is int and not bounds[0] <= number <= bounds[1]:
        whole = _LONG_DIGITS.sub(_elided, whole)
        return EvalError("data-int-out-of-range", span, "%s, outside %s" % (whole, range_words(bounds)),
                         help="declare it `float` if it needs this magnitude, or fix the data")
    if ftype is not None:
        return EvalError("data-negative-unsigned", span,
                         "%s, but `%s.%s` is declared `%s`, which cannot be negative" % (whole, tt.name, fname, ftype),
                         help="fix the data, or declare the field without `+` if negative values are meant")
    return EvalError("data-negative-unsigned", span,
                     "%s, but `%s` is declared `%s`, which cannot be negative" % (whole, d.name, d.type.name),
                     help="fix the data, or declare `%s` as `%s` if negative values are meant" % (
                         d.name, d.type.name.rstrip("+")))
