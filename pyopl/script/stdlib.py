"""The standard library of IBM ILOG Script: the ECMAScript 3 built-ins OPL scripts use.

Globals: ``Math``, ``parseInt``, ``parseFloat``, ``isNaN``, ``isFinite``, ``Number``,
``String``, ``Boolean``, ``Array``, ``Object``, ``Error`` (and ``TypeError``,
``RangeError``), ``Date`` (``new Date()``, ``getTime()``), ``NaN``, ``Infinity``,
``undefined``, and the default ``write``/``writeln`` (which print through the
interpreter's ``output``; IBM's ``writeln`` joins its arguments with no separator).

Methods of primitive values and script arrays/objects live in :data:`METHODS`, by kind
(``"String"``, ``"Array"``, ``"Number"``, ``"Object"``, ``"Boolean"``, ``"Function"``).
Every function has the :class:`~pyopl.script.values.HostFunction` signature
``fn(interp, this, args, span)``.  Anything that allocates charges the interpreter's
memory budget first.
"""
from __future__ import annotations

import functools
import math
import random
import re
import time
from decimal import ROUND_HALF_UP, Decimal

from .convert import (CHARS_PER_STEP, array_join, display, number_to_string, string_to_number, to_boolean, to_int32, to_number,
                      to_string)
from .values import NULL, UNDEFINED, HostFunction, JSArray, JSFunction, JSObject, ScriptError


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
    return x if (x != x or math.isinf(x)) else float(math.floor(x))


def _ceil(x):
    return x if (x != x or math.isinf(x)) else float(math.ceil(x))


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
    def fn(interp, this, args, span):
        best = -math.inf if pick_max else math.inf
        for a in args:
            x = to_number(a)
            if x != x:
                return math.nan
            if (x > best) if pick_max else (x < best):
                best = x
        return best
    return fn


def _atan2(interp, this, args, span):
    return math.atan2(to_number(_arg(args, 0)), to_number(_arg(args, 1)))


def _random(interp, this, args, span):
    return interp.random.random()


