"""The knowledge base: folders of literate exemplars.

Layout: ``knowledge_base/<name>/`` holding ``description.md`` (the problem in
plain language), ``model.mod``, ``data.dat`` (may be absent or empty) and
``meta.json`` (free-form; ``expected_objective``/``objective``, ``status``,
``tags``, ``patterns``, ``domain`` and ``title`` are read when present). A folder without
``description.md`` and ``model.mod`` is skipped; a file that is not UTF-8 text, or a ``meta.json``
that is not a JSON object, is a :class:`~syntagm.errors.ConfigError` naming the file.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError


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


def _read_kb_file(path: Path) -> str:
    """The text of one knowledge-base file; ConfigError naming it when it is not UTF-8 or unreadable
    (a non-UTF-8 ``model.mod`` ended ``syntagm solve --kb DIR`` with ``internal error: UnicodeDecodeError``)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"knowledge base file {path} is not UTF-8 text (byte {e.start}): save it as UTF-8") from None
    except OSError as e:
        raise ConfigError(f"cannot read knowledge base file {path}: {e.strerror or e}") from None


def _read_meta(path: Path) -> dict[str, Any]:
    """The exemplar's ``meta.json`` as a dict; ConfigError naming the file and the place when it is not a
    JSON object (it was silently read as ``{}``, so the exemplar lost its tags and patterns for retrieval)."""
    text = _read_kb_file(path)
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}): fix it or remove the file") from None
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: expected a JSON object ({{\"title\": ..., \"tags\": [...]}}), "
                          f"got a {type(loaded).__name__}")
    return loaded


def load_knowledge_base(path: str | Path | None = None) -> list[Exemplar]:
    """Every exemplar under ``path`` (default :func:`default_kb_path`), sorted by name; ``[]`` if none.

    Raises :class:`~syntagm.errors.ConfigError` naming a file that is not UTF-8 text or a
    ``meta.json`` that is not a JSON object."""
    root = Path(path) if path is not None else default_kb_path()
    if root is None or not root.is_dir():
        return []
    out: list[Exemplar] = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        desc, mod = d / "description.md", d / "model.mod"
        if not (desc.is_file() and mod.is_file()):
            continue
        dat = d / "data.dat"
        meta = _read_meta(d / "meta.json") if (d / "meta.json").is_file() else {}
        out.append(Exemplar(d.name, _read_kb_file(desc).strip(), _read_kb_file(mod),
                            _read_kb_file(dat) if dat.is_file() else "", meta))
    return out
