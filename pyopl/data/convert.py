"""Check a value (from a .dat file, a Python dict or an inline initializer) against its declaration.

Shapes, element types, missing and extra elements are checked here; each
mismatch is an :class:`EvalError` located at the value (or the row of a
nested array) and phrased with the declared name.
"""
from __future__ import annotations

import itertools
import math
from operator import itemgetter
import weakref
from typing import Any

import numpy as np

from ..diagnostics.diagnostic import Span
from ..semantics.values import FloatColumn, FloatRange, OplArray, OplRange, OplSet, OplTuple, TupleType, show
from ..lowering.forms.errors import EvalError
from .frames import PYTHON_NAN, PandasValue, is_pandas
from .parser import DKeyed, DNamed, DRange, DSet, DTuple, UnfilledRows, UnfilledTuples
from .types import ArrayOf, SetOf  # noqa: F401  (ArrayOf: imported from here by lowering)


def type_name(t: Any) -> str:
    if isinstance(t, SetOf):
        return "{%s}" % type_name(t.elem)
    if isinstance(t, TupleType):
        return t.name
    if isinstance(t, ArrayOf):
        return "%s[%s]" % (type_name(t.elem), "][".join("%d elements" % len(d) for d in t.dims))
    return str(t)


_NAN_HELP = ("give a number there (fill or drop the missing values first, e.g. pandas' `fillna`/`dropna`; "
             "a key left out of a dict or Series is then named as missing)")


def _where(v: Any, span: Span) -> Span:
    return getattr(v, "span", None) or span


def _describe(v: Any) -> str:
    if v is PYTHON_NAN:
        return "NaN (not a number: pandas' and NumPy's missing value; OPL data has none)"
    if isinstance(v, bool):
        return "the boolean %s" % ("true" if v else "false")
    if isinstance(v, (int, float)):
        return "the number %s" % show(v)
    if isinstance(v, str):
        return "the string %s" % show(v)
    if isinstance(v, (list, tuple)) and not isinstance(v, (DSet, OplTuple, DTuple)):
        return "a list of %d values" % len(v)
    if isinstance(v, (DSet, OplSet, OplRange)):
        return "a set"
    if isinstance(v, (DTuple, OplTuple)):
        return "a tuple"
    if isinstance(v, DRange):
        return "the range %s..%s" % (show(v.lo), show(v.hi))
    if isinstance(v, DKeyed):
        return "a keyed array `#[...]#`"
    if isinstance(v, DNamed):
        return "a named tuple `#<...>#`"
    if v is None:
        return "None (no value)"
    name = type(v).__name__  # (a value given from Python: its Python type, "an object", "a Decimal")
    return "a Python `%s`" % name


def _to_float(v: Any, name: str, where: Span) -> float:
    try:
        return float(v)
    except OverflowError:  # an int past 1.8e308 (hundreds of digits, `10^400`)
        raise EvalError("number-too-large", where, "the value of `%s` (%s digits) is larger than any floating-point "
                        "number" % (name, len(str(abs(v))) if abs(v).bit_length() < 4000 else "more than 1200"),
                        help="use values below 1.8e308") from None


