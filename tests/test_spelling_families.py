"""Issue 31.3: every spelling of every benchmark family (``benchmarks/spelling_sets.py``) at a small size.

- The IR as shipped (array paths, joins) equals, bit for bit, the IR built with the array paths and the
  tree walk's joins off (every domain scanned: the reference), and so does the IR with only the array
  paths off; so do the dexprs' linear forms (terms in order, constants) kept for the values reported.
- The spelling means the family's problem: its optimum is the optimum of the family's direct arrays
  (``models.<family>(...).direct()``, built with NumPy and solved by highspy without pyopl).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import pyopl
from pyopl.lowering.evaluate import iteration
from tests.ir_compare import array_paths_off, assert_same_ir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import models  # noqa: E402
import spelling_sets  # noqa: E402

CASES = [(family, name) for family, (_g, _big, _small, spellings) in spelling_sets.FAMILIES.items()
         for name in spellings]
_DATA: dict = {}


def _case(family: str):
    if family not in _DATA:
        generator, _big, small, _s = spelling_sets.FAMILIES[family]
        _DATA[family] = getattr(models, generator)(*small)
    return _DATA[family]


def _direct_optimum(case) -> float:
    import highspy

    d = case.direct()
    fd = os.dup(1)
    try:  # (highspy's banner)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        h = highspy.Highs()
    finally:
        os.dup2(fd, 1)
        os.close(fd)
    h.setOptionValue("output_flag", False)
    A = d.A
    h.passModel(A.shape[1], A.shape[0], int(A.nnz), int(highspy.MatrixFormat.kColwise), d.sense, 0.0,
                np.ascontiguousarray(d.c, dtype=np.float64), d.col_lower, d.col_upper, d.row_lower, d.row_upper,
                A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data.astype(np.float64), d.integrality)
    h.run()
    return h.getInfo().objective_function_value


def _forms(ir) -> dict:
    return {name: [(k, (list(v.terms.items()), v.const) if hasattr(v, "terms") else v) for k, v in cells.items()]
            for name, cells in ir.dexprs.items()}


@pytest.mark.parametrize("family,name", CASES)
def test_spelling_gives_the_reference_ir_and_the_family_optimum(monkeypatch, family, name):
    case = _case(family)
    mod = spelling_sets.spelled(family, name)
    shipped = pyopl.compile_model(mod, data=case.dat)
    array_paths_off(monkeypatch)
    walk_with_joins = pyopl.compile_model(mod, data=case.dat).ir
    monkeypatch.setattr(iteration.Iteration, "joins", False)
    reference = pyopl.compile_model(mod, data=case.dat).ir
    monkeypatch.undo()
    assert reference.A.nnz > 0
    assert_same_ir(shipped.ir, reference)
    assert_same_ir(walk_with_joins, reference)
    assert _forms(shipped.ir) == _forms(reference) == _forms(walk_with_joins)  # dexprs, for the values reported
    result = shipped.solve()
    assert result.status == "optimal"
    assert result.objective == pytest.approx(_direct_optimum(case), rel=1e-9, abs=1e-9)


def test_every_family_has_spellings_and_the_first_is_the_model_as_written():
    for family, (generator, big, small, spellings) in spelling_sets.FAMILIES.items():
        assert len(spellings) >= 8, family
        first = next(iter(spellings))
        assert spellings[first] == [] and spelling_sets.spelled(family, first) == getattr(models, generator)(*small).mod
