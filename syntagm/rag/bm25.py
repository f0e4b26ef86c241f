"""BM25 retrieval over exemplar descriptions, with the ``bm25s`` package (the default retriever).

Field weighting: an exemplar's title, problem-class patterns, tags and domain say what kind of
problem it is; its description is mostly numbers and story words ("units", "hours") shared by
every class. So the indexed text repeats each field :data:`FIELD_WEIGHTS` times (BM25's term
frequency then counts a title word as several prose words; the usual BM25F simplification).
The gain is measured by ``benchmarks/retrieval/measure.py`` on a labelled set of 40 statements.
"""
from __future__ import annotations

from .knowledge import Exemplar

#: How many times each field goes into the indexed text (the description once).
FIELD_WEIGHTS = {"title": 3, "patterns": 3, "tags": 3, "domain": 1, "description": 1}


def weighted_text(e: Exemplar) -> str:
    """The indexed text of ``e`` with its fields repeated by :data:`FIELD_WEIGHTS`."""
    parts = []
    for field, w in FIELD_WEIGHTS.items():
        if field == "description":
            text = e.description
        else:
            v = e.meta.get(field) or ""
            text = " ".join(map(str, v)) if isinstance(v, list) else str(v)
        text = text.replace("_", " ").strip()
        if text:
            parts += [text] * w
    return "\n".join(parts)


class BM25Retriever:
    """Ranks exemplars by BM25 (English stop words removed) over the field-weighted text
    (:func:`weighted_text`), or with ``weighted=False`` over :attr:`Exemplar.search_text`."""

    name = "bm25"

    def __init__(self, exemplars: list[Exemplar], weighted: bool = True):
        self.exemplars = list(exemplars)
        self.weighted = weighted
        self._index = None
        if self.exemplars:
            try:
                import bm25s
            except ImportError:
                from ..errors import ConfigError
                raise ConfigError("BM25 retrieval needs the bm25s package: pip install 'pyopl[llm]' "
                                  "(or use --retriever none)") from None

            self._bm25s = bm25s
            texts = [weighted_text(e) if weighted else e.search_text for e in self.exemplars]
            tokens = bm25s.tokenize(texts, stopwords="en", show_progress=False)
            self._index = bm25s.BM25()
            self._index.index(tokens, show_progress=False)

    def search(self, query: str, k: int = 2) -> list[tuple[Exemplar, float]]:
        """The ``k`` best ``(exemplar, score)`` pairs, best first; ties broken by name; zero scores dropped."""
        if self._index is None or k <= 0 or not query.strip():
            return []
        q = self._bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not q.ids or not q.ids[0]:
            return []
        k = min(k, len(self.exemplars))
        docs, scores = self._index.retrieve(q, k=k, show_progress=False)
        pairs = [(self.exemplars[int(i)], float(s)) for i, s in zip(docs[0], scores[0]) if float(s) > 0]
        return sorted(pairs, key=lambda p: (-p[1], p[0].name))
