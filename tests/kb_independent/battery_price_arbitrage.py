from tests.kb_independent.lp import Model, qsum


def model(d):
    """Stored energy written as a running sum (no state variables); one
    binary per hour chooses the mode."""
    m = Model()
    H = range(d["nbHours"])
    P = d["maxPower"]
    ch = [m.var(0, P) for _ in H]
    dis = [m.var(0, P) for _ in H]
    mode = [m.binary() for _ in H]
    for h in H:
        m.add(ch[h] <= P * mode[h])
        m.add(dis[h] <= P - P * mode[h])
        level = d["initialEnergy"] + qsum(d["chargeEff"] * ch[k] - dis[k] * (1 / d["dischargeEff"]) for k in range(h + 1))
        m.add(level >= 0)
        m.add(level <= d["capacity"])
        if h == d["nbHours"] - 1:
            m.add(level >= d["finalEnergyMin"])
    m.maximize(qsum(d["price"][h] * (dis[h] - ch[h]) - d["wearCost"] * dis[h] for h in H))
    return m
