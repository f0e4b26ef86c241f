import itertools

NUM_VARS = 19


def solve(d):
    S = range(len(d["Sites"]))
    pop = dict(zip(d["Villages"], d["population"]))
    best = 0.0
    for bits in itertools.product((0, 1), repeat=len(S)):
        if sum(d["siteCost"][s] * bits[s] for s in S) > d["budget"]:
            continue
        cov = set().union(*[set(d["covers"][s]) for s in S if bits[s]])
        best = max(best, sum(pop[v] for v in cov))
    return float(best)
