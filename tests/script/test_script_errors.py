"""Script diagnostics: code, exact span in the .mod (the script starts at line 10, column 5, so
first-line columns shift by 4 and later lines keep theirs), message and help; budgets end runaway
scripts at the place they were running."""
from __future__ import annotations

import pytest

from pyopl.diagnostics.registry import lookup
from pyopl.script import Interpreter, ScriptError, parse_script


def diagnose(src: str, **budgets):
    program = parse_script(src, "m.mod", 10, 5)
    if isinstance(program, list):
        assert len(program) == 1
        return program[0]
    try:
        Interpreter(None, lambda text: None, file="m.mod", **budgets).run(program)
    except ScriptError as e:
        return e.to_diagnostic()
    raise AssertionError("no diagnostic")


CASES = [
    # source, budgets, code, (line, column, end_column), message, help
    ("var a = 1;\nvar b = a +* 2;", {}, "OPL1000", (11, 12, 13),
     "unexpected `*` in the script", "expected an expression here"),
    ('var s = "abc;', {}, "OPL1000", (10, 13, 14),
     "this string is not closed on its line", "end the string with `\"` before the end of the line"),
    ("if (x) {", {}, "OPL1000", (10, 13, 14),
     "the script ends before this statement is complete", "expected a statement, `;` or `}` here"),
    ("var x = 1\nvar y = x x", {}, "OPL1000", (11, 11, 12),
     "unexpected `x` in the script", "expected an operator, `;` or `,` here"),
    ("f(1 2)", {}, "OPL1000", (10, 9, 10), "unexpected `2` in the script", "expected an operator, `)` or `,` here"),
    ("var = 3;", {}, "OPL1000", (10, 9, 10), "unexpected `=` in the script", "expected a name here"),
    ("var a = 1\nouter: while (true) { break inner; }", {}, "OPL1013", (11, 29, 34),
     "`break inner`: no statement around it has the label `inner`",
     "write the label before an enclosing statement, as `inner: for (...)`"),
    ("here: { for (;;) { continue here; } }", {}, "OPL1013", (10, 33, 37),
     "`continue here`: the label `here` is not on a loop",
     "continue a label written just before `for`, `while` or `do`"),
    ("/* open", {}, "OPL1000", (10, 5, 6), "this comment is not closed", "end the comment with `*/`"),
    ("var total = 1;\nwriteln(totl);", {}, "OPL1001", (11, 9, 13), "`totl` is not defined", "did you mean `total`?"),
    ("x.y = 3;", {}, "OPL1001", (10, 5, 6), "`x` is not defined",
     "declare it with `var x = ...;` or check the spelling against the model's names"),
    ("var n = 3;\nn();", {}, "OPL1002", (11, 1, 2), "`n` is not a function (it is a number 3)",
     "call a function or a method the object has"),
    ('var s = "a";\ns.toUppercase();', {}, "OPL1002", (11, 1, 14),
     "`s.toUppercase` is not a function (it is undefined)", "check the method name `toUppercase`"),
    ("var u;\nwriteln(u.x);", {}, "OPL1003", (11, 9, 10), "`u` is undefined, so `.x` cannot be read",
     "check that `u` has a value before reading from it"),
    ("var u = null;\nu[0] = 1;", {}, "OPL1003", (11, 1, 2), "`u` is null, so item `0` cannot be set",
     "give it a value (an object or an array) before assigning into it"),
    ("var o = {a: 1}; o.b.c = 1;", {}, "OPL1003", (10, 21, 24), "`o.b` is undefined, so `.c` cannot be set",
     "give it a value (an object or an array) before assigning into it"),
    ("var k = 1 in 2;", {}, "OPL1005", (10, 18, 19), "the right side of `in` is not an object (it is number 2)",
     "write `key in object`"),
    ("var a = new Array(2.5);", {}, "OPL1005", (10, 13, 27),
     "`new Array(2.5)`: an array length is a whole number from 0", "give a whole number of items"),
    ('function f() {\n  throw "bad";\n}\nf();', {}, "OPL1006", (11, 3, 15),
     'the script throws `"bad"` and nothing catches it',
     "catch it with `try { ... } catch (e) { ... }`, or fix what makes it throw"),
    ("var i = 0;\nwhile (i < 1) {\n}", {"max_steps": 1000}, "OPL1007", (11, 1, 6),
     "the script exceeded its step budget of 1000 steps",
     "check that this loop ends; a longer script needs a larger budget (`pyopl solve --script-steps N`; `script_steps=N` in Python)"),
    ("for (;;) {}", {"max_steps": 1000}, "OPL1007", (10, 5, 8), "the script exceeded its step budget of 1000 steps",
     None),
    ("var n = 0;\ndo {\n  n++;\n} while (true);", {"max_steps": 500}, "OPL1007", (11, 1, 3),
     "the script exceeded its step budget of 500 steps", None),
    # work inside built-ins counts: joining a growing array, scanning a long string, sorting
    ('var a = []; for (var i = 0; i < 100000; i++) { a.push(i); var t = a.join(","); }', {"max_steps": 200_000},
     "OPL1007", (10, 17, 20), None, None),
    ('var a = [1]; for (var i = 0; i < 17; i++) a = a.concat(a);\nwhile (true) var t = "" + a;', {"max_steps": 500_000},
     "OPL1007", (11, 1, 6), None, None),
    ('var s = "ab"; for (var i = 0; i < 20; i++) s = s + s;\nwhile (true) s.indexOf("c");', {"max_steps": 300_000},
     "OPL1007", (11, 1, 6), None, None),
    # a budget is not an exception the script can catch
    ("try { while (true) {} } catch (e) { writeln('caught'); }", {"max_steps": 1000}, "OPL1007", (10, 11, 16),
     None, None),
    ("var a = new Array(1e9);", {}, "OPL1008", (10, 13, 27),
     "the script exceeded its memory budget of 50000000 units",
     "create fewer or smaller arrays and objects (from Python, `compile_model(..., scripts=ScriptOptions("
     "max_memory=N))` raises the budget; `ScriptOptions` is in `pyopl.script.opl.options`)"),
    ('var s = "x"; while (true) s = s + s;', {"max_memory": 1000}, "OPL1008", (10, 37, 38),
     "the script builds a string of 1024 characters, over its memory budget of 1000", None),
    ("var a = []; for (var i = 0; i < 1000; i++) a.push(i);", {"max_memory": 100}, "OPL1008", (10, 48, 57),
     "the script exceeded its memory budget of 100 units", None),
    ("var a = []; a[2e9] = 1;", {}, "OPL1008", (10, 17, 23), None, None),
    ("function d(n) { return d(n + 1); }\nd(0);", {}, "OPL1009", (10, 28, 36),
     "the script nests more than 1000 function calls",
     "check that the recursion of `d` ends; deeper recursion needs `Interpreter(..., max_depth=N)`"),
    ("var v = " + "(" * 201 + "1" + ")" * 201 + ";", {}, "OPL1011", (10, 213, 214), "brackets nested too deeply",
     "split the expression or statement into smaller ones (at most 200 levels)"),
    ("var v = 1" + " + 1" * 300 + ";", {}, "OPL1011", None, "the script is nested too deeply", None),
    ("1 = 2;", {}, "OPL1012", (10, 5, 6), "this cannot be assigned to",
     "assign to a variable, a property `o.p` or an item `a[i]`"),
    ("f()++;", {}, "OPL1012", (10, 5, 8), "this cannot be assigned to", None),
    ("break;", {}, "OPL1013", (10, 5, 10), "`break` outside a loop or `switch`",
     "use `break` only inside a loop or a `switch`"),
    ("while (1) { function f() { continue; } }", {}, "OPL1013", (10, 32, 40), "`continue` outside a loop", None),
]


