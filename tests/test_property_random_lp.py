"""Property: a random small LP/MILP written as OPL text has the same optimum as the same
instance built directly with highspy (no pyopl code on that side)."""
from __future__ import annotations

import highspy
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl


@st.composite
def instances(draw):
    n = draw(st.integers(1, 4))
    m = draw(st.integers(1, 4))
    coef = st.integers(-5, 5)
    A = [[draw(coef) for _ in range(n)] for _ in range(m)]
    b = [draw(st.integers(0, 20)) for _ in range(m)]
    c = [draw(coef) for _ in range(n)]
    ub = [draw(st.integers(1, 10)) for _ in range(n)]
    integer = [draw(st.booleans()) for _ in range(n)]
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    kinds = [draw(st.sampled_from(["<=", ">=", "=="])) for _ in range(m)]
    return n, m, A, b, c, ub, integer, sense, kinds


def opl_text(n, m, A, b, c, ub, integer, sense, kinds) -> str:
    lines = []
    for j in range(n):
        lines.append("dvar %s x%d in 0..%d;" % ("int" if integer[j] else "float", j, ub[j]))
    obj = " + ".join("(%d) * x%d" % (c[j], j) for j in range(n))
    lines.append("%s %s;" % (sense, obj))
    lines.append("subject to {")
    for i in range(m):
        row = " + ".join("(%d) * x%d" % (A[i][j], j) for j in range(n))
        lines.append("  ct%d: %s %s %d;" % (i, row, kinds[i], b[i]))
    lines.append("}")
    return "\n".join(lines)


def direct_highs(n, m, A, b, c, ub, integer, sense, kinds):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    lower = np.array([-inf if k == ">=" and False else (-inf if k == "<=" else b[i]) for i, k in enumerate(kinds)], float)
    upper = np.array([inf if k == ">=" else b[i] for i, k in enumerate(kinds)], float)
    Acsc = np.array(A, float).T  # column-major: column j is A[:, j]
    starts, index, value = [0], [], []
    for j in range(n):
        for i in range(m):
            if Acsc[j][i] != 0:
                index.append(i)
                value.append(Acsc[j][i])
        starts.append(len(index))
    h.passModel(n, m, len(index), 1, -1 if sense == "maximize" else 1, 0.0,
                np.array(c, float), np.zeros(n), np.array(ub, float), lower, upper,
                np.array(starts, np.int32), np.array(index, np.int32), np.array(value, float),
                np.array([1 if t else 0 for t in integer], np.int32))
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return "optimal", h.getInfo().objective_function_value
    if status == highspy.HighsModelStatus.kInfeasible:
        return "infeasible", None
    return str(status), None


@settings(max_examples=examples(60), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(instances())
def test_random_model_matches_direct_highspy(inst):
    want_status, want_obj = direct_highs(*inst)
    result = pyopl.compile_model(opl_text(*inst)).solve()
    assert result.status == want_status
    if want_obj is not None:
        assert abs(result.objective - want_obj) <= 1e-6 * max(1.0, abs(want_obj))
