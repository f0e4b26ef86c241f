"""Diagnostic kinds: data."""
from ..registry import register as R

_M1 = "int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }"
R("OPL0401", "data-missing", "error", "No data for a `...` declaration",
  """A name declared with `= ...` must get its value from the data.""",
  bad="float cap = ...;\nfloat rate = ...;\ndvar float+ x;\nmaximize rate * x;\nsubject to { x <= cap; }",
  bad_data="rate = 2;",
  good="float cap = ...;\nfloat rate = ...;\ndvar float+ x;\nmaximize rate * x;\nsubject to { x <= cap; }",
  good_data="rate = 2;\ncap = 8;",
  at=(1, 7))
R("OPL0402", "data-unknown-name", "warning", "Data for a name the model does not declare",
  """The data assigns a name that no declaration of the model uses (often a misspelling).""",
  bad=_M1, bad_data="n = 3;\ncapacity = 12;", good=_M1, good_data="n = 3;",
  at=(2, 1))
R("OPL0403", "data-type-mismatch", "error", "Data value of the wrong type",
  """The value does not fit the declared type (for example 2.5 for an `int`).""",
  bad=_M1, bad_data="n = 2.5;", good=_M1, good_data="n = 2;",
  at=(1, 1))
R("OPL0404", "data-array-length", "error", "Array data of the wrong length",
  """Positional array data needs one value per element of the index set, in the set's order.""",
  bad="int n = ...;\nfloat w[1..n] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= sum(i in 1..n) w[i]; }",
  bad_data="n = 4;\nw = [1, 2, 3];",
  good="int n = ...;\nfloat w[1..n] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= sum(i in 1..n) w[i]; }",
  good_data="n = 4;\nw = [1, 2, 3, 4];",
  at=(2, 5))
R("OPL0405", "data-shape-mismatch", "error", "Array data of the wrong shape",
  """A scalar was given where an array is declared, or the nesting depth differs.""",
  bad="float w[1..2] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1]; }", bad_data="w = 3;",
  good="float w[1..2] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1]; }", good_data="w = [3, 4];",
  at=(1, 1))
R("OPL0406", "data-key-not-in-set", "error", "Keyed data for an index outside the set",
  """A `#[key: value]#` entry uses a key that is not in the array's index set.""",
  bad='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  bad_data='w = #["a": 1, "c": 2]#;',
  good='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  good_data='w = #["a": 1, "b": 2]#;',
  at=(1, 5))
R("OPL0407", "data-missing-key", "error", "Keyed data misses an index",
  """Keyed array data must give a value for every element of the index set.""",
  bad='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  bad_data='w = #["a": 1]#;',
  good='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  good_data='w = #["a": 1, "b": 2]#;',
  at=(1, 5))
R("OPL0408", "data-duplicate-element", "error", "Set data lists an element twice",
  """A set holds each element once.""",
  bad='{string} S = ...;\ndvar float+ x;\nminimize x;', bad_data='S = {"a", "b", "a"};',
  good='{string} S = ...;\ndvar float+ x;\nminimize x;', good_data='S = {"a", "b"};',
  at=(1, 5))
R("OPL0409", "data-tuple-arity", "error", "Tuple data with the wrong number of fields",
  """A tuple value needs one value per field.""",
  bad='tuple T { string a; int b; }\n{T} Ts = ...;\ndvar float+ x;\nminimize x;', bad_data='Ts = {<"x", 1, 2>};',
  good='tuple T { string a; int b; }\n{T} Ts = ...;\ndvar float+ x;\nminimize x;', good_data='Ts = {<"x", 1>};',
  at=(1, 7))
R("OPL0410", "data-tuple-field", "error", "Named tuple data with an unknown field",
  """`#<field: value>#` names a field the tuple type does not have.""",
  bad='tuple T { string a; int b; }\nT t = ...;\ndvar float+ x;\nminimize x;', bad_data='t = #<a: "x", c: 1>#;',
  good='tuple T { string a; int b; }\nT t = ...;\ndvar float+ x;\nminimize x;', good_data='t = #<a: "x", b: 1>#;',
  at=(1, 5))
R("OPL0411", "data-duplicate-name", "error", "Data name assigned twice",
  """Each name gets one value in the data.""",
  bad=_M1, bad_data="n = 3;\nn = 4;", good=_M1, good_data="n = 3;",
  at=(2, 1))
R("OPL0412", "data-not-external", "warning", "Data for a name that has a value in the model",
  """The model gives the name a value, so the data's value is ignored. Declare it with `...` to read it.""",
  bad="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }", bad_data="n = 4;",
  good=_M1, good_data="n = 4;",
  at=(1, 1))
R("OPL0413", "data-no-value", "warning", "Scalar without initializer used by the model and never assigned",
  """A data declaration without `= value` or `= ...` (`int n;`, `string s;`, `{int} S;`, a tuple)
is legal OPL: it holds its type's default (0, 0.0, `""`, the empty set, a tuple of defaults) until a
script assigns it. The warning is given only when the objective, the constraints or the decisions
use it (directly or through other declarations) and no script anywhere assigns it, since the
default then silently shapes the model.""",
  bad="int n;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  good="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(1, 5))
