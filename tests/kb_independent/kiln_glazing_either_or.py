from tests.kb_independent.lp import Model, qsum

NUM_VARS = 4


def solve(d):
    """Solve one integer program per glazing arrangement and keep the better."""
    I = range(len(d["Items"]))
    best = None
    for limit, cap in ((d["glazeHours"], d["glazeCapacity"]), (d["partnerCharge"], d["partnerBudget"])):
        m = Model()
        x = [m.var(0, d["maxSales"][i], integer=True) for i in I]
        m.add(qsum(d["kilnSlots"][i] * x[i] for i in I) <= d["kilnCapacity"])
        m.add(qsum(limit[i] * x[i] for i in I) <= cap)
        m.maximize(qsum(d["profit"][i] * x[i] for i in I))
        v = m.solve()
        best = v if best is None else max(best, v)
    return best
