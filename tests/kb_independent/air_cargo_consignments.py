import itertools

NUM_VARS = 12


def solve(d):
    """Brute force over all 2^12 subsets."""
    n = len(d["Consignments"])
    best = 0
    for pick in itertools.product((0, 1), repeat=n):
        if sum(d["weight"][i] * pick[i] for i in range(n)) > d["maxWeight"]:
            continue
        if sum(d["volume"][i] * pick[i] for i in range(n)) > d["maxVolume"]:
            continue
        if sum(d["dangerous"][i] * pick[i] for i in range(n)) > d["maxDangerous"]:
            continue
        best = max(best, sum(d["revenue"][i] * pick[i] for i in range(n)))
    return float(best)
