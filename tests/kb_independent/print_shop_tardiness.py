import itertools

NUM_VARS = 27


def solve(d):
    """Weighted tardiness is regular, so some optimal schedule has no idle
    time: enumerate all 720 job orders."""
    n = len(d["Jobs"])
    best = None
    for perm in itertools.permutations(range(n)):
        t, cost = 0.0, 0.0
        for j in perm:
            t += d["pressHours"][j]
            cost += d["penalty"][j] * max(0.0, t - d["due"][j])
        best = cost if best is None else min(best, cost)
    return best
