"""Issue 31.1: the work budget charges what a filter evaluated as a hash join costs (the set's size once,
then the matches), not set x rows; a genuine cartesian product is still refused before it starts."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import pyopl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import models  # noqa: E402
from call_count import python_calls  # noqa: E402

PATTERN = ("ctBalance: sum(a in Arcs : a.dest == v) ship[a] - sum(a in Arcs : a.orig == v) ship[a] == -b[v];",
           "ctBalance: sum(<o, d, c, u> in Arcs : d == v) ship[<o, d, c, u>] "
           "- sum(<o, d, c, u> in Arcs : o == v && u >= 0) ship[<o, d, c, u>] == -b[v];")


@pytest.mark.parametrize("spelling", ["as in the issue", "patterns and a conjunct"])
def test_a_budget_linear_in_the_data_is_enough(spelling):
    case = models.issue31(2000)  # 2,000 nodes x 16,000 arcs: 32,000,000 pairs if the filter scanned
    mod = case.mod if spelling == "as in the issue" else case.mod.replace(*PATTERN)
    budget = 20 * (2000 + 16000)  # 360,000: a hundredth of the product
    m = pyopl.compile_model(mod, data=case.dat, limits=pyopl.Limits(max_work=budget))
    assert m.ir.A.shape == (2000, 16000) and m.ir.A.nnz == 32000


def test_the_issue_shape_at_64000_nodes_passes_the_default_budget():
    case = models.issue31(64000)
    diags = pyopl.check(case.mod.replace(*PATTERN), case.dat)  # the spelling that fell to the tree walk
    assert diags == []


def test_a_real_product_is_refused_before_the_work_with_the_product_in_the_message():
    mod = ("range R = 1..60000; dvar float+ x[R];\nminimize sum(i in R) x[i];\n"
           "subject to { forall(i in R, j in R : i < j) x[i] + x[j] >= 1; }\n")
    diags, calls = python_calls(pyopl.check, mod)
    assert calls < 60_000  # fewer Python calls than R has elements: not one row was built (3.6e9 pairs)
    assert [d.code for d in diags] == ["OPL1140"]
    assert "3,600,000,000" in diags[0].message and "60,000 x 60,000" in diags[0].message
