"""ECMAScript 3 conformance of the script interpreter, class by class.

Each expected output is worked out from the standard (ECMA-262, 3rd edition; section numbers in
the comments), not taken from a run of pyopl.  Values are printed with `writeln`, which joins its
arguments with no separator.
"""
from __future__ import annotations

import pytest

from pyopl.script import Interpreter, ScriptError, parse_script


def run(src: str, **budgets) -> str:
    program = parse_script(src, "t.mod", 1, 1)
    assert not isinstance(program, list), [str(d) for d in program]
    out: list = []
    Interpreter(None, out.append, file="t.mod", **budgets).run(program)
    return "".join(out)


def diagnose(src: str, **budgets):
    program = parse_script(src, "t.mod", 1, 1)
    if isinstance(program, list):
        return program[0]
    try:
        Interpreter(None, lambda t: None, file="t.mod", **budgets).run(program)
    except ScriptError as e:
        return e.to_diagnostic()
    raise AssertionError("no diagnostic")


CASES = [
    # 15.5.4.8: the search starts at position 4 and goes left: the "c" at 2 (the one at 5 is past 4)
    ('writeln("abcabc".lastIndexOf("c", 4), " ", "abcabc".lastIndexOf("c", NaN), " ", "abc".lastIndexOf("a", -5));',
     "2 5 0\n"),
    # Array lastIndexOf from index 2 leftwards: the 2 at index 1
    ("writeln([1, 2, 3, 2].lastIndexOf(2, 2), ' ', [1, 2, 3, 2].lastIndexOf(2, -1), ' ', [1].lastIndexOf(1, -2));",
     "1 3 -1\n"),
    # 9.1 / 8.6.2.6: ToPrimitive calls the object's own valueOf (hint number, and + has no hint) or toString
    ('var o = {valueOf: function () { return 7; }, toString: function () { return "S"; }};'
     'writeln(o + 1, " ", o * 2, " ", String(o), " ", o + "", " ", [o] + "");', "8 14 S 7 S\n"),
    ('var t = {toString: function () { return "T"; }}; writeln(t + "!", " ", t == "T", " ", t < "U");',
     "T! true true\n"),
    # 15.5.4.14: the limit is ToUint32, so -1 is 4294967295 (no limit) and 0 gives no items
    ('writeln("a,b,c".split(",", -1).length, " ", "a,b,c".split(",", 0).length, " ", "a,b,c".split(",", 2));',
     "3 0 a,b\n"),
    # 15.5.4.11, table 22: $& the match, $$ a dollar, $` before it, $' after it
    ('writeln("abc".replace("b", "[$&|$$|$`|$\']"), " ", "abc".replace("b", "$1"));', "a[b|$|a|c]c a$1c\n"),
    # 10.1.8: arguments[i] is the i-th named parameter; it is not an Array; callee is the function
    ("function f(a, b) { arguments[0] = 9; b = 4; return a + ' ' + arguments[1] + ' ' + arguments.length + ' ' +"
     " (arguments instanceof Array) + ' ' + (arguments.callee === f); } writeln(f(1, 2, 3));",
     "9 4 3 false true\n"),
    ("function g(a) { a = 5; return arguments[0]; } writeln(g(), ' ', g(1));", "undefined 5\n"),
    # 13.2 and 15.3.5.2: instances see properties added to F.prototype later; F.prototype.constructor is F
    ("function F() {} var x = new F(); F.prototype.z = 5; writeln(x.z, ' ', x.constructor === F, ' ',"
     " x instanceof F, ' ', x instanceof Object);", "5 true true true\n"),
    # a custom error type whose prototype is an Error is an Error (15.11.1, prototype chain)
    ('function MyError(m) { this.message = m; } MyError.prototype = new Error(); MyError.prototype.name = "MyError";'
     'var e = new MyError("bad"); writeln(e instanceof Error, " ", e instanceof MyError, " ", e.name, " ", String(e));',
     "true true MyError MyError: bad\n"),
    # 15.4: an array has no element where none was put: holes are not in it and for-in skips them
    ("var a = []; a[2] = 1; var k = ''; for (var i in a) k += i; writeln(0 in a, ' ', 2 in a, ' ', a.length, ' ', k);",
     "false true 3 2\n"),
    ("var a = [1, , 3]; writeln(a.length, ' ', 1 in a, ' ', a, ' ', [1, 2, ].length, ' ', [, ].length);",
     "3 false 1,,3 2 1\n"),
    ("var a = [1, 2, 3]; delete a[1]; writeln(1 in a, ' ', a.length, ' ', a);", "false 3 1,,3\n"),
    # 15.8.2.6/.9/.11/.12: -0 kept; ceil(-0.5) is -0; max(-0, +0) is +0, min is -0
    ("writeln(1 / Math.ceil(-0.5), ' ', 1 / Math.floor(-0), ' ', 1 / Math.min(0, -0), ' ', 1 / Math.max(-0, 0),"
     " ' ', 1 / Math.round(-0.2));", "-Infinity -Infinity -Infinity Infinity -Infinity\n"),
    # 15.8.1.5: log10(e) = 0.43429448190325182765..., whose nearest double prints as 0.4342944819032518
    ("writeln(Math.LOG10E, ' ', Math.LOG2E);", "0.4342944819032518 1.4426950408889634\n"),
    # 15.7.3: Number's constants
    ("writeln(Number.MAX_VALUE, ' ', Number.MIN_VALUE, ' ', Number.NaN, ' ', Number.POSITIVE_INFINITY, ' ',"
     " Number.NEGATIVE_INFINITY);", "1.7976931348623157e+308 5e-324 NaN Infinity -Infinity\n"),
    # 15.5.2 / 15.7.2 / 15.6.2: `new` makes wrapper objects; calling converts
    ('writeln(typeof new String("a"), " ", typeof String(1), " ", typeof new Number(1), " ", new Number(4) + 1, " ",'
     ' new String("ab").length, " ", new String("ab").charAt(1), " ", !!new Boolean(false));',
     "object string object 5 2 b true\n"),
    # 15.8: Math's properties are DontEnum
    ("var n = 0; for (var k in Math) n++; writeln(n);", "0\n"),
    # 15.3.5.1: a function's length is its number of parameters; 15.4.5.2: arrays have a length
    ("function h(a, b, c) {} writeln(h.length, ' ', 'length' in [], ' ', 'push' in []);", "3 true true\n"),
    # 11.4.1 with 10.2: a `var` is DontDelete; a global made by assignment is not
    ("var v = 1; w = 2; writeln(delete v, ' ', delete w, ' ', typeof w, ' ', v);", "false true undefined 1\n"),
    # 15.5.4.20 (ES5 trim, on ES3's white space 7.2 and line terminators 7.3)
    ('writeln("[" + "\\u3000\\u00a0 x \\u2029\\ufeff".trim() + "]");', "[x]\n"),
    # 15.7.4.5-7: digits from the exact binary value, ties to the larger
    ("writeln((1e14).toFixed(14), ' ', (1.005).toFixed(2), ' ', (-1.5).toFixed(0), ' ', (0.5).toFixed(0));",
     "100000000000000.00000000000000 1.00 -2 1\n"),
    ("writeln((123.456).toPrecision(4), ' ', (0.000001234).toPrecision(2), ' ', (123456).toPrecision(2), ' ',"
     " (0).toPrecision(3));", "123.5 0.0000012 1.2e+5 0.00\n"),
    ("writeln((123.456).toExponential(2), ' ', (0).toExponential(1), ' ', (12345).toExponential(), ' ',"
     " (-1e-7).toExponential(3));", "1.23e+2 0.0e+0 1.2345e+4 -1.000e-7\n"),
    ("writeln((255).toString(16), ' ', (-255).toString(2), ' ', (35).toString(36));", "ff -11111111 z\n"),
    # RangeError (15.7.4.5, 15.7.4.2, 15.4.2.2), ReferenceError (8.7.1), as catchable error objects
    ("var r = []; try { (1).toFixed(21); } catch (e) { r.push(e.name, e instanceof RangeError); }"
     " try { (1).toString(1); } catch (e) { r.push(e.name); }"
     " try { new Array(-1); } catch (e) { r.push(e.name); }"
     " try { nosuch; } catch (e) { r.push(e.name, e instanceof ReferenceError, e instanceof Error); }"
     " writeln(r);", "RangeError,true,RangeError,RangeError,ReferenceError,true,true\n"),
    # 15.11.7: the native error constructors and their prototypes
    ("var n = [EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]; var s = '';"
     " for (var i = 0; i < n.length; i++) { var e = new n[i]('m'); s += e.name + (e instanceof Error) + ' '; }"
     " writeln(s);",
     "EvalErrortrue RangeErrortrue ReferenceErrortrue SyntaxErrortrue TypeErrortrue URIErrortrue \n"),
    # 15.5.3.2, 15.5.4.9, B.2.1-2, 15.1.3
    ('writeln(String.fromCharCode(72, 105, 65601), " ", "a".localeCompare("b") < 0, " ", "b".localeCompare("b"));',
     "HiA true 0\n"),
    ('writeln(escape("a b+\\u0100"), " ", unescape("%41%u0042%zz"));', "a%20b+%u0100 AB%zz\n"),
    ('writeln(encodeURIComponent("a b&\\u00e9/"), " ", encodeURI("a b&/#"), " ", decodeURIComponent("%41%C3%A9"),'
     ' " ", decodeURI("%41%2F"));', "a%20b%26%C3%A9%2F a%20b&/# A\u00e9 A%2F\n"),
    ('try { decodeURIComponent("%E0%A4%A"); } catch (e) { writeln(e.name); }', "URIError\n"),
    # 15.2.4.2, built-in prototypes are objects a script may extend (15.4.4, 15.5.4)
    ("writeln(Object.prototype.toString.call([]), ' ', {}.toString(), ' ', Object.prototype.toString.call(new Date(0)));",
     "[object Array] [object Object] [object Date]\n"),
    ("Array.prototype.total = function () { var s = 0; for (var i = 0; i < this.length; i++) s += this[i];"
     " return s; }; String.prototype.twice = function () { return this + this; };"
     " writeln([1, 2, 3].total(), ' ', 'ab'.twice());", "6 abab\n"),
    ("Object.prototype.extra = 1; var k = ''; for (var p in {a: 1}) k += p; writeln(k);", "aextra\n"),
    # 15.3.2.1: the Function constructor parses its text as a function body
    ('var mul = new Function("a", "b", "return a * b;"); writeln(mul(3, 4), " ", mul.length);', "12 2\n"),
    ('try { new Function("return )"); } catch (e) { writeln(e.name); }', "SyntaxError\n"),
    # 15.1.2.1: eval runs script text in the calling scope; its value is the last expression's
    ('var z = 2; writeln(eval("z * 3"), " ", eval("var q = 5; q + 1"), " ", q, " ", eval(7));', "6 6 5 7\n"),
    # 12.12: labels; break and continue with a label
    ("var o = ''; outer: for (var i = 0; i < 3; i++) { for (var j = 0; j < 3; j++) { if (j == 1) continue outer;"
     " if (i == 2) break outer; o += i + '' + j + ' '; } } writeln(o);", "00 10 \n"),
    ("blk: { writeln('a'); if (true) break blk; writeln('b'); } writeln('c');", "a\nc\n"),
    ("a: b: while (true) { while (true) { break a; } } writeln('out');", "out\n"),
    # 7.6: \\u escapes and letters of any script in names; 7.2/7.3: white space and line terminators
    ("var \\u0061b = 5; var caf\u00e9 = 2; writeln(ab, ' ', caf\u00e9);", "5 2\n"),
    ("var\u00a0x\u3000=\u20281\u2029writeln(x)", "1\n"),
    # 10.2.3 / 11.1.1: `this` in a plain call is the global object
    ("var g = 1; function t() { return this; } writeln(typeof t(), ' ', t().g);", "object 1\n"),
    # 15.9: dates (time zone UTC here), MakeDay carrying months over
    ("var d = new Date(2020, 1, 29, 12, 30); writeln(d.getFullYear(), ' ', d.getMonth(), ' ', d.getDate(), ' ',"
     " d.getDay(), ' ', d.getHours(), ' ', d.getTime());", "2020 1 29 6 12 1582979400000\n"),
    ("writeln(Date.UTC(2000, 0, 1), ' ', new Date(2021, 12, 1).getFullYear(), ' ', new Date(0).getDay(), ' ',"
     " Date.parse('2000-01-02T00:00:00Z'), ' ', isNaN(new Date(NaN).getTime()));",
     "946684800000 2022 4 946771200000 true\n"),
    ("var d = new Date(0); d.setMonth(13); writeln(d.getFullYear(), ' ', d.getMonth(), ' ', d.valueOf() > 0);",
     "1971 1 true\n"),
    # 15.10: regular expressions
    ('var re = /(\\d+)-(\\d+)/g, s = "10-20 and 30-40", m, o = "";'
     ' while ((m = re.exec(s)) != null) o += m[0] + "/" + m[1] + "@" + m.index + ":" + re.lastIndex + " "; writeln(o);',
     "10-20/10@0:5 30-40/30@10:15 \n"),
    ('writeln("aBc".replace(/b/i, "[$&]"), " ", "a1b2".replace(/\\d/g, function (d) { return d * 2; }), " ",'
     ' "John Smith".replace(/(\\w+)\\s(\\w+)/, "$2, $1"));', "a[B]c a2b4 Smith, John\n"),
    ('writeln("a, b,c".split(/\\s*,\\s*/), " ", "abc".split(/(b)/), " ", "ab".split(/(?:)/).length, " ",'
     ' "hello".match(/l/g).length, " ", "hello".search(/l+/), " ", /^h/.test("hello"), " ", "x".match(/y/));',
     "a,b,c a,b,c 2 2 2 true null\n"),
    ('writeln(/a.c/.test("a\\nc"), " ", /^b/m.test("a\\nb"), " ", /^b/.test("a\\nb"), " ", /a$/.test("a\\n"), " ",'
     ' /\\s/.test("\\u00a0"), " ", /\\w/.test("\\u00e9"));', "false true false false true false\n"),
    ('writeln(String(/a\\/b/g), " ", new RegExp("x+", "i").source, " ", RegExp(/q/).test("q"), " ", 10 / 2 / 5);',
     "/a\\/b/g x+ true 1\n"),
    ('try { new RegExp("("); } catch (e) { writeln(e.name); }', "SyntaxError\n"),
]


