"""``sum(<s, d, c, u> in Arcs) c * flow[<s, d, c, u>]`` as ``sum($t in Arcs) $t.cost * flow[$t]``.

:func:`~pyopl.lowering.vectorised.vector_sum` takes binders of one name only; a binder that
destructures the set's tuples with a pattern was summed term by term (a tree walk per element: the
cliff ``benchmarks/mincostflow_shapes.py`` found, 4-6x the same sum written with ``a.cost``).  When
the pattern is flat, names every field of the set's one tuple type in order, binds distinct names
that no enclosing loop binds, and the sum has that one binder, the sum means the same as one over a
single name ``$t`` with each pattern name read as ``$t.field`` and each tuple literal that repeats the
pattern in full read as ``$t`` itself (the element it rebuilds).  This module makes that sum (once
per node and tuple type; the array path then evaluates it, or refuses it, as any other).  Anything
else returns None and the sum is left as written.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..semantics.values import OplTuple
from ..syntax import ast as A

_NAME = "$t"  # `$` names cannot be written in OPL: no clash with the user's


def single_name_form(ev: Any, node: A.Aggregate, env: dict, cache: dict, vcache: Any,
                     not_covered: tuple) -> A.Aggregate | None:
    """The equivalent single-name sum of ``node`` (see the module), or None when it does not apply.

    ``cache``: a dict kept with the compile's VectorCache, ``id(node) -> (node, ttype, rewritten)``;
    ``vcache``: that VectorCache; ``not_covered``: the exceptions that mean "not this path"
    (``vectorised.NOT_COVERED``, passed in so this module does not import its caller)."""
    if len(node.quals.binders) != 1:
        return None
    b = node.quals.binders[0]
    if len(b.patterns) != 1 or b.ordered or b.patterns[0].items is None:
        return None
    items = b.patterns[0].items
    names = [p.name for p in items]
    if any(n is None for n in names) or len(set(names)) != len(names) or set(names) & set(env):
        return None
    try:
        domain = ev.eval_set(b.domain, env)
    except not_covered:
        return None  # the term-by-term path reports it
    ttype = vcache.domain(domain).ttype
    if ttype is None or len(ttype.fields) != len(names) or not vcache._one_tuple_type(domain):
        return None
    hit = cache.get(id(node))
    if hit is not None and hit[0] is node and hit[1] is ttype:
        return hit[2]
    fields = dict(zip(names, ttype.fields))
    span = b.span
    try:
        new_binder = A.Binder(span, [A.Pattern(span, name=_NAME)], b.domain,
                              None if b.filter is None else _renamed(b.filter, fields, names))
        out = A.Aggregate(node.span, node.op, A.Qualifiers(node.quals.span, [new_binder]),
                          _renamed(node.body, fields, names))
    except _Nested:
        out = None
    cache[id(node)] = (node, ttype, out)
    return out


def _renamed(n: Any, fields: dict, names: list) -> Any:
    """A copy of expression ``n`` with the pattern's names as fields of ``$t`` and full pattern literals as ``$t``."""
    if isinstance(n, A.Name) and n.id in fields:
        return A.Field(n.span, A.Name(n.span, _NAME), fields[n.id], n.span)
    if isinstance(n, A.TupleLit) and [getattr(i, "id", None) for i in n.items] == names \
            and all(isinstance(i, A.Name) for i in n.items):
        return A.Name(n.span, _NAME)
    if isinstance(n, (A.Aggregate, A.Qualifiers, A.Binder, A.Pattern)):
        raise _Nested()  # a nested binder may rebind the names: not rewritten
    if isinstance(n, A.Node):
        changes = {}
        for f in dataclasses.fields(n):
            v = getattr(n, f.name)
            if isinstance(v, A.Node):
                changes[f.name] = _renamed(v, fields, names)
            elif isinstance(v, list) and any(isinstance(x, A.Node) for x in v):
                changes[f.name] = [_renamed(x, fields, names) if isinstance(x, A.Node) else x for x in v]
        return dataclasses.replace(n, **changes) if changes else n
    return n


class _Nested(Exception):
    pass
