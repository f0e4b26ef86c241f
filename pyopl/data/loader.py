"""Gather data from .dat files, .dat text, Python dicts (or a list of them) into ``{name: DataItem}``."""
from __future__ import annotations

import encodings.utf_8_sig  # noqa: F401  (the codec every .dat is read with: found once, at import)
import os
import re
from pathlib import Path
from typing import Any

from ..diagnostics.diagnostic import Label, Span
from ..diagnostics.reporter import Reporter
from ..limits import DEFAULT_MAX_STRING
from .convert import from_python
from .fastpath import parse_data_fast
from .parser import DataItem, DataItems
from ..files.source_io import SourceProblem, looks_like_path, read_source_file, report_problem, resolve_include, take_include

MAX_INCLUDE_DEPTH = 8


def _is_path(src: Any, source: str = "auto") -> bool:
    """A ``Path`` always; a string only in ``"auto"`` mode when it looks like a ``.dat`` file name
    (:func:`pyopl.files.source_io.looks_like_path`); in ``"text"`` mode a string is always data text."""
    if isinstance(src, Path):
        return True
    if source != "auto" or not isinstance(src, str):
        return False
    return looks_like_path(src, (".dat",))


def load_data(data: Any, reporter: Reporter, sources: dict[str, str], base_dir: str, *, source: str = "auto",
              include_dir: str | None = None, allow_db_writes: bool = False) -> dict[str, DataItem]:
    """Parse every data source; a name given twice is an error pointing at both places.

    ``source`` and ``include_dir`` as in :func:`pyopl.compile_model`: data *text* includes files
    from ``include_dir`` when given, else (``"auto"`` mode only) from ``base_dir``; in ``"text"``
    mode without ``include_dir`` it includes nothing, and opens no spreadsheet, CSV file or
    database either. ``allow_db_writes``: let ``DBExecute`` change tables no ``DBUpdate`` of the
    file writes (:mod:`pyopl.data.connections.confine`)."""
    items: dict[str, DataItem] = DataItems()
    if data is None:
        return items
    text_base = include_dir if include_dir is not None else (base_dir if source == "auto" else None)
    for src in (data if isinstance(data, (list, tuple)) else [data]):
        _load_one(src, reporter, sources, text_base, items, 0, source)
    if items.connections:
        from .connections.confine import check_writes
        from .connections.publish import close_all

        check_writes(items, reporter, allow_db_writes)
        close_all(items.connections.values())  # opened again after the solve, for the writes
    return items


def _load_one(src: Any, reporter: Reporter, sources: dict[str, str], base_dir: str | None, items: dict, depth: int,
              source: str = "auto", at: Span | None = None) -> None:
    if isinstance(src, dict):
        span = Span("<data dict>", 1, 1, 1, 2)
        for name, value in src.items():
            _add(items, DataItem(str(name), from_python(value), span, span, span, "<data dict>"), reporter)
        return
    raw: list = []  # the file's bytes, where they are the text's ASCII encoding (see read_source_file)
    if hasattr(src, "text") and hasattr(src, "name") and not isinstance(src, (str, Path)):
        # a data file already read (``check --fix`` reads it under a lock): pyopl.api._Named
        text, name, base = src.text, src.name, os.path.dirname(os.path.abspath(src.name))
    elif _is_path(src, source):
        path = Path(str(src).strip()) if isinstance(src, str) else src
        if not path.is_absolute() and base_dir is not None and "\0" not in str(path) and not path.exists():
            path = Path(base_dir) / path
        notes: list = []
        try:
            text = read_source_file(path, notes, raw)[0]
        except SourceProblem as p:
            if at is None and p.kind != "encoding":
                p.message = "cannot read the data file `%s`: %s" % (src, p.message.split(": ", 1)[-1])
                p.help = "check the path and the file's permissions"
            report_problem(reporter, p, "data", at, sources)
            return
        for note in notes:  # bytes that are not UTF-8, only inside comments: a warning
            report_problem(reporter, note, "data")
        name = str(src)
        base = str(path.parent)
    else:
        text, name, base = str(src).lstrip("\ufeff"), "<data>", base_dir
    sources[name] = read = text
    text = _cap_strings(text, name, reporter)
    if mentions_dat_script(text):  # .dat scripting: recorded (run by the model's lowering), blanked out
        from ..script.flow.dat_scripts import strip_dat_scripts

        text = strip_dat_scripts(text, name, reporter, items if isinstance(items, DataItems) else None)
    ascii_text = raw[0] if raw and text is read else None  # (a text changed above is encoded where needed)
    for entry in parse_data_fast(text, name, reporter, ascii_text):
        if isinstance(entry, tuple) and entry[0] == "include":
            _include(entry[1], entry[2], reporter, sources, base, items, depth)
        elif isinstance(entry, tuple):  # a data source (SheetConnection, x from DBRead(...), ...)
            from .connections import take_statement

            item = take_statement(entry, reporter, items, base, name)
            if item is not None:
                _add(items, item, reporter)
        else:
            _add(items, entry, reporter)


