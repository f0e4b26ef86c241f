"""The global objects of one interpreter: constructors with their ``prototype`` objects
(ECMAScript 3, 15.2-15.11), ``Math``, the global functions and values.

``make_builtins(interp)`` returns the global names and sets ``interp.protos``: the prototype
of each kind of value ("Object", "Function", "Array", "String", "Number", "Boolean", "Date",
"Error", "TypeError", ...).  Each interpreter gets its own, so a script that adds to
``Array.prototype`` changes only its own run.  Built-in methods are DontEnum (``for-in`` does
not list them) and every prototype's ``constructor`` is its constructor.
"""
from __future__ import annotations

import math
import random

from . import builtins as S
from . import regexp as R
from . import date as D
from . import number_format as N
from . import text as T
from ..language.convert import array_join, plain_string, to_string
from ..language.values import NULL, UNDEFINED, HostFunction, JSArray, JSFunction, JSObject, ScriptError, is_new

ERRORS = ("Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError")


def _h(name, fn, length=0):
    return HostFunction(name, fn, length=length)


def _class_of(v) -> str:
    if isinstance(v, JSObject):
        return v.class_name
    if isinstance(v, JSArray):
        return "Array"
    if isinstance(v, (JSFunction, HostFunction)):
        return "Function"
    return {str: "String", bool: "Boolean", float: "Number", int: "Number"}.get(type(v), "Object")


def _object_to_string(interp, this, args, span):
    """``Object.prototype.toString`` (15.2.4.2): ``[object Class]``."""
    if this is UNDEFINED or this is NULL or this is None:
        return "[object %s]" % ("Null" if this is NULL else "Undefined")
    return "[object %s]" % _class_of(this)


def _to_object(interp, this, name, span):
    """ToObject of ``this`` (9.9): undefined and null are a TypeError."""
    if this is UNDEFINED or this is NULL or this is None:
        raise ScriptError.type_error("`Object.prototype.%s` called on %s" % (name, "null" if this is NULL else
                                                                              "undefined"), span,
                                     "call it on an object")
    return this


def _object_value_of(interp, this, args, span):
    o = _to_object(interp, this, "valueOf", span)
    if not isinstance(o, (JSObject, JSArray, JSFunction, HostFunction)):
        return S._object(interp, None, [o], span)  # ToObject of a primitive is its wrapper (9.9)
    return o


def _object_to_locale_string(interp, this, args, span):
    """15.2.4.3: the object's own ``toString()``."""
    o = _to_object(interp, this, "toLocaleString", span)
    f = interp.get_property(o, "toString", None, True)
    if not isinstance(f, (JSFunction, HostFunction)):
        raise ScriptError.type_error("the object has no `toString` method", span, "give it a `toString` method")
    return interp.call_value(f, o, [], span)


def _is_prototype_of(interp, this, args, span):
    v = args[0] if args else UNDEFINED
    if not isinstance(v, (JSObject, JSArray, JSFunction, HostFunction)):
        return False
    p = interp.proto_of(v)
    while p is not None:
        if p is this:
            return True
        p = interp.proto_of(p)
    return False


def _property_is_enumerable(interp, this, args, span):
    _to_object(interp, this, "propertyIsEnumerable", span)
    k = to_string(args[0] if args else UNDEFINED)
    if isinstance(this, HostFunction):
        return bool(this.props and k in this.props and k not in this.builtin_keys)
    if not S._has_own(interp, this, args[:1], span):
        return False
    if isinstance(this, JSObject):
        return not (this.hidden and k in this.hidden)
    return k not in ("length", "prototype")


def _has_own(interp, this, args, span):
    return S._has_own(interp, _to_object(interp, this, "hasOwnProperty", span), args, span)


def _primitive_of(kind: str, pytype):
    def fn(interp, this, args, span):
        if type(this) is pytype:
            return this
        if isinstance(this, JSObject) and this.class_name == kind and this.value is not None:
            return this.value
        raise ScriptError.type_error("`%s.prototype` methods need a %s" % (kind, kind.lower()), span,
                                     "call it on a %s" % kind.lower())
    return fn


