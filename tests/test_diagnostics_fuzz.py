"""Robustness: mutated models and random data text give diagnostics, never a Python exception or a hang."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.testing.fuzz import DATA_SEEDS, SEEDS, compile_safely, mutate, random_dat


@settings(max_examples=examples(200), deadline=None, derandomize=True, suppress_health_check=SPEED_CHECKS)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(SEEDS) - 1))
def test_mutated_models_never_crash(seed, which):
    rng = random.Random(seed)
    model = mutate(SEEDS[which], rng)
    data = DATA_SEEDS[seed % len(DATA_SEEDS)] if which == 2 else None
    crash, secs, _ = compile_safely(model, data)
    assert crash is None, (model, crash)
    assert secs < 5, model


@settings(max_examples=examples(150), deadline=None, derandomize=True, suppress_health_check=SPEED_CHECKS)
@given(text=st.text(alphabet='n=w[]{}<>#:;,."ab 0123456789.-\n\'@$', max_size=80))
def test_random_data_text_never_crashes(text):
    crash, secs, _ = compile_safely(SEEDS[2], text)
    assert crash is None, (text, crash)
    assert secs < 5


def test_random_data_from_mutator_never_crashes():
    rng = random.Random(7)
    for _ in range(50):
        crash, _, _ = compile_safely(SEEDS[2], random_dat(rng))
        assert crash is None


def test_fuzz_finding_array_inside_tuple_literal_is_a_diagnostic():
    # found by tools/fuzz_diagnostics.py: used to raise TypeError (unhashable list) in OplSet
    model = ('tuple Arc { string f; string t; float cost; }\n{Arc} Arcs = {<"a", "b", [>, <"b", "c", 1>};\n'
             'dvar float+ flow[Arcs];\nminimize sum(a in Arcs) flow[a];')
    crash, _, diags = compile_safely(model, None)
    assert crash is None and diags.errors
