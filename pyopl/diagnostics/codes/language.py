"""Diagnostic kinds raised by the wider OPL language (post-processing, assumed bounds, model includes)."""
from ..registry import register as R

R("OPL0901", "bigm-assumed-bound", "warning", "Big-M from an assumed bound",
  """A logical constraint, `min`/`max`/`abs` of decisions or a non-convex `piecewise` needs finite
bounds on a decision variable to be linearised (CPLEX would use indicator constraints, which HiGHS
lacks). Neither the declaration nor the model's single-variable constraints bound it, so pyopl
assumed the bound named in the message. The result is exact when the optimum stays inside it;
give the variable a domain (`dvar int x in 0..100;`) to make this explicit.""",
  bad="dvar int+ x;\ndvar int+ y;\nminimize x + y;\nsubject to { (x >= 3) => (y >= 7); x >= 3; }",
  good="dvar int+ x in 0..100;\ndvar int+ y;\nminimize x + y;\nsubject to { (x >= 3) => (y >= 7); x >= 3; }",
  at=(4, 15))
R("OPL0902", "postprocessing-skipped", "warning", "Post-processing declaration that could not be computed",
  """A declaration after the objective and constraints that depends on decision variables (for
example `{int} chosen = {i | i in I : x[i] == 1};`) is OPL post-processing: it is computed from the
solution after the solve and shown in the results (`post-processing:`, JSON `postprocessing`). The
warning says that computing it from this solution failed (a division by zero, an index outside its
array), and why.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x >= 0; }\nfloat r = 1 / x;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\nfloat r = 1 / x;",
  at=(4, 7), via="solve")
R("OPL0903", "rand-not-reproducible", "warning", "Random data differs from CPLEX's",
  """`rand(n)` in data gives pseudo-random integers in 0..n-1. pyopl's generator is seeded
(so every compile gives the same data) but it is not CPLEX's, so the numbers, and the optimum,
differ from what OPL would produce.""",
  bad="float a[i in 1..3] = rand(10);\ndvar float+ x[1..3];\nminimize sum(i in 1..3) a[i] * x[i];",
  good="float a[1..3] = [4, 1, 7];\ndvar float+ x[1..3];\nminimize sum(i in 1..3) a[i] * x[i];",
  at=(1, 22))
R("OPL0609", "include-not-found", "error", "Included model file not found or not allowed",
  """`include "file.mod";` pastes another model file in place. The path is relative to the including
model's folder and must stay inside that folder's tree; the file must exist.""",
  bad='include "missing.mod";\ndvar float+ x;\nminimize x;', good="dvar float+ x;\nminimize x;",
  at=(1, 1))
