"""00xx: syntax."""
from ..registry import register as R

R("OPL0001", "syntax-unexpected-token", "error", "Unexpected token",
  """The parser met a token that cannot continue the model at this point. The message
lists what would have been accepted, in words.""",
  bad="dvar float+ x;\nminimize x x;\nsubject to { x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(2, 13))
R("OPL0002", "syntax-missing-semicolon", "error", "Missing `;`",
  """Every declaration, objective and constraint ends with `;`. The diagnostic points just
after the last token of the statement that is not terminated.""",
  bad="int n = 3\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 10), fixable="machine-applicable")
R("OPL0003", "syntax-assign-in-constraint", "error", "`=` used where `==` is meant",
  """In OPL, `=` initialises a declaration; an equality constraint is written with `==`.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x = 5; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x == 5; }",
  at=(3, 16), fixable="machine-applicable")
R("OPL0004", "syntax-unclosed-bracket", "error", "Unclosed bracket",
  """A `(`, `[` or `{` was opened and the statement ended before it was closed.""",
  bad="dvar float+ x;\nminimize (2 * x;\nsubject to { x >= 1; }",
  good="dvar float+ x;\nminimize (2 * x);\nsubject to { x >= 1; }",
  at=(2, 10), fixable="maybe-incorrect")
R("OPL0005", "syntax-reserved-word", "error", "Reserved word used as a name",
  """Words such as `range`, `int`, `forall` or `subject` are part of the language and cannot
name a declaration. Choose another name.""",
  bad="dvar float+ forall;\nminimize forall;",
  good="dvar float+ total;\nminimize total;")
R("OPL0006", "syntax-unexpected-character", "error", "Character not allowed here",
  """A character that no OPL token starts with (for example `$` or `@`).""",
  bad="dvar float+ x$;\nminimize x;\nsubject to { x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(1, 14))
R("OPL0007", "syntax-unexpected-eof", "error", "Model ends too early",
  """The file ended in the middle of a statement, often because a `}` is missing.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x >= 1;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(3, 12), fixable="maybe-incorrect")
R("OPL0008", "syntax-unclosed-string", "error", "Unclosed string",
  """A string literal must end with `\"` on the same line.""",
  bad='string s = "abc;\ndvar float+ x;\nminimize x;',
  good='string s = "abc";\ndvar float+ x;\nminimize x;',
  at=(1, 12))
R("OPL0009", "syntax-unclosed-comment", "error", "Unclosed block comment",
  """A `/*` comment must be closed with `*/`.""",
  bad="dvar float+ x;\n/* comment\nminimize x;",
  good="dvar float+ x;\n/* comment */\nminimize x;")
R("OPL0010", "syntax-unclosed-script", "error", "Unclosed `execute` or `main` block",
  """The braces of a script block do not balance, so the rest of the file would be part of it.""",
  bad="dvar float+ x;\nminimize x;\nexecute { writeln(x);",
  good="dvar float+ x;\nminimize x;\nexecute { writeln(x); }",
  at=(3, 1))
R("OPL0011", "syntax-bad-label", "error", "Constraint label is not a name",
  """A constraint label is a name (`ctCap:`) or an indexed name (`ctCap[i]:`).""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x + 1: x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { ctLow: x >= 1; }",
  at=(3, 14))
R("OPL0012", "syntax-too-many-errors", "error", "Too many syntax errors",
  """Parsing stopped after many errors; fix the first ones and compile again.""")
R("OPL0013", "syntax-strict-comparison-chain", "error", "Comparison chain is not a range",
  """Only `lo <= e <= hi` (or `>=` both ways) forms a ranged constraint; other chains are not OPL.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { 1 <= x >= 3; }",
  good="dvar float+ x;\nminimize x;\nsubject to { 1 <= x <= 3; }",
  at=(3, 14))
R("OPL0014", "syntax-empty-tuple-type", "error", "Tuple type with no fields",
  """A tuple type needs at least one field.""",
  bad="tuple T { }\ndvar float+ x;\nminimize x;",
  good="tuple T { int a; }\ndvar float+ x;\nminimize x;",
  at=(1, 7))
R("OPL0015", "syntax-data-unexpected-token", "error", "Unexpected token in data file",
  """The data file has a token that cannot continue the current value.""",
  bad="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  bad_data="n = = 3;",
  good="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good_data="n = 3;",
  at=(1, 5))
R("OPL0016", "syntax-data-missing-semicolon", "error", "Missing `;` in data file",
  """Every data assignment ends with `;`.""",
  bad="int n = ...;\nint m = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n + m; }",
  bad_data="n = 3\nm = 4;",
  good="int n = ...;\nint m = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n + m; }",
  good_data="n = 3;\nm = 4;",
  at=(1, 6), fixable="machine-applicable")