R("OPL0414", "data-uninitialised", "warning", "Array without initializer used by the model and never assigned",
  """An array declared without a value is filled with its type's default (0, 0.0, `""`, empty sets),
as in OPL. The warning is given when the objective, the constraints or the decisions use it and no
script (before the model, in `main` or after it) assigns its items.""",
  bad="float a[1..2];\ndvar float+ x;\nminimize x;\nsubject to { x >= a[1]; }",
  good="float a[1..2] = [3, 0];\ndvar float+ x;\nminimize x;\nsubject to { x >= a[1]; }",
  at=(1, 7))
R("OPL0415", "data-with-violation", "error", "Tuple set data violates its `with` clause",
  """A `with field in Set` clause (or `with f1, f2 in Set`) requires every tuple's field value to be
in `Set`. The error points at the offending tuple: its line in the data file, or its literal in the model.""",
  bad='{string} N = {"a", "b"};\ntuple E { string f; string t; }\n{E} Es with f in N, t in N = {<"a", "c">};\ndvar float+ x;\nminimize x;',
  good='{string} N = {"a", "b"};\ntuple E { string f; string t; }\n{E} Es with f in N, t in N = {<"a", "b">};\ndvar float+ x;\nminimize x;',
  at=(3, 31))
R("OPL0416", "data-file-unreadable", "error", "Data file cannot be read",
  """The data file (or an included file) does not exist or cannot be read.""",
  bad=_M1, bad_data='include "missing.dat";\nn = 3;', good=_M1, good_data="n = 3;",
  at=(1, 1))
R("OPL0417", "data-include-outside", "error", "Data include outside the model's folder",
  """`include` in a data file may only name files in the same folder tree.""",
  bad=_M1, bad_data='include "../other.dat";\nn = 3;', good=_M1, good_data="n = 3;",
  at=(1, 1))
R("OPL0418", "data-include-depth", "error", "Data includes nest too deeply",
  """Included data files include each other more than 8 levels deep (often a cycle).""",
  bad=_M1, bad_data='include "data.dat";\nn = 3;', good=_M1, good_data="n = 3;",
  at=(1, 1))
R("OPL0419", "data-unsupported-connection", "error", "Data source statement pyopl cannot read",
  """A `.dat` connection statement (`SheetConnection`, `DBConnection`, `CSVConnection`, `x from SheetRead(...)`,
`x to DBUpdate(...)`, `DBExecute(...)`) is not written as IBM's syntax says: a call with the connection's
name and a string, after `from` for a read and after `to` for a write (docs/data-sources.md).""",
  bad=_M1, bad_data='CSVConnection c("n.csv");\nn from CSVRead(c);', good=_M1, good_data="n = 3;",
  at=(2, 8))
R("OPL0420", "data-unsupported", "error", "Unsupported data assignment",
  """Assigning single array elements in a data file is not supported.""",
  bad="float w[1..2] = ...;\ndvar float+ x;\nminimize x;", bad_data="w[1] = 3;",
  good="float w[1..2] = ...;\ndvar float+ x;\nminimize x;", good_data="w = [3, 0];",
  at=(1, 1))
R("OPL0421", "data-external-in-expression", "error", "`...` inside an expression",
  """`...` stands for the whole value of a declaration and cannot appear inside an expression.""")
R("OPL0422", "assert-failed", "error", "Assertion failed",
  """An `assert` evaluated to false on the data.""",
  bad="int n = 3;\nassert n > 5;\ndvar float+ x;\nminimize x;",
  good="int n = 6;\nassert n > 5;\ndvar float+ x;\nminimize x;",
  at=(2, 1))
R("OPL0423", "division-by-zero", "error", "Division by zero",
  """A divisor in the data evaluates to 0.""",
  bad="float a = 1 / 0;\ndvar float+ x;\nminimize x;", good="float a = 1 / 2;\ndvar float+ x;\nminimize x;",
  at=(1, 15))
R("OPL0424", "math-domain", "error", "Function outside its domain",
  """For example `sqrt` or `log` of a negative number.""",
  bad="float a = sqrt(-1);\ndvar float+ x;\nminimize x;", good="float a = sqrt(1);\ndvar float+ x;\nminimize x;",
  at=(1, 11))
R("OPL0425", "value-overflow", "error", "Arithmetic overflow",
  """A data computation exceeds the range of floating-point numbers.""",
  bad="float a = 10.0 ^ 400;\ndvar float+ x;\nminimize x;", good="float a = 10.0 ^ 4;\ndvar float+ x;\nminimize x;",
  at=(1, 11))
