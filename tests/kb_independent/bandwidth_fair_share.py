NUM_VARS = 6


def solve(d):
    """Closed form: the share is limited by the most loaded link,
    share = min over links of capacity / (sum of weights of flows using it)."""
    w = dict(zip(d["Flows"], d["weight"]))
    routes = dict(zip(d["Flows"], d["route"]))
    return min(cap / sum(w[f] for f in d["Flows"] if l in routes[f])
               for l, cap in zip(d["Links"], d["capacity"])
               if any(l in routes[f] for f in d["Flows"]))
