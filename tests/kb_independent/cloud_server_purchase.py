NUM_VARS = 9


def solve(d):
    """Enumerate the number of servers; recourse in closed form (rent the
    cheaper capacity first, up to the limit, then leave the rest unserved)."""
    assert d["rentCost"] <= d["unservedCost"]
    best = None
    for n in range(d["maxServers"] + 1):
        exp = 0.0
        for p, peak in zip(d["prob"], d["peak"]):
            short = max(0.0, peak - d["serverCapacity"] * n)
            rent = min(short, d["rentLimit"])
            exp += p * (d["rentCost"] * rent + d["unservedCost"] * (short - rent))
        v = d["serverCost"] * n + exp
        best = v if best is None else min(best, v)
    return best
