"""Brute force over every pair of whole machine counts; the power limit bounds each count."""


def solve(d):
    kinds = d["Kinds"]
    items = dict(zip(kinds, d["itemsPerHour"]))
    kwh = dict(zip(kinds, d["kwhPerHour"]))
    cap = {k: int(d["kwhAvailable"] // kwh[k]) for k in kinds}
    best = None
    for top in range(cap["TopLoad"] + 1):
        for front in range(cap["FrontLoad"] + 1):
            if items["TopLoad"] * top + items["FrontLoad"] * front < d["itemsNeeded"]:
                continue
            if kwh["TopLoad"] * top + kwh["FrontLoad"] * front > d["kwhAvailable"]:
                continue
            if front > d["maxFrontShare"] * (top + front) or top < d["minTopLoaders"]:
                continue
            best = top + front if best is None or top + front < best else best
    return best
