"""Reproducer: HiGHS's MIP presolve returns a worse optimum than the model has (no pyopl involved).

opl-corpus2 `afp-ponder-dmc2015junemip` enumerates all 5,202 burgers by maximising
`id == sum(f) (qty[f] - 1) * 5^ord(f)` under a shrinking `id.UB` (IBM's run prints nbsol = 5202, and
a brute force over 1..5^8 agrees); with HiGHS pyopl's run counts 5,200: with `id <= 153886` HiGHS
answers 153884 "optimal" although qty = [2,3,1,2,2,5,5,2] (id 153886) satisfies every row.
With presolve off, or mip_feasibility_tolerance 1e-9, HiGHS answers 153886.
Run: python tools/highs_presolve_dmc2015.py
"""
import highspy
import numpy as np

FOOD = [(50, 17, 220), (330, 9, 260), (310, 6, 70), (1, 2, 10), (260, 0, 5), (3, 0, 4), (160, 0, 20), (3, 0, 9)]


def solve(ub: int, **options) -> float:
    """The optimum HiGHS reports for max id with id <= ub (the model of the corpus file, built directly)."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    for k, v in options.items():
        h.setOptionValue(k, v)
    for _ in range(8):
        h.addVar(1, 5)
    h.addVar(0, ub)
    h.changeColsIntegrality(9, np.arange(9, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * 9))
    h.changeColCost(8, -1.0)
    offset = -sum(5.0 ** k for k in range(8))
    h.addRow(offset, offset, 9, np.arange(9, dtype=np.int32), np.array([-5.0 ** k for k in range(8)] + [1.0]))
    for c, cap in enumerate((3000, 150, 3000)):
        h.addRow(-highspy.kHighsInf, cap, 8, np.arange(8, dtype=np.int32), np.array([f[c] for f in FOOD], float))
    h.addRow(0, 0, 2, np.array([6, 5], dtype=np.int32), np.array([1.0, -1.0]))  # ketchup == lettuce
    h.addRow(0, 0, 2, np.array([4, 7], dtype=np.int32), np.array([1.0, -1.0]))  # pickles == tomato
    h.run()
    return -h.getInfo().objective_function_value


if __name__ == "__main__":
    print("default:", solve(153886), " presolve off:", solve(153886, presolve="off"),
          " mip_feasibility_tolerance 1e-9:", solve(153886, mip_feasibility_tolerance=1e-9), " (right: 153886)")
