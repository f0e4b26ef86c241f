"""The conflict of ``IloOplConflictIterator``: CPLEX's conflict refiner as OPL's scripts use it.

OPL's conflict and relaxation searches consider only labelled constraints ("only labeled
constraints are considered by the relaxation and conflict search process", OPL Language
Reference Manual, "Why label constraints?"): the variables' domains and the unlabelled rows are
the background that always holds. A script may attach preferences (``iter.attach(cts, prefs)``,
IBM: "after some attachments have been done only the constraints with attached preferences are
taken into account"): the other rows are then background too. As in CPLEX's refiner, a group of
preference 0 is forced into the conflict (reported as a possible member), a negative preference
leaves the constraint out of the problem, and of two constraints the one of higher preference is
the one kept in the conflict (IBM's conflictIterator example: preferences ``prefs[i] = i`` show
``cts[10]``, where the default shows ``cts[6]``, "the first constraint in the declared order").

:func:`refine_conflict` is a deletion filter (Chinneck, *Feasibility and Infeasibility in
Optimization*, 2008, ch. 6) over the candidate rows, trying them lowest preference first and, at
equal preference, last declared first, each trial one HiGHS solve with integrality kept; more than
:data:`ELASTIC_ABOVE` candidates are first cut down by the elastic filter of :mod:`.iis`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...ir import IR
from .iis import INFEASIBLE, _Clock, _sub_feasible

#: above this many candidate rows the elastic filter first keeps only the rows it finds violated
ELASTIC_ABOVE = 50
#: a row violated by less than this in the elastic solve is not taken as violated
TOLERANCE = 1e-7


@dataclass
class Refined:
    """A refined conflict: ``members`` (rows proven in it), ``forced`` (rows of preference 0, in it
    by the user's choice), ``irreducible`` (False when the time ran out: the set is infeasible but
    may not be minimal)."""

    members: list[int]
    forced: list[int]
    irreducible: bool


def refine_conflict(ir: IR, prefs: dict[int, float], time_limit: float = 60.0) -> Refined | None:
    """The conflict of ``ir`` over the rows of ``prefs`` (row -> preference); rows not in ``prefs``
    always hold, as do the columns' bounds. None when the problem (without the rows of negative
    preference) is feasible, or when nothing was decided within ``time_limit`` seconds."""
    clock = _Clock(time_limit)
    rows = np.array([i for i in range(ir.num_rows) if prefs.get(i, 1.0) >= 0], dtype=np.int64)
    lower, upper = ir.col_lower, ir.col_upper
    if _sub_feasible(ir, rows, lower, upper, clock=clock) is not False:
        return None
    forced = [i for i in rows.tolist() if prefs.get(i) == 0]
    cands = [i for i in rows.tolist() if prefs.get(i, 0) > 0]
    hard = [i for i in rows.tolist() if i not in prefs or prefs[i] == 0]
    if len(cands) > ELASTIC_ABOVE:
        cands = _elastic(ir, hard, cands, clock)
        if cands is None:
            return None
    cands.sort(key=lambda i: (prefs[i], -i))  # tried (so dropped) first: lowest preference, last declared
    keep = set(cands)
    irreducible = True
    for r in cands:
        if clock.over():
            irreducible = False
            break
        trial = np.array(sorted(set(hard) | (keep - {r})), dtype=np.int64)
        if _sub_feasible(ir, trial, lower, upper, clock=clock) is False:
            keep.discard(r)
    return Refined(sorted(keep), forced, irreducible)


def _elastic(ir: IR, hard: list[int], cands: list[int], clock: _Clock) -> list[int] | None:
    """The candidates the elastic filter finds needed: each round makes the rows it finds violated
    hard, until the hard rows alone are infeasible (None when a round decides nothing)."""
    rows = np.array(sorted(set(hard) | set(cands)), dtype=np.int64)
    elastic = np.isin(rows, np.array(cands, dtype=np.int64))
    while True:
        viol = _sub_feasible(ir, rows, ir.col_lower, ir.col_upper, elastic=elastic, clock=clock)
        if viol is INFEASIBLE:
            break
        if viol is None:
            return None
        hit = (viol > TOLERANCE) & elastic
        if not hit.any():
            return None
        elastic &= ~hit
        if not elastic.any():
            break
    chosen = set(cands) - set(rows[elastic].tolist())
    return [i for i in cands if i in chosen]
