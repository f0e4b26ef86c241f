from tests.kb_independent.lp import Model, qsum


def model(d):
    m = Model()
    P = d["Products"]
    x = {p: m.var() for p in P}
    for r, row in enumerate(d["usage"]):
        m.add(qsum(row[i] * x[p] for i, p in enumerate(P)) <= d["available"][r])
    # chairs >= share * total  <=>  (1-share) chairs - share * others >= 0
    m.add(x["Chair"] - d["minChairShare"] * qsum(x.values()) >= 0)
    m.add(x["Bookshelf"] <= d["maxBookshelves"])
    m.maximize(qsum(d["profit"][i] * x[p] for i, p in enumerate(P)))
    return m
