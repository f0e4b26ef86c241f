import math

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 65


def _fits(weights, k, cap):
    m = Model()
    C = range(len(weights))
    x = {(c, l): m.binary() for c in C for l in range(k)}
    for c in C:
        m.add(qsum(x[c, l] for l in range(k)) == 1)
    for l in range(k):
        m.add(qsum(weights[c] * x[c, l] for c in C) <= cap)
    m.minimize(0)
    try:
        m.solve()
        return True
    except RuntimeError:
        return False


def solve(d):
    """Smallest k from the volume bound upwards for which a k-lorry packing exists."""
    w, cap = d["weight"], d["payload"]
    k = math.ceil(sum(w) / cap)
    while not _fits(w, k, cap):
        k += 1
    return float(k)