def convert_scalar(v: Any, t: Any, name: str, span: Span) -> Any:
    """Convert one value to the scalar or set type ``t``; raise EvalError when it does not fit."""
    where = _where(v, span)
    if isinstance(t, SetOf):
        return convert_set(v, t, name, span)
    if isinstance(t, ArrayOf):
        return convert_array(v, t.elem, list(t.dims), name, span)
    if t == "int":
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            _to_float(v, name, where)  # a value past every float (data `10^400`) is refused here
            return v
        if isinstance(v, float) and v.is_integer() and not math.isinf(v):
            return int(v)
        if isinstance(v, float) and math.isinf(v):
            return v
        raise EvalError("data-type-mismatch", where, "`%s` is declared `int`, but the value is %s" % (name, _describe(v)),
                        help="give an integer value, or declare `%s` as `float`" % name if isinstance(v, float)
                        else _NAN_HELP if v is PYTHON_NAN else "give an integer value")
    if t == "float":
        if isinstance(v, bool):
            return float(v)
        if isinstance(v, (int, float)):
            return _to_float(v, name, where)
        raise EvalError("data-type-mismatch", where, "`%s` is declared `float`, but the value is %s" % (name, _describe(v)),
                        help=_NAN_HELP if v is PYTHON_NAN else "give a number")
    if t == "string":
        if isinstance(v, str):
            return str(v)
        raise EvalError("data-type-mismatch", where, "`%s` is declared `string`, but the value is %s" % (name, _describe(v)),
                        help='give a string in double quotes, e.g. "Paris"')
    if t == "boolean":
        if isinstance(v, bool):
            return v
        if isinstance(v, (int, float)) and v in (0, 1):
            return bool(v)
        if isinstance(v, str) and v in ("true", "false"):
            return v == "true"
        raise EvalError("data-type-mismatch", where, "`%s` is declared `boolean`, but the value is %s" % (name, _describe(v)),
                        help="give 0, 1, true or false")
    if isinstance(t, TupleType):
        if isinstance(v, OplTuple) and v.ttype is t:
            # already a value of this type (an element of another set of it: `{Task} late = {t | t in
            # Tasks : ...}`): the same tuple, as in IBM's OPL, whose array and set fields compare by
            # identity ("Limitations on tuples"), so a copy would index nothing `Tasks` indexes
            return v
        if not isinstance(v, (list, tuple, dict, DNamed)) or (t.keys and len(t.keys) < len(t.fields) and
                                                             isinstance(v, (list, tuple)) and len(v) == len(t.keys)):
            hit = _tuple_by_key(v, t)
            if hit is not None:
                return hit
        return convert_tuple(v, t, name, span)
    if t == "range":
        if isinstance(v, OplRange):
            return v
        if isinstance(v, DRange):
            lo = convert_scalar(v.lo, "int", name, v.span)
            hi = convert_scalar(v.hi, "int", name, v.span)
            return OplRange(lo, hi)
        raise EvalError("data-type-mismatch", where, "`%s` is a range, but the value is %s" % (name, _describe(v)),
                        help="give a range such as `1..10`")
    raise EvalError("data-type-mismatch", where, "`%s` cannot take %s" % (name, _describe(v)), help="check the declaration")


def convert_tuple(v: Any, t: TupleType, name: str, span: Span) -> OplTuple:
    where = _where(v, span)
    if isinstance(v, (DNamed, dict)) and not isinstance(v, DKeyed):
        unknown = [k for k in v if k not in t.fields]
        if unknown:
            from ..diagnostics.reporter import did_you_mean

            raise EvalError("data-tuple-field", where, "tuple `%s` has no field `%s`" % (t.name, unknown[0]),
                            help=did_you_mean(unknown[0], t.fields) or "its fields are %s" % ", ".join(t.fields))
        missing = [f for f in t.fields if f not in v]
        if missing:
            raise EvalError("data-tuple-arity", where, "the value for `%s` gives no field `%s` of tuple `%s`" % (
                name, missing[0], t.name), help="give every field")
        items = [v[f] for f in t.fields]
    elif isinstance(v, (list, tuple)) and not isinstance(v, (DSet,)):
        items = list(v)
    else:
        raise EvalError("data-type-mismatch", where, "`%s` expects a tuple of type `%s`, but the value is %s" % (
            name, t.name, _describe(v)), help="write a tuple as `<%s>`" % ", ".join(t.fields))
    if len(items) != len(t.fields):
        raise EvalError("data-tuple-arity", where, "a tuple of type `%s` has %d fields (%s), but %d values are given" % (
            t.name, len(t.fields), ", ".join(t.fields), len(items)), help="give one value per field, in order")
    out = [convert_scalar(x, ft, "%s.%s" % (t.name, f), where) for x, ft, f in zip(items, t.types, t.fields)]
    return OplTuple(out, t)


