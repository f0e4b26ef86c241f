"""Diagnostic kinds: unsupported."""
from ..registry import register as R

R("OPL0601", "script-skipped", "warning", "Script block not run",
  """Scripts were turned off (`pyopl solve --no-scripts`, `compile_model(..., scripts=False)`) and this
`execute` block, which sets no data or bounds the model uses, was skipped. (A skipped block that does
set them is the error OPL1059.) Without the switch, pyopl runs IBM ILOG Script; see docs/scripting.md.""")
R("OPL0602", "unsupported-cp", "error", "Retired: CP Optimizer models refused (they run on CP-SAT now)",
  """Retired: earlier versions of pyopl refused every `using CP;` model with this error. A `using CP;`
model now compiles to OR-Tools CP-SAT (docs/cp.md); a CP construct it does not take yet is OPL0627.""")
R("OPL0603", "unsupported-feature", "error", "Unsupported OPL feature",
  """The construct is valid OPL but pyopl does not support it; the message names it (for example
`include` in a model given as text, which has no folder to find the file in).""")
R("OPL0604", "limit-too-large", "error", "Model too large",
  """An index set or array is so large that building it would exhaust memory.""",
  bad="range R = 1..1000000000000;\ndvar float x[R];\nminimize sum(r in R) x[r];",
  good="range R = 1..1000;\ndvar float+ x[R];\nminimize sum(r in R) x[r];",
  at=(2, 12))
R("OPL0605", "internal-error", "error", "Internal error",
  """Something went wrong inside pyopl, not in your model. Please report it with the model.""")
R("OPL0606", "dialect-param-keyword", "warning", "`param` is not OPL",
  """Some OPL-like tools write `param float c[...]`; OPL has no `param` keyword. pyopl accepts and ignores it.""",
  bad="param float c = 2;\ndvar float+ x;\nminimize c * x;", good="float c = 2;\ndvar float+ x;\nminimize c * x;",
  at=(1, 1), fixable="machine-applicable")
R("OPL0607", "dialect-objective-equals", "warning", "Objective label written with `=`",
  """`minimize Cost = expr;` is accepted as `minimize Cost: expr;`, the OPL form.""",
  bad="dvar float+ x;\nminimize Cost = x;", good="dvar float+ x;\nminimize Cost: x;",
  at=(2, 10))
R("OPL0608", "dialect-scalar-from-data", "warning", "Scalar without `...` read from the data",
  """`int T;` declares no value; OPL requires `int T = ...;` to read it from the data. pyopl reads it and warns.""",
  bad="int T;\ndvar float+ x;\nminimize x;\nsubject to { x >= T; }", bad_data="T = 4;",
  good="int T = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= T; }", good_data="T = 4;",
  at=(1, 5))
R("OPL0620", "unsupported-cp-function", "error", "CP Optimizer constraint",
  """`distribute`, `allowedAssignments` and the other constraints of IBM's CP Optimizer that pyopl
does not compile, in a model without `using CP;`. Model them with binary variables. (The CP
constraints pyopl compiles for CP-SAT, `allDifferent`, `inverse`, `noOverlap`, ..., are OPL0626 in
such a model: add `using CP;`.)""",
  bad="dvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { distribute(x, x, x); }",
  good="dvar boolean a[1..3][1..3];\nminimize sum(v in 1..3) v * a[1][v];\n"
       "subject to {\n  forall(i in 1..3) sum(v in 1..3) a[i][v] == 1;\n  forall(v in 1..3) sum(i in 1..3) a[i][v] <= 1;\n}",
  at=(3, 14))
R("OPL0621", "unsupported-cp-variable", "error", "CP Optimizer variable type",
  """`transitionDistance`, a `stateFunction` with a transition distance (`with M`), and a
`stepFunction` declared without its `stepwise{...}` value: the CP Optimizer types pyopl does not
compile. (`dvar interval`, `dvar sequence`, `cumulFunction`, `stateFunction f;` and arrays of them,
and `stepFunction F = stepwise{...};` compile to CP-SAT in a `using CP;` model, docs/cp.md; in a
model without `using CP;` they are OPL0626.) Give a step function its steps in the declaration.""",
  bad="using CP;\nstepFunction s;\nminimize 1;", good="using CP;\ndvar int state in 0..3;\nminimize state;",
  at=(2, 1))
