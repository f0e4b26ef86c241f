"""Short descriptions of script values and expressions for diagnostic messages."""
from __future__ import annotations

from . import ast as A
from .convert import is_number, plain_string, to_string
from .values import NULL, UNDEFINED, HostFunction, HostObject, JSArray, JSFunction, JSObject


def kind(v) -> str:
    if is_number(v):
        return "number %s" % to_string(v)
    if type(v) is str:
        return "string %s" % shown(v)
    if type(v) is bool:
        return "boolean %s" % to_string(v)
    if isinstance(v, HostObject):
        return "`%s`" % v.type_name
    if isinstance(v, JSArray):
        return "array"
    if isinstance(v, (JSFunction, HostFunction)):
        return "function"
    if v is UNDEFINED or v is NULL:
        return to_string(v)
    return "object"


def shown(v) -> str:
    """A value as it appears in a message: strings quoted, the rest as ToString."""
    if type(v) is str:
        s = v if len(v) <= 60 else v[:57] + "..."
        return '`"%s"`' % s
    if isinstance(v, JSObject) and v.class_name == "Error":
        return "`%s`" % plain_string(v)
    return "`%s`" % (v.to_display() if isinstance(v, HostObject) else plain_string(v))[:60]


def describe(node) -> str:
    """Short source-like text of an expression for messages: `a.b`, `x[...]`, `f(...)`."""
    text = _text(node, 0)
    return "`%s`" % text if text else "this value"


def _text(node, depth: int) -> str:
    if depth > 6:
        return "..."
    if isinstance(node, A.Name):
        return node.name
    if isinstance(node, A.This):
        return "this"
    if isinstance(node, A.Member):
        inner = _text(node.obj, depth + 1)
        return inner + "." + node.name if inner else ""
    if isinstance(node, A.Index):
        inner = _text(node.obj, depth + 1)
        key = node.key
        k = _text(key, depth + 1) if isinstance(key, (A.Name, A.Member)) else (
            to_string(key.value) if isinstance(key, A.Literal) and not isinstance(key.value, str) else
            ('"%s"' % key.value if isinstance(key, A.Literal) else "..."))
        return inner + "[" + k + "]" if inner else ""
    if isinstance(node, A.Call):
        inner = _text(node.callee, depth + 1)
        return inner + "(...)" if inner else ""
    return ""
