"""Diagnostic kinds: solver outcomes (07xx).

These are produced by :mod:`pyopl.backends` and :mod:`pyopl.backends.explain.iis` when a model is
solved, not by ``pyopl check``: their bad examples compile cleanly and go wrong
only in the solver.
"""
from ..registry import register as R

R("OPL0701", "solver-licence-limit", "error", "Model too large for the solver's licence",
  """The `gurobipy` package from PyPI ships a size-limited licence: at most 2,000
variables and 2,000 linear constraints (200 variables when the objective is quadratic).
Gurobi accepts a larger model but refuses to solve it (error 10010). Solve it with
HiGHS (`--solver highs`, the default, no size limit) or install a full Gurobi licence. For example `range R = 1..2001; dvar float+ x[R] in 0..1;
maximize sum(r in R) x[r];` solved with `--solver gurobi` gets this diagnostic; with HiGHS it solves.""")
R("OPL0702", "solver-not-installed", "error", "Solver package not installed",
  """The chosen backend's Python package cannot be imported. For Gurobi install the
extra (`pip install "pyopl[gurobi]"`, which brings `gurobipy`), or use HiGHS, which is
always installed.""")
R("OPL0703", "backend-cannot-take", "error", "The backend cannot solve this kind of model",
  """Each backend declares which model features it takes (see `docs/solvers.md`).
HiGHS, for example, solves linear and mixed-integer models and convex quadratic
objectives over continuous variables, but not a quadratic objective with integer
variables (MIQP) nor a non-convex quadratic objective. The model is refused before
solving; the message names the feature and a backend that takes it, at the construct
(the objective, or the product in a quadratic constraint).""",
  bad="dvar int x in 0..5;\ndvar float+ y;\nminimize x*x + y;\nsubject to { x + y >= 2.5; }  // --solver highs",
  good="dvar float x in 0..5;\ndvar float+ y;\nminimize x*x + y;\nsubject to { x + y >= 2.5; }",
  at=(3, 10), via="solve")
R("OPL0704", "infeasible-conflict", "warning", "Constraints that cannot hold together",
  """The model has no solution. pyopl computed an irreducible infeasible subset (IIS):
a set of constraints and variable bounds that cannot all hold, while dropping any one
of them makes the rest feasible. The message names them by label and index; relax one
of them (or fix the data that feeds them).""",
  bad="range Days = 1..3;\ndvar float+ make[Days];\nminimize sum(d in Days) make[d];\n"
      "subject to {\n  forall(d in Days) ctCap: make[d] <= 10;\n  ctDemand: sum(d in Days) make[d] >= 45;\n}",
  good="range Days = 1..3;\ndvar float+ make[Days];\nminimize sum(d in Days) make[d];\n"
       "subject to {\n  forall(d in Days) ctCap: make[d] <= 20;\n  ctDemand: sum(d in Days) make[d] >= 45;\n}",
  at=(6, 3), via="solve")
R("OPL0705", "unbounded-ray", "warning", "Objective is unbounded",
  """The objective can improve without limit: the named variables can grow along a
direction (a ray) that no constraint stops. Add the missing bound or constraint.""",
  bad="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x - y <= 1; }",
  good="dvar float+ x;\ndvar float+ y;\nmaximize x + y;\nsubject to { x - y <= 1; x + y <= 10; }",
  at=(3, 1), via="solve")
R("OPL0706", "solver-failed", "error", "The solver failed",
  """The solver stopped with an error that is not a property of the model (numerical
trouble, memory, a rejected problem). The message carries the solver's own words.""")
R("OPL0707", "solver-option-invalid", "error", "Unknown or invalid solver option",
  """An `--option NAME=VALUE` (or `options={...}` in Python) was refused by the backend:
the name is not one of its options, or the value has the wrong type. HiGHS options are
listed at https://ergo-code.github.io/HiGHS/ (e.g. `presolve=off`); Gurobi parameters at
https://docs.gurobi.com/ (e.g. `Presolve=0`).""")
R("OPL0709", "solution-check-failed", "error", "The returned solution does not satisfy the model",
  """Every solution a solver returns is checked against the model before it is reported: the
objective and each constraint are evaluated from the model's declarations at the returned point
(decisions at their reported values, integers as integers), and the compiled rows, bounds and
integrality with pyopl's own coefficients, each within the feasibility tolerance (1e-6, relative).
This error says the point does not satisfy the model, or that the solver's objective is not the
model's objective at that point: a number the solver could not honour (a big-M of 1e12 that its
integrality tolerance defeats, a coefficient below 1e-9 it dropped, a row with coefficients near
1e9), or a bug in pyopl. The status is then `check_failed` (exit status 9), never `optimal`; the
values are kept so you can look at them. It names the constraint (label and key) and both values.
Tighten the solver's tolerances, give the variables finite bounds near their real range, rescale
the data, or try another solver; `--no-verify` turns the check off, for benchmarking only.""")
R("OPL0710", "assumed-bound-touched", "warning", "The solution reaches a bound pyopl assumed",
  """A logical constraint, `abs`, `min`/`max` or `piecewise` over a variable with no declared or
implied bound on one side was linearised with big-M, assuming a bound (warning OPL0901). The
solver's optimum is then only optimal among solutions inside that bound, and this solution
reaches it, so a better one may lie beyond: the status is `feasible`, not `optimal`, and
`result.extra["assumptions"]` lists each assumed bound and whether the solution touches it. Give
the variable the domain the model really has, or a constraint that bounds it. On CP-SAT the same
holds for an integer decision declared without a domain: it gets `-maxint..maxint`, and a solution
at either end is only optimal within that assumed domain.""",
  bad="dvar float+ x;\ndvar boolean b;\nmaximize x - b;\nsubject to { b == 0 => x <= 0; }",
  good="dvar float+ x in 0..100;\ndvar boolean b;\nmaximize x - b;\nsubject to { b == 0 => x <= 0; }",
  at=(4, 24), via="solve")
