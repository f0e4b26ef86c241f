NUM_VARS = 8


def solve(d):
    """Greedy merit order: take blocks from cheapest to dearest, respecting
    each plant's limit (exact because block prices rise within a plant)."""
    limit = dict(zip(d["Plants"], d["plantLimit"]))
    left, cost = d["demand"], 0.0
    for plant, _, size, price in sorted(d["Blocks"], key=lambda b: b[3]):
        take = min(size, limit[plant], left)
        limit[plant] -= take
        left -= take
        cost += take * price
    assert left == 0
    return cost
