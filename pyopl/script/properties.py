"""Property access on script values (``o.p``, ``a[i]``, assignment into them, ``for-in`` keys),
as a mixin of the interpreter.  Host objects are reached only through the protocol methods."""
from __future__ import annotations

import itertools
import math

from ..diagnostics.diagnostic import Span
from . import ast as A
from .convert import to_number, to_string
from .messages import describe as _describe
from .values import NULL, UNDEFINED, HostFunction, HostObject, JSArray, JSFunction, JSObject, ScriptError

MISSING = object()
_MISSING = MISSING


class Properties:
    """Reading and writing properties and items (needs ``alloc`` and ``builtins``)."""

    def for_in_keys(self, obj, span):
        """What ``for (k in obj)`` visits: script keys as strings (ECMAScript), host keys as the host gives them."""
        if isinstance(obj, HostObject):
            return obj.iter_keys()
        if isinstance(obj, JSArray):  # lazily: a long array is not copied into a list of keys first
            n = len(obj.items)
            extra = list(obj.props) if obj.props else []
            return itertools.chain((str(i) for i in range(n)), extra)
        if isinstance(obj, JSObject):
            keys = list(obj.props)
            p = obj.proto
            while p is not None:
                keys += [k for k in p.props if k not in obj.props]
                p = p.proto
            return keys
        if type(obj) is str:
            return (str(i) for i in range(len(obj)))
        if isinstance(obj, JSFunction):
            return list(obj.props)
        return []

    def get_property(self, obj, key, node, is_member: bool):
        """``obj.key`` (``is_member``) or ``obj[key]``; ``node`` is the Member/Index node (for spans)."""
        if isinstance(obj, HostObject):
            if is_member:
                return obj.get_member(key, node.name_span)
            return obj.get_index(key, node.span)
        if isinstance(obj, JSArray):
            i = array_index(key)
            if i is not None:
                return obj.items[i] if i < len(obj.items) else UNDEFINED
            k = key if type(key) is str else to_string(key)
            if k == "length":
                return float(len(obj.items))
            if obj.props and k in obj.props:
                return obj.props[k]
            return self.builtins_method("Array", k)
        if isinstance(obj, JSObject):
            k = key if type(key) is str else to_string(key)
            o = obj
            while o is not None:
                v = o.props.get(k, _MISSING)
                if v is not _MISSING:
                    return v
                o = o.proto
            return self.builtins_method("Object", k)
        t = type(obj)
        if t is str:
            i = array_index(key)
            if i is not None:
                return obj[i] if i < len(obj) else UNDEFINED
            k = key if type(key) is str else to_string(key)
            if k == "length":
                return float(len(obj))
            return self.builtins_method("String", k)
        if t is float or t is int:
            return self.builtins_method("Number", key if type(key) is str else to_string(key))
        if t is bool:
            return self.builtins_method("Boolean", key if type(key) is str else to_string(key))
        if isinstance(obj, JSFunction):
            k = key if type(key) is str else to_string(key)
            if k == "prototype" and k not in obj.props:
                obj.props[k] = JSObject()
            v = obj.props.get(k, _MISSING)
            return v if v is not _MISSING else self.builtins_method("Function", k)
        if isinstance(obj, HostFunction):
            return self.builtins_method("Function", key if type(key) is str else to_string(key))
        # undefined or null
        shown = ("`.%s`" % key) if is_member else ("item `%s`" % to_string(key))
        raise ScriptError("script-property-of-nothing", "%s is %s, so %s cannot be read"
                          % (_describe(node.obj), to_string(obj), shown), node.obj.span,
                          "check that %s has a value before reading from it" % _describe(node.obj))

    def builtins_method(self, kind: str, name: str):
        from .stdlib import METHODS

        fn = METHODS[kind].get(name)
        return fn if fn is not None else UNDEFINED

    def get_member(self, obj, name: str, span: Span):
        """``obj.name`` for a ``with`` object."""
        if isinstance(obj, HostObject):
            return obj.get_member(name, span)
        if isinstance(obj, JSObject):
            return obj.props.get(name, UNDEFINED)
        return UNDEFINED

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
                        obj.items.extend([UNDEFINED] * (i - n))
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
        if isinstance(obj, (JSObject, JSFunction)):
            k = key if type(key) is str else to_string(key)
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
        if n != n or n < 0 or n != math.floor(n) or n > 4294967295:
            raise ScriptError.type_error("`length` must be a whole number from 0, not %s" % to_string(value), span,
                                         "assign a whole number to `length`")
        n = int(n)
        if n < len(arr.items):
            del arr.items[n:]
        else:
            self.alloc(n - len(arr.items), span)
            arr.items.extend([UNDEFINED] * (n - len(arr.items)))


def array_index(key):
    """The array index ``key`` stands for (a whole number from 0, or its canonical string), else None."""
    t = type(key)
    if t is float:
        if key >= 0 and key == key and key < 4294967295 and key == int(key):
            return int(key)
        return None
    if t is int:
        return key if 0 <= key < 4294967295 else None
    if t is str and key.isdigit() and (key == "0" or key[0] != "0") and len(key) < 11:
        i = int(key)
        return i if i < 4294967295 else None
    return None
