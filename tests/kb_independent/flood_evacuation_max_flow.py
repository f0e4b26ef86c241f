import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow

NUM_VARS = 12


def solve(d):
    """Combinatorial max-flow (scipy.sparse.csgraph) with a super sink fed by
    the shelters through arcs of capacity = intake."""
    names = list(d["Places"]) + ["SINK"]
    idx = {n: i for i, n in enumerate(names)}
    cap = np.zeros((len(names), len(names)), dtype=np.int32)
    for a, b, c in d["Roads"]:
        cap[idx[a], idx[b]] += int(c)
    for s, c in zip(d["Shelters"], d["intake"]):
        cap[idx[s], idx["SINK"]] += int(c)
    res = maximum_flow(csr_matrix(cap), idx[d["source"]], idx["SINK"])
    return float(res.flow_value)
