import itertools

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 12


def solve(d):
    """With equally likely scenarios and (1-alpha)*S = k an integer, CVaR is the
    average of the k largest losses, i.e. the max over k-subsets of the
    average loss: one linear row per subset."""
    A, S = range(len(d["Assets"])), d["nbScen"]
    k = (1 - d["alpha"]) * S
    assert abs(k - round(k)) < 1e-9
    k = int(round(k))
    m = Model()
    w = [m.var() for _ in A]
    m.add(qsum(w) == 1)
    loss = [-qsum(d["ret"][s][a] * w[a] for a in A) for s in range(S)]
    for sub in itertools.combinations(range(S), k):
        m.add(qsum(loss[s] for s in sub) / k <= d["maxCvar"])
    m.maximize(qsum(d["ret"][s][a] * w[a] for s in range(S) for a in A) / S)
    return m.solve()
