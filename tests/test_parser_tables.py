"""The parser-table cache (pyopl/syntax/parser_cache.py, pyopl/syntax/lalr_tables.py): a parser
made from the cached data is Lark's own, part by part; its lexer states are made on first use
and parse as Lark's; a damaged, foreign or stale cache file is ignored and rebuilt."""
from __future__ import annotations

import hashlib
import marshal
import os
import re
from pathlib import Path

import pytest
from lark import Lark
from lark.parsers.lalr_analysis import Reduce, Shift

import pyopl
from pyopl.syntax import grammars, lalr_tables, parser_cache
from pyopl.syntax.lalr_tables import LazyContextualLexer, RegexCodes

ROOT = Path(__file__).resolve().parents[1]
_FRESH: dict = {}


def fresh(name: str) -> Lark:
    """Lark's own parser of the grammar, built from the text (no cache), once per test run."""
    if name not in _FRESH:
        _FRESH[name] = Lark(grammars.grammar_text(name), **parser_cache.options_of(name))
    return _FRESH[name]


def _rule(r):
    o = r.options
    return (r.origin.name, [(s.name, s.is_term, getattr(s, "filter_out", False)) for s in r.expansion], r.order,
            r.alias, (o.keep_all_tokens, o.expand1, o.priority, o.template_source, tuple(o.empty_indices)))


def _terminal(t):
    return (t.name, t.pattern.type, t.pattern.value, t.pattern.flags, t.pattern.raw, t.priority,
            t.pattern.min_width, t.pattern.max_width)


def test_table_states_are_made_when_the_parse_first_reads_them():
    built = fresh("opl")
    made = lalr_tables.decode(marshal.loads(marshal.dumps(lalr_tables.encode(built))))
    states, full = made.parser.parser._parse_table.states, built.parser.parser._parse_table.states
    assert dict.__len__(states) == 0 and len(states) == len(full) and 0 in states and len(full) not in states
    text = "int n = 3;\ndvar float x[1..n];\nminimize sum(i in 1..n) x[i];\nsubject to { x[1] >= 1; }\n"
    assert made.parse(text) == built.parse(text)
    reached = dict.__len__(states)
    assert 0 < reached < len(full) // 2  # only the states the parse reached
    assert all(dict.__getitem__(states, s) == full[s] for s in dict.keys(states))
    with pytest.raises(KeyError):
        states[len(full)]
    assert states.get(len(full)) is None and states.get(0) == full[0]
    assert dict(states.items()) == full and dict.__len__(states) == len(full)  # any other read: every state


@pytest.mark.parametrize("name", ["opl", "dat", "script"])
def test_decoded_parser_is_lark_s_part_by_part(name):
    built = fresh(name)
    made = lalr_tables.decode(marshal.loads(marshal.dumps(lalr_tables.encode(built))))
    assert [_terminal(t) for t in made.terminals] == [_terminal(t) for t in built.terminals]
    assert [_rule(r) for r in made.rules] == [_rule(r) for r in built.rules]
    assert made.parser.parser_conf.rules is made.rules and made.parser.parser_conf.start == built.options.start
    assert made.lexer_conf.ignore == tuple(built.lexer_conf.ignore) and made.lexer_conf.g_regex_flags == 0
    assert made.options.serialize({}) | {"_plugins": {}} == built.options.serialize({})
    a, b = made.parser.parser._parse_table, built.parser.parser._parse_table
    assert a.start_states == b.start_states and a.end_states == b.end_states
    assert a.states.keys() == b.states.keys()
    rules = set(map(id, made.rules))
    for state, actions in b.states.items():
        got = a.states[state]
        assert got.keys() == actions.keys(), state
        for token, (action, arg) in actions.items():
            assert got[token][0] is action
            if action is Shift:
                assert got[token][1] == arg
            else:  # the very Rule objects of the parser, equal to Lark's
                assert action is Reduce and id(got[token][1]) in rules and _rule(got[token][1]) == _rule(arg)
    # the tree builder's callbacks are made on first use, and cover the same rules (a Rule hashes by
    # origin and expansion)
    assert len(made._callbacks) == 0
    text = {"opl": "dvar float x;\nminimize x;\n", "dat": "n = 3;\n", "script": "var n = 3;\n"}[name]
    assert made.parse(text) == built.parse(text)
    assert set(made._callbacks) == set(built._callbacks) and made._callbacks is made.parser.parser.parser.callbacks


