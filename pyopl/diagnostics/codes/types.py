"""Diagnostic kinds: types."""
from ..registry import register as R

R("OPL0201", "type-bad-operands", "error", "Operator applied to the wrong types",
  """Arithmetic needs numbers or linear expressions; strings only concatenate with `+`.""",
  bad='string s = "a";\nfloat v = s * 2;\ndvar float+ x;\nminimize x;',
  good='float s = 1;\nfloat v = s * 2;\ndvar float+ x;\nminimize x;',
  at=(2, 11))
R("OPL0202", "type-expected-number", "error", "A number is expected",
  """This place needs a numeric value (a bound, an argument of a numeric function, ...).""",
  bad='float v = sqrt("four");\ndvar float+ x;\nminimize x;',
  good='float v = sqrt(4);\ndvar float+ x;\nminimize x;',
  at=(1, 16))
R("OPL0203", "type-expected-set", "error", "A set or range is expected",
  """Iteration domains, index sets and set operators need sets or ranges.""",
  bad="int n = 3;\ndvar float+ x;\nminimize sum(i in n) x;",
  good="int n = 3;\ndvar float+ x;\nminimize sum(i in 1..n) x;",
  at=(3, 19))
R("OPL0204", "type-not-boolean", "error", "A condition is expected",
  """Filters, `if` and `?:` conditions must be boolean expressions.""",
  bad="dvar float+ x[1..3];\nminimize sum(i in 1..3 : i + 1) x[i];",
  good="dvar float+ x[1..3];\nminimize sum(i in 1..3 : i > 1) x[i];",
  at=(2, 26))
R("OPL0205", "type-bad-comparison", "error", "Values of different types compared",
  """Only values of the same kind compare: numbers with numbers, strings with strings.""",
  bad='float a = 2;\nint b = (a == "two") ? 1 : 0;\ndvar float+ x;\nminimize x;',
  good='float a = 2;\nint b = (a == 2) ? 1 : 0;\ndvar float+ x;\nminimize x;',
  at=(2, 10))
R("OPL0206", "type-int-expected", "error", "An integer is expected",
  """`div`, `mod` and `item` positions need integer operands.""",
  bad="float a = 7.5 div 2;\ndvar float+ x;\nminimize x;",
  good="int a = 7 div 2;\ndvar float+ x;\nminimize x;",
  at=(1, 11))
R("OPL0207", "type-expected-range", "error", "A range is expected",
  """A `range` declaration and a variable's domain need `lo..hi`.""",
  bad='range R = {1, 2};\ndvar float+ x;\nminimize x;',
  good='range R = 1..2;\ndvar float+ x;\nminimize x;',
  at=(1, 11))
R("OPL0208", "type-bad-range-constraint", "error", "Ranged constraint with decision bounds",
  """In `lo <= expr <= hi` only the middle may involve decision variables.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { 0 <= x <= y; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { 0 <= x; x <= y; }",
  at=(4, 14))
R("OPL0209", "field-of-non-tuple", "error", "Field access on a value that is not a tuple",
  """`.field` applies to tuple values only.""",
  bad="int a = 3;\nint b = a.size;\ndvar float+ x;\nminimize x;",
  good="int a = 3;\nint b = a;\ndvar float+ x;\nminimize x;",
  at=(2, 9))
R("OPL0210", "call-arity", "error", "Wrong number of arguments",
  """A built-in function was called with too many or too few arguments.""",
  bad="{int} S = {1, 2};\nint c = card(S, S);\ndvar float+ x;\nminimize x;",
  good="{int} S = {1, 2};\nint c = card(S);\ndvar float+ x;\nminimize x;",
  at=(2, 9))
R("OPL0211", "constraint-not-boolean", "error", "Statement is not a constraint",
  """Every statement in `subject to` must compare expressions (`<=`, `>=`, `==`) or combine such comparisons.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x + 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x + 1 >= 2; }",
  at=(3, 14))
R("OPL0212", "objective-not-numeric", "error", "Objective is not numeric",
  """`minimize`/`maximize` takes a numeric expression.""",
  bad='dvar float+ x;\nminimize "cost";\nsubject to { x >= 1; }',
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(2, 10))
R("OPL0213", "dexpr-not-numeric", "error", "dexpr is not numeric",
  """A `dexpr` names a numeric expression.""",
  bad='dvar float+ x;\ndexpr float d = "a";\nminimize x;',
  good="dvar float+ x;\ndexpr float d = 2 * x;\nminimize d;",
  at=(2, 17))
R("OPL0214", "staticlex-position", "error", "`staticLex` outside an objective",
  """`staticLex(e1, e2, ...)` is only valid as the whole objective.""",
  bad="dvar float+ x;\nminimize x + staticLex(x, x);",
  good="dvar float+ x;\nminimize staticLex(x, x);",
  at=(2, 14))
