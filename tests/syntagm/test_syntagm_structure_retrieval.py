"""Retrieval by decision structure (syntagm.rag.structure): the phrases that state a structure,
and re-ranking that follows them rather than story words."""
from __future__ import annotations

import pytest

from syntagm.rag import make_retriever
from syntagm.rag.bm25 import BM25Retriever
from syntagm.rag.knowledge import Exemplar, load_knowledge_base
from syntagm.rag.structure import StructureRetriever, structures

pytest.importorskip("bm25s")


@pytest.mark.parametrize("text, found", [
    ("Choose which items to pack; each is taken entirely or not at all.", ["selection"]),
    ("Each nurse takes exactly one ward and each ward needs exactly one nurse.", ["assignment"]),
    ("Ship from each dairy to each supermarket.", ["transport"]),
    ("A toy kept in stock from one month to the next costs $1.50.", ["inventory"]),
    ("Visit each town exactly once, starting and ending at the depot.", ["routing"]),
    ("A task can start only after its prerequisites finish.", ["scheduling"]),
    ("Demand is 80 or 100 in two equally likely scenarios.", ["recourse"]),
    ("A pill earns $0.40; how many of each pill should be pressed?", ["mix"]),
    ("The ration needs at least 9,000 kcal of energy.", ["content"]),
    ("A warehouse stores crates for a shop.", []),
    ("A field needs at least 60 kg of nitrogen at the cheapest treatment.", ["content"]),
])
def test_the_phrases_that_state_a_structure(text, found):
    assert structures(text) == found


def test_story_words_of_another_class_do_not_decide():
    kb = load_knowledge_base()
    r = StructureRetriever(BM25Retriever(kb))
    pills = ("A pharmacy compounds two vitamin tablets from a powder. Each tablet of kind A earns $0.30 and kind B "
             "$0.45; how many of each tablet should be pressed to maximise profit, with 500 mg of binder?")
    first = r.search(pills, k=1)[0][0]
    assert "product_mix" in first.meta["patterns"]
    choose = ("A charity has $50,000 and must choose which of seven grant requests to fund; a request is funded "
              "entirely or not at all. Fund the requests that help the most people.")
    # every one of the first three models a knapsack; the first, consultant_project_allocation, is an
    # assignment with a knapsack budget that shares the story word "project" (docs/syntagm.md: a residual miss)
    assert all("knapsack" in e.meta["patterns"] for e, _ in r.search(choose, k=3))


def test_without_patterns_or_structures_the_base_ranking_stands():
    kb = [Exemplar(name=n, description=d, model="", data="", meta={}) for n, d in
          (("a", "ship goods from plants to markets"), ("b", "choose which projects to fund"))]
    base = BM25Retriever(kb)
    r = StructureRetriever(base)
    q = "choose which projects to fund"
    assert r.scores(q) == base.scores(q)  # no exemplar has patterns
    full = load_knowledge_base()
    b2, r2 = BM25Retriever(full), StructureRetriever(BM25Retriever(full))
    assert r2.scores("a warehouse stores crates") == b2.scores("a warehouse stores crates")  # no structure stated


def test_the_retriever_option():
    r = make_retriever("structure")
    assert r.name == "structure" and len(r.exemplars) == 53
