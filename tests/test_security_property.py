"""Issue 33: a property test. Random scripts writing random file names (dot-files, ``..``, links
leading out, the model's own name, data and include names, absolute paths, random strings of
path characters) go through ``pyopl check``, ``pyopl solve``, the language server's analysis and
the MCP ``check``/``solve`` tools inside a scratch tree. Whatever the names, the tree outside the
output folder is byte-identical afterwards (an analysis changes nothing at all), nothing crashes
and an output file appears only where a solve may write it."""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

import pyopl
from pyopl.cli import main as cli
from tree_state import changed, snapshot

NAMES = [".git/config", ".bashrc", ".x", "sub/.hidden", "./.env", "../victim.txt", "../../outside.txt",
         "a/../../victim.txt", "..\\victim.txt", "plan.mod", "plan.dat", "inc.dat", "part.mod", "link",
         "dlink/victim.txt", "fifo", "hard.txt", "sub", "r.txt", "sub/r.txt", "~/r", "", "/etc/passwd",
         "proj/plan.mod", "out/../plan.mod"]
name_st = st.one_of(st.sampled_from(NAMES), st.text(alphabet="ab./\\~-_ ", min_size=1, max_size=10))
file_st = st.tuples(name_st, st.booleans(), st.text(alphabet="xyz\n\"\\", max_size=8))


def _tree(root: str) -> None:
    """proj/{plan.mod (written later), plan.dat -> inc.dat, part.mod, victim.txt, .git/config,
    out/{link -> ../victim.txt, dlink -> .., fifo, hard.txt (= victim.txt), sub/}}, outside.txt."""
    proj = os.path.join(root, "proj")
    os.makedirs(os.path.join(proj, ".git"))
    os.makedirs(os.path.join(proj, "out", "sub"))
    files = {".git/config": "[core]\n", "plan.dat": 'include "inc.dat";\n', "inc.dat": "k = 2;\n",
             "part.mod": "int m = 1;\n", "victim.txt": "precious\n"}
    for rel, text in files.items():
        with open(os.path.join(proj, rel), "w") as f:
            f.write(text)
    with open(os.path.join(root, "outside.txt"), "w") as f:
        f.write("outside\n")
    out = os.path.join(proj, "out")
    os.symlink(os.path.join(proj, "victim.txt"), os.path.join(out, "link"))
    os.symlink(proj, os.path.join(out, "dlink"))
    os.mkfifo(os.path.join(out, "fifo"))
    os.link(os.path.join(proj, "victim.txt"), os.path.join(out, "hard.txt"))


def _model(files: list, where: str) -> str:
    lines = []
    for i, (name, append, text) in enumerate(files):
        args = json.dumps(name) + (", true" if append else "")
        lines.append("  var f%d = new IloOplOutputFile(%s);\n  f%d.writeln(%s);\n  f%d.close();\n"
                     % (i, args, i, json.dumps(text), i))
    script = "execute {\n%s}\n" % "".join(lines)
    head = 'include "part.mod";\nint k = ...;\n' if where == "file" else "int k = 2;\nint m = 1;\n"
    body = "dvar float x in 0..10;\nmaximize x;\nsubject to { x <= k + m; }\n"
    return head + script + body + script.replace("execute {", "execute post {")  # pre- and post-processing


def _quiet(argv: list) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli(argv)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.lists(file_st, min_size=1, max_size=3))
def test_random_script_file_names_never_change_the_tree_outside_the_output_folder(files):
    from pyopl.lsp.analysis import analyse
    from pyopl.mcp import work

    with tempfile.TemporaryDirectory() as root:
        _tree(root)
        proj = os.path.join(root, "proj")
        model = os.path.join(proj, "plan.mod")
        with open(model, "w") as f:
            f.write(_model(files, "file"))
        text = _model(files, "text")
        before = snapshot(root)
        old = os.getcwd()
        os.chdir(proj)  # where a careless implementation would write text models' files
        try:
            diags = pyopl.check(model, os.path.join(proj, "plan.dat"))
            assert not [d for d in diags if d.code == "OPL0605"], diags
            assert not [d for d in analyse(text).diagnostics if d.code == "OPL0605"]
            assert "OPL0605" not in json.dumps(work.check(text, None))
            assert changed(before, snapshot(root)) == []  # analyses change nothing, output folder included
            answer = work.solve(text, None, 10.0, 10)  # text: no output folder, so no file
            assert answer["status"] != "error", answer
            assert changed(before, snapshot(root)) == []
            rc = _quiet(["solve", model, os.path.join(proj, "plan.dat"), "--output-dir", os.path.join(proj, "out")])
            assert rc in (0, 1)
            assert changed(before, snapshot(root), allowed=(os.path.join("proj", "out"),)) == []
            if files[0][0] in ("r.txt", "sub/r.txt"):  # a plain name is written (the property is not vacuous)
                assert os.path.isfile(os.path.join(proj, "out", files[0][0]))
            # inside the output folder the planted links, FIFO and hard link are untouched
            after = snapshot(root)
            for rel in ("link", "dlink", "fifo", "hard.txt"):
                key = os.path.join("proj", "out", rel)
                assert after[key] == before[key]
            rc = _quiet(["solve", model, os.path.join(proj, "plan.dat")])  # the default folder
            assert rc in (0, 1)
            assert changed(before, snapshot(root), allowed=(os.path.join("proj", "out"),
                                                            os.path.join("proj", "plan.out"))) == []
        finally:
            os.chdir(old)