R("OPL0622", "unsupported-stepwise", "error", "`stepwise` function",
  """IBM's inline form `stepwise{v1 -> t1; ...; vLast} x` (a step function applied to an expression) is
not supported: declare the function, `stepFunction F = stepwise{...};`, and use `F(t)` on data, or
`startEval(a, F)`, `forbidStart(a, F)`, `intensity F` with interval variables (docs/cp.md).""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x >= stepwise{1 -> 2; 3} 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(3, 19))
R("OPL0623", "unsupported-main", "warning", "Retired: `main` blocks skipped (they run now)",
  """Retired: earlier versions of pyopl skipped `main` blocks with this warning. A `main` block now runs
(`thisOplModel.generate()`, `cplex.solve()`, loops over solves; see docs/scripting.md); what it cannot
run is the error OPL1057, naming the method.""")
R("OPL0624", "unsupported-tuple-array-field", "error", "Generic array field in a tuple",
  """A tuple field may be an array over an index set (`int use[Resources];`, with its values in the data),
but not a generic array computed from an iterator (`int a[i in R] = ...`).""",
  bad="tuple T { int a[i in 1..2]; }\n{T} Ts = {};\ndvar float+ x;\nminimize x;",
  good="tuple T { int a[1..2]; }\n{T} Ts = {};\ndvar float+ x;\nminimize x;",
  at=(1, 15))
R("OPL0625", "unsupported-set-domain", "error", "Decision variable domain given as a set",
  """`dvar int x in {1, 3, 7}` is not OPL: IBM's language reference declares a decision variable's
domain as a range (`dvar int x in 1..7;`, or a `range` name; `range float` for a `float` one), and
IBM's technote on discontinuous domains (swg21608891) declares the variable over the range around
the allowed values and states them as a constraint: `x in {1, 3, 7};` in a `using CP;` model, and
`sum(v in {1, 3, 7}) (x == v) == 1;` in a mathematical-programming one (one allowed value chosen,
pyopl linearises the equalities with binary variables). The help writes that constraint with the
model's names. A set of consecutive integers (`{1, 2, 3}`) is taken as the range it is.""",
  bad="dvar int x in {1, 3};\nminimize x;",
  good="dvar int x in 1..3;\nminimize x;\nsubject to { sum(v in {1, 3}) (x == v) == 1; }",
  at=(1, 15))
R("OPL0626", "cp-needs-using-cp", "error", "CP construct in a model without `using CP;`",
  """`allDifferent`, `count`, `inverse`, `pack`, `lex`, `allMinDistance`, an array indexed by a decision,
interval and sequence variables, cumulative functions and the scheduling constraints belong to
constraint programming. pyopl compiles them for OR-Tools CP-SAT in a model that starts with
`using CP;` (docs/cp.md); a mathematical-programming model (HiGHS, Gurobi, SCIP, CPLEX) has no
such construct. Add `using CP;`, or formulate it with binary variables.""",
  bad="dvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { allDifferent(x); }",
  good="using CP;\ndvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { allDifferent(x); }",
  at=(3, 14))
R("OPL0627", "unsupported-cp-construct", "error", "CP construct not compiled to CP-SAT yet",
  """The model has `using CP;` and uses a CP Optimizer construct, or a form of one, that pyopl does
not compile to CP-SAT yet; the message names it (for example `alwaysIn` over an interval variable,
`alternative` with a cardinality, a `pulse` of variable height, `allowedAssignments`,
`distribute`). docs/cp.md lists what runs and how each construct maps to CP-SAT.""",
  bad="using CP;\ndvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { distribute(x, x, x); }",
  good="using CP;\ndvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { allDifferent(x); }",
  at=(4, 14))
R("OPL0628", "cp-mp-only", "error", "Mathematical-programming construct in a `using CP;` model",
  """A `using CP;` model is solved by OR-Tools CP-SAT, which has integer variables only: a `float`
decision variable, a quadratic objective or a quadratic constraint is a mathematical-programming
construct. Declare the variable `int` (scaled to whole units) and keep expressions linear, or
remove `using CP;` to solve the model with a MIP solver.""",
  bad="using CP;\ndvar float x in 0..3;\nminimize x;",
  good="using CP;\ndvar int x in 0..3;\nminimize x;",
  at=(2, 12))
R("OPL0629", "cp-bad-argument", "error", "Wrong argument to a CP constraint or scheduling expression",
  """A constraint or expression of constraint programming got an argument of the wrong kind: an
interval expected and a number given (`startOf(3)`), a fractional value where CP takes integers,
arrays of different lengths (`lex`), weights that are not data (`pack`). The message names the
construct and what it takes (OPL manual, "Constraints available in constraint programming",
"Scheduling").""",
  bad="using CP;\ndvar int x in 0..3;\nminimize startOf(x);",
  good="using CP;\ndvar interval a in 0..10 size 3;\nminimize startOf(a);",
  at=(3, 18))
