"""ECMAScript 3 type conversions (section 9) and equality (11.9) over script values.

Numbers are Python floats; a Python ``int`` from the host is a number too (converted with
``float`` where arithmetic needs it, so results are doubles as in ECMAScript).
"""
from __future__ import annotations

import math
import re
import threading
from decimal import Decimal

from .values import HOLE, NULL, UNDEFINED, HostFunction, HostObject, JSArray, JSFunction, JSObject


def is_number(v) -> bool:
    return (type(v) is float) or (type(v) is int)


def number_to_string(x: float) -> str:
    """ECMAScript Number::toString (9.8.1) for radix 10.

    Python's ``repr`` of a float is the shortest string that reads back as the same
    double, which is the digit string the ECMAScript algorithm asks for; only the layout
    (where the point goes, when an exponent is used) differs and is redone here.
    """
    if type(x) is int:
        if -(2 ** 53) <= x <= 2 ** 53:
            return str(x)
        try:
            x = float(x)
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if x != x:
        return "NaN"
    if x == 0:
        return "0"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x < 0:
        return "-" + number_to_string(-x)
    if x < 9007199254740992.0 and x.is_integer():  # below 2**53 every integer's digits are exact
        return str(int(x))
    r = repr(x)
    if "e" not in r and not r.endswith(".0"):  # 1e-4 <= x < 1e16 with a fraction: the same text as JavaScript
        return r
    sign, digits, exp = Decimal(r).as_tuple()
    ds = "".join(map(str, digits)).lstrip("0")
    stripped = ds.rstrip("0")
    exp += len(ds) - len(stripped)
    s, k = stripped, len(stripped)
    n = exp + k  # value = 0.s * 10**n
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return s + "e" + es
    return s[0] + "." + s[1:] + "e" + es


_DECIMAL = re.compile(r"[+-]?(Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)\Z")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+\Z")
_WS = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
       "\u2028\u2029\u202f\u205f\u3000\ufeff")  # white space and line terminators (7.2, 7.3)


