import itertools

NUM_VARS = 41


def solve(d):
    """Brute force over the start week of each turbine and the contractor choice."""
    T, W = d["Turbines"], d["nbWeeks"]
    dur, loss, f = d["duration"], d["weeklyLoss"], d["sizeFactor"]
    options = [range(1, W - dur[i] + 2) for i in range(len(T))]
    best = None
    for starts in itertools.product(*options):
        down = [0] * (W + 1)
        cost = 0.0
        for i, s in enumerate(starts):
            for w in range(s, s + dur[i]):
                down[w] += 1
                cost += f[i] * loss[w - 1]
        peak = max(down)
        if peak <= 1:
            total = cost
        elif peak <= d["crewsWithContractor"]:
            total = cost + d["contractorCost"]
        else:
            continue
        best = total if best is None else min(best, total)
    return best
