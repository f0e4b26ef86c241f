"""Semantic tokens over stdio: the server's legend, and the token type and modifiers of each kind
of name at known positions of a model (and of its .dat)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402

from lsp_client import Session  # noqa: E402

MODEL = """tuple Arc { string src; int cap; }
{Arc} Arcs = ...;
range R = 1..4;
float w[R] = ...;
dvar float+ x[a in Arcs] in 0..a.cap;
dexpr float total = sum(a in Arcs) x[a];
maximize total + /* \U0001F600 */ sum(r in R) abs(w[r]);
subject to {
  forall(a in Arcs) lim: x[a] <= a.cap;
}
execute { var total = 0; writeln(R); }
"""
DATA = """Arcs = {<"a", 3>, <"b", 5>};
w = [1, 2, 3, 4];
"""


def _decode(data: list[int], legend: T.SemanticTokensLegend, text: str) -> dict[tuple[int, str], tuple[str, set]]:
    """{(0-based line, the token's text): (type, {modifiers})} (first occurrence on a line wins)."""
    lines = text.split("\n")
    out: dict = {}
    line = char = 0
    for k in range(0, len(data), 5):
        dl, dc, length, typ, bits = data[k:k + 5]
        line += dl
        char = dc if dl else char + dc
        # UTF-16 units to code points for this test's one astral character
        s, units, start = lines[line], 0, None
        for i, ch in enumerate(s):
            if units == char:
                start = i
                break
            units += 2 if ord(ch) > 0xFFFF else 1
        word = s[start:start + length]
        mods = {m for b, m in enumerate(legend.token_modifiers) if bits & (1 << b)}
        out.setdefault((line, word), (legend.token_types[typ], mods))
    return out


async def _tokens(tmp_path: Path):
    mod, dat = tmp_path / "arcs.mod", tmp_path / "arcs.dat"
    mod.write_text(MODEL)
    dat.write_text(DATA)
    async with Session(tmp_path.as_uri()) as s:
        s.open(mod.as_uri(), MODEL)
        await s.diagnostics(mod.as_uri())
        got = await s.client.text_document_semantic_tokens_full_async(
            T.SemanticTokensParams(text_document=T.TextDocumentIdentifier(uri=mod.as_uri())))
        s.open(dat.as_uri(), DATA, "opl-data")
        got_dat = await s.client.text_document_semantic_tokens_full_async(
            T.SemanticTokensParams(text_document=T.TextDocumentIdentifier(uri=dat.as_uri())))
        legend = s.capabilities.semantic_tokens_provider.legend
    return got.data, got_dat.data, legend


def test_semantic_tokens_classify_each_kind_of_name(tmp_path):
    data, data_dat, legend = asyncio.run(_tokens(tmp_path))
    tok = _decode(data, legend, MODEL)
    assert tok[(0, "tuple")] == ("keyword", set())
    assert tok[(0, "Arc")] == ("struct", {"declaration"})
    assert tok[(0, "src")] == ("property", {"declaration"})
    assert tok[(1, "Arc")] == ("struct", set())
    assert tok[(1, "Arcs")] == ("type", {"declaration"})  # a set
    assert tok[(2, "R")] == ("type", {"declaration"})  # a range
    assert tok[(3, "w")] == ("parameter", {"declaration", "readonly"})
    assert tok[(4, "x")] == ("variable", {"declaration"})  # a dvar
    assert tok[(4, "a")] == ("variable", {"declaration", "readonly"})  # an iterator where it is bound
    assert tok[(4, "cap")] == ("property", set())  # `a.cap`
    assert tok[(5, "total")] == ("function", {"declaration"})  # a dexpr
    assert tok[(6, "total")] == ("function", set())
    assert tok[(6, "sum")] == ("keyword", set())
    assert tok[(6, "r")] == ("variable", {"declaration", "readonly"})  # after the emoji: UTF-16 positions
    assert tok[(6, "abs")] == ("function", {"defaultLibrary"})
    assert tok[(6, "w")] == ("parameter", {"readonly"})
    assert tok[(8, "lim")] == ("event", {"declaration"})  # a constraint label
    assert tok[(8, "a")] == ("variable", {"declaration", "readonly"})
    assert tok[(10, "R")] == ("type", set())  # a model name inside a script
    assert (10, "var") not in tok and (10, "writeln") not in tok  # the script's own words are not OPL's
    dat_tok = _decode(data_dat, legend, DATA)
    assert dat_tok[(0, "Arcs")] == ("type", set()) and dat_tok[(1, "w")] == ("parameter", {"readonly"})
