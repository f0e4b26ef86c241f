"""The intervals of a ``dvar sequence`` array whose domain filters one comprehension by the
declaration's index, evaluated once for the whole array (issue 46, item 6).

IBM's job shop writes ``dvar sequence mchs[m in Mchs] in all(j in Jobs, o in Mchs : Ops[j][o].mch
== m) itvs[j][o];``.  Evaluated sequence by sequence, the comprehension visits every ``(j, o)`` once
per machine (machines x jobs x operations filter evaluations).  When the filter is ``key == m``
(either side) with ``m`` an index of the declaration and nothing else in the comprehension depending
on the declaration's indices, the comprehension is the same for every sequence but for that one
equality: it is iterated once, each binding's ``key`` and body evaluated, and the bindings grouped by
``key``; each sequence takes its group, in the comprehension's own order, which is the order the
term-by-term evaluation gives.  Keys are compared as OPL compares them only where Python's equality
is the same: all integers, or all strings; anything else takes the general path.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ...syntax import ast as A
from ..forms.budget import names_in


def _split(node: A.Expr, index: set) -> tuple[str, A.Expr] | None:
    """``(index name, key expression)`` of a filter ``key == m`` or ``m == key``; None otherwise."""
    if not isinstance(node, A.Compare) or node.ops != ["=="] or len(node.operands) != 2:
        return None
    for side, other in ((0, 1), (1, 0)):
        a, b = node.operands[side], node.operands[other]
        if isinstance(a, A.Name) and a.id in index and not names_in(b) & index:
            return a.id, b
    return None


def _kind(v: Any) -> str | None:
    if isinstance(v, bool):
        return None
    return "int" if isinstance(v, int) else "str" if isinstance(v, str) else None


def grouped_domains(ev: Any, node: A.Expr, envs: list, from_arrays: Any = None) -> dict | None:
    """``{key: [interval values]}`` for each ``(key, env)`` of ``envs`` when the sequence domain
    ``node`` is ``all(quals : key == m) body`` as above; None when it is not (the caller then
    evaluates it term by term).  The values are not checked here (the caller checks them).
    ``from_arrays(ev, quals, key, body, env)``: every binding's key and value at once, or None
    (``precedence_rows.interval_groups``, passed in by the declaration: that module imports this one's)."""
    if not isinstance(node, A.Aggregate) or node.op != "all" or len(envs) < 2:
        return None
    index = set(envs[0][1])
    binders = node.quals.binders
    if not index or not binders or any(b.filter is not None for b in binders[:-1]) or binders[-1].filter is None:
        return None
    bound = {n for b in binders for p in b.patterns for n in p.names()}
    if bound & index:  # a binder shadows the declaration's index
        return None
    split = _split(binders[-1].filter, index)
    if split is None:
        return None
    name, key_expr = split
    if any(names_in(b.domain) & index for b in binders) or names_in(node.body) & index \
            or any(p.expr is not None and names_in(p.expr) & index for b in binders for p in b.patterns):
        return None
    quals = dataclasses.replace(node.quals, binders=binders[:-1] + [dataclasses.replace(binders[-1], filter=None)])
    groups: dict = {}
    kinds = {_kind(env[name]) for _, env in envs}
    made = from_arrays(ev, quals, key_expr, node.body, envs[0][1]) if from_arrays is not None else None
    if made is not None:  # (the same bindings, keys and values, in the same order)
        for k, v in zip(*made):
            groups.setdefault(k, []).append(v)
        kinds.update(map(_kind, groups))
        if len(kinds) != 1 or None in kinds:
            return None
        return {key: list(groups.get(env[name], ())) for key, env in envs}
    for e in ev.iterate(quals, envs[0][1], node):
        k = ev.eval_data_fast(key_expr, e, "a filter")
        kinds.add(_kind(k))
        groups.setdefault(k, []).append(e)
    if len(kinds) != 1 or None in kinds:
        return None
    wanted = {env[name] for _, env in envs}  # bodies only where the filter holds for some sequence
    values = {k: [ev.evaluate_fast(node.body, e) for e in es] for k, es in groups.items() if k in wanted}
    return {key: list(values.get(env[name], ())) for key, env in envs}
