"""BM25 retrieval over exemplar descriptions, with the ``bm25s`` package (the default retriever).

Scheme ``v2`` (the default) retrieves by what a problem *needs*.  Two BM25 indexes are kept:

- **needs**: the cue words of each exemplar's modelling patterns (``pattern_cues.json``: how
  problem statements that need each pattern of ``knowledge_base/patterns.md`` tend to say so),
  with its pattern ids and tags;
- **text**: its title and description.

:data:`GENERIC_WORDS` (story words every class shares: "units", "company", "each"...) are
dropped from documents and queries.  Each index's scores for a query are divided by their
maximum (so the two are on one scale, whatever the fields' lengths), and the ranking is
``w · needs + (1 − w) · text`` with ``w`` = :data:`NEEDS_WEIGHT`, fitted on the development
half of ``benchmarks/retrieval/benchmark_labels.json``.  Scheme ``v1`` is the earlier indexing
(one index; title, patterns and tags repeated three times; no cues; no generic words
dropped), kept for measurement: ``benchmarks/retrieval/measure_benchmarks.py`` compares them
(docs/syntagm.md gives the figures).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from .knowledge import Exemplar

#: v1: how many times each field goes into the indexed text (the description once).
FIELD_WEIGHTS = {"title": 3, "patterns": 3, "tags": 3, "domain": 1, "description": 1}
#: v2: the weight of the max-normalised needs score against the text score (fitted: see above)
NEEDS_WEIGHT = 0.6

#: Words that say nothing about the kind of model (dropped from documents and queries in v2).
GENERIC_WORDS = frozenset("""
unit units company companies number numbers total amount amounts each per every also many much make
use used uses using need needs want wants would could should must can may let given following
type types kind kinds day days week weeks year years one two three four five six seven eight nine ten
first second third new small large big known problem problems decide determine plan plans planning
""".split())

_WORD = re.compile(r"[a-z][a-z-]*")


@lru_cache(maxsize=1)
def pattern_cues() -> dict[str, str]:
    """``{pattern id: cue words}`` from the packaged ``pattern_cues.json``."""
    text = resources.files("syntagm.rag").joinpath("pattern_cues.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def _content_words(text: str) -> str:
    return " ".join(w for w in _WORD.findall(text.lower().replace("_", " ")) if w not in GENERIC_WORDS)


def _field(e: Exemplar, field: str) -> str:
    if field == "description":
        return e.description
    if field == "needs":
        cues = pattern_cues()
        return " ".join(cues.get(p, "") for p in e.meta.get("patterns") or [])
    v = e.meta.get(field) or ""
    return " ".join(map(str, v)) if isinstance(v, list) else str(v)


def weighted_text(e: Exemplar) -> str:
    """The v1 indexed text of ``e``: its fields repeated by :data:`FIELD_WEIGHTS`."""
    parts = []
    for field, w in FIELD_WEIGHTS.items():
        text = _field(e, field).replace("_", " ").strip()
        if text:
            parts += [text] * w
    return "\n".join(parts)


def v2_texts(e: Exemplar) -> tuple[str, str]:
    """``(needs text, title and description text)`` of ``e`` for scheme v2, generic words dropped."""
    needs = " ".join((_field(e, "needs"), _field(e, "patterns"), _field(e, "tags")))
    return _content_words(needs), _content_words(_field(e, "title") + "\n" + e.description)


def _index(bm25s, texts: list[str]):
    tokens = bm25s.tokenize(texts, stopwords="en", show_progress=False)
    index = bm25s.BM25()
    index.index(tokens, show_progress=False)
    return index


class BM25Retriever:
    """Ranks exemplars by BM25 (English stop words removed): scheme ``v2`` (the default) by the
    normalised mix of the needs and text indexes of the module docstring; ``v1`` over the
    field-repeated text (:func:`weighted_text`); with ``weighted=False`` over
    :attr:`Exemplar.search_text` (one plain index)."""

    name = "bm25"

    def __init__(self, exemplars: list[Exemplar], weighted: bool = True, scheme: str = "v2"):
        self.exemplars = list(exemplars)
        self.hybrid = weighted and scheme == "v2"
        self._indexes: list = []
        if self.exemplars:
            try:
                import bm25s
            except ImportError:
                from ..errors import ConfigError
                raise ConfigError("BM25 retrieval needs the bm25s package: pip install 'pyopl[llm]' "
                                  "(or use --retriever none)") from None

            self._bm25s = bm25s
            if self.hybrid:
                pairs = [v2_texts(e) for e in self.exemplars]
                # exemplars without patterns (a user's knowledge base) have no needs text: text only then
                needs = _index(bm25s, [p[0] for p in pairs]) if any(p[0] for p in pairs) else None
                self._indexes = [needs, _index(bm25s, [p[1] or p[0] or e.name for p, e in zip(pairs, self.exemplars)])]
            else:
                self._indexes = [_index(bm25s, [weighted_text(e) if weighted else e.search_text
                                                for e in self.exemplars])]

    def _scores(self, index, query: str) -> list[float]:
        q = self._bm25s.tokenize([query], stopwords="en", show_progress=False)
        out = [0.0] * len(self.exemplars)
        if not q.ids or not q.ids[0]:
            return out
        docs, scores = index.retrieve(q, k=len(self.exemplars), show_progress=False)
        for i, s in zip(docs[0], scores[0]):
            out[int(i)] = float(s)
        return out

    def search(self, query: str, k: int = 2) -> list[tuple[Exemplar, float]]:
        """The ``k`` best ``(exemplar, score)`` pairs, best first; ties broken by name; zero scores dropped
        (v2 scores lie in 0..1: the weighted sum of the two max-normalised scores)."""
        if not self.exemplars or k <= 0 or not query.strip():
            return []
        pairs = [(e, s) for e, s in zip(self.exemplars, self.scores(query)) if s > 0]
        return sorted(pairs, key=lambda p: (-p[1], p[0].name))[:k]

    def scores(self, query: str) -> list[float]:
        """One score per exemplar (in :attr:`exemplars` order) for ``query``; v2 scores lie in 0..1."""
        if not self.exemplars or not query.strip():
            return [0.0] * len(self.exemplars)
        if self.hybrid:
            query = _content_words(query)
            needs_ix, text_ix = self._indexes
            text = self._scores(text_ix, query)
            needs = self._scores(needs_ix, query) if needs_ix is not None else [0.0] * len(text)
            w = NEEDS_WEIGHT if needs_ix is not None else 0.0
            top_n, top_t = max(needs) or 1.0, max(text) or 1.0
            scores = [w * a / top_n + (1 - w) * b / top_t for a, b in zip(needs, text)]
        else:
            scores = self._scores(self._indexes[0], query)
        return scores
