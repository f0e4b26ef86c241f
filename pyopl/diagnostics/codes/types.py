"""Diagnostic kinds: types."""
from ..registry import register as R

R("OPL0201", "type-bad-operands", "error", "Operator applied to the wrong types",
  """Arithmetic needs numbers or linear expressions; strings only concatenate with `+`.""",
  bad='string s = "a";\nfloat v = s * 2;\ndvar float+ x;\nminimize x;',
  good='float s = 1;\nfloat v = s * 2;\ndvar float+ x;\nminimize x;')
R("OPL0202", "type-expected-number", "error", "A number is expected",
  """This place needs a numeric value (a bound, an argument of a numeric function, ...).""",
  bad='float v = sqrt("four");\ndvar float+ x;\nminimize x;',
  good='float v = sqrt(4);\ndvar float+ x;\nminimize x;')
R("OPL0203", "type-expected-set", "error", "A set or range is expected",
  """Iteration domains, index sets and set operators need sets or ranges.""",
  bad="int n = 3;\ndvar float+ x;\nminimize sum(i in n) x;",
  good="int n = 3;\ndvar float+ x;\nminimize sum(i in 1..n) x;")
R("OPL0204", "type-not-boolean", "error", "A condition is expected",
  """Filters, `if` and `?:` conditions must be boolean expressions.""",
  bad="dvar float+ x[1..3];\nminimize sum(i in 1..3 : i + 1) x[i];",
  good="dvar float+ x[1..3];\nminimize sum(i in 1..3 : i > 1) x[i];")
R("OPL0205", "type-bad-comparison", "error", "Values of different types compared",
  """Only values of the same kind compare: numbers with numbers, strings with strings.""",
  bad='float a = 2;\nint b = (a == "two") ? 1 : 0;\ndvar float+ x;\nminimize x;',
  good='float a = 2;\nint b = (a == 2) ? 1 : 0;\ndvar float+ x;\nminimize x;')
R("OPL0206", "type-int-expected", "error", "An integer is expected",
  """`div`, `mod` and `item` positions need integer operands.""",
  bad="float a = 7.5 div 2;\ndvar float+ x;\nminimize x;",
  good="int a = 7 div 2;\ndvar float+ x;\nminimize x;")
R("OPL0207", "type-expected-range", "error", "A range is expected",
  """A `range` declaration and a variable's domain need `lo..hi`.""",
  bad='range R = {1, 2};\ndvar float+ x;\nminimize x;',
  good='range R = 1..2;\ndvar float+ x;\nminimize x;')
R("OPL0208", "type-bad-range-constraint", "error", "Ranged constraint with decision bounds",
  """In `lo <= expr <= hi` only the middle may involve decision variables.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { 0 <= x <= y; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { 0 <= x; x <= y; }")
R("OPL0209", "field-of-non-tuple", "error", "Field access on a value that is not a tuple",
  """`.field` applies to tuple values only.""",
  bad="int a = 3;\nint b = a.size;\ndvar float+ x;\nminimize x;",
  good="int a = 3;\nint b = a;\ndvar float+ x;\nminimize x;")
R("OPL0210", "call-arity", "error", "Wrong number of arguments",
  """A built-in function was called with too many or too few arguments.""",
  bad="{int} S = {1, 2};\nint c = card(S, S);\ndvar float+ x;\nminimize x;",
  good="{int} S = {1, 2};\nint c = card(S);\ndvar float+ x;\nminimize x;")
R("OPL0211", "constraint-not-boolean", "error", "Statement is not a constraint",
  """Every statement in `subject to` must compare expressions (`<=`, `>=`, `==`) or combine such comparisons.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x + 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x + 1 >= 2; }")
R("OPL0212", "objective-not-numeric", "error", "Objective is not numeric",
  """`minimize`/`maximize` takes a numeric expression.""",
  bad='dvar float+ x;\nminimize "cost";\nsubject to { x >= 1; }',
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }")
R("OPL0213", "dexpr-not-numeric", "error", "dexpr is not numeric",
  """A `dexpr` names a numeric expression.""",
  bad='dvar float+ x;\ndexpr float d = "a";\nminimize x;',
  good="dvar float+ x;\ndexpr float d = 2 * x;\nminimize d;")
R("OPL0214", "staticlex-position", "error", "`staticLex` outside an objective",
  """`staticLex(e1, e2, ...)` is only valid as the whole objective.""",
  bad="dvar float+ x;\nminimize x + staticLex(x, x);",
  good="dvar float+ x;\nminimize staticLex(x, x);")
R("OPL0215", "unsupported-constraint-as-value", "error", "Constraint used as a number",
  """A comparison of decision expressions cannot be used as a 0/1 value here.""",
  bad="dvar int x in 0..5;\ndvar int y in 0..5;\nmaximize x;\nsubject to { (x >= 3) * 2 <= y; }",
  good="dvar int x in 0..5;\ndvar int y in 0..5;\ndvar boolean b;\nmaximize x;\nsubject to { b == 1 => x >= 3; 2 * b <= y; }")
R("OPL0216", "syntax-strict-comparison-chain-value", "error", "Comparison chain on data",
  """Chained comparisons other than ranged constraints are not OPL.""")