def convert_set(v: Any, t: SetOf, name: str, span: Span) -> Any:
    if type(v) is UnfilledTuples and not v.filled:  # a large numeric tuple set read in bulk
        columnar = _columnar_set(v, t)
        if columnar is not None:
            return columnar
        v.fill()  # anything else is converted tuple by tuple, with its checks and messages
    where = _where(v, span)
    if isinstance(v, OplRange) and t.elem == "int":
        return v
    if isinstance(v, DRange):
        if t.elem == "int":
            return convert_scalar(v, "range", name, span)
        if t.elem == "float":  # `range float R = ...;` with `R = 1.5..4.25;`
            return FloatRange(convert_scalar(v.lo, "float", name, v.span), convert_scalar(v.hi, "float", name, v.span))
    if isinstance(v, (OplSet, OplRange, DSet, list, set, frozenset, tuple)) and not isinstance(v, (OplTuple, DTuple)):
        items = (_plain_tuples(v, t.elem) if isinstance(t.elem, TupleType) else _plain_scalars(v, t.elem)) \
            if isinstance(v, list) else None
        columns = getattr(v, "columns", None) if items is not None and type(v) is DSet else None
        if items is None:
            items = [_set_element(x, k, t, name, where) for k, x in enumerate(v)]
        seen = set()
        keys = getattr(t.elem, "keys", None)
        # the place of the k-th item: its tuple as written (a tuple read from data has a span), else the set's
        at = (lambda k: _where(v[k], where)) if isinstance(v, list) and len(v) == len(items) else (lambda k: where)
        if keys:
            by_key: dict = {}
            for k, x in enumerate(items):
                kv = tuple(x[t.elem.index(f)] if hasattr(x, "__getitem__") else x for f in keys)
                if kv in by_key and by_key[kv] != x:
                    raise EvalError("data-duplicate-tuple-key", at(k), "two tuples of `%s` share the key %s = %s" % (
                        name, ", ".join(keys), ", ".join(show(k) for k in kv)),
                                    help="key fields identify a tuple: give each tuple its own key, or drop `key`")
                by_key[kv] = x
        # a keyed tuple listed twice, identically, is one element (IBM's nurses.dat); without keys a value
        # listed twice is an error, looked for item by item only when the set came out shorter than the list
        if columns is not None and t.order is None and not keys and _distinct_rows(columns):
            out = OplSet.distinct(items, t.elem, index_now=False)  # (distinct: checked on the columns)
        else:
            out = OplSet(items, t.elem) if t.order is None else None  # (in order: nothing in it can fail)
        if not keys and len(out if out is not None else set(items)) != len(items):
            for k, x in enumerate(items):
                if x in seen:
                    raise EvalError("data-duplicate-element", at(k), "the set `%s` lists %s more than once" % (
                        name, show(x)), help="remove the duplicate")
                seen.add(x)
        if out is None:
            out = OplSet(items, t.elem, t.order)
        elif columns is not None and len(out) == len(items):  # the reader's columns are the fields, in order
            out.columns = (out.items(), columns, tuple(ft == "int" for ft in t.elem.types))
        if keys and isinstance(t.elem, TupleType):
            _KNOWN.setdefault(t.elem, {}).update((x.key(), x) for x in out)
        return out
    raise EvalError("data-type-mismatch", where, "`%s` is declared `%s` (a set), but the value is %s" % (
        name, type_name(t), _describe(v)), help="write a set as `{a, b, c}`")


def _plain_tuples(v: list, t: Any) -> list | None:
    """The tuples :func:`convert_tuple` would make from ``v`` when every item is a positional tuple of plain
    values of its fields' scalar types (the large tuple sets of network data), checked a field at a
    time; None for anything else, which then goes item by item with its checks and messages."""
    if not isinstance(t, TupleType) or not all(ft in _PLAIN_FIELD for ft in t.types):
        return None
    n = len(t.fields)
    getters = [itemgetter(k) for k in range(n)]  # a field at a time (zip(*v) would make an iterator per tuple)
    read = getattr(v, "fields", None) if type(v) is DSet else None  # the bulk reader's word for what is in v
    if read is not None and read[0] == len(v) and len(read[1]) == n:
        field_kinds = [{k} for k in read[1]]
    else:  # DTuples only (the fast path's own subclass included: it differs only in making spans late)
        if not all(issubclass(k, DTuple) for k in set(map(type, v))) or not set(map(len, v)) <= {n}:
            return None
        field_kinds = [set(map(type, map(g, v))) for g in getters] if v else []
    if not v or not n:
        return []
    ints_to_float = []
    for k, (ft, kinds) in enumerate(zip(t.types, field_kinds)):
        if not kinds <= _PLAIN_FIELD[ft]:
            return None
        if ft == "float" and int in kinds:  # float() of a float is that float: only ints need it
            ints_to_float.append(k)
    if not ints_to_float:
        return OplTuple.many(v, t)
    try:
        cols = [list(map(float, map(g, v))) if k in ints_to_float else map(g, v) for k, g in enumerate(getters)]
    except OverflowError:  # an int past 1.8e308: converted tuple by tuple, which reports it at its place
        return None
    return OplTuple.many(zip(*cols), t)


