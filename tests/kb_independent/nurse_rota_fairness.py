from tests.kb_independent.lp import Model, qsum

NUM_VARS = 71


def _feasible(d, threshold):
    N, D, S = range(len(d["Nurses"])), range(d["nbDays"]), range(len(d["Shifts"]))
    m = Model()
    x = {(n, t, s): m.binary() for n in N for t in D for s in S}
    for t in D:
        for s in S:
            m.add(qsum(x[n, t, s] for n in N) == d["needed"][s])
    for n in N:
        tot = qsum(x[n, t, s] for t in D for s in S)
        m.add(tot >= d["minShifts"])
        m.add(tot <= d["maxShifts"])
        for t in D:
            m.add(x[n, t, 0] + x[n, t, 1] <= 1)
            if t + 1 < d["nbDays"]:
                m.add(x[n, t, 1] + x[n, t + 1, 0] <= 1)
        m.add(qsum(d["score"][n][t][s] * x[n, t, s] for t in D for s in S) >= threshold)
    m.minimize(0)
    try:
        m.solve()
        return True
    except RuntimeError:
        return False


def solve(d):
    """Scores are integers, so bisect on the integer threshold with
    feasibility problems instead of an epigraph objective."""
    lo, hi = 0, 5 * d["maxShifts"] + 1  # lo feasible, hi infeasible
    assert _feasible(d, lo)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _feasible(d, mid):
            lo = mid
        else:
            hi = mid
    return float(lo)
