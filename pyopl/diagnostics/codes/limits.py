"""08xx: limits."""
from ..registry import register as R

R("OPL0801", "error-limit-reached", "note", "Compilation stopped at the error limit",
  """After `max_errors` errors (100 by default; `pyopl.check(..., max_errors=N)`) pyopl stops,
because later errors are usually consequences of the first ones. The note sits at the last
error reported.""",
  bad="dvar float+ x;\nminimize x;\nsubject to {\n" + "".join("  x >= u%d;\n" % i for i in range(100)) + "}",
  good="dvar float+ x;\nminimize x;\nsubject to {\n  x >= 1;\n}",
  at=(103, 8))
R("OPL0802", "cli-file-not-found", "error", "Model or data file not found",
  """A path given to `pyopl solve|check|export` does not exist (relative paths start at the
current folder). With `--format json` the error comes as this diagnostic.""",
  bad="check missing.mod", good="check model.mod", via="cli",
  at=(1, 1))
R("OPL0803", "cli-path-is-folder", "error", "A folder given where a file is expected",
  """The model and data arguments are files, not folders (on the command line, and a
`pathlib.Path` or file name given to `pyopl.compile_model`/`check`).""",
  bad="check .", good="check model.mod", via="cli",
  at=(1, 1))
R("OPL0804", "cli-option-malformed", "error", "Solver option without `=`",
  """`--option` takes `NAME=VALUE` (for HiGHS, e.g. `--option presolve=off`).""",
  bad="solve model.mod --option presolve", good="check model.mod", via="cli",
  at=(1, 1))