def _columnar_set(v: UnfilledTuples, t: SetOf) -> OplSet | None:
    """The columnar :class:`OplSet` (tuples made on first use) of a bulk-read numeric tuple set whose
    fields are written as its tuple type's ``int``/``float`` fields take them as they are (an int for
    an ``int`` field, an int or a float for a ``float`` one) and whose rows are distinct; None for
    anything else (keys, an ordered set, another field type, a duplicate), converted tuple by tuple.
    The tuples it makes are those :func:`_plain_tuples` makes from the filled set."""
    elem = t.elem
    if not isinstance(elem, TupleType) or t.order is not None or elem.keys or v.columns is None:
        return None
    read = v.fields[1]
    if len(read) != len(elem.types) or any(ft not in ("int", "float") or (ft == "int" and rt is not int)
                                           for ft, rt in zip(elem.types, read)):
        return None
    if not _distinct_rows(v.columns):
        return None
    return OplSet.from_columns(v.columns, tuple(ft == "int" for ft in elem.types), elem)


_HASH_MUL = np.uint64(0xBF58476D1CE4E5B9)  # splitmix64's first multiplier (Steele, Lea & Flood, OOPSLA 2014)


def _distinct_rows(columns: list) -> bool:
    """Whether no two tuples are equal, from the fields' float64 columns (equal tuples have equal numbers
    in every field and no NaN can be read: the same test as hashing the tuples into a dict).

    Each row is hashed to 64 bits from its numbers' bits (``-0.0`` made ``0.0`` first: they are equal)
    and the hashes sorted; only rows whose hash is shared are compared field by field.  Rows written in
    increasing order (each after the one before it, comparing field by field: data files are often
    sorted) are distinct without hashing."""
    if not columns or len(columns[0]) < 2:
        return True
    if _strictly_increasing(columns):
        return True
    h = np.zeros(len(columns[0]), dtype=np.uint64)
    for col in columns:
        h ^= (col + 0.0).view(np.uint64)
        h *= _HASH_MUL  # (wraps modulo 2**64)
        h ^= h >> np.uint64(31)
    ranked = np.sort(h)
    shared = ranked[1:][ranked[1:] == ranked[:-1]]
    if not len(shared):
        return True
    rows = np.flatnonzero(np.isin(h, shared))
    return _distinct_sorted([col[rows] for col in columns])


def _strictly_increasing(columns: list) -> bool:
    """Whether every row is lexicographically greater than the one before it (so no two are equal);
    False as soon as a field goes down where the fields before it tie (the rows are not in order: the
    caller hashes them).  ``-0.0 == 0.0`` ties, as the rows are equal there.  Each field is compared
    with the next row's in whole-column passes (slices, no gather of the tied rows: in a tuple set
    listed worker by worker almost every row ties with the next in its first field)."""
    first = columns[0]
    if np.any(first[1:] < first[:-1]):
        return False
    tie = first[1:] == first[:-1]  # rows whose fields so far all equal the next row's
    for col in columns[1:]:
        if not tie.any():
            return True
        before, after = col[:-1], col[1:]
        down = after < before
        down &= tie
        if down.any():
            return False
        tie &= after == before
    return not tie.any()


def _distinct_sorted(columns: list) -> bool:
    """:func:`_distinct_rows` by sorting the rows (lexicographically) and comparing neighbours."""
    order = np.lexsort(columns[::-1])
    same = np.ones(len(order) - 1, dtype=bool)
    for col in columns:
        ranked = col[order]
        same &= ranked[1:] == ranked[:-1]
    return not same.any()


