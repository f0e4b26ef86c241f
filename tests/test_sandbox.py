"""Nothing is read or executed from outside where it belongs (issue 14, pyopl side):
text is text, includes stay in their folder tree, no parser pickle from a shared folder."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import pyopl

ROOT = Path(__file__).resolve().parents[1]
GOOD = "dvar float+ x;\nminimize x;\nsubject to { x >= 2; }\n"


# --- a string is text unless the caller says it is a path ----------------------------------------

def test_compile_text_never_opens_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.mod").write_text(GOOD, encoding="utf-8")
    (tmp_path / "plan.dat").write_text("n = 3;\n", encoding="utf-8")
    diags = pyopl.check_text("plan.mod")
    assert diags.errors and "plan.mod" not in diags.sources  # a syntax error, not the file's model
    assert list(diags.sources) == ["<model>"]
    diags = pyopl.check_text("int n = ...;\n" + GOOD, "plan.dat")
    assert diags.errors and all("plan.dat" != f for f in diags.sources)
    with pytest.raises(pyopl.CompileError):
        pyopl.compile_text("plan.mod")
    with pytest.raises(pyopl.CompileError):
        pyopl.compile_model("plan.mod", source="text")


def test_a_path_string_is_still_a_path_in_auto_mode(tmp_path, monkeypatch):
    """README/DESIGN: `compile_model("plan.mod", data="plan.dat")` keeps working."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.mod").write_text("int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n")
    (tmp_path / "plan.dat").write_text("n = 3;\n", encoding="utf-8")
    assert pyopl.solve("plan.mod", data="plan.dat").objective == pytest.approx(3.0)
    assert pyopl.solve(Path("plan.mod"), data=Path("plan.dat")).objective == pytest.approx(3.0)
    diags = pyopl.check("missing.mod")
    assert [d.code for d in diags] == ["OPL0802"]  # a missing file, not a syntax error in "missing.mod"


def test_text_mode_data_include_is_refused_or_confined(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.dat").write_text("n = 42;\n", encoding="utf-8")
    model = "int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n"
    diags = pyopl.check_text(model, 'include "secret.dat";\n')
    assert diags.errors and "42" not in "".join(diags.sources.values())
    runs = tmp_path / "run"
    runs.mkdir()
    (runs / "mine.dat").write_text("n = 5;\n", encoding="utf-8")
    assert pyopl.compile_text(model, 'include "mine.dat";\n', include_dir=runs).solve().objective == pytest.approx(5.0)
    diags = pyopl.check_text(model, 'include "../secret.dat";\n', include_dir=runs)
    assert [d.code for d in diags] == ["OPL0417"]


# --- model include resolves with realpath and stays in the folder tree ---------------------------

def test_model_include_through_a_symlink_cannot_escape(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.mod").write_text("float s = 7;\n", encoding="utf-8")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "link.mod").symlink_to(outside / "secret.mod")
    (proj / "model.mod").write_text('include "link.mod";\ndvar float+ x;\nminimize x;\n', encoding="utf-8")
    diags = pyopl.check(proj / "model.mod")
    assert [d.code for d in diags] == ["OPL0609"] and "outside" in diags[0].message
    assert str(outside / "secret.mod") not in diags.sources
    (proj / "sub").mkdir()
    (proj / "sub" / "part.mod").write_text("float s = 7;\n", encoding="utf-8")
    (proj / "ok.mod").write_text('include "sub/part.mod";\ndvar float+ x;\nminimize x;\nsubject to { x >= s; }\n')
    assert pyopl.solve(proj / "ok.mod").objective == pytest.approx(7.0)


def test_model_and_data_include_share_one_confinement_helper():
    from pyopl.files.source_io import resolve_include

    assert resolve_include("/a/b", "c.dat") == ("/a/b/c.dat", None)
    assert resolve_include("/a/b", "../c.dat")[1] == "outside"
    assert resolve_include("/a/b", "c\0.dat")[1] == "nul"
    assert resolve_include("/a/b", "/etc/passwd")[1] == "outside"


# --- no parser pickle from a shared temporary folder ---------------------------------------------

def test_the_parser_cache_is_plain_data_in_a_private_folder(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(cache), TMPDIR=str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    code = "import pyopl; print(len(pyopl.check('dvar float x; minimize x; subject to { x >= 1; }')))"
    for _ in range(2):  # the first run writes the cache, the second reads it
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.strip() == "0", out.stderr
    assert list((tmp_path / "tmp").iterdir()) == []  # nothing in the shared temporary folder
    folder = cache / "pyopl"
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    files = sorted(folder.iterdir())
    assert files and all(f.suffix == ".tables" for f in files)
    for f in files:  # our tag, a digest and marshal data of plain types (tests/test_parser_tables.py), not a pickle
        assert f.read_bytes().startswith(b"pyopl LALR tables\n") and stat.S_IMODE(f.stat().st_mode) == 0o600


def test_a_cache_folder_others_can_write_is_not_used(tmp_path, monkeypatch):
    from pyopl.syntax import parser_cache

    bad = tmp_path / "pyopl"
    bad.mkdir()
    os.chmod(bad, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parser_cache.cache_folder() is None
    os.chmod(bad, 0o700)
    assert parser_cache.cache_folder() == str(bad)
    other = tmp_path / "elsewhere"
    other.mkdir(mode=0o700)
    os.rmdir(bad)
    bad.symlink_to(other)
    assert parser_cache.cache_folder() is None


def test_a_tampered_cache_is_ignored(tmp_path, monkeypatch):
    from pyopl.syntax import parser_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser_cache.build("opl")  # writes the cache
    (f,) = [p for p in (tmp_path / "pyopl").iterdir() if p.name.startswith("opl-")]
    f.write_text("{not json", encoding="utf-8")
    parser = parser_cache.build("opl")
    assert parser.parse("dvar float x; minimize x;") is not None


def test_tables_from_the_cache_parse_like_fresh_ones(tmp_path, monkeypatch):
    from lark import Lark

    from pyopl.syntax import parser_cache
    from pyopl.syntax.parser import grammar_text

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser_cache.build("opl")
    parser_cache.build("dat")
    cached = parser_cache.build("opl"), parser_cache.build("dat")
    fresh = Lark(grammar_text("opl"), **parser_cache.OPTIONS), Lark(grammar_text("dat"), **parser_cache.OPTIONS)
    assert cached[0] is not fresh[0]
    for mod in sorted((ROOT / "examples").glob("*.mod")):
        text = mod.read_text(encoding="utf-8")
        if "execute" in text or "main" in text:
            continue
        assert cached[0].parse(text) == fresh[0].parse(text), mod.name
    for dat in sorted((ROOT / "examples").glob("*.dat")):
        text = dat.read_text(encoding="utf-8")
        assert cached[1].parse(text) == fresh[1].parse(text), dat.name
