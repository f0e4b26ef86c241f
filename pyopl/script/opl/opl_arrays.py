"""The array functions of the ``Opl`` namespace in scripts: ``Opl.element``, ``Opl.standardDeviation``
(OPL Language Quick Reference) and ``Opl.append`` (CP Optimizer's ``append`` as IBM's scripts reach it)."""
from __future__ import annotations

import math
from typing import Any

from .host_errors import host_error
from .opl_objects import _arg, _Host, _num, describe as _words, js_number, to_script


def _flat_values(ctx: Any, args: list, span: Any, fname: str) -> list:
    """The values of the OPL array (or sub-array) ``args[0]`` in its flattened order (the product of its
    index sets, last index fastest), as IBM's ``element`` and ``standardDeviation`` read it."""
    import itertools

    from .opl_objects import ArrayHost

    v = _arg(args, 0)
    if not isinstance(v, ArrayHost):
        raise host_error("script-value-type", "`Opl.%s` takes an OPL array first, not %s" % (fname, _words(v)), span,
                         help="pass an array declared in the model, e.g. `Opl.%s(a, ...)`" % fname)
    arr, pre = v.array, tuple(v.prefix)
    data = arr.data
    return [data.get(pre + k) for k in itertools.product(*(list(d) for d in arr.dims[len(pre):]))]


def element(ctx: Any, args: list, span: Any) -> Any:
    """``Opl.element(a, n)`` (OPL Language Quick Reference, "element"): the item at position ``n`` (from
    0) of the flattened array ``a``."""
    vals = _flat_values(ctx, args, span, "element")
    k = _num(ctx, _arg(args, 1), span, "the position")
    if not float(k).is_integer() or not 0 <= k < len(vals):
        raise host_error("script-index-out-of-range", "`Opl.element`: position %s is outside 0..%d" % (
            js_number(k), len(vals) - 1), span, help="positions count from 0 in the flattened array")
    return to_script(ctx, vals[int(k)])


def std_dev(ctx: Any, args: list, span: Any) -> float:
    """``Opl.standardDeviation(a)`` (OPL Language Quick Reference, "standardDeviation"): the standard
    deviation of the array's values with the n formula (not n - 1)."""
    vals = [_num(ctx, x, span, "an item") for x in _flat_values(ctx, args, span, "standardDeviation")]
    if not vals:
        raise host_error("script-value-type", "`Opl.standardDeviation` of an empty array", span,
                         help="pass an array with at least one item")
    mean = sum(vals) / len(vals)
    return math.sqrt(sum((x - mean) ** 2 for x in vals) / len(vals))


def append(args: list, span: Any) -> Any:
    """``Opl.append(a, b, ...)``: a script array of the elements of the arrays given (an OPL array's items in
    index order, a script array's items) and of the other arguments themselves, in order (OPL's ``append``
    as IBM's scripts reach it, e.g. for ``cp.factory.searchPhase(Opl.append(s, d))``)."""
    from ..language.values import JSArray

    out: list = []
    for v in args:
        if isinstance(v, JSArray):
            out.extend(v.items)
        elif isinstance(v, _Host) and list(v.iter_keys()):
            out.extend(v.get_index(k, span) for k in v.iter_keys())
        else:
            out.append(v)
    return JSArray(out)
