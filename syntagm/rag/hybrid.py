"""Lexical and embedding scores together: BM25 (scheme v2) mixed with sentence embeddings.

``score = w · lexical + (1 − w) · dense`` per exemplar, where ``lexical`` is the BM25 v2 score
(already in 0..1: its two indexes max-normalised, :mod:`syntagm.rag.bm25`) and ``dense`` the
cosine similarity min-max normalised over the knowledge base for the query (so both run from 0
to 1 whatever the embedding model's typical similarities). ``w`` = :data:`LEXICAL_WEIGHT`, fitted
on the development material (every problem of ``benchmarks/retrieval/benchmark_labels.json`` and
``fresh_labels.json``; ``benchmarks/retrieval/measure_benchmarks.py --fit``) and checked on the
blind set ``fresh_labels2.json``; docs/syntagm.md gives the figures.
"""
from __future__ import annotations

from .knowledge import Exemplar

#: The weight of the lexical score (fitted on the development material; see the module docstring).
LEXICAL_WEIGHT = 0.50


def min_max(values: list[float]) -> list[float]:
    """``values`` rescaled to 0..1 (all 0 when they are all equal)."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    return [0.0] * len(values) if hi <= lo else [(v - lo) / (hi - lo) for v in values]


def combine(lexical: list[float], dense: list[float], weight: float) -> list[float]:
    """``weight · lexical + (1 − weight) · min_max(dense)``, element by element.

    Raises :class:`ValueError` when the lists differ in length or ``weight`` is outside 0..1."""
    if len(lexical) != len(dense):
        raise ValueError(f"{len(lexical)} lexical scores but {len(dense)} dense scores")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"the lexical weight must lie in 0..1, not {weight}")
    return [weight * a + (1 - weight) * b for a, b in zip(lexical, min_max(dense))]


class HybridRetriever:
    """``lexical``: a retriever with ``scores(query)`` (BM25 v2); ``dense``: one with
    ``similarities(query)`` (:class:`~syntagm.rag.embeddings.EmbeddingRetriever`), both over the
    same exemplars in the same order; ``weight``: the lexical weight."""

    name = "hybrid"

    def __init__(self, lexical, dense, weight: float = LEXICAL_WEIGHT):
        if [e.name for e in lexical.exemplars] != [e.name for e in dense.exemplars]:
            raise ValueError("the lexical and dense retrievers must index the same exemplars in the same order")
        self.exemplars: list[Exemplar] = list(lexical.exemplars)
        self.lexical, self.dense, self.weight = lexical, dense, weight

    def scores(self, query: str) -> list[float]:
        """One hybrid score per exemplar (0..1)."""
        return combine(self.lexical.scores(query), self.dense.similarities(query), self.weight)

    def search(self, query: str, k: int = 2) -> list[tuple[Exemplar, float]]:
        """The ``k`` best ``(exemplar, hybrid score)`` pairs, best first, ties broken by name."""
        if not self.exemplars or k <= 0 or not query.strip():
            return []
        pairs = list(zip(self.exemplars, self.scores(query)))
        return sorted(pairs, key=lambda p: (-p[1], p[0].name))[:k]
