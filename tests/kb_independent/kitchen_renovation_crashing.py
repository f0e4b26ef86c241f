from tests.kb_independent.lp import Model, qsum


def model(d):
    """Path formulation: every start-to-end path of the precedence graph,
    with crashed durations, must fit in the deadline."""
    A = d["Activities"]
    succ = {a: [q for p, q in d["Precedences"] if p == a] for a in A}
    has_pred = {q for _, q in d["Precedences"]}
    paths = []

    def walk(a, path):
        path = path + [a]
        if not succ[a]:
            paths.append(path)
        for b in succ[a]:
            walk(b, path)

    for a in A:
        if a not in has_pred:
            walk(a, [])
    m = Model()
    i = {a: k for k, a in enumerate(A)}
    save = {a: m.var(0, d["normalDays"][i[a]] - d["shortestDays"][i[a]]) for a in A}
    for p in paths:
        m.add(qsum(d["normalDays"][i[a]] - save[a] for a in p) <= d["deadline"])
    m.minimize(qsum(d["costPerDay"][i[a]] * save[a] for a in A))
    return m
