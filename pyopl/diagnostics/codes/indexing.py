"""Diagnostic kinds: indexing."""
from ..registry import register as R

R("OPL0301", "index-out-of-set", "error", "Index value outside the declared index set",
  """An array was indexed with a value that is not in the set it was declared over. The
message names the array, the value, the set, and the loop values that produced it.""",
  bad='{string} Cities = {"Rome", "Paris"};\ndvar float+ x[Cities];\nminimize sum(c in Cities) x[c];\nsubject to { x["Berlin"] >= 5; }',
  good='{string} Cities = {"Rome", "Paris", "Berlin"};\ndvar float+ x[Cities];\nminimize sum(c in Cities) x[c];\nsubject to { x["Berlin"] >= 5; }',
  at=(4, 16))
R("OPL0302", "index-wrong-type", "error", "Index of the wrong type",
  """An array over integers was indexed with a string (or the reverse).""",
  bad='float cost[1..3] = [4, 5, 6];\ndvar float+ x;\nminimize x + cost["first"];',
  good='float cost[1..3] = [4, 5, 6];\ndvar float+ x;\nminimize x + cost[1];',
  at=(3, 19))
R("OPL0303", "index-too-many", "error", "Too many indices",
  """The array was indexed more times than it has dimensions.""",
  bad="float a[1..2] = [1, 2];\ndvar float+ x;\nminimize x + a[1][1];",
  good="float a[1..2] = [1, 2];\ndvar float+ x;\nminimize x + a[1];",
  at=(3, 14))
R("OPL0304", "index-not-array", "error", "Indexing something that is not an array",
  """Only arrays (and tuple sets, by key) can be indexed.""",
  bad="float a = 2;\ndvar float+ x;\nminimize x + a[1];",
  good="float a[1..1] = [2];\ndvar float+ x;\nminimize x + a[1];",
  at=(3, 14))
R("OPL0305", "index-missing", "error", "Array used without all its indices",
  """An array appears in arithmetic without being indexed down to one element.""",
  bad="float a[1..2] = [1, 2];\ndvar float+ x;\nminimize x + a;",
  good="float a[1..2] = [1, 2];\ndvar float+ x;\nminimize x + a[1];",
  at=(3, 14))
R("OPL0306", "pattern-arity", "error", "Tuple pattern of the wrong size",
  """A tuple pattern `<a, b>` needs one component per field of the set's tuples.""",
  bad='tuple E { int i; int j; }\n{E} Es = {<1, 2>};\ndvar float+ x;\nminimize x + sum(<a, b, c> in Es) a;',
  good='tuple E { int i; int j; }\n{E} Es = {<1, 2>};\ndvar float+ x;\nminimize x + sum(<a, b> in Es) a;',
  at=(4, 18))
R("OPL0307", "set-next-past-end", "error", "`next`/`prev` past the end of a set",
  """`next` of the last element (or `prev` of the first) does not exist; `nextc`/`prevc` wrap around.""",
  bad="{int} S = {1, 2, 3};\nint a = next(S, 3);\ndvar float+ x;\nminimize x;",
  good="{int} S = {1, 2, 3};\nint a = nextc(S, 3);\ndvar float+ x;\nminimize x;",
  at=(2, 9))
R("OPL0308", "set-element-missing", "error", "Value is not an element of the set",
  """`ord`, `next` and `prev` need an element of the set.""",
  bad="{int} S = {1, 2, 3};\nint a = ord(S, 7);\ndvar float+ x;\nminimize x;",
  good="{int} S = {1, 2, 3};\nint a = ord(S, 3);\ndvar float+ x;\nminimize x;",
  at=(2, 16))
R("OPL0309", "set-position-out-of-range", "error", "Set position out of range",
  """`item(S, k)` needs 0 <= k < card(S): positions are 0-based.""",
  bad="{int} S = {1, 2, 3};\nint a = item(S, 3);\ndvar float+ x;\nminimize x;",
  good="{int} S = {1, 2, 3};\nint a = item(S, 2);\ndvar float+ x;\nminimize x;",
  at=(2, 17))
R("OPL0310", "empty-set-access", "error", "First or last of an empty set",
  """`first` and `last` need a non-empty set.""",
  bad="{int} S = {};\nint a = first(S);\ndvar float+ x;\nminimize x;",
  good="{int} S = {4};\nint a = first(S);\ndvar float+ x;\nminimize x;",
  at=(2, 9))
R("OPL0311", "empty-aggregate", "error", "min or max of nothing",
  """`minl`/`maxl` need at least one value.""")
R("OPL0312", "data-missing-element", "error", "Array element without a value",
  """The element exists in the index set but the array has no value for it.""")
R("OPL0313", "index-too-few", "error", "Too few indices",
  """In a constraint or the objective, an array must be indexed down to one element: a
two-dimensional `x[i][j]` needs both indices.""",
  bad="dvar float+ x[1..2][1..3];\nminimize sum(i in 1..2) x[i];",
  good="dvar float+ x[1..2][1..3];\nminimize sum(i in 1..2, j in 1..3) x[i][j];",
  at=(2, 25))
R("OPL0314", "label-index-count", "error", "Label indexed with the wrong number of indices",
  """A label declared `constraint ct[I][J];` takes two indices, one per dimension.""",
  bad="constraint ct[1..2];\ndvar float+ x[1..2][1..2];\nminimize sum(i in 1..2, j in 1..2) x[i][j];\n"
      "subject to { forall(i in 1..2, j in 1..2) ct[i][j]: x[i][j] >= 1; }",
  good="constraint ct[1..2][1..2];\ndvar float+ x[1..2][1..2];\nminimize sum(i in 1..2, j in 1..2) x[i][j];\n"
       "subject to { forall(i in 1..2, j in 1..2) ct[i][j]: x[i][j] >= 1; }",
  at=(4, 43))
R("OPL0315", "set-indexed", "error", "Set indexed like an array",
  """Sets are not arrays: `S[1]` has no meaning. `item(S, k)` gives the element at 0-based
position `k`; `first(S)` and `last(S)` the ends.""",
  bad="{int} S = {4, 5, 6};\ndvar float+ x;\nminimize x;\nsubject to { x >= S[1]; }",
  good="{int} S = {4, 5, 6};\ndvar float+ x;\nminimize x;\nsubject to { x >= item(S, 0); }",
  at=(4, 19))
