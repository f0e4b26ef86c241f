"""Diagnostic kinds: names."""
from ..registry import register as R

R("OPL0101", "undeclared-name", "error", "Name is not declared",
  """Every name must be declared before it is used. When a declared name is close, the
diagnostic suggests it (and carries a fix-it that renames).""",
  bad="float capacity = 10;\ndvar float+ x;\nmaximize x;\nsubject to { x <= capacty; }",
  good="float capacity = 10;\ndvar float+ x;\nmaximize x;\nsubject to { x <= capacity; }",
  at=(4, 19), fixable="machine-applicable")
R("OPL0102", "duplicate-declaration", "error", "Name declared twice",
  """A name can be declared once in a model. The label points at the first declaration.""",
  bad="float price = 2.5;\nfloat price = 3.5;\ndvar float+ x;\nminimize price * x;",
  good="float price = 2.5;\nfloat price2 = 3.5;\ndvar float+ x;\nminimize price * x;",
  at=(2, 7))
R("OPL0103", "reserved-word-name", "error", "Reserved word used as a name",
  """Words of the OPL language (`range`, `int`, `forall`, `subject`, ...) cannot name a declaration.""",
  bad="float range = 2;\ndvar float+ x;\nminimize x;\nsubject to { x >= range; }",
  good="float span = 2;\ndvar float+ x;\nminimize x;\nsubject to { x >= span; }",
  at=(1, 7))
R("OPL0104", "name-used-before-declaration", "error", "Name used before its declaration",
  """OPL reads declarations in order: a name can only be used below its declaration.""",
  bad="float a = b + 1;\nfloat b = 2;\ndvar float+ x;\nminimize x;",
  good="float b = 2;\nfloat a = b + 1;\ndvar float+ x;\nminimize x;",
  at=(1, 11))
R("OPL0105", "unknown-field", "error", "Tuple has no such field",
  """A tuple value is accessed with a field name its type does not declare.""",
  bad='tuple P { string name; float price; }\n{P} Ps = {<"a", 1.5>};\ndvar float+ q[Ps];\nmaximize sum(p in Ps) p.prize * q[p];\nsubject to { forall(p in Ps) q[p] <= 1; }',
  good='tuple P { string name; float price; }\n{P} Ps = {<"a", 1.5>};\ndvar float+ q[Ps];\nmaximize sum(p in Ps) p.price * q[p];\nsubject to { forall(p in Ps) q[p] <= 1; }',
  at=(4, 25), fixable="machine-applicable")
R("OPL0106", "duplicate-field", "error", "Tuple field declared twice",
  """Each field of a tuple type needs its own name.""",
  bad="tuple T { int a; int a; }\ndvar float+ x;\nminimize x;",
  good="tuple T { int a; int b; }\ndvar float+ x;\nminimize x;",
  at=(1, 22))
R("OPL0107", "unknown-type", "error", "Unknown type",
  """A declaration uses a type name that is neither a built-in type nor a declared tuple.""",
  bad="{Arc} arcs = {};\ndvar float+ x;\nminimize x;",
  good="tuple Arc { string from; string to; }\n{Arc} arcs = {};\ndvar float+ x;\nminimize x;",
  at=(1, 1))
R("OPL0108", "unknown-function", "error", "Unknown function",
  """The called function is not an OPL built-in.""",
  bad="float a = sqr(2);\ndvar float+ x;\nminimize x;",
  good="float a = sqrt(2);\ndvar float+ x;\nminimize x;",
  at=(1, 11), fixable="maybe-incorrect")
R("OPL0109", "type-used-as-value", "error", "Tuple type used as a value",
  """A tuple type names a shape, not data; declare a set of it and use the set.""",
  bad="tuple T { int a; }\nint n = card(T);\ndvar float+ x;\nminimize x;",
  good="tuple T { int a; }\n{T} Ts = {<1>};\nint n = card(Ts);\ndvar float+ x;\nminimize x;",
  at=(2, 14))
R("OPL0110", "label-used-as-value", "error", "Constraint label used as a value",
  """A name declared with `constraint` labels constraints; it has no value in expressions.""",
  bad="constraint ct;\ndvar float+ x;\nminimize x + ct;\nsubject to { ct: x >= 1; }",
  good="constraint ct;\ndvar float+ x;\nminimize x;\nsubject to { ct: x >= 1; }",
  at=(3, 14))
R("OPL0111", "duplicate-objective", "error", "More than one objective",
  """A model has at most one `minimize` or `maximize`; combine goals with weights or `staticLex`.""",
  bad="dvar float+ x;\nminimize x;\nmaximize x;\nsubject to { x <= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x <= 1; }",
  at=(3, 1))
R("OPL0112", "dexpr-cycle", "error", "dexpr defined in terms of itself",
  """A `dexpr` cannot refer to itself, directly or through other dexprs.""",
  bad="dvar float+ x;\ndexpr float d = d + x;\nminimize d;",
  good="dvar float+ x;\ndexpr float d = 2 * x;\nminimize d;",
  at=(2, 17))
R("OPL0113", "duplicate-label", "error", "Constraint label used twice",
  """Each labelled constraint needs its own name, so that its dual value and slack can be
reported. Inside a `forall`, index the label (`ct[i]:`) instead of repeating it.""",
  bad="dvar float+ x;\nminimize x;\nsubject to {\n  ctLow: x >= 1;\n  ctLow: x >= 2;\n}",
  good="dvar float+ x;\nminimize x;\nsubject to {\n  ctLow: x >= 1;\n  ctLow2: x >= 2;\n}",
  at=(5, 3))
R("OPL0114", "label-clashes-with-declaration", "error", "Constraint label reuses a declared name",
  """A constraint label shares the namespace of declarations: a label named like a data
item or a decision variable would hide it.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x: x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { ctX: x >= 1; }",
  at=(3, 14))
R("OPL0115", "array-called", "error", "Array indexed with parentheses",
  """Arrays are indexed with square brackets: `cost[i]`, not `cost(i)`. The fix-it replaces
the parentheses.""",
  bad="float cost[1..3] = [1, 2, 3];\ndvar float+ x[1..3];\nminimize sum(i in 1..3) cost(i) * x[i];",
  good="float cost[1..3] = [1, 2, 3];\ndvar float+ x[1..3];\nminimize sum(i in 1..3) cost[i] * x[i];",
  at=(3, 25), fixable="machine-applicable")
R("OPL0116", "duplicate-iterator", "error", "Iterator bound twice in one loop",
  """`forall(i in I, i in J)` binds `i` twice; the second hides the first. Give each
iterator its own name.""",
  bad="dvar float+ x[1..2][1..2];\nminimize sum(i in 1..2, i in 1..2) x[i][i];",
  good="dvar float+ x[1..2][1..2];\nminimize sum(i in 1..2, j in 1..2) x[i][j];",
  at=(2, 25))
R("OPL0117", "self-reference", "error", "Declaration refers to itself",
  """A data declaration cannot use its own name in its value: OPL has no assignment, so
`n = n + 1` has no meaning. Give the new value a new name.""",
  bad="int n = n + 1;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good="int n0 = 3;\nint n = n0 + 1;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 9))
