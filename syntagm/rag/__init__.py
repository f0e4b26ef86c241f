"""Retrieval of exemplars from ``knowledge_base/``: BM25 by default, embeddings optionally."""
from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from .bm25 import BM25Retriever
from .knowledge import Exemplar, default_kb_path, load_knowledge_base


def make_retriever(kind: str = "bm25", kb_path: str | Path | None = None, embedding_model: str | None = None):
    """A retriever over the knowledge base: ``kind`` is ``bm25``, ``structure`` (BM25 v2 re-ranked by
    decision structure, :mod:`syntagm.rag.structure`), ``embeddings``, ``hybrid`` (BM25 v2 and
    embeddings mixed, :mod:`syntagm.rag.hybrid`) or ``none`` (returns ``None``);
    ``embedding_model``: the sentence-transformers model (a local folder or a cached name) for ``embeddings``.
    A knowledge base without exemplars is a :class:`ConfigError` (never a silent zero exemplars)."""
    if kind == "none":
        return None
    exemplars = load_knowledge_base(kb_path)
    if not exemplars:
        raise ConfigError(f"the knowledge base {kb_path or default_kb_path() or '(none found)'} has no exemplars "
                          "(folders with description.md and model.mod): pass --kb DIR, or --retriever none")
    if kind == "bm25":
        return BM25Retriever(exemplars)
    if kind == "structure":
        from .structure import StructureRetriever
        return StructureRetriever(BM25Retriever(exemplars))
    if kind == "embeddings":
        from .embeddings import EmbeddingRetriever
        from .embeddings import DEFAULT_MODEL
        return EmbeddingRetriever(exemplars, embedding_model or DEFAULT_MODEL)
    if kind == "hybrid":
        from .embeddings import DEFAULT_MODEL, EmbeddingRetriever, title_and_description
        from .hybrid import HybridRetriever
        return HybridRetriever(BM25Retriever(exemplars), EmbeddingRetriever(
            exemplars, embedding_model or DEFAULT_MODEL, text_of=title_and_description))
    raise ConfigError(f"unknown retriever {kind!r} (choose bm25, structure, embeddings, hybrid or none)")


__all__ = ["Exemplar", "load_knowledge_base", "default_kb_path", "BM25Retriever", "make_retriever"]
