"""The language features on analyses (iterators, tuple fields, positions) and a fuzz of every
LSP handler on mutated texts: each request answers, none raises."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from pygls.workspace import Workspace  # noqa: E402

from pyopl.lsp import features as F  # noqa: E402
from pyopl.lsp.analysis import analyse  # noqa: E402
from pyopl.lsp.positions import LineIndex  # noqa: E402
from pyopl.lsp.server import build_server  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

ARCS = """tuple Arc { string src; int cap; }
{Arc} Arcs = {<"a", 3>, <"b", 5>};
range R = 1..4;
dvar float+ x[a in Arcs] in 0..a.cap;
maximize sum(a in Arcs) x[a] + sum(r in R) r;
subject to {
  forall(a in Arcs) lim: x[a] <= a.cap;
}
"""


def test_positions_count_utf16_units():
    idx = LineIndex("é😀ab\nxyz")
    # `a` is code point 3 (1-based col 3), after one BMP and one astral character: 1 + 2 units
    assert idx.to_lsp(1, 3) == (0, 3)
    assert idx.from_lsp(0, 3) == (1, 3)
    assert idx.to_lsp(2, 2) == (1, 1)
    assert idx.to_lsp(9, 1) == (1, 3)  # past the end: clamped to the end of the text


def test_iterators_resolve_to_their_own_binder():
    an = analyse(ARCS)
    assert not an.diagnostics
    # `a` in `x[a]` of line 5 is the sum's iterator (col 14), not the dvar's (line 4) or the forall's
    (d,) = F.definition(an, 5, 27)
    assert (d.line, d.column) == (5, 14)
    refs = F.references(an, 5, 14)
    assert [(s.line, s.column) for s in refs] == [(5, 14), (5, 27)]
    forall_refs = F.references(an, 7, 10)
    assert [(s.line, s.column) for s in forall_refs] == [(7, 10), (7, 28), (7, 34)]
    assert F.hover(an, 7, 34).startswith("iterator `a` in `Arcs`")
    # the set `Arcs` is used on lines 2, 4, 5 and 7, never shadowed
    assert [s.line for s in F.references(an, 2, 8)] == [2, 4, 5, 7]


def test_tuple_fields_definition_references_and_completion():
    an = analyse(ARCS)
    (d,) = F.definition(an, 7, 36)  # `cap` of `a.cap`
    assert (d.line, d.column) == (1, 29)
    assert [(s.line, s.column) for s in F.references(an, 1, 29)] == [(1, 29), (4, 34), (7, 36)]
    assert "field `cap` of tuple `Arc`: `int`" in F.hover(an, 7, 36)
    text = ARCS.replace("x[a] <= a.cap;", "x[a] <= a.")
    items = F.completion(an, 7, 36, text)  # just after the dot
    assert sorted(label for label, kind, _ in items) == ["cap", "src"]
    assert all(kind == "field" for _, kind, _ in items)


def test_completion_offers_names_iterators_keywords_and_builtins_in_scope():
    an = analyse(ARCS)
    labels = {label: (kind, detail) for label, kind, detail in F.completion(an, 7, 26)}
    assert labels["Arcs"][0] == "set" and labels["R"][0] == "range" and labels["x"][0] == "dvar"
    assert labels["a"][0] == "iterator"
    assert labels["ord"] == ("function", "ord(S, e): 0-based position of e in S")
    assert labels["forall"][0] == "keyword"
    outside = {label for label, kind, _ in F.completion(an, 3, 1) if kind == "iterator"}
    assert outside == set()


def test_hover_shows_range_set_and_tuple():
    an = analyse(ARCS)
    assert "value: 1..4 (4 values)" in F.hover(an, 3, 7)
    assert 'value: 2 elements: {<"a", 3>, <"b", 5>}' in F.hover(an, 2, 8)
    assert "fields: `string src`, `int cap`" in F.hover(an, 1, 8)
    assert "domain: `0..a.cap`" in F.hover(an, 4, 13)


def test_hover_on_a_diagnostic_names_the_code():
    an = analyse("dvar float+ x;\nmaximize x + yy;\n")
    text = F.hover(an, 2, 14)
    assert "error[OPL0101]" in text and "`yy` is not declared" in text and "pyopl explain OPL0101" in text


def _mutants(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    bases = [p.read_text() for p in sorted(EXAMPLES.glob("*.mod"))] + [ARCS]
    pieces = ["{", "}", "[", "]", "(", ")", ";", ".", "..", "<", ">", "\"", "/*", "//", "forall", "sum", "dvar",
              "tuple", "in", "...", "😀", "\n", " ", "x.", "subject to {", "execute {"]
    out = []
    for _ in range(n):
        text = rng.choice(bases)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(text) + 1)
            op = rng.random()
            if op < 0.4:
                text = text[:i] + rng.choice(pieces) + text[i:]
            elif op < 0.8:
                text = text[:i] + text[i + rng.randint(1, 20):]
            else:
                j = rng.randrange(len(text) + 1)
                text = text[:i] + text[min(i, j):max(i, j)] + text[i:]
        out.append(text)
    return out + ["", "\n", "😀", "dvar", "tuple T {", "{" * 300, "sum(" * 200]


def test_fuzz_every_handler_answers_on_mutated_texts(caplog):
    server = build_server()
    server.protocol._workspace = Workspace(None)
    published = []
    server.text_document_publish_diagnostics = published.append  # no client: collect instead
    fm = server.protocol.fm
    uri = "file:///nowhere/fuzz.mod"
    doc = T.TextDocumentIdentifier(uri=uri)
    for k, text in enumerate(_mutants(17, 40)):
        server.workspace.put_text_document(T.TextDocumentItem(uri=uri, language_id="opl", version=k, text=text))
        n = len(published)
        server.publish(uri)
        assert len(published) == n + 1 and published[-1].uri == uri
        for d in published[-1].diagnostics:
            assert d.code.startswith("OPL") and d.range.start.line >= 0
        lines = text.split("\n")
        rng = random.Random(k)
        for _ in range(4):
            line = rng.randrange(len(lines))
            pos = T.Position(line=line, character=rng.randrange(len(lines[line]) + 2))
            fm.features[T.TEXT_DOCUMENT_HOVER](T.HoverParams(doc, pos))
            fm.features[T.TEXT_DOCUMENT_DEFINITION](T.DefinitionParams(doc, pos))
            fm.features[T.TEXT_DOCUMENT_REFERENCES](T.ReferenceParams(
                text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=True)))
            completion = fm.features[T.TEXT_DOCUMENT_COMPLETION](T.CompletionParams(doc, pos))
            assert completion is not None
            fm.features[T.TEXT_DOCUMENT_CODE_ACTION](T.CodeActionParams(
                text_document=doc, range=T.Range(start=T.Position(0, 0), end=pos),
                context=T.CodeActionContext(diagnostics=[])))
        fm.features[T.TEXT_DOCUMENT_DOCUMENT_SYMBOL](T.DocumentSymbolParams(doc))
        tokens = fm.features[T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL](T.SemanticTokensParams(doc)).data
        assert len(tokens) % 5 == 0 and all(v >= 0 for v in tokens)  # relative positions never go back
        assert all(tokens[j + 2] > 0 for j in range(0, len(tokens), 5))  # no empty token
    # handlers turn a failure into an empty answer and a logged error: none was logged
    assert [r.getMessage() for r in caplog.records if r.name == "pyopl.lsp"] == []


def _scope_of(word_line: str, word: str) -> str | None:
    """The scope the VS Code grammar's top-level patterns give ``word`` in ``word_line``
    (the first pattern, in the grammar's order, that matches at the word's place)."""
    import json
    import re

    g = json.loads((Path(__file__).resolve().parents[1] / "editors/vscode/syntaxes/opl.tmLanguage.json").read_text())
    at = word_line.index(word)
    best = None
    for inc in g["patterns"]:
        rule = g["repository"][inc["include"][1:]]
        for r in [rule] if ("match" in rule or "begin" in rule) else rule["patterns"]:
            rx = r.get("match") or r.get("begin")
            for m in re.finditer(rx, word_line):
                if m.start() <= at < max(m.end(), m.start() + 1) and (best is None or m.start() < best[0]):
                    best = (m.start(), r.get("name") or rule.get("name"))
    return best[1] if best else None


def test_textmate_grammar_scopes():
    line = 'dvar float+ x[i in 1..3] in 0..5; // cap\nminimize sum(i in 1..3) ord(S, i) + "s";'
    first, second = line.split("\n")
    assert _scope_of(first, "dvar") == "storage.type.opl"
    assert _scope_of(first, "float+") == "support.type.opl"
    assert _scope_of(first, "// cap") == "comment.line.double-slash.opl"
    assert _scope_of(second, "minimize") == "keyword.control.opl"
    assert _scope_of(second, "ord") == "support.function.opl"
    assert _scope_of(second, '"s"') == "string.quoted.double.opl"
    assert _scope_of(second, "in 1") == "keyword.operator.word.opl"


def _server_with_files(tmp_path, model: str, data: str):
    (tmp_path / "m.mod").write_text(model)
    (tmp_path / "m.dat").write_text(data)
    server = build_server()
    server.protocol._workspace = Workspace(None)
    published = []
    server.text_document_publish_diagnostics = published.append
    return server, published, (tmp_path / "m.mod").as_uri(), (tmp_path / "m.dat").as_uri()


def test_data_diagnostics_go_to_the_dat_and_labels_become_related_information(tmp_path):
    model = "float a = ...;\nfloat b = 1;\nfloat b = 2;\ndvar float+ x;\nminimize x + a + b;\n"
    server, published, mod_uri, dat_uri = _server_with_files(tmp_path, model, 'a = "s";\n')
    # the model is open in the editor; its .dat is found on disk by name
    server.workspace.put_text_document(T.TextDocumentItem(uri=mod_uri, language_id="opl", version=1, text=model))
    server.publish(mod_uri)
    by_uri = {p.uri: p.diagnostics for p in published}
    assert set(by_uri) == {mod_uri, dat_uri}
    (twice,) = [d for d in by_uri[mod_uri] if d.code == "OPL0102"]
    assert (twice.range.start.line, twice.range.start.character) == (2, 6)
    (rel,) = twice.related_information
    assert rel.location.uri == mod_uri and rel.message == "first declared here"
    assert (rel.location.range.start.line, rel.location.range.start.character) == (1, 6)
    (bad,) = by_uri[dat_uri]
    assert bad.code == "OPL0403" and (bad.range.start.line, bad.range.start.character) == (0, 0)
    # the .dat open and edited: the fixed value clears the data diagnostic
    server.workspace.put_text_document(T.TextDocumentItem(uri=dat_uri, language_id="opl-data", version=1, text="a = 2.5;\n"))
    published.clear()
    server.publish(dat_uri)
    by_uri = {p.uri: p.diagnostics for p in published}
    assert list(by_uri[dat_uri]) == [] and [d.code for d in by_uri[mod_uri]] == ["OPL0102"]
    hover = server.protocol.fm.features[T.TEXT_DOCUMENT_HOVER](
        T.HoverParams(T.TextDocumentIdentifier(uri=mod_uri), T.Position(line=0, character=7)))
    assert "value: 2.5" in hover.contents.value


def test_an_editor_runs_scripts_on_the_short_step_budget():
    """A loop that never ends, typed in the editor, stops at the editor's 2,000,000 steps (OPL1007 at the
    `while`), not at `pyopl solve`'s 50,000,000 (tens of seconds that would hold the next re-checks)."""
    import time

    from pyopl.lsp.analysis import analyse
    from pyopl.script.opl.options import DEFAULT_STEPS, EDITOR_STEPS

    text = "execute {\n  var i = 0;\n  while (i >= 0) { i++; }\n}\ndvar float+ x;\nminimize x;\n"
    began = time.process_time()
    diags = [d for d in analyse(text).diagnostics if d.code == "OPL1007"]
    assert [(d.line, d.column) for d in diags] == [(3, 3)]
    assert "%d steps" % EDITOR_STEPS in diags[0].message and EDITOR_STEPS < DEFAULT_STEPS
    assert time.process_time() - began < 5
