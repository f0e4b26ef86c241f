"""Gather data from .dat files, .dat text, Python dicts (or a list of them) into ``{name: DataItem}``."""
from __future__ import annotations

import encodings.utf_8_sig  # noqa: F401  (the codec every .dat is read with: found once, at import)
import os
from pathlib import Path
from typing import Any

from ..diagnostics.diagnostic import Label, Span
from ..diagnostics.reporter import Reporter
from .convert import from_python
from .fastpath import parse_data_fast
from .parser import DataItem

MAX_INCLUDE_DEPTH = 8


def _is_path(src: Any) -> bool:
    if isinstance(src, Path):
        return True
    return isinstance(src, str) and "\n" not in src and src.strip().endswith(".dat") and len(src) < 4096


def load_data(data: Any, reporter: Reporter, sources: dict[str, str], base_dir: str) -> dict[str, DataItem]:
    """Parse every data source; a name given twice is an error pointing at both places."""
    items: dict[str, DataItem] = {}
    if data is None:
        return items
    for src in (data if isinstance(data, (list, tuple)) else [data]):
        _load_one(src, reporter, sources, base_dir, items, 0)
    return items


def _load_one(src: Any, reporter: Reporter, sources: dict[str, str], base_dir: str, items: dict, depth: int) -> None:
    if isinstance(src, dict):
        span = Span("<data dict>", 1, 1, 1, 2)
        for name, value in src.items():
            _add(items, DataItem(str(name), from_python(value), span, span, span, "<data dict>"), reporter)
        return
    if _is_path(src):
        path = Path(src)
        if not path.is_absolute() and not path.exists():
            path = Path(base_dir) / path
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError as e:
            reporter.emit("data-file-unreadable", Span(str(src), 1, 1, 1, 2),
                          "cannot read the data file `%s`: %s" % (src, e.strerror or e),
                          help="check the path and the file's permissions")
            return
        name = str(src)
        base = str(path.parent)
    else:
        text, name, base = str(src).lstrip("\ufeff"), "<data>", base_dir
    sources[name] = text
    if "prepare" in text or "invoke" in text:  # .dat scripting: reported as unsupported, blanked out
        from ..script.dat_scripts import strip_dat_scripts

        text = strip_dat_scripts(text, name, reporter)
    for entry in parse_data_fast(text, name, reporter):
        if isinstance(entry, tuple) and entry[0] == "include":
            _include(entry[1], entry[2], reporter, sources, base, items, depth)
        else:
            _add(items, entry, reporter)


def _include(rel: str, span: Span, reporter: Reporter, sources: dict, base: str, items: dict, depth: int) -> None:
    target = os.path.realpath(os.path.join(base, rel))
    root = os.path.realpath(base)
    if os.path.commonpath([target, root]) != root:
        reporter.emit("data-include-outside", span, "`include \"%s\"` points outside the data file's folder" % rel,
                      help="keep included files in the same folder tree as the data file")
        return
    if depth >= MAX_INCLUDE_DEPTH:
        reporter.emit("data-include-depth", span, "includes nest more than %d levels deep" % MAX_INCLUDE_DEPTH,
                      help="check for a file that includes itself")
        return
    if not os.path.exists(target):
        reporter.emit("data-file-unreadable", span, "the included file `%s` does not exist" % rel,
                      help="check the path, relative to the including file")
        return
    _load_one(Path(target), reporter, sources, base, items, depth + 1)


def _add(items: dict, item: DataItem, reporter: Reporter) -> None:
    old = items.get(item.name)
    if old is not None:
        reporter.emit("data-duplicate-name", item.name_span, "`%s` is given a value twice in the data" % item.name,
                      labels=[Label(old.name_span, "first given here")], help="remove one of the two assignments")
        return
    items[item.name] = item
