"""Random ECMAScript 3 check programs for differential testing against a JavaScript engine.

``programs(seed, count, checks)`` gives ``count`` script texts; each is a list of independent
checks, one output line each: ``show(EXPR)`` (the value's type and its ToString, ``-0`` told
apart) or ``E:`` and the error's name.  The same text runs in pyopl's interpreter and in an
engine (Node.js) with ``PRELUDE`` and a ``writeln`` of its own; the lines are compared one by one.

Only behaviour ES3 defines and modern engines keep is generated: no ``Date`` strings,
``localeCompare``, fractional ``toString(radix)``, function source text, or ``toFixed`` digits
above 20 (ES3 throws there, engines since 2018 do not).
"""
from __future__ import annotations

import random

PRELUDE = r"""function show(v) {
  if (typeof v == "function") return "function";
  if (v === 0 && 1 / v < 0) return "number:-0";
  return typeof v + ":" + String(v).split("\n").join("\\n").split("\r").join("\\r");
}
"""

_VALUES = ["0", "-0", "1", "-1", "1.5", "-2.5", "0.1", "1e21", "1e-7", "123.456", "NaN", "Infinity", "-Infinity",
           "4294967296", "2147483648", "255", "0.5", "1e300", "5e-324", "12345678.9",
           '""', '"abc"', '"12"', '" 3 "', '"a,b,c"', '"1e3"', '"0x1f"', '"-0"', '"\\u00a0 7 \\n"', '"xyz"',
           "true", "false", "null", "undefined", "[]", "[1, 2]", "[1, , 3]", "[[1], [2, 3]]", "{}",
           "{valueOf: function () { return 3; }}", "{toString: function () { return \"T\"; }}",
           "{valueOf: function () { return 2; }, toString: function () { return \"S\"; }}",
           "new Number(5)", "new String(\"ab\")", "new Boolean(false)", "[null, undefined]", "Math.PI"]
_NUMS = ["0", "-0", "1", "-1", "0.5", "1.5", "-1.5", "2.5", "-2.5", "7", "1e21", "1e-7", "123.456", "0.000001234",
         "NaN", "Infinity", "-Infinity", "1e14", "0.1", "99.995", "1.005", "-0.5", "1e-10", "25", "4294967295"]
_STRS = ['""', '"abc"', '"abcabc"', '"a,b,,c"', '"Hello World"', '"  pad  "', '"x1y22z333"', '"aaa"', '"1,2,3"',
         '"mississippi"']
_BIN = ["+", "-", "*", "/", "%", "==", "===", "!=", "!==", "<", ">", "<=", ">=", "&", "|", "^", "<<", ">>", ">>>",
        "&&", "||"]
_UN = ["typeof ", "-", "+", "!", "~", "void "]
_REGEXES = ["/a/", "/a/g", "/\\d+/g", "/(\\w)(\\d)/", "/^a/m", "/b*/g", "/[a-c]+/i", "/\\s+/", "/(?:ab)+/",
            "/s+/g", "/i(?=s)/g", "/x|y/", "/[^a-z]/g", "/\\bw/i", "/(a)|(b)/"]


def _value(r: random.Random) -> str:
    return r.choice(_VALUES)


