NUM_VARS = 18


def solve(d):
    """Smallest top channel K for which a depth-first search finds an
    assignment in 1..K meeting every separation."""
    T = d["Transmitters"]
    sep = {}
    for a, b, s in d["Pairs"]:
        sep[(a, b)] = sep[(b, a)] = s

    def place(i, chan, K):
        if i == len(T):
            return True
        for c in range(1, K + 1):
            if all(abs(c - chan[u]) >= sep.get((T[i], u), 0) for u in chan):
                chan[T[i]] = c
                if place(i + 1, chan, K):
                    return True
                del chan[T[i]]
        return False

    for K in range(1, d["maxChannel"] + 1):
        if place(0, {}, K):
            return float(K)
    raise RuntimeError("no assignment")
