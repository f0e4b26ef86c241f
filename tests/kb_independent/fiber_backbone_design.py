import itertools

from tests.kb_independent.lp import Model, qsum

NUM_VARS = 18


def solve(d):
    """Enumerate the sets of lit links (2^9); for each, a min-cost flow LP
    on those links only. Sets whose capacity cannot reach a town are skipped."""
    links, nodes = d["Links"], d["Nodes"]
    sup = dict(zip(nodes, d["netSupply"]))
    best = None
    for bits in itertools.product((0, 1), repeat=len(links)):
        lit = [l for l, b in zip(links, bits) if b]
        if any(sum(l[3] for l in lit if l[1] == n) < -sup[n] for n in nodes if sup[n] < 0):
            continue
        fixed = sum(l[2] for l in lit)
        if best is not None and fixed >= best:
            continue
        m = Model()
        f = [m.var(0, l[3]) for l in lit]
        for n in nodes:
            m.add(qsum(f[i] for i, l in enumerate(lit) if l[0] == n)
                  - qsum(f[i] for i, l in enumerate(lit) if l[1] == n) == sup[n])
        m.minimize(qsum(l[4] * f[i] for i, l in enumerate(lit)) + fixed)
        try:
            v = m.solve()
        except RuntimeError:
            continue
        best = v if best is None else min(best, v)
    return best
