"""Reading model and data files, and resolving ``include``, the one way every reader does it.

- Files are UTF-8 (a leading byte-order mark is dropped).  Anything else is a
  :class:`SourceProblem` naming the byte, its offset and its line and column, never text with
  U+FFFD replacement characters (two different Latin-1 files would then read the same).
- Lines and columns are counted as Lark and every diagnostic count them: only ``"\\n"`` ends a
  line (see :func:`line_starts`); ``str.splitlines`` also breaks on CR, form feed, ``\\x1c``-``\\x1e``,
  ``\\x85``, U+2028 and U+2029, which the grammar reads as blanks or as characters of a comment.
- ``include`` (model and data alike) resolves with ``os.path.realpath`` and must stay inside
  the including file's folder tree: a symbolic link cannot lead out of it.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass

BOM = b"\xef\xbb\xbf"
MAX_SOURCE_BYTES = 1 << 30  # 1 GiB


@dataclass
class SourceProblem(Exception):
    """A file could not be read as source text.

    ``kind``: ``missing``, ``folder``, ``unreadable`` or ``encoding``; ``path``: the name given;
    ``message`` and ``help``: for the user; ``line``/``column``: where (1-based, characters),
    1/1 unless ``kind == "encoding"``; ``shown``: the text to show in the diagnostic's snippet."""

    kind: str
    path: str
    message: str
    help: str
    line: int = 1
    column: int = 1
    shown: str = ""

    def __str__(self) -> str:
        return self.message


def read_source_file(path: "str | os.PathLike[str]", notes: list | None = None,
                     ascii_bytes: list | None = None) -> tuple[str, bool]:
    """``(text, had_bom)`` of a UTF-8 file; raises :class:`SourceProblem`.

    ``notes``: when given, bytes that are not UTF-8 but lie only inside comments are accepted
    (see :func:`decode_source`) and a :class:`SourceProblem` of kind ``encoding-comment`` is
    appended to it, for the caller to report as a warning.  ``ascii_bytes``: when given, the file's
    bytes are appended to it where they are the text's ASCII encoding (no BOM, every character
    ASCII), for a caller that reads the text's bytes (the .dat bulk readers: no second copy made)."""
    name = os.fspath(path)
    if "\0" in name:
        raise SourceProblem("missing", name, "the file name `%s` holds a NUL byte" % name.replace("\0", "\\0"),
                            "give a file name without a NUL character")
    try:
        # O_NONBLOCK: opening a FIFO nobody writes returns at once (reading it then waits, as a pipe should)
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SourceProblem("missing", name, "file not found: %s" % name,
                            "check the path (relative paths start at the current folder)") from None
    except OSError as e:
        raise _unreadable(name, e) from None
    try:
        st = os.fstat(fd)
        from .reads import note

        note(name, st)  # a file the run read: no writer of the run may replace it (files/reads.py)
        if stat.S_ISDIR(st.st_mode):
            raise SourceProblem("folder", name, "%s is a folder, not a file" % name,
                                "give the path of the .mod or .dat file inside it")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_SOURCE_BYTES + 1)  # bounded: `/dev/zero` given as a model never ends
        if len(data) > MAX_SOURCE_BYTES:
            raise SourceProblem("unreadable", name, "`%s` is larger than %d MiB, the most pyopl reads as source"
                                % (name, MAX_SOURCE_BYTES >> 20), "give a model or data file, not a device or a huge file")
    except OSError as e:
        raise _unreadable(name, e) from None
    finally:
        os.close(fd)
    text, bom = decode_source(data, name, notes)
    if ascii_bytes is not None and not bom and len(data) == len(text) and text.isascii():  # (UTF-16 is not)
        ascii_bytes.append(data)
    return text, bom


def _unreadable(name: str, e: OSError) -> SourceProblem:
    return SourceProblem("unreadable", name, "cannot read `%s`: %s" % (name, e.strerror or e),
                         "check the file's permissions (and that it is a file)")