R("OPL0711", "coefficient-range", "warning", "Coefficients a solver cannot honour",
  """A constraint has a coefficient below 1e-9 in magnitude, which HiGHS (`small_matrix_value`)
and SCIP (`numerics/epsilon`) treat as 0 without a word, or coefficients whose magnitudes span more
than 1e9, beyond what solvers honour reliably (Gurobi's guidelines for numerical issues, CPLEX's
notes on ill-conditioning): the solver may then report a wrong optimum as optimal. The solution
check (OPL0709) catches such an answer after the solve; this warning says why before it. Scale the
units so that the coefficients of a row stay within about 1e6 of each other.""",
  bad="dvar float+ x;\nmaximize x;\nsubject to {\n  c: 1e-10 * x <= 1;\n  x <= 1e12;\n}",
  good="dvar float+ x;\nmaximize x;\nsubject to {\n  c: x <= 1e10;\n  x <= 1e12;\n}",
  at=(4, 3))
R("OPL0708", "cpsat-non-integral", "error", "A coefficient CP-SAT cannot take exactly",
  """OR-Tools CP-SAT takes integer coefficients only. pyopl multiplies each constraint (and the
objective) by the smallest power of ten, up to 10^6, that makes every coefficient and bound of it a
whole number, else by the common denominator of the fractions the coefficients are (`1/3` computed
from data); when neither exists (`sqrt(2)`), or the scaled numbers pass 2^53, the constraint is
refused with the coefficient named, never rounded. Round the data to the precision you mean, or
change the units.""")
R("OPL0712", "highs-presolve-wrong-optimum", "warning", "HiGHS's presolve reported a worse optimum",
  """HiGHS 1.16's MIP presolve sometimes returns a point as optimal although the model has a better
one (HiGHS issues 3073, 3094, 3043, 3274, 2900 on GitHub). When HiGHS calls a MIP of at most 5,000
columns and 5,000 rows optimal, and you did not set `presolve` yourself, pyopl solves it once more
with presolve off, seeded with the point found and within what is left of the time limit. This
warning says the two solves disagree and gives both objective values: when the second finds a point
beyond the first one's proven bound, that point is reported (`optimal` if the second solve finished,
else `feasible`); when the second solve contradicts the first (it calls a worse value optimal, or the
model infeasible) the first, checked point is reported as `feasible`, not `optimal`.
`result.extra["presolve_recheck"]` records the second solve. Each level of a `staticLex`
objective is checked the same way (the warning names the level). For example, the model below with
`maximize id;` and `id <= 153886;` gets 153884 from HiGHS with presolve, 153886 without. Fix:
solve with `--option presolve=off` (or `--option mip_feasibility_tolerance=1e-9`), or with another
solver.""",
  bad="""{int} F = {1,2,3,4,5,6,7,8};
float sodium[F] = [50,330,310,1,260,3,160,3];
float fat[F] = [17,9,6,2,0,0,0,0];
float calories[F] = [220,260,70,10,5,4,20,9];
dvar int qty[F] in 1..5;
dvar int+ id;
maximize id;
subject to {
  id == sum(f in F) (qty[f]-1) * pow(5, f-1);
  id <= 153886;
  sum(f in F) qty[f]*sodium[f] <= 3000;
  sum(f in F) qty[f]*fat[f] <= 150;
  sum(f in F) qty[f]*calories[f] <= 3000;
  qty[7] == qty[6];
  qty[5] == qty[8];
}""")
