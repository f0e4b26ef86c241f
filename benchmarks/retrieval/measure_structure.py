"""Top-1 and top-3 of exemplar retrieval on ``structure_set.json`` (problems written for issue 47).

Usage: ``python benchmarks/retrieval/measure_structure.py [--split dev|blind|all] [--show]``

An exemplar fits a problem when it belongs to one of the problem's classes: the class map of
``benchmark_labels.json`` for its ten classes, and for ``project_scheduling`` and
``two_stage_recourse`` the exemplars whose ``meta.json`` patterns include ``precedence`` and
``two_stage_stochastic``.  Problems no exemplar fits are counted as
``uncovered`` and left out of the rates.  Prints, for BM25 ``v2`` with and without the structure
re-ranking of :mod:`syntagm.rag.structure`, top-1 and top-3 on the chosen split.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.knowledge import load_knowledge_base

HERE = Path(__file__).resolve().parent
NEW_CLASSES = {"project_scheduling": "precedence", "two_stage_recourse": "two_stage_stochastic"}


def class_map(kb) -> dict[str, set[str]]:
    """``{class: exemplar names}`` (see the module docstring)."""
    classes = {k: set(v) for k, v in json.loads((HERE / "benchmark_labels.json").read_text())["classes"].items()}
    for cls, pattern in NEW_CLASSES.items():
        classes[cls] = {e.name for e in kb if pattern in (e.meta.get("patterns") or [])}
    return classes


def items(split: str, kb) -> list[dict]:
    """The problems of ``split`` with their relevant exemplars."""
    cmap = class_map(kb)
    data = json.loads((HERE / "structure_set.json").read_text())["problems"]
    return [dict(p, relevant=sorted(set().union(*(cmap.get(c, set()) for c in p["classes"]))))
            for p in data if split in ("all", p["split"])]


def evaluate(retriever, its: list[dict], show: bool = False) -> dict:
    """``{n, top1, top3, uncovered}`` over the covered problems of ``its``."""
    covered = [i for i in its if i["relevant"]]
    top1 = top3 = 0
    for it in covered:
        names = [e.name for e, _ in retriever.search(it["text"], k=3)]
        top1 += bool(names) and names[0] in it["relevant"]
        top3 += any(n in it["relevant"] for n in names)
        if show and not (names and names[0] in it["relevant"]):
            print(f"  miss #{it['id']} {it['classes']}: {names}")
    n = len(covered) or 1
    return {"n": len(covered), "top1": round(top1 / n, 3), "top3": round(top3 / n, 3),
            "uncovered": len(its) - len(covered)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="dev", choices=("dev", "blind", "all"))
    ap.add_argument("--show", action="store_true", help="print the problems whose first exemplar does not fit")
    args = ap.parse_args()
    kb = load_knowledge_base()
    its = items(args.split, kb)
    retrievers = [("bm25 v2", BM25Retriever(kb))]
    try:
        from syntagm.rag.structure import StructureRetriever

        retrievers.append(("bm25 v2 + structure", StructureRetriever(BM25Retriever(kb))))
    except ImportError:
        pass
    for name, r in retrievers:
        if args.show:
            print(name)
        print(name, args.split, evaluate(r, its, args.show))


if __name__ == "__main__":
    main()