@pytest.mark.parametrize("src,expected", CASES, ids=[str(i) for i in range(len(CASES))])
def test_es3_value(src, expected):
    assert run(src) == expected


def test_regex_backtracking_is_bounded_by_the_step_budget():
    import time

    t = time.perf_counter()
    d = diagnose('var s = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"; /^(?:a|aa)+$/.test(s);', max_steps=30_000)
    assert d.code == "OPL1007" and d.line == 1
    assert time.perf_counter() - t < 2  # 30,000 steps is a hundredth of a second of backtracking


@pytest.mark.parametrize("pattern", ["/(?:(a)|b)+/", "/(a*)*/", "/(a)|\\1b/", "/(?!(a))/", "/(?=a)*/",
                                     "/\\u00e9/i", "/\\012/"])
def test_regex_constructs_that_would_match_differently_are_refused(pattern):
    d = diagnose("var r = %s;" % pattern)
    assert d.code == "OPL1015" and d.line == 1 and d.column == 9, (d.code, d.message)


def test_an_invalid_regex_literal_is_a_syntax_error():
    d = diagnose("var r = /a{2,1}/;")
    assert d.code == "OPL1000" and "out of order" in d.message


def test_labels_must_name_an_enclosing_statement():
    d = diagnose("for (;;) { break nowhere; }")
    assert d.code == "OPL1013" and d.column == 18


