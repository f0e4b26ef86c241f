"""Differential check of the script interpreter against Node.js (a real ECMAScript engine) over
generated ES3 programs (benchmarks/es_programs.py).  Skipped, with a message, only where ``node``
is not installed.  The few differences allowed are the last digit of ``Math`` functions that
ECMAScript leaves to the implementation's approximation (15.8.2: sin, pow, ...)."""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "es_differential.py"


def _load():
    spec = importlib.util.spec_from_file_location("es_differential", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (apt-get install nodejs)")
def test_generated_programs_agree_with_node():
    total, agree, diffs = _load().compare(seed=3, count=30, checks=40)
    assert total == 1200
    approximations = [d for d in diffs if d[0].startswith("Math.")]
    others = [d for d in diffs if not d[0].startswith("Math.")]
    assert not others, others[:10]
    assert len(approximations) <= total * 0.01, approximations[:10]
