"""OPL model elements as IBM ILOG Script host objects: sets, ranges, arrays, tuples, decision
variables, dexprs and constraints (IBM OPL manual, "IBM ILOG Script for OPL", the
``IloOplModel`` element classes).

Each wrapper reads the element live from the :class:`~pyopl.lowering.model.instance.Instance`
(pre-processing) or from the solution (post-processing), so what a script changes is what the
constraints then see.  ``for (var k in o)`` gives the *elements* of a set (tuples included)
and the *indices* of an array (:meth:`iter_keys`).  How values print (``writeln``) follows
IBM OPL: arrays ``[1 2 3]``, sets ``{"a" "b"}``, tuples ``<1 "a">``.
"""
from __future__ import annotations

import math
from typing import Any

from ...semantics.values import FloatRange, OplArray, OplRange, OplSet, OplTuple, TupleType
from .host_errors import host_error
from ..language.budgets import active, hold
from ..language.values import HostFunction, HostObject, NULL, UNDEFINED, well_formed


# ---------------------------------------------------------------------- values between OPL and script
def js_number(v: float) -> str:
    """A number as ECMAScript's ``ToString`` writes it (``15``, ``1.5``, ``1e-7``, ``Infinity``)."""
    from ..language.convert import number_to_string

    if isinstance(v, bool):
        return "true" if v else "false"
    return number_to_string(v)


#: host objects for model values that modules above this one define: type name -> maker(ctx, value)
#: (registered by pyopl/script/host.py)
VALUE_HOSTS: dict = {}


