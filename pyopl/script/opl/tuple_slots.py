"""Where a tuple a script holds lives in the model's data, so that ``t.field = v`` changes it there.

IBM ILOG Script for OPL ("Limitations: value assignments in script statements") supports assigning a
scalar (int, float, string) to a tuple component; sets, arrays and subtuples inside a tuple cannot be
assigned.  An :class:`~pyopl.semantics.values.OplTuple` is an immutable value, so a component is
changed by putting a new tuple in the old one's place: in its set (same position; every data array
indexed by that set re-keyed), in a scalar tuple declaration, or in one item of a tuple array.
A ``key`` field stays read-only here: the key is the tuple's identity in every array and decision
indexed by its set.
"""
from __future__ import annotations

from typing import Any

from ...data.types import ArrayOf, SetOf
from ...semantics.values import OplArray, OplSet, OplTuple
from ..language.convert import string_to_number
from ..language.values import JSArray
from .host_errors import host_error
from .opl_objects import ArrayHost, SetHost, _field_value, describe, to_key

_SCALARS = ("int", "int+", "float", "float+", "string", "boolean")


class SetSlot:
    """The tuple is an element of the OPL set ``value`` (declared as ``name``, if it has one)."""

    def __init__(self, value: Any, name: str | None):
        self.value = value
        self.name = name

    def replace(self, ctx: Any, old: OplTuple, new: OplTuple, span: Any) -> None:
        s = self.value
        if not isinstance(s, OplSet) or old not in s:
            raise host_error("script-forbidden-assignment", "this tuple is no longer in %s, so its fields cannot "
                             "change there" % self._label(), span, help="read it again from the set after a change")
        if ctx.phase == "post" and self.name and ctx.is_model_input(self.name):
            raise host_error("script-forbidden-assignment", "%s is model data; after the solve its tuples cannot "
                             "change" % self._label(), span, help="collect results in data declared for them")
        if new != old and new in s:
            raise host_error("script-forbidden-assignment", "the change makes this tuple equal to another tuple of %s "
                             "(%s): a set holds each tuple once" % (self._label(), _show(new)), span,
                             help="declare a `key` field so that tuples with equal values stay distinct")
        _refuse_built_decisions(ctx, s, self._label(), span)
        s.replace([new if x == old else x for x in s])
        for sym in list(ctx.inst.symbols.values()):
            if isinstance(sym.value, OplArray) and any(d is s for d in sym.value.dims):
                _rekey(sym.value, s, old, new)
        ctx.note_assigned(self.name)

    def _label(self) -> str:
        return "`%s`" % self.name if self.name else "the set"


class ScalarSlot:
    """The tuple is the value of the scalar declaration ``sym`` (``T best;`` or ``T best = ...;``)."""

    def __init__(self, sym: Any):
        self.sym = sym

    def replace(self, ctx: Any, old: OplTuple, new: OplTuple, span: Any) -> None:
        if ctx.phase == "post" and ctx.is_model_input(self.sym.name):
            raise host_error("script-forbidden-assignment", "`%s` is model data; after the solve it cannot change" %
                             self.sym.name, span, help="declare a tuple without a value for the script to fill")
        self.sym.value = new
        ctx.note_assigned(self.sym.name)


class ArraySlot:
    """The tuple is the item ``key`` of the tuple array ``array``."""

    def __init__(self, array: OplArray, key: tuple):
        self.array = array
        self.key = key

    def replace(self, ctx: Any, old: OplTuple, new: OplTuple, span: Any) -> None:
        if ctx.phase == "post" and ctx.is_model_input(self.array.name):
            raise host_error("script-forbidden-assignment", "`%s` is model data; after the solve it cannot change" %
                             self.array.name, span, help="declare an array without a value for the script to fill")
        data = self.array.data
        self.array.flat = None  # (the values now live in `data` alone)
        self.array.flat_floats = False
        data[self.key] = new
        ctx.note_assigned(self.array.name)


def replace_in_slot(ctx: Any, slot: tuple | None, old: OplTuple, new: OplTuple, span: Any) -> None:
    """Put ``new`` in ``old``'s place: ``slot`` is ``("set", set, name)``, ``("array", array, key)`` or
    ``("scalar", symbol)``, as the host objects record where a tuple came from."""
    kind = slot[0]
    place = SetSlot(slot[1], slot[2]) if kind == "set" else ArraySlot(slot[1], slot[2]) if kind == "array" \
        else ScalarSlot(slot[1])
    place.replace(ctx, old, new, span)


def changed_tuple(ctx: Any, old: OplTuple, name: str, value: Any, span: Any) -> OplTuple:
    """``old`` with the field ``name`` set to ``value`` (converted to the field's type), or a
    script error: a key field, a set/array/tuple field, or a value of the wrong type."""
    tt = old.ttype
    k = tt.index(name)
    ftype = tt.types[k]
    what = "`%s.%s`" % (tt.name, name)
    if not (isinstance(ftype, str) and ftype in _SCALARS):
        raise host_error("script-forbidden-assignment", "%s holds %s, which a script cannot assign (IBM: only int, "
                         "float and string tuple components can be assigned)" % (what, _kind(ftype)), span,
                         help="build the tuple again with `add(...)` on its set")
    if name in tt.keys:
        raise host_error("script-forbidden-assignment", "%s is a key field: it is the tuple's identity in the arrays "
                         "and decisions indexed by its set, so it cannot change" % what, span,
                         help="remove the tuple and `add` one with the new key, or make the field a non-key field")
    v = ctx.convert_for(ftype, value, what, span)
    return OplTuple(tuple(old[:k]) + (v,) + tuple(old[k + 1:]), tt)


