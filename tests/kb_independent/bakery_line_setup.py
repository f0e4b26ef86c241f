import itertools

NUM_VARS = 8


def solve(d):
    """Brute force: enumerate the set of running lines, then every tray vector."""
    L = range(len(d["Lines"]))
    best = 0.0  # running nothing is feasible
    for counts in itertools.product(*(range(d["maxTrays"][l] + 1) for l in L)):
        if sum(d["ovenMin"][l] * counts[l] for l in L) > d["ovenCapacity"]:
            continue
        if sum(d["prepMin"][l] * counts[l] for l in L) > d["prepCapacity"]:
            continue
        val = sum(d["trayProfit"][l] * counts[l] - (d["setupCost"][l] if counts[l] else 0) for l in L)
        best = max(best, val)
    return best