def _plain_scalars(v: list, t: Any) -> list | None:
    """The values :func:`convert_scalar` would make from ``v`` when every item is a plain ``int``/``float``/
    ``str`` that it keeps as it is (``float`` of an int for a float set); None for anything else."""
    plain = _PLAIN_FIELD.get(t) if isinstance(t, str) else None
    if plain is None:
        return None
    kinds = set(map(type, v))
    if not kinds <= plain:
        return None
    try:
        return list(map(float, v)) if t == "float" and int in kinds else list(v)
    except OverflowError:  # an int past 1.8e308: item by item, which reports it
        return None


_PLAIN_FIELD = {"int": frozenset((int,)), "float": frozenset((int, float)), "string": frozenset((str,))}


class PartialArray(dict):
    """The value of a keyed comprehension ``[i : v | i in S : filter]``: cells it does not list are 0
    (OPL manual, "Generic arrays"); nested for ``[i : [j : v] | ...]``."""


def _zero_of(elem: Any) -> Any:
    if isinstance(elem, SetOf):
        return DSet()
    return {"int": 0, "float": 0.0, "string": "", "boolean": False}.get(elem, 0)


# tuple type -> key -> tuple, from keyed tuple sets read so far; weak, so an entry goes with its model's
# type (an id() key could be reused by a later model's type and find this model's tuples)
_KNOWN: "weakref.WeakKeyDictionary[TupleType, dict]" = weakref.WeakKeyDictionary()


def _set_element(x: Any, k: int, t: SetOf, name: str, where: Span) -> Any:
    """Element ``k`` of set ``name``'s value converted; an element with no place of its own (a value
    from a Python dict or pandas) that does not fit says which one it is: its position in the value."""
    try:
        return convert_scalar(x, t.elem, name, _where(x, where))
    except EvalError as e:
        if getattr(x, "span", None) is None and e.slug == "data-type-mismatch":
            e.notes = list(e.notes) + ["in element %d of the value given for `%s`" % (k + 1, name)]
        raise


def _tuple_by_key(v: Any, t: TupleType) -> Any:
    """A tuple-typed field given by its key (``<"Isabelle", "Dee">`` for two `nurse` fields whose
    type has ``key string name``): the tuple with that key from a set read earlier, or None."""
    known = _KNOWN.get(t)
    if not known or not t.keys:
        return None
    key = tuple(v) if isinstance(v, (list, tuple)) and not isinstance(v, DSet) else (v,)
    return known.get(key)


def convert_array(v: Any, elem: Any, dims: list[Any], name: str, span: Span) -> OplArray:
    """Positional nested lists, keyed ``#[k: v]#``/dicts, or another array -> OplArray over ``dims``."""
    if type(v) is UnfilledRows and not v.filled:  # a large matrix of numbers read in bulk
        if elem == "float" and len(dims) == 2 and (v.rows, v.width) == (len(dims[0]), len(dims[1])):
            return OplArray(name, dims, flat=FloatColumn(v.numbers), flat_floats=True)
        v.fill()  # anything else is converted row by row, with its checks and messages
    flat = _flat_numbers(v, elem, dims)
    if flat is not None:
        return OplArray(name, dims, flat=flat, flat_floats=(elem == "float"))
    data: dict[tuple, Any] = {}
    _fill(v, elem, dims, 0, (), data, name, span)
    return OplArray(name, dims, data)


def _flat_numbers(v: Any, elem: Any, dims: list[Any]) -> list | None:
    """The values of ``v`` in key order when it is positional nested lists of plain numbers of
    exactly the declared shape (the common large case, which :func:`_fill` would accept without
    a change of value or type); None for anything else, which then goes through :func:`_fill`
    and its checks and messages."""
    if not dims or not _positional(v):
        return None
    rows = [v]
    for k, dom in enumerate(dims):
        n = len(dom)
        if not n:
            return None
        for r in rows:
            if not _positional(r) or len(r) != n:
                return None
        if k + 1 < len(dims):
            rows = [x for r in rows for x in r]
    flat = list(itertools.chain.from_iterable(rows))  # a new list: the parsed value is not shared
    kinds = set(map(type, flat))
    if elem == "float" and kinds <= _INT_FLOAT:
        try:
            return flat if kinds <= _FLOAT else list(map(float, flat))
        except OverflowError:  # an int past 1.8e308: :func:`_fill` reports it at its place
            return None
    return flat if elem == "int" and kinds <= _INT else None


