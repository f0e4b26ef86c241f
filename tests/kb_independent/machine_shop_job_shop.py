import itertools

NUM_VARS = 61


def solve(d):
    """Enumerate the order of jobs on every machine (4!^3 combinations); each
    combination fixes a precedence graph whose longest path is the makespan
    (or which is cyclic, hence infeasible)."""
    J, M = d["nbOrders"], d["nbMachines"]
    route, hrs = d["route"], d["hours"]
    best = None
    orders = list(itertools.permutations(range(J)))
    for seqs in itertools.product(orders, repeat=M):
        preds = {(j, m): [] for j in range(J) for m in range(M)}
        for j in range(J):
            for s in range(M - 1):
                preds[(j, route[j][s + 1] - 1)].append((j, route[j][s] - 1))
        for m in range(M):
            seq = seqs[m]
            for a, b in zip(seq, seq[1:]):
                preds[(b, m)].append((a, m))
        finish, state = {}, {}

        def fin(op):
            if state.get(op) == 1:
                raise ValueError("cycle")
            if op in finish:
                return finish[op]
            state[op] = 1
            st = max((fin(p) for p in preds[op]), default=0.0)
            state[op] = 2
            finish[op] = st + hrs[op[0]][op[1]]
            return finish[op]

        try:
            mk = max(fin(op) for op in preds)
        except ValueError:
            continue
        best = mk if best is None else min(best, mk)
    return best
