from tests.kb_independent.lp import Model, qsum


def model(d):
    """Split formulation: deviation = up - down with up, down >= 0."""
    m = Model()
    S, T = range(len(d["Stocks"])), range(d["nbMonths"])
    w = [m.var(0, d["maxWeight"]) for _ in S]
    up = [m.var() for _ in T]
    dn = [m.var() for _ in T]
    m.add(qsum(w) == 1)
    for t in T:
        m.add(qsum(d["ret"][t][s] * w[s] for s in S) - d["indexRet"][t] == up[t] - dn[t])
    m.minimize(qsum(up[t] + dn[t] for t in T) / d["nbMonths"])
    return m