def _check(r: random.Random) -> str:
    k = r.randrange(14)
    if k == 0:
        return "(%s) %s (%s)" % (_value(r), r.choice(_BIN), _value(r))
    if k == 1:
        return "%s(%s)" % (r.choice(_UN), _value(r))
    if k == 2:
        return "(%s).%s" % (r.choice(_NUMS), r.choice([
            "toFixed(%d)" % r.randrange(0, 8), "toPrecision(%d)" % r.randrange(1, 10),
            "toExponential(%d)" % r.randrange(0, 6), "toExponential()", "toString()", "toPrecision()"]))
    if k == 3:
        return "(%d).toString(%d)" % (r.randrange(-300, 300), r.choice([2, 8, 16, 36]))
    if k == 4:
        s = r.choice(_STRS)
        m = r.choice(["charAt(%d)" % r.randrange(-1, 6), "charCodeAt(%d)" % r.randrange(0, 5),
                      'indexOf("%s", %d)' % (r.choice("abs,"), r.randrange(-2, 8)),
                      'lastIndexOf("%s", %s)' % (r.choice("abs,"), r.choice(["0", "2", "4", "NaN", "-1", "20"])),
                      "slice(%d, %d)" % (r.randrange(-4, 5), r.randrange(-4, 8)),
                      "substring(%d, %d)" % (r.randrange(-2, 6), r.randrange(-2, 8)),
                      "substr(%d, %d)" % (r.randrange(-4, 5), r.randrange(-1, 5)),
                      'split("%s", %s).length' % (r.choice([",", "", "s", "ab"]), r.choice(["undefined", "0", "2", "-1"])),
                      'split("%s")' % r.choice([",", "", "s"]),
                      'replace("%s", "%s")' % (r.choice("abs"), r.choice(["[$&]", "$$", "$`|$'", "-", "$1"])),
                      "toUpperCase()", "concat(1, null)", "length"])
        return "%s.%s" % (s, m)
    if k == 5:
        a = r.choice(["[3, 1, 2]", "[1, , 3]", "[\"b\", \"a\", 10, 9]", "[]", "[1, 2, 3, 2, 1]", "[undefined, 2, null]"])
        m = r.choice(["join(\"-\")", "slice(1)", "concat([4], 5)", "reverse()", "sort()", "indexOf(2)",
                      "lastIndexOf(2, %d)" % r.randrange(-3, 5), "length", "push(9)", "pop()", "shift()",
                      "splice(1, 1)", "toString()", "sort(function (x, y) { return y - x; })"])
        return "%s.%s" % (a, m)
    if k == 6:
        f = r.choice(["abs", "ceil", "floor", "round", "sqrt", "exp", "log", "sin", "atan"])
        return "Math.%s(%s)" % (f, r.choice(_NUMS))
    if k == 7:
        return "Math.%s(%s, %s)" % (r.choice(["min", "max", "pow"]), r.choice(_NUMS), r.choice(_NUMS))
    if k == 8:
        return "%s(%s)" % (r.choice(["parseInt", "parseFloat", "isNaN", "isFinite", "Number", "String", "Boolean",
                                      "escape", "encodeURIComponent", "encodeURI"]), _value(r))
    if k == 9:
        return r.choice(["(function (a, b) { arguments[0] = 7; return a + arguments.length; })(1, 2, 3)",
                         "(function (a) { a = 5; return arguments[0]; })(1)",
                         "(function () { return typeof arguments; })()",
                         "(function f(a, b, c) {}).length",
                         "(function () { var o = {}; function F() {} F.prototype.k = 1; var x = new F(); "
                         "F.prototype.j = 2; return x.j + x.k; })()",
                         "(function () { function E(m) { this.message = m; } E.prototype = new Error(); "
                         "return (new E(\"m\")) instanceof Error; })()",
                         "(function () { var a = []; a[3] = 1; var s = \"\"; for (var k in a) s += k; return s + (0 in a); })()",
                         "(function () { var n = 0; for (var k in Math) n++; return n; })()",
                         "(function () { var v = 1; return delete v; })()",
                         "\"length\" in []",
                         "[1, , 3].length + \":\" + (1 in [1, , 3])",
                         "Number.MAX_VALUE + \" \" + Number.MIN_VALUE",
                         "(function () { var o = []; o: for (var i = 0; i < 3; i++) { for (;;) { o.push(i); continue o; } } return o; })()",
                         "new String(\"abc\").length + typeof new Number(1)",
                         "(function () { return this; })() !== undefined",
                         "String.fromCharCode(65, 66, 67)",
                         "decodeURIComponent(\"%41%C3%A9\")",
                         "unescape(escape(\"a b\\u0100\"))"])
    if k == 10:
        subj = r.choice(_STRS)
        return "%s.%s" % (subj, r.choice([
            "match(%s)" % r.choice(_REGEXES), "search(%s)" % r.choice(_REGEXES),
            "replace(%s, \"<$&>\")" % r.choice(_REGEXES), "split(%s)" % r.choice(_REGEXES),
            "replace(%s, function (m) { return m.length; })" % r.choice(_REGEXES)]))
    if k == 11:
        return "%s.exec(%s)" % (r.choice(_REGEXES), r.choice(_STRS))
    if k == 12:
        y, m, d = r.randrange(1960, 2040), r.randrange(-2, 14), r.randrange(0, 32)
        return "new Date(%d, %d, %d).%s()" % (y, m, d, r.choice(["getDay", "getFullYear", "getMonth", "getDate",
                                                                 "getTime"]))
    return "(%s) %s (%s) %s (%s)" % (_value(r), r.choice(_BIN), _value(r), r.choice(_BIN), _value(r))


def programs(seed: int, count: int, checks: int = 40) -> list[str]:
    """``count`` programs of ``checks`` lines each, the same for the same ``seed``."""
    r = random.Random(seed)
    out = []
    for _ in range(count):
        lines = [PRELUDE]
        for _ in range(checks):
            lines.append('try { writeln(show(%s)); } catch (e) { writeln("E:" + e.name); }' % _check(r))
        out.append("\n".join(lines))
    return out
