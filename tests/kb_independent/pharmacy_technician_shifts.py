from tests.kb_independent.lp import Model, qsum


def model(d):
    """Column list of feasible shifts (type, start) with explicit coverage sets."""
    B = d["nbBlocks"]
    m = Model()
    shifts = []  # (cost, is_part, covered blocks)
    for length, cost, part in ((d["fullLen"], d["fullCost"], 0), (d["partLen"], d["partCost"], 1)):
        for s in range(B - length + 1):
            shifts.append((cost, part, set(range(s, s + length)), m.var(0, 50, integer=True)))
    for b in range(B):
        m.add(qsum(x for _, _, cov, x in shifts if b in cov) >= d["required"][b])
    total = qsum(x for *_, x in shifts)
    part = qsum(x for _, p, _, x in shifts if p)
    m.add(d["partDivisor"] * part <= total)
    m.minimize(qsum(c * x for c, _, _, x in shifts))
    return m
