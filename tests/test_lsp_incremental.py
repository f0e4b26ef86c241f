"""The incremental re-check (pyopl/lsp/incremental.py) gives exactly the diagnostics of a full
``pyopl.check_text``, spans included, after any sequence of edits in a warm cache; the statement
scanner cuts where the grammar's statements end and says when it is unsure."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.diagnostics.reporter import Reporter
from pyopl.lsp.analysis import Caches, analyse
from pyopl.lsp.incremental import IncrementalParser, split_statements
from pyopl.syntax.parser import parse_model

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def long_model(blocks: int = 30) -> tuple[str, str]:
    """A model of 10 lines a block (300 lines for 30) with its data."""
    mod = ["{string} Items = ...;", "int n = 6;", "range T = 1..n;", "tuple Pair { string a; int b; }",
           '{Pair} Pairs = {<"a", 1>, <"b", 2>};']
    dat = ['Items = {"a", "b", "c"};']
    for k in range(blocks):
        mod += ["// block %d: a /* comment */ with \"quotes\" and a ; inside" % k,
                "float cost%d[Items] = ...;" % k,
                "float cap%d = ...;" % k,
                "dvar float+ x%d[Items][T];" % k,
                "dexpr float total%d = sum(i in Items, t in T) cost%d[i] * x%d[i][t];" % (k, k, k),
                "constraint lim%d;" % k,
                "subject to {",
                "  forall(t in T) sum(i in Items) x%d[i][t] <= cap%d; forall(p in Pairs) x%d[p.a][1] >= p.b;" % (k, k, k),
                "  forall(i in Items) sum(t in T) x%d[i][t] >= 1;" % k,
                "}"]
        dat += ["cost%d = [%d, %d, %d];" % (k, k % 5 + 1, k % 3 + 2, 4), "cap%d = %d;" % (k, 20 + k)]
    mod.append("minimize %s;" % " + ".join("total%d" % k for k in range(blocks)))
    mod.append('execute { var s = "}"; /* { */ writeln(s); }')
    return "\n".join(mod) + "\n", "\n".join(dat) + "\n"


def _cases() -> list[tuple[str, str, str | None]]:
    out = []
    for mod in sorted(EXAMPLES.glob("*.mod")):
        dat = mod.with_suffix(".dat")
        out.append((mod.name, mod.read_text(), dat.read_text() if dat.exists() else None))
    out.append(("long", *long_model()))
    return out


CASES = _cases()
# What edits insert: pieces of statements, the scanner's hard characters, and mistakes.
PIECES = ["", ";", "{", "}", "(", ")", "[", "]", '"', "/*", "*/", "//", "\n", " ", "x", "1", "2.5", "+", "<=",
          "int k = 3;", "dvar float+ y;", "subject to { y >= 1; }", "execute { var a = '}'; }", "main",
          "forall", "sum(i in Items) ", "Items", "cost0", "constraint c;", "tuple t { int a; }", "include",
          '"s;"', "/* ; */", "// ;\n", ".", "..", "?", "y", "string"]


@st.composite
def edit_sequences(draw):
    name, text, data = draw(st.sampled_from(CASES))
    texts = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()) and texts:  # sometimes an edit is undone: cached statements come back
            texts.append(text)
        a = draw(st.integers(0, len(text)))
        b = min(len(text), a + draw(st.integers(0, 12)))
        text = text[:a] + draw(st.sampled_from(PIECES)) + text[b:]
        texts.append(text)
    return name, data, texts


def _same(model: str, data: str | None, caches: Caches) -> None:
    got = analyse(model, data, caches=caches).diagnostics
    want = list(pyopl.check_text(model, data))
    assert got == want, (model, [d.to_dict() for d in got], [d.to_dict() for d in want])


def test_unedited_cases_match_a_full_check():
    caches = Caches()
    for name, model, data in CASES:
        _same(model, data, caches)
        _same(model, data, caches)  # now every statement comes from the cache
        assert caches.parser.stats["parsed"] == 0 and caches.parser.stats["whole"] == 0, name


@settings(max_examples=examples(40), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(edit_sequences())
def test_incremental_check_equals_a_full_check_after_edits(case):
    name, data, texts = case
    caches = Caches()
    _same(dict((n, m) for n, m, _ in CASES)[name], data, caches)  # warm: every statement cached
    for text in texts:
        _same(text, data, caches)


def test_moved_statements_keep_exact_spans():
    model, data = long_model(4)
    caches = Caches()
    analyse(model, data, caches=caches)
    # three new lines at the top: every statement moves, none is parsed again
    moved = "// one\n// two\n\n" + model.replace("x3[i][t] >= 1;", "x3[i][t] >= 1 + undefinedName;")
    an = analyse(moved, data, caches=caches)
    assert caches.parser.stats["reused"] == 30 and caches.parser.stats["parsed"] == 1
    (d,) = [d for d in an.diagnostics if d.is_error]
    line = moved.split("\n").index([ln for ln in moved.split("\n") if "undefinedName" in ln][0]) + 1
    col = moved.split("\n")[line - 1].index("undefinedName") + 1
    assert (d.span.line, d.span.column, d.span.end_column) == (line, col, col + len("undefinedName"))
    assert an.ast.items[0].span.line == 4  # `{string} Items` now starts on line 4
    assert caches.parser.stats["moved"] == 30
    # the next edit, inside a statement: the moved copies were kept, nothing moves again
    again = analyse(moved.replace("cap0 = ...", "cap0 =  ..."), data, caches=caches)
    assert caches.parser.stats["moved"] == 0 and caches.parser.stats["parsed"] == 1
    assert again.diagnostics == list(pyopl.check_text(moved.replace("cap0 = ...", "cap0 =  ..."), data))


def test_data_is_loaded_once_for_model_edits():
    model, data = long_model(2)
    caches = Caches()
    analyse(model, data, caches=caches)
    analyse(model.replace(">= 1;", ">= 2;"), data, caches=caches)
    analyse(model + "// end\n", data, caches=caches)
    assert caches.data.hits == 2
    analyse(model, data.replace("cap0 = 20;", "cap0 = 21;"), caches=caches)
    assert caches.data.hits == 2  # new data text: loaded again


def test_scanner_statements():
    text = ('{string} S = {"a;", "b}"};  // a ; in a comment\n'
            "tuple T { int a; string b; }\n"
            "subject to {\n  c: x >= 1;\n};\n"
            "execute PRE { var s = '}'; /* } */ }\n"
            "int n = 3; /* ; */ int m = n;\n")
    got = [text[s.start:s.end] for s in split_statements(text)]
    assert got == ['{string} S = {"a;", "b}"};', "tuple T { int a; string b; }", "subject to {\n  c: x >= 1;\n};",
                   "execute PRE { var s = '}'; /* } */ }", "int n = 3;", "int m = n;"]
    (last,) = split_statements("\n\n  int k = 1;")
    assert (last.line, last.column) == (3, 3)


def test_scanner_is_unsure_of_unclosed_text():
    for text in ['int a = "x;', "int a; /* x", "subject to { x >= 1;", "float f[1..(2;3)];", "int a = 1",
                 "execute { var a = 1;", "int a = (1));"]:
        assert split_statements(text) is None, text


def test_whole_text_parse_when_a_statement_has_an_error():
    parser = IncrementalParser()
    text = "int a = 1;\nint b = ;\nint c = 2;\n"
    got_rep, want_rep = Reporter(), Reporter()
    got = parser.parse(text, "<model>", got_rep)
    want = parse_model(text, "<model>", want_rep)
    assert parser.stats["whole"] == 1
    assert got_rep.sorted() == want_rep.sorted() and got_rep.sorted()[0].span.line == 2
    assert repr(got.items if got else None) == repr(want.items if want else None)