def _fill(v: Any, elem: Any, dims: list[Any], k: int, prefix: tuple, data: dict, name: str, span: Span) -> None:
    where = _where(v, span)
    if k == len(dims):
        try:
            data[prefix] = convert_scalar(v, elem, name, where)
        except EvalError as e:
            raise _at_element(e, name, prefix) from None
        return
    dom = dims[k]
    label = name + "".join("[%s]" % show(p) for p in prefix)
    if isinstance(v, OplArray):
        if len(v.dims) != len(dims) - k:
            raise EvalError("data-shape-mismatch", where, "`%s` has %d dimensions, but the value has %d" % (
                label, len(dims) - k, len(v.dims)), help="give an array of the declared shape")
        for key, x in v.data.items():
            if key[0] not in dom:
                raise EvalError("data-key-not-in-set", where, "%s is not in the index set of `%s`" % (show(key[0]), label),
                                help="use keys from %s" % show(dom))
            data[prefix + key] = convert_scalar(x, elem, name, where)
        return
    if isinstance(v, dict):
        for key in v:
            # (a decision expression, the lowering's LinExpr: data takes no import of the lowering layer)
            if any(type(k).__name__ in ("LinExpr", "QuadExpr") for k in (key if isinstance(key, tuple) else (key,))):
                # (after the model: post-processing data, computed on the solution)
                raise EvalError("decision-in-data", where, "a key of `%s` depends on a decision variable" % label,
                                help="data cannot depend on decisions before the solve; declare it after the "
                                     "constraints to compute it from the solution")
            kk = key
            if kk not in dom and isinstance(kk, tuple) and isinstance(dom, OplSet):
                hit = dom.by_key(kk)
                if hit is not None:
                    kk = hit
            if kk not in dom:
                raise EvalError("data-key-not-in-set", where, "the key %s of `%s` is not in its index set %s" % (
                    _show_key(key), label, show(dom)), help="use only keys from the index set")
        missing = [x for x in dom if x not in v and not (isinstance(x, OplTuple) and x.key() in v)]
        if missing and isinstance(v, PartialArray):
            v = PartialArray(v)
            for x in missing:
                v[x] = PartialArray() if k + 1 < len(dims) else _zero_of(elem)
            missing = []
        if missing:
            raise EvalError("data-missing-key", where, "`%s` has no value for %s%s" % (
                label, show(missing[0]), " and %d more" % (len(missing) - 1) if len(missing) > 1 else ""),
                help="give a value for every element of %s" % show(dom))
        for x in dom:
            val = v[x] if x in v else v[x.key()]
            _fill(val, elem, dims, k + 1, prefix + (x,), data, name, where)
        return
    if isinstance(v, (list, tuple)) and not isinstance(v, (DSet, OplTuple, DTuple)):
        n = len(dom)
        if len(v) == 2 * n and n and _key_value_pairs(v, dom):
            # `[key value, key value]`: an indexed form some OPL-like tools write
            pairs = {}
            for kk, val in zip(v[0::2], v[1::2]):
                kk = _hashable_key(kk)
                pairs[kk] = val
            _fill(pairs, elem, dims, k, prefix, data, name, span)
            return
        if len(v) != n:
            row = " in row %s" % show(prefix[-1]) if prefix else ""
            raise EvalError("data-ragged-row" if prefix else "data-array-length", where, "`%s` expects %d value%s (one per element of %s)%s, but %d %s given" % (
                label if not prefix else name, n, "" if n == 1 else "s", show(dom), row, len(v), "is" if len(v) == 1 else "are"),
                help="give exactly %d values%s" % (n, row))
        if k == len(dims) - 1 and _plain_numbers(v, elem):
            # the common last dimension of numbers: the same keys and values as element by element
            try:
                data.update(zip([prefix + (x,) for x in dom], list(map(float, v)) if elem == "float" else v))
                return
            except OverflowError:  # an int past 1.8e308: element by element, which reports it at its place
                pass
        for x, item in zip(dom, v):
            _fill(item, elem, dims, k + 1, prefix + (x,), data, name, _where(item, where))
        return
    if isinstance(v, (int, float, str)) and k < len(dims):
        raise EvalError("data-shape-mismatch", where, "`%s` is an array over %s, but the value is %s" % (
            label, show(dom), _describe(v)), help="give a list `[...]` with one value per element of %s" % show(dom))
    raise EvalError("data-type-mismatch", where, "`%s` cannot take %s" % (label, _describe(v)),
                    help="give a list `[...]` or a keyed array `#[key: value]#`")


