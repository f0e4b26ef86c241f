"""The wheel holds everything the code reads at run time.

Builds the wheel from a copy of the sources (so no stale ``build/`` folder can hide a
missing file) with the installed setuptools, then checks that (1) every file of the
``pyopl`` and ``syntagm`` packages in the source tree is in the wheel, (2) the resources
the code opens with :mod:`importlib.resources` are there by name, and (3) the unpacked
wheel, imported outside the checkout, compiles a model and finds the knowledge base.
The CI smoke test (``tools/wheel_smoke.sh``) installs the same wheel into a fresh venv.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pyopl", "syntagm")
#: Top-level resource folders and the package each is installed as (setup.py's package_dir).
RESOURCE_FOLDERS = {"grammar": "pyopl/grammar", "knowledge_base": "syntagm/knowledge_base"}


def _source_files() -> set[str]:
    """Every file the wheel must hold, by its path inside the wheel."""
    out = set()
    roots = {pkg: pkg for pkg in PACKAGES} | RESOURCE_FOLDERS
    for folder, installed in roots.items():
        for p in (ROOT / folder).rglob("*"):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo"):
                out.add(installed + "/" + p.relative_to(ROOT / folder).as_posix())
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools", minversion="77")  # the `license = "Apache-2.0"` (SPDX) form needs it
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for pkg in PACKAGES + tuple(RESOURCE_FOLDERS):
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(dist), str(src)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(dist.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_every_package_file_is_in_the_wheel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_source_files() - names)
    assert not missing, "files of the packages missing from the wheel: %s" % missing[:20]


def test_the_resources_the_code_opens_are_in_the_wheel(wheel):
    from syntagm.templates import PROMPT_VERSIONS

    names = set(zipfile.ZipFile(wheel).namelist())
    needed = {"pyopl/grammar/opl.lark", "pyopl/grammar/dat.lark", "pyopl/grammar/PyOPL.md", "syntagm/prices.json"}
    needed |= {"syntagm/prompts/%s.v%d.md" % (n, v) for n, v in PROMPT_VERSIONS.items()}
    assert needed - names == set()
    exemplars = {n.split("/")[2] for n in names if n.startswith("syntagm/knowledge_base/") and n.endswith("/model.mod")}
    on_disk = {p.parent.name for p in (ROOT / "knowledge_base").glob("*/model.mod")}
    assert exemplars == on_disk and len(exemplars) >= 40


def test_wheel_metadata_names_the_distribution_and_licence(wheel):
    z = zipfile.ZipFile(wheel)
    assert wheel.name.startswith("pyopl-")
    meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "\nName: pyopl\n" in meta
    assert "\nLicense-Expression: Apache-2.0\n" in meta
    entry = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "pyopl = pyopl.cli:run" in entry and "syntagm = syntagm.cli:main" in entry


def test_unpacked_wheel_works_outside_the_checkout(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = ("import json, pyopl, syntagm\n"
             "from syntagm.rag.knowledge import load_knowledge_base\n"
             "from syntagm.templates import grammar_reference\n"
             "m = pyopl.compile_model('dvar float+ x; minimize 2*x; subject to { x >= 3; }')\n"
             "r = m.solve()\n"
             "print(json.dumps({'pyopl': pyopl.__file__, 'syntagm': syntagm.__file__, 'objective': r.objective,\n"
             "                  'exemplars': len(load_knowledge_base()), 'reference': grammar_reference('full')[1]}))\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("SYNTAGM_KB", None)
    proc = subprocess.run([sys.executable, "-c", probe], cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["pyopl"].startswith(str(site)) and got["syntagm"].startswith(str(site))
    assert got["objective"] == 6.0
    assert got["exemplars"] == len(list((ROOT / "knowledge_base").glob("*/model.mod")))
    assert got["reference"] == "grammar/PyOPL.md"
