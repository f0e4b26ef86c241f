import itertools

NUM_VARS = 39


def solve(d):
    """Brute force over all 4^7 session assignments."""
    E = d["Exams"]
    idx = {e: i for i, e in enumerate(E)}
    S = d["nbSessions"]
    best = None
    for a in itertools.product(range(S), repeat=len(E)):
        if any(sum(d["entries"][i] for i in range(len(E)) if a[i] == s) > d["seats"] for s in range(S)):
            continue
        cost, ok = 0, True
        for e1, e2, n in d["SharedPairs"]:
            s1, s2 = a[idx[e1]], a[idx[e2]]
            if s1 == s2:
                ok = False
                break
            if d["dayOf"][s1] == d["dayOf"][s2]:
                cost += n
        if ok:
            best = cost if best is None else min(best, cost)
    return float(best)
