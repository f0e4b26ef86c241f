import itertools

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 54


def solve(d):
    """Enumerate the leased warehouses (2^3); each case is an LP."""
    W, R, S = range(len(d["Warehouses"])), range(len(d["Regions"])), range(len(d["Storms"]))
    best = None
    for open_ in itertools.product((0, 1), repeat=len(W)):
        m = Model()
        kits = [m.var(0, d["capacity"][w] * open_[w]) for w in W]
        obj = qsum(d["kitCost"] * kits[w] for w in W) + sum(d["leaseCost"][w] * open_[w] for w in W)
        for s in S:
            x = {(w, r): m.var() for w in W for r in R}
            short = [m.var() for _ in R]
            for w in W:
                m.add(qsum(x[w, r] for r in R) <= kits[w])
            for r in R:
                m.add(qsum(x[w, r] for w in W) + short[r] >= d["need"][s][r])
            obj = obj + d["prob"][s] * (qsum(d["truckCost"][w][r] * x[w, r] for w in W for r in R)
                                        + qsum(d["airliftCost"] * short[r] for r in R))
        m.minimize(obj)
        v = m.solve()
        best = v if best is None else min(best, v)
    return best
