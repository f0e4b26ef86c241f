import itertools

import numpy as np

NUM_VARS = 36


def solve(d):
    """Enumerate all 4^9 allocations with numpy."""
    h = np.array(d["hours"], dtype=float)  # consultants x projects
    C, P = h.shape
    rate = np.array(d["rate"], dtype=float)
    combos = np.array(list(itertools.product(range(C), repeat=P)), dtype=np.int8)
    load = np.zeros((len(combos), C))
    cost = np.zeros(len(combos))
    for p in range(P):
        hp = h[combos[:, p], p]
        cost += hp * rate[combos[:, p]]
        for c in range(C):
            load[:, c] += np.where(combos[:, p] == c, hp, 0.0)
    ok = (load <= np.array(d["hoursFree"], dtype=float)).all(axis=1)
    return float(cost[ok].min())
