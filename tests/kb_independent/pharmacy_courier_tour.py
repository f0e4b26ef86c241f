import itertools

NUM_VARS = 72


def solve(d):
    """Brute force over all orders of the clinics (7! = 5040 tours)."""
    D = d["minutes"]
    n = d["n"]
    best = None
    for perm in itertools.permutations(range(1, n)):
        tour = (0,) + perm + (0,)
        t = sum(D[a][b] for a, b in zip(tour, tour[1:]))
        best = t if best is None else min(best, t)
    return best
