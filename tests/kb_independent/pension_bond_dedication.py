from tests.kb_independent.lp import Model, qsum


def model(d):
    """Eliminate the deposit variables: the money still on deposit after year t
    is the compounded sum of all earlier net inflows, and must be >= 0."""
    m = Model()
    B, T, r = range(len(d["Bonds"])), d["nbYears"], d["depositRate"]
    x = [m.var() for _ in B]
    for t in range(T):
        balance = qsum(
            (1 + r) ** (t - s) * (qsum(d["cashflow"][b][s] * x[b] for b in B) - d["liability"][s])
            for s in range(t + 1))
        m.add(balance >= 0)
    m.minimize(qsum(d["price"][b] * x[b] for b in B))
    return m
