from tests.kb_independent.lp import Model, qsum


def model(d):
    """Scenario-split form: each scenario has its own copy of the first-stage
    stock, tied together by non-anticipativity equalities."""
    m = Model()
    I, C = range(len(d["Items"])), range(len(d["Crowds"]))
    stock = {(c, i): m.var() for c in C for i in I}
    obj = 0
    for c in C:
        m.add(qsum(d["space"][i] * stock[c, i] for i in I) <= d["coolerSize"])
        for i in I:
            rush = m.var(0, d["rushLimit"])
            sold = m.var(0, d["demand"][c][i])
            # leftover = stock + rush - sold >= 0
            left = stock[c, i] + rush - sold
            m.add(left >= 0)
            obj = obj + d["prob"][c] * (d["price"][i] * sold - d["rushCost"][i] * rush
                                         + d["leftoverValue"][i] * left - d["buyCost"][i] * stock[c, i])
            if c > 0:
                m.add(stock[c, i] == stock[0, i])
    m.maximize(obj)
    return m
