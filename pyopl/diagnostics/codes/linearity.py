"""Diagnostic kinds: linearity."""
from ..registry import register as R

R("OPL0501", "decision-in-data", "error", "Data depends on a decision variable",
  """Data declarations are computed before solving, so they cannot use decision variables.""",
  bad="dvar float+ x;\nfloat limit = x + 1;\nminimize x;",
  good="dvar float+ x;\ndexpr float limit = x + 1;\nminimize x;",
  at=(2, 15))
R("OPL0502", "nonlinear-product", "error", "Product of decision variables where no solver takes it",
  """A product of two decision expressions is quadratic. A quadratic constraint `<=`, `>=` or `==`
compiles (Gurobi solves it; see OPL1163), but not inside a logical constraint, nor with `!=`, `<`
or `>`.""",
  bad="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x * y <= 10 => x <= 2; }",
  good="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x + y <= 10; }",
  at=(4, 14))
R("OPL0503", "nonlinear-division", "error", "Division by a decision variable",
  """Dividing by a decision expression is not linear; multiply through instead.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x / y >= 2; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x >= 2 * y; }",
  at=(4, 14))
R("OPL0504", "nonlinear-expression", "error", "Nonlinear expression",
  """A power, or a product of degree above 2, of decision expressions.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x ^ 3 <= 8; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x <= 2; }",
  at=(3, 14))
R("OPL0505", "nonlinear-function", "error", "Nonlinear function of a decision variable",
  """`sqrt`, `log`, `exp`, `floor`, ... apply to data only.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { sqrt(x) <= 2; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x <= 4; }",
  at=(3, 14))
R("OPL0506", "strict-inequality-float", "error", "Strict inequality on a continuous expression",
  """`<` and `>` as a constraint of their own cannot be enforced on continuous expressions (as in
OPL); on integer expressions they mean `<= k-1` / `>= k+1`, so against a fractional bound
(`y > 2.5` with `y` integer) the message names the exact rewrite (`y >= 3`). Inside a logical constraint they hold
with CPLEX's margin eplin (see OPL0511).""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x > 3; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 3; }",
  at=(3, 16), fixable="machine-applicable")
R("OPL0507", "decision-as-index", "error", "Decision variable used as an array index",
  """Array indices are known before solving; select with binary variables instead.""",
  bad="float c[1..3] = [1, 2, 3];\ndvar int k in 1..3;\nminimize c[k];",
  good="float c[1..3] = [1, 2, 3];\ndvar boolean pick[1..3];\nminimize sum(k in 1..3) c[k] * pick[k];\nsubject to { sum(k in 1..3) pick[k] == 1; }",
  at=(3, 12))
R("OPL0508", "decision-in-condition", "error", "Decision variable in a conditional expression",
  """`c ? a : b` is evaluated before solving; use a logical constraint with `=>`.""",
  bad="dvar int x in 0..5;\nminimize x;\nsubject to { (x >= 2 ? 1 : 0) <= 1; }",
  good="dvar int x in 0..5;\ndvar boolean b;\nminimize x;\nsubject to { b == 1 => x >= 2; }",
  at=(3, 15))
R("OPL0509", "decision-in-membership", "error", "Decision variable tested for set membership",
  """`x in S` is evaluated before solving.""",
  bad="{int} S = {1, 3};\ndvar int x in 0..5;\nminimize x;\nsubject to { x in S; }",
  good="dvar int x in 1..3;\nminimize x;",
  at=(4, 14))
R("OPL0510", "bigm-missing-bound", "error", "Expression needs variable bounds",
  """`abs`, `min`/`max` and non-convex `piecewise` of decisions (outside a convex position) are
linearised with big-M rows, and M comes from the variables' bounds: a variable with no bound on
either side has none. (A logical constraint over such a variable becomes a native indicator
constraint instead, which SCIP, CPLEX and Gurobi take and HiGHS refuses with OPL0703.)""",
  bad="dvar float x;\nminimize x;\nsubject to { abs(x) >= 2; }",
  good="dvar float x in -100..100;\nminimize x;\nsubject to { abs(x) >= 2; }",
  at=(3, 14))
R("OPL0511", "nonlinear-not-equal-float", "note", "Comparison on a continuous expression linearised with eplin",
  """Inside a logical constraint (`=>`, `||`, `&&`, `!`, `!=`, a constraint used as a value), CPLEX
linearises a strict comparison or `!=` on a continuous expression with its tolerance *eplin*
("epsilon used in linearization", default 1e-3): `x > y` holds as `x >= y + eplin`, `x != y` as
`x <= y - eplin || x >= y + eplin`, and the negation of `x <= y` as `x >= y + eplin`. pyopl follows
that rule; this note, given once per model at the first such comparison, says which tolerance was
used. Set it with `cplex.eplin = ...;` in an `execute` block before the model, or `--eplin`.""",
  bad="dvar float x in 0..5;\nminimize x;\nsubject to { x != 0; }",
  good="dvar int x in 0..5;\nminimize x;\nsubject to { x != 0; }",
  at=(3, 14))