def _kind(ftype: Any) -> str:
    if getattr(ftype, "fields", None) is not None:
        return "a tuple"
    return "a set" if str(ftype).startswith("{") else "an array"


def _show(t: OplTuple) -> str:
    """A tuple as ``writeln`` prints it (``<1 "a">``; :func:`pyopl.script.opl.opl_objects.display`, which
    imports this module, so the few value kinds a tuple holds are written here)."""
    from ..language.convert import number_to_string

    def one(x: Any) -> str:
        if isinstance(x, OplTuple):
            return _show(x)
        if isinstance(x, str):
            return '"%s"' % x
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, (int, float)):
            return number_to_string(x)
        return "{" + " ".join(one(y) for y in x) + "}" if isinstance(x, OplSet) else str(x)

    return "<" + " ".join(one(x) for x in t) + ">"


def _rekey(arr: OplArray, s: OplSet, old: OplTuple, new: OplTuple) -> None:
    """Every key of ``arr`` holding ``old`` in a dimension over ``s`` now holds ``new``, value kept."""
    axes = [k for k, d in enumerate(arr.dims) if d is s]
    data = arr.data
    arr.flat = None
    arr.flat_floats = False
    moved = {}
    for key in [key for key in data if any(key[a] == old for a in axes)]:
        nk = tuple(new if (a in axes and c == old) else c for a, c in enumerate(key))
        moved[nk] = data.pop(key)
    data.update(moved)


def _refuse_built_decisions(ctx: Any, s: OplSet, label: str, span: Any) -> None:
    """Decisions already indexed by ``s`` keep their columns' keys: a change under them is refused."""
    for sym in ctx.inst.symbols.values():
        if sym.kind in ("dvar", "dexpr") and any(d is s for d in getattr(sym.value, "dims", ()) or ()):
            raise host_error("script-forbidden-assignment", "the decision `%s` is indexed by %s already, so its tuples "
                             "cannot change here" % (sym.name, label), span,
                             help="change the tuples in an `execute` block placed before `%s` is declared" % sym.name)


def field_from_script(ctx: Any, ftype: Any, v: Any, label: str, span: Any) -> Any:
    """A script value made the value of a tuple field of type ``ftype`` (``add(...)`` on a tuple set):
    a number from a numeric string (``"3"`` from ``split``: IBM converts it), an array field from an
    OPL array or a script array (``Patterns.add(n, 1, sub.Use.solutionValue)`` in IBM's column
    generation), in the order of the field's index sets; a set field from an OPL set or script array."""
    if isinstance(ftype, ArrayOf):
        import itertools
        import math

        keys = list(itertools.product(*[list(d) for d in ftype.dims]))
        if isinstance(v, ArrayHost):
            vals = [v.array.data.get(v.prefix + k) for k in itertools.product(*[list(d) for d in v.array.dims[len(v.prefix):]])]
        elif isinstance(v, JSArray):
            vals = [to_key(x) for x in v.items]
        else:
            raise host_error("script-value-type", "%s is an array field, so it takes an array, not %s" % (label, _words(v)),
                             span, help="give an OPL array or a script array of %d values" % len(keys))
        if len(vals) != len(keys):
            raise host_error("script-value-type", "%s holds %d values, but the array given has %d" % (
                label, len(keys), len(vals)), span, help="give one value per index of the field, in order")
        out = []
        for x in vals:
            x = _field_value(ftype.elem, x.to_number() if hasattr(x, "to_number") else x)
            if ftype.elem in ("int", "boolean") and isinstance(x, float) and math.isfinite(x) and abs(x - round(x)) <= 1e-6:
                x = int(round(x))  # a solution value of an integer decision, as the solver returned it
            out.append(ctx.convert_for(ftype.elem, x, label, span) if isinstance(ftype.elem, str) else x)
        return OplArray(label, list(ftype.dims), dict(zip(keys, out)))
    if isinstance(ftype, SetOf):
        items = list(v.value) if isinstance(v, SetHost) else [to_key(x) for x in v.items] if isinstance(v, JSArray) else None
        if items is None:
            raise host_error("script-value-type", "%s is a set field, so it takes a set, not %s" % (label, _words(v)),
                             span, help="give an OPL set or a script array")
        return OplSet([_field_value(ftype.elem, x) for x in items], ftype.elem)
    v = to_key(v)
    if ftype in ("int", "int+", "float", "float+", "boolean") and isinstance(v, str):
        n = string_to_number(v)
        if n != n:
            raise host_error("script-value-type", "%s is a number, and the string \"%s\" is not one" % (label, v[:40]),
                             span, help="give a number, or a string that holds one")
        v = int(n) if float(n).is_integer() else n
    return _field_value(ftype, v)


def _words(v: Any) -> str:
    return describe(v)
