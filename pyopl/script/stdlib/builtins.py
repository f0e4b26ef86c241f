"""The standard library of IBM ILOG Script: the ECMAScript 3 built-ins OPL scripts use.

Globals: ``Math``, ``parseInt``, ``parseFloat``, ``isNaN``, ``isFinite``, ``Number``,
``String``, ``Boolean``, ``Array``, ``Object``, ``Error`` (and ``TypeError``,
``RangeError``), ``Date`` (``new Date()``, ``getTime()``), ``NaN``, ``Infinity``,
``undefined``, and the default ``write``/``writeln`` (which print through the
interpreter's ``output``; IBM's ``writeln`` joins its arguments with no separator).

Methods of primitive values and script arrays/objects live in :data:`METHODS`, by kind
(``"String"``, ``"Array"``, ``"Number"``, ``"Object"``, ``"Boolean"``, ``"Function"``).
Every function has the :class:`~pyopl.script.language.values.HostFunction` signature
``fn(interp, this, args, span)``.  Anything that allocates charges the interpreter's
memory budget first.
"""
from __future__ import annotations

import functools
import math
import re

from ..language.convert import (CHARS_PER_STEP, array_join, display, number_to_string, string_to_number, to_boolean, to_int32, to_number,
                                to_uint32,
                                to_string)
from .text import WHITESPACE, expand_replacement
from ..language.values import HOLE, NULL, UNDEFINED, HostFunction, JSArray, JSFunction, JSObject, ScriptError, is_new


