from tests.kb_independent.lp import Model, qsum

NUM_VARS = 4


def _base(d):
    m = Model()
    O = range(len(d["Options"]))
    x = [m.var(0, d["maxUnits"][o], integer=True) for o in O]
    m.add(qsum(d["firmMW"][o] * x[o] for o in O) >= d["firmNeed"])
    m.add(qsum(d["energyTWh"][o] * x[o] for o in O) >= d["energyNeed"])
    em = qsum(d["co2"][o] * x[o] for o in O)
    cost = qsum(d["buildCost"][o] * x[o] for o in O)
    return m, em, cost


def solve(d):
    """True two-phase lexicographic optimisation, then report the same
    combined score as the OPL model."""
    m, em, _ = _base(d)
    m.minimize(em)
    best_em = m.solve()
    m, em, cost = _base(d)
    m.add(em <= best_em + 1e-6)
    m.minimize(cost)
    best_cost = m.solve()
    return d["emissionWeight"] * best_em + best_cost
