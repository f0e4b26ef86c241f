from tests.kb_independent.lp import Model, qsum


def model(d):
    """Stock expressed through cumulative production; set-up forcing bound is
    the remaining demand of the part (a different, tighter big-M)."""
    m = Model()
    P, T = range(len(d["Parts"])), range(d["nbWeeks"])
    dem = d["demand"]
    x = {(p, t): m.var() for p in P for t in T}
    y = {(p, t): m.binary() for p in P for t in T}
    cost = 0
    for p in P:
        for t in T:
            stock = qsum(x[p, s] for s in range(t + 1)) - sum(dem[p][: t + 1])
            m.add(stock >= 0)
            cost = cost + d["holdCost"][p] * stock + d["setupCost"][p] * y[p, t]
            m.add(x[p, t] <= sum(dem[p][t:]) * y[p, t])
    for t in T:
        m.add(qsum(d["hoursPerUnit"][p] * x[p, t] + d["setupHours"][p] * y[p, t] for p in P) <= d["capacity"])
    m.minimize(cost)
    return m
