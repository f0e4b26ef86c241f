from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    W = range(len(d["Ways"]))
    n = [m.var(0, 100, integer=True) for _ in W]
    for l in range(len(d["Lengths"])):
        m.add(qsum(d["pieces"][w][l] * n[w] for w in W) >= d["piecesOrdered"][l])
    m.minimize(qsum(n))
    return m
