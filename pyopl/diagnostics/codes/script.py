"""10xx (OPL1000-OPL1049): IBM ILOG Script, the language core (parsing and running `execute`/`main`)."""
from ..registry import register as R

_TAIL = "dvar float+ x;\nminimize x;\nsubject to { x >= 1; }"


def _m(script: str) -> str:
    """A model whose pre-processing block is ``script`` (one line per statement, indented 2)."""
    body = "\n".join("  " + line for line in script.splitlines())
    return "execute {\n%s\n}\n%s" % (body, _TAIL)


R("OPL1000", "script-syntax-error", "error", "Syntax error in a script",
  """The text of an `execute` or `main` block is not valid IBM ILOG Script (JavaScript). The
diagnostic points at the first token that cannot follow, with the script's own line and column
in the `.mod`, and says what was expected. A missing `;` before a line break or `}` is not an
error: it is inserted as JavaScript does.""",
  bad=_m("var total = 0;\nfor (var i = 1; i <= 3; i++) total = total +* i;\nwriteln(total);"),
  good=_m("var total = 0;\nfor (var i = 1; i <= 3; i++) total = total + i;\nwriteln(total);"),
  at=(3, 47))
R("OPL1001", "script-undefined-name", "error", "Name not defined in a script",
  """A script reads a name that is neither a `var` of the script, a function, a model element
nor a built-in (`Math`, `writeln`, ...). A near miss is suggested.""",
  bad=_m("var total = 0;\nfor (var i = 1; i <= 3; i++) total = total + i;\nwriteln(totl);"),
  good=_m("var total = 0;\nfor (var i = 1; i <= 3; i++) total = total + i;\nwriteln(total);"),
  at=(4, 11))
R("OPL1002", "script-not-a-function", "error", "Calling something that is not a function",
  """A call `f(...)` or `o.m(...)` where `f` or `o.m` is a number, a string, an object or
`undefined` (often a misspelled method name).""",
  bad=_m('var name = "plant";\nwriteln(name.toUppercase());'),
  good=_m('var name = "plant";\nwriteln(name.toUpperCase());'),
  at=(3, 11))
R("OPL1003", "script-property-of-nothing", "error", "Reading a property of `undefined` or `null`",
  """`o.p`, `o[i]` or `o.m()` where `o` is `undefined` or `null`: a variable declared without a
value, an array item past the end, or a property that does not exist.""",
  bad=_m("var points = [];\nwriteln(points[0].x);"),
  good=_m("var points = [{x: 1}];\nwriteln(points[0].x);"),
  at=(3, 11))
R("OPL1004", "script-missing-member", "error", "Host object has no such member",
  """A script uses a property or method an OPL object (`thisOplModel`, `cplex`, a set, an array,
a tuple, ...) does not have. The message names the object's type and the help suggests the
nearest member or lists them.""",
  bad="{int} S = {1, 2};\nexecute {\n  writeln(S.sise);\n}\n" + _TAIL,
  good="{int} S = {1, 2};\nexecute {\n  writeln(S.size);\n}\n" + _TAIL,
  at=(3, 13))
R("OPL1005", "script-type-error", "error", "Wrong kind of value in a script",
  """An operation got a value it cannot work with: `new` on a value that is not a constructor,
`x instanceof v` where `v` is not a function, `k in v` where `v` is not an object, an invalid
array length, a bad argument to a built-in.""",
  bad=_m("var a = new Array(-1);"),
  good=_m("var a = new Array(1);"),
  at=(2, 11))
R("OPL1006", "script-uncaught-exception", "error", "Script throws and nothing catches it",
  """A `throw` whose value no `try { } catch (e) { }` catches ends the run with this error at the
`throw`, showing the value. As in IBM OPL, the model is not solved.""",
  bad=_m('var n = 0;\nif (n == 0) throw "no items to schedule";'),
  good=_m('var n = 0;\ntry {\n  if (n == 0) throw "no items to schedule";\n} catch (e) {\n  writeln(e);\n}'),
  at=(3, 15))
