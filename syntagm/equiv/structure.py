"""Structural matching of two normalised problems: a labelled bipartite graph per problem
(one node per column, labelled with its type, bounds and objective coefficient; one node per
row, labelled with its bounds; one edge per nonzero, labelled with its coefficient), compared
by graph isomorphism (networkx's VF2, ``networkx.algorithms.isomorphism.GraphMatcher``).

Rows are put in a canonical form first, so that a scaled or negated row matches: a one-sided
row is written ``a x <= u``; an equality or ranged row takes the sign whose sorted
coefficients are lexicographically the larger (on a tie, the larger upper side); every row is divided by its largest
coefficient magnitude.  Numbers are compared rounded to :data:`DIGITS` significant digits.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .problem import Problem

DIGITS = 9


def _r(v: float) -> float:
    if not np.isfinite(v):
        return float(v)
    return float(f"{v:.{DIGITS}g}") + 0.0  # + 0.0: no -0.0


def canonical_rows(p: Problem) -> list[tuple[dict[int, float], float, float]]:
    """Each row as ``({column: coefficient}, lower, upper)`` in the canonical form above."""
    out = []
    for i in range(p.m):
        cols = np.flatnonzero(p.A[i])
        a, lo, hi = p.A[i, cols].copy(), p.rl[i], p.ru[i]
        if not np.isfinite(hi):
            a, lo, hi = -a, -hi, -lo
        elif np.isfinite(lo):
            pos, neg = sorted(_r(v) for v in a), sorted(_r(v) for v in -a)
            if neg > pos or (neg == pos and -lo > hi):  # a tie on coefficients: the larger upper side
                a, lo, hi = -a, -hi, -lo
        s = float(np.max(np.abs(a))) if len(a) else 1.0
        out.append(({int(j): _r(v / s) for j, v in zip(cols, a)}, _r(lo / s), _r(hi / s)))
    return out


def graph(p: Problem, loose: bool = False) -> Any:
    """The labelled graph of ``p``; ``loose`` leaves the column labels out (used to find a column
    correspondence between problems whose columns differ in type, bounds or cost)."""
    import networkx as nx

    g = nx.Graph()
    for j in range(p.n):
        label = ("col",) if loose else ("col", bool(p.integer[j]), _r(p.lb[j]), _r(p.ub[j]), _r(p.c[j]))
        g.add_node(("c", j), label=label)
    for i, (coefs, lo, hi) in enumerate(canonical_rows(p)):
        g.add_node(("r", i), label=("row", lo, hi))
        for j, v in coefs.items():
            g.add_edge(("r", i), ("c", j), coef=v)
    return g


#: the most candidate pairs VF2 may test in one match before the match gives up (symmetric graphs
#: can make it search for a very long time); giving up counts as "no match found"
MAX_STEPS = 200_000


class SearchBudget(Exception):
    """VF2 tested :data:`MAX_STEPS` candidate pairs without settling the match."""


def _matcher(g1: Any, g2: Any) -> Any:
    from networkx.algorithms import isomorphism as iso

    class Bounded(iso.GraphMatcher):
        steps = 0

        def semantic_feasibility(self, n1: Any, n2: Any) -> bool:
            Bounded.steps += 1
            if Bounded.steps > MAX_STEPS:
                raise SearchBudget(f"the structural match tested {MAX_STEPS} pairs without settling")
            return super().semantic_feasibility(n1, n2)

    return Bounded(g1, g2, node_match=iso.categorical_node_match("label", None),
                   edge_match=iso.categorical_edge_match("coef", None))


def isomorphic(a: Problem, b: Problem) -> dict[int, int] | None:
    """A column map ``{column of b: column of a}`` under which ``a`` and ``b`` are the same
    problem (rows, bounds, types, objective), or None when there is none (or when the search
    ran past :data:`MAX_STEPS`: then the caller goes on to weaker evidence).  Sense and objective
    constant are compared by the caller."""
    if (a.m, a.n) != (b.m, b.n):
        return None
    m = _matcher(graph(a), graph(b))
    try:
        if not m.is_isomorphic():
            return None
    except SearchBudget:
        return None
    return {j2: j1 for (k1, j1), (k2, j2) in m.mapping.items() if k1 == "c"}


def correspondences(a: Problem, b: Problem, limit: int = 8) -> Any:
    """Candidate column maps ``{column of b: column of a}`` for problems with as many columns,
    each with how it was found: first up to ``limit`` isomorphisms of the loose graphs of one
    problem's rows into the other's (rows of the one with fewer rows matched to a subset of the
    other's; types, bounds and costs left out), then equal column names.  Structure comes first:
    equal names may mean different things in the two models.  A generator; yields nothing when
    the numbers of columns differ."""
    if a.n != b.n:
        return
    seen: list[dict[int, int]] = []
    big, small, swapped = (a, b, False) if a.m >= b.m else (b, a, True)
    m = _matcher(graph(big, loose=True), graph(small, loose=True))
    found = "an isomorphism of the constraint structures (types, bounds and costs left out)"
    try:
        for mapping in m.subgraph_isomorphisms_iter():
            cols = {js: jb for (kb, jb), (ks, js) in mapping.items() if kb == "c"}
            if len(cols) != small.n:
                continue
            cmap = {jb: js for js, jb in cols.items()} if swapped else cols
            if cmap in seen:
                continue
            seen.append(cmap)
            yield cmap, found
            if len(seen) >= limit:
                break
    except SearchBudget:
        pass
    if sorted(a.names) == sorted(b.names) and len(set(a.names)) == a.n:
        where = {nm: j for j, nm in enumerate(a.names)}
        cmap = {j: where[nm] for j, nm in enumerate(b.names)}
        if cmap not in seen:
            yield cmap, "equal column names"
