"""Diagnostic kinds 1100-1119: OPL's types kept strictly, so that no answer is silently wrong:
negative `int+`/`float+` data, `int` data and arithmetic outside 32 bits, a tuple literal that does
not fit the index's tuple type."""
from ..registry import register as R

_USE_CAP = '{string} Cities = {"Paris", "Lyon"};\nint+ cap[Cities] = ...;\ndvar float+ x[Cities];\n' \
           'maximize sum(c in Cities) x[c];\nsubject to { forall(c in Cities) x[c] <= cap[c]; }'
R("OPL1100", "data-negative-unsigned", "error", "Negative value for `int+` or `float+` data",
  """Data declared `int+` or `float+` cannot be negative (OPL checks this when the data are
read). The message names the element and its index; the value comes from the data file, the
initializer or the Python dict at the place shown.""",
  bad=_USE_CAP, bad_data='cap = #["Paris": 4, "Lyon": -3]#;',
  good=_USE_CAP, good_data='cap = #["Paris": 4, "Lyon": 3]#;',
  at=(1, 7))
R("OPL1101", "data-int-out-of-range", "error", "Integer data outside OPL's 32-bit `int` range",
  """OPL's `int` is a 32-bit integer: from -2147483648 to 2147483647 (`maxint`). A larger
integer given for `int` data (or an `int` field or set) is an error, not a silently larger
number; declare the data `float` if it needs the magnitude.""",
  bad="int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }", bad_data="n = 2147483648;",
  good="float n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }", good_data="n = 2147483648;",
  at=(1, 1))
R("OPL1102", "int-overflow", "error", "Integer arithmetic outside OPL's 32-bit `int` range",
  """OPL computes `int` with `int` in 32 bits: `maxint + 1`, `100000 * 100000` or
`abs(-maxint - 1)` overflow there. pyopl reports the expression instead of giving a larger
number OPL would not give. Write a float operand (`100000.0 * 100000`) where the magnitude
is meant. Checked wherever two `int` values meet, in data and in constraints; once a decision
variable is involved the coefficients are floats, as for CPLEX.""",
  bad="int n = maxint + 1;\ndvar float x;\nminimize x;\nsubject to { x >= n; }",
  good="float n = maxint + 1.0;\ndvar float x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 9))
R("OPL1103", "index-tuple-type-mismatch", "error", "Tuple literal that does not fit the index's tuple type",
  """An array indexed by a tuple set takes tuples of that set's type, or a tuple literal `<...>`
with one value per field (or per key field), each of the field's type. A literal of another
length or with a string where an `int` field is expected is a type error at the index, not
"not in the index set". (A tuple of another declared tuple type is OPL0217.)""",
  bad="tuple arc { int o; int d; }\n{arc} A = {<1, 2>};\nfloat cost[A] = [5];\ndvar float+ x;\n"
      "minimize x;\nsubject to { x >= cost[<1, 2, 3>]; }",
  good="tuple arc { int o; int d; }\n{arc} A = {<1, 2>};\nfloat cost[A] = [5];\ndvar float+ x;\n"
       "minimize x;\nsubject to { x >= cost[<1, 2>]; }",
  at=(6, 24))
