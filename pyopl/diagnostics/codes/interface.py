"""12xx: the command line and the Python interface (results, data from pandas and NumPy)."""
from ..registry import register as R

R("OPL1200", "cli-show-unknown-name", "error", "`--show` names no decision or dexpr of the model",
  """`pyopl solve --show NAME[,NAME...]` prints only the values of those decision variables
(`dvar`) and decision expressions (`dexpr`); each name must be declared in the model.
The message suggests the nearest declared name.""",
  bad="solve model.mod --show y", good="solve model.mod --show x", via="cli",
  at=(1, 1))
