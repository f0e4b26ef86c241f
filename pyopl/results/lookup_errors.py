"""Errors of the Python API's look-ups that name what exists (issue 30): ``result["shp"]`` ->
"no decision or dexpr `shp`; did you mean `ship`?", and a wrong key of an indexed name says which
index position is wrong, what its index set is called, and which values it has.

Both are :class:`KeyError` subclasses, so ``except KeyError`` and ``name in result`` style code
keeps working; ``str(error)`` is the message (a plain KeyError shows the key's ``repr``).
"""
from __future__ import annotations

from typing import Any, Iterable

from ..diagnostics.reporter import near_miss
from ..ir import format_key_part


class OplLookupError(KeyError):
    """A name or key that the result does not have; ``.message`` says what exists."""

    def __init__(self, message: str, key: Any = None):
        super().__init__(key)
        self.message = message
        self.key = key

    def __str__(self) -> str:
        return self.message


class UnknownName(OplLookupError):
    """``result[name]`` for a name that is neither a decision nor a dexpr of the model."""


class UnknownKey(OplLookupError):
    """``values[key]`` for a key that is not an element of the name's index sets."""


def unknown_name(name: Any, names: Iterable[str], what: str = "decision or dexpr",
                 empty: str = "the result has no values (status without a solution?)") -> UnknownName:
    """The error for ``result[name]``: the closest name, else the names that exist (at most 12), else
    ``empty`` (why there are none)."""
    names = sorted(names)
    close = near_miss(name, names) if isinstance(name, str) else None
    if close:
        hint = "did you mean `%s`?" % close
    elif names:
        hint = "the model has %s" % ", ".join("`%s`" % n for n in names[:12]) + (
            " (and %d more)" % (len(names) - 12) if len(names) > 12 else "")
    else:
        hint = empty
    return UnknownName("no %s `%s`; %s" % (what, name, hint), name)


def _show(v: Any) -> str:
    return format_key_part(v)


def unknown_key(name: str | None, key: tuple, keys: Iterable[tuple], levels: list | None = None) -> UnknownKey:
    """The error for ``values[key]``: the first position whose value is not among that index's values,
    named after its index set (``levels``, e.g. ``["Plants", "Markets"]``), with the closest value and
    a few that exist; or the combination, when every component exists but not together."""
    keys = list(keys)
    what = "`%s`" % name if name else "this name"  # (a dual's or slack's values: `result.duals["c"]`)
    shown = "".join("[%s]" % _show(k) for k in key)
    if not keys:
        return UnknownKey("%s has no elements" % what, key)
    dims = len(keys[0])
    if len(key) > dims:
        return UnknownKey("%s has %d ind%s, but %s gives %d" % (
            what, dims, "ex" if dims == 1 else "ices", shown, len(key)), key)
    for i, part in enumerate(key):
        seen = list(dict.fromkeys(k[i] for k in keys))
        if part in seen:
            continue
        level = (levels or [None] * dims)[i] if levels and i < len(levels) else None
        where = "index %d%s" % (i + 1, " (over `%s`)" % level if level else "")
        close = near_miss(part, [s for s in seen if isinstance(s, str)]) if isinstance(part, str) else None
        some = ", ".join(_show(s) for s in seen[:8]) + (" (and %d more)" % (len(seen) - 8) if len(seen) > 8 else "")
        msg = "%s has no element %s: %s is not among the values of %s" % (what, shown, _show(part), where)
        msg += "; did you mean %s?" % _show(close) if close else "; its values are %s" % some
        return UnknownKey(msg, key)
    return UnknownKey("%s has no element %s: each index value exists, but not in this combination" % (what, shown), key)


class NamedValues(dict):
    """``result.duals``, ``result.slacks``, ``result.reduced_costs``: a dict by OPL name whose
    ``[name]`` for a name it lacks raises :class:`UnknownName` with the closest name (as
    ``result["shp"]`` does) instead of a bare ``KeyError('ctSuply')``. ``what`` names the kind of
    name (``constraint label``); ``empty`` says why there are none when the dict is empty."""

    def __init__(self, data: Any = (), what: str = "name", empty: str = "the result has none"):
        super().__init__(data)
        self.what = what
        self.empty = empty

    def __missing__(self, key: Any) -> Any:
        raise unknown_name(key, list(self), self.what, self.empty)

    def __reduce__(self):  # copy/pickle keep the kind of name and the reason
        return (NamedValues, (dict(self), self.what, self.empty))