def decode_source(data: bytes, name: str, notes: list | None = None) -> tuple[str, bool]:
    """``(text, had_bom)`` from the bytes of a file; raises :class:`SourceProblem` (``encoding``)
    at the first byte that is not UTF-8.

    With ``notes`` (a list), a file whose non-UTF-8 bytes all lie inside ``//`` or ``/* */``
    comments (real models carry Latin-1 dates and names there) is read with each such byte
    replaced by U+FFFD, one character per byte so lines and columns stay exact, and a problem of
    kind ``encoding-comment`` (a warning) is appended to ``notes``. Bytes in comments never reach
    a value, so no two different texts can compile alike; anywhere else they stay an error."""
    _refuse_foreign_format(data, name)
    wide = _wide_unicode(data, name, notes)
    if wide is not None:
        return wide, False
    bom = data.startswith(BOM)
    body = data[len(BOM):] if bom else data
    try:
        return body.decode("utf-8"), bom
    except UnicodeDecodeError as e:
        if notes is not None:
            cp = _windows_1252(body, e, name, bom)
            if cp is not None:  # read as Windows-1252, as OPL on Windows does, with a warning naming the byte
                notes.append(cp[1])
                return cp[0], bom
            lenient = body.decode("utf-8", errors="surrogateescape")
            bad = [i for i, c in enumerate(lenient) if "\udc80" <= c <= "\udcff"]
            if bad and _all_in_comments(lenient, bad):
                before = lenient[:bad[0]]
                line = before.count("\n") + 1
                column = bad[0] - (before.rfind("\n") + 1) + 1
                text = "".join("\ufffd" if "\udc80" <= c <= "\udcff" else c for c in lenient)
                notes.append(SourceProblem(
                    "encoding-comment", name,
                    "`%s` is not UTF-8: %d byte%s inside comments (the first at line %d, column %d) read as U+FFFD"
                    % (name, len(bad), "" if len(bad) == 1 else "s", line, column),
                    "save the file as UTF-8 (a Latin-1 file converts with `iconv -f latin1 -t utf-8`)",
                    line, column))
                return text, bom
        before = body[:e.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8")) + 1
        offset = e.start + (len(BOM) if bom else 0)
        shown = body.decode("utf-8", errors="backslashreplace")  # only for the snippet; never compiled
        raise SourceProblem(
            "encoding", name,
            "`%s` is not UTF-8: byte 0x%02x at byte %d (line %d, column %d): %s"
            % (name, body[e.start], offset, line, column, e.reason),
            "save the file as UTF-8 (a Latin-1 file converts with `iconv -f latin1 -t utf-8`)",
            line, column, shown) from None


#: byte-order marks of the UTF-16 and UTF-32 encodings (UTF-32's first: it starts like UTF-16 LE's)
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
              (b"\xfe\xff", "utf-16"))


#: Files that are not text at all, by their first bytes (their formats' magic numbers): what each is,
#: and how an OPL data file reads it instead (docs/data-sources.md). Read as text they gave "not UTF-8"
#: with a line of the archive's bytes as the snippet.
_FOREIGN_FORMATS = (
    (b"PK\x03\x04", "a ZIP archive (an Excel .xlsx workbook is one)",
     'read a workbook from a .dat file: `SheetConnection book("%s"); x from SheetRead(book, "Sheet1!A1:C3");` '
     "(docs/data-sources.md)"),
    (b"SQLite format 3\x00", "a SQLite database",
     'read it from a .dat file: `DBConnection db("sqlite", "%s"); x from DBRead(db, "SELECT ...");` '
     "(docs/data-sources.md)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old-format Office file (an Excel .xls workbook is one)",
     "save it as .xlsx (Excel 2007 or later) and read it from a .dat file with `SheetConnection` and "
     "`SheetRead` (docs/data-sources.md); `%s` itself is not read"),
)


def _refuse_foreign_format(data: bytes, name: str) -> None:
    """Raise an ``encoding`` :class:`SourceProblem` for a file that is a workbook, a database or an
    archive (:data:`_FOREIGN_FORMATS`) given where a model or data file goes, naming what it is."""
    for magic, what, how in _FOREIGN_FORMATS:
        if data.startswith(magic):
            raise SourceProblem("encoding", name, "`%s` is %s, not OPL text" % (name, what),
                                how % os.path.basename(name))