@pytest.mark.parametrize("name", ["opl", "dat"])
def test_lexer_states_are_made_on_first_use_and_equal_lark_s(name):
    built = fresh(name)
    made = lalr_tables.decode(lalr_tables.encode(built))
    lazy, eager = made.parser.lexer, built.parser.lexer
    assert isinstance(lazy, LazyContextualLexer) and len(lazy.lexers) == 0  # nothing made yet
    made.parse({"opl": "dvar float x in 0..4;\nmaximize x;\n", "dat": "n = 3;\n"}[name])
    some = len(lazy.lexers)
    assert 0 < some < len(eager.lexers)  # only the states the text reached
    lalr_tables.make_all_lexer_states(made)
    assert lazy.lexers.keys() == eager.lexers.keys()
    assert len({id(x) for x in lazy.lexers.values()}) == len({id(x) for x in eager.lexers.values()})
    for state, lx in eager.lexers.items():
        mine = lazy.lexers[state]
        assert {t.name for t in mine.terminals} == {t.name for t in lx.terminals}, state
        assert [t.name for t in mine.terminals] == [t.name for t in lx.terminals]  # the same priority order
        assert mine.newline_types == lx.newline_types and mine.ignore_types == lx.ignore_types
        # the patterns made from kept code are the ones `re` compiles from the text (a Pattern compares
        # its text, flags and code)
        assert mine.scanner._mres == lx.scanner._mres, state
        assert mine.callback.keys() == lx.callback.keys()
    assert {t.name for t in lazy.root_lexer.terminals} == {t.name for t in eager.root_lexer.terminals}


def test_every_lexer_pattern_is_made_from_kept_code(monkeypatch):
    doc = lalr_tables.encode(fresh("opl"))
    made = lalr_tables.decode(doc)
    calls = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a, **k: calls.append(a) or real(*a, **k))
    lalr_tables.make_all_lexer_states(made)
    made.parser.lexer.root_lexer.scanner  # noqa: B018
    assert calls == [] and len(doc["regex_codes"]) > 50
    assert all(type(v) is bytes for v in doc["regex_codes"].values())  # each read when its pattern is made


def test_regex_codes_fall_back_to_re_for_missing_or_refused_code():
    codes = RegexCodes({("a+b", 0): (0, b"\x00\x00\x00\x00", 0, {}, (None,))})  # code _sre refuses
    assert codes.compile("a+b").match("aab").group(0) == "aab"
    assert codes.compile("a+b") is codes.compile("a+b")
    assert codes.match("(?P<X>c+)", "ccd").lastgroup == "X"  # never kept: compiled by re
    with pytest.raises(re.error):
        codes.compile("(")


# --- the cache file -------------------------------------------------------------------------------

def _plain(o) -> bool:
    if isinstance(o, dict):
        return all(_plain(k) and _plain(v) for k, v in o.items())
    if isinstance(o, (list, tuple)):
        return all(_plain(x) for x in o)
    return o is None or type(o) in (str, int, bool, bytes)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "pyopl"


def _file(cache: Path, name: str) -> Path:
    (f,) = [p for p in cache.iterdir() if p.name.startswith(name + "-")]
    return f


def _no_build(monkeypatch):
    """Building the tables from the grammar (what a cache miss does) now fails the test."""
    def refuse(*a, **k):
        raise AssertionError("the tables were built, not read from the cache")
    monkeypatch.setattr("lark.Lark.__init__", refuse)


def test_the_cache_file_is_tagged_digested_plain_data(cache, monkeypatch):
    parser_cache.build("dat")
    f = _file(cache, "dat")
    assert f.suffix == ".tables" and f.name == "dat-%s.tables" % parser_cache.cache_key("dat")[:32]
    assert oct(f.stat().st_mode & 0o777) == oct(0o600)
    data = f.read_bytes()
    tag = parser_cache._TAG
    assert data.startswith(tag) and hashlib.sha256(data[len(tag) + 32:]).digest() == data[len(tag):len(tag) + 32]
    doc = marshal.loads(data[len(tag) + 32:])
    assert _plain(doc) and doc["key"] == parser_cache.cache_key("dat")
    _no_build(monkeypatch)
    assert parser_cache.build("dat").parse("n = 3;\n") is not None  # read back, not built


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "no tag", "empty", "json of the first layout",
                                    "another key", "another layout"])
