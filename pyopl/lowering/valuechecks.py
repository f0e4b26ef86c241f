"""Checks on a data declaration's value once it is read (from the data file, a Python dict or
the model's initializer): `int+`/`float+` data are not negative, and `int` values fit OPL's
32-bit `int` (IBM OPL language reference, "Integers" and "Data types").

The value has already been converted to the declared type; this walks it once, with C-speed
``min``/``max`` over plain numeric arrays, and names the first offending element by its index.
"""
from __future__ import annotations

from typing import Any, Callable

from ..diagnostics.diagnostic import Span
from ..semantics.values import OplArray, OplSet, OplTuple, ProductKeys, TupleType, show
from ..syntax import ast as A
from .errors import EvalError
from .int32 import INT_MAX, INT_MIN


def check_declared_value(d: A.ParamDecl, typ: Any, value: Any, span: Span) -> None:
    """Raise an :class:`EvalError` when ``value`` (of declaration ``d``, converted to ``typ``)
    has a negative element and ``d`` is `int+`/`float+`, or an int outside 32 bits.

    ``span`` is where the value was written (the data item, or the initializer).
    """
    unsigned = d.type.name in ("int+", "float+")
    elem = getattr(typ, "elem", typ)  # a set's element type, or the scalar / tuple type
    if not unsigned and not _holds_ints(elem):
        return
    if isinstance(value, OplArray):
        hit = _first_bad_in_array(value, elem, unsigned)
        if hit is not None:
            key, v, bad = hit
            raise _error(d, "%s[%s]" % (d.name, "][".join(show(k) for k in key)), v, bad, span)
        return
    bad = _bad(value, elem, unsigned)
    if bad is not None:
        raise _error(d, d.name, value, bad, span)


def _holds_ints(t: Any) -> bool:
    if t == "int":
        return True
    if isinstance(t, TupleType):
        return any(_holds_ints(ft) for ft in t.types)
    return _holds_ints(t.elem) if hasattr(t, "elem") else False


def _bad(v: Any, elem: Any, unsigned: bool) -> Any:
    """The first offending number inside ``v`` (a number, a tuple, a set), or None."""
    t = type(v)
    if t is int or t is float:
        if unsigned and v < 0:
            return v
        if t is int and not INT_MIN <= v <= INT_MAX:
            return v
        return None
    if isinstance(v, OplTuple):
        for x in v:
            if type(x) is int and not INT_MIN <= x <= INT_MAX:
                return x
            if isinstance(x, OplTuple):
                b = _bad(x, None, False)
                if b is not None:
                    return b
        return None
    if isinstance(v, OplSet):
        items = list(v)
        if items and all(type(x) is int for x in items):
            lo, hi = min(items), max(items)
            if unsigned and lo < 0:
                return lo
            return lo if lo < INT_MIN else hi if hi > INT_MAX else None
        for x in items:
            b = _bad(x, elem, unsigned)
            if b is not None:
                return b
    return None


def _first_bad_in_array(arr: OplArray, elem: Any, unsigned: bool) -> tuple | None:
    """(key, element value, offending number) of the first bad element of ``arr``, or None."""
    values = arr.flat if arr.flat is not None else list(arr.data.values())
    kinds = set(map(type, values))
    if kinds and kinds <= {int, float}:  # plain numbers: one C pass each way, then find the element
        lo, hi = min(values), max(values)
        if not ((unsigned and lo < 0) or lo < INT_MIN or hi > INT_MAX):
            return None
    keys: Callable[[], Any] = (lambda: ProductKeys(arr.dims)) if arr.flat is not None else (lambda: list(arr.data))
    for k, v in enumerate(values):
        b = _bad(v, elem, unsigned)
        if b is not None:
            return keys()[k], v, b
    return None


def _error(d: A.ParamDecl, what: str, v: Any, bad: Any, span: Span) -> EvalError:
    whole = "`%s` is %s" % (what, show(v)) if bad is v else "`%s` holds %s" % (what, show(bad))
    if type(bad) is int and not INT_MIN <= bad <= INT_MAX:
        return EvalError("data-int-out-of-range", span,
                         "%s, outside OPL's 32-bit `int` range (%d..%d)" % (whole, INT_MIN, INT_MAX),
                         help="declare `%s` as `float` if it needs this magnitude, or fix the data" % d.name)
    return EvalError("data-negative-unsigned", span,
                     "%s, but `%s` is declared `%s`, which cannot be negative" % (whole, d.name, d.type.name),
                     help="fix the data, or declare `%s` as `%s` if negative values are meant" % (
                         d.name, d.type.name.rstrip("+")))
