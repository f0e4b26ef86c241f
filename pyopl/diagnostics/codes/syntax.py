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
  bad="dvar float+ x;\nminimize x;\nsubject to { forall: x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { ctLow: x >= 1; }",
  at=(3, 14))
R("OPL0006", "syntax-unexpected-character", "error", "Character not allowed here",
  """A character that no OPL token starts with (for example `$` or `@`).""",
  bad="dvar float+ x$;\nminimize x;\nsubject to { x >= 1; }",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(1, 14), fixable="maybe-incorrect")
R("OPL0007", "syntax-unexpected-eof", "error", "Model ends too early",
  """The file ended in the middle of a statement, often because a `}` is missing.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x >= 1;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(3, 12), fixable="machine-applicable")
R("OPL0008", "syntax-unclosed-string", "error", "Unclosed string",
  """A string literal must end with `\"` on the same line.""",
  bad='string s = "abc;\ndvar float+ x;\nminimize x;',
  good='string s = "abc";\ndvar float+ x;\nminimize x;',
  at=(1, 12), fixable="maybe-incorrect")
R("OPL0009", "syntax-unclosed-comment", "error", "Unclosed block comment",
  """A `/*` comment must be closed with `*/`.""",
  bad="dvar float+ x;\n/* comment\nminimize x;",
  good="dvar float+ x;\n/* comment */\nminimize x;",
  at=(2, 1))
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
  """The data file has a token that cannot continue the current value. Data that is JSON (a `.json`
file given as data, or JSON text) is this error at its first character, saying so: OPL data is
written `name = value;`, and from Python `pyopl.solve(model, json.load(...))` takes the values as a
dict.""",
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
_X = "dvar float+ x;\nminimize x;\n"
R("OPL0017", "syntax-colon-equals", "error", "`:=` instead of `=`",
  """Declarations take their value with `=`; `:=` comes from other languages.""",
  bad="int n := 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 7), fixable="machine-applicable")
R("OPL0018", "syntax-reversed-comparison", "error", "`=<` instead of `<=`",
  """Less-or-equal is written `<=` (and greater-or-equal `>=`; `=>` is implication).""",
  bad=_X + "subject to { x =< 3; }", good=_X + "subject to { x <= 3; }",
  at=(3, 16), fixable="machine-applicable")
R("OPL0019", "syntax-equals-in-declaration", "error", "`==` in a declaration",
  """A declaration's value follows a single `=`; `==` compares, in constraints and conditions.""",
  bad="int n == 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 7), fixable="machine-applicable")
R("OPL0020", "syntax-python-power", "error", "`**` instead of `^`",
  """OPL writes powers with `^`: `x^2`.""",
  bad="dvar float+ x;\nminimize x ** 2;", good="dvar float+ x;\nminimize x ^ 2;",
  at=(2, 12), fixable="machine-applicable")
R("OPL0021", "syntax-iterator-equals", "error", "Iterator written with `=`",
  """Iterators take their values with `in`: `forall(i in 1..n)`.""",
  bad="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i = 1..3) x[i] >= 1; }",
  good="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3) x[i] >= 1; }",
  at=(3, 23), fixable="machine-applicable")
R("OPL0022", "syntax-not-equal-diamond", "error", "`<>` instead of `!=`",
  """Not-equal is written `!=` in OPL.""",
  bad="dvar int x in 0..3;\nminimize x;\nsubject to { x <> 2; }",
  good="dvar int x in 0..3;\nminimize x;\nsubject to { x != 2; }",
  at=(3, 16), fixable="machine-applicable")
R("OPL0023", "syntax-missing-comma", "error", "Missing `,` in a list",
  """Elements of set and array literals are separated by commas.""",
  bad="{int} S = {1, 2 3};\ndvar float+ x[S];\nminimize sum(s in S) x[s];",
  good="{int} S = {1, 2, 3};\ndvar float+ x[S];\nminimize sum(s in S) x[s];",
  at=(1, 17), fixable="maybe-incorrect")
R("OPL0024", "syntax-extra-closer", "error", "Closing bracket without an opening one",
  """A `)`, `]` or `}` that closes nothing, often a doubled one.""",
  bad="dvar float+ x[1..3];\nminimize x[1]];", good="dvar float+ x[1..3];\nminimize x[1];",
  at=(2, 14), fixable="maybe-incorrect")
R("OPL0025", "syntax-mismatched-closer", "error", "Closing bracket of the wrong kind",
  """The bracket closes an opener of another kind: `(` needs `)`, `[` needs `]`, `{` needs `}`.""",
  bad="dvar float+ x[1..3];\nminimize (x[1] + x[2]];", good="dvar float+ x[1..3];\nminimize (x[1] + x[2]);",
  at=(2, 22), fixable="maybe-incorrect")
R("OPL0026", "syntax-missing-operator", "error", "Missing `*` between a number and a name",
  """OPL has no implicit multiplication: `2 x` is written `2 * x`.""",
  bad="dvar float+ x;\nminimize 2 x;", good="dvar float+ x;\nminimize 2 * x;",
  at=(2, 12), fixable="maybe-incorrect")
R("OPL0027", "syntax-dvar-type", "error", "Not a decision variable type",
  """Decision variables are `int`, `int+`, `float`, `float+` or `boolean` (`integer`, `binary`
and `real` come from other languages).""",
  bad="dvar integer x in 0..5;\nminimize x;", good="dvar int x in 0..5;\nminimize x;",
  at=(1, 6), fixable="machine-applicable")
R("OPL0028", "syntax-dvar-initialised", "error", "Decision variable given a value",
  """The solver chooses a decision variable's value. `dvar T y[R] = ...;` only makes an alias: its
cells must be decision variables declared before (`dvar int y[R] = all(i in R) x[i];`, `dvar interval
itvs[1..2] = [a, b];`, OPL manual "Initialization of decision variable arrays"), one per cell. To fix
a value, state a constraint `x == 3;`; for a known value, declare data instead (`float x = 3;`).""",
  bad="dvar float x = 3;\nminimize x;", good="dvar float x;\nminimize x;\nsubject to { x == 3; }",
  at=(1, 16))
R("OPL0029", "syntax-dexpr-without-expression", "error", "`dexpr` without an expression",
  """A `dexpr` names an expression of decisions: `dexpr float cost = sum(i in I) c[i] * x[i];`.""",
  bad="dvar float+ x;\ndexpr float d;\nminimize x;", good="dvar float+ x;\ndexpr float d = 2 * x;\nminimize d;",
  at=(2, 14))
R("OPL0030", "syntax-tuple-field-separator", "error", "Tuple fields separated by `,`",
  """Each field of a tuple type is a declaration ending with `;`.""",
  bad="tuple T { int a, int b; }\n{T} Ts = {<1, 2>};\ndvar float+ x[Ts];\nminimize sum(t in Ts) x[t];",
  good="tuple T { int a; int b; }\n{T} Ts = {<1, 2>};\ndvar float+ x[Ts];\nminimize sum(t in Ts) x[t];",
  at=(1, 16), fixable="machine-applicable")
R("OPL0031", "syntax-declaration-in-constraints", "error", "Declaration inside `subject to`",
  """Declarations come before the objective; `subject to { ... }` holds constraints only.""",
  bad=_X + "subject to { int n = 3; x >= n; }",
  good="int n = 3;\n" + _X + "subject to { x >= n; }",
  at=(3, 14))
R("OPL0032", "syntax-objective-in-constraints", "error", "Objective inside `subject to`",
  """`minimize`/`maximize` is a statement of its own, above `subject to`.""",
  bad="dvar float+ x;\nsubject to { minimize x; x >= 1; }", good=_X + "subject to { x >= 1; }",
  at=(2, 14))
R("OPL0033", "syntax-constraint-outside-block", "error", "Constraint outside `subject to`",
  """Constraints are stated inside `subject to { ... }` (or `constraints { ... }`).""",
  bad=_X + "x >= 1;", good=_X + "subject to { x >= 1; }",
  at=(3, 3))
R("OPL0034", "syntax-missing-constraints-brace", "error", "`subject to` without `{`",
  """The constraints follow `subject to` inside braces: `subject to { ... }`.""",
  bad=_X + "subject to x >= 1;", good=_X + "subject to { x >= 1; }",
  at=(3, 12), fixable="maybe-incorrect")
R("OPL0035", "syntax-aggregate-parentheses", "error", "`sum` without parentheses",
  """The iterators of `sum`, `prod` and `forall` are written in parentheses: `sum(i in I) x[i]`.""",
  bad="dvar float+ x[1..3];\nminimize sum i in 1..3 x[i];", good="dvar float+ x[1..3];\nminimize sum(i in 1..3) x[i];",
  at=(2, 14))
R("OPL0036", "syntax-misspelled-keyword", "error", "Misspelled keyword",
  """A statement starts with a word close to an OPL keyword (`minimise`, `dvars`, `Subject`).
The fix-it writes the keyword.""",
  bad="dvars float+ x;\nminimize x;", good="dvar float+ x;\nminimize x;",
  at=(1, 1), fixable="machine-applicable")
R("OPL0037", "syntax-single-quotes", "error", "String in single quotes",
  """OPL strings use double quotes: `"Rome"`.""",
  bad="{string} S = {'a', 'b'};\ndvar float+ x[S];\nminimize sum(s in S) x[s];",
  good='{string} S = {"a", "b"};\ndvar float+ x[S];\nminimize sum(s in S) x[s];',
  at=(1, 15), fixable="machine-applicable")
R("OPL0038", "syntax-single-ampersand", "error", "`&` instead of `&&`",
  """Logical and is `&&` (or `and`); logical or is `||`.""",
  bad="dvar boolean a;\ndvar boolean b;\nmaximize a + b;\nsubject to { a == 1 & b == 1 => a + b <= 1; }",
  good="dvar boolean a;\ndvar boolean b;\nmaximize a + b;\nsubject to { a == 1 && b == 1 => a + b <= 1; }",
  at=(4, 21), fixable="machine-applicable")
R("OPL0039", "syntax-hash-comment", "error", "`#` comment",
  """OPL comments are `// to the end of the line` or `/* ... */`.""",
  bad="# capacity of the plant\ndvar float+ x;\nminimize x;", good="// capacity of the plant\ndvar float+ x;\nminimize x;",
  at=(1, 1), fixable="machine-applicable")
R("OPL0040", "syntax-data-declaration", "error", "Type in a data file",
  """A data file gives values only (`n = 3;`); the type is declared in the model (`int n = ...;`).""",
  bad="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", bad_data="int n = 3;",
  good="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", good_data="n = 3;",
  at=(1, 1), fixable="machine-applicable")
R("OPL0041", "syntax-data-expression", "error", "Expression in a data file",
  """Data files hold literal values; compute in the model (`int n = n0 + 3;`).""",
  bad="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", bad_data="n = 2 + 3;",
  good="int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", good_data="n = 5;",
  at=(1, 7))
R("OPL0042", "syntax-data-unexpected-character", "error", "Character not allowed in a data file",
  """A character that no data token starts with.""",
  bad="float w[1..2] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1]; }", bad_data="w = [1, 2@];",
  good="float w[1..2] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1]; }", good_data="w = [1, 2];",
  at=(1, 10), fixable="maybe-incorrect")
R("OPL0043", "syntax-data-unclosed-string", "error", "Unclosed string in a data file",
  """A string value must end with `"` on the same line.""",
  bad='{string} S = ...;\ndvar float+ x[S];\nminimize sum(s in S) x[s];', bad_data='S = {"a", "b};',
  good='{string} S = ...;\ndvar float+ x[S];\nminimize sum(s in S) x[s];', good_data='S = {"a", "b"};',
  at=(1, 11))
R("OPL0044", "syntax-piecewise-final-slope", "error", "`piecewise` without its final slope",
  """A piecewise-linear function is written `piecewise{s1 -> b1; ...; sn -> bn; s}`: each
`slope -> breakpoint` item gives the slope up to that breakpoint, and the list ends with one
slope alone, the slope after the last breakpoint. IBM's syntax requires that final slope; pyopl
does not guess it (assuming 0 would change the function past the last breakpoint). A slope
alone anywhere but at the end is an error for the same reason.""",
  bad="dvar float x in 0..10;\nminimize piecewise{7 -> 8; 9 -> 16}(0, 0) x;",
  good="dvar float x in 0..10;\nminimize piecewise{7 -> 8; 9 -> 16; 0}(0, 0) x;",
  at=(2, 10))
R("OPL0045", "syntax-piecewise-anchor", "error", "`piecewise` anchor with one value",
  """After `piecewise{...}`, a parenthesised point `(x0, y0)` fixes the function's value: it passes
through `(x0, y0)` (IBM's OPL reference, "piecewise"; without it, through `(0, 0)`). A single
value in parentheses, `piecewise{...}(0) x`, is read as the function's argument instead, so the
expression that follows has no operator before it. Give both coordinates, or leave the point out.""",
  bad="dvar float x in 0..10;\nminimize piecewise{1 -> 3; 2}(0) x;",
  good="dvar float x in 0..10;\nminimize piecewise{1 -> 3; 2}(0, 0) x;",
  at=(2, 30))
R("OPL0046", "syntax-typographic-character", "error", "Typographic character instead of OPL's ASCII",
  """Text copied from a word processor, a web page or a PDF (IBM's manuals among them) often has
typographic characters where OPL has ASCII: an en dash `–` or a minus sign `−` for `-`, curly quotes
`“ ”` for `"`, `×` for `*`, `≤ ≥ ≠` for `<= >= !=`, `→` for `->`, a no-break space for a space.
Each is named with the character OPL expects, and the fix-it replaces it.""",
  bad="dvar float x in 0..10;\nmaximize x;\nsubject to { x <= 10 \u2013 3; }",
  good="dvar float x in 0..10;\nmaximize x;\nsubject to { x <= 10 - 3; }",
  at=(3, 22), fixable="machine-applicable")
