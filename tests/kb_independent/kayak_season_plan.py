from tests.kb_independent.lp import Model, qsum


def model(d):
    """Cumulative formulation: stock at month t = initial + built so far - demanded so far."""
    m = Model()
    T = d["nbMonths"]
    reg = [m.var(0, d["regularCap"]) for _ in range(T)]
    ot = [m.var(0, d["overtimeCap"]) for _ in range(T)]
    cost = qsum(d["regularCost"] * reg[t] + d["overtimeCost"] * ot[t] for t in range(T))
    for t in range(T):
        stock = d["initialStock"] + qsum(reg[:t + 1]) + qsum(ot[:t + 1]) - sum(d["demand"][:t + 1])
        m.add(stock >= 0)
        m.add(stock <= d["storeCap"])
        cost = cost + d["holdCost"] * stock
        if t == T - 1:
            m.add(stock >= d["finalStockMin"])
    m.minimize(cost)
    return m
