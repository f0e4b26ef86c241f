from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    P, C = range(len(d["Plants"])), range(len(d["Centres"]))
    x = {(p, c): m.var() for p in P for c in C}
    for p in P:
        m.add(qsum(x[p, c] for c in C) <= d["supply"][p])
    for c in C:
        m.add(qsum(x[p, c] for p in P) >= d["demand"][c])
    m.minimize(qsum(d["cost"][p][c] * x[p, c] for p in P for c in C))
    return m
