"""Filters evaluated as hash joins: ``sum(a in Arcs : a.dst == v)`` visits only the arcs into ``v``.

A binder's filter is a chain of conjuncts ``c1 && c2 && ...``. When one conjunct equates the binder's
iterator (``a == e``), one of its tuple fields (``a.f == e``, ``e == a.f``) or one name of its tuple
pattern (``<o, d, c> in Arcs : d == e``) with an expression ``e`` that does not mention the binder's own
names, the domain is grouped once by that value (:meth:`pyopl.lowering.arrays.vectorised.VectorCache.group`,
shared with the array paths) and each iteration looks its candidates up instead of scanning the
domain. The whole filter is still evaluated on every candidate, so the bindings, their order (the
domain's) and the values are those of the scan; only elements that the equality rules out are skipped.

The work budget (:mod:`pyopl.lowering.forms.budget`) is charged what this costs: the domain's size once, when
its index is built, and then the candidates of each lookup, not the domain at every iteration.
"""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
from ..forms.budget import names_in
from ..forms.shapes import conjuncts

#: a domain smaller than this is scanned (an index would cost more than it saves)
MIN_JOIN = 64


def _keys_of(b: A.Binder) -> tuple[list[tuple], set[str]]:
    """What each component of ``b``'s single pattern is called: [(name, tuple position or None)] and
    the set of all names the binder binds."""
    p = b.patterns[0]
    if p.name is not None:
        return [(p.name, None)], {p.name}
    out = [(q.name, k) for k, q in enumerate(p.items or []) if q.name is not None and q.items is None]
    return out, set(p.names())


def join_plan(b: A.Binder) -> list[tuple] | None:
    """For a binder ``b`` with a filter: the conjuncts usable as a join, each ``(field, position, other)``
    (``field``: a tuple field name, or None for the element itself; ``position``: the tuple position of
    a pattern component, or None; ``other``: the expression it is equal to), or None when there is none."""
    if b.filter is None or len(b.patterns) != 1:
        return None
    keys, bound = _keys_of(b)
    by_name = dict(keys)
    plan = []
    for c in conjuncts(b.filter):
        if not (isinstance(c, A.Compare) and c.ops == ["=="] and len(c.operands) == 2):
            continue
        for mine, other in (c.operands, c.operands[::-1]):
            if isinstance(mine, A.Field) and isinstance(mine.base, A.Name) and mine.base.id in by_name \
                    and by_name[mine.base.id] is None:
                hit = (mine.name, None, other)
            elif isinstance(mine, A.Name) and mine.id in by_name:
                hit = (None, by_name[mine.id], other)
            else:
                continue
            if names_in(other) & bound:
                continue
            plan.append(hit)
            break
    return plan or None


def slices_range(plan: list[tuple] | None) -> bool:
    """Whether a binder's join ``plan`` has a conjunct ``i == e`` on the element itself, so that a range
    domain gives at most one element (:func:`range_slice`): IBM's "slicing", which takes one element of
    ``forall(i in 1..100000000 : i == 2)`` without visiting the others."""
    return bool(plan) and any(field is None and pos is None for field, pos, _other in plan)


def range_slice(ev: Any, plan: list[tuple], domain: Any, env: dict) -> list | None:
    """The elements of the range ``domain`` that a conjunct ``i == e`` of ``plan`` allows: ``[e]`` when the
    value of ``e`` is an integer inside the range (a float equal to one counts, as ``==`` compares numbers),
    else ``[]``; None when ``e`` cannot be evaluated here (the caller scans, and reports its error)."""
    for field, pos, other in plan:
        if field is not None or pos is not None:
            continue
        try:
            value = ev.eval_data(other, env, "a filter")
        except Exception:  # reported, if it is an error, by the scan that evaluates the filter
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if value != value or (isinstance(value, float) and not value.is_integer()):
            return []
        k = int(value)
        return [k] if domain.lo <= k <= domain.hi else []
    return None


def candidates(ev: Any, b: A.Binder, plan: list[tuple], domain: Any, env: dict) -> list | None:
    """The elements of ``domain`` that the first usable conjunct of ``plan`` can match, in the domain's
    order, or None when the join does not apply to these data (then the caller scans the domain).
    Charges the index's construction (the domain's size, once per domain and field) to the budget."""
    from .vectorised import _kind, vector_cache  # (the array module loads on first use)

    if len(domain) < MIN_JOIN:
        return None
    cache = vector_cache(ev)
    for field, pos, other in plan:
        if pos is not None:  # a pattern component: the field at that position of the set's tuple type
            tt = cache.domain(domain).ttype
            if tt is None or pos >= len(tt.fields) or len(b.patterns[0].items) != len(tt.fields):
                continue
            field = tt.fields[pos]
        built = cache._groups.get((id(domain), field))
        fresh = built is None or built[0] is not domain
        grouped = cache.group(domain, field)
        if fresh:
            ev.inst.budget.charge(len(domain), b)
        if grouped is None:
            continue
        groups, kind = grouped
        try:
            value = ev.eval_data(other, env, "a filter")
        except Exception:  # reported, if it is an error, by the scan that evaluates the filter
            return None
        if kind is None or _kind(value) != kind:
            continue
        hit = groups.get(value)
        if hit is None:
            return []
        dom = cache.domain(domain)
        return [dom[p] for p in hit.tolist()]
    return None
