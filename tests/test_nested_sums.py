"""Nested sums (``sum(i in I) sum(j in J) ...``) taken as one sum over both binders by the array paths
(``vectorised_inline.flattened_sum``) give the IR of the nest evaluated as written, bit for bit: in the
objective, in row families, in dexpr cells, in a scalar dexpr named by the objective, and in a sum the
Evaluator meets; and nested ``forall``s taken as one row family (``flattened_forall``); where the nest would fold differently (a column twice within one outer iteration, a
constant in the body) or cannot be flattened (an inner domain naming an outer binder), the array paths
step aside.  Coefficients such as 0.1 and 0.7 make any change in the order of additions visible."""
from __future__ import annotations

import random

import pytest

import pyopl
from pyopl.lowering.evaluate import iteration
from pyopl.lowering.arrays.vectorised_inline import flattened_sum
from pyopl.syntax import ast as A
from tests.ir_compare import array_paths_off, assert_same_ir

HEAD = """
int n = 7;
range R = 1..n;
range K = 1..3;
float c[R][R] = %s;
float w[R] = %s;
{int} S[i in R] = {j | j in R : j <= i};
dvar float+ x[R][R] in 0..10;
dvar float+ y[R] in 0..10;
"""


def _head(seed: int) -> str:
    rng = random.Random(seed)
    c = [[rng.choice([0.1, 0.7, 1.3, 2.0, 0.3]) for _ in range(7)] for _ in range(7)]
    w = [rng.choice([0.1, 0.7, 1.1]) for _ in range(7)]
    return HEAD % (str(c).replace("[", "[").replace("]", "]"), str(w))


SHAPES = {
    "objective": "minimize sum(i in R) sum(j in R) c[i][j] * x[i][j];\nsubject to { forall(i in R) y[i] >= 1; }",
    "objective, three deep": "minimize sum(i in R) sum(j in R) sum(k in K) c[i][j] * k * x[i][j];\n"
                             "subject to { forall(i in R) y[i] >= 1; }",
    "objective, filter on the outer binder": "minimize sum(i in R) sum(j in R : j >= i) c[i][j] * x[i][j];\n"
                                             "subject to { forall(i in R) y[i] >= 1; }",
    "objective, a column in every outer iteration": "minimize sum(i in R) sum(j in R) c[i][j] * y[j];\n"
                                                    "subject to { forall(i in R) y[i] >= 1; }",
    "objective, one column throughout": "minimize sum(i in R) sum(j in R) c[i][j] * y[1] + sum(i in R) y[i];\n"
                                        "subject to { forall(i in R) y[i] >= 1; }",
    "objective, a constant in the body": "minimize sum(i in R) sum(j in R) (c[i][j] * x[i][j] + 0.1);\n"
                                         "subject to { forall(i in R) y[i] >= 1; }",
    "objective, inner domain from the outer binder": "minimize sum(i in R) sum(j in S[i]) c[i][j] * x[i][j];\n"
                                                     "subject to { forall(i in R) y[i] >= 1; }",
    "rows": "minimize sum(i in R) y[i];\nsubject to { forall(k in K) sum(i in R) sum(j in R) c[i][j] * x[i][j] <= k; }",
    "rows, one column throughout": "minimize sum(i in R) y[i];\n"
                                   "subject to { forall(k in K) sum(i in R) sum(j in R) c[i][j] * y[k] <= k; }",
    "rows, a column twice in a row": "minimize sum(i in R) y[i];\n"
                                     "subject to { forall(k in K) sum(i in R) sum(j in R) c[i][j] * y[j] <= k; }",
    "nested foralls": "minimize sum(i in R) y[i];\nsubject to { forall(i in R) forall(j in R : j >= i) "
                      "ct: c[i][j] * x[i][j] + w[j] * y[i] <= 3; }",
    "nested foralls, indexed label": "minimize sum(i in R) y[i];\nconstraint ct[R][R];\nsubject to { forall(i in R) "
                                     "forall(j in R) ct[j][i]: c[i][j] * x[i][j] - y[j] >= -4; }",
    "nested foralls, three deep, a sum inside": "minimize sum(i in R) y[i];\nsubject to { forall(k in K) forall(i in R) "
                                                "forall(j in R : j > k) sum(l in R) c[l][j] * x[i][l] <= k + j; }",
    "nested foralls, inner domain from the outer": "minimize sum(i in R) y[i];\nsubject to { forall(i in R) "
                                                   "forall(j in S[i]) x[i][j] + y[j] <= 5; }",
    "dexpr cells": "dexpr float load[k in K] = sum(i in R) sum(j in R : j >= k) c[i][j] * x[i][j];\n"
                   "minimize sum(i in R) y[i];\nsubject to { forall(k in K) load[k] <= 5; }",
    "scalar dexpr objective": "dexpr float total = sum(i in R) sum(j in R) c[i][j] * x[i][j];\nminimize total;\n"
                              "subject to { forall(i in R) y[i] >= 1; }",
    "scalar dexpr beside the objective": "dexpr float total = sum(i in R) sum(j in R) w[j] * x[i][j];\n"
                                         "minimize sum(i in R) y[i] + total;\nsubject to { total >= 2; }",
    "evaluator sum, one column throughout": "minimize sum(i in R) y[i];\nsubject to { sum(i in R) sum(j in R) "
                                            "c[i][j] * y[2] + sum(i in R) w[i] * y[i] >= 3; }",
    "scalar dexpr in a constraint, one column throughout": "dexpr float total = sum(i in R) sum(j in R) "
                                                           "c[i][j] * y[2];\nminimize sum(i in R) y[i];\n"
                                                           "subject to { total >= 3; }",
    "evaluator sum": "minimize sum(i in R) y[i];\nsubject to { sum(i in R) sum(j in R) c[i][j] * x[i][j] + "
                     "sum(i in R) w[i] * y[i] >= 3; }",
}


