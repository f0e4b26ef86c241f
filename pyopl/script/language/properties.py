"""Property access on script values (``o.p``, ``a[i]``, assignment into them, ``delete``, ``in``,
``for-in`` keys, ToPrimitive), as a mixin of the interpreter.  Host objects are reached only
through the protocol methods.

Script objects inherit through their prototype chain (ECMAScript 3, 8.6.2): an object's own
properties, then its ``proto`` and so on, ending at this interpreter's ``Object.prototype``
(``self.protos["Object"]``).  Primitives, arrays and functions inherit from
``String.prototype``, ``Number.prototype``, ``Array.prototype``, ``Function.prototype``, ... of
the interpreter (built by :mod:`pyopl.script.stdlib.protos`), so a property a script adds to one of
them is seen at once by every value of that kind.
"""
from __future__ import annotations

import math

from ...diagnostics.diagnostic import Span
from . import ast as A
from .convert import to_number, to_string
from .messages import describe as _describe
from .values import (HOLE, NULL, UNDEFINED, Arguments, HostFunction, HostObject, JSArray, JSFunction, JSObject,
                     ScriptError)

MISSING = object()
_MISSING = MISSING
_OBJECTS = (JSObject, JSArray, JSFunction, HostFunction)


class Properties:
    """Reading and writing properties and items (needs ``alloc``, ``protos`` and ``call_value``)."""

    # --- the prototype chain -------------------------------------------------------------

    def proto_of(self, obj):
        """The object ``obj`` inherits from (a JSObject), or None at the end of the chain."""
        if isinstance(obj, JSObject):
            if obj.proto is not None:
                return obj.proto
            root = self.protos["Object"]
            return None if obj is root else root
        t = type(obj)
        if t is str:
            return self.protos["String"]
        if t is float or t is int:
            return self.protos["Number"]
        if t is bool:
            return self.protos["Boolean"]
        if isinstance(obj, JSArray):
            return self.protos["Array"]
        if isinstance(obj, (JSFunction, HostFunction)):
            return self.protos["Function"]
        return None

    def _inherited(self, o, k: str):
        """``k`` looked up from the JSObject ``o`` along its chain, or MISSING."""
        root = self.protos["Object"]
        while o is not None:
            if type(o) is Arguments and k in o.mapped:
                return o.vars[o.mapped[k]]
            v = o.props.get(k, _MISSING)
            if v is not _MISSING:
                return v
            o = o.proto if o.proto is not None else (None if o is root else root)
        return _MISSING

    def function_prototype(self, fn: JSFunction) -> JSObject:
        """``fn.prototype``, made on first use with its DontEnum ``constructor`` (13.2)."""
        p = fn.props.get("prototype", _MISSING)
        if p is _MISSING:
            p = JSObject({"constructor": fn}, hidden={"constructor"})
            fn.props["prototype"] = p
        return p

    def to_primitive(self, v, hint: str):
        """ECMAScript [[DefaultValue]] (8.6.2.6) of a script object: call ``valueOf`` then
        ``toString`` (hint "number"), or the other way round (hint "string"; a Date's default)."""
        if hint == "default":
            hint = "string" if (type(v) is JSObject and v.class_name == "Date") else "number"
        for name in (("valueOf", "toString") if hint == "number" else ("toString", "valueOf")):
            f = self.get_property(v, name, None, True)
            if isinstance(f, (JSFunction, HostFunction)):
                r = self.call_value(f, v, [], self.last_span)
                if not isinstance(r, _OBJECTS):
                    return r
        raise ScriptError.type_error("this object has no `toString` or `valueOf` giving a primitive value",
                                     self.last_span, "give the object a `toString` method that returns a string")

    # --- for-in -----------------------------------------------------------------------------

    def _enumerable_chain(self, start, own: set):
        """Enumerable inherited names from the JSObject ``start`` on, not shadowed by ``own``."""
        out = []
        seen = set(own)
        o = start
        root = self.protos["Object"]
        while o is not None:
            hidden = o.hidden or ()
            for k in o.props:
                if k not in seen:
                    seen.add(k)
                    if k not in hidden:
                        out.append(k)
            o = o.proto if o.proto is not None else (None if o is root else root)
        return out

    def for_in_keys(self, obj, span):
        """What ``for (k in obj)`` visits: script keys as strings (ECMAScript), host keys as the host gives them."""
        if isinstance(obj, HostObject):
            return obj.iter_keys()
        if isinstance(obj, JSArray):  # lazily: a long array is not copied into a list of keys first
            return self._array_keys(obj)
        if isinstance(obj, JSObject):
            hidden = obj.hidden or ()
            keys = [str(i) for i in range(len(obj.value))] if obj.class_name == "String" else []
            keys += [k for k in obj.props if k not in hidden]
            return keys + self._enumerable_chain(self.proto_of(obj), set(obj.props))
        if type(obj) is str:
            return (str(i) for i in range(len(obj)))
        if isinstance(obj, (JSFunction, HostFunction)):
            props = obj.props or {}
            hidden = obj.builtin_keys if isinstance(obj, HostFunction) else ()
            return [k for k in props if k != "prototype" and k not in hidden] + self._enumerable_chain(
                self.protos["Function"], set(props))
        return []

    def _array_keys(self, obj: JSArray):
        items = obj.items
        for i in range(len(items)):
            if items[i] is not HOLE:
                yield str(i)
        props = obj.props or {}
        yield from list(props)
        yield from self._enumerable_chain(self.protos["Array"], set(props))

    # --- reading ------------------------------------------------------------------------------

    def get_property(self, obj, key, node, is_member: bool):
        """``obj.key`` (``is_member``) or ``obj[key]``; ``node`` is the Member/Index node (for spans)."""
        if isinstance(obj, HostObject):
            if is_member:
                return obj.get_member(key, node.name_span)
            return obj.get_index(key, node.span)
        if isinstance(obj, JSArray):
            i = array_index(key)
            if i is not None:
                if i < len(obj.items):
                    v = obj.items[i]
                    if v is not HOLE:
                        return v
                v = self._inherited(self.protos["Array"], str(i))  # a hole reads through the prototypes
                return UNDEFINED if v is _MISSING else v
            k = key if type(key) is str else to_string(key)
            if k == "length":
                return float(len(obj.items))
            if obj.props and k in obj.props:
                return obj.props[k]
            v = self._inherited(self.protos["Array"], k)
            return UNDEFINED if v is _MISSING else v
        if isinstance(obj, JSObject):
            k = key if type(key) is str else to_string(key)
            if obj.class_name == "String" and type(obj.value) is str:
                if k == "length":
                    return float(len(obj.value))
                i = array_index(k)
                if i is not None and i < len(obj.value):
                    return obj.value[i]
            v = self._inherited(obj, k)
            return UNDEFINED if v is _MISSING else v
        t = type(obj)
        if t is str:
            i = array_index(key)
            if i is not None:
                return obj[i] if i < len(obj) else UNDEFINED
            k = key if type(key) is str else to_string(key)
            if k == "length":
                return float(len(obj))
            v = self._inherited(self.protos["String"], k)
            return UNDEFINED if v is _MISSING else v
        if t is float or t is int or t is bool:
            k = key if type(key) is str else to_string(key)
            v = self._inherited(self.protos["Boolean" if t is bool else "Number"], k)
            return UNDEFINED if v is _MISSING else v
        if isinstance(obj, JSFunction):
            k = key if type(key) is str else to_string(key)
            if k == "prototype":
                return self.function_prototype(obj)
            v = obj.props.get(k, _MISSING)
            if v is not _MISSING:
                return v
            if k == "length":
                return float(len(obj.node.params))
            v = self._inherited(self.protos["Function"], k)
            return UNDEFINED if v is _MISSING else v
        if isinstance(obj, HostFunction):
            k = key if type(key) is str else to_string(key)
            if obj.props is not None and k in obj.props:
                return obj.props[k]
            if k == "length":
                return float(obj.length)
            v = self._inherited(self.protos["Function"], k)
            return UNDEFINED if v is _MISSING else v
        # undefined or null
        shown = ("`.%s`" % key) if is_member else ("item `%s`" % to_string(key))
        raise ScriptError("script-property-of-nothing", "%s is %s, so %s cannot be read"
                          % (_describe(node.obj), to_string(obj), shown), node.obj.span,
                          "check that %s has a value before reading from it" % _describe(node.obj))

    def has_property(self, obj, key, node) -> bool:
        """``key in obj`` (11.8.7): own or inherited properties; array holes are absent."""
        if isinstance(obj, HostObject):
            return obj.has_member(to_string(key))
        if isinstance(obj, JSArray):
            i = array_index(key)
            if i is not None:
                return i < len(obj.items) and obj.items[i] is not HOLE
            k = to_string(key)
            if k == "length" or (obj.props and k in obj.props):
                return True
            return self._inherited(self.protos["Array"], k) is not _MISSING
        if isinstance(obj, JSObject):
            k = to_string(key)
            if obj.class_name == "String" and type(obj.value) is str:
                i = array_index(k)
                if k == "length" or (i is not None and i < len(obj.value)):
                    return True
            return self._inherited(obj, k) is not _MISSING
        if isinstance(obj, (JSFunction, HostFunction)):
            k = to_string(key)
            if k in ("length", "prototype") or (obj.props and k in obj.props):
                return k != "prototype" or isinstance(obj, JSFunction) or bool(obj.props and k in obj.props)
            return self._inherited(self.protos["Function"], k) is not _MISSING
        raise ScriptError.type_error("the right side of `in` is not an object (it is %s)" % _kind(obj),
                                     node.right.span, "write `key in object`")

    def get_member(self, obj, name: str, span: Span):
        """``obj.name`` for a ``with`` object."""
        if isinstance(obj, HostObject):
            return obj.get_member(name, span)
        if isinstance(obj, _OBJECTS):
            return self.get_property(obj, name, None, True)
        return UNDEFINED

    def delete_property(self, obj, key) -> bool:
        """``delete obj[key]`` (11.4.1): removes an own property; false for one that cannot go
        (an array's or function's ``length``, a function's ``prototype``)."""
        if isinstance(obj, JSArray):
            i = array_index(key)
            if i is not None:
                if i < len(obj.items):
                    obj.items[i] = HOLE
                return True
            k = to_string(key)
            if k == "length":
                return False
            if obj.props:
                obj.props.pop(k, None)
            return True
        if isinstance(obj, JSObject):
            k = to_string(key)
            if obj.class_name == "String" and type(obj.value) is str:
                i = array_index(k)
                if k == "length" or (i is not None and i < len(obj.value)):
                    return False
            if type(obj) is Arguments:
                obj.mapped.pop(k, None)
            obj.props.pop(k, None)
            if obj.readonly is not None and k in obj.readonly:
                return False  # ReadOnly built-in values are also DontDelete (15.8.1, 15.7.3)
            if obj.hidden and k in obj.hidden:
                obj.hidden = obj.hidden - {k}
            return True
        if isinstance(obj, (JSFunction, HostFunction)):
            k = to_string(key)
            if k in ("length", "prototype") or (isinstance(obj, HostFunction) and k in obj.builtin_keys):
                return False
            if obj.props:
                obj.props.pop(k, None)
            return True
        return True

    def _delete(self, target):
        """``delete`` (11.4.1): true unless the property or variable is DontDelete (a ``var``,
        a function, a parameter, an array's ``length``)."""
        if isinstance(target, (A.Member, A.Index)):
            obj = self.ev(target.obj)
            key = target.name if isinstance(target, A.Member) else self.ev(target.key)
            if isinstance(obj, HostObject):
                return False
            return self.delete_property(obj, key)
        if isinstance(target, A.Name):
            name = target.name
            s = self.scope
            while s is not None:
                if s.obj is None:
                    if name in s.vars:
                        if s is self.global_scope and name not in self.declared_globals:
                            del s.vars[name]  # made by an assignment: deletable (10.1.3)
                            return True
                        return False
                elif self._has(s.obj, name):
                    return False if isinstance(s.obj, HostObject) else self.delete_property(s.obj, name)
                s = s.parent
            return not (self.host is not None and self.host.has_member(name)) and name not in self.builtins
        self.ev(target)
        return True

    # --- writing --------------------------------------------------------------------------------

    def put_member(self, obj, name: str, value, span: Span, node=None) -> None:
        if isinstance(obj, HostObject):
            obj.set_member(name, value, span)
        else:
            self._put(obj, name, value, span, node)

    def put_index(self, obj, key, value, span: Span, node=None) -> None:
        if isinstance(obj, HostObject):
            obj.set_index(key, value, span)
        else:
            self._put(obj, key, value, span, node)

    def _put(self, obj, key, value, span, node) -> None:
        if isinstance(obj, JSArray):
            i = array_index(key)
            if i is not None:
                n = len(obj.items)
                if i < n:
                    obj.items[i] = value
                else:
                    self.alloc(i + 1 - n, span)
                    if i > n:
                        obj.items.extend([HOLE] * (i - n))
                    obj.items.append(value)
                return
            k = to_string(key)
            if k == "length":
                self._set_length(obj, value, span)
                return
            if obj.props is None:
                obj.props = {}
            if k not in obj.props:
                self.alloc(1, span)
            obj.props[k] = value
            return
        if isinstance(obj, JSObject):
            k = key if type(key) is str else to_string(key)
            if type(obj) is Arguments and k in obj.mapped:
                obj.vars[obj.mapped[k]] = value
                return
            if obj.readonly is not None and k in obj.readonly:
                return  # ReadOnly (8.6.1): the assignment does nothing
            if obj.class_name == "String" and type(obj.value) is str:
                i = array_index(k)
                if k == "length" or (i is not None and i < len(obj.value)):
                    return  # ReadOnly (15.5.5.1)
            if k not in obj.props:
                self.alloc(1, span)
            obj.props[k] = value
            return
        if isinstance(obj, JSFunction):
            k = key if type(key) is str else to_string(key)
            if k == "length" and k not in obj.props:
                return  # ReadOnly (15.3.5.1)
            if k not in obj.props:
                self.alloc(1, span)
            obj.props[k] = value
            return
        if isinstance(obj, HostFunction):
            if obj.props is not None:  # a built-in constructor of this interpreter (shared methods stay as they are)
                k = key if type(key) is str else to_string(key)
                if k in obj.builtin_keys:
                    return  # `Number.MAX_VALUE`, `F.prototype` of a built-in: ReadOnly (15)
                if k not in obj.props:
                    self.alloc(1, span)
                obj.props[k] = value
            return
        if obj is UNDEFINED or obj is NULL:
            where = node.obj if node is not None else None
            shown = ("`.%s`" % key) if isinstance(node, A.Member) else ("item `%s`" % to_string(key))
            raise ScriptError("script-property-of-nothing", "%s is %s, so %s cannot be set"
                              % (_describe(where) if where is not None else "the object", to_string(obj),
                                 shown), where.span if where is not None else span,
                              "give it a value (an object or an array) before assigning into it")
        # a primitive (number, string, boolean): ECMAScript ignores the assignment silently
        return

    def _set_length(self, arr: JSArray, value, span) -> None:
        n = to_number(value)
        if n != n or math.isinf(n) or n < 0 or n != math.floor(n) or n > 4294967295:
            raise ScriptError.range_error("`length` must be a whole number from 0 to 4294967295, not %s"
                                          % to_string(value), span, "assign a whole number to `length`")
        n = int(n)
        if n < len(arr.items):
            del arr.items[n:]
        else:
            self.alloc(n - len(arr.items), span)
            arr.items.extend([HOLE] * (n - len(arr.items)))


def _kind(v):
    from .messages import kind

    return kind(v)


def array_index(key):
    """The array index ``key`` stands for (a whole number from 0, or its canonical string), else None."""
    t = type(key)
    if t is float:
        if key >= 0 and key == key and key < 4294967295 and key == int(key):
            return int(key)
        return None
    if t is int:
        return key if 0 <= key < 4294967295 else None
    if t is str and key.isdigit() and (key == "0" or key[0] != "0") and len(key) < 11 and key.isascii():
        i = int(key)
        return i if i < 4294967295 else None
    return None
