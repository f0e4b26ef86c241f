from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    n = len(d["Stocks"])
    x = [m.var(0, d["onHand"][s]) for s in range(n)]
    B = d["batch"]
    m.add(qsum(x) == B)
    for c in range(len(d["Components"])):
        amount = qsum(d["content"][s][c] * x[s] for s in range(n))
        m.add(amount >= d["minPct"][c] * B)
        m.add(amount <= d["maxPct"][c] * B)
    m.minimize(qsum(d["cost"][s] * x[s] for s in range(n)))
    return m
