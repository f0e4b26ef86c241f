from tests.kb_independent.lp import Model, qsum

NUM_VARS = 8


def solve(d):
    """Enumerate how many price bands are used: with k bands, bands 1..k-1 are
    full and band k is partly used; each case is an LP. Take the best."""
    best = None
    P = range(len(d["Products"]))
    size, price = d["bandSize"], d["bandPrice"]
    for k in range(0, d["nbBands"] + 1):
        m = Model()
        x = [m.var(0, d["maxSales"][p]) for p in P]
        full = sum(size[:max(k - 1, 0)])
        fullcost = sum(size[b] * price[b] for b in range(max(k - 1, 0)))
        part = m.var(0, size[k - 1]) if k > 0 else 0
        m.add(qsum(d["steelPerUnit"][p] * x[p] for p in P) <= full + part)
        m.add(qsum(d["labourPerUnit"][p] * x[p] for p in P) <= d["labourHours"])
        m.maximize(qsum(d["price"][p] * x[p] for p in P) - fullcost - (price[k - 1] * part if k > 0 else 0))
        v = m.solve()
        best = v if best is None else max(best, v)
    return best
