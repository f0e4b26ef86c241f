"""Top-1 and top-3 of exemplar retrieval on benchmark problems in their own wording.

Usage: ``python benchmarks/retrieval/measure_benchmarks.py [--benchmarks ../shared/benchmarks] [--split all|dev|held_out] [--fit]``

``benchmark_labels.json`` (next to this script) names problems of the shared NL4OPT and
IndustryOR files by dataset and index, each labelled by reading it with the class(es) its model
needs; its ``rule`` says how, and its ``classes`` map says which exemplars fit each class.
Held-out: every second problem of each dataset (index order), starting with the second; the
retriever's settings were chosen on the other half.  Prints, per retriever and dataset, top-1
(the first exemplar fits) and top-3 (one of the first three fits).

Where sentence-transformers and the model are installed (extra ``[rag]``), the embedding
retriever and the hybrid (:mod:`syntagm.rag.hybrid`, at its fitted weight) are measured too.
``--fit`` prints, for each lexical weight 0, 0.05, ..., 1, the hybrid's top-1 and top-3 on the
development material, per wording style and pooled, and the weight that best meets the targets
there (:func:`fit`).  Since the third round the development material is every problem of
``benchmark_labels.json`` and ``fresh_labels.json`` (:func:`development_items`); the held-out set
is ``fresh_labels2.json``, drawn and labelled blind after the retriever was frozen.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.hybrid import LEXICAL_WEIGHT, HybridRetriever
from syntagm.rag.knowledge import load_knowledge_base

HERE = Path(__file__).resolve().parent


def load_items(bench_dir: Path, labels: Path = HERE / "benchmark_labels.json") -> list[dict]:
    """The labelled problems with their text, relevant exemplars and split.

    ``labels``: ``benchmark_labels.json`` (split into ``dev`` and ``held_out`` as the module
    docstring says) or ``fresh_labels.json`` (every problem ``fresh``: drawn and labelled blind
    after the retrievers were frozen).  Entries are ``[dataset, index, classes]`` or
    ``[dataset, index, classes, note]``; a problem whose classes are ``[]`` needs a pattern that no
    class covers and is returned with ``relevant == []`` (:func:`evaluate` leaves it out and counts it).
    The class map (which exemplars fit each class) is always ``benchmark_labels.json``'s."""
    spec = json.loads(labels.read_text(encoding="utf-8"))
    class_map = json.loads((HERE / "benchmark_labels.json").read_text(encoding="utf-8"))["classes"]
    fresh = labels.name != "benchmark_labels.json"
    texts = {}
    items, seen = [], {}
    for dataset, index, classes, *_ in spec["problems"]:
        if dataset not in texts:
            texts[dataset] = json.loads((bench_dir / f"{dataset}.json").read_text(encoding="utf-8"))
        k = seen[dataset] = seen.get(dataset, -1) + 1
        relevant = sorted({e for c in classes for e in class_map[c]})
        split = "fresh" if fresh else ("held_out" if k % 2 else "dev")
        items.append({"dataset": dataset, "index": index, "q": texts[dataset][index]["en_question"],
                      "classes": classes, "relevant": relevant, "split": split})
    return items


#: Which wording each dataset's problems are in (the issue's targets hold for both styles).
STYLE = {"NL4OPT": "NL4OPT-style", "NLP4LP": "NL4OPT-style", "ReSocratic": "NL4OPT-style",
         "IndustryOR": "IndustryOR-style", "ComplexOR": "IndustryOR-style",
         "ChallengeOR": "IndustryOR-style"}


def evaluate(retriever, items) -> dict:
    """Top-1 and top-3 per dataset, per wording style (:data:`STYLE`) and pooled (``all``).

    Problems labelled ``[]`` (no class covers them) are left out of the rates and counted
    under ``uncovered``."""
    out = {}
    covered = [i for i in items if i["relevant"]]
    groups = sorted({i["dataset"] for i in items})
    styles = sorted({STYLE.get(g, g) for g in groups})
    for name in groups + (styles if len(styles) < len(groups) else []) + ["all"]:
        sel = [i for i in covered if name in ("all", i["dataset"], STYLE.get(i["dataset"]))]
        top1 = top3 = 0
        for it in sel:
            names = [e.name for e, _ in retriever.search(it["q"], k=3)]
            top1 += bool(names) and names[0] in it["relevant"]
            top3 += any(n in it["relevant"] for n in names)
        n = len(sel) or 1
        out[name] = {"n": len(sel), "top1": round(top1 / n, 3), "top3": round(top3 / n, 3),
                     "uncovered": sum(1 for i in items if not i["relevant"]
                                      and name in ("all", i["dataset"], STYLE.get(i["dataset"])))}
    return out


