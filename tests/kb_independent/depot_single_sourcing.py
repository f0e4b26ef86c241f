import itertools

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 36


def solve(d):
    """Enumerate the 15 non-empty depot subsets; for each, solve the
    generalised assignment of shops to the leased depots."""
    D, S = range(len(d["Depots"])), range(len(d["Shops"]))
    best = None
    for k in range(1, len(D) + 1):
        for subset in itertools.combinations(D, k):
            if sum(d["capacity"][i] for i in subset) < sum(d["need"]):
                continue
            m = Model()
            a = {(i, s): m.binary() for i in subset for s in S}
            for s in S:
                m.add(qsum(a[i, s] for i in subset) == 1)
            for i in subset:
                m.add(qsum(d["need"][s] * a[i, s] for s in S) <= d["capacity"][i])
            m.minimize(qsum(d["perPallet"][i][s] * d["need"][s] * a[i, s] for i in subset for s in S)
                       + sum(d["leaseCost"][i] for i in subset))
            try:
                v = m.solve()
            except RuntimeError:
                continue  # infeasible subset
            best = v if best is None else min(best, v)
    return best