def _wide_unicode(data: bytes, name: str, notes: list | None) -> str | None:
    """The text of a file that starts with a UTF-16 or UTF-32 byte-order mark (Windows Notepad's
    "Unicode", PowerShell 5's ``>``), or whose first bytes are ASCII in UTF-16 (a NUL in every other
    byte, and no mark), read as that encoding with a warning appended to ``notes``
    (``encoding-utf16``); None for any other file. Read as UTF-8 it was a ``\\0`` error at every other
    character, after a warning that it was read as Windows-1252. Without ``notes`` (``check --fix``,
    which rewrites UTF-8 files only) it is an ``encoding`` problem naming the encoding."""
    for mark, codec in _WIDE_BOMS:
        if data.startswith(mark):
            kind = "%s-%s" % (codec.upper(), "LE" if mark[0] == 0xFF else "BE")
            how = "it starts with a %s byte-order mark" % kind
            break
    else:
        head = data[:64]  # no mark: ASCII text in UTF-16 has a NUL in every other byte (no OPL text has one)
        if len(data) % 2 or len(head) < 4 or b"\0" not in head:
            return None
        if not head[1::2].strip(b"\0") and b"\0" not in head[0::2]:
            codec, kind = "utf-16-le", "UTF-16-LE"
        elif not head[0::2].strip(b"\0") and b"\0" not in head[1::2]:
            codec, kind = "utf-16-be", "UTF-16-BE"
        else:
            return None
        how = "every other byte of its start is NUL"
    fix = "save the file as UTF-8 (Notepad: Save as, Encoding UTF-8; PowerShell: `Out-File -Encoding utf8`; " \
          "`iconv -f %s -t utf-8`)" % codec
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        if how.startswith("every"):
            return None
        raise SourceProblem("encoding", name, "`%s` starts with a %s byte-order mark but is not %s: %s at byte %d"
                            % (name, kind, kind, e.reason, e.start), fix, 1, 1) from None
    if notes is None:
        raise SourceProblem("encoding", name, "`%s` is %s, not UTF-8 (%s)" % (name, kind, how), fix, 1, 1)
    notes.append(SourceProblem("encoding-utf16", name, "`%s` is %s, not UTF-8 (%s): read as %s"
                               % (name, kind, how, kind), fix, 1, 1))
    return text


def _windows_1252(body: bytes, e: UnicodeDecodeError, name: str, bom: bool) -> tuple[str, SourceProblem] | None:
    """``body`` (not UTF-8, first bad byte at ``e.start``) read as Windows-1252, the encoding OPL
    files written on Windows mostly have, with the warning naming the file and the byte that
    decided it; None when some byte has no Windows-1252 character (0x81, 0x8d, 0x8f, 0x90, 0x9d)."""
    try:
        text = body.decode("cp1252")
    except UnicodeDecodeError:
        return None
    before = body[:e.start]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
    offset = e.start + (len(BOM) if bom else 0)
    return text, SourceProblem(
        "encoding-cp1252", name,
        "`%s` is not UTF-8 (byte 0x%02x at byte %d, line %d, column %d, is not): read as Windows-1252, where it is %r"
        % (name, body[e.start], offset, line, column, bytes([body[e.start]]).decode("cp1252")),
        "save the file as UTF-8 to be sure of its characters (`iconv -f cp1252 -t utf-8`)", line, column)


def _all_in_comments(text: str, positions: list[int]) -> bool:
    """Whether every offset in ``positions`` (sorted) lies inside a ``//`` or ``/* */`` comment of
    OPL text (model or data; string literals are skipped so a ``//`` inside one is no comment)."""
    spans = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append((i, j))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            spans.append((i, j))
            i = j
        else:
            i += 1
    k = 0
    for p in positions:
        while k < len(spans) and spans[k][1] <= p:
            k += 1
        if k == len(spans) or not spans[k][0] <= p < spans[k][1]:
            return False
    return True


def line_starts(text: str) -> list[int]:
    """Offset of the first character of each line, lines ending at ``"\\n"`` only (as Lark counts)."""
    starts = [0]
    find = text.find
    k = find("\n")
    while k >= 0:
        starts.append(k + 1)
        k = find("\n", k + 1)
    return starts


