"""08xx: limits."""
from ..registry import register as R

R("OPL0801", "error-limit-reached", "note", "Compilation stopped at the error limit",
  """After `max_errors` errors (100 by default; `pyopl.check(..., max_errors=N)`) pyopl stops,
because later errors are usually consequences of the first ones. The note sits at the last
error reported. Repeated declarations of a name (OPL0102) are looked for first, before the other
name checks: when they alone pass the limit (a text that repeats `int n = 3;` thousands of times),
the note says how many more there are, and the checks after the declarations are not run.""",
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
R("OPL1140", "work-limit", "error", "Expansion larger than the work budget",
  """An iteration (`sum`, `prod`, `min`, `max`, `forall`, a set or array comprehension, a generic
array, `asSet`) would examine more elements than the compilation's work budget allows
(250,000,000 candidate bindings in all by default). When the size is known before the
iteration starts (the product of its domains' sizes) it is refused before any work is done;
otherwise it is counted as it runs. Check the index sets' sizes; a model this large is usually a
mistake. To allow more, pass `--max-work N` to `pyopl check|solve|export`, or
`limits=pyopl.Limits(max_work=N)` to `pyopl.compile_model`/`pyopl.check`.""",
  bad="range R = 1..100000;\nfloat s = sum(i in R, j in R) 1;\ndvar float+ x;\nminimize x;",
  good="range R = 1..1000;\nfloat s = sum(i in R, j in R) 1;\ndvar float+ x;\nminimize x;",
  at=(2, 11))
R("OPL1141", "nesting-limit", "error", "Expression nested too deeply",
  """An expression nests more levels deep than pyopl allows (100 by default: parentheses around
a right operand, unary signs, indexing inside indexing, aggregates inside aggregates). A chain of
one operator such as `a + b + c + ...` or `c1 && c2 && ...` counts as one level whatever its
length. Name a part with a `dexpr` or a data declaration, or raise the limit with
`limits=pyopl.Limits(max_nesting=N)`.""",
  bad="float s = " + "abs(" * 101 + "1" + ")" * 101 + ";\ndvar float+ x;\nminimize x;",
  good="float s = " + "abs(" * 3 + "1" + ")" * 3 + ";\ndvar float+ x;\nminimize x;",
  at=(1, 411))
R("OPL1142", "string-limit", "error", "String longer than allowed",
  """A string literal, or a string computed with `+`, is longer than pyopl allows (1,000,000
characters by default). Raise the limit with `limits=pyopl.Limits(max_string=N)`. (No example
here: it would be a megabyte long; `tests/test_budget.py` triggers it.)""")
R("OPL1143", "include-limit", "error", "Too many included files",
  """One compilation may read at most 256 files through `include` (model and data includes
together; each inclusion of a file counts, also of a file already read). Includes may also nest
only 8 levels deep, but a file that includes another several times, which does the same, reads
exponentially many files: six includes over seven levels are 335,922. Include each file once,
from one place. (No example here: it needs many files; `tests/test_security_limits.py`
triggers it.)""")
R("OPL1144", "size-limit", "error", "Model larger than the size limit",
  """The constraints make more nonzeros (entries of the constraint matrix) than the compilation's
model size limit allows (50,000,000 by default, 2.5 times the largest benchmark model). The
nonzeros are counted as the rows are made, so the compilation stops at the statement that passed
the limit. A top-level `forall` whose candidates are known before it starts (its domains are
declared sets or ranges that do not depend on one another) is refused early: once it has examined
262,144 candidates, the nonzeros it made are scaled to all of its candidates, and a projection
more than twice what is left of the limit stops it there, with the product of its domains in the
message. Check the index sets and the filters; a model this large is usually a mistake. To allow
more, pass `--max-nonzeros N` to `pyopl check|solve|export`, or
`limits=pyopl.Limits(max_nonzeros=N)` to `pyopl.compile_model`/`pyopl.check`. Two other sizes
share the code: the sets a model computes (`union`, `inter`, `diff`, `symdiff`, comprehensions,
`union(...)`, `asSet`) may hold 10,000,000 elements in all (`Limits(max_set_elements=N)`), each
set counted before it is built; and the order CP-SAT makes for a `dvar sequence` that `first`,
`last`, `before` or `prev` use ((n+1)^2 arc literals and rank constraints for n intervals, each
weighed as 100 nonzeros) counts toward the nonzeros, refused at the call. (No example here: it
needs millions of rows; `tests/test_size_limit.py` triggers it with a small limit.)""")
