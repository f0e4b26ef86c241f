"""Top-1 and top-3 of exemplar retrieval on benchmark problems in their own wording.

Usage: ``python benchmarks/retrieval/measure_benchmarks.py [--benchmarks ../shared/benchmarks] [--split all|dev|held_out]``

``benchmark_labels.json`` (next to this script) names problems of the shared NL4OPT and
IndustryOR files by dataset and index, each labelled by reading it with the class(es) its model
needs; its ``rule`` says how, and its ``classes`` map says which exemplars fit each class.
Held-out: every second problem of each dataset (index order), starting with the second; the
retriever's settings were chosen on the other half.  Prints, per retriever and dataset, top-1
(the first exemplar fits) and top-3 (one of the first three fits).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.knowledge import load_knowledge_base

HERE = Path(__file__).resolve().parent


def load_items(bench_dir: Path) -> list[dict]:
    """The labelled problems with their text, relevant exemplars and split."""
    spec = json.loads((HERE / "benchmark_labels.json").read_text(encoding="utf-8"))
    texts = {}
    items, seen = [], {}
    for dataset, index, classes in spec["problems"]:
        if dataset not in texts:
            texts[dataset] = json.loads((bench_dir / f"{dataset}.json").read_text(encoding="utf-8"))
        k = seen[dataset] = seen.get(dataset, -1) + 1
        relevant = sorted({e for c in classes for e in spec["classes"][c]})
        items.append({"dataset": dataset, "index": index, "q": texts[dataset][index]["en_question"],
                      "classes": classes, "relevant": relevant, "split": "held_out" if k % 2 else "dev"})
    return items


def evaluate(retriever, items) -> dict:
    out = {}
    for name in sorted({i["dataset"] for i in items}) + ["all"]:
        sel = [i for i in items if name in ("all", i["dataset"])]
        top1 = top3 = 0
        for it in sel:
            names = [e.name for e, _ in retriever.search(it["q"], k=3)]
            top1 += bool(names) and names[0] in it["relevant"]
            top3 += any(n in it["relevant"] for n in names)
        out[name] = {"n": len(sel), "top1": round(top1 / len(sel), 3), "top3": round(top3 / len(sel), 3)}
    return out


def first_hits(retriever, items) -> dict:
    """How often each exemplar comes first (a retriever that favours one exemplar shows here)."""
    counts: dict[str, int] = {}
    for it in items:
        hits = retriever.search(it["q"], k=1)
        if hits:
            counts[hits[0][0].name] = counts.get(hits[0][0].name, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:5])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--benchmarks", default=str(HERE.parents[2] / "shared" / "benchmarks"))
    ap.add_argument("--split", choices=("all", "dev", "held_out"), default="held_out")
    ap.add_argument("--kb")
    args = ap.parse_args()
    items = [i for i in load_items(Path(args.benchmarks)) if args.split in ("all", i["split"])]
    kb = load_knowledge_base(args.kb)
    out = {"split": args.split, "exemplars": len(kb)}
    for label, r in (("bm25_v1_field_repeat", BM25Retriever(kb, scheme="v1")), ("bm25", BM25Retriever(kb))):
        out[label] = evaluate(r, items)
        out[label]["most_often_first"] = first_hits(r, items)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
