import itertools

NUM_VARS = 8


def solve(d):
    P = d["Projects"]
    best = None
    for bits in itertools.product((0, 1), repeat=len(P)):
        g = dict(zip(P, bits))
        if any(sum(d["spend"][i][t] * bits[i] for i in range(len(P))) > d["budget"][t] for t in range(d["nbYears"])):
            continue
        if g["AI pricing"] and not g["Data lake"]:
            continue
        if g["Warehouse robots"] and g["Electric vans"]:
            continue
        if sum(bits[i] for i in range(len(P)) if d["green"][i]) < d["minGreen"]:
            continue
        if sum(bits) > d["maxProjects"]:
            continue
        v = sum(d["npv"][i] * bits[i] for i in range(len(P)))
        best = v if best is None else max(best, v)
    return float(best)