def test_the_token_budget_ends_in_a_diagnostic(monkeypatch):
    from pyopl.script.engine import parser

    monkeypatch.setattr(parser, "MAX_TOKENS", 50)
    d = diagnose("var x = 0;\n" * 20)
    assert d.code == "OPL1014" and d.line == 11  # 5 tokens a line: token 51 starts line 11


def test_parsing_work_is_linear():
    """Parsing four times the text makes four times the Python calls, never quadratic (calls are
    counted, not timed: the verdict does not depend on the machine's speed or load)."""
    from call_count import python_calls

    def calls(n):
        result, count = python_calls(parse_script, "\n".join("var x%d = %d + 1;" % (i, i) for i in range(n)))
        assert not isinstance(result, list)
        return count

    parse_script("var warm = 1;")  # the parser tables are built once per process, outside the count
    small, large = calls(1000), calls(4000)
    assert 3.5 * small < large < 4.5 * small


def test_a_regex_literal_may_start_the_statement_of_a_header():
    # issue 42 (minor). ES3 12.5-12.10: after the `)` of an `if`/`for`/`while`/`with` header comes a
    # statement, so `/` starts a regular expression there (it was read as a division: a syntax error);
    # after any other `)` it is still a division
    src = ('var s = "abc", n = 0, i;\nfor (i = 0; i < 3; i++) /b/.test(s) && n++;\n'
           'if (n == 3) /c$/.test(s) && n++;\nwhile (n < 5) /a/.test(s) && n++;\n'
           'var half = (n + 5) / 2 / 1;\nwriteln(n, " ", half);')
    assert run(src) == "5 5\n"  # 3 from the loop, 1 from the `if`, 1 from the `while`; (5 + 5) / 2 / 1 = 5
