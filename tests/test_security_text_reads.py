"""Issue 42, critical 1 (and issue 43, class 9): what a script may *read*.

A model given as text (``compile_text``, ``check_text``, ``solve(source="text")``, the MCP tools)
has no folder of its own: ``new IloOplInputFile(name)`` reads only inside the output folder the
user named (``output_dir=``), never the process's current folder, and ``resolvePath`` never hands
out the absolute working folder. A script that writes a file and reads it back in the same run
sees the file it wrote (in a solve: the file in the output folder; in an analysis: the text the
sink kept).
"""
from __future__ import annotations

import json
import os

import pytest

import pyopl
from pyopl.mcp import work
from tree_state import changed, snapshot

SECRET = "SECRET-TOKEN-4242"
TAIL = "dvar float x in 0..10;\nmaximize x;\nsubject to { x <= 3; }\n"


def _reader(name: str) -> str:
    return ('execute {\n  var f = new IloOplInputFile(%s);\n  while (!f.eof) { var l = f.readline(); writeln(l); '
            'if (l != "") throw l; }\n}\n' % json.dumps(name)) + TAIL


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    """A working folder holding a secret `.env` and a plain file, as a server's would."""
    root = tmp_path / "work"
    root.mkdir()
    (root / ".env").write_text("API_KEY=%s\n" % SECRET)
    (root / "notes.txt").write_text("%s\n" % SECRET)
    monkeypatch.chdir(root)
    return root


def _texts(diags) -> str:
    return " ".join("%s %s %s" % (d.message, d.help or "", " ".join(d.notes or [])) for d in diags)


@pytest.mark.parametrize("name", [".env", "notes.txt", "./notes.txt", "sub/../notes.txt"])
def test_a_text_model_reads_no_file_of_the_current_folder(cwd, name):
    before = snapshot(cwd)
    diags = pyopl.check_text(_reader(name))
    assert [d.code for d in diags] == ["OPL1056"], diags
    assert "given as text" in diags[0].message and SECRET not in _texts(diags)
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_text(_reader(name))
    assert [d.code for d in e.value.diagnostics] == ["OPL1056"] and SECRET not in _texts(e.value.diagnostics)
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.solve(_reader(name), source="text")
    assert [d.code for d in e.value.diagnostics] == ["OPL1056"] and SECRET not in _texts(e.value.diagnostics)
    assert changed(before, snapshot(cwd)) == []


def test_the_mcp_tools_read_no_file_of_the_current_folder(cwd):
    checked = work.check(_reader(".env"), None)
    solved = work.solve(_reader("notes.txt"), None, 10.0, 100)
    assert SECRET not in json.dumps(checked) and SECRET not in json.dumps(solved)
    assert [d["code"] for d in checked["diagnostics"]] == ["OPL1056"]
    assert "OPL1056" in [d["code"] for d in solved["diagnostics"]]


def test_exists_of_a_text_model_does_not_probe_the_current_folder(cwd):
    # `exists` would tell the script which files the server's folder holds: the name is refused first
    probe = 'execute { var f = new IloOplInputFile(".env"); writeln(f.exists); }\n' + TAIL
    assert [d.code for d in pyopl.check_text(probe)] == ["OPL1056"]


def test_resolve_path_of_a_text_model_never_names_the_working_folder(cwd):
    text = 'execute { writeln("[" + thisOplModel.resolvePath("") + "|" + thisOplModel.resolvePath("a.txt") + "]"); }\n' + TAIL
    r = pyopl.solve(text, source="text")
    assert r.status == "optimal"
    assert str(cwd) not in r.script_output and os.path.realpath(str(cwd)) not in r.script_output
    assert "[|a.txt]" in r.script_output


def test_a_text_model_reads_inside_its_output_folder_only(cwd, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "vals.txt").write_text("7\n")
    text = 'execute { var f = new IloOplInputFile("vals.txt"); writeln("got " + f.readline()); }\n' + TAIL
    r = pyopl.solve(text, source="text", output_dir=out)
    assert r.status == "optimal" and "got 7" in r.script_output
    for name in ("../work/notes.txt", str(cwd / "notes.txt"), ".hidden"):
        (out / ".hidden").write_text(SECRET)
        diags = pyopl.check_text(_reader(name), output_dir=out)
        assert [d.code for d in diags] in (["OPL1056"], ["OPL1065"]), (name, diags)
        assert SECRET not in _texts(diags)


WRITE_THEN_READ = """execute {
  var o = new IloOplOutputFile("round.txt");
  o.writeln("first");
  o.writeln("second");
  o.close();
  var f = new IloOplInputFile("round.txt");
  writeln("exists=" + f.exists);
  while (!f.eof) writeln("read:" + f.readline());
  f.close();
}
""" + TAIL


def test_a_script_reads_back_the_file_it_wrote(tmp_path):
    # issue 43, class 9: the read sees the output folder the write went to (IBM resolves both the same way)
    mod = tmp_path / "plan.mod"
    mod.write_text(WRITE_THEN_READ)
    r = pyopl.solve(mod)
    assert r.status == "optimal", r.diagnostics
    assert "exists=true" in r.script_output and "read:first\nread:second\n" in r.script_output
    assert (tmp_path / "plan.out" / "round.txt").read_text() == "first\nsecond\n"
    out = tmp_path / "o"
    out.mkdir()
    r = pyopl.solve(WRITE_THEN_READ, source="text", output_dir=out)
    assert r.status == "optimal" and "read:first\nread:second\n" in r.script_output


def test_an_analysis_reads_back_what_the_sink_kept(tmp_path):
    # `check` writes nothing, yet the script sees what it wrote, so check and solve agree
    mod = tmp_path / "plan.mod"
    mod.write_text(WRITE_THEN_READ.replace('writeln("exists=" + f.exists);', 'if (!f.exists) fail("not read back");'))
    before = snapshot(tmp_path)
    assert list(pyopl.check(mod)) == []
    assert changed(before, snapshot(tmp_path)) == []
