"""Applying fix-its to a file (with a backup); the edits themselves are :func:`pyopl.fixes.edit.apply_fixes`.

:func:`fix_file` reads, checks and writes back under an exclusive lock on the file, and only
if the file still holds what was read: two ``pyopl check --fix`` runs on one file apply each
fix once, and the backup is the true original.
"""
from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..diagnostics.diagnostic import Diagnostic, Span
from ..files.source_io import BOM, SourceProblem, decode_source
from .edit import apply_fixes
from .select import safe_fixes

MAX_BACKUPS = 100  # FILE.bak, FILE.bak.1 ... FILE.bak.99
_SLUG_OF = {"OPL1122": "write-folder-missing", "OPL1123": "write-disk-full", "OPL1124": "write-target-refused",
            "OPL1125": "write-read-only", "OPL1130": "write-failed"}


@dataclass
class FixOutcome:
    """What :func:`fix_file` did: ``applied`` fixes, the ``backup`` path (None when nothing was
    written), ``problems`` (diagnostics saying why nothing was written: read-only file, file
    changed meanwhile, not UTF-8...) and ``diagnostics`` of the file as it is now."""

    applied: int = 0
    backup: str | None = None
    problems: list[Diagnostic] = field(default_factory=list)
    diagnostics: Any = None


def _check_text(text: str, name: str, data: Any):
    from ..api import _check_named

    return _check_named(text, name, data)


def _problem(slug: str, path: str, message: str, help: str, line: int = 1, column: int = 1) -> Diagnostic:
    from ..diagnostics.registry import lookup

    kind = lookup(slug)
    return Diagnostic(kind.code, "error", message, Span(path, line, column, line, column + 1), help=help)


def fix_file(path: str, data: Any = None) -> FixOutcome:
    """Check the model file ``path`` (with ``data``) and apply the machine-applicable fixes of
    its own diagnostics to it, keeping the original as ``path.bak`` (``.bak.1``, ``.bak.2``...
    when taken; never overwritten, never written through a symbolic link).

    A symbolic link is followed: its target is fixed (the backup sits beside the target).
    Refused, with a diagnostic in ``problems`` and the file untouched: a read-only file
    (OPL1125), a file that is not UTF-8 (OPL1120), a file that changed while the fixes were
    computed (OPL1126), no free backup name (OPL1127), a failed write (OPL1122-OPL1130).
    Line endings, the byte-order mark, the permission bits (and the owner where allowed) stay.
    """
    from ..files.safe_write import WriteError, _from_oserror, write_bytes_safely

    out = FixOutcome()
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except OSError as e:
        out.problems.append(_problem("model-file-unreadable", path, "cannot read `%s`: %s" % (path, e.strerror or e),
                                     "check the path"))
        return out
    if not stat.S_ISREG(st.st_mode):
        out.problems.append(_problem("write-target-refused", path, "`%s` is not a regular file, so it is not fixed" % path,
                                     "fix a model file"))
        return out
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        out.problems.append(_problem("write-read-only", path, "`%s` is read-only, so its fixes are not applied" % path,
                                     "make it writable (`chmod u+w %s`) to let `--fix` change it" % path))
        return out
    fd = _lock(target)
    try:
        original = _read_all(fd)
        try:
            text, bom = decode_source(original, path)
        except SourceProblem as p:
            out.problems.append(_problem("source-not-utf8", path, p.message, p.help, p.line, p.column))
            return out
        diags = _check_text(text, path, data)
        out.diagnostics = diags
        # only fixes that, tried one at a time, remove their error and bring no new one (select.py)
        chosen = safe_fixes(text, None, [d for d in diags if d.file == path], model_file=path,
                            check=lambda m, _d: list(_check_text(m, path, data)))
        new, n = apply_fixes(text, chosen)
        if not n or new == text:
            return out
        with open(target, "rb") as f:  # an editor that ignores the lock may have written meanwhile
            if f.read() != original:
                out.problems.append(_problem("fix-file-changed", path,
                                             "`%s` changed while its fixes were computed; nothing was written" % path,
                                             "run `pyopl check --fix` again"))
                return out
        mode = stat.S_IMODE(st.st_mode)
        try:
            backup = _backup(target, original, mode)
        except OSError as e:
            err = _from_oserror(target + ".bak", e)
            out.problems.append(_problem(_SLUG_OF.get(err.code, "write-failed"), path, err.message, err.help))
            return out
        if backup is None:
            out.problems.append(_problem("fix-backup-refused", path, "no free backup name: `%s.bak` to `%s.bak.%d` are all taken"
                                         % (target, target, MAX_BACKUPS - 1), "remove old backups and run again"))
            return out
        try:
            write_bytes_safely(target, (BOM if bom else b"") + new.encode("utf-8"), mode=mode)
        except WriteError as e:
            os.unlink(backup)
            out.problems.append(_problem(_SLUG_OF.get(e.code, "write-failed"), path, e.message, e.help))
            return out
        out.applied, out.backup = n, backup
        return out
    finally:
        os.close(fd)


def _lock(target: str) -> int:
    """An fd of ``target`` holding an exclusive ``flock``, opened after the lock is taken on the
    file now at that path (another run may have replaced it while this one waited)."""
    import fcntl

    for _ in range(1000):
        fd = os.open(target, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_ino == os.stat(target).st_ino:
                return fd
        except OSError:
            pass
        os.close(fd)  # replaced while we waited: lock the new file
        time.sleep(0.001)
    raise OSError("could not lock %s" % target)


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


def _backup(target: str, data: bytes, mode: int) -> str | None:
    """Write ``data`` to the first free name of ``target.bak``, ``target.bak.1``...; None when all
    are taken. ``O_EXCL`` never opens an existing name (a symbolic link included)."""
    for k in range(MAX_BACKUPS):
        name = target + (".bak" if k == 0 else ".bak.%d" % k)
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
        except FileExistsError:
            continue
        try:
            os.fchmod(fd, mode)  # the umask may have taken bits off
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(name)
            raise
        os.close(fd)
        return name
    return None


def apply_fixes_to_file(path: str, diagnostics: Iterable[Diagnostic] | None = None) -> int:
    """Apply the machine-applicable fixes of ``path`` to it (see :func:`fix_file`; the file is
    re-checked under its lock, so ``diagnostics`` is not used). Returns the count applied."""
    return fix_file(path).applied