def to_script(ctx: Any, v: Any, slot: Any = None) -> Any:
    """An OPL data value as a script value: numbers as floats, strings, host objects for the rest.
    ``slot``: where a tuple lives in the model's data (:mod:`.tuple_slots`), so that a script may
    assign its fields; None for a tuple that is only a value."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return v
    if isinstance(v, OplTuple):
        return TupleHost(ctx, v, slot)
    if isinstance(v, (OplSet, OplRange)):
        return SetHost(ctx, v, None)
    if isinstance(v, OplArray):
        return ArrayHost(ctx, v, (), None)
    maker = VALUE_HOSTS.get(type(v).__name__)  # (an element of a state, cumul or step function array)
    return v if maker is None else maker(ctx, v)


def to_key(v: Any) -> Any:
    """A script value used as an OPL index or set element: integral numbers as ints, tuples unwrapped,
    a decision variable item after the solve as its value (``cost[x]``, as IBM reads it; an ``int``
    decision's value is already the whole number within the solver's integrality tolerance,
    :func:`pyopl.backends.common.by_dvar`)."""
    if isinstance(v, DvarHost) and v.is_item and v.ctx.has_solution():
        v = v.to_number()
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, TupleHost):
        return v.value
    if isinstance(v, str):
        return well_formed(v)  # "\uD83D\uDE00" names the element "😀"; a lone surrogate cannot be printed
    return v


def member_of(dom: Any, k: Any) -> Any:
    """``k`` as the element of the index set ``dom`` it names: itself, or for a tuple of a keyed
    tuple set, the set's tuple with the same key fields (a tuple read from another copy of the data,
    whose array fields are other arrays: IBM compares tuples of a keyed set by their keys)."""
    if isinstance(k, OplTuple) and k.ttype is not None and k.ttype.keys and isinstance(dom, OplSet):
        try:
            if k in dom:
                return k
        except TypeError:
            pass
        t = dom.by_key(k.key())
        return t if t is not None else k
    return k


def display(v: Any, nested: bool = False) -> str:
    """How IBM OPL prints a value in ``writeln``: strings quoted inside containers only."""
    if isinstance(v, HostObject):
        return v.to_display()
    if isinstance(v, str):
        return '"%s"' % v if nested else v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, OplTuple):
        return "<" + " ".join(display(x, True) for x in v) + ">"
    if isinstance(v, OplArray):  # an array-valued tuple field: `<"a" [1 2]>`, as oplrun prints it
        data = v.data
        return _display_array(v.dims, lambda key: display(data.get(key, 0), True))
    if isinstance(v, (OplSet, OplRange)):
        if isinstance(v, OplRange):
            return "%d..%d" % (v.lo, v.hi)
        return "{" + " ".join(display(x, True) for x in v) + "}"
    if v is None:
        return "null"
    from ..language.convert import display as script_display

    return script_display(v)


def _plain(v: Any) -> Any:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


class _Host(HostObject):
    """Shared plumbing: methods are listed in ``_methods`` (name -> bound Python method)."""

    type_name = "object"

    def __init__(self, ctx: Any):
        self.ctx = ctx

    def _methods(self) -> dict[str, Any]:
        return {}

    def _properties(self) -> list[str]:
        return []

    def member_names(self) -> list[str]:
        return sorted(set(self._properties()) | set(self._methods()))

    def _method(self, name: str, span: Any) -> Any:
        fn = self._methods().get(name)
        if fn is None:
            from ..language.values import ScriptError

            raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)
        return HostFunction(name, lambda interp, this, args, sp, _fn=fn: _fn(args, sp))

    def get_member(self, name: str, span: Any) -> Any:
        return self._method(name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        raise host_error("script-forbidden-assignment", "`%s` of %s cannot be assigned" % (name, self.type_name), span,
                         help="only data values, array items and decision bounds (`.LB`, `.UB`) can be assigned")

    def get_index(self, key: Any, span: Any) -> Any:
        raise host_error("script-missing-method", "%s cannot be indexed" % self.type_name, span, help="index arrays, not %s" % self.type_name)

    def set_index(self, key: Any, value: Any, span: Any) -> None:
        raise host_error("script-forbidden-assignment", "items of %s cannot be assigned" % self.type_name, span,
                         help="only data arrays take item assignments")

    def iter_keys(self):
        return iter(())

    def to_number(self) -> float:
        return math.nan

    def to_display(self) -> str:
        return "[object %s]" % self.type_name


def _arg(args: list, k: int) -> Any:
    return args[k] if k < len(args) else UNDEFINED


def _num(ctx: Any, v: Any, span: Any, what: str) -> float:
    if isinstance(v, HostObject):
        v = v.to_number()
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip()) if v.strip() else 0.0
        except ValueError:
            pass
    raise host_error("script-value-type", "%s must be a number, but this is %s" % (what, describe(v)), span,
                     help="assign a number")


def objective_coefficient(ctx: Any, args: list, span: Any) -> float:
    """The second argument of ``setCoef(x, v)`` / ``setObjCoef(x, v)`` as a finite number (a script error
    otherwise): the one rule of every script call that sets an objective coefficient."""
    v = _num(ctx, _arg(args, 1), span, "the objective coefficient")
    if not math.isfinite(v):
        raise host_error("script-value-type", "the objective coefficient must be a finite number", span,
                         help="check the computation that gave it")
    return v


def describe(v: Any) -> str:
    """A script value in words, for messages."""
    if isinstance(v, str):
        return 'the string "%s"' % v[:40]
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "the number %s" % js_number(v)
    if v is UNDEFINED:
        return "undefined"
    if v is NULL:
        return "null"
    if isinstance(v, HostObject):
        return ("an %s" if v.type_name[:1] in "AEIOUaeiou" else "a %s") % v.type_name  # "an IloConstraint"
    return "an object"


# ---------------------------------------------------------------------- sets and ranges
class SetHost(_Host):
    """An OPL set (``{int}``, ``{string}``, a tuple set) or range, as IBM's ``IloOplSet``/``IloRange`` objects."""

    def __init__(self, ctx: Any, value: Any, name: str | None):
        super().__init__(ctx)
        self.value = value
        self.name = name
        if isinstance(value, (OplRange, FloatRange)):
            self.type_name = "range"
        else:
            et = getattr(value, "elem_type", None)
            self.type_name = "{%s}" % (et.name if isinstance(et, TupleType) else (et or "int"))

    @property
    def script_class(self) -> str:
        """IBM's class: ``IloIntRange``/``IloNumRange``, ``IloTupleSet``, else ``IloDiscreteDataCollection``."""
        if self.type_name == "range":
            return "IloNumRange" if isinstance(self.value, FloatRange) else "IloIntRange"
        return "IloTupleSet" if isinstance(getattr(self.value, "elem_type", None), TupleType) else "IloDiscreteDataCollection"

    def _properties(self) -> list[str]:
        return ["size"] + (["LB", "UB"] if self.type_name == "range" else [])

    def _methods(self) -> dict[str, Any]:
        out = {"first": self._first, "last": self._last, "next": self._next, "prev": self._prev,
               "nextc": self._nextc, "prevc": self._prevc, "contains": self._contains, "find": self._find,
               "get": self._get, "add": self._add, "addOnly": self._add, "remove": self._remove, "clear": self._clear}
        et = getattr(self.value, "elem_type", None)
        if isinstance(et, TupleType):  # IBM's IloTupleSet: the fields of its tuple type
            out["getNFields"] = lambda a, s: float(len(et.fields))
            out["getFieldName"] = lambda a, s: _field_at(self.ctx, list(et.fields), et.name, a, s)
        return out

    def get_member(self, name: str, span: Any) -> Any:
        v = self.value
        if name == "size":
            return float(len(v))
        if self.type_name == "range" and name in ("LB", "UB"):
            return float(v.lo if name == "LB" else v.hi)
        return self._method(name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        if self.type_name == "range":
            raise host_error("script-forbidden-assignment", "the range%s cannot be changed by a script" % (
                " `%s`" % self.name if self.name else ""), span,
                help="declare the range from data that the script sets before it (`range R = 1..n;`)")
        super().set_member(name, value, span)

    def _items(self) -> list:
        return list(self.value)

    def _element(self, x: Any) -> Any:
        """The element ``x`` as a script value; a tuple knows it lives in this set."""
        return to_script(self.ctx, x, ("set", self.value, self.name) if isinstance(x, OplTuple) else None)

    def _check_nonempty(self, span: Any, what: str) -> list:
        items = self._items()
        if not items:
            raise host_error("script-index-out-of-range", "`%s()` of an empty set" % what, span,
                             help="check `size` before asking for an element")
        return items

    def _first(self, args: list, span: Any) -> Any:
        return self._element(self._check_nonempty(span, "first")[0])

    def _last(self, args: list, span: Any) -> Any:
        return self._element(self._check_nonempty(span, "last")[-1])

    def _position(self, v: Any, span: Any, what: str) -> tuple[list, int]:
        items = self._items()
        k = to_key(v)
        try:
            return items, items.index(k)
        except ValueError:
            raise host_error("script-index-out-of-range", "%s is not in %s" % (display(k, True), self._label()), span,
                             help="`%s` needs an element of the set" % what) from None

    def _label(self) -> str:
        return "`%s`" % self.name if self.name else "the set"

    def _step(self, args: list, span: Any, d: int, circular: bool, what: str) -> Any:
        items, k = self._position(_arg(args, 0), span, what)
        n = int(_num(self.ctx, args[1], span, "the step")) if len(args) > 1 else 1
        j = k + d * n
        if circular:
            j %= len(items)
        elif not 0 <= j < len(items):
            raise host_error("script-index-out-of-range", "`%s(%s)` goes past the %s of %s" % (
                what, display(to_key(args[0]), True), "end" if d > 0 else "start", self._label()), span,
                help="use `%sc` to wrap around, or test with `last()`/`first()` first" % what)
        return self._element(items[j])

    def _next(self, args, span):
        return self._step(args, span, 1, False, "next")

    def _prev(self, args, span):
        return self._step(args, span, -1, False, "prev")

    def _nextc(self, args, span):
        return self._step(args, span, 1, True, "next")

    def _prevc(self, args, span):
        return self._step(args, span, -1, True, "prev")

    def _contains(self, args: list, span: Any) -> Any:
        return to_key(_arg(args, 0)) in self.value

    def item_at(self, args: list, span: Any) -> Any:
        """``Opl.item(S, n)``: the n-th item of the set, counting from 0 (IBM, "Functions over sets":
        ``item(S,n)`` is ``next(first(S), n)``), a tuple set's too; a tuple argument is a key."""
        if len(args) == 1 and isinstance(args[0], (int, float)) and not isinstance(args[0], bool):
            items = self._items()
            k = int(_num(self.ctx, args[0], span, "the position"))
            if not 0 <= k < len(items):
                raise host_error("script-index-out-of-range", "position %d is outside %s (size %d)" % (
                    k, self._label(), len(items)), span, help="positions run from 0 to size-1")
            return self._element(items[k])
        return self._get(args, span)

    def _get(self, args: list, span: Any) -> Any:
        if isinstance(getattr(self.value, "elem_type", None), TupleType):  # a keyed lookup, as `find`
            t = self._find(args, span)
            if t is NULL:
                raise host_error("script-index-out-of-range", "%s has no tuple with the key %s" % (
                    self._label(), "<" + " ".join(display(to_key(a), True) for a in args) + ">"), span,
                    help="`find(...)` returns null instead of failing")
            return t
        items = self._items()
        k = int(_num(self.ctx, _arg(args, 0), span, "the position"))
        if not 0 <= k < len(items):
            raise host_error("script-index-out-of-range", "position %d is outside %s (size %d)" % (k, self._label(), len(items)),
                             span, help="positions run from 0 to size-1")
        return self._element(items[k])

    def _find(self, args: list, span: Any) -> Any:
        et = getattr(self.value, "elem_type", None)
        if not isinstance(et, TupleType):
            raise host_error("script-missing-method", "`find` needs a tuple set with key fields; %s is not one" % self._label(),
                             span, help="use `contains` for a set of ints or strings")
        key = tuple(to_key(a) for a in args)
        if len(key) == 1 and isinstance(key[0], OplTuple):  # `find(t)` with a tuple: its key fields
            key = key[0].key()
        t = self.value.by_key(key)
        if t is None and et.keys and len(key) == len(et.fields):  # every component given, keys among them
            t = self.value.by_key(OplTuple(key, et).key())
            t = t if t is not None and tuple(t) == tuple(_field_value(ty, v) for ty, v in zip(et.types, key)) else None
        return self._element(t) if t is not None else NULL

    def _mutable(self, span: Any, what: str) -> OplSet:
        if not isinstance(self.value, OplSet):
            raise host_error("script-forbidden-assignment", "a range cannot be changed (`%s`)" % what, span,
                             help="declare a set `{int}` to add elements to it")
        if self.ctx.phase == "post" and self.name and self.ctx.is_model_input(self.name):
            raise host_error("script-forbidden-assignment", "%s is model data; after the solve it cannot change" % self._label(),
                             span, help="collect results in a new set declared for them")
        return self.value

    def _add(self, args: list, span: Any) -> Any:
        s = self._mutable(span, "add")
        et = s.elem_type
        if isinstance(et, TupleType):
            vals = list(args[0].value) if len(args) == 1 and isinstance(args[0], TupleHost) else list(args)
            if len(vals) != len(et.fields):
                raise host_error("script-value-type", "`add` on %s needs %d fields (%s), got %d" % (
                    self._label(), len(et.fields), ", ".join(et.fields), len(vals)), span,
                    help="give one value per field, in order")
            elem: Any = OplTuple([self.ctx.tuple_field_value(et.types[k], v, "`%s.%s`" % (et.name, et.fields[k]), span)
                                  for k, v in enumerate(vals)], et)
        else:
            elem = to_key(_arg(args, 0))
            if et == "float" and isinstance(elem, int):
                elem = float(elem)
        size = len(s)
        s.add(elem)
        if len(s) != size:  # a new element: the set keeps it, so it counts against the memory budget
            hold(_slots(elem), span)
        self.ctx.note_assigned(self.name)
        return UNDEFINED

    def _remove(self, args: list, span: Any) -> Any:
        s = self._mutable(span, "remove")
        k = to_key(_arg(args, 0))
        if k in s:
            interp = active()
            if interp is not None:  # the set is rebuilt without it: one step per element, as arrays count
                interp.charge(len(s), span)
            items = [x for x in s if x != k]
            s.replace(items)
            self.ctx.note_assigned(self.name)
        return UNDEFINED

    def _clear(self, args: list, span: Any) -> Any:
        s = self._mutable(span, "clear")
        s.replace([])
        self.ctx.note_assigned(self.name)
        return UNDEFINED

    def iter_keys(self):
        for x in list(self.value):
            yield self._element(x)

    def to_number(self) -> float:
        return math.nan

    def to_display(self) -> str:
        return display(self.value)


def _slots(elem: Any) -> int:
    """The memory-budget units an element added to a set holds: one per field (or one for an int or
    string) and one per character of its strings (docs/scripting.md, Limits)."""
    parts = tuple(elem) if isinstance(elem, OplTuple) else (elem,)
    return sum(1 + len(p) if isinstance(p, str) else 1 for p in parts)


def _field_value(t: Any, v: Any) -> Any:
    """A script value for a tuple field of type ``t``: a number for a numeric field (a string that reads
    as a number converted, as ILOG Script converts ``"5.1"`` added to a float field: IBM's CSV-reading
    examples ``split`` a line and add the strings), else ``v`` as it is."""
    if t in ("float", "int") and isinstance(v, str):
        from ..language.convert import string_to_number

        n = string_to_number(v)
        if n == n:  # (NaN: not a number; left as the string, which the field's check reports)
            v = n
    if t == "float" and isinstance(v, (int, float)):
        return float(v)
    if t in ("int", "boolean") and isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _field_at(ctx: Any, fields: list, type_name: str, args: list, span: Any) -> str:
    """``getFieldName(k)`` of a tuple or tuple set (IBM's ``IloTuple``/``IloTupleSet``): the name of field ``k``
    (0-based); a script error past the last field."""
    k = int(_num(ctx, _arg(args, 0), span, "the field position"))
    if not 0 <= k < len(fields):
        raise host_error("script-index-out-of-range", "tuple `%s` has no field at position %d (it has %d)" % (
            type_name, k, len(fields)), span, help="field positions run from 0 to %d" % (len(fields) - 1))
    return fields[k]


# ---------------------------------------------------------------------- tuples
class TupleHost(_Host):
    """A tuple value: fields by name (``t.name``) or by name string (``t["name"]``); ``getFieldName(k)``."""

    def __init__(self, ctx: Any, value: OplTuple, slot: Any = None):
        super().__init__(ctx)
        self.value = value
        self.slot = slot  # where it lives in the model's data (tuple_slots), or None
        self.type_name = value.ttype.name if value.ttype is not None else "tuple"

    script_class = "IloTuple"

    def _fields(self) -> list[str]:
        return list(self.value.ttype.fields) if self.value.ttype is not None else []

    def _properties(self) -> list[str]:
        return self._fields()

    def _methods(self) -> dict[str, Any]:
        return {"getFieldName": self._field_name, "getNFields": lambda a, s: float(len(self._fields()))}

    def _field_name(self, args: list, span: Any) -> Any:
        return _field_at(self.ctx, self._fields(), self.type_name, args, span)

    def get_member(self, name: str, span: Any) -> Any:
        f = self._fields()
        if name in f:
            return to_script(self.ctx, self.value[f.index(name)])
        return self._method(name, span)

    def get_index(self, key: Any, span: Any) -> Any:
        if isinstance(key, str):
            return self.get_member(key, span)
        k = int(_num(self.ctx, key, span, "the field position"))
        f = self._fields()
        if not 0 <= k < len(f):
            raise host_error("script-index-out-of-range", "tuple `%s` has no field at position %d" % (self.type_name, k), span,
                             help="field positions run from 0 to %d" % (len(f) - 1))
        return to_script(self.ctx, self.value[k])

    def set_member(self, name: str, value: Any, span: Any) -> None:
        """``t.name = value``: the tuple replaced in its place in the model's data (:mod:`.tuple_slots`)."""
        if name not in self._fields():
            raise host_error("script-forbidden-assignment", "a `%s` tuple has no field `%s` to assign" % (
                self.type_name, name), span, help="its fields are: %s" % ", ".join(self._fields()))
        if self.slot is None:
            raise host_error("script-forbidden-assignment", "the field `%s` of this `%s` tuple cannot be assigned: the "
                             "tuple is a value the script computed, not an element of the model's data" % (
                                 name, self.type_name), span,
                             help="assign the field on the tuple read from its set, array or declaration")
        self.ctx.assign_tuple_field(self, name, value, span)

    def set_index(self, key: Any, value: Any, span: Any) -> None:
        self.set_member(str(key), value, span)

    def iter_keys(self):
        return iter(self._fields())

    def to_display(self) -> str:
        return display(self.value)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, TupleHost) and other.value == self.value

    def __hash__(self) -> int:
        return hash(self.value)


