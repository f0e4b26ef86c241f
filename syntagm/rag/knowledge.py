"""The knowledge base: folders of literate exemplars.

Layout: ``knowledge_base/<name>/`` holding ``description.md`` (the problem in
plain language), ``model.mod``, ``data.dat`` (may be absent or empty) and
``meta.json`` (free-form; ``expected_objective``/``objective``, ``status``,
``tags``, ``patterns``, ``domain`` and ``title`` are read when present). A folder without
``description.md`` and ``model.mod`` is skipped.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Exemplar:
    """One exemplar: ``name`` (folder), texts, ``meta`` (the parsed meta.json, ``{}`` if absent)."""

    name: str
    description: str
    model: str
    data: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def expected_objective(self) -> float | None:
        for k in ("expected_objective", "objective", "optimal_objective"):
            v = self.meta.get(k)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return float(v)
        exp = self.meta.get("expected")
        if isinstance(exp, dict) and isinstance(exp.get("objective"), (int, float)):
            return float(exp["objective"])
        return None

    @property
    def search_text(self) -> str:
        """What retrieval indexes: title, domain, tags, patterns and description."""
        words = [str(self.meta.get("title", "")), str(self.meta.get("domain", ""))]
        for key in ("tags", "patterns"):
            v = self.meta.get(key) or []
            words.append(" ".join(map(str, v)).replace("_", " ") if isinstance(v, list) else str(v))
        return " ".join(words + [self.description])


def packaged_kb_path() -> Path | None:
    """The knowledge base shipped with syntagm (the repository's top-level ``knowledge_base/``,
    installed as the package ``syntagm.knowledge_base``), found with :mod:`importlib.resources`;
    ``None`` when the installation lacks it."""
    from importlib import resources

    try:
        root = resources.files("syntagm.knowledge_base")
    except ModuleNotFoundError:  # a copy of the sources run without installing
        return None
    # Installed from a wheel or a source tree the package is plain files; a zip import is not supported.
    return Path(str(root)) if root.is_dir() else None


def default_kb_path() -> Path | None:
    """``$SYNTAGM_KB``, else ``./knowledge_base``, else the packaged one (:func:`packaged_kb_path`); ``None`` if absent."""
    for c in (os.environ.get("SYNTAGM_KB"), "knowledge_base"):
        if c and Path(c).is_dir():
            return Path(c)
    return packaged_kb_path()


def load_knowledge_base(path: str | Path | None = None) -> list[Exemplar]:
    """Every exemplar under ``path`` (default :func:`default_kb_path`), sorted by name; ``[]`` if none."""
    root = Path(path) if path is not None else default_kb_path()
    if root is None or not root.is_dir():
        return []
    out: list[Exemplar] = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        desc, mod = d / "description.md", d / "model.mod"
        if not (desc.is_file() and mod.is_file()):
            continue
        dat = d / "data.dat"
        meta: dict[str, Any] = {}
        if (d / "meta.json").is_file():
            try:
                loaded = json.loads((d / "meta.json").read_text(encoding="utf-8"))
                meta = loaded if isinstance(loaded, dict) else {}
            except (json.JSONDecodeError, OSError):
                meta = {}
        out.append(Exemplar(d.name, desc.read_text(encoding="utf-8").strip(), mod.read_text(encoding="utf-8"),
                            dat.read_text(encoding="utf-8") if dat.is_file() else "", meta))
    return out
