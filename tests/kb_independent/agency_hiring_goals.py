NUM_VARS = 7


def solve(d):
    """Enumerate headcounts; for fixed headcounts the best deviations are the
    positive parts of each goal's violation."""
    sal, bill = d["salary"], d["billable"]
    best = None
    for j in range(0, d["maxJuniors"] + 1):
        for s in range(0, d["desks"] - j + 1):
            for c in range(0, d["desks"] - j - s + 1):
                hours = bill[0] * j + bill[1] * s + bill[2] * c
                pay = sal[0] * j + sal[1] * s + sal[2] * c
                pen = (d["wHours"] * max(0.0, d["hoursGoal"] - hours)
                       + d["wPayroll"] * max(0.0, pay - d["payrollGoal"])
                       + d["wSenior"] * max(0.0, d["seniorShareGoal"] * (j + s + c) - s)
                       + d["wContractor"] * max(0, c - d["contractorGoal"]))
                best = pen if best is None else min(best, pen)
    return best
