import numpy as np
from scipy.optimize import minimize

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 4


def solve(d):
    """Two independent solvers: HiGHS QP via the builder, and SLSQP from
    scipy as a cross-check (they must agree to 1e-5 relative)."""
    A = range(len(d["Assets"]))
    cov = d["cov"]
    m = Model()
    w = [m.var(0, d["maxWeight"]) for _ in A]
    m.add(qsum(w) == 1)
    m.add(qsum(d["expReturn"][i] * w[i] for i in A) >= d["targetReturn"])
    for i in A:
        for j in A:
            if cov[i][j]:
                m.add_quadratic(cov[i][j], w[i], w[j])
    m.minimize(0)
    v = m.solve()
    C = np.array(cov, dtype=float)
    mu = np.array(d["expReturn"], dtype=float)
    res = minimize(lambda x: x @ C @ x, np.full(len(A), 1 / len(A)), jac=lambda x: 2 * C @ x,
                   bounds=[(0, d["maxWeight"])] * len(A), method="SLSQP",
                   constraints=[{"type": "eq", "fun": lambda x: x.sum() - 1},
                                {"type": "ineq", "fun": lambda x: mu @ x - d["targetReturn"]}],
                   options={"ftol": 1e-12, "maxiter": 500})
    assert abs(res.fun - v) <= 1e-5 * max(1.0, abs(v)), (res.fun, v)
    return v
