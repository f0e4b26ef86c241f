"""Diagnostic kinds: IBM ILOG Script's OPL host objects, processing order and `main` (OPL1050-OPL1099)."""
from ..registry import register as R

_POST = "\ndvar float+ x[1..3] in 0..1;\nmaximize sum(i in 1..3) x[i];\nsubject to { sum(i in 1..3) x[i] <= 2; }\n"

R("OPL1050", "script-unknown-name", "error", "Name without a value in a script",
  """The script names a model element that has no value a script can use: a tuple type (use a set of
its tuples), or a declaration whose own evaluation failed.""",
  bad="tuple P { int a; }\n{P} ps = {<1>};\nexecute { writeln(P); }",
  good="tuple P { int a; }\n{P} ps = {<1>};\nexecute { writeln(ps); }",
  at=(3, 19))
R("OPL1051", "script-missing-method", "error", "Operation a host object does not have",
  """The OPL object does not support the operation, for example `find` on a set that is not a set of
tuples, or indexing something that is not an array.""",
  bad="{int} S = {1, 2};\nexecute { writeln(S.find(1)); }",
  good="{int} S = {1, 2};\nexecute { writeln(S.contains(1)); }",
  at=(2, 19))
R("OPL1052", "script-index-out-of-range", "error", "Index outside the index set",
  """A script indexed an OPL array with a value that is not in its index set, asked for `next` past the
end of a set, or for a position past its size. The message gives the index and the set.""",
  bad="float w[1..3];\nexecute { w[4] = 1; }",
  good="float w[1..3];\nexecute { w[3] = 1; }",
  at=(2, 11))
R("OPL1053", "script-forbidden-assignment", "error", "Assignment a script may not make",
  """A script may assign data scalars, items of data arrays and the bounds of decision variables
(`x.UB`, `x[i].LB`), and the int, float or string fields of a tuple held in a set, an array or a
scalar declaration (not its `key` fields: they index the arrays and decisions over its set). Ranges,
whole sets and arrays, constraints, decision variables' values, and set, array or tuple fields of a
tuple cannot be assigned, as in IBM OPL.""",
  bad="range R = 1..3;\nexecute { R = 4; }",
  good="int n = 3;\nexecute { n = 4; }\nrange R = 1..n;",
  at=(2, 11))
R("OPL1054", "script-negative-value", "error", "Negative value into `int+` or `float+` data",
  """Data declared `int+` or `float+` cannot hold a negative value; the message names the item.""",
  bad="float+ w[1..2];\nexecute { w[1] = -1; }",
  good="float+ w[1..2];\nexecute { w[1] = 1; }",
  at=(2, 11))
R("OPL1055", "script-value-type", "error", "Value of the wrong type for OPL data",
  """The value a script gives does not fit the data's declared type: a fraction into an `int`, a string
into a number, a number into a `string`. pyopl does not truncate silently.""",
  bad="int n = 3;\nexecute { n = 2.5; }",
  good="int n = 3;\nexecute { n = Opl.floor(2.5); }",
  at=(2, 11))
R("OPL1056", "script-output-outside", "error", "Script file outside its folder",
  """`IloOplOutputFile` writes only into the run's output folder: `--output-dir DIR` (`output_dir=` in
the Python API), or by default `<model stem>.out` beside the model file (`plan.mod` writes into
`plan.out/`, made on the first file). A model given as text writes only when an output folder is
given. `IloOplModelSource` and `IloOplDataSource` read only in the model's folder. Names are
relative: no `..` and no symbolic link leading out; an absolute output name is written into the folder
under its last part, with a warning (OPL1080; docs/safety.md).""",
  bad="execute { var f = new IloOplOutputFile(\"../out.txt\"); f.close(); }",
  good="execute { writeln(\"out\"); }",
  at=(1, 19))