R("OPL0215", "unsupported-constraint-as-value", "error", "Constraint used as a number where no linear form exists",
  """A constraint used as a 0/1 value (`(x >= 3) + (y >= 3) >= 1`, `b == (x <= 4)`) is linearised
with a binary that is 1 exactly when it holds. Strict comparisons and `!=` on continuous
expressions take CPLEX's eplin margin there (OPL0511), so every linear constraint has that form and
this error is no longer reported; the code stays registered so that it is never reused.""")
R("OPL0216", "syntax-strict-comparison-chain-value", "error", "Comparison chain on data",
  """Chained comparisons other than ranged constraints are not OPL.""")
R("OPL0217", "tuple-type-mismatch", "error", "Tuple of another type",
  """Two tuple types are different types even when their fields have the same names and
types. An array over `{Arc}` must be indexed by `Arc` tuples, not by tuples of another type.""",
  bad="tuple Arc { int i; int j; }\ntuple Pair { int i; int j; }\n{Arc} Arcs = {<1, 2>};\n{Pair} Pairs = {<1, 2>};\n"
      "dvar float+ flow[Arcs];\nminimize sum(p in Pairs) flow[p];",
  good="tuple Arc { int i; int j; }\ntuple Pair { int i; int j; }\n{Arc} Arcs = {<1, 2>};\n{Pair} Pairs = {<1, 2>};\n"
       "dvar float+ flow[Arcs];\nminimize sum(a in Arcs) flow[a];",
  at=(6, 31))
R("OPL0218", "field-of-set", "error", "Field access on a set of tuples",
  """`.field` applies to one tuple. A set of tuples has no fields: iterate over it.""",
  bad='tuple P { string name; float price; }\n{P} Ps = {<"a", 1.5>};\ndvar float+ q[Ps];\nmaximize Ps.price;',
  good='tuple P { string name; float price; }\n{P} Ps = {<"a", 1.5>};\ndvar float+ q[Ps];\n'
       'maximize sum(p in Ps) p.price * q[p];\nsubject to { forall(p in Ps) q[p] <= 1; }',
  at=(4, 10))
R("OPL0219", "boolean-domain", "error", "Domain on a boolean variable",
  """A `boolean` decision variable is 0 or 1; it takes no `in lo..hi` domain beyond those values
(`in 0..1`, or `in 1..1` to fix it, are accepted as IBM writes them).""",
  bad="dvar boolean b in 0..5;\nmaximize b;",
  good="dvar int b in 0..5;\nmaximize b;",
  at=(1, 19))
R("OPL0220", "range-bounds-not-int", "error", "Range with non-integer bounds",
  """`lo..hi` ranges are sets of integers. A continuous interval belongs in a decision
variable's domain (`dvar float x in 0.5..2.5`).""",
  bad="range R = 1.5..3;\ndvar float+ x[R];\nminimize sum(r in R) x[r];",
  good="range R = 1..3;\ndvar float+ x[R];\nminimize sum(r in R) x[r];",
  at=(1, 11))
R("OPL0221", "objective-is-comparison", "error", "Objective written as a comparison",
  """`minimize cost >= 10;` mixes the objective with a constraint. Minimize the expression and
state the comparison in `subject to`.""",
  bad="dvar float+ x;\nminimize x >= 2;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 2; }",
  at=(2, 10))
R("OPL0222", "tuple-field-not-scalar", "error", "Array or set inside a tuple value",
  """Each component of a tuple literal `<...>` in the model is one value of the matching field's type;
a set is allowed where the field is a set (`{int} c;`, IBM's "Limitations on tuples"), an array literal
is not (give array fields their values in the data).""",
  bad='tuple Arc { string f; string t; float cost; }\n{Arc} Arcs = {<"a", ["b"], 2.5>};\n'
      'dvar float+ flow[Arcs];\nminimize sum(a in Arcs) flow[a];',
  good='tuple Arc { string f; string t; float cost; }\n{Arc} Arcs = {<"a", "b", 2.5>};\n'
       'dvar float+ flow[Arcs];\nminimize sum(a in Arcs) flow[a];',
  at=(2, 21))
R("OPL0223", "int-from-float-function", "error", "`int` declared from a function that returns a float",
  """IBM's OPL types `round`, `floor`, `ceil` and the other real functions (`sqrt`, `exp`, `log`,
`pow`, `frac`, `sin`...) as `float`, whatever their argument (the language reference gives each
function's type), so `int i = round(4.7);` is a semantic error there. Convert with `ftoi(...)`
(`int i = ftoi(round(4.7));` gives 5), or declare the value `float`.""",
  bad="int i = round(4.7);\ndvar float+ x;\nminimize x;\nsubject to { x >= i; }",
  good="int i = ftoi(round(4.7));\ndvar float+ x;\nminimize x;\nsubject to { x >= i; }",
  at=(1, 9), fixable="maybe-incorrect")
