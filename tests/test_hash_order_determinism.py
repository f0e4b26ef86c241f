"""The compiled model does not depend on Python's hash order: the same model compiled in two processes
with different ``PYTHONHASHSEED`` values (string hashes differ, object addresses too) gives the same IR
and the same CP-SAT model, hashed as ``tools/ir_hashes.py`` hashes them.

The model leans on what hash order could leak into: string sets combined (`union`, `inter`, `symdiff`),
a tuple set whose tuples hold an array and a set (they hash by the array's identity, its address, as
IBM compares them; ``sched_rcpsp``'s tasks), a subset of those tuples, a cumul function over a filter,
precedences over a tuple's set field. The whole corpus was compared the same way (docs/performance.md,
"Hash order")."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from shared_material import SHARED, ROOT

MODEL = """using CP;
tuple Task { key string id; int pt; int dmds[0..1]; {string} succs; }
{Task} Tasks = ...;
{string} A = {t.id | t in Tasks};
{string} B = {"k", "c", "x", "a"};
{string} U = A union B;
{string} I = A inter B;
{string} D = A symdiff B;
{Task} Late = {t | t in Tasks : card(t.succs) == 0};
dvar interval itvs[t in Tasks] size t.pt;
cumulFunction use[r in 0..1] = sum(t in Tasks : t.dmds[r] > 0) pulse(itvs[t], t.dmds[r]);
dvar int y[U] in 0..10;
minimize max(t in Tasks) endOf(itvs[t]) + sum(u in U) y[u];
subject to {
  forall(r in 0..1) use[r] <= 3;
  forall(t in Tasks, s in t.succs) endBeforeStart(itvs[t], itvs[<s>]);
  forall(u in I) y[u] >= 1;
  forall(u in D) y[u] >= ord(U, u) mod 4;
  forall(t in Late) startOf(itvs[t]) >= 1;
}
"""
DATA = """Tasks = {
  <"a", 2, [1, 0], {"b", "c"}>, <"b", 3, [2, 1], {"d"}>, <"c", 1, [0, 2], {"d", "e"}>,
  <"d", 2, [1, 1], {}>, <"e", 4, [3, 0], {}>, <"f", 1, [1, 2], {"a"}>
};
"""


def _child_code() -> str:
    spec = importlib.util.spec_from_file_location("ir_hashes", ROOT / "tools" / "ir_hashes.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return "import sys; print('seed-probe', hash('pyopl'))\n" + mod.CHILD


def _hashes(mod: str, dat: str, seed: int, cwd: str) -> tuple[str, str]:
    """(the IR hash, the probe ``hash('pyopl')``) of ``mod`` with ``dat`` compiled under ``seed``."""
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _child_code(), mod, dat, "0"], capture_output=True, text=True,
                         env=env, cwd=cwd, timeout=120)
    lines = out.stdout.split()
    assert out.returncode == 0 and "error" not in out.stdout and "compile-error" not in out.stdout, out.stderr[-2000:]
    return lines[-1], lines[1]


def test_two_hash_seeds_give_the_same_ir_and_cp_model(tmp_path):
    (tmp_path / "m.mod").write_text(MODEL)
    (tmp_path / "m.dat").write_text(DATA)
    (h1, p1), (h2, p2) = (_hashes(str(tmp_path / "m.mod"), str(tmp_path / "m.dat"), s, str(tmp_path)) for s in (1, 2))
    assert p1 != p2  # the seeds took effect: string hashes (and so set orders) differ between the two
    assert h1 == h2


RCPSP = SHARED / "cp-corpus" / "ibm-sched-rcpsp"


@pytest.mark.skipif(not (RCPSP / "model.mod").exists(), reason="../shared/cp-corpus is not present here")
def test_the_rcpsp_corpus_model_compiles_the_same_under_two_hash_seeds():
    hs = {_hashes(str(RCPSP / "model.mod"), str(RCPSP / "model.dat"), s, str(RCPSP))[0] for s in (3, 4)}
    assert len(hs) == 1
