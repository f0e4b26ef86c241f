"""The README's layout section matches the tree (issue 30: it missed pyopl/script, pyopl/lsp,
pyopl/mcp, editors/ and tools/): every folder it names exists, and every folder of the
repository's top level and of pyopl/ is named."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORED = {"__pycache__", "build", "dist", "shared", "node_modules"}


def _listed() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Layout"):]
    block = section[section.index("```") + 3:]
    block = block[:block.index("```")]
    return {line.split()[0].rstrip("/") for line in block.strip().splitlines() if line.strip()}


def _folders() -> set[str]:
    def visible(p: Path) -> bool:
        return p.is_dir() and not p.name.startswith(".") and p.name not in IGNORED and not p.name.endswith(".egg-info")

    top = {p.name for p in ROOT.iterdir() if visible(p)}
    inner = {"pyopl/" + p.name for p in (ROOT / "pyopl").iterdir() if visible(p)}
    return top | inner


def test_every_listed_path_exists():
    missing = sorted(p for p in _listed() if not (ROOT / p).exists())
    assert not missing, "README's layout names paths that do not exist: %s" % missing


def test_every_folder_is_listed():
    listed = _listed()
    missing = sorted(f for f in _folders() if f not in listed and f != "pyopl")
    assert not missing, "README's layout misses: %s" % missing