def _at_element(e: EvalError, name: str, prefix: tuple) -> EvalError:
    """``e`` (a value of the wrong type in array ``name``) naming the element, ``a[2]`` rather than
    ``a``, with a note of its position in the data (issue 30: the message named only the array)."""
    if e.slug != "data-type-mismatch" or not prefix:
        return e
    element = name + "".join("[%s]" % show(p) for p in prefix)
    first = "`%s`" % name
    if not e.message.startswith(first):
        return e
    msg = "`%s` (an element of %s)%s" % (element, first, e.message[len(first):])
    return EvalError(e.slug, e.span, msg, help=e.help, labels=e.labels,
                     notes=list(e.notes) + ["the value of `%s` is the wrong one in this array" % element], fix=e.fix)


def _positional(v: Any) -> bool:
    """A positional list of values, as :func:`_fill` takes one (not a set or tuple written in data)."""
    return isinstance(v, (list, tuple)) and not isinstance(v, (DSet, OplTuple, DTuple))


def _plain_numbers(v: list, elem: Any) -> bool:
    """Whether every value of ``v`` is a plain ``int``/``float`` that :func:`convert_scalar` keeps
    as it is (``int`` for ``int``; ``int`` or ``float`` for ``float``), so no check can fail."""
    if elem == "float":
        return set(map(type, v)) <= _INT_FLOAT
    return elem == "int" and set(map(type, v)) <= _INT


_INT_FLOAT, _INT, _FLOAT = frozenset((int, float)), frozenset((int,)), frozenset((float,))


def _hashable_key(k: Any) -> Any:
    """A key read from data as a hashable value: a tuple ``<...>`` (a list, at any depth: a nested
    tuple key such as ``<<1,2>,"a">``) as a Python tuple."""
    return tuple(_hashable_key(x) for x in k) if isinstance(k, list) else k


def _show_key(k: Any) -> str:
    """A tuple key as the data wrote it (``<<1,2>,"a">``), for messages."""
    if isinstance(k, (tuple, list)) and not isinstance(k, DSet):
        return "<" + ",".join(_show_key(x) for x in k) + ">"
    return show(k)


def _key_value_pairs(v: list, dom: Any) -> bool:
    keys = [_hashable_key(x) for x in v[0::2]]
    if len(set(map(repr, keys))) != len(keys):
        return False
    for kk in keys:
        if kk in dom:
            continue
        if isinstance(kk, tuple) and isinstance(dom, OplSet) and dom.by_key(kk) is not None:
            continue
        return False
    return True


def from_python(v: Any) -> Any:
    """Values of a Python data dict -> the forms the converters take (tuples as tuples, dict keys kept;
    a NaN as :data:`PYTHON_NAN`, which every declaration refuses at its element)."""
    if type(v) is float:
        return v if v == v else PYTHON_NAN
    if isinstance(v, dict):
        return {(_py_key(k)): from_python(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return DSet(from_python(x) for x in v)
    if isinstance(v, range):
        if v.step != 1:
            return DSet(v)
        return OplRange(v.start, v.stop - 1)
    if isinstance(v, list):
        return [from_python(x) for x in v]
    if isinstance(v, tuple):
        return tuple(from_python(x) for x in v)
    if is_pandas(v):  # shaped once the declaration is known (pyopl.data.frames.PandasValue.resolve)
        return PandasValue(v)
    if hasattr(v, "tolist"):  # numpy arrays and scalars
        return from_python(v.tolist())
    if isinstance(v, float) and v != v:  # (a float subclass)
        return PYTHON_NAN
    return v


def _py_key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k
