from tests.kb_independent.lp import Model, qsum


def model(d):
    """Cumulative formulation: the net position after week t is everything started so far minus
    everything ordered so far; its positive part is held, its negative part is owed."""
    m = Model()
    T = d["nbWeeks"]
    reg = [m.var(0, d["regularCap"]) for _ in range(T)]
    ot = [m.var(0, d["overtimeCap"]) for _ in range(T)]
    held = [m.var(0) for _ in range(T)]
    short = [m.var(0) for _ in range(T)]
    cost = qsum(d["regularCost"] * reg[t] + d["overtimeCost"] * ot[t] for t in range(T))
    for t in range(T):
        net = qsum(reg[:t + 1]) + qsum(ot[:t + 1]) - sum(d["orders"][:t + 1])
        m.add(held[t] - short[t] == net)
        cost = cost + d["holdCost"] * held[t] + d["lateCost"] * short[t]
    m.add(short[T - 1] <= 0)
    m.minimize(cost)
    return m