R("OPL0512", "piecewise-breakpoints-order", "error", "Piecewise breakpoints out of order",
  """The breakpoints of `piecewise` must not decrease.""",
  bad="dvar float x in 0..10;\nminimize piecewise{1 -> 5; 2 -> 3; 4}(0, 0) x;",
  good="dvar float x in 0..10;\nminimize piecewise{1 -> 3; 2 -> 5; 4}(0, 0) x;",
  at=(2, 10))
R("OPL0513", "decision-in-filter", "error", "Decision variable in a loop filter",
  """The filter after `:` in `forall`/`sum` selects elements before solving, so it cannot
depend on decisions. Use a logical constraint (`b[i] == 1 => ...`) instead.""",
  bad="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3 : x[i] >= 1) x[i] <= 2; }",
  good="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3 : i >= 2) x[i] <= 2; }",
  at=(3, 33))
R("OPL0514", "decision-in-iteration", "error", "Decision variable in an iteration domain",
  """`sum(i in 1..n)` needs `n` before solving; it cannot be a decision variable. Iterate over
the largest set and use binary variables to switch elements on and off.""",
  bad="dvar int n in 1..5;\ndvar float+ y[1..5];\nminimize sum(i in 1..n) y[i];",
  good="dvar boolean on[1..5];\ndvar float+ y[1..5];\nminimize sum(i in 1..5) y[i];\n"
       "subject to { forall(i in 1..5) y[i] <= 10 * on[i]; }",
  at=(3, 22))
R("OPL0515", "decision-in-if", "error", "Decision variable in an `if` condition",
  """`if (...)` in a constraint block is decided on the data before solving. A condition on
decisions is a logical constraint: `(x >= 1) => (y <= 2);` or an indicator with a binary.""",
  bad="dvar float+ x[1..2] in 0..10;\nminimize x[1];\nsubject to { if (x[1] >= 1) { x[2] <= 2; } }",
  good="dvar float+ x[1..2] in 0..10;\nminimize x[1];\nsubject to { x[1] >= 1 => x[2] <= 2; }",
  at=(3, 18))
R("OPL0516", "decision-in-dims", "error", "Decision variable in an index set",
  """The index set of an array is fixed before solving.""",
  bad="dvar int n in 1..5;\ndvar float+ y[1..n];\nminimize n;",
  good="dvar int n in 1..5;\ndvar float+ y[1..5];\nminimize n + sum(i in 1..5) y[i];",
  at=(2, 18))
R("OPL0517", "decision-in-dvar-domain", "error", "Decision variable in another variable's domain",
  """A domain `in lo..hi` is a pair of numbers known before solving. A bound that depends on a
decision is a constraint.""",
  bad="dvar float+ x in 0..10;\ndvar float+ y in 0..x;\nmaximize y;",
  good="dvar float+ x in 0..10;\ndvar float+ y;\nmaximize y;\nsubject to { y <= x; }",
  at=(2, 21))
R("OPL0518", "decision-in-assert", "error", "Decision variable in an assertion before the model",
  """An `assert` placed before the objective and constraints checks the data before solving, so it
cannot use decisions; a condition on decisions there is a constraint. Placed after the objective and
constraints, an assertion on decisions is checked on the solution (IBM's post-processing).""",
  bad="dvar float+ x;\nassert x >= 0;\nminimize x;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 0; }\nassert x >= 0;",
  at=(2, 8))
R("OPL0519", "piecewise-step-of-decision", "error", "Discontinuous piecewise function of a decision",
  """Two equal breakpoints in a `piecewise` make its value jump there: the slope given between them
is the height of the step (OPL manual, "Discontinuous piecewise-linear functions"). pyopl evaluates
such a function of data, but does not yet linearise one of a decision expression (it needs a binary
per step, and the solution check would have to accept either limit at the step); so that no other
function is solved in its place, the model is refused. Model the step with a binary variable:
`y == g(x) + step * z` with `x <= b + M * z` and `x >= b - M * (1 - z)`.""",
  bad="dvar float x in -5..5;\nmaximize piecewise{0 -> 0; 2 -> 0; 0}(1, 1) x;",
  good="dvar float x in -5..5;\ndvar boolean z;\nmaximize -1 + 2 * z;\nsubject to { x <= 5 * z; x >= -5 * (1 - z); }",
  at=(2, 10))
