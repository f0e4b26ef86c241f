"""Issue 33, classes 1 and 2: what a model's scripts may write, and when.

Class 1: ``pyopl check`` (CLI and API), the language server's analysis and the MCP ``check`` tool
run pre-processing scripts (their data changes the model) but write no file at all.
Class 2: ``solve``/``export`` write a script's files only inside the output folder (``--output-dir``,
default ``<model stem>.out``), never a dot-file or dot-folder, never a file the run reads, never
through a link, never a device or FIFO.

Every test runs the hostile model in a scratch tree and compares the whole tree, byte for byte,
before and after (tests/tree_state.py); only the output folder may change, and only by the
files a benign script writes.
"""
from __future__ import annotations

import json
import os

import pytest

import pyopl
from tree_state import changed, run_cli, snapshot

TAIL = "dvar float x in 0..10;\nmaximize x;\nsubject to { x <= n; }\n"


def _writer(name: str, text: str = "pwned") -> str:
    return ('int n = 3;\nexecute {\n  var g = new IloOplOutputFile(%s);\n  g.writeln(%s);\n  g.close();\n}\n'
            % (json.dumps(name), json.dumps(text))) + TAIL


_run = run_cli


@pytest.fixture
def tree(tmp_path):
    """A project folder like a user's: a git repository, dot-files, the model beside its data."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    (root / ".vscode").mkdir()
    (root / ".vscode" / "settings.json").write_text("{}\n")
    (root / ".bashrc").write_text("# mine\n")
    (root / "other.mod").write_text("dvar float y;\nminimize y;\n")
    (root / "victim.txt").write_text("precious\n")
    (tmp_path / "outside.txt").write_text("outside\n")
    return root


def _codes(text: str) -> list[str]:
    import re

    return re.findall(r"error\[(OPL\d{4})\]", text)


# ---------------------------------------------------------------------- class 1: analysis writes nothing
def test_the_issues_git_config_attack_writes_nothing_on_check(tree):
    # the model of issue 33: a check must never rewrite `.git/config` (git would run fsmonitor)
    (tree / "plan.mod").write_text(_writer(".git/config", "[core]\\n\\tfsmonitor = \\\"touch RAN; false\\\""))
    before = snapshot(tree.parent)
    rc, out, _ = _run(["check", str(tree / "plan.mod")])
    assert changed(before, snapshot(tree.parent)) == []
    assert rc == 1 and _codes(out) == ["OPL1065"] and "dot-folder `.git`" in out and "plan.mod:3:11" in out
    rc, _, err = _run(["solve", str(tree / "plan.mod")])  # nor a solve
    assert rc == 1 and _codes(err) == ["OPL1065"] and changed(before, snapshot(tree.parent)) == []


@pytest.mark.parametrize("front", ["cli-check", "api-check", "check-fix", "lsp", "mcp-check"])
def test_analysis_paths_run_scripts_but_write_no_file(tree, front, monkeypatch):
    # a benign model that writes a results file: a solve writes it, no analysis does (nor makes the folder)
    text = _writer("res.txt", "x").replace("int n = 3;", "int n = 3;\nexecute { n = 4; }")
    (tree / "plan.mod").write_text(text)
    monkeypatch.chdir(tree)
    before = snapshot(tree.parent)
    if front == "cli-check":
        rc, out, _ = _run(["check", "plan.mod"])
        assert rc == 0 and "no problems found" in out
    elif front == "api-check":
        assert list(pyopl.check(tree / "plan.mod", output_dir=tree)) == []
    elif front == "check-fix":
        rc, _, _ = _run(["check", "--fix", "plan.mod"])
        assert rc == 0
    elif front == "lsp":
        from pyopl.lsp.analysis import analyse

        an = analyse(text)
        # a model given as text has no output folder: the same refusal as `check_text`, nothing written
        assert [d.code for d in an.diagnostics] == [d.code for d in pyopl.check_text(text)] == ["OPL1056"]
        assert an.values["n"] == 4  # the pre-processing script ran
    else:
        from pyopl.mcp import work

        answer = work.check(text, None)
        assert [d["code"] for d in answer["diagnostics"]] == ["OPL1056"]
    assert changed(before, snapshot(tree.parent)) == []
    rc, _, _ = _run(["solve", "plan.mod"])
    assert rc == 0 and (tree / "plan.out" / "res.txt").read_text() == "x\n"
    assert changed(before, snapshot(tree.parent), allowed=("proj/plan.out",)) == []


def test_check_reports_what_solve_would_refuse(tree):
    # the analysis checks every name as a solve would (same code, same place), and writes nothing
    (tree / "plan.out").mkdir()
    os.symlink(tree / "victim.txt", tree / "plan.out" / "link.txt")
    (tree / "plan.mod").write_text(_writer("link.txt"))
    before = snapshot(tree.parent)
    check = [(d.code, d.line, d.column) for d in pyopl.check(tree / "plan.mod")]
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(tree / "plan.mod")
    assert check == [(d.code, d.line, d.column) for d in e.value.diagnostics] == [("OPL1065", 3, 11)]
    assert changed(before, snapshot(tree.parent)) == [] and (tree / "victim.txt").read_text() == "precious\n"


# ---------------------------------------------------------------------- class 2: where a solve may write
HOSTILE = [
    (".git/config", "OPL1065"), (".bashrc", "OPL1065"), (".vscode/settings.json", "OPL1065"),
    ("sub/.hidden", "OPL1065"), ("./.env", "OPL1065"), ("../victim.txt", "OPL1056"), ("../../outside.txt", "OPL1056"),
    ("a/../../victim.txt", "OPL1056"), ("..\\victim.txt", "OPL1056"), ("", "OPL1056"), ("~/x", "OPL1056"),
]


@pytest.mark.parametrize("name,code", HOSTILE)
@pytest.mark.parametrize("where", ["default", "model-folder"])
def test_hostile_names_are_refused_and_nothing_changes(tree, name, code, where):
    (tree / "plan.mod").write_text(_writer(name))
    (tree / "sub").mkdir()
    before = snapshot(tree.parent)
    argv = ["solve", str(tree / "plan.mod")] + (["--output-dir", str(tree)] if where == "model-folder" else [])
    rc, _, err = _run(argv)
    assert rc == 1 and _codes(err) == [code], err
    # the default folder may have been made (empty); nothing else anywhere
    assert changed(before, snapshot(tree.parent), allowed=("proj/plan.out",)) == []
    assert not (tree / "plan.out").exists() or os.listdir(tree / "plan.out") == []


@pytest.mark.parametrize("target", ["plan.mod", "plan.dat", "inc.dat", "part.mod"])
def test_a_script_never_writes_a_file_the_run_reads(tree, target):
    # model, data, a data include and a model include: with --output-dir at the model's own folder
    (tree / "part.mod").write_text("int m = 1;\n")
    (tree / "inc.dat").write_text("k = 2;\n")
    (tree / "plan.dat").write_text('include "inc.dat";\n')
    (tree / "plan.mod").write_text('include "part.mod";\nint k = ...;\n' + _writer(target))
    before = snapshot(tree.parent)
    rc, _, err = _run(["solve", str(tree / "plan.mod"), str(tree / "plan.dat"), "--output-dir", str(tree)])
    assert rc == 1 and _codes(err) == ["OPL1066"], err
    assert "is a file this run reads" in err
    assert changed(before, snapshot(tree.parent)) == []


def test_a_hard_link_to_an_input_is_refused_by_identity(tree):
    (tree / "plan.mod").write_text(_writer("alias.txt"))
    (tree / "out").mkdir()
    os.link(tree / "plan.mod", tree / "out" / "alias.txt")  # the model under another name
    before = snapshot(tree.parent)
    rc, _, err = _run(["solve", str(tree / "plan.mod"), "--output-dir", str(tree / "out")])
    assert rc == 1 and _codes(err) == ["OPL1065"] and "hard links" in err
    assert changed(before, snapshot(tree.parent)) == []


@pytest.mark.parametrize("kind", ["file-link", "folder-link", "dangling-link", "fifo", "folder", "hard-link"])
def test_links_fifos_and_folders_in_the_output_folder_are_refused(tree, kind):
    out = tree / "plan.out"
    out.mkdir()
    name = "r.txt"
    if kind == "file-link":
        os.symlink(tree / "victim.txt", out / name)
    elif kind == "folder-link":
        os.symlink(tree, out / "up")
        name = "up/victim.txt"
    elif kind == "dangling-link":
        os.symlink(tree / "new-file.txt", out / name)
    elif kind == "fifo":
        os.mkfifo(out / name)
    elif kind == "folder":
        (out / name).mkdir()
    else:
        os.link(tree / "victim.txt", out / name)
    (tree / "plan.mod").write_text(_writer(name))
    before = snapshot(tree.parent)
    rc, _, err = _run(["solve", str(tree / "plan.mod")])
    assert rc == 1 and _codes(err)[0] in ("OPL1065", "OPL1056"), err
    assert changed(before, snapshot(tree.parent)) == []
    assert (tree / "victim.txt").read_text() == "precious\n" and not (tree / "new-file.txt").exists()


def test_the_default_output_folder_may_not_be_a_link(tree):
    os.symlink(tree / ".git", tree / "plan.out")
    (tree / "plan.mod").write_text(_writer("config"))
    before = snapshot(tree.parent)
    rc, _, err = _run(["solve", str(tree / "plan.mod")])
    assert rc == 1 and _codes(err) == ["OPL1065"] and "is a symbolic link" in err
    assert changed(before, snapshot(tree.parent)) == []


def test_a_benign_script_writes_only_its_file_in_the_output_folder(tree):
    (tree / "plan.mod").write_text(_writer("results/x.txt", "ok").replace(
        "execute {", 'execute {\n  var a = new IloOplOutputFile("top.txt", true); a.write("1"); a.close();', 1))
    (tree / "out" / "results").mkdir(parents=True)
    before = snapshot(tree.parent)
    rc, _, err = _run(["solve", str(tree / "plan.mod"), "--output-dir", str(tree / "out")])
    assert rc == 0, err
    assert (tree / "out" / "results" / "x.txt").read_text() == "ok\n" and (tree / "out" / "top.txt").read_text() == "1"
    assert changed(before, snapshot(tree.parent), allowed=("proj/out",)) == []
    rc, _, _ = _run(["solve", str(tree / "plan.mod"), "--output-dir", str(tree / "out")])  # append mode appends
    assert rc == 0 and (tree / "out" / "top.txt").read_text() == "11"


def test_export_runs_scripts_into_the_output_folder_too(tree):
    (tree / "plan.mod").write_text(_writer(".bashrc"))
    before = snapshot(tree.parent)
    rc, _, err = _run(["export", str(tree / "plan.mod"), "--lp", str(tree / "plan.lp")])
    assert rc == 1 and _codes(err) == ["OPL1065"]
    assert changed(before, snapshot(tree.parent), allowed=("proj/plan.out",)) == []
    (tree / "plan.mod").write_text(_writer("r.txt", "e"))
    (tree / "eo").mkdir()
    rc, _, err = _run(["export", str(tree / "plan.mod"), "--lp", str(tree / "plan.lp"), "--output-dir", str(tree / "eo")])
    assert rc == 0 and (tree / "eo" / "r.txt").read_text() == "e\n" and (tree / "plan.lp").exists()


def test_python_api_output_dir_and_text_models(tree, monkeypatch):
    monkeypatch.chdir(tree)
    text = _writer("r.txt", "api")
    before = snapshot(tree.parent)
    with pytest.raises(pyopl.CompileError) as e:  # text has no folder of its own: never the current folder
        pyopl.compile_text(text)
    assert [d.code for d in e.value.diagnostics] == ["OPL1056"] and "given as text" in e.value.diagnostics[0].message
    assert changed(before, snapshot(tree.parent)) == []
    (tree / "o").mkdir()
    r = pyopl.solve(text, source="text", output_dir=tree / "o")
    assert r.status == "optimal" and (tree / "o" / "r.txt").read_text() == "api\n"
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_text(_writer(".git/config"), output_dir=tree)
    assert [d.code for d in e.value.diagnostics] == ["OPL1065"]
    assert changed(before, snapshot(tree.parent), allowed=("proj/o",)) == []


def test_main_sub_models_are_inputs_and_write_into_mains_folder(tree):
    # a model loaded by `main` is a file of the run: no script may overwrite it; its own files go to
    # the main model's output folder
    (tree / "sub.mod").write_text(_writer("sub-res.txt", "sub"))
    (tree / "plan.mod").write_text(
        'main {\n  var src = new IloOplModelSource("sub.mod");\n  var def = new IloOplModelDefinition(src);\n'
        '  var m = new IloOplModel(def, cplex);\n  m.generate();\n  cplex.solve();\n'
        '  var f = new IloOplOutputFile("sub.mod");\n  f.writeln("gone");\n  f.close();\n}\n')
    before = snapshot(tree.parent)
    rc, out, err = _run(["solve", str(tree / "plan.mod"), "--output-dir", str(tree)])
    assert rc != 0 and "OPL1066" in _codes(err + out), err + out
    assert (tree / "sub.mod").read_text().startswith("int n = 3;")
    assert changed(before, snapshot(tree.parent), allowed=("proj/sub-res.txt",)) == []
    assert (tree / "sub-res.txt").read_text() == "sub\n"


def test_check_with_output_dir_sees_the_inputs_a_solve_would_protect(tree):
    # `check --output-dir` at the model's own folder reports the write over the model (OPL1066), and writes nothing
    (tree / "plan.mod").write_text(_writer("plan.mod"))
    before = snapshot(tree.parent)
    rc, out, _ = _run(["check", str(tree / "plan.mod"), "--output-dir", str(tree)])
    assert rc == 1 and _codes(out) == ["OPL1066"] and "plan.mod:3:11" in out
    rc, _, err = _run(["solve", str(tree / "plan.mod"), "--output-dir", str(tree)])
    assert rc == 1 and _codes(err) == ["OPL1066"]
    assert changed(before, snapshot(tree.parent)) == []