def _make_math() -> JSObject:
    m = {
        "PI": math.pi, "E": math.e, "LN2": math.log(2), "LN10": math.log(10), "LOG2E": 1 / math.log(2),
        "LOG10E": 1 / math.log(10), "SQRT2": math.sqrt(2), "SQRT1_2": math.sqrt(0.5),
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
    return JSObject(m, class_name="Math")


# --- global functions -------------------------------------------------------------------

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _parse_int(interp, this, args, span):
    s = to_string(_arg(args, 0)).lstrip(" \t\n\r\v\f\u00a0\ufeff")
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
    s = to_string(_arg(args, 0)).lstrip(" \t\n\r\v\f\u00a0\ufeff")
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


def _number(interp, this, args, span):
    return to_number(args[0]) if args else 0.0


def _string(interp, this, args, span):
    return to_string(args[0]) if args else ""


def _boolean(interp, this, args, span):
    return to_boolean(_arg(args, 0))


def _array(interp, this, args, span):
    if len(args) == 1 and (type(args[0]) is float or type(args[0]) is int):
        n = float(args[0])
        if n != n or n < 0 or n != math.floor(n) or n > 4294967295:
            raise ScriptError.type_error("`new Array(%s)`: an array length is a whole number from 0"
                                         % number_to_string(n), span, "give a whole number of items")
        interp.alloc(int(n), span)
        return JSArray([UNDEFINED] * int(n))
    interp.alloc(len(args), span)
    return JSArray(list(args))


def _object(interp, this, args, span):
    v = _arg(args, 0)
    if isinstance(v, (JSObject, JSArray)):
        return v
    interp.alloc(1, span)
    return JSObject()


def _error_ctor(name):
    def fn(interp, this, args, span):
        interp.alloc(2, span)
        msg = _arg(args, 0)
        return JSObject({"name": name, "message": "" if msg is UNDEFINED else to_string(msg)}, class_name="Error")
    return fn


def _date(interp, this, args, span):
    interp.alloc(1, span)
    ms = to_number(args[0]) if args else float(int(time.time() * 1000))
    return JSObject({"__time": ms}, class_name="Date")


def _write(newline: bool):
    def fn(interp, this, args, span):
        text = "".join(display(a) for a in args)
        interp.output(text + "\n" if newline else text)
        return UNDEFINED
    return fn


def make_builtins(interp) -> dict:
    """The global built-ins for one interpreter (``Math.random`` gets its own seeded generator)."""
    interp.random = random.Random(0)
    g = {
        "Math": _make_math(),
        "parseInt": HostFunction("parseInt", _parse_int),
        "parseFloat": HostFunction("parseFloat", _parse_float),
        "isNaN": HostFunction("isNaN", _is_nan),
        "isFinite": HostFunction("isFinite", _is_finite),
        "Number": HostFunction("Number", _number, constructor=True),
        "String": HostFunction("String", _string, constructor=True),
        "Boolean": HostFunction("Boolean", _boolean, constructor=True),
        "Array": HostFunction("Array", _array, constructor=True),
        "Object": HostFunction("Object", _object, constructor=True),
        "Error": HostFunction("Error", _error_ctor("Error"), constructor=True),
        "TypeError": HostFunction("TypeError", _error_ctor("TypeError"), constructor=True),
        "RangeError": HostFunction("RangeError", _error_ctor("RangeError"), constructor=True),
        "Date": HostFunction("Date", _date, constructor=True),
        "NaN": math.nan,
        "Infinity": math.inf,
        "undefined": UNDEFINED,
        "write": HostFunction("write", _write(False)),
        "writeln": HostFunction("writeln", _write(True)),
    }
    return g


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
        from .convert import strict_equals

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
    if isinstance(this, JSArray):
        interp.charge(len(this.items), span)
        from .convert import strict_equals

        x = _arg(args, 0)
        for i in range(len(this.items) - 1, -1, -1):
            if strict_equals(this.items[i], x):
                return float(i)
        return -1.0
    s = _this_string(this)
    _text_work(interp, len(s), span)
    return float(s.rfind(to_string(_arg(args, 0))))


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


def _split(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    sep = _arg(args, 0)
    limit = _arg(args, 1)
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
        parts = parts[:max(0, to_int32(limit))]
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
    pat = to_string(_arg(args, 0))
    rep = _arg(args, 1)
    i = s.find(pat)
    if i < 0:
        return s
    if isinstance(rep, (JSFunction, HostFunction)):
        r = to_string(interp.call_value(rep, None, [pat, float(i), s], span))
    else:
        r = to_string(rep)
    interp.check_string(len(s) - len(pat) + len(r), span)
    return s[:i] + r + s[i + len(pat):]


def _trim(interp, this, args, span):
    s = _this_string(this)
    _text_work(interp, len(s), span)
    return s.strip(" \t\n\r\v\f\u00a0\ufeff")


def _to_string(interp, this, args, span):
    if (type(this) is float or type(this) is int) and _arg(args, 0) is not UNDEFINED:
        return _radix_string(to_number(this), to_int32(args[0]), span)
    return to_string(this)


def _value_of(interp, this, args, span):
    return this


def _radix_string(x: float, radix: int, span) -> str:
    if radix < 2 or radix > 36:
        raise ScriptError.type_error("`toString` takes a radix from 2 to 36, not %d" % radix, span,
                                     "write `n.toString(2)` ... `n.toString(36)`")
    if radix == 10 or x != x or math.isinf(x):
        return number_to_string(x)
    neg = x < 0
    x = abs(x)
    whole = int(x)
    frac = x - whole
    digits = ""
    while True:
        whole, d = divmod(whole, radix)
        digits = _DIGITS[d] + digits
        if whole == 0:
            break
    if frac:
        digits += "."
        for _ in range(20):
            frac *= radix
            d = int(frac)
            digits += _DIGITS[d]
            frac -= d
            if not frac:
                break
    return ("-" if neg else "") + digits


def _to_fixed(interp, this, args, span):
    x = to_number(this)
    d = _int_arg(args, 0, 0)
    if d != d or d < 0 or d > 20:
        raise ScriptError.type_error("`toFixed` takes 0 to 20 digits, not %s" % to_string(_arg(args, 0)), span,
                                     "write e.g. `x.toFixed(2)`")
    if x != x:
        return "NaN"
    if abs(x) >= 1e21 or math.isinf(x):
        return number_to_string(x)
    # ECMAScript 15.7.4.5: the sign of x < 0 (-1e-7 gives "-0.00", -0 gives "0.00"), then of two equally
    # near results the larger, i.e. round half up on |x|
    q = Decimal(abs(x)).quantize(Decimal(1).scaleb(-int(d)), rounding=ROUND_HALF_UP)
    s = "{:f}".format(q)
    return ("-" + s) if x < 0 else s


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
    return a.items.pop() if a.items else UNDEFINED


def _shift(interp, this, args, span):
    a = _need_array(this, "shift", span)
    interp.charge(len(a.items), span)
    return a.items.pop(0) if a.items else UNDEFINED


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
    parts = ["" if (x is UNDEFINED or x is NULL) else to_string(x) for x in a.items]
    interp.check_string(sum(map(len, parts)) + len(sep) * max(0, len(parts) - 1), span)
    return sep.join(parts)


def _array_to_string(interp, this, args, span):
    if isinstance(this, JSArray):
        return array_join(this, ",")
    return to_string(this)


def _reverse(interp, this, args, span):
    a = _need_array(this, "reverse", span)
    interp.charge(len(a.items), span)
    a.items.reverse()
    return a


def _concat(interp, this, args, span):
    if type(this) is str:
        return _string_concat(interp, this, args, span)
    a = _need_array(this, "concat", span)
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
    values = [x for x in a.items if x is not UNDEFINED]
    holes = len(a.items) - len(values)
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
    a.items[:] = values + [UNDEFINED] * holes
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
        return k in this.props
    if isinstance(this, JSArray):
        return (k.isdigit() and int(k) < len(this.items)) or bool(this.props and k in this.props)
    return False


def _fn_call(interp, this, args, span):
    return interp.call_value(this, _arg(args, 0) if args else None, list(args[1:]), span)


def _fn_apply(interp, this, args, span):
    rest = _arg(args, 1)
    items = list(rest.items) if isinstance(rest, JSArray) else []
    return interp.call_value(this, _arg(args, 0) if args else None, items, span)


def _date_get_time(interp, this, args, span):
    if isinstance(this, JSObject) and "__time" in this.props:
        return this.props["__time"]
    return math.nan


def _h(name, fn):
    return HostFunction(name, fn)


METHODS = {
    "String": {n: _h(n, f) for n, f in {
        "charAt": _char_at, "charCodeAt": _char_code_at, "indexOf": _index_of, "lastIndexOf": _last_index_of,
        "substring": _substring, "substr": _substr, "slice": _slice, "split": _split,
        "toUpperCase": _to_upper, "toLowerCase": _to_lower, "concat": _concat, "replace": _replace,
        "trim": _trim, "toString": _to_string, "valueOf": _value_of}.items()},
    "Array": {n: _h(n, f) for n, f in {
        "push": _push, "pop": _pop, "shift": _shift, "unshift": _unshift, "join": _join, "sort": _sort,
        "slice": _slice, "splice": _splice, "concat": _concat, "indexOf": _index_of,
        "lastIndexOf": _last_index_of, "reverse": _reverse, "toString": _array_to_string}.items()},
    "Number": {n: _h(n, f) for n, f in {"toFixed": _to_fixed, "toString": _to_string, "valueOf": _value_of}.items()},
    "Boolean": {n: _h(n, f) for n, f in {"toString": _to_string, "valueOf": _value_of}.items()},
    "Object": {n: _h(n, f) for n, f in {"hasOwnProperty": _has_own, "toString": _to_string,
                                         "getTime": _date_get_time}.items()},
    "Function": {n: _h(n, f) for n, f in {"call": _fn_call, "apply": _fn_apply}.items()},
}
