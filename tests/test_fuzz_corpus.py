"""The corpus mutation campaign (tools/fuzz_corpus.py), small: a few hundred mutated real models
compile to diagnostics, never a Python exception, an internal error or a hang."""
from __future__ import annotations

import importlib.util
import os

import pytest

import pyopl
from pyopl.testing.fuzz import compile_safely

LIMITS = pyopl.Limits(max_work=200_000)  # every input ends quickly (the largest corpus models need more)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "opl-corpus")


def _tool():
    spec = importlib.util.spec_from_file_location("fuzz_corpus", os.path.join(ROOT, "tools", "fuzz_corpus.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def small_corpus():
    if not os.path.isdir(CORPUS):
        pytest.skip("../shared/opl-corpus is not here")  # the shared test material of the project
    tool = _tool()
    corpus = []
    for name, model, data in tool.load_corpus(CORPUS):
        if len(model) + len(data or "") >= 2_000:  # the small ones, chosen by size, never by the clock
            continue
        _crash, _secs, diags = compile_safely(model, data, LIMITS)
        if not any(d.code == "OPL1140" for d in diags):
            corpus.append((name, model, data))
    assert len(corpus) >= 10
    return tool, corpus


def test_inputs_depend_only_on_seed_and_index(small_corpus):
    tool, corpus = small_corpus
    assert tool.make_input(corpus, 3, 17) == tool.make_input(corpus, 3, 17)
    assert tool.make_input(corpus, 3, 17) != tool.make_input(corpus, 4, 17)


def test_mutated_corpus_models_never_crash(small_corpus):
    tool, corpus = small_corpus
    codes = set()
    for i in range(300):
        name, model, data = tool.make_input(corpus, 2026, i)
        crash, secs, diags = compile_safely(model, data, LIMITS)
        assert crash is None, (i, name, crash)
        codes.update(d.code for d in diags)
    assert len(codes) > 10  # the mutations reach many different diagnostics, not one
