"""Tuple types in indexing: an array over a set of `arc` tuples is indexed by `arc` tuples only
(IBM OPL language reference, "Tuples": two tuple types are different types even with the same
fields), or by a tuple literal `<...>` whose components fit the type's fields (all of them, or
its key fields).  Without this check a tuple of another type whose values happen to match is
silently accepted (OplTuple compares as a plain tuple)."""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplTuple, TupleType, show
from ...syntax import ast as A
from .errors import EvalError
from .int32 import expr_text


def foreign_tuple(idx: Any, domain: Any) -> bool:
    """``idx`` is a typed tuple of another tuple type than the elements of ``domain``."""
    if type(idx) is not OplTuple or idx.ttype is None:
        return False
    want = getattr(domain, "elem_type", None)
    return want is not idx.ttype and isinstance(want, TupleType) and want.name != idx.ttype.name


def check_tuple_index(array: str, domain: Any, idx: Any, idx_node: A.Node) -> None:
    """Raise the type error for indexing ``array`` (over ``domain``) with a tuple that does not
    fit ``domain``'s tuple type: another tuple type (OPL0217), or a literal of the wrong arity or
    field types (OPL1103).  Anything else passes (a missing element is reported later)."""
    want = getattr(domain, "elem_type", None)
    if not isinstance(want, TupleType) or not isinstance(idx, tuple):
        return
    if type(idx) is OplTuple and idx.ttype is not None:
        if idx.ttype.name != want.name:
            text = expr_text(idx_node)
            what = "`%s`" % text if text else show(idx)
            raise EvalError("tuple-type-mismatch", idx_node.span,
                            "`%s` is indexed by `%s` tuples, but %s is of tuple type `%s`" % (
                                array, want.name, what, idx.ttype.name),
                            help="tuple types differ even when their fields match; index with a `%s`%s" % (
                                want.name, ", e.g. `%s[<%s>]` built from its fields" % (array, ", ".join(
                                    "%s.%s" % (text, f) for f in idx.ttype.fields)) if text else ""))
        return
    fields = _fits(want, idx)
    if fields is None:
        shapes = ["<%s>" % ", ".join("%s %s" % (_type_word(t), f) for f, t in zip(want.fields, want.types))]
        if want.keys and len(want.keys) != len(want.fields):
            shapes.append("<%s>" % ", ".join("%s %s" % (_type_word(want.types[want.index(k)]), k) for k in want.keys))
        raise EvalError("index-tuple-type-mismatch", idx_node.span,
                        "`%s` is indexed by `%s` tuples, but %s does not fit `%s`" % (array, want.name, show(idx), want.name),
                        help="write the tuple as %s" % " or ".join("`%s`" % s for s in shapes))


def _fits(t: TupleType, idx: tuple) -> Any:
    """The field types ``idx`` is matched against (all fields, or the key fields), or None."""
    candidates = [t.types]
    if t.keys:
        candidates.append([t.types[t.index(k)] for k in t.keys])
    for types in candidates:
        if len(types) == len(idx) and all(_value_fits(ft, v) for ft, v in zip(types, idx)):
            return types
    return None


def _value_fits(ft: Any, v: Any) -> bool:
    if ft == "int":
        return type(v) is int or type(v) is bool
    if ft == "float":
        return type(v) in (int, float)
    if ft == "string":
        return type(v) is str
    if ft == "boolean":
        return type(v) in (bool, int)
    if isinstance(ft, TupleType):
        return isinstance(v, tuple) and (not isinstance(v, OplTuple) or v.ttype is None or v.ttype.name == ft.name)
    return True  # a field type this check does not model (a set, an array): not refused here


def _type_word(t: Any) -> str:
    return t.name if isinstance(t, TupleType) else str(t)
