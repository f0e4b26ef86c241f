"""Brute force over every pair of whole load counts (at most 41 x 15 pairs)."""


def solve(d):
    kinds = d["Kinds"]
    cap = dict(zip(kinds, d["tonnesPerLoad"]))
    fuel = dict(zip(kinds, d["litresPerLoad"]))
    top = dict(zip(kinds, d["maxLoads"]))
    best = None
    for t in range(int(top["Tipper"]) + 1):
        for a in range(int(top["Articulated"]) + 1):
            if cap["Tipper"] * t + cap["Articulated"] * a < d["tonnesNeeded"]:
                continue
            if t < d["quietRatio"] * a:
                continue
            cost = fuel["Tipper"] * t + fuel["Articulated"] * a
            best = cost if best is None or cost < best else best
    return best