def _boolean_to_string(interp, this, args, span):
    return "true" if _primitive_of("Boolean", bool)(interp, this, args, span) else "false"


def _function_to_string(interp, this, args, span):
    if not isinstance(this, (JSFunction, HostFunction)):
        raise ScriptError.type_error("`Function.prototype.toString` needs a function", span, "call it on a function")
    return plain_string(this)


def _error_to_string(interp, this, args, span):
    if not isinstance(this, JSObject):
        return plain_string(this)
    name = interp.get_property(this, "name", None, True)
    msg = interp.get_property(this, "message", None, True)
    name = "Error" if name is UNDEFINED else to_string(name)
    msg = "" if msg is UNDEFINED else to_string(msg)
    if not name:
        return msg
    return name + ": " + msg if msg else name


def _array_to_string(interp, this, args, span):
    if isinstance(this, JSArray):
        return array_join(this, ",")
    return _object_to_string(interp, this, args, span)


# The `length` of the built-in methods (ECMAScript 3, chapter 15: the number of named arguments); 0 otherwise.
_LENGTHS = {"charAt": 1, "charCodeAt": 1, "concat": 1, "indexOf": 1, "lastIndexOf": 1, "localeCompare": 1,
            "match": 1, "replace": 2, "search": 1, "slice": 2, "split": 2, "substring": 2, "substr": 2,
            "join": 1, "push": 1, "sort": 1, "splice": 2, "unshift": 1, "toString": 0, "toFixed": 1,
            "toExponential": 1, "toPrecision": 1, "hasOwnProperty": 1, "isPrototypeOf": 1,
            "propertyIsEnumerable": 1, "call": 1, "apply": 2, "exec": 1, "test": 1, "setTime": 1,
            "setMilliseconds": 1, "setUTCMilliseconds": 1, "setSeconds": 2, "setUTCSeconds": 2, "setMinutes": 3,
            "setUTCMinutes": 3, "setHours": 4, "setUTCHours": 4, "setDate": 1, "setUTCDate": 1, "setMonth": 2,
            "setUTCMonth": 2, "setFullYear": 3, "setUTCFullYear": 3}


def _method(n, f):
    if isinstance(f, HostFunction):
        return HostFunction(f.name, f.fn, length=_LENGTHS.get(n, 0))
    return _h(n, f, _LENGTHS.get(n, 0))


def _proto(protos, kind, methods: dict, cls="Object", value=None, parent=None):
    fns = {n: (_method(n, f) if callable(f) or isinstance(f, HostFunction) else f) for n, f in methods.items()}
    p = JSObject(fns, class_name=cls, proto=parent, value=value, hidden=set(fns))
    protos[kind] = p
    return p


def _ctor(name, fn, proto: JSObject, length=1, **props) -> HostFunction:
    c = HostFunction(name, fn, constructor=True, props={"prototype": proto, **props}, length=length)
    proto.props["constructor"] = c
    proto.hidden.add("constructor")
    return c


def _math_readonly(m: JSObject) -> JSObject:
    m.readonly = frozenset(k for k, v in m.props.items() if not isinstance(v, HostFunction))  # 15.8.1
    return m


