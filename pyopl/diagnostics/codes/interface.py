"""12xx: the command line and the Python interface (results, data from pandas and NumPy)."""
from ..registry import register as R

R("OPL1200", "cli-show-unknown-name", "error", "`--show` names no decision or dexpr of the model",
  """`pyopl solve --show NAME[,NAME...]` prints only the values of those decision variables
(`dvar`) and decision expressions (`dexpr`); each name must be declared in the model.
The message suggests the nearest declared name.""",
  bad="solve model.mod --show y", good="solve model.mod --show x", via="cli",
  at=(1, 1))
R("OPL1201", "export-cp-model", "error", "LP or MPS export of a `using CP;` model",
  """`pyopl export --lp/--mps` (and the MCP `export` tool, and `exportModel` in a script) write the
linear rows of a model. A `using CP;` model is more than its rows: interval variables, sequences,
cumul and state functions, global constraints (`allDifferent`, `noOverlap`...) and CP-SAT's exact
integer objective have no place in LP or MPS, so the file would be another model with another
optimum. pyopl refuses (exit code 8) at the `using CP;` line and writes nothing. Solve the model
with `pyopl solve`; to export its linear form, remove `using CP;` (the file is then the MIP model
the MP solvers take). Tested in `tests/test_export.py`.""")