SECRET = "SECRET-7731"


def _reader(names: list, resolve: bool) -> str:
    """A text model whose pre-processing reads each name (and asks `resolvePath` for it) and prints it."""
    lines = []
    for i, name in enumerate(names):
        lines.append("  var g%d = new IloOplInputFile(%s);\n  while (!g%d.eof) writeln(g%d.readline());\n"
                     % (i, json.dumps(name), i, i))
        if resolve:
            lines.append("  writeln(thisOplModel.resolvePath(%s));\n" % json.dumps(name))
    return "int k = 2;\nexecute {\n%s}\ndvar float x in 0..10;\nmaximize x;\nsubject to { x <= k; }\n" % "".join(lines)


def _said(obj) -> str:
    """Everything a front end answered, as text (diagnostics with their help, output, JSON)."""
    if isinstance(obj, dict):
        return json.dumps(obj)
    if hasattr(obj, "script_output"):
        return (obj.script_output or "") + " ".join(d.message + str(d.help) for d in obj.diagnostics)
    return " ".join("%s %s %s" % (d.code, d.message, d.help) for d in obj)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.one_of(st.sampled_from(NAMES + ["own.txt"] * 4), name_st), min_size=1, max_size=3),
       resolve=st.booleans())
def test_random_input_file_names_of_text_models_and_the_editor_read_nothing_outside(names, resolve):
    """Issue 42, critical 1 and 2: a model given as text (`check_text`, `compile_text`/`solve` with
    and without an output folder, MCP `check`/`solve`) and the language server's analysis (no
    document folder, and a document folder) read random names, dot-files, `..` forms, absolute
    paths, links and a hard link included, in a tree whose current folder holds secrets: no secret
    of a file outside the folder they may read reaches an output or a diagnostic, `resolvePath`
    never names the tree, nothing crashes, and only the output folder may change."""
    from pyopl.lsp.analysis import analyse
    from pyopl.mcp import work

    with tempfile.TemporaryDirectory() as root:
        _tree(root)
        proj = os.path.join(root, "proj")
        out = os.path.join(proj, "out")
        for rel in (".env", ".git/config", "victim.txt", "plan.dat"):  # secrets outside the output folder
            with open(os.path.join(proj, rel), "w") as f:
                f.write("%s\n" % SECRET)
        os.unlink(os.path.join(out, "hard.txt"))  # (a hard link reads as the file it is: not planted here)
        with open(os.path.join(out, "own.txt"), "w") as f:
            f.write("mine\n")
        text = _reader(names, resolve)
        before = snapshot(root)
        old = os.getcwd()
        os.chdir(proj)  # the current folder a careless implementation would read
        try:
            answers = [pyopl.check_text(text), pyopl.check_text(text, output_dir=out), work.check(text, None),
                       work.solve(text, None, 10.0, 10), analyse(text).diagnostics,
                       analyse(text, input_dir=out).diagnostics]
            for kw in ({}, {"output_dir": out}):
                try:
                    answers.append(pyopl.solve(text, source="text", **kw))
                except pyopl.CompileError as e:
                    answers.append(e.diagnostics)
            for a in answers:
                said = _said(a)
                assert SECRET not in said and "OPL0605" not in said, said
                # the tree's path appears only as the output folder the caller named (in a help text)
                rest = said.replace(out, "").replace(os.path.realpath(out), "")
                assert root not in rest and os.path.realpath(root) not in rest, said
            assert changed(before, snapshot(root)) == []
            if names == ["own.txt"]:  # (not vacuous: a file of the output folder is read)
                assert "mine" in _said(answers[-1])
        finally:
            os.chdir(old)