R("OPL0426", "constraint-always-false", "warning", "Constraint that can never hold",
  """A constraint without decision variables (or whose variables all have zero coefficients) is false,
so the model is infeasible; the solver will say so. Usually the data is wrong.""",
  bad="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { n >= 5; }",
  good="int n = 3;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }",
  at=(4, 14))
R("OPL0427", "data-ragged-row", "error", "Row of a matrix with the wrong length",
  """Every row of two-dimensional array data needs one value per element of the inner index set.
The message names the row.""",
  bad="float w[1..2][1..3] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1][1]; }",
  bad_data="w = [[1, 2, 3],\n     [4, 5]];",
  good="float w[1..2][1..3] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w[1][1]; }",
  good_data="w = [[1, 2, 3],\n     [4, 5, 6]];",
  at=(2, 6))
R("OPL0428", "data-duplicate-key", "error", "Keyed data repeats a key or a field",
  """`#[key: value]#` data gives each key one value, and a named tuple `#<field: value>#` each field
exactly once (IBM, "Initializing tuples").""",
  bad='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  bad_data='w = #["a": 1, "a": 2, "b": 3]#;',
  good='{string} S = {"a", "b"};\nfloat w[S] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= w["a"]; }',
  good_data='w = #["a": 1, "b": 3]#;',
  at=(1, 5))
R("OPL0429", "data-duplicate-tuple-key", "error", "Two tuples with the same key",
  """Fields declared `key` identify a tuple in its set: two tuples may not share them.""",
  bad='tuple T { key string a; int b; }\n{T} Ts = ...;\ndvar float+ x[Ts];\nminimize sum(t in Ts) x[t];',
  bad_data='Ts = {<"x", 1>, <"x", 2>};',
  good='tuple T { key string a; int b; }\n{T} Ts = ...;\ndvar float+ x[Ts];\nminimize sum(t in Ts) x[t];',
  good_data='Ts = {<"x", 1>, <"y", 2>};',
  at=(1, 17))  # the second tuple with the key
R("OPL0430", "data-for-decision", "error", "Data for a decision variable",
  """The solver chooses the values of decision variables and dexprs; data cannot set them.
To fix a value, state a constraint.""",
  bad="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }", bad_data="x = 3;",
  good="dvar float+ x;\nminimize x;\nsubject to { x >= 1; }",
  at=(1, 1))
R("OPL0431", "value-out-of-range", "error", "A number no solver can take",
  """After evaluation a coefficient or bound is not a finite number, or is 1e15 or more in magnitude
(HiGHS refuses such values). It usually comes from overflow in the data or an `infinity` inside an expression.
A bound of 1e20 or more in magnitude is not refused: as CPLEX does, pyopl reads it as no bound
(`x <= 1e+20` is `x <= infinity`), except a lower bound of +1e20 or more (an upper bound of -1e20 or
less), which no value can meet.""",
  bad="float big = 1e300 * 1e300;\ndvar float+ x;\nminimize x;\nsubject to { big * x >= 1; }",
  good="float big = 1e3;\ndvar float+ x;\nminimize x;\nsubject to { big * x >= 1; }",
  at=(4, 14))

R("OPL0432", "data-source-missing", "error", "Data source file, sheet, range, table or column missing",
  """A connection in the data names a file that does not exist (or lies outside the data file's folder),
or a read names a sheet, a range, a table or a column its source does not have.""",
  bad=_M1, bad_data='CSVConnection c("counts.csv");\nn from CSVRead(c, "");',
  good=_M1, good_data="n = 3;",
  at=(1, 17))
R("OPL0433", "data-connection-unknown", "error", "Read or write through an undeclared connection",
  """`SheetRead`, `DBRead`, `CSVRead`, `SheetWrite`, `DBUpdate` and `DBExecute` name a connection declared
earlier in the data (`SheetConnection s(...)`, `DBConnection db(...)`, `CSVConnection c(...)`) of the kind they
take.""",
  bad=_M1, bad_data='n from CSVRead(c, "");', good=_M1, good_data="n = 3;",
  at=(1, 16))
R("OPL0434", "data-connection-failed", "error", "Data source could not be read or written",
  """The workbook, database or CSV file could not be opened, read or written: a file that is not a workbook,
a database that refused the connection or the statement, a Python package (openpyxl, SQLAlchemy) not
installed, or data given as text (which opens no files).""",
  bad=_M1, bad_data='DBConnection db("access", "plan.mdb");\nn from DBRead(db, "SELECT n FROM t");',
  good=_M1, good_data="n = 3;",
  at=(1, 17))
R("OPL0435", "data-db-write-refused", "error", "Database change the data file may not make",
  """A `DBRead` query changes the database (`WITH ... DELETE ... RETURNING` starts like a read; SQLite refuses its
change), a `DBExecute` statement changes a table that no `DBUpdate` of the same data file writes (or is not one
create, drop, delete or alter of a table), or a `DBUpdate` is not one INSERT, UPDATE or DELETE. A data file may
only change the tables it declares it writes; pass `--allow-db-writes` (`allow_db_writes=True`) to let it make
other changes.""")