def test_a_damaged_or_foreign_cache_file_is_ignored_and_rebuilt(cache, monkeypatch, damage):
    parser_cache.build("dat")
    f = _file(cache, "dat")
    data = f.read_bytes()
    head = len(parser_cache._TAG) + 32

    def digested(doc) -> bytes:  # a well-formed file holding `doc`
        body = marshal.dumps(doc)
        return parser_cache._TAG + hashlib.sha256(body).digest() + body

    doc = marshal.loads(data[head:])
    bad = {
        "flip a byte": data[:head + 1000] + bytes([data[head + 1000] ^ 1]) + data[head + 1001:],
        "truncate": data[:len(data) // 2],
        "no tag": data[len(parser_cache._TAG):],
        "empty": b"",
        "json of the first layout": b'{"data": {}, "memo": {}}',
        "another key": digested(dict(doc, key=parser_cache.cache_key("opl"))),
        "another layout": digested(dict(doc, tables=dict(doc["tables"], format=-1))),
    }[damage]
    f.write_bytes(bad)
    parser = parser_cache.build("dat")
    assert parser.parse("n = 3;\n") is not None
    assert f.read_bytes() != bad  # rebuilt and written again
    _no_build(monkeypatch)
    assert parser_cache.build("dat").parse("s = {1, 2};\n") is not None


def test_an_edited_grammar_never_meets_stale_tables(cache, monkeypatch):
    from lark.exceptions import UnexpectedInput

    parser_cache.build("dat")
    old = _file(cache, "dat")
    text = grammars.grammar_text("dat")
    edited = text + '\nAT_SIGNS: "@@@"\n%ignore AT_SIGNS\n'  # the edited grammar skips `@@@`
    monkeypatch.setattr(grammars, "grammar_text", lambda name: edited if name == "dat" else text)
    assert parser_cache.build("dat").parse("n = @@@ 3;\n") is not None
    new = [p for p in cache.iterdir() if p != old]
    assert len(new) == 1 and old.exists()  # the old grammar's tables stay beside (other checkouts)
    _no_build(monkeypatch)
    assert parser_cache.build("dat").parse("n = @@@ 3;\n") is not None  # the edited grammar's, cached
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent))
    with pytest.raises(UnexpectedInput):
        parser_cache.build("dat").parse("n = @@@ 3;\n")


def test_old_tables_are_pruned_and_json_of_the_first_layout_left_to_its_versions(cache):
    cache.mkdir(mode=0o700)
    for i in range(12):
        for suffix in (".tables", ".json"):
            p = cache / ("dat-%032d%s" % (i, suffix))
            p.write_bytes(b"old")
            os.utime(p, (1000 + i, 1000 + i))
    parser_cache.build("dat")
    left = sorted(p.name for p in cache.iterdir())
    tables = [n for n in left if n.endswith(".tables")]
    # the new one and the newest seven old ones stay
    assert set(tables) == {"dat-%032d.tables" % i for i in range(5, 12)} | {_file_of_key(cache)}
    assert len([n for n in left if n.endswith(".json")]) == 12


def _file_of_key(cache: Path) -> str:
    return "dat-%s.tables" % parser_cache.cache_key("dat")[:32]


