import itertools

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 16


def solve(d):
    """Enumerate the set of funds used (<= 5); each set is an LP with
    amounts bounded in [minTicket, maxTicket]."""
    F = range(len(d["Funds"]))
    best = None
    for k in range(1, d["maxFunds"] + 1):
        for S in itertools.combinations(F, k):
            if k * d["maxTicket"] < d["capital"]:
                continue
            m = Model()
            a = {f: m.var(d["minTicket"][f], d["maxTicket"]) for f in S}
            m.add(qsum(a.values()) == d["capital"])
            m.add(qsum(d["risk"][f] * a[f] for f in S) <= d["maxAvgRisk"] * d["capital"])
            m.add(qsum(a[f] for f in S if d["isBond"][f]) >= d["minBondShare"] * d["capital"])
            m.maximize(qsum(d["expReturn"][f] * a[f] for f in S))
            try:
                v = m.solve()
            except RuntimeError:
                continue
            best = v if best is None else max(best, v)
    return best
