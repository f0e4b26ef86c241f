"""Top-k relevance of exemplar retrieval on a labelled set of problem statements.

Usage: ``python benchmarks/retrieval/measure.py [--kb DIR] [--k 3] [--weights FIELDS]``

``labelled.json`` (next to this script) holds 40 problem statements written for this purpose
(not taken from any benchmark), each with the exemplar folders that are relevant to it (the
same problem class). Reported: top-1 accuracy (the first hit is relevant), recall@k (some
relevant exemplar is among the first k) and MRR (mean reciprocal rank of the first relevant
hit, 0 when none is in the first 10), for the plain BM25 ranking (every field once) and the
field-weighted one (:data:`syntagm.rag.bm25.FIELD_WEIGHTS`).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.knowledge import load_knowledge_base

HERE = Path(__file__).resolve().parent


def evaluate(retriever, items, k: int) -> dict[str, float]:
    top1 = hit_k = mrr = 0.0
    for it in items:
        names = [e.name for e, _ in retriever.search(it["q"], k=10)]
        rel = set(it["relevant"])
        top1 += bool(names) and names[0] in rel
        hit_k += any(n in rel for n in names[:k])
        rank = next((i for i, n in enumerate(names, 1) if n in rel), None)
        mrr += 1.0 / rank if rank else 0.0
    n = len(items)
    return {"top1": round(top1 / n, 3), f"recall@{k}": round(hit_k / n, 3), "mrr": round(mrr / n, 3), "n": n}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb")
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--embeddings", action="store_true",
                    help="also measure the embeddings retriever (needs the [rag] extra; loads its bundled model offline)")
    args = ap.parse_args()
    items = json.loads((HERE / "labelled.json").read_text(encoding="utf-8"))
    kb = load_knowledge_base(args.kb)
    out = {"exemplars": len(kb),
           "bm25_plain": evaluate(BM25Retriever(kb, weighted=False), items, args.k),
           "bm25_weighted": evaluate(BM25Retriever(kb), items, args.k)}
    if args.embeddings:
        from syntagm.rag.embeddings import EmbeddingRetriever

        out["embeddings"] = evaluate(EmbeddingRetriever(kb), items, args.k)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
