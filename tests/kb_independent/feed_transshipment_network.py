from tests.kb_independent.lp import Model, qsum


def model(d):
    """Node-arc incidence with equalities: mills ship <= output, customers get
    exactly their need, hubs balance exactly."""
    m = Model()
    arcs = d["Lanes"]
    f = [m.var(0, a[3]) for a in arcs]
    for s, sup in zip(d["Sites"], d["netSupply"]):
        net = qsum(f[i] for i, a in enumerate(arcs) if a[0] == s) - qsum(f[i] for i, a in enumerate(arcs) if a[1] == s)
        if sup > 0:
            m.add(net <= sup)
            m.add(net >= 0)
        else:
            m.add(net == sup)
    m.minimize(qsum(a[2] * f[i] for i, a in enumerate(arcs)))
    return m