def _forms(ir) -> dict:
    return {name: [(k, (list(v.terms.items()), v.const) if hasattr(v, "terms") else v) for k, v in cells.items()]
            for name, cells in ir.dexprs.items()}


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_nested_sums_give_the_ir_of_the_nest(monkeypatch, shape, seed):
    mod = _head(seed) + SHAPES[shape]
    shipped = pyopl.compile_model(mod).ir
    array_paths_off(monkeypatch)
    monkeypatch.setattr(iteration.Iteration, "joins", False)
    reference = pyopl.compile_model(mod).ir
    assert_same_ir(shipped, reference)
    assert shipped.obj.tobytes() == reference.obj.tobytes() and shipped.obj_constant == reference.obj_constant
    assert _forms(shipped) == _forms(reference)


def test_the_objective_nest_by_hand():
    # c[i][j] = 0.1 * i + j for x[i][j]: the objective vector is those numbers in key order
    mod = ("range R = 1..3;\nfloat c[i in R][j in R] = 0.1 * i + j;\ndvar float+ x[R][R];\n"
           "minimize sum(i in R) sum(j in R) c[i][j] * x[i][j];\nsubject to { forall(i in R) sum(j in R) x[i][j] >= 1; }")
    ir = pyopl.compile_model(mod).ir
    assert ir.obj.tolist() == [0.1 * i + j for i in (1, 2, 3) for j in (1, 2, 3)]


def _sum(binders, body):
    return A.Aggregate(None, "sum", A.Qualifiers(None, binders), body)


def _binder(name, domain):
    return A.Binder(None, [A.Pattern(None, name=name)], domain)


def test_what_is_flattened():
    R, body = A.Name(None, "R"), A.Name(None, "b")
    memo: dict = {}
    nest = _sum([_binder("i", R)], _sum([_binder("j", R)], body))
    flat = flattened_sum(nest, memo)
    assert [b.patterns[0].name for b in flat.quals.binders] == ["i", "j"] and flat.body is body
    assert flattened_sum(nest, memo) is flat  # the same node again
    # the inner domain names the outer binder; the same name twice; a pattern binder: left as written
    dependent = _sum([_binder("i", R)], _sum([_binder("j", A.Index(None, A.Name(None, "S"), [A.Name(None, "i")]))], body))
    shadow = _sum([_binder("i", R)], _sum([_binder("i", R)], body))
    pattern = _sum([_binder("i", R)], _sum([A.Binder(None, [A.Pattern(None, items=[A.Pattern(None, name="a")])], R)],
                                           body))
    for n in (dependent, shadow, pattern):
        assert flattened_sum(n, memo) is n
