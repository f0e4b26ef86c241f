from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    arcs, S, K = d["Sections"], d["Stations"], range(len(d["Freight"]))
    f = {(k, i): m.var() for k in K for i in range(len(arcs))}
    for k in K:
        for si, s in enumerate(S):
            out = qsum(f[k, i] for i, a in enumerate(arcs) if a[0] == s)
            inn = qsum(f[k, i] for i, a in enumerate(arcs) if a[1] == s)
            m.add(out - inn == d["netSupply"][k][si])
    for i, a in enumerate(arcs):
        m.add(qsum(f[k, i] for k in K) <= a[2])
    m.minimize(qsum(a[3] * f[k, i] for k in K for i, a in enumerate(arcs)))
    return m
