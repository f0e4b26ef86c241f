"""Issue 33, class 3: the command line's own outputs (``solve -o/--csv/--log-file``,
``export --lp/--mps``) never replace a file the run read: the model, a data file, and every
file either of them ``include``s (OPL1250), by name, through a symbolic link or as a hard link.
The whole scratch tree is compared byte for byte before and after (tests/tree_state.py)."""
from __future__ import annotations

import json
import os

import pytest

from tree_state import changed, run_cli, snapshot


_run = run_cli


@pytest.fixture
def run_tree(tmp_path):
    """A model that includes `part.mod`, data that includes `inc.dat` which includes `deep/more.dat`."""
    (tmp_path / "deep").mkdir()
    (tmp_path / "part.mod").write_text("int k = ...;\n")
    (tmp_path / "m.mod").write_text('include "part.mod";\nint n = ...;\ndvar float x in 0..10;\nmaximize x;\n'
                                    'subject to { x <= n + k; }\n')
    (tmp_path / "d.dat").write_text('include "inc.dat";\n')
    (tmp_path / "inc.dat").write_text('n = 4;\ninclude "deep/more.dat";\n')
    (tmp_path / "deep" / "more.dat").write_text("k = 1;\n")
    return tmp_path


READ = ["m.mod", "d.dat", "part.mod", "inc.dat", "deep/more.dat"]


@pytest.mark.parametrize("flag", ["-o", "--csv", "--log-file", "--lp", "--mps"])
@pytest.mark.parametrize("victim", READ)
def test_no_output_replaces_a_file_the_run_read(run_tree, flag, victim):
    before = snapshot(run_tree)
    cmd = "export" if flag in ("--lp", "--mps") else "solve"
    rc, out, err = _run([cmd, str(run_tree / "m.mod"), str(run_tree / "d.dat"), flag, str(run_tree / victim),
                         "--format", "json"])
    assert rc == 2, err
    d = json.loads(out)["diagnostics"][0]
    assert d["code"] == "OPL1250" and flag in d["message"] and victim.split("/")[-1] in d["message"]
    assert changed(before, snapshot(run_tree)) == []


@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_an_included_file_under_another_name_is_refused(run_tree, how):
    link = run_tree / "alias.txt"
    (os.symlink if how == "symlink" else os.link)(run_tree / "deep" / "more.dat", link)
    before = snapshot(run_tree)
    rc, _, err = _run(["solve", str(run_tree / "m.mod"), str(run_tree / "d.dat"), "-o", str(link)])
    assert rc == 2 and "error[OPL1250]" in err and "a file this run reads" in err
    assert changed(before, snapshot(run_tree)) == []


def test_outputs_that_are_no_input_are_written(run_tree):
    before = snapshot(run_tree)
    rc, _, err = _run(["solve", str(run_tree / "m.mod"), str(run_tree / "d.dat"), "-o", str(run_tree / "r.json"),
                       "--csv", str(run_tree / "r.csv")])
    assert rc == 0, err
    assert json.loads((run_tree / "r.json").read_text())["objective"] == 5  # x <= n + k = 4 + 1
    assert changed(before, snapshot(run_tree)) == ["r.csv", "r.json"]
