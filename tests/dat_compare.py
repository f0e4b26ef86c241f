"""One comparison of the .dat fast path with the full parser, for the tests that read data both ways."""
from __future__ import annotations

from pyopl.data.fastpath import parse_data_fast
from pyopl.data.parser import DataItem, UnfilledRows, UnfilledTuples, parse_data
from pyopl.diagnostics.reporter import Reporter


def shape(v):
    """A comparable picture of a parsed value: types, values and spans, recursively."""
    if isinstance(v, DataItem):
        return ("item", v.name, shape(v.value), v.span, v.name_span, v.value_span, v.file)
    if isinstance(v, tuple) and v and v[0] == "include":
        return v
    if isinstance(v, dict):
        return (type(v).__name__, getattr(v, "span", None), [(k, shape(x)) for k, x in v.items()])
    if isinstance(v, list):  # (a bulk-read set or matrix, filled when read through DataItem.value: a DSet, a DList)
        name = {UnfilledTuples: "DSet", UnfilledRows: "DList"}.get(type(v), type(v).__name__)
        return (name, getattr(v, "span", None), [shape(x) for x in v])
    if isinstance(v, float) and v != v:
        return ("nan",)
    return (type(v).__name__, repr(v), getattr(v, "span", None))


def both_with(module, name: str, value, text: str):
    """:func:`both` with ``module.name`` set to ``value`` meanwhile (a threshold of the fast path)."""
    real = getattr(module, name)
    setattr(module, name, value)
    try:
        return both(text)
    finally:
        setattr(module, name, real)


def both(text: str):
    """(full parser's values, fast path's values, full parser's diagnostics, fast path's diagnostics) of ``text``."""
    r1, r2 = Reporter(), Reporter()
    slow = parse_data(text, "d.dat", r1)
    fast = parse_data_fast(text, "d.dat", r2)
    diags = lambda r: [(d.code, d.severity, d.message, d.span, d.help) for d in r.diagnostics]
    return [shape(x) for x in slow], [shape(x) for x in fast], diags(r1), diags(r2)
