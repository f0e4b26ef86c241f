"""BM25 retrieval over exemplar descriptions, with the ``bm25s`` package (the default retriever)."""
from __future__ import annotations

from .knowledge import Exemplar


class BM25Retriever:
    """Ranks exemplars by BM25 over :attr:`Exemplar.search_text` (English stop words removed)."""

    name = "bm25"

    def __init__(self, exemplars: list[Exemplar]):
        self.exemplars = list(exemplars)
        self._index = None
        if self.exemplars:
            try:
                import bm25s
            except ImportError:
                from ..errors import ConfigError
                raise ConfigError("BM25 retrieval needs the bm25s package: pip install 'pyopl[llm]' "
                                  "(or use --retriever none)") from None

            self._bm25s = bm25s
            tokens = bm25s.tokenize([e.search_text for e in self.exemplars], stopwords="en", show_progress=False)
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
