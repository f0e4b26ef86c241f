"""Diagnostic kinds: linearity."""
from ..registry import register as R

R("OPL0501", "decision-in-data", "error", "Data depends on a decision variable",
  """Data declarations are computed before solving, so they cannot use decision variables.""",
  bad="dvar float+ x;\nfloat limit = x + 1;\nminimize x;",
  good="dvar float+ x;\ndexpr float limit = x + 1;\nminimize x;")
R("OPL0502", "nonlinear-product", "error", "Product of decision variables in a constraint",
  """HiGHS takes linear constraints; a product of two decision expressions is quadratic.""",
  bad="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x * y <= 10; }",
  good="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x + y <= 10; }")
R("OPL0503", "nonlinear-division", "error", "Division by a decision variable",
  """Dividing by a decision expression is not linear; multiply through instead.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x / y >= 2; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x >= 2 * y; }")
R("OPL0504", "nonlinear-expression", "error", "Nonlinear expression",
  """A power, or a product of degree above 2, of decision expressions.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x ^ 3 <= 8; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x <= 2; }")
R("OPL0505", "nonlinear-function", "error", "Nonlinear function of a decision variable",
  """`sqrt`, `log`, `exp`, `floor`, ... apply to data only.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { sqrt(x) <= 2; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x <= 4; }")
R("OPL0506", "strict-inequality-float", "error", "Strict inequality on a continuous expression",
  """`<` and `>` cannot be enforced on continuous expressions; on integer expressions they
mean `<= k-1` / `>= k+1`.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x > 3; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 3; }")
R("OPL0507", "decision-as-index", "error", "Decision variable used as an array index",
  """Array indices are known before solving; select with binary variables instead.""",
  bad="float c[1..3] = [1, 2, 3];\ndvar int k in 1..3;\nminimize c[k];",
  good="float c[1..3] = [1, 2, 3];\ndvar boolean pick[1..3];\nminimize sum(k in 1..3) c[k] * pick[k];\nsubject to { sum(k in 1..3) pick[k] == 1; }")
R("OPL0508", "decision-in-condition", "error", "Decision variable in a conditional expression",
  """`c ? a : b` is evaluated before solving; use a logical constraint with `=>`.""",
  bad="dvar int x in 0..5;\nminimize x;\nsubject to { (x >= 2 ? 1 : 0) <= 1; }",
  good="dvar int x in 0..5;\ndvar boolean b;\nminimize x;\nsubject to { b == 1 => x >= 2; }")
R("OPL0509", "decision-in-membership", "error", "Decision variable tested for set membership",
  """`x in S` is evaluated before solving.""",
  bad="{int} S = {1, 3};\ndvar int x in 0..5;\nminimize x;\nsubject to { x in S; }",
  good="dvar int x in 1..3;\nminimize x;")
R("OPL0510", "bigm-missing-bound", "error", "Logical constraint needs variable bounds",
  """Logical constraints, `abs`, `min`/`max` and non-convex `piecewise` of decisions are linearised
with big-M rows, and M comes from the variables' bounds.""",
  bad="dvar boolean b;\ndvar float x;\nminimize x;\nsubject to { b == 1 => x >= 4; }",
  good="dvar boolean b;\ndvar float x in -100..100;\nminimize x;\nsubject to { b == 1 => x >= 4; }")
R("OPL0511", "nonlinear-not-equal-float", "error", "`!=` on a continuous expression",
  """`!=` (and negated `==`) needs an integer-valued expression.""",
  bad="dvar float x in 0..5;\nminimize x;\nsubject to { x != 2; }",
  good="dvar int x in 0..5;\nminimize x;\nsubject to { x != 2; }")
R("OPL0512", "piecewise-breakpoints-order", "error", "Piecewise breakpoints out of order",
  """The breakpoints of `piecewise` must not decrease.""",
  bad="dvar float x in 0..10;\nminimize piecewise{1 -> 5; 2 -> 3; 4}(0, 0) x;",
  good="dvar float x in 0..10;\nminimize piecewise{1 -> 3; 2 -> 5; 4}(0, 0) x;")