R("OPL1007", "script-step-budget", "error", "Script ran past its step budget",
  """The scripts of a model (all its blocks, and the models its `main` makes, together) may
evaluate a bounded number of statements and expressions: 50,000,000 by default, from ten seconds
of plain script arithmetic to about forty of work on OPL elements (docs/scripting.md, Limits),
so a loop that never ends stops with this error at the `while`, `for` or `do` that was running.
A legitimately longer script needs a larger budget: `pyopl solve --script-steps N`
(`script_steps=N` in Python). The examples here run with `--script-steps 100000`.""",
  bad=_m("var i = 0;\nwhile (i < 10) {\n  writeln(i);\n}"),
  good=_m("var i = 0;\nwhile (i < 10) {\n  writeln(i);\n  i++;\n}"),
  at=(3, 3), script_steps=100_000)
R("OPL1008", "script-memory-budget", "error", "Script ran past its memory budget",
  """Arrays and objects a script creates count against a memory budget (millions of slots), and
no single string may be longer than that; the check happens before allocating, so
`new Array(1e9)` fails at once.""",
  bad=_m("var big = new Array(1e9);"),
  good=_m("var big = new Array(1000);"),
  at=(2, 13))
R("OPL1009", "script-call-depth", "error", "Script recursion too deep",
  """Script function calls may nest 1000 deep; a recursion with no base case ends with this
error at the call that went one level too deep.""",
  bad=_m("function depth(n) { return depth(n + 1); }\nwriteln(depth(0));"),
  good=_m("function depth(n) { return n >= 10 ? n : depth(n + 1); }\nwriteln(depth(0));"),
  at=(2, 30))
R("OPL1010", "script-read-only", "error", "Assigning to something a script may not change",
  """A script assigns to a member or an item of a host object that has no way to change it (the
default of the host-object protocol; OPL model elements report their own, more specific code).""")
R("OPL1011", "script-nesting-too-deep", "error", "Script nested too deeply",
  """Brackets and statements may nest 200 deep in a script; deeper text (usually generated) is
refused rather than risk exhausting the stack.""",
  bad=_m("var v = " + "(" * 201 + "1" + ")" * 201 + ";"),
  good=_m("var v = (1);"),
  at=(2, 211))
R("OPL1012", "script-bad-assignment", "error", "Assigning to something that is not a variable",
  """The left side of `=`, `+=`, `++`, `--` or `for (... in ...)` must be a variable, a property
`o.p` or an item `a[i]`; a literal or a call cannot be assigned.""",
  bad=_m("var a = 1;\n1 = a;"),
  good=_m("var a = 1;\na = 1;"),
  at=(3, 3))
R("OPL1013", "script-misplaced-jump", "error", "`break` or `continue` outside a loop",
  """`break` must be inside a loop or a `switch`, `continue` inside a loop.""",
  bad=_m("var n = 3;\nif (n > 2) break;"),
  good=_m("for (var n = 0; n < 5; n++) {\n  if (n > 2) break;\n}"),
  at=(3, 14))
R("OPL1014", "script-too-long", "error", "Script too long to parse",
  """One script block may hold at most 400,000 tokens (about 1.5 MB of code); parsing takes time
proportional to the text, and a longer block (usually generated) is refused at the first token
past the budget rather than keep the compiler busy for minutes. Put bulk data in the `.dat`
file, or split the work into several blocks.""")
R("OPL1015", "script-regex-unsupported", "error", "Regular expression pyopl does not run",
  """Regular expressions are ECMAScript 3's, run by a backtracking engine whose matches are the
same for the constructs it accepts. A few constructs would match differently and are refused
rather than give a different answer: capturing groups inside a repeated group, a repeated
capturing group that can match nothing, a back-reference to a group that may not have matched,
captures inside `(?!...)`, a quantified lookahead, the flag `i` with non-ASCII characters in the
pattern, and legacy octal escapes such as `\\012`.""",
  bad=_m('var m = "abab".match(/(?:(a)|b)+/);'),
  good=_m('var m = "abab".match(/(?:a|b)+/);'),
  at=(2, 24))
