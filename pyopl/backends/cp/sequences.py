"""The order of a ``dvar sequence`` on CP-SAT, made when ``first``, ``last``, ``before`` or ``prev`` use it.

A sequence orders its present intervals (OPL manual, "Sequencing of interval variables"). Here the
order is a circuit (``add_circuit``) over a dummy node 0 and one node per interval: the arc
``0 -> a`` says ``a`` is first, ``a -> 0`` that it is last, ``a -> b`` that ``b`` comes just after
``a``, and the self-loop ``a -> a`` that ``a`` is absent (its presence literal negated); the loop on
the dummy node holds when no interval is present.  A rank per interval (1 for the first, one more
along each arc) says ``before``.  ``noOverlap(p)`` ties this order to time: an arc ``a -> b`` makes
``end(a) + M[t(a)][t(b)] <= start(b)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Circuit:
    """The order of one sequence: ``arcs[(i, j)]`` the literal of the arc between nodes ``i`` and ``j``
    (0 the dummy node, ``k + 1`` the sequence's ``k``-th interval), ``ranks[k]`` the position of the
    ``k``-th interval (1-based, free while it is absent), ``intervals`` the IR interval numbers."""

    arcs: dict
    ranks: list
    intervals: list


def make_circuit(b: Any, ks: list) -> Circuit:
    """The circuit of a sequence over the IR intervals ``ks`` on the builder ``b``
    (:class:`~pyopl.backends.cp.constraints.Builder`)."""
    m, n = b.m, len(ks)
    present = [b._present(k) for k in ks]
    arcs: dict = {}
    for i in range(n):
        arcs[(0, i + 1)] = m.new_bool_var("")
        arcs[(i + 1, 0)] = m.new_bool_var("")
        for j in range(n):
            if i != j:
                arcs[(i + 1, j + 1)] = m.new_bool_var("")
    lits = [(i, j, lit) for (i, j), lit in arcs.items()]
    for i in range(n):
        if b.ivs[ks[i]].presence is not None:
            lits.append((i + 1, i + 1, present[i].Not()))  # absent: out of the circuit
    if all(b.ivs[k].presence is not None for k in ks):
        empty = m.new_bool_var("")
        m.add_bool_or([empty] + present)
        for p in present:
            m.add_implication(empty, p.Not())
        lits.append((0, 0, empty))
    m.add_circuit(lits)
    ranks = [m.new_int_var(1, max(n, 1), "") for _ in ks]
    for i in range(n):
        m.add(ranks[i] == 1).only_enforce_if(arcs[(0, i + 1)])
        for j in range(n):
            if i != j:
                m.add(ranks[j] == ranks[i] + 1).only_enforce_if(arcs[(i + 1, j + 1)])
    return Circuit(arcs, ranks, list(ks))


def post(b: Any, circuit: Circuit, c: Any) -> None:
    """The sequence function of the ``CpConstraint`` ``c`` (``c.data["fn"]``, positions ``c.data["at"]``)
    over ``circuit``: it holds at once when an interval it names is absent."""
    m, ks, fn = b.m, circuit.intervals, c.data["fn"]
    at = c.data["at"]
    when = [b._present(ks[i]) for i in at]
    if fn == "first":
        m.add_bool_or([circuit.arcs[(0, at[0] + 1)]]).only_enforce_if(when)
    elif fn == "last":
        m.add_bool_or([circuit.arcs[(at[0] + 1, 0)]]).only_enforce_if(when)
    elif at[0] == at[1]:  # prev(p, a, a), before(p, a, a): a cannot be present
        m.add_bool_or([when[0].Not()])
    elif fn == "prev":
        m.add_bool_or([circuit.arcs[(at[0] + 1, at[1] + 1)]]).only_enforce_if(when)
    else:  # before
        m.add(circuit.ranks[at[0]] + 1 <= circuit.ranks[at[1]]).only_enforce_if(when)


def tie_to_time(b: Any, circuit: Circuit, matrix: dict | None, types: list | None) -> None:
    """``noOverlap(p[, M])`` on a sequence with a circuit: each arc ``a -> b`` between intervals makes
    ``end(a) + M[t(a)][t(b)] <= start(b)`` (0 without a matrix)."""
    m, xs, ivs, ks = b.m, b.xs, b.ivs, circuit.intervals
    for (i, j), lit in circuit.arcs.items():
        if i == 0 or j == 0:
            continue
        d = matrix.get((types[i - 1], types[j - 1]), 0) if matrix else 0
        m.add(xs[ivs[ks[i - 1]].end] + d <= xs[ivs[ks[j - 1]].start]).only_enforce_if(lit)


def post_neighbour(b: Any, circuit: Circuit, c: Any) -> None:
    """``typeOfNext(p, a, last, absent)`` and the other neighbour expressions (``c.data``: ``at`` the
    position of ``a``, ``side`` next or prev, ``attr`` type/start/end/size/length, ``target`` the
    column): each arc out of (into) ``a`` makes the target the neighbour's value; the arc to (from)
    the dummy node makes it ``last``; ``a`` absent makes it ``absent``."""
    m, xs, ivs, ks = b.m, b.xs, b.ivs, circuit.intervals
    d = c.data
    i, t, attr = d["at"] + 1, xs[d["target"]], d["attr"]

    def value(k: int) -> Any:
        if attr == "type":
            return d["types"][k]
        iv = ivs[ks[k]]
        if attr == "length":
            return xs[iv.end] - xs[iv.start]
        return xs[getattr(iv, attr)]

    for (u, v), lit in circuit.arcs.items():
        if d["side"] == "next" and u == i:
            m.add(t == (d["last"] if v == 0 else value(v - 1))).only_enforce_if(lit)
        elif d["side"] == "prev" and v == i:
            m.add(t == (d["last"] if u == 0 else value(u - 1))).only_enforce_if(lit)
    if ivs[ks[i - 1]].presence is not None:
        m.add(t == d["absent"]).only_enforce_if(b._present(ks[i - 1]).Not())
