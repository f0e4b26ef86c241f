"""The LP built directly with scipy.optimize.linprog (HiGHS), in the order Radio, Newspaper, Social."""
from scipy.optimize import linprog


def solve(d):
    reach = dict(zip(d["Channels"], d["reachPerDollar"]))
    order = ["Radio", "Newspaper", "Social"]
    c = [-reach[k] for k in order]
    a_ub = [[1, 1, 1],                      # budget
            [0, 0, 1],                      # social share of the budget
            [-1, 1, 0]]                     # newspaper - radio <= 0
    b_ub = [d["budget"], d["maxSocialShare"] * d["budget"], 0]
    bounds = [(0, None), (d["minNewspaper"], None), (0, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return -res.fun
