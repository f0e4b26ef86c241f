"""Retrieval by decision structure: what a problem decides, limits and counts, not its story words.

A problem statement says what kind of model it needs in phrases that do not depend on its domain:
"choose which ... to", "each ... exactly one", "from each ... to each", "kept in stock from one
month to the next", "visiting each exactly once", "can start only after", "in three equally
likely scenarios".  :data:`SIGNALS` maps each such *decision structure* to the phrases that state
it and to the modelling patterns (``knowledge_base/patterns.md`` ids, as in each exemplar's
``meta.json``) that model it.  :class:`StructureRetriever` re-ranks a base retriever's scores
(BM25 ``v2`` by default): an exemplar gains :data:`WEIGHT` times the share of the query's
structures its patterns model and loses :data:`PENALTY` times the share of its own structures the
query does not state, so a "vitamin" product mix finds product-mix exemplars rather than
diets, and a selection problem finds knapsack exemplars rather than assignments.  Exemplars
without patterns (a user's knowledge base) keep their base score.
"""
from __future__ import annotations

import re
from typing import Any

#: structure -> (phrases that state it, patterns that model it)
SIGNALS: dict[str, tuple[str, frozenset[str]]] = {
    "selection": (r"\bchoose which\b|\bselect(?:s|ed)? (?:the|which)\b|\bwhich (?:\w+ ){0,3}to (?:pack|list|fund|"
                  r"accept|build|open|take|buy|rent)\b|\bentirely or not at all\b|\bor not at all\b|\ball or nothing\b",
                  frozenset({"knapsack", "cardinality", "covering", "fixed_charge", "indicator_logic"})),
    "assignment": (r"\bexactly one (?!of\b)\w+|\bone \w+ per \w+ and one\b|\bmatch(?:ed|ing)?\b|\bassigns? each\b|"
                   r"\beach \w+ (?:takes|gets|is given|goes to) (?:exactly )?one\b|\bto one of\b",
                   frozenset({"assignment", "partitioning"})),
    "covering": (r"\bat least one (?!\w+ of\b)|\bwithin \d+ \w+ of at least\b|\bhears? at least\b|\bis covered\b|"
                 r"\bcover(?:s|ed|ing)? (?:every|each|all)\b",
                 frozenset({"covering", "partitioning"})),
    "transport": (r"\bfrom (?:each|the|two|three|four|five|\d+) \w+(?: \w+)? to (?:each|the|two|three|four|five|\d+)\b|"
                  r"\bsuppl(?:y|ies) .{0,40}\bto\b|\bdeliver(?:ies|y)? from\b|\bfrom each\b",
                  frozenset({"transportation", "flow_conservation", "multicommodity_flow"})),
    "inventory": (r"\b(?:kept|held|carried|stored) (?:in stock |over )|\bin stock from\b|\bbacklog|\bcarry(?:ing)? "
                  r"over\b|\bfrom one (?:month|week|period|day) to the next\b|\bheld over\b",
                  frozenset({"inventory_balance", "lot_sizing_setups"})),
    "routing": (r"\bvisit(?:s|ing)? each\b|\bexactly once\b|\bstarting and ending\b|\btour\b|\border of (?:the )?"
                r"(?:stops|visits|cities)\b|\bvisited once\b|\breturns? to\b",
                frozenset({"subtour_mtz"})),
    "scheduling": (r"\bstart(?:s)? only after\b|\bprerequisite|\bprecedence\b|\bafter all of\b|\bfinished as early\b|"
                   r"\bstart times\b|\bmakespan\b",
                   frozenset({"precedence", "disjunctive_scheduling", "time_indexed_scheduling"})),
    "recourse": (r"\bscenarios?\b|\bprobabilit(?:y|ies)\b|\bexpected (?:profit|cost|return)\b|\bequally likely\b|"
                 r"\bwill be \d",
                 frozenset({"two_stage_stochastic", "cvar_risk"})),
    "shifts": (r"\bconsecutive (?:days|periods|hours|shifts)\b|\bdays off\b|\bstart in each\b",
               frozenset({"covering"})),
    "mix": (r"\bhow many (?:\w+ ){0,3}(?:of each|should be (?:made|pressed|produced))\b|\bearns? \$|"
            r"\bmaximi[sz]e (?:the )?(?:profit|earnings|margin)\b",
            frozenset({"product_mix", "ratio_constraint", "integer_quantities", "goal_programming"})),
    "content": (r"\bat least [\d,.]+ ?(?:kcal|g|mg|kg) of\b|\bcheapest (?:ration|mix|blend|diet|treatment)\b|"
                r"\bblend(?:s|ed)?\b|\b\d+% (?:protein|fat|sugar|nitrogen)\b",
                frozenset({"covering", "blending"})),
}

#: the weight of the structure share against the base score (which lies in 0..1; fitted on the
#: ``dev`` half of ``benchmarks/retrieval/structure_set.json``)
WEIGHT = 0.3
#: what an exemplar loses for the share of its own structures the query does not state (an
#: assignment exemplar for a pure selection problem; fitted with :data:`WEIGHT`)
PENALTY = 0.1


def structures(query: str) -> list[str]:
    """The decision structures :data:`SIGNALS` finds stated in ``query``, in table order."""
    return [name for name, (pattern, _) in SIGNALS.items() if re.search(pattern, query, re.I)]


class StructureRetriever:
    """``base`` (a retriever with ``exemplars`` and ``scores(query)``) re-ranked by decision
    structure (module docstring)."""

    name = "structure"

    def __init__(self, base: Any, weight: float | None = None, penalty: float | None = None):
        self.base = base
        self.exemplars = list(base.exemplars)
        self.weight = WEIGHT if weight is None else weight
        self.penalty = PENALTY if penalty is None else penalty
        # the structures each exemplar's patterns model (none for an exemplar without patterns)
        self._structures = [frozenset(name for name, (_, models) in SIGNALS.items()
                                      if models & frozenset(e.meta.get("patterns") or [])) for e in self.exemplars]

    def scores(self, query: str) -> list[float]:
        """The base scores plus the structure share (module docstring), one per exemplar."""
        base = self.base.scores(query)
        found = structures(query)
        if not found:
            return base
        out = []
        for s, own in zip(base, self._structures):
            if not own:
                out.append(s)
                continue
            share = sum(1 for name in found if name in own) / len(found)
            extra = sum(1 for name in own if name not in found) / len(own)
            out.append(max(0.0, s + self.weight * share - self.penalty * extra) if s > 0 or share else s)
        return out

    def search(self, query: str, k: int = 2) -> list[tuple[Any, float]]:
        """The ``k`` best ``(exemplar, score)`` pairs, best first, ties by name; zero scores dropped."""
        if not self.exemplars or k <= 0 or not query.strip():
            return []
        pairs = [(e, s) for e, s in zip(self.exemplars, self.scores(query)) if s > 0]
        return sorted(pairs, key=lambda p: (-p[1], p[0].name))[:k]
