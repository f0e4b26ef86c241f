import itertools

NUM_VARS = 13


def solve(d):
    """Brute force over all 2^13 selections."""
    legs = set(d["Legs"])
    n = len(d["Pairings"])
    best = None
    for pick in itertools.product((0, 1), repeat=n):
        flown = [l for i in range(n) if pick[i] for l in d["legsOf"][i]]
        if len(flown) == len(legs) and set(flown) == legs:
            c = sum(d["cost"][i] for i in range(n) if pick[i])
            best = c if best is None else min(best, c)
    return best
