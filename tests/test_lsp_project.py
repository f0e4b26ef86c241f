"""The project setting over stdio: `pyopl.toml` and the `data` initialization option pair a model
with data files of other names; bad settings are diagnostics (OPL1220-OPL1224) and no file outside
the workspace folder is read."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402

from lsp_client import Session  # noqa: E402

MODEL = """float cap = ...;
int n = ...;
dvar float+ x;
maximize x;
subject to { x <= cap * n; }
"""


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _codes(diags) -> list[tuple[str, int, int]]:
    return sorted((d.code, d.range.start.line, d.range.start.character) for d in diags)


async def _good(root: Path) -> dict:
    _tree(root, {"models/plan.mod": MODEL, "models/alone.mod": MODEL, "data/common.dat": "cap = 2.5;\n",
                 "data/week.dat": "// week\nn = 4;\n",
                 "pyopl.toml": '# pairings\n[[run]]\nmodel = "models/plan.mod"\ndata = ["data/common.dat", "data/week.dat"]\n'})
    out = {}
    async with Session(root.as_uri()) as s:
        plan, alone = (root / "models/plan.mod").as_uri(), (root / "models/alone.mod").as_uri()
        s.open(plan, MODEL)
        out["plan"] = await s.diagnostics(plan)
        s.open(alone, MODEL)
        out["alone"] = await s.diagnostics(alone)
        # a mistake in the second data file: shown in that file, at its place
        week = (root / "data/week.dat")
        week.write_text('// week\nn = "four";\n')
        s.open(week.as_uri(), week.read_text(), "opl-data")
        out["week"] = await s.latest(week.as_uri(), lambda ds: bool(ds))
        out["hover"] = await s.client.text_document_hover_async(T.HoverParams(
            T.TextDocumentIdentifier(uri=plan), T.Position(line=0, character=7)))
    return out


def test_pyopl_toml_pairs_a_model_with_its_data_files(tmp_path):
    out = asyncio.run(_good(tmp_path))
    assert list(out["plan"]) == []  # both data files were read: `cap` and `n` have values
    assert {d.code for d in out["alone"]} == {"OPL0401"}  # no setting, no alone.dat: no values
    (d,) = out["week"]
    assert d.code == "OPL0403" and (d.range.start.line, d.range.start.character, d.range.end.character) == (1, 0, 11)
    assert "2.5" in out["hover"].contents.value  # the value read from data/common.dat


async def _bad(root: Path, outside: Path) -> dict:
    (outside / "secret.dat").write_text("cap = 99;\nn = 1;\n")
    _tree(root, {"m.mod": MODEL, "ok.dat": "n = 3;\n",
                 "pyopl.toml": '[[run]]\nmodel = "m.mod"\n'
                               'data = ["ok.dat", "missing.dat", "../%s/secret.dat", "link.dat"]\n'
                               '[[run]]\nmodel = "nothing.mod"\ndata = "ok.dat"\n'
                               '[[run]]\nmodel = 3\n' % outside.name})
    os.symlink(outside / "secret.dat", root / "link.dat")
    out = {}
    async with Session(root.as_uri()) as s:
        toml_uri = (root / "pyopl.toml").as_uri()
        s.open((root / "m.mod").as_uri(), MODEL)
        out["model"] = await s.diagnostics((root / "m.mod").as_uri())
        out["toml"] = s.published[toml_uri][-1]
        # now break the TOML itself and save: the file's diagnostic moves to the bad line
        (root / "pyopl.toml").write_text('[[run]]\nmodel = "m.mod"\ndata = [ok.dat]\n')
        s.client.text_document_did_save(T.DidSaveTextDocumentParams(T.TextDocumentIdentifier(uri=toml_uri)))
        out["toml_broken"] = await s.latest(toml_uri, lambda ds: any(d.code == "OPL1220" for d in ds))
    return out


def test_bad_settings_are_diagnostics_and_nothing_outside_is_read(tmp_path):
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    out = asyncio.run(_bad(root, outside))
    # line 3 (0-based 2) of pyopl.toml: `data = ["ok.dat", "missing.dat", "../elsewhere/secret.dat", "link.dat"]`
    line = 'data = ["ok.dat", "missing.dat", "../elsewhere/secret.dat", "link.dat"]'
    assert _codes(out["toml"]) == sorted([
        ("OPL1222", 2, line.index('"missing.dat"')), ("OPL1223", 2, line.index('"../')),
        ("OPL1223", 2, line.index('"link.dat"')), ("OPL1224", 4, 'model = "nothing.mod"'.index('"')),
        ("OPL1221", 6, 0)])
    codes = [d.code for d in out["model"]]
    # the model: `cap` has no value (secret.dat, outside, was never read), and the setting's problems
    assert sorted(codes) == ["OPL0401", "OPL1222", "OPL1223", "OPL1223"]
    assert all(d.range.start.line == 0 for d in out["model"] if d.code.startswith("OPL12"))
    (broken,) = out["toml_broken"]
    assert broken.code == "OPL1220" and broken.range.start.line == 2 and "TOML" in broken.message


async def _options(root: Path) -> dict:
    _tree(root, {"src/a.mod": MODEL, "inputs/a1.dat": "cap = 1;\nn = 2;\n"})
    out = {}
    async with Session(root.as_uri(), {"pyopl": {"data": {"src/*.mod": ["inputs/a1.dat"]}}}) as s:
        uri = (root / "src/a.mod").as_uri()
        s.open(uri, MODEL)
        out["a"] = await s.diagnostics(uri)
        # the setting changed while the server runs (VS Code sends the `pyopl` section)
        s.client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
            settings={"pyopl": {"data": {"src/*.mod": ["inputs/none.dat"]}}}))
        out["changed"] = await s.latest(uri, lambda ds: any(d.code == "OPL1222" for d in ds))
    async with Session(root.as_uri(), {"data": {"src/*.mod": "/etc/hostname"}}) as s:
        s.open(uri, MODEL)
        out["outside"] = await s.diagnostics(uri)
        out["messages"] = [m.message for m in s.messages]
    async with Session(root.as_uri(), {"data": 5}) as s:
        s.open(uri, MODEL)
        out["shape"] = await s.diagnostics(uri)
        out["shape_messages"] = [m.message for m in s.messages]
    return out


def test_initialization_options_pair_by_glob(tmp_path):
    out = asyncio.run(_options(tmp_path))
    assert list(out["a"]) == []
    assert sorted(d.code for d in out["changed"]) == ["OPL0401", "OPL0401", "OPL1222"]
    assert sorted(d.code for d in out["outside"]) == ["OPL0401", "OPL0401", "OPL1223"]  # `cap`, `n`: no values
    assert any("OPL1223" in m and "/etc/hostname" in m for m in out["messages"])
    assert [d.code for d in out["shape"]] == ["OPL0401", "OPL0401"]  # the setting is ignored: by name, no a.dat
    assert any("OPL1221" in m for m in out["shape_messages"])


async def _link_out(root: Path, outside: Path) -> list:
    (outside / "m.dat").write_text("cap = 1;\nn = 2;\n")
    _tree(root, {"m.mod": MODEL})
    os.symlink(outside / "m.dat", root / "m.dat")  # the partner by name leads outside the workspace
    async with Session(root.as_uri()) as s:
        s.open((root / "m.mod").as_uri(), MODEL)
        return await s.diagnostics((root / "m.mod").as_uri())


def test_the_dat_beside_a_model_is_not_followed_out_of_the_workspace(tmp_path):
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    diags = asyncio.run(_link_out(root, outside))
    assert [d.code for d in diags] == ["OPL0401", "OPL0401"]  # m.dat was not read: no values


async def _encoded(root: Path) -> dict:
    """A model and its data in a folder whose name an editor percent-encodes in the uri (a space and
    a non-ASCII letter: VS Code sends `my%20pl%C3%A4ne/plan.mod`)."""
    folder = root / "my planë"
    _tree(folder, {"plan.mod": MODEL, "plan.dat": "cap = 2.5;\nn = 4;\n"})  # as saved: no mistake
    out = {}
    async with Session(root.as_uri()) as s:
        mod, dat = (folder / "plan.mod").as_uri(), (folder / "plan.dat").as_uri()
        assert "%20" in mod and "%C3%AB" in mod  # (Path.as_uri encodes as editors do)
        # the editor's texts, not saved yet, have a mistake each: the diagnostics are of these
        s.open(mod, MODEL.replace("x <= cap * n", "x <= capp * n"))
        out["mod"] = await s.latest(mod, lambda ds: bool(ds))
        s.open(dat, "cap = 2.5;\nn = \"four\";\n", "opl-data")
        out["dat"] = await s.latest(dat, lambda ds: bool(ds))
        out["hover"] = await s.client.text_document_hover_async(T.HoverParams(
            T.TextDocumentIdentifier(uri=mod), T.Position(line=0, character=7)))
    return out


def test_documents_whose_uri_is_percent_encoded_get_diagnostics_and_hover(tmp_path):
    """pygls keeps open documents under their unquoted uri: the server looked them up by the uri as
    sent, found nothing, and checked the file as saved on disk instead of the editor's text (a new,
    unsaved file got no diagnostics and no hover at all) for every document in a folder with a space
    or a non-ASCII letter in its name."""
    out = asyncio.run(_encoded(tmp_path))
    assert [(d.code, d.range.start.line, d.range.start.character) for d in out["mod"]] == [("OPL0101", 4, 18)]
    assert "did you mean `cap`?" in out["mod"][0].message
    assert [(d.code, d.range.start.line) for d in out["dat"]] == [("OPL0403", 1)]  # n = "four" for an int
    assert out["hover"] is not None and "float cap" in out["hover"].contents.value