@pytest.mark.parametrize("src,budgets,code,where,message,help", CASES, ids=[c[2] + "-" + str(i) for i, c in enumerate(CASES)])
def test_diagnostic(src, budgets, code, where, message, help):
    d = diagnose(src, **budgets)
    assert d.code == code, (d.code, d.message)
    assert d.severity == "error" and d.file == "m.mod"
    if where is not None:
        assert (d.line, d.column, d.end_column) == where, (d.line, d.column, d.end_column)
    if message is not None:
        assert d.message == message
    if help is not None:
        assert d.help == help
    assert d.help  # every diagnostic says how to fix it
    assert lookup(code) is not None and lookup(code).severity == "error"


def test_deep_recursion_through_a_script_sort_comparator_is_a_diagnostic():
    src = "function cmp(a, b) { [2, 1].sort(cmp); return a - b; }\n[2, 1].sort(cmp);"
    assert diagnose(src).code == "OPL1009"


def test_deeply_nested_arrays_print_or_stop_with_a_diagnostic():
    out: list = []
    Interpreter(None, out.append).run(parse_script("var a = [1]; for (var i = 0; i < 500; i++) a = [a]; writeln(a);"))
    assert out == ["1\n"]
    d = diagnose("var a = []; for (var i = 0; i < 20000; i++) a = [a];\nwriteln(a);")
    assert d.code == "OPL1009" and (d.line, d.column) == (11, 1)


def test_host_error_that_is_not_a_script_error_becomes_an_internal_diagnostic():
    from pyopl.script import HostFunction

    class Host:
        pass

    from pyopl.script.language.values import HostObject

    class Broken(HostObject):
        type_name = "Broken"

        def member_names(self):
            return ["boom"]

        def get_member(self, name, span):
            return HostFunction("boom", lambda interp, this, args, span: 1 / 0)

    program = parse_script("writeln('before');\nboom();", "m.mod", 1, 1)
    with pytest.raises(ScriptError) as e:
        Interpreter(Broken(), lambda t: None, file="m.mod").run(program)
    d = e.value.to_diagnostic()
    assert d.code == "OPL0605" and d.line == 2 and "ZeroDivisionError" in d.message


def test_uncaught_error_object_shows_name_and_message():
    d = diagnose('throw new Error("no data");')
    assert d.code == "OPL1006" and d.message == "the script throws `Error: no data` and nothing catches it"
