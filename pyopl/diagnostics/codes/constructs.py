"""Diagnostic kinds OPL1160-OPL1199: constructs of real models and the mistakes LLMs make with them."""
from ..registry import register as R

R("OPL1160", "implication-of-numbers", "error", "`=>` between numbers (did you mean `>=`?)",
  """`=>` is logical implication: both sides must be constraints or booleans
(`b == 1 => x >= 3`). With a number on either side it is almost always `>=` typed
the wrong way round; read as an implication it would solve a different model.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x + y => 3; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x + y >= 3; }",
  at=(4, 20), fixable="machine-applicable")
R("OPL1161", "pwl-function-arity", "error", "A `pwlFunction` applied to other than one argument",
  """A piecewise-linear function declared with `pwlFunction f = piecewise{...};` is applied to
exactly one expression: `f(x)`.""",
  bad="pwlFunction f = piecewise{1 -> 2; 0};\ndvar float x in 0..5;\ndvar float y in 0..5;\nmaximize f(x, y);",
  good="pwlFunction f = piecewise{1 -> 2; 0};\ndvar float x in 0..5;\ndvar float y in 0..5;\nmaximize f(x) + f(y);",
  at=(4, 10))
R("OPL1162", "data-empty-field", "error", "A value missing between two commas in data",
  """A tuple, array or set in a `.dat` file has two commas with nothing between them
(`<1,,2>`). OPL's data parser does not read an empty field as a default value: write the
value, or remove the extra comma.""",
  bad="tuple T { int a; int b; }\n{T} S = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= card(S); }",
  bad_data="S = {<1,,2>};",
  good="tuple T { int a; int b; }\n{T} S = ...;\ndvar float x;\nmaximize x;\nsubject to { x <= card(S); }",
  good_data="S = {<1, 2>};",
  at=(1, 9), fixable="maybe-incorrect")
R("OPL1163", "quadratic-needs-gurobi", "error", "Quadratic constraint or non-convex objective: HiGHS cannot solve it",
  """HiGHS takes linear constraints and a convex quadratic objective (concave when maximised).
A quadratic constraint (`x^2 + y^2 <= 2`) or a non-convex quadratic objective compiles, and SCIP,
Gurobi or CPLEX solves it; `--solver auto` (the default of `pyopl solve` and `pyopl check`) gives
it to the first of them installed, and with `--solver highs` the solve is refused. The diagnostic
points at the product of decisions (naming only the decisions multiplied there) or at the
objective. `pyopl check` agrees with `pyopl solve`: under `auto` it is an error only when no
installed solver takes the model (the help says what to install); `pyopl check --solver highs`
reports it as an error, `--solver gurobi` says nothing, and compiling without a solver gives a
warning that says where `auto` sends it.""",
  bad="dvar float x in -5..5;\ndvar float y in -5..5;\nmaximize x + y;\nsubject to { x^2 + y^2 <= 2; }",
  good="dvar float x in -5..5;\ndvar float y in -5..5;\nmaximize x + y;\nsubject to { x + y <= 2; }",
  at=(4, 14), via="check:highs")
R("OPL1164", "forall-without-braces", "error", "A `forall` without braces covers only the next constraint",
  """`forall(i in I) c1; c2;` repeats `c1` only; `c2` is outside the loop, so its `i` is not declared.
Put the constraints the loop should cover in braces.""",
  bad="dvar float x[1..3] in 0..1;\nmaximize sum(i in 1..3) x[i];\nsubject to {\n  forall(i in 1..3)\n    x[i] <= 1;\n    x[i] >= 0;\n}",
  good="dvar float x[1..3] in 0..1;\nmaximize sum(i in 1..3) x[i];\nsubject to {\n  forall(i in 1..3) {\n    x[i] <= 1;\n    x[i] >= 0;\n  }\n}",
  at=(6, 7))
R("OPL1165", "empty-model", "error", "The model is empty",
  """A model file with no declarations (empty, or only comments) has nothing to solve; solving it
would report a meaningless "optimal".""",
  bad="// nothing yet",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(1, 1))
R("OPL1166", "files-swapped", "error", "The model and data files look swapped",
  """The model file comes first on the command line, then the data files: `pyopl solve model.mod data.dat`.
A data file given where the model goes (alone: `pyopl solve data.dat`; its text is `name = value;`
statements, which no model is) and a second `.mod` file given as data are this error too.""",
  via="cli")
R("OPL1168", "syntax-python-comprehension", "error", "Python generator syntax in an aggregate",
  """`sum(x[i] for i in I)` is Python; OPL writes the iterators first and the term after them:
`sum(i in I) x[i]` (a Python `if` filter becomes `:`).""",
  bad="{int} I = {1, 2};\ndvar float x[I] in 0..1;\nmaximize sum(x[i] for i in I);",
  good="{int} I = {1, 2};\ndvar float x[I] in 0..1;\nmaximize sum(i in I) x[i];",
  at=(3, 19), fixable="machine-applicable")
R("OPL1169", "syntax-ampl-braces", "error", "AMPL braces around an aggregate's iterators",
  """`sum{i in I} x[i]` is AMPL; OPL takes the iterators in parentheses: `sum(i in I) x[i]`.""",
  bad="{int} I = {1, 2};\ndvar float x[I] in 0..1;\nmaximize sum{i in I} x[i];",
  good="{int} I = {1, 2};\ndvar float x[I] in 0..1;\nmaximize sum(i in I) x[i];",
  at=(3, 13), fixable="machine-applicable")
R("OPL1170", "syntax-setof-comprehension", "error", "`setof` used as an aggregate",
  """`setof(T)` is a type, the same as `{T}` (`setof(int) S = ...;`); it takes no iterator. A set
built by iteration is a comprehension: `{i*i | i in 1..10 : i < 4}` (IBM OPL, "Sets").""",
  bad="{int} F = setof(int i in 1..10: i < 4) i*i;",
  good="{int} F = {i*i | i in 1..10: i < 4};",
  at=(1, 21), fixable="maybe-incorrect")
R("OPL1167", "data-name-not-declared", "error", "A name given in the data is not declared in the model",
  """The data file gives `n`, and the model uses `n`, but the model never declares it. Every data
item the model reads is declared with `= ...` (`int n = ...;`). Reported once, at the first use.""",
  bad="range R = 1..n;\ndvar float x[R] in 0..1;\nmaximize sum(i in R) x[i];",
  bad_data="n = 3;",
  good="int n = ...;\nrange R = 1..n;\ndvar float x[R] in 0..1;\nmaximize sum(i in R) x[i];",
  good_data="n = 3;",
  at=(1, 14), fixable="machine-applicable")
