"""09xx: warnings. The model compiles and solves, but something in it is probably not meant."""
from ..registry import register as R

R("OPL0921", "unused-dvar", "warning", "Decision variable never used",
  """A decision variable that no objective, constraint or dexpr mentions takes any value the
solver likes; it is usually a leftover or a misspelling.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x;\nsubject to { x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(2, 13))
R("OPL0922", "unused-declaration", "warning", "Declaration never used",
  """A data item with a value in the model, or a dexpr, that nothing uses.""",
  bad="float rate = 2;\ndvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  good="float rate = 2;\ndvar float+ x;\nminimize rate * x;\nsubject to { x >= 1; }",
  at=(1, 7))
R("OPL0923", "shadowed-name", "warning", "Iterator hides a declaration",
  """An iterator named like a declaration hides it inside the loop; a later reader (or the
author) easily mixes the two up.""",
  bad="int n = 3;\ndvar float+ x[1..3];\nminimize sum(n in 1..3) x[n];",
  good="int n = 3;\ndvar float+ x[1..3];\nminimize sum(i in 1..n) x[i];",
  at=(3, 14))
R("OPL0924", "shadowed-iterator", "warning", "Iterator hides an enclosing iterator",
  """A nested loop reuses the iterator name of an enclosing loop, so the outer one cannot be
reached inside. A component of a tuple pattern is different: in `forall(j in N) sum(<i, j> in Edges)`
the `j` of the pattern *matches* the enclosing `j` (only the tuples with that value are summed, as
in IBM's TSP example), so no warning is given there.""",
  bad="dvar float+ x[1..2][1..2];\nminimize x[1][1];\nsubject to { forall(i in 1..2) sum(i in 1..2) x[i][i] <= 1; }",
  good="dvar float+ x[1..2][1..2];\nminimize x[1][1];\nsubject to { forall(i in 1..2) sum(j in 1..2) x[i][j] <= 1; }",
  at=(3, 36))
R("OPL0925", "unused-iterator", "warning", "Summed term does not use the iterator",
  """`sum(i in I) x` adds the same `x` once per element of `I`; the term was probably
meant to be indexed by `i`.""",
  bad="dvar float+ x[1..3];\ndvar float+ y;\nminimize sum(i in 1..3) y;\nsubject to { forall(i in 1..3) x[i] >= y; }",
  good="dvar float+ x[1..3];\ndvar float+ y;\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3) x[i] >= y; }",
  at=(3, 10))
R("OPL0926", "empty-forall", "warning", "`forall` with no constraint",
  """`forall(i in I);` has an empty body (often a stray `;` after the parenthesis), so the
constraint that follows is not inside the loop.""",
  bad="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to {\n  forall(i in 1..3);\n  x[1] >= 1;\n}",
  good="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to {\n  forall(i in 1..3)\n    x[i] >= 1;\n}",
  at=(4, 3))
R("OPL0927", "empty-range", "warning", "Empty range",
  """A range `lo..hi` with `lo > hi` has no elements: loops over it do nothing.""",
  bad="range R = 5..1;\ndvar float+ x[1..5];\nminimize sum(r in R) x[r];",
  good="range R = 1..5;\ndvar float+ x[1..5];\nminimize sum(r in R) x[r];",
  at=(1, 11))
R("OPL0928", "duplicate-set-element", "warning", "Set literal lists an element twice",
  """A set holds each value once, so the repeat is dropped; it is often a typo for another
value. The fix-it removes the repeat.""",
  bad="{int} S = {1, 2, 2};\ndvar float+ x[S];\nminimize sum(s in S) x[s];",
  good="{int} S = {1, 2};\ndvar float+ x[S];\nminimize sum(s in S) x[s];",
  at=(1, 18), fixable="machine-applicable")
R("OPL0929", "domain-sign-conflict", "warning", "Non-negative variable with a negative domain",
  """`float+`/`int+` already says "not negative"; a domain that starts below 0 contradicts it.""",
  bad="dvar float+ x in -5..5;\nminimize x;",
  good="dvar float x in -5..5;\nminimize x;",
  at=(1, 18))
R("OPL0930", "objective-without-decisions", "warning", "Objective without decision variables",
  """An objective built from data only is a constant: every feasible solution is optimal.
Usually a decision variable was left out of a product.""",
  bad="float c[1..2] = [3, 4];\ndvar float+ x[1..2];\nminimize sum(i in 1..2) c[i];\nsubject to { forall(i in 1..2) x[i] >= 1; }",
  good="float c[1..2] = [3, 4];\ndvar float+ x[1..2];\nminimize sum(i in 1..2) c[i] * x[i];\nsubject to { forall(i in 1..2) x[i] >= 1; }",
  at=(3, 10))
R("OPL0931", "string-unknown-escape", "warning", "Backslash before a character OPL does not escape",
  r"""In a string of a model or data file, a backslash stands before a character that is not one of
OPL's escapes (`\b \t \n \f \r \" \\`, `\ooo` octal, `\xXX` hex, a backslash ending a line). IBM's
parser then drops the backslash and keeps the character, and so does pyopl: `"Montr\u00e9al"` is
`Montru00e9al` and `"C:\models\plan.dat"` is `C:modelsplan.dat`. OPL has no `\u` escape: write
the character itself (files are read as UTF-8). To keep a backslash, write `\\`; in a file path,
`/` works on every system.""",
  bad='string city = "Montr\\u00e9al";\ndvar float+ x;\nminimize x;',
  good='string city = "Montréal";\ndvar float+ x;\nminimize x;',
  at=(1, 21))
