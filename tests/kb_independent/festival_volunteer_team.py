import itertools

NUM_VARS = 10


def solve(d):
    """Brute force over all 2^10 crews, checking each rule in plain Python."""
    V = d["Volunteers"]
    best = None
    for bits in itertools.product((0, 1), repeat=len(V)):
        p = dict(zip(V, bits))
        if not d["minCrew"] <= sum(bits) <= d["maxCrew"]:
            continue
        if p["Alex"] and not p["Blair"]:
            continue
        if p["Casey"] and p["Drew"]:
            continue
        if p["Emery"] and not (p["Finn"] or p["Gray"]):
            continue
        if sum(p[v] for v in d["Leads"]) != 1:
            continue
        if sum(p[v] for v in d["FirstAiders"]) < d["minFirstAid"]:
            continue
        val = sum(r * p[v] for v, r in zip(V, d["rating"]))
        best = val if best is None else max(best, val)
    return float(best)