# ---------------------------------------------------------------------- data arrays
class ArrayHost(_Host):
    """A data array (or the sub-array ``a[i]`` of a multi-dimensional one): items read and assigned live."""

    def __init__(self, ctx: Any, array: OplArray, prefix: tuple, decl_type: Any):
        super().__init__(ctx)
        self.array = array
        self.prefix = prefix
        self.decl_type = decl_type  # the declared element type word ("int+", "float", ...) or None
        base = decl_type or "float"
        self.type_name = "%s%s" % (base if isinstance(base, str) else getattr(base, "name", "object"),
                                   "[]" * (len(array.dims) - len(prefix)))

    script_class = "IloMap"

    def _properties(self) -> list[str]:
        return ["size"]

    def get_member(self, name: str, span: Any) -> Any:
        if name == "size":
            return float(len(self.array.dims[len(self.prefix)]))
        return self._method(name, span)

    def _key(self, key: Any, span: Any) -> Any:
        dom = self.array.dims[len(self.prefix)]
        k = member_of(dom, to_key(key))
        if k not in dom:
            if isinstance(k, DvarHost) and k.is_item:  # `letters[x[i]]` without a solution: OPL1060 says so
                k.ctx.solution_value(k.column(), k._label(), span)
            name = self.array.name + "".join("[%s]" % display(p, True) for p in self.prefix)
            raise host_error("script-index-out-of-range", "index %s is outside the index set of `%s` (%s)" % (
                display(k, True), name, _domain_words(dom)), span, help="index with an element of the array's index set")
        return k

    def get_index(self, key: Any, span: Any) -> Any:
        k = self._key(key, span)
        full = self.prefix + (k,)
        if len(full) < len(self.array.dims):
            return ArrayHost(self.ctx, self.array, full, self.decl_type)
        v = self.array.data.get(full, _NO_ITEM)
        if v is _NO_ITEM:
            raise host_error("script-index-out-of-range", "`%s%s` has no value" % (
                self.array.name, "".join("[%s]" % display(p, True) for p in full)), span,
                help="the data gives this array no value at this index")
        return to_script(self.ctx, v, ("array", self.array, full) if isinstance(v, OplTuple) else None)

    def set_index(self, key: Any, value: Any, span: Any) -> None:
        k = self._key(key, span)
        full = self.prefix + (k,)
        name = self.array.name
        if len(full) < len(self.array.dims):
            raise host_error("script-forbidden-assignment", "`%s` has %d dimensions: assign one item, `%s%s[...]`" % (
                name, len(self.array.dims), name, "".join("[%s]" % display(p, True) for p in full)), span,
                help="index every dimension")
        self.ctx.check_writable(name, span)
        label = name + "".join("[%s]" % display(p, True) for p in full)
        v = self.ctx.convert_for(self.decl_type, value, label, span)
        data = self.array.data  # (made from ``flat`` when only that existed)
        data[full] = v
        self.array.flat = None  # the fast paths read ``data`` from now on
        self.array.flat_floats = False
        self.ctx.note_assigned(name)

    def iter_keys(self):
        dom = self.array.dims[len(self.prefix)]
        for k in list(dom):
            yield to_script(self.ctx, k, ("set", dom, None) if isinstance(k, OplTuple) else None)

    def to_display(self) -> str:
        data = self.array.data
        return _display_array(self.array.dims[len(self.prefix):],
                              lambda key: display(data.get(self.prefix + key, 0), True))


