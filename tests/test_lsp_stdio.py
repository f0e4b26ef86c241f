"""The language server end to end: pygls's client spawns `python -m pyopl lsp` and speaks
JSON-RPC over stdio (Content-Length framing), as an editor does."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from lsp_client import Session  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# line 15 (1-based) of examples/transport.mod, with `ship` misspelt; a 4-byte emoji in a comment
# before it on the same line counts 2 UTF-16 units in LSP positions
TYPO_LINE = "    ctSupply: /*\U0001F600*/ sum(m in Markets) shipp[p][m] <= supply[p];"


def _with_typo(text: str) -> str:
    lines = text.split("\n")
    assert lines[14].strip().startswith("ctSupply:")
    lines[14] = TYPO_LINE
    return "\n".join(lines)


def _apply(text: str, edits: list[T.TextEdit]) -> str:
    """Apply LSP edits (single-line, no surrogates before them in this test) to text."""
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        ln = lines[e.range.start.line]
        # convert the UTF-16 offsets of this line to code points
        def cp(units: int) -> int:
            n = 0
            for k, ch in enumerate(ln):
                if n >= units:
                    return k
                n += 2 if ord(ch) > 0xFFFF else 1
            return len(ln)
        lines[e.range.start.line] = ln[:cp(e.range.start.character)] + e.new_text + ln[cp(e.range.end.character):]
    return "\n".join(lines)


async def _session(tmp_path: Path):
    model_path = tmp_path / "transport.mod"
    data_path = tmp_path / "transport.dat"
    model_text = _with_typo((EXAMPLES / "transport.mod").read_text())
    model_path.write_text(model_text)
    data_path.write_text((EXAMPLES / "transport.dat").read_text())
    mod_uri, dat_uri = model_path.as_uri(), data_path.as_uri()

    out = {}
    async with Session(tmp_path.as_uri(), workspace_folders=False) as session:
        client = session.client
        client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=mod_uri, language_id="opl", version=1, text=model_text)))
        out["first"] = await session.diagnostics(mod_uri)
        doc = T.TextDocumentIdentifier(uri=mod_uri)
        out["hover"] = await client.text_document_hover_async(T.HoverParams(doc, T.Position(line=4, character=8)))
        out["hover_dvar"] = await client.text_document_hover_async(T.HoverParams(doc, T.Position(line=8, character=14)))
        # `supply[p]` on the typo line: character counts the emoji as 2 units
        col = TYPO_LINE.index("supply[p]") + 1 + 2
        out["definition"] = await client.text_document_definition_async(T.DefinitionParams(doc, T.Position(line=14, character=col)))
        out["references"] = await client.text_document_references_async(T.ReferenceParams(
            text_document=doc, position=T.Position(line=4, character=8), context=T.ReferenceContext(include_declaration=True)))
        out["completion"] = await client.text_document_completion_async(T.CompletionParams(doc, T.Position(line=10, character=0)))
        out["symbols"] = await client.text_document_document_symbol_async(T.DocumentSymbolParams(doc))
        diag = out["first"][0]
        out["actions"] = await client.text_document_code_action_async(T.CodeActionParams(
            text_document=doc, range=diag.range, context=T.CodeActionContext(diagnostics=[diag])))
        fix = next(a for a in out["actions"] if a.edit is not None)
        fixed = _apply(model_text, fix.edit.changes[mod_uri])
        out["fixed_text"] = fixed
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=mod_uri, version=2),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=fixed)]))
        out["after_fix"] = await session.diagnostics(mod_uri)
        # (pygls's client reads a CodeAction holding a command as a bare Command: the title is
        # what this test can check of it; the command is then run as an editor would)
        out["explain_title"] = [a.title for a in out["actions"] if a.title.startswith("Explain")]
        out["explain"] = await client.workspace_execute_command_async(T.ExecuteCommandParams(
            command="pyopl.explain", arguments=[diag.code]))
        # the .dat: hover on a name shows the model's declaration and data
        client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=dat_uri, language_id="opl-data", version=1, text=data_path.read_text())))
        out["dat_hover"] = await client.text_document_hover_async(T.HoverParams(
            T.TextDocumentIdentifier(uri=dat_uri), T.Position(line=2, character=2)))
        # a garbage document still gets answers
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=mod_uri, version=3),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text="dvar {{ ]] \"unterminated\n/* x")]))
        out["garbage"] = await session.diagnostics(mod_uri)
        out["garbage_hover"] = await client.text_document_hover_async(T.HoverParams(doc, T.Position(line=0, character=2)))
        out["garbage_completion"] = await client.text_document_completion_async(T.CompletionParams(doc, T.Position(line=1, character=4)))
    return out, mod_uri, dat_uri


def test_lsp_session_over_stdio(tmp_path):
    out, mod_uri, dat_uri = asyncio.run(_session(tmp_path))
    (d,) = out["first"]
    assert d.code == "OPL0101" and d.severity == T.DiagnosticSeverity.Error and d.source == "pyopl"
    start = TYPO_LINE.index("shipp")  # code points; the emoji before adds one UTF-16 unit
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (14, start + 1, start + 6)
    assert "`shipp`" in d.message
    hover = out["hover"].contents.value
    assert "data `supply`" in hover and "indexed by: `Plants`" in hover
    assert '["Lyon"] = 400' in hover and "3 entries" in hover
    assert "domain: `[0, +infinity)`" in out["hover_dvar"].contents.value
    (loc,) = out["definition"]
    assert loc.uri == mod_uri and (loc.range.start.line, loc.range.start.character, loc.range.end.character) == (4, 6, 12)
    refs = {(r.uri, r.range.start.line) for r in out["references"]}
    assert refs == {(mod_uri, 4), (mod_uri, 14), (dat_uri, 2)}
    labels = {i.label: i for i in out["completion"].items}
    assert {"supply", "Plants", "ship", "forall", "card"} <= set(labels)
    assert labels["card"].detail.startswith("card(S)")
    names = [s.name for s in out["symbols"]]
    assert names[:6] == ["Plants", "Markets", "supply", "demand", "cost", "ship"]
    cons = next(s for s in out["symbols"] if s.name == "subject to")
    assert [c.name for c in cons.children] == ["ctSupply", "ctDemand"]
    fix = next(a for a in out["actions"] if a.edit is not None)
    assert fix.title == "rename to `ship`" and fix.is_preferred
    assert "ship[p][m] <= supply[p]" in out["fixed_text"].split("\n")[14]
    assert list(out["after_fix"]) == []
    assert out["explain_title"] == ["Explain OPL0101"]
    assert out["explain"].startswith("OPL0101 (undeclared-name")
    assert "data `supply`" in out["dat_hover"].contents.value
    assert out["garbage"] and all(g.code.startswith("OPL") for g in out["garbage"])
    assert out["garbage_completion"] is not None and any(i.label == "forall" for i in out["garbage_completion"].items)