def make_builtins(interp) -> dict:
    """The global names of one interpreter (``Math.random`` gets its own seeded generator)."""
    interp.random = random.Random(0)
    interp.new_target = None
    protos: dict = {}
    interp.protos = protos
    root = _proto(protos, "Object", {"hasOwnProperty": _has_own, "toString": _object_to_string,
                                     "toLocaleString": _object_to_locale_string, "valueOf": _object_value_of,
                                     "isPrototypeOf": _is_prototype_of,
                                     "propertyIsEnumerable": _property_is_enumerable})
    fproto = _proto(protos, "Function", {**S.METHODS["Function"], "toString": _function_to_string}, parent=root)
    aproto = _proto(protos, "Array", {**S.METHODS["Array"], "toString": _array_to_string}, parent=root)
    string_value = _primitive_of("String", str)
    sproto = _proto(protos, "String", {**S.METHODS["String"], "toString": string_value, "valueOf": string_value,
                                       "localeCompare": T.locale_compare, "match": R.match,
                                       "search": R.search}, cls="String", value="", parent=root)
    nproto = _proto(protos, "Number", {"toString": N.to_string_radix, "toLocaleString": N.to_string_radix,
                                       "valueOf": _primitive_of("Number", float), "toFixed": N.to_fixed,
                                       "toExponential": N.to_exponential, "toPrecision": N.to_precision},
                    cls="Number", value=0.0, parent=root)
    nproto.props["valueOf"] = _h("valueOf", lambda i, t, a, s: N.this_number(t, "valueOf", s))
    bproto = _proto(protos, "Boolean", {"toString": _boolean_to_string, "valueOf": _primitive_of("Boolean", bool)},
                    cls="Boolean", value=False, parent=root)
    dproto = _proto(protos, "Date", D.date_methods(), parent=root)
    rproto = _proto(protos, "RegExp", R.regexp_methods(), parent=root)
    eproto = _proto(protos, "Error", {"toString": _error_to_string, "name": "Error", "message": ""}, parent=root)
    g = {
        "Object": _ctor("Object", S._object, root),
        "Function": _ctor("Function", _function_ctor, fproto),
        "Array": _ctor("Array", S._array, aproto),
        "String": _ctor("String", S._string, sproto, fromCharCode=_h("fromCharCode", T.from_char_code, 1)),
        "Number": _ctor("Number", S._number, nproto, MAX_VALUE=1.7976931348623157e308, MIN_VALUE=5e-324,
                        NaN=math.nan, POSITIVE_INFINITY=math.inf, NEGATIVE_INFINITY=-math.inf),
        "Boolean": _ctor("Boolean", S._boolean, bproto),
        "Date": _ctor("Date", D.date_ctor, dproto, length=7, UTC=_h("UTC", D.date_utc, 7),
                      parse=_h("parse", D.date_parse, 1)),
        "Error": _ctor("Error", S._error_ctor("Error"), eproto),
        "RegExp": _ctor("RegExp", R.regexp_ctor, rproto, length=2),
    }
    for name in ERRORS[1:]:
        p = _proto(protos, name, {"name": name, "message": ""}, parent=eproto)
        g[name] = _ctor(name, S._error_ctor(name), p)
    g.update({
        "Math": _math_readonly(S._make_math()),
        "parseInt": _h("parseInt", S._parse_int, 2),
        "parseFloat": _h("parseFloat", S._parse_float, 1),
        "isNaN": _h("isNaN", S._is_nan, 1),
        "isFinite": _h("isFinite", S._is_finite, 1),
        "escape": _h("escape", T.escape, 1),
        "unescape": _h("unescape", T.unescape, 1),
        "encodeURI": _h("encodeURI", T.encode_uri, 1),
        "encodeURIComponent": _h("encodeURIComponent", T.encode_uri_component, 1),
        "decodeURI": _h("decodeURI", T.decode_uri, 1),
        "decodeURIComponent": _h("decodeURIComponent", T.decode_uri_component, 1),
        "eval": _h("eval", _eval, 1),
        "NaN": math.nan,
        "Infinity": math.inf,
        "undefined": UNDEFINED,
        "write": _h("write", S._write(False)),
        "writeln": _h("writeln", S._write(True)),
    })
    return g


def _eval(interp, this, args, span):
    direct = interp.direct_eval is not None
    interp.direct_eval = None
    v = args[0] if args else UNDEFINED
    return interp.eval_text(v, span, direct) if type(v) is str else v


def _function_ctor(interp, this, args, span):
    """``Function(p1, ..., body)`` (15.3.2.1): the text is parsed by the script parser (never Python)."""
    is_new(interp)
    return interp.make_function([to_string(a) for a in args[:-1]], to_string(args[-1]) if args else "", span)