def _text_work(interp, n: int, span) -> None:
    """Charge the step budget for scanning or copying ``n`` characters."""
    if n >= CHARS_PER_STEP:
        interp.charge(n // CHARS_PER_STEP, span)


def _arg(args, i):
    return args[i] if i < len(args) else UNDEFINED


def _int_arg(args, i, default):
    """ToInteger of argument ``i`` (9.4), or ``default`` when absent/undefined."""
    v = _arg(args, i)
    if v is UNDEFINED:
        return default
    n = to_number(v)
    if n != n:
        return 0
    if math.isinf(n):
        return n
    return int(n)


def _clamp(i, n):
    """A relative index (negative counts from the end) clamped to ``0..n``."""
    if i < 0:
        i = n + i
    return int(max(0, min(n, i)))


# --- Math ------------------------------------------------------------------------------

def _math1(f):
    def fn(interp, this, args, span):
        x = to_number(_arg(args, 0))
        try:
            return float(f(x))
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan
    return fn


def _round(x: float) -> float:
    """ECMAScript ``Math.round`` (15.8.2.15): the nearest integer, ties towards +infinity.

    Not ``floor(x + 0.5)``: that sum is rounded itself, so 0.49999999999999994 would give 1 and
    4503599627370497 (above 2**52 every double is an integer) 4503599627370498."""
    if x != x or math.isinf(x) or x.is_integer():
        return x
    r = math.floor(x)
    r = r + 1 if x - r >= 0.5 else r  # x - r is exact for |x| < 2**52
    return -0.0 if r == 0 and x < 0 else float(r)


def _floor(x):
    return x if (x != x or math.isinf(x) or x.is_integer()) else float(math.floor(x))


def _ceil(x):
    """``Math.ceil`` (15.8.2.6): -0 for -1 < x < 0 (and for -0)."""
    if x != x or math.isinf(x) or x.is_integer():
        return x
    return -0.0 if -1.0 < x < 0.0 else float(math.ceil(x))


def _pow(interp, this, args, span):
    x, y = to_number(_arg(args, 0)), to_number(_arg(args, 1))
    if y != y:
        return math.nan
    if y == 0:
        return 1.0
    if x != x:
        return math.nan
    if abs(x) == 1 and math.isinf(y):
        return math.nan
    try:
        return float(math.pow(x, y))
    except OverflowError:
        return math.inf if x > 0 or float(y).is_integer() and int(y) % 2 == 0 else -math.inf
    except (ValueError, ZeroDivisionError):
        if x == 0:  # 0 to a negative power
            return -math.inf if (math.copysign(1, x) < 0 and float(y).is_integer() and int(y) % 2) else math.inf
        return math.nan


def _minmax(pick_max: bool):
    """``Math.max``/``Math.min`` (15.8.2.11-12): NaN wins; +0 is larger than -0."""
    def fn(interp, this, args, span):
        best = -math.inf if pick_max else math.inf
        nan = False
        for a in args:
            x = to_number(a)
            if x != x:
                nan = True
            elif (x > best) if pick_max else (x < best):
                best = x
            elif x == 0 and best == 0 and (math.copysign(1, x) > 0) == pick_max:
                best = x
        return math.nan if nan else best
    return fn


def _atan2(interp, this, args, span):
    return math.atan2(to_number(_arg(args, 0)), to_number(_arg(args, 1)))


def _random(interp, this, args, span):
    return interp.random.random()


def _make_math() -> JSObject:
    m = {
        "PI": math.pi, "E": math.e, "LN2": math.log(2), "LN10": math.log(10), "LOG2E": math.log2(math.e),
        "LOG10E": math.log10(math.e), "SQRT2": math.sqrt(2), "SQRT1_2": math.sqrt(0.5),
    }
    unary = {"abs": abs, "ceil": _ceil, "floor": _floor, "round": _round, "sqrt": math.sqrt, "exp": math.exp,
             "log": lambda x: -math.inf if x == 0 else math.log(x), "sin": math.sin, "cos": math.cos,
             "tan": math.tan, "asin": math.asin, "acos": math.acos, "atan": math.atan}
    for name, f in unary.items():
        m[name] = HostFunction(name, _math1(f))
    m["pow"] = HostFunction("pow", _pow)
    m["max"] = HostFunction("max", _minmax(True))
    m["min"] = HostFunction("min", _minmax(False))
    m["atan2"] = HostFunction("atan2", _atan2)
    m["random"] = HostFunction("random", _random)
    return JSObject(m, class_name="Math", hidden=set(m))  # all DontEnum (15.8)


# --- global functions -------------------------------------------------------------------

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _parse_int(interp, this, args, span):
    s = to_string(_arg(args, 0)).lstrip(WHITESPACE)
    _text_work(interp, 64 * len(s), span)  # digit by digit in Python: a step per character
    radix = to_int32(_arg(args, 1))
    sign = 1.0
    if s[:1] in "+-" and s:
        sign = -1.0 if s[0] == "-" else 1.0
        s = s[1:]
    if radix == 0:
        radix = 10
        if s[:2].lower() == "0x":
            radix, s = 16, s[2:]
    elif radix == 16 and s[:2].lower() == "0x":
        s = s[2:]
    if radix < 2 or radix > 36:
        return math.nan
    n = 0
    count = 0
    for ch in s.lower():
        d = _DIGITS.find(ch)
        if d < 0 or d >= radix:
            break
        n = n * radix + d
        count += 1
    if count == 0:
        return math.nan
    try:
        return sign * float(n)
    except OverflowError:
        return sign * math.inf


_FLOAT_PREFIX = re.compile(r"[+-]?(Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)")


def _parse_float(interp, this, args, span):
    s = to_string(_arg(args, 0)).lstrip(WHITESPACE)
    _text_work(interp, len(s), span)
    m = _FLOAT_PREFIX.match(s)
    if not m:
        return math.nan
    return string_to_number(m.group(0))


def _is_nan(interp, this, args, span):
    x = to_number(_arg(args, 0))
    return x != x


def _is_finite(interp, this, args, span):
    x = to_number(_arg(args, 0))
    return not (x != x or math.isinf(x))


def _wrap(interp, kind: str, value, span) -> JSObject:
    interp.alloc(1, span)
    return JSObject(class_name=kind, proto=interp.protos[kind], value=value)


def _number(interp, this, args, span):
    """``Number(v)`` converts (15.7.1); ``new Number(v)`` makes a wrapper object (15.7.2)."""
    new = is_new(interp)
    v = to_number(args[0]) if args else 0.0
    return _wrap(interp, "Number", v, span) if new else v


def _string(interp, this, args, span):
    new = is_new(interp)
    v = to_string(args[0]) if args else ""
    return _wrap(interp, "String", v, span) if new else v


def _boolean(interp, this, args, span):
    new = is_new(interp)
    v = to_boolean(_arg(args, 0))
    return _wrap(interp, "Boolean", v, span) if new else v


def _array(interp, this, args, span):
    is_new(interp)
    if len(args) == 1 and (type(args[0]) is float or type(args[0]) is int):
        n = float(args[0])
        if n != n or math.isinf(n) or n < 0 or n != math.floor(n) or n > 4294967295:
            raise ScriptError.range_error("`new Array(%s)`: an array length is a whole number from 0"
                                          % number_to_string(n), span, "give a whole number of items")
        interp.alloc(int(n), span)
        return JSArray([HOLE] * int(n))
    interp.alloc(len(args), span)
    return JSArray(list(args))


def _object(interp, this, args, span):
    """``Object(v)``/``new Object(v)`` (15.2.1-2): an object as it is, a primitive wrapped, else ``{}``."""
    is_new(interp)
    v = _arg(args, 0)
    if isinstance(v, (JSObject, JSArray, JSFunction, HostFunction)):
        return v
    if type(v) is str:
        return _wrap(interp, "String", v, span)
    if type(v) is bool:
        return _wrap(interp, "Boolean", v, span)
    if type(v) is float or type(v) is int:
        return _wrap(interp, "Number", float(v), span)
    interp.alloc(1, span)
    return JSObject()


def _error_ctor(name):
    def fn(interp, this, args, span):
        is_new(interp)
        interp.alloc(2, span)
        msg = _arg(args, 0)
        props = {} if msg is UNDEFINED else {"message": to_string(msg)}
        return JSObject(props, class_name="Error", proto=interp.protos[name])
    return fn


def _write(newline: bool):
    def fn(interp, this, args, span):
        text = "".join(display(a) for a in args)
        interp.output(text + "\n" if newline else text)
        return UNDEFINED
    return fn


# --- String methods ---------------------------------------------------------------------

def _this_string(this) -> str:
    return this if type(this) is str else to_string(this)


def _char_at(interp, this, args, span):
    s = _this_string(this)
    i = _int_arg(args, 0, 0)
    return s[i] if 0 <= i < len(s) else ""


def _char_code_at(interp, this, args, span):
    s = _this_string(this)
    i = _int_arg(args, 0, 0)
    return float(ord(s[i])) if 0 <= i < len(s) else math.nan


def _index_of(interp, this, args, span):
    if isinstance(this, JSArray):
        interp.charge(len(this.items), span)
        from ..language.convert import strict_equals

        start = _int_arg(args, 1, 0)
        start = _clamp(start, len(this.items)) if start != math.inf else len(this.items)
        x = _arg(args, 0)
        for i in range(start, len(this.items)):
            if strict_equals(this.items[i], x):
                return float(i)
        return -1.0
    s = _this_string(this)
    _text_work(interp, len(s), span)
    sub = to_string(_arg(args, 0))
    start = _int_arg(args, 1, 0)
    start = int(max(0, min(len(s), start)))
    return float(s.find(sub, start))


def _last_index_of(interp, this, args, span):
    """``lastIndexOf(x, from)``: strings 15.5.4.8 (``from`` NaN or absent means the end), arrays
    as ES5 15.4.4.15 (``from`` negative counts from the end)."""
    if isinstance(this, JSArray):
        interp.charge(len(this.items), span)
        from ..language.convert import strict_equals

        n = len(this.items)
        start = _int_arg(args, 1, n - 1) if len(args) > 1 else n - 1
        start = min(start, n - 1) if start >= 0 else n + start
        x = _arg(args, 0)
        for i in range(int(start), -1, -1):
            if strict_equals(this.items[i], x):
                return float(i)
        return -1.0
    s = _this_string(this)
    _text_work(interp, len(s), span)
    sub = to_string(_arg(args, 0))
    pos = to_number(_arg(args, 1))
    start = len(s) if pos != pos else int(max(0, min(len(s), pos)))
    return float(s.rfind(sub, 0, start + len(sub)))


def _substring(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    n = len(s)
    a = _int_arg(args, 0, 0)
    b = _int_arg(args, 1, n)
    a, b = int(max(0, min(n, a))), int(max(0, min(n, b)))
    if a > b:
        a, b = b, a
    return s[a:b]


def _substr(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    n = len(s)
    a = _clamp(_int_arg(args, 0, 0), n)
    length = _int_arg(args, 1, n - a)
    length = int(max(0, min(n - a, length)))
    return s[a:a + length]


def _slice(interp, this, args, span):
    if isinstance(this, JSArray):
        n = len(this.items)
        interp.charge(n, span)
        a = _clamp(_int_arg(args, 0, 0), n)
        b = _clamp(_int_arg(args, 1, n), n)
        out = this.items[a:b] if b > a else []
        interp.alloc(len(out), span)
        return JSArray(out)
    s = _this_string(this)
    n = len(s)
    a = _clamp(_int_arg(args, 0, 0), n)
    b = _clamp(_int_arg(args, 1, n), n)
    return s[a:b] if b > a else ""


def _array_slice(interp, this, args, span):
    """``Array.prototype.slice`` (ES3 15.4.4.10): on an array, or generically on any object with a
    ``length`` and indexed properties (``Array.prototype.slice.call(arguments, 1)``)."""
    from ..language.convert import to_uint32

    if isinstance(this, JSArray) or not isinstance(this, JSObject):
        return _slice(interp, this, args, span) if isinstance(this, JSArray) else JSArray([])
    n = to_uint32(interp.get_property(this, "length", None, False))
    interp.charge(n, span)
    a = _clamp(_int_arg(args, 0, 0), n)
    b = _clamp(_int_arg(args, 1, n), n)
    out = [interp.get_property(this, str(k), None, False) for k in range(int(a), int(b))] if b > a else []
    interp.alloc(len(out), span)
    return JSArray(out)


def _split(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    sep = _arg(args, 0)
    limit = _arg(args, 1)
    if isinstance(sep, JSObject) and sep.class_name == "RegExp":
        from .regexp import split_regexp

        return split_regexp(interp, s, sep, limit, span)
    if sep is not UNDEFINED:
        sep = to_string(sep)
        interp.alloc(len(s) if sep == "" else s.count(sep) + 1, span)  # before building the pieces
    if sep is UNDEFINED:
        parts = [s]
    elif sep == "":
        parts = list(s)
    else:
        parts = s.split(sep)
    if limit is not UNDEFINED:
        parts = parts[:to_uint32(limit)]  # 15.5.4.14: the limit is ToUint32 (-1 is 4294967295)
    return JSArray(parts)


def _to_upper(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    return s.upper()


def _to_lower(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    return s.lower()


def _string_concat(interp, this, args, span):
    parts = [_this_string(this)] + [to_string(a) for a in args]
    interp.check_string(sum(len(p) for p in parts), span)
    return "".join(parts)


def _replace(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    pat = _arg(args, 0)
    rep = _arg(args, 1)
    if isinstance(pat, JSObject) and pat.class_name == "RegExp":
        from .regexp import replace_regexp

        return replace_regexp(interp, s, pat, rep, span)
    pat = to_string(pat)
    i = s.find(pat)
    if i < 0:
        return s
    if isinstance(rep, (JSFunction, HostFunction)):
        r = to_string(interp.call_value(rep, None, [pat, float(i), s], span))
    else:
        r = expand_replacement(to_string(rep), pat, i, s)
    interp.check_string(len(s) - len(pat) + len(r), span)
    return s[:i] + r + s[i + len(pat):]


def _trim(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    return s.strip(WHITESPACE)


def _value_of(interp, this, args, span):
    return this


# --- Array methods ----------------------------------------------------------------------

def _need_array(this, name, span) -> JSArray:
    if not isinstance(this, JSArray):
        raise ScriptError.type_error("`%s` is a method of arrays" % name, span, "call it on an array")
    return this


def _push(interp, this, args, span):
    a = _need_array(this, "push", span)
    interp.alloc(len(args), span)
    a.items.extend(args)
    return float(len(a.items))


def _pop(interp, this, args, span):
    a = _need_array(this, "pop", span)
    v = a.items.pop() if a.items else UNDEFINED
    return UNDEFINED if v is HOLE else v


def _shift(interp, this, args, span):
    a = _need_array(this, "shift", span)
    interp.charge(len(a.items), span)
    v = a.items.pop(0) if a.items else UNDEFINED
    return UNDEFINED if v is HOLE else v


def _unshift(interp, this, args, span):
    a = _need_array(this, "unshift", span)
    interp.charge(len(a.items), span)
    interp.alloc(len(args), span)
    a.items[0:0] = args
    return float(len(a.items))


def _join(interp, this, args, span):
    a = _need_array(this, "join", span)
    interp.charge(2 * len(a.items), span)
    sep = _arg(args, 0)
    sep = "," if sep is UNDEFINED else to_string(sep)
    parts = ["" if (x is UNDEFINED or x is NULL or x is HOLE) else to_string(x) for x in a.items]
    interp.check_string(sum(map(len, parts)) + len(sep) * max(0, len(parts) - 1), span)
    return sep.join(parts)


def _array_to_string(interp, this, args, span):
    if isinstance(this, JSArray):
        return array_join(this, ",")
    return to_string(this)


def _array_to_locale_string(interp, this, args, span):
    """15.4.4.3: each element's own ``toLocaleString()``, joined with commas."""
    a = _need_array(this, "toLocaleString", span)
    interp.charge(2 * len(a.items), span)
    parts = []
    for x in a.items:
        if x is UNDEFINED or x is NULL or x is HOLE:
            parts.append("")
            continue
        f = interp.get_property(x, "toLocaleString", None, True)
        if not isinstance(f, (JSFunction, HostFunction)):
            raise ScriptError.type_error("an array item has no `toLocaleString` method", span,
                                         "give the items a `toLocaleString` method")
        parts.append(to_string(interp.call_value(f, x, [], span)))
    interp.check_string(sum(map(len, parts)) + len(parts), span)
    return ",".join(parts)


def _reverse(interp, this, args, span):
    a = _need_array(this, "reverse", span)
    interp.charge(len(a.items), span)
    a.items.reverse()
    return a


def _concat(interp, this, args, span):
    if type(this) is str:
        return _string_concat(interp, this, args, span)
    a = this if isinstance(this, JSArray) else JSArray([this])  # 15.4.4.4: another object is one item
    interp.charge(len(a.items) + sum(len(x.items) for x in args if isinstance(x, JSArray)), span)
    out = list(a.items)
    for x in args:
        add = x.items if isinstance(x, JSArray) else [x]
        interp.alloc(len(add), span)
        out.extend(add)
    interp.alloc(len(a.items), span)
    return JSArray(out)


def _sort(interp, this, args, span):
    a = _need_array(this, "sort", span)
    n = len(a.items)
    interp.charge(n * max(1, n.bit_length()), span)  # n log n comparisons
    cmp = _arg(args, 0)
    values = [x for x in a.items if x is not UNDEFINED and x is not HOLE]
    undefs = sum(1 for x in a.items if x is UNDEFINED)
    holes = len(a.items) - len(values) - undefs  # 15.4.4.11: values, then undefined, then holes
    if cmp is UNDEFINED:
        values.sort(key=to_string)
    else:
        if not isinstance(cmp, (JSFunction, HostFunction)):
            raise ScriptError.type_error("`sort` takes a comparison function", span,
                                         "write `a.sort(function(x, y) { return x - y; })`")

        def compare(x, y):
            r = to_number(interp.call_value(cmp, None, [x, y], span))
            return 0 if r != r else (-1 if r < 0 else (1 if r > 0 else 0))
        values.sort(key=functools.cmp_to_key(compare))
    a.items[:] = values + [UNDEFINED] * undefs + [HOLE] * holes
    return a


def _splice(interp, this, args, span):
    a = _need_array(this, "splice", span)
    interp.charge(len(a.items), span)
    n = len(a.items)
    start = _clamp(_int_arg(args, 0, 0), n)
    count = _int_arg(args, 1, n - start)
    count = int(max(0, min(n - start, count)))
    removed = a.items[start:start + count]
    interp.alloc(len(args), span)
    a.items[start:start + count] = list(args[2:])
    return JSArray(removed)


# --- Object / Function methods ------------------------------------------------------------

def _has_own(interp, this, args, span):
    k = to_string(_arg(args, 0))
    if isinstance(this, JSObject):
        return k in this.props or (this.class_name == "String" and (k == "length" or (
            k.isdigit() and k.isascii() and int(k) < len(this.value))))
    if isinstance(this, JSArray):
        from ..language.properties import array_index

        i = array_index(k)
        if i is not None:
            return i < len(this.items) and this.items[i] is not HOLE
        return k == "length" or bool(this.props and k in this.props)
    if isinstance(this, JSFunction):
        return k in this.props or k in ("length", "prototype")
    if isinstance(this, HostFunction):
        return k == "length" or bool(this.props and k in this.props)
    if type(this) is str:
        return k == "length" or (k.isdigit() and k.isascii() and int(k) < len(this))
    return False


def _fn_call(interp, this, args, span):
    return interp.call_value(this, _arg(args, 0) if args else None, list(args[1:]), span)


def _fn_apply(interp, this, args, span):
    rest = _arg(args, 1)
    if isinstance(rest, JSArray):
        interp.charge(len(rest.items), span)  # the arguments are copied, one by one
        interp.alloc(len(rest.items), span)  # ... and held by the call's `arguments`
        items = [UNDEFINED if x is HOLE else x for x in rest.items]
    elif isinstance(rest, JSObject) and rest.class_name == "Arguments":
        n = int(to_number(rest.props.get("length", 0.0)))
        interp.charge(n, span)
        interp.alloc(n, span)
        items = [interp.get_property(rest, str(i), None, False) for i in range(n)]
    elif rest is UNDEFINED or rest is NULL:
        items = []
    else:
        raise ScriptError.type_error("`apply` takes an array (or `arguments`) of arguments", span,
                                     "write `f.apply(thisValue, [a, b])`")
    return interp.call_value(this, _arg(args, 0) if args else None, items, span)


def _h(name, fn):
    return HostFunction(name, fn)


METHODS = {
    "String": {n: _h(n, f) for n, f in {
        "charAt": _char_at, "charCodeAt": _char_code_at, "indexOf": _index_of, "lastIndexOf": _last_index_of,
        "substring": _substring, "substr": _substr, "slice": _slice, "split": _split,
        "toUpperCase": _to_upper, "toLowerCase": _to_lower, "toLocaleUpperCase": _to_upper,
        "toLocaleLowerCase": _to_lower, "concat": _string_concat, "replace": _replace, "trim": _trim}.items()},
    "Array": {n: _h(n, f) for n, f in {
        "push": _push, "pop": _pop, "shift": _shift, "unshift": _unshift, "join": _join, "sort": _sort,
        "slice": _array_slice, "splice": _splice, "concat": _concat, "indexOf": _index_of,
        "lastIndexOf": _last_index_of, "reverse": _reverse, "toString": _array_to_string,
        "toLocaleString": _array_to_locale_string}.items()},
    "Object": {n: _h(n, f) for n, f in {"hasOwnProperty": _has_own}.items()},
    "Function": {n: _h(n, f) for n, f in {"call": _fn_call, "apply": _fn_apply}.items()},
}
