"""The retriever names the command lines offer (a leaf: reading them loads no retrieval library)."""

#: ``bm25`` (the default), ``structure`` (BM25 re-ranked by decision structure), ``embeddings``,
#: ``hybrid`` (BM25 and embeddings mixed), ``none``.
RETRIEVERS = ("bm25", "structure", "embeddings", "hybrid", "none")
