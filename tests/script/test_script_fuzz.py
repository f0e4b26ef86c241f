"""Fuzzing the script parser and interpreter: random token mutations of the script blocks of the
shared corpus models and of small programs of our own.  Every input must end in a program or one
diagnostic, every run in a value or a ScriptError of a registered code (never an internal error or
a Python exception), within the step budget."""
from __future__ import annotations

import glob
import random
from pathlib import Path

from pyopl.diagnostics.registry import lookup
from pyopl.script import HostFunction, HostObject, Interpreter, ScriptError, parse_script
from pyopl.script.engine.parser import script_parser

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "opl-corpus"

OWN = [
    "var t = 0;\nfor (var i = 1; i <= 10; i++) { if (i % 3 == 0) continue; t += i * 1.5; }\nwriteln(t);",
    "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nwriteln(fib(12));",
    "var o = {a: [1, 2, 3], b: 'x'};\nfor (var k in o) writeln(k, ' ', o[k]);\nwriteln(o.a.length, o.b.toUpperCase());",
    "try { throw new Error('e'); } catch (e) { writeln(e.message); } finally { writeln('f'); }",
    "var s = 'a,b,c'.split(',');\ns.sort(function(x, y) { return x < y ? 1 : -1; });\nwriteln(s.join('-'));",
    "switch (typeof x) { case 'undefined': writeln('u'); break; default: writeln('d'); }",
    "var i = 0\ndo { i++ } while (i < 4)\nwith (Math) { writeln(max(i, 2), floor(PI)) }",
    "var a = new Array(5); a[2] = 7; a.push(1); writeln(a.indexOf(7), a.slice(1, 3), a.length);",
    "var c = function() { var n = 0; return function() { return n++; }; }();\nc(); writeln(c());",
    "var x = 5; x += '1'; x -= 2; writeln(x, parseInt('12a'), parseFloat('1e2'), isNaN(x), (1/3).toFixed(3));",
]

VOCAB = ["var", "if", "else", "for", "while", "do", "in", "function", "return", "break", "continue", "switch",
         "case", "default", "try", "catch", "finally", "throw", "new", "this", "typeof", "with", "null", "true",
         "{", "}", "(", ")", "[", "]", ";", ",", ".", ":", "?", "=", "+=", "++", "--", "+", "-", "*", "/", "%",
         "==", "===", "!=", "<", ">=", "&&", "||", "!", "x", "i", "writeln", "Math", "1e308", "0", "-1", "'s'",
         '"t"', "\n", "1e9", "Array", "arguments", "thisOplModel", "/*", "*/", "//"]


class Anything(HostObject):
    """A permissive host: every name exists; members and items are numbers, arrays of itself or calls."""

    type_name = "Anything"

    def __init__(self, depth=0):
        self.depth = depth
        self.values = {}

    def has_member(self, name):
        return True

    def member_names(self):
        return ["size", "solve", "first"]

    def get_member(self, name, span):
        if name in self.values:
            return self.values[name]
        if name in ("solve", "first", "generate", "writeln"):
            return HostFunction(name, lambda interp, this, args, sp: 1.0)
        if len(name) % 3 == 0 and self.depth < 3:
            return Anything(self.depth + 1)
        return float(len(name))

    def set_member(self, name, value, span):
        if len(self.values) < 50:
            self.values[name] = value

    def get_index(self, key, span):
        return Anything(self.depth + 1) if self.depth < 3 else 2.0

    def set_index(self, key, value, span):
        pass

    def iter_keys(self):
        return iter([1, 2, 3])

    def to_display(self):
        return "<anything>"

    def to_number(self):
        return 3.0


def _corpus_bodies() -> list[str]:
    from pyopl.syntax.scripts import strip_scripts

    bodies = []
    for f in sorted(glob.glob(str(CORPUS / "*" / "*.mod"))):
        text = Path(f).read_text(encoding="utf-8", errors="replace")
        bodies += [s.body for s in strip_scripts(text)[1] if s.body.strip()]
    return bodies


def _own_test_programs() -> list[str]:
    """The programs of test_script_language.py (loaded by path: the tests are not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_script_language_cases", Path(__file__).with_name(
        "test_script_language.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [src for src, _expected in module.CASES]


def _tokens(text: str):
    try:
        return [(t.start_pos, t.end_pos) for t in script_parser().lex(text)]
    except Exception:  # an unlexable seed is mutated by characters only
        return []


def _mutate(rng: random.Random, text: str, spans) -> str:
    if not spans or rng.random() < 0.1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(VOCAB + ["\\", "'", '"', "@", "{", "}"]) + text[i:]
    out = text
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        a, b = spans[rng.randrange(len(spans))]
        if b > len(out):
            continue
        op = rng.random()
        if op < 0.3:
            out = out[:a] + out[b:]
        elif op < 0.6:
            out = out[:a] + rng.choice(VOCAB) + out[b:]
        elif op < 0.8:
            out = out[:b] + " " + rng.choice(VOCAB) + " " + out[b:]
        else:
            out = out[:b] + " " + out[a:b] + out[b:]
    return out


def _check(text: str) -> str:
    program = parse_script(text, "m.mod", 3, 5)
    if isinstance(program, list):
        assert len(program) == 1 and lookup(program[0].code) is not None, program
        assert program[0].code != "OPL0605", (text, program[0].message)
        return "syntax"
    interp = Interpreter(Anything(), lambda s: None, max_steps=20_000, max_memory=200_000, file="m.mod")
    try:
        interp.run(program)
    except ScriptError as e:
        assert e.code != "OPL0605", (text, e.message)
        assert lookup(e.code) is not None and e.span.file == "m.mod"
        result = "error"
    else:
        result = "ran"
    assert interp.steps <= interp.max_steps + 1
    return result


def test_mutated_scripts_never_escape_as_python_errors():
    rng = random.Random(20261201)
    seeds = _corpus_bodies() + OWN + _own_test_programs()
    assert len(seeds) >= len(OWN) + 15 + 60  # the corpus has at least 15 script blocks
    counts = {"syntax": 0, "error": 0, "ran": 0}
    for seed in seeds:  # the unmutated seeds first: they all parse
        program = parse_script(seed, "m.mod", 1, 1)
        assert not isinstance(program, list), (seed[:80], program[0].message)
    lexed = [(s, _tokens(s)) for s in seeds]
    for n in range(2000):
        seed, spans = lexed[n % len(lexed)]
        counts[_check(_mutate(rng, seed, spans))] += 1
    # the mutations reach all three outcomes, not just the parser's error path
    assert min(counts.values()) >= 50, counts
