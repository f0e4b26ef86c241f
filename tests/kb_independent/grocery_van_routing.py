import itertools
from functools import lru_cache

NUM_VARS = 71


def solve(d):
    """Brute force: enumerate partitions of the kiosks into at most `vans`
    routes within capacity; each route's cost is its best tour (permutations)."""
    n, D, q, cap = d["n"], d["minutes"], d["crates"], d["vanCapacity"]

    @lru_cache(maxsize=None)
    def tour(group):
        best = None
        for perm in itertools.permutations(group):
            path = (0,) + perm + (0,)
            t = sum(D[a][b] for a, b in zip(path, path[1:]))
            best = t if best is None else min(best, t)
        return best

    def partitions(items):
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for part in partitions(rest):
            for i in range(len(part)):
                yield part[:i] + [part[i] + [first]] + part[i + 1:]
            yield part + [[first]]

    best = None
    for part in partitions(list(range(1, n + 1))):
        if len(part) > d["vans"]:
            continue
        if any(sum(q[k - 1] for k in g) > cap for g in part):
            continue
        t = sum(tour(tuple(sorted(g))) for g in part)
        best = t if best is None else min(best, t)
    return best