_NO_ITEM = object()


def _domain_words(dom: Any) -> str:
    if isinstance(dom, OplRange):
        return "%d..%d" % (dom.lo, dom.hi)
    items = list(dom)
    body = " ".join(display(x, True) for x in items[:6]) + (" ..." if len(items) > 6 else "")
    return "{" + body + "}"


def _display_array(dims: list, item) -> str:
    """``[1 2 3]`` for one dimension, ``[[1 2] [3 4]]`` nested for more (IBM OPL's layout on one line)."""
    def walk(k: int, prefix: tuple) -> str:
        if k == len(dims):
            return item(prefix)
        return "[" + " ".join(walk(k + 1, prefix + (x,)) for x in dims[k]) + "]"
    return walk(0, ())


# ---------------------------------------------------------------------- decision variables
class DvarHost(_Host):
    """A decision variable (one column) or an array of them: bounds before the solve, values after."""

    def __init__(self, ctx: Any, name: str, prefix: tuple = ()):
        super().__init__(ctx)
        self.name = name
        self.prefix = prefix
        block = ctx.inst.dvar_blocks.get(name)
        if block is not None:
            _first, _keys, self.ndims, self.kind = block
        else:  # an alias `dvar int y[R] = ...;` (pyopl/lowering/model/aliases.py): its cells are other decisions
            sym = ctx.inst.symbols[name]
            self.ndims = len(getattr(sym.value, "dims", []))
            self.kind = {"boolean": "boolean", "float": "float", "float+": "float"}.get(sym.decl.vtype, "int")
        self.type_name = "dvar %s%s" % (self.kind, "[]" * (self.ndims - len(prefix)))

    @property
    def is_item(self) -> bool:
        return len(self.prefix) == self.ndims

    @property
    def script_class(self) -> str:
        """``IloNumVar`` for one decision (IBM's ``typeof.mod`` prints it for a ``dvar int``), ``IloMap`` for an array."""
        return "IloNumVar" if self.is_item else "IloMap"

    def _label(self) -> str:
        return self.name + "".join("[%s]" % display(p, True) for p in self.prefix)

    def _properties(self) -> list[str]:
        if self.is_item:
            return ["LB", "UB", "lb", "ub", "solutionValue", "reducedCost", "name"]
        return ["size", "solutionValue"]

    def column(self) -> int:
        return self.ctx.column_of(self.name, self.prefix)

    def get_member(self, name: str, span: Any) -> Any:
        if not self.is_item:
            if name == "size":
                return float(len(self.ctx.dvar_dims(self.name)[len(self.prefix)]))
            if name == "solutionValue":  # of a whole array: an array of values (IBM's column generation reads it so)
                return self._solution_array(span)
            return self._method(name, span)
        if name in ("LB", "UB", "lb", "ub"):
            lo, hi = self.ctx.column_bounds(self.column())
            return lo if name.upper() == "LB" else hi
        if name == "solutionValue":
            return self.ctx.solution_value(self.column(), self._label(), span)
        if name == "reducedCost":
            return self.ctx.reduced_cost(self.name, self.prefix, self._label(), span)
        if name == "name":
            return self._label()
        return self._method(name, span)

    def _methods(self) -> dict[str, Any]:
        return {"setBounds": self._set_bounds} if self.is_item else {}

    def _set_bounds(self, args: list, span: Any) -> Any:
        """``x.setBounds(lb, ub)`` (IBM's IloNumVar): both bounds at once, as ``x.LB = lb; x.UB = ub;``."""
        self.set_member("LB", _arg(args, 0), span)
        self.set_member("UB", _arg(args, 1), span)
        return UNDEFINED

    def _solution_array(self, span: Any) -> "ArrayHost":
        import itertools

        dims = self.ctx.dvar_dims(self.name)[len(self.prefix):]
        data = {key: self.ctx.solution_value(self.ctx.column_of(self.name, self.prefix + key), self._label(), span)
                for key in itertools.product(*[list(d) for d in dims])}
        return ArrayHost(self.ctx, OplArray(self._label(), list(dims), data), (), "float")

    def set_member(self, name: str, value: Any, span: Any) -> None:
        if self.is_item and name in ("LB", "UB", "lb", "ub"):
            v = _num(self.ctx, value, span, "the bound of `%s`" % self._label())
            self.ctx.set_bound(self.column(), name.upper(), v, self._label(), span)
            return
        if self.is_item and name in ("priority", "direction"):
            self.ctx.set_branching(self.column(), name, _num(self.ctx, value, span, "`%s.%s`" % (self._label(), name)),
                                   self._label(), span)
            return
        if self.is_item and name == "solutionValue":
            raise host_error("script-forbidden-assignment", "the solution value of `%s` cannot be assigned" % self._label(),
                             span, help="change its bounds (`.LB`, `.UB`) and solve again")
        if not self.is_item and name in ("LB", "UB"):
            raise host_error("script-forbidden-assignment", "`%s` is an array of decision variables: set the bound of each item"
                             % self._label(), span, help="write `for (var i in %s) %s[i].%s = ...;`" % (
                                 self.name, self.name, name))
        super().set_member(name, value, span)

    def get_index(self, key: Any, span: Any) -> Any:
        if self.is_item:
            return super().get_index(key, span)
        dom = self.ctx.dvar_dims(self.name)[len(self.prefix)]
        k = member_of(dom, to_key(key))
        if k not in dom:
            raise host_error("script-index-out-of-range", "index %s is outside the index set of `%s` (%s)" % (
                display(k, True), self._label(), _domain_words(dom)), span,
                help="index with an element of the variable's index set")
        if len(self.prefix) + 1 == self.ndims:
            self.ctx.column_of(self.name, self.prefix + (k,), span)  # (a sparse array may lack the item)
        return DvarHost(self.ctx, self.name, self.prefix + (k,))

    def set_index(self, key: Any, value: Any, span: Any) -> None:
        if self.ctx.phase == "post" and len(self.prefix) + 1 == self.ndims:  # after the solve: the value post-processing reads
            item = self.get_index(key, span)
            self.ctx.set_solution_value(item.column(), value, item._label(), span)
            return
        raise host_error("script-forbidden-assignment", "`%s[...]` is a decision variable: its value is the solver's" % self._label(),
                         span, help="bound it instead: `%s[i].UB = ...;`" % self._label())

    def iter_keys(self):
        if self.is_item:
            return iter(())
        return (to_script(self.ctx, k) for k in list(self.ctx.dvar_dims(self.name)[len(self.prefix)]))

    def to_number(self) -> float:
        if self.is_item and self.ctx.has_solution():
            return self.ctx.solution_value(self.column(), self._label(), None)
        return math.nan

    def to_primitive(self) -> Any:
        if self.is_item and self.ctx.has_solution():
            return self.to_number()
        return self.to_display()

    def to_display(self) -> str:
        if not self.ctx.has_solution():
            return self._label() if self.is_item else "[object %s]" % self.type_name
        if self.is_item:
            return js_number(self.to_number())
        dims = self.ctx.dvar_dims(self.name)[len(self.prefix):]
        return _display_array(dims, lambda key: js_number(self.ctx.solution_value(
            self.ctx.column_of(self.name, self.prefix + key), self.name, None)))