def test_without_a_safe_folder_the_tables_are_built_in_memory(tmp_path, monkeypatch):
    bad = tmp_path / "pyopl"
    bad.mkdir()
    os.chmod(bad, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser = parser_cache.build("dat")
    assert parser.parse("n = 3;\n") is not None and list(bad.iterdir()) == []


# --- what a small solve does not load -------------------------------------------------------------

BAD_MODELS = [
    "dvar float x;\nminimize x $ 2;\n",  # a character no state takes: the root lexer names it
    "dvar float x;\nminimize x\nsubject to { x >= 1; }\n",  # a missing `;`, repaired
    "int n = 3;\ndvar float x[1..n];\nminimize sum(i in 1..n) x[i] subject to { }\n",
    "dvar float x;\nmaximize x;\nsubject to { x <= 2 x >= 0; ct: x = 1; }\n",
    "tuple T { int a; string b }\n{T} S = {<1, \"x\">};\n",
    "float f = 1.5.2;\ndvar int+ y in 0..;\n",
]


def _diagnostics(model: str, data: str | None) -> list:
    diags = pyopl.check_text(model, data) if data is not None else pyopl.check_text(model)
    return [(d.code, d.severity, d.span.file, d.span.line, d.span.column, d.span.end_line, d.span.end_column, d.message,
             d.help) for d in diags]


def test_syntax_diagnostics_with_lazy_lexer_states_are_those_of_lark_s_own_parser(monkeypatch):
    from pyopl.syntax import inline_parse

    cases = [(m, None) for m in BAD_MODELS] + [("int n = ...;\ndvar float x;\nminimize x;\n", d)
                                              for d in ("n = 3 $;\n", "n = ;\n", "n = 3\nm = 4;\n")]
    got = [_diagnostics(m, d) for m, d in cases]
    assert all(got) and isinstance(parser_cache.lark_parser("opl").parser.lexer, LazyContextualLexer)
    assert [g[0][0] for g in got][:1] == ["OPL0006"]  # (the `$`: a lexing error, not a parse error)
    try:
        monkeypatch.setattr(parser_cache, "build", fresh)  # Lark's parsers, every lexer state made up front
        parser_cache.lark_parser.cache_clear()
        inline_parse._ast_parser.cache_clear()
        assert not isinstance(parser_cache.lark_parser("opl").parser.lexer, LazyContextualLexer)
        assert [_diagnostics(m, d) for m, d in cases] == got
    finally:
        parser_cache.lark_parser.cache_clear()
        inline_parse._ast_parser.cache_clear()


def test_ast_callbacks_are_made_for_the_rules_a_parse_reduces():
    from pyopl.syntax import inline_parse
    from pyopl.syntax.parser import parse_model
    from pyopl.diagnostics.reporter import Reporter

    inline_parse._ast_parser.cache_clear()
    try:
        parser = inline_parse._ast_parser()
        callbacks = parser.parser.parser.parser.callbacks
        assert len(callbacks) == 0 and bool(callbacks)  # (Lark skips callbacks when its dict is falsy)
        model = parse_model("dvar float x in 0..4;\nmaximize x;\n", "m.mod", Reporter())
        assert [type(i).__name__ for i in model.items] == ["DvarDecl", "Objective"]
        assert 0 < len(callbacks) < len(parser.rules) // 2
    finally:
        inline_parse._ast_parser.cache_clear()


SCRIPTS = ["var x = 010 + 0x1F; writeln(x.toFixed(2))\nreturn x", "for (var i in a) { if (i > 2) break; }",
           "function f(a, b) { return a.b[c] * -b++ }\nthisOplModel.x.LB = f(1, 2e-3);",
           "switch (k) { case 1: s = 'a\\n'; default: s = \"\" } while (n-- > 0) { n /= 2 }"]


def test_the_script_parser_from_the_cache_reads_scripts_as_the_basic_lexer_parser_did():
    """The script grammar's tables are cached like the others; its tokens come from one lexer of
    every terminal (``Lark.lex``), token for token those of the parser built with ``lexer="basic"``."""
    from pyopl.script.engine.parser import parse_script, script_parser

    basic = Lark(grammars.grammar_text("script"), start="program", parser="lalr", lexer="basic",
                 propagate_positions=True, maybe_placeholders=False)
    cached = script_parser()
    if parser_cache.cache_folder() is not None:
        assert isinstance(cached.parser.lexer, LazyContextualLexer)  # made from the cached tables
    tok = lambda t: (t.type, t.value, t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)
    for text in SCRIPTS:
        assert [tok(t) for t in cached.lex(text)] == [tok(t) for t in basic.lex(text)]
        assert not isinstance(parse_script(text), list)  # parsed (a list would hold diagnostics)
