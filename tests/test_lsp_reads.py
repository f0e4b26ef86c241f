"""Issue 42, critical 2: the language server reads a document's files in the document's own folder,
inside the workspace, as a model file would; never the server's working folder, never outside the
workspace (also not for `documentSymbol`/`hover` on a file nobody opened)."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402

from lsp_client import Session  # noqa: E402

SECRET = "SECRET-TOKEN-4242"
TAIL = "dvar float x in 0..10;\nmaximize x;\nsubject to { x <= 3; }\n"


def _reader(name: str) -> str:
    return ('execute {\n  var f = new IloOplInputFile("%s");\n  while (!f.eof) { var l = f.readline(); '
            'if (l != "") throw "read " + l; }\n}\n' % name) + TAIL


async def _session(ws: Path, elsewhere: Path) -> dict:
    out = {}
    async with Session(ws.as_uri()) as s:
        for key, name in (("env", ".env"), ("plain", "notes.txt"), ("own", "vals.txt"), ("link", "link.txt")):
            uri = (ws / "a" / ("%s.mod" % key)).as_uri()
            s.open(uri, _reader(name))
            out[key] = await s.diagnostics(uri)
        writer = (ws / "a" / "writer.mod").as_uri()  # writes a result file, as `pyopl check` accepts
        s.open(writer, 'execute { var f = new IloOplOutputFile("res.txt"); f.writeln(1); f.close(); }\n' + TAIL)
        out["writer"] = await s.diagnostics(writer)
        far = (elsewhere / "far.mod").as_uri()
        s.open(far, _reader("notes.txt"))  # a document outside the workspace: its folder is not read
        out["far"] = await s.diagnostics(far)
        hidden = (elsewhere / "hidden.mod").as_uri()  # never opened, outside the workspace
        out["symbols"] = await s.client.text_document_document_symbol_async(
            T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=hidden)))
        out["hover"] = await s.client.text_document_hover_async(T.HoverParams(
            T.TextDocumentIdentifier(uri=hidden), T.Position(line=0, character=5)))
        inside = (ws / "a" / "inside.mod").as_uri()  # never opened, inside the workspace: still answered
        out["inside"] = await s.client.text_document_document_symbol_async(
            T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=inside)))
    return out


def test_documents_read_their_own_folder_inside_the_workspace_only(tmp_path, monkeypatch):
    srv, ws, elsewhere = tmp_path / "srv", tmp_path / "ws", tmp_path / "elsewhere"
    for d in (srv, ws / "a", elsewhere):
        d.mkdir(parents=True)
    (srv / ".env").write_text("API_KEY=%s\n" % SECRET)  # the server's working folder
    (srv / "notes.txt").write_text("%s\n" % SECRET)
    (ws / "a" / "vals.txt").write_text("from-the-document-folder\n")
    (elsewhere / "notes.txt").write_text("%s\n" % SECRET)
    os.symlink(srv / "notes.txt", ws / "a" / "link.txt")  # a link in the workspace leading out
    (elsewhere / "hidden.mod").write_text("int %s = 1;\n" % SECRET)
    (ws / "a" / "inside.mod").write_text("int visible = 1;\n" + TAIL)
    monkeypatch.chdir(srv)
    out = asyncio.run(_session(ws, elsewhere))
    for key in ("env", "plain", "link", "far"):
        assert all(SECRET not in d.message for d in out[key]), (key, out[key])
    assert list(out["env"]) == [] and list(out["plain"]) == []  # missing beside the document: `exists` is false, no read
    assert [d.code for d in out["link"]] == ["OPL1056"]  # the link leads out of the document's folder
    assert [d.code for d in out["far"]] == ["OPL1056"]  # outside the workspace: no folder to read
    (own,) = out["own"]
    assert "read from-the-document-folder" in own.message  # the document's folder is its folder
    # issue 42 (minor): a false OPL1056 before (the document had no output folder); still nothing written
    assert list(out["writer"]) == [] and not (ws / "a" / "writer.out").exists()
    assert out["symbols"] is None and out["hover"] is None  # the file was not read: nothing to show
    assert [sym.name for sym in out["inside"]][:1] == ["visible"]