# ---------------------------------------------------------------------- dexprs and constraints
class DexprHost(_Host):
    """An indexed ``dexpr`` after the solve: ``e[i]`` is its value."""

    def __init__(self, ctx: Any, name: str, prefix: tuple = ()):
        super().__init__(ctx)
        self.name = name
        self.prefix = prefix
        self.type_name = "dexpr float[]"

    script_class = "IloMap"

    def get_member(self, name: str, span: Any) -> Any:
        if name == "size":
            return float(len(self.ctx.dexpr_dims(self.name)[len(self.prefix)]))
        return self._method(name, span)

    def _properties(self) -> list[str]:
        return ["size"]

    def get_index(self, key: Any, span: Any) -> Any:
        dims = self.ctx.dexpr_dims(self.name)
        k = member_of(dims[len(self.prefix)], to_key(key))
        if k not in dims[len(self.prefix)]:
            raise host_error("script-index-out-of-range", "index %s is outside the index set of `%s`" % (
                display(k, True), self.name), span, help="index with an element of the dexpr's index set")
        full = self.prefix + (k,)
        if len(full) < len(dims):
            return DexprHost(self.ctx, self.name, full)
        return self.ctx.dexpr_value(self.name, full, span)

    def iter_keys(self):
        return (to_script(self.ctx, k) for k in list(self.ctx.dexpr_dims(self.name)[len(self.prefix)]))

    def to_display(self) -> str:
        dims = self.ctx.dexpr_dims(self.name)[len(self.prefix):]
        return _display_array(dims, lambda key: js_number(self.ctx.dexpr_value(self.name, self.prefix + key, None)))
