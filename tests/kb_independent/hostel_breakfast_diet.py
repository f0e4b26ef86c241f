from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    foods = range(len(d["Foods"]))
    x = [m.var(0, d["maxServings"][f]) for f in foods]
    for n in range(len(d["Nutrients"])):
        m.add(qsum(d["perServing"][f][n] * x[f] for f in foods) >= d["minNeed"][n])
    m.minimize(qsum(d["cost"][f] * x[f] for f in foods))
    return m