R("OPL1057", "script-unsupported", "error", "Script feature pyopl does not run",
  """The script uses an IBM class or method that pyopl does not support (for example `IloOplCallJava`,
which runs Java code, or `cplex.solve()` outside `main`). The message names it; pyopl
stops rather than give a result that differs from IBM's.""",
  bad="execute { IloOplCallJava(\"ls\"); }",
  good="execute { writeln(\"done\"); }",
  at=(1, 11))
R("OPL1058", "script-setting-ignored", "warning", "Solver setting without effect",
  """A `cplex.NAME = value` setting that pyopl cannot pass to HiGHS or Gurobi (or that CPLEX does not
have) is ignored. docs/solvers.md lists the settings that are mapped.""",
  bad="execute { cplex.tilimm = 10; }" + _POST,
  good="execute { cplex.tilim = 10; }" + _POST,
  at=(1, 17))
R("OPL1059", "script-not-run", "error", "Skipped script block would change the model",
  """Scripts were turned off (`--no-scripts`), but this block assigns data or bounds that the model
uses: the model solved without it would differ from IBM's. Run the scripts, or move the computation
into OPL declarations.""")
R("OPL1060", "script-no-solution", "error", "Solution value read without a solution",
  """A script read a decision value, a dexpr, a dual or `cplex.getObjValue()` before the model was solved
(in a block placed before the objective and constraints) or after a solve without a solution.""",
  bad="dvar float+ x in 0..1;\nexecute { writeln(x.solutionValue); }\nmaximize x;",
  good="dvar float+ x in 0..1;\nmaximize x;\nexecute { writeln(x.solutionValue); }",
  at=(2, 21))
R("OPL1061", "script-file-not-found", "error", "File named by a script not found",
  """`new IloOplModelSource(...)` or `new IloOplDataSource(...)` in `main` names a file that does not
exist in the model's folder.""")
R("OPL1062", "script-model-failed", "error", "Model made by `main` did not compile",
  """A model made in `main` (`new IloOplModel(...)` then `generate()`) has errors; they are reported
with it.""")
R("OPL1063", "dat-script-unsupported", "error", "A data file's `invoke` that cannot run",
  """IBM OPL data files define script functions in `prepare { ... }` and call them on an element with
`name = value invoke f;`: `f(element, "name")` runs once the element is read, may check or change
it, and returns true. pyopl runs them. This error is for an `invoke` of a function that no
`prepare` block defines, a function that returns `false` (the data is refused), an `invoke` with
scripts turned off (the element would be read differently), and a `prepare` without its `}`.""",
  bad="int n = ...;\ndvar float+ x in 0..n;\nmaximize x;", bad_data="n = 2 invoke check;",
  good="int n = ...;\ndvar float+ x in 0..n;\nmaximize x;",
  good_data="prepare { function check(v, name) { return v > 0; } }\nn = 2 invoke check;",
  at=(1, 7))
R("OPL1064", "script-output-failed", "error", "Script output file could not be written",
  """An `IloOplOutputFile` inside the allowed folder could not be written when it was closed (or
when the script ended): no permission, a full disk, a read-only file system. The message gives the
system's reason; nothing is left half-written (pyopl writes a temporary file and renames it).""")
R("OPL1065", "script-output-unsafe", "error", "Script file that may not be written",
  """A script's output file must be a new or regular file of the output folder, of one name only.
Refused: a dot-file or a name inside a dot-folder (`.git/config`, `.bashrc`, `.vscode/settings.json`
hold other programs' settings, and some run commands from them), a symbolic link, a file with other
hard links, a device, a FIFO, a socket or a folder, and an output folder that is a symbolic link.
Write the results under a plain name (docs/safety.md).""",
  bad="execute { var f = new IloOplOutputFile(\".git/config\"); f.close(); }",
  good="execute { writeln(\"results\"); }",
  at=(1, 19))