def _holds(text: str, word: str, key: str, tries: int = 64) -> bool:
    """``word in text``, found from the places of ``key``, a character that occurs once in ``word``.

    Each place of ``key`` is found with one C scan for a single character; ``word`` can only start
    ``word.index(key)`` characters before one.  After ``tries`` places that do not start ``word``
    (a text where ``key`` is common), ``word in text`` answers."""
    off = word.index(key)
    i = text.find(key)
    for _ in range(tries):
        if i < 0:
            return False
        if i >= off and text.startswith(word, i - off):
            return True
        i = text.find(key, i + 1)
    return word in text


def mentions_dat_script(text: str) -> bool:
    """Whether ``text`` holds ``prepare`` or ``invoke`` anywhere (a word, part of one, in a string or
    a comment): the texts whose script blocks :func:`~pyopl.script.flow.dat_scripts.strip_dat_scripts`
    looks for.  The same answer as ``"prepare" in text or "invoke" in text``, which cost 0.1 s CPU on
    a 63 MB text of numbers (``str``'s search skips few characters there: ``0``, ``2`` and ``6`` share
    its filter's bits with ``p``, ``r`` and ``v``); searched from the places of ``a`` and ``k``, which
    occur once in each word and rarely in such a text, it costs about a tenth."""
    return _holds(text, "prepare", "a") or _holds(text, "invoke", "k")


_DATA_STRING = re.compile(r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"')  # (possessive: no memory per character)


def _cap_strings(text: str, name: str, reporter: Reporter) -> str:
    """``text`` with every string literal longer than the compilation's ``max_string`` (1,000,000
    characters by default) reported as ``string-limit`` at its place and emptied, as the model's
    literals are refused (a data string was otherwise unbounded, up to the 1 GiB source limit).
    Only a text longer than the limit can hold one, and ``"`` is searched for in C: a numeric data
    file costs one scan. A match inside a comment counts too (it is as long)."""
    limit = reporter.max_string or DEFAULT_MAX_STRING
    if len(text) <= limit or '"' not in text:
        return text
    long_ones = [m.span() for m in _DATA_STRING.finditer(text) if m.end() - m.start() - 2 > limit]
    for start, end in reversed(long_ones):
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        reporter.emit("string-limit", Span(name, line, column, line, column + (end - start)),
                      "this string has %s characters, more than pyopl allows (%s)" % (f"{end - start - 2:,}", f"{limit:,}"),
                      help="keep long texts out of the data; to allow more, pass `limits=pyopl.Limits(max_string=N)`")
        text = text[:start + 1] + text[end - 1:]
    return text


def _include(rel: str, span: Span, reporter: Reporter, sources: dict, base: str | None, items: dict, depth: int) -> None:
    if base is None:
        reporter.emit("unsupported-feature", span, "`include \"%s\"` in data given as text has no folder to look in" % rel,
                      help="pass `include_dir=` (the folder the included files are in), or give the data as a file")
        return
    target, why = resolve_include(base, rel)
    if why == "nul":
        reporter.emit("data-file-unreadable", span, "the included file name `%s` holds a NUL byte" % rel.replace("\0", "\\0"),
                      help="remove the NUL character from the file name")
        return
    if target is None:
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
    if not take_include(reporter, span):  # a budget on the number of includes, not only their depth
        return
    _load_one(Path(target), reporter, sources, base, items, depth + 1, at=span)


def _add(items: dict, item: DataItem, reporter: Reporter) -> None:
    old = items.get(item.name)
    if old is not None:
        reporter.emit("data-duplicate-name", item.name_span, "`%s` is given a value twice in the data" % item.name,
                      labels=[Label(old.name_span, "first given here")], help="remove one of the two assignments")
        return
    items[item.name] = item