def source_lines(text: str) -> list[str]:
    """The lines of ``text`` as diagnostics number them (split at ``"\\n"`` only, without it)."""
    return text.split("\n")


def offset_of(text: str, starts: list[int], line: int, column: int) -> int | None:
    """Character offset of 1-based ``(line, column)``, or None when it is not in ``text``
    (a column may point just past the last character of its line)."""
    if not 1 <= line <= len(starts) or column < 1:
        return None
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)  # the "\n" (or the end)
    off = start + column - 1
    return off if off <= end else None


def resolve_include(base_dir: str, rel: str) -> tuple[str | None, str | None]:
    """``(real_path, None)`` for ``include "rel"`` written in a file of ``base_dir``, or
    ``(None, why)``: ``"nul"`` (a NUL byte in the name) or ``"outside"`` (the real path, symbolic
    links followed, is not inside the real ``base_dir``). Does not check that the file exists."""
    if "\0" in rel or "\0" in base_dir:
        return None, "nul"
    root = os.path.realpath(base_dir)
    target = os.path.realpath(os.path.join(root, rel))
    if os.path.commonpath([root, target]) != root:
        return None, "outside"
    return target, None


_SLUGS = {"model": {"missing": "cli-file-not-found", "folder": "cli-path-is-folder",
                    "unreadable": "model-file-unreadable", "encoding": "source-not-utf8",
                    "encoding-comment": "source-comment-not-utf8", "encoding-cp1252": "source-read-as-cp1252",
                    "encoding-utf16": "source-read-as-utf16"},
          "data": {"missing": "data-file-unreadable", "folder": "data-file-unreadable",
                   "unreadable": "data-file-unreadable", "encoding": "source-not-utf8",
                   "encoding-comment": "source-comment-not-utf8", "encoding-cp1252": "source-read-as-cp1252",
                   "encoding-utf16": "source-read-as-utf16"}}


#: Most files one compilation may read through ``include`` (model and data includes together). The
#: depth limit (8) alone lets a file that includes another six times, over seven levels, read
#: 335,922 files (minutes); real models include a few files.
MAX_INCLUDES = 256


def take_include(reporter, span) -> bool:
    """Count one more included file against :data:`MAX_INCLUDES`; False (and, the first time,
    ``include-limit`` at ``span``) when the budget is spent, so the caller skips the file and any
    later include costs nothing. ``reporter``: the compilation's :class:`~pyopl.diagnostics.reporter.Reporter`."""
    n = getattr(reporter, "includes_read", 0)
    reporter.includes_read = n + 1
    if n < MAX_INCLUDES:
        return True
    if n == MAX_INCLUDES:
        reporter.emit("include-limit", span, "this `include` is one more than the %d included files a compilation "
                      "may read (model and data includes together)" % MAX_INCLUDES,
                      help="include each file once; an include inside a file that is included several times "
                           "multiplies (six includes over seven levels are 335,922 files)")
    return False


def report_problem(reporter, problem: SourceProblem, role: str, at=None, sources: dict | None = None) -> None:
    """Emit ``problem`` as a diagnostic: ``role`` is ``model`` (a model or included model file) or
    ``data``; ``at`` is the span of the ``include`` that named the file, used unless the problem
    lies inside the file (an encoding error points at its byte)."""
    from ..diagnostics.diagnostic import Span

    if problem.kind in ("encoding", "encoding-comment", "encoding-cp1252", "encoding-utf16") or at is None:
        at = Span(problem.path, problem.line, problem.column, problem.line, problem.column + 1)
    if problem.shown and sources is not None:
        sources.setdefault(problem.path, problem.shown)  # for the snippet only
    reporter.emit(_SLUGS[role][problem.kind], at, problem.message, help=problem.help)


def looks_like_path(src: str, suffixes: tuple[str, ...]) -> bool:
    """In ``source="auto"`` mode, a string is a file name when it is one line (under 4096
    characters) ending in one of ``suffixes`` with no ``;``, ``{`` or ``}`` in it: model and data
    text always hold one of those, so no valid text is mistaken for a path."""
    return ("\n" not in src and len(src) < 4096 and src.strip().endswith(suffixes)
            and not any(ch in src for ch in ";{}"))
