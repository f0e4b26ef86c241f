import itertools

NUM_VARS = 54


def _dispatch(units, d, demand):
    """Cheapest output for a fixed set of running units: everyone at minimum,
    then fill the rest in merit order (exact for linear energy costs)."""
    lo = sum(d["minMW"][u] for u in units)
    hi = sum(d["maxMW"][u] for u in units)
    if not lo <= demand <= hi:
        return None
    cost = sum(d["energyCost"][u] * d["minMW"][u] for u in units)
    rest = demand - lo
    for u in sorted(units, key=lambda u: d["energyCost"][u]):
        take = min(rest, d["maxMW"][u] - d["minMW"][u])
        cost += d["energyCost"][u] * take
        rest -= take
    return cost


def solve(d):
    """Dynamic programme over blocks with the on/off state of the 3 units."""
    U = range(len(d["Units"]))
    states = list(itertools.product((0, 1), repeat=len(U)))
    best = {tuple(d["onNow"]): 0.0}
    for dem in d["demand"]:
        nxt = {}
        for st in states:
            units = [u for u in U if st[u]]
            if sum(d["maxMW"][u] for u in units) < d["reserveFactor"] * dem - 1e-9:
                continue
            disp = _dispatch(units, d, dem)
            if disp is None:
                continue
            stage = disp + sum(d["noLoadCost"][u] for u in units)
            for prev, c in best.items():
                starts = sum(d["startCost"][u] for u in U if st[u] and not prev[u])
                v = c + starts + stage
                if v < nxt.get(st, float("inf")):
                    nxt[st] = v
        best = nxt
    return min(best.values())
