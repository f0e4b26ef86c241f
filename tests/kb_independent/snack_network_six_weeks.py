from tests.kb_independent.lp import Model, qsum


def model(d):
    """Shipments only; production is their sum (capacity row) and depot stock
    is the cumulative surplus (>= 0), so no make/stock variables are needed."""
    m = Model()
    F, D, T = range(len(d["Factories"])), range(len(d["Depots"])), range(d["nbWeeks"])
    x = {(f, k, t): m.var() for f in F for k in D for t in T}
    cost = 0
    for f in F:
        for t in T:
            made = qsum(x[f, k, t] for k in D)
            m.add(made <= d["capacity"][f])
            cost = cost + d["makeCost"][f] * made
    for k in D:
        for t in T:
            stock = qsum(x[f, k, s] for f in F for s in range(t + 1)) - sum(d["orders"][k][: t + 1])
            m.add(stock >= 0)
            cost = cost + d["holdCost"] * stock
    cost = cost + qsum(d["shipCost"][f][k] * x[f, k, t] for f in F for k in D for t in T)
    m.minimize(cost)
    return m