def first_hits(retriever, items) -> dict:
    """How often each exemplar comes first (a retriever that favours one exemplar shows here)."""
    counts: dict[str, int] = {}
    for it in items:
        hits = retriever.search(it["q"], k=1)
        if hits:
            counts[hits[0][0].name] = counts.get(hits[0][0].name, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:5])


def cached(encoder):
    """``encoder`` remembering each text's embedding (the queries are embedded once per run)."""
    memo: dict[str, object] = {}

    def encode(texts):
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
        if missing:
            memo.update(zip(missing, encoder(missing)))
        return [memo[t] for t in texts]
    return encode


def dense_retrievers(kb):
    """``(plain embeddings, hybrid's dense part)`` or ``None`` when sentence-transformers is absent."""
    from syntagm.rag.embeddings import EmbeddingRetriever, available, load_encoder, title_and_description

    if not available():
        return None
    encoder = cached(load_encoder())
    return (EmbeddingRetriever(kb, encoder=encoder),
            EmbeddingRetriever(kb, encoder=encoder, text_of=title_and_description))


#: The issue's targets, per benchmark family: top-1 >= 0.60 and top-3 >= 0.85.
TARGETS = {"top1": 0.60, "top3": 0.85}


def attainment(result: dict) -> float:
    """How far the worse family reaches the targets: min over families and measures of value / target."""
    return min(result[f][m] / t for f in result if f != "all" for m, t in TARGETS.items())


def development_items(bench_dir: Path) -> list[dict]:
    """The development material of the third round: every problem of ``benchmark_labels.json``
    and of ``fresh_labels.json`` that some class covers, each grouped (``dataset``) by its wording
    style (:data:`STYLE`) and marked ``dev``.  ``fresh_labels2.json`` stays held out."""
    items = load_items(bench_dir) + load_items(bench_dir, HERE / "fresh_labels.json")
    return [dict(i, dataset=STYLE[i["dataset"]], split="dev") for i in items if i["relevant"]]


def fit(lexical, dense, items) -> float:
    """The lexical weight that best meets the targets on the ``dev`` items: the largest
    :func:`attainment` (the worse family's), then the largest pooled top-1 + top-3, then the weight
    nearest 0.5 (each weight's figures are printed)."""
    dev = [i for i in items if i["split"] == "dev"]
    best = None
    for step in range(21):
        w = step / 20
        res = evaluate(HybridRetriever(lexical, dense, w), dev)
        r = res["all"]
        key = (round(attainment(res), 6), r["top1"] + r["top3"], -abs(w - 0.5))
        print(f"w={w:.2f} dev top-1 {r['top1']:.3f} top-3 {r['top3']:.3f} "
              + " ".join(f"{f} {res[f]['top1']:.3f}/{res[f]['top3']:.3f}" for f in res if f != "all")
              + f" attainment {key[0]:.3f}")
        if best is None or key > best[0]:
            best = (key, w)
    print(f"fitted lexical weight: {best[1]:.2f}")
    return best[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--benchmarks", default=str(HERE.parents[2] / "shared" / "benchmarks"))
    ap.add_argument("--split", choices=("all", "dev", "held_out"), default="held_out",
                    help="with the default labels: which half (a --labels file is measured whole)")
    ap.add_argument("--labels", default=str(HERE / "benchmark_labels.json"),
                    help="the labelled problems (fresh_labels.json: the blind set drawn after the freeze)")
    ap.add_argument("--kb")
    ap.add_argument("--fit", action="store_true", help="fit the hybrid's lexical weight on the development half")
    args = ap.parse_args()
    every = load_items(Path(args.benchmarks), Path(args.labels))
    items = [i for i in every if args.split in ("all", i["split"]) or i["split"] == "fresh"]
    kb = load_knowledge_base(args.kb)
    lexical = BM25Retriever(kb)
    dense = dense_retrievers(kb)
    if args.fit:
        if dense is None:
            raise SystemExit("--fit needs sentence-transformers (pip install 'pyopl[rag]')")
        fit(lexical, dense[1], development_items(Path(args.benchmarks)))
        return
    out = {"labels": Path(args.labels).name, "split": args.split, "exemplars": len(kb)}
    runs = [("bm25_v1_field_repeat", BM25Retriever(kb, scheme="v1")), ("bm25", lexical)]
    if dense is not None:
        runs += [("embeddings", dense[0]), (f"hybrid_w{LEXICAL_WEIGHT}", HybridRetriever(lexical, dense[1]))]
    for label, r in runs:
        out[label] = evaluate(r, items)
        out[label]["most_often_first"] = first_hits(r, items)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