def string_to_number(s: str) -> float:
    """ToNumber applied to a string (9.3.1): blank is 0, otherwise a decimal or hex literal or NaN."""
    t = s.strip(_WS)
    if not t:
        return 0.0
    if len(t) >= CHARS_PER_STEP:  # converting a long text is work: charged as string work is
        interp = getattr(ACTIVE, "interp", None)
        if interp is not None:
            interp.charge(len(t) // CHARS_PER_STEP, interp.last_span)
    if _HEX.match(t):
        return float(int(t, 16))
    if _DECIMAL.match(t):
        if t.endswith("Infinity"):
            return -math.inf if t.startswith("-") else math.inf
        return float(t)
    return math.nan


def to_number(v) -> float:
    """ToNumber (9.3)."""
    t = type(v)
    if t is float:
        return v
    if t is int:
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf
    if t is bool:
        return 1.0 if v else 0.0
    if t is str:
        return string_to_number(v)
    if v is UNDEFINED:
        return math.nan
    if v is NULL:
        return 0.0
    if isinstance(v, HostObject):
        n = v.to_number()
        return to_number(n) if not isinstance(n, HostObject) else math.nan
    return to_number(to_primitive(v, "number"))


def to_primitive(v, hint: str = "default"):
    """ToPrimitive (9.1, 8.6.2.6): an object's own or inherited ``valueOf``/``toString`` decide
    (``valueOf`` first for hint "number" and "default", ``toString`` first for "string" and for a
    Date's "default"), run by the interpreter of this thread; a host object answers itself."""
    if isinstance(v, (JSObject, JSArray, JSFunction, HostFunction)):
        interp = getattr(ACTIVE, "interp", None)
        if interp is None:  # outside a run (a message being written): no script code runs
            return plain_string(v)
        return interp.to_primitive(v, hint)
    if isinstance(v, HostObject):
        p = v.to_number() if hint == "number" else v.to_primitive()
        return p if not isinstance(p, (HostObject, JSObject, JSArray)) else v.to_display()
    return v


def plain_string(v) -> str:
    """ToString without running script code: what the built-in ``toString`` methods give
    (used for messages, and by those built-ins themselves)."""
    if isinstance(v, JSArray):
        return array_join(v, ",")
    if isinstance(v, JSObject):
        if v.value is not None and v.class_name in ("Number", "String", "Boolean"):
            return to_string(v.value)
        if v.class_name != "Error" and _inherited(v, "name", None) is None and _inherited(v, "message", None) is not None:
            return "[object %s] with message %s" % (v.class_name, plain_string(_inherited(v, "message", "")))
        if v.class_name == "Error" or _inherited(v, "message", None) is not None:  # error-like: name and message
            name = _inherited(v, "name", "Error")
            msg = _inherited(v, "message", "")
            name = "Error" if name is UNDEFINED else plain_string(name)
            msg = "" if msg is UNDEFINED else plain_string(msg)
            return name + ": " + msg if msg else name
        return "[object %s]" % v.class_name
    if isinstance(v, JSFunction):
        return "function %s() { [script code] }" % (v.node.name or "")
    if isinstance(v, HostFunction):
        return "function %s() { [native code] }" % v.name
    return to_string(v)


def _inherited(o, name, default):
    while o is not None:
        if name in o.props:
            return o.props[name]
        o = o.proto
    return default


def to_string(v) -> str:
    """ToString (9.8)."""
    t = type(v)
    if t is str:
        return v
    if t is float or t is int:
        return number_to_string(v)
    if t is bool:
        return "true" if v else "false"
    if v is UNDEFINED:
        return "undefined"
    if v is NULL:
        return "null"
    if isinstance(v, (JSObject, JSArray, JSFunction, HostFunction)):
        return to_string(to_primitive(v, "string"))
    if isinstance(v, HostObject):
        return v.to_display()
    return str(v)


CHARS_PER_STEP = 64  # string work counted as one step of the budget (see Interpreter.charge)
ACTIVE = threading.local()  # ACTIVE.interp: the interpreter running in this thread, charged for implicit joins
_MAX_JOIN_DEPTH = 1000
_JOINING: set = set()  # arrays being joined (a cyclic array prints as empty, as engines do)


def array_join(a: JSArray, sep: str) -> str:
    if id(a) in _JOINING:
        return ""
    if len(_JOINING) > _MAX_JOIN_DEPTH:  # arrays nested this deep: stop before the C stack does
        raise RecursionError("arrays nested too deeply to print")
    interp = getattr(ACTIVE, "interp", None)
    if interp is not None:
        interp.charge(2 * len(a.items), interp.last_span)
    _JOINING.add(id(a))
    try:
        return sep.join("" if (x is UNDEFINED or x is NULL or x is HOLE) else to_string(x) for x in a.items)
    finally:
        _JOINING.discard(id(a))


def display(v) -> str:
    """How ``write``/``writeln`` show a value: host objects as OPL writes them, else ToString."""
    if isinstance(v, HostObject):
        return v.to_display()
    return to_string(v)


def to_boolean(v) -> bool:
    """ToBoolean (9.2)."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        return not (v == 0 or v != v)
    if t is int:
        return v != 0
    if t is str:
        return len(v) > 0
    if v is UNDEFINED or v is NULL:
        return False
    return True


def typeof(v) -> str:
    """The ``typeof`` operator (11.4.3)."""
    t = type(v)
    if t is float or t is int:
        return "number"
    if t is str:
        return "string"
    if t is bool:
        return "boolean"
    if v is UNDEFINED:
        return "undefined"
    if isinstance(v, (JSFunction, HostFunction)):
        return "function"
    return "object"


def to_int32(v) -> int:
    """ToInt32 (9.5)."""
    n = to_number(v)
    if n != n or math.isinf(n):
        return 0
    i = int(n) & 0xFFFFFFFF
    return i - 0x100000000 if i >= 0x80000000 else i


def to_uint32(v) -> int:
    """ToUint32 (9.6)."""
    n = to_number(v)
    if n != n or math.isinf(n):
        return 0
    return int(n) & 0xFFFFFFFF


def _is_object(v) -> bool:
    return isinstance(v, (JSObject, JSArray, JSFunction, HostFunction, HostObject))


def strict_equals(a, b) -> bool:
    """``===`` (11.9.6)."""
    if is_number(a) and is_number(b):
        return a == b  # NaN != NaN, 0 == -0
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) is str and type(b) is str:
        return a == b
    if _is_object(a) or _is_object(b):
        if a is b:
            return True
        if isinstance(a, HostObject) and isinstance(b, HostObject):
            return host_equal(a, b)
        return False
    return a is b  # undefined, null


def host_equal(a: HostObject, b: HostObject) -> bool:
    """Two host objects are the same OPL value when the host says so (``__eq__``, e.g. tuples)."""
    try:
        return bool(a == b)
    except Exception:  # a host __eq__ that fails means "different"
        return False


def loose_equals(a, b) -> bool:
    """``==`` (11.9.3), with its conversions."""
    if (a is UNDEFINED or a is NULL) and (b is UNDEFINED or b is NULL):
        return True
    if a is UNDEFINED or a is NULL or b is UNDEFINED or b is NULL:
        return False
    if is_number(a) and is_number(b):
        return a == b
    if type(a) is str and type(b) is str:
        return a == b
    if type(a) is bool and type(b) is bool:
        return a == b
    if _is_object(a) and _is_object(b):
        return strict_equals(a, b)
    if type(a) is bool:
        return loose_equals(to_number(a), b)
    if type(b) is bool:
        return loose_equals(a, to_number(b))
    if is_number(a) and type(b) is str:
        return a == string_to_number(b)
    if type(a) is str and is_number(b):
        return string_to_number(a) == b
    if _is_object(a):
        p = to_primitive(a)
        return False if _is_object(p) else loose_equals(p, b)
    if _is_object(b):
        p = to_primitive(b)
        return False if _is_object(p) else loose_equals(a, p)
    return False