R("OPL1066", "script-output-input", "error", "Script file that the run reads",
  """A script's output file is a file the run reads: the model, a data file, an `include`d file, or a
model or data file loaded by `main`. Writing it would replace the input with results (and
`--output-dir` pointing at the model's own folder would let a script rewrite the model). Write the
results under another name (docs/safety.md).""")
R("OPL1251", "script-constraint-without-row", "error", "Labelled constraint that generated no row",
  """A script reads a labelled constraint (`ct.dual`, `ct.slack`, `ct.UB`...) that the model declares
but that generated no row: it always holds (a bound of `infinity`), or its `forall` ranges over
nothing. pyopl leaves such constraints out of the problem it solves, so they have no dual, slack or
bounds to read. (A labelled comparison of data only, `ct: 0 <= 0;`, is kept as an empty row, as IBM
keeps it: `main` may give it coefficients with `setCoef` and bounds with `setBounds`.) Check the constraint's data, or test it in the script before reading it.""",
  bad="dvar float+ x in 0..1;\nmaximize x;\nsubject to { c: x <= infinity; }\nexecute { writeln(c.dual); }",
  good="dvar float+ x in 0..1;\nmaximize x;\nsubject to { c: x <= 1; }\nexecute { writeln(c.dual); }",
  at=(4, 19), via="solve")
R("OPL1067", "script-fail-called", "error", "`fail()` called in a script",
  """IBM ILOG Script's `fail()` ("Miscellaneous functions") stops the script block at the call and
reports an error; a model uses it to refuse data its own checks find wrong. The error points at
the call. As in IBM's example, the blocks after it still run (their output is shown) and the run
ends with the error.""",
  bad="int n = 0;\nexecute { if (n <= 0) fail(); }\ndvar float+ x;\nminimize x;",
  good="int n = 1;\nexecute { if (n <= 0) fail(); }\ndvar float+ x;\nminimize x;",
  at=(2, 23))

R("OPL1068", "script-pool-unavailable", "warning", "Solution pool asked of a solver without one",
  """`cplex.populate()` asks for several solutions (IBM's solution pool), but the solver of the run
has no pool (HiGHS), or with `--solver auto` no solver with a pool is installed. The model is
solved as by `cplex.solve()` and the pool holds that one solution, so `cplex.solnPoolNsolns` is 1.
Run with `--solver gurobi`, `--solver cplex` or `--solver scip` for a pool of several solutions
(docs/scripting.md, "Solution pool").""")
R("OPL1080", "script-output-redirected", "warning", "Script file named by an absolute path",
  """A script names an output file by an absolute path (`c:\\temp\\res.txt`, `/tmp/res.txt`), as
IBM's examples often do. pyopl writes only into the run's output folder (docs/safety.md), so the file
goes there under the last part of its name (`res.txt`), and this warning says where. The model runs as
in IBM's OPL; nothing is written outside the folder.""",
  bad="execute { var f = new IloOplOutputFile(\"/tmp/res.txt\"); f.writeln(1); f.close(); }" + _POST,
  good="execute { var f = new IloOplOutputFile(\"res.txt\"); f.writeln(1); f.close(); }" + _POST,
  at=(1, 19))
R("OPL1081", "script-program-not-run", "warning", "External program a script would run",
  """A script calls `IloOplExec(command)`, which in IBM's OPL runs `command` as a separate program
(models call it after the solve, mostly to plot or convert what a script wrote). pyopl never runs a
program from a model (docs/safety.md): the call does nothing, its value is `undefined`, and the
script and the run go on; this warning names the command so you can run it yourself on the files the
script wrote to its output folder.""",
  bad="execute { IloOplExec(\"python plot.py\"); }" + _POST,
  good="execute { writeln(\"now run: python plot.py\"); }" + _POST,
  at=(1, 11))
R("OPL1069", "script-settings-file-invalid", "error", "OPL settings file that cannot be read",
  """`thisOplModel.applyOpsSettings(dir, "file.ops")` names a settings file that is not an OPL settings
file pyopl reads: not well-formed XML, a root other than `<settings>`, a DTD (`<!DOCTYPE`; pyopl
expands no entity of a file), or more than 1 MB. Write it as the OPL IDE does:
`<settings version="2"><category name="cplex"><setting name="tilim" value="30"/></category></settings>`.""")
