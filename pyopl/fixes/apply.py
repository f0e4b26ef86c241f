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
from pathlib import Path
from typing import Any, Iterable

from ..diagnostics.diagnostic import Diagnostic, Span
from ..files.source_io import BOM, SourceProblem, decode_source
from .edit import apply_fixes

MAX_BACKUPS = 100  # FILE.bak, FILE.bak.1 ... FILE.bak.99
_SLUG_OF = {"OPL1122": "write-folder-missing", "OPL1123": "write-disk-full", "OPL1124": "write-target-refused",
            "OPL1125": "write-read-only", "OPL1130": "write-failed"}


@dataclass
class FixOutcome:
    """What :func:`fix_file` did: ``applied`` fixes, the ``backup`` path of the model (of the first
    data file when only data was fixed; None when nothing was written), ``backups`` per file, ``problems`` (diagnostics saying why nothing was written: read-only file, file
    changed meanwhile, not UTF-8...) and ``diagnostics`` of the file as it is now."""

    applied: int = 0
    backup: str | None = None
    problems: list[Diagnostic] = field(default_factory=list)
    diagnostics: Any = None
    backups: dict[str, str] = field(default_factory=dict)  # each written file -> its backup


def _check_text(text: str, name: str, data: Any):
    from ..api import _check_named

    return _check_named(text, name, data)


def _problem(slug: str, path: str, message: str, help: str, line: int = 1, column: int = 1) -> Diagnostic:
    from ..diagnostics.registry import lookup

    kind = lookup(slug)
    return Diagnostic(kind.code, "error", message, Span(path, line, column, line, column + 1), help=help)


def _refusal(path: str) -> Diagnostic | None:
    """Why ``path`` cannot be fixed in place (unreadable, not a regular file, read-only), or None."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except OSError as e:
        return _problem("model-file-unreadable", path, "cannot read `%s`: %s" % (path, e.strerror or e), "check the path")
    if not stat.S_ISREG(st.st_mode):
        return _problem("write-target-refused", path, "`%s` is not a regular file, so it is not fixed" % path,
                        "fix a model file")
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        return _problem("write-read-only", path, "`%s` is read-only, so its fixes are not applied" % path,
                        "make it writable (`chmod u+w %s`) to let `--fix` change it" % path)
    return None


def _data_files(data: Any) -> list[str]:
    """The names of the ``.dat`` files among ``data`` (a Path, a file-name string, a list of them; dicts and
    data text are not files)."""
    from ..data.loader import _is_path

    items = data if isinstance(data, (list, tuple)) else ([] if data is None else [data])
    return [str(d).strip() if isinstance(d, str) else str(d) for d in items if _is_path(d)]


def fix_file(path: str, data: Any = None, _seen: set | None = None) -> FixOutcome:
    """Check the model file ``path`` (with ``data``) and apply the machine-applicable fixes of
    its own diagnostics, and of its ``.dat`` files' diagnostics, to those files, keeping each
    original as ``FILE.bak`` (``.bak.1``, ``.bak.2``... when taken; never overwritten, never
    written through a symbolic link).

    The fixes are found in up to :data:`~pyopl.fixes.select.FIX_ROUNDS` rounds
    (:func:`~pyopl.fixes.select.fix_in_rounds`): a fix that a syntax error hid is applied in
    the same run. A symbolic link is followed: its target is fixed (the backup sits beside the
    target). Refused, with a diagnostic in ``problems`` and the file untouched: a read-only
    file (OPL1125; a read-only data file is only read), a file that is not UTF-8 (OPL1120), a
    file that changed while the fixes were computed (OPL1126; then no file is written), no free
    backup name (OPL1127), a failed write (OPL1122-OPL1130). Line endings, the byte-order
    mark, the permission bits (and the owner where allowed) stay. The sub-models a ``main`` loads
    are fixed too, each as a model file of its own.
    """
    out = FixOutcome()
    refused = _refusal(path)
    if refused is not None:
        out.problems.append(refused)
        return out
    files = [path]
    for f in _data_files(data):
        if f not in files and os.path.realpath(f) not in {os.path.realpath(g) for g in files} and _refusal(f) is None:
            files.append(f)  # an unwritable data file is read as usual, never fixed
    fds: dict[str, int] = {}
    try:
        for f in sorted(files, key=os.path.realpath):  # one order for every run: no deadlock
            fds[f] = _lock(os.path.realpath(f))
        originals, texts, boms = {}, {}, {}
        for f in list(files):
            originals[f] = _read_all(fds[f])
            try:
                texts[f], boms[f] = decode_source(originals[f], f)
            except SourceProblem as p:
                if f == path:
                    out.problems.append(_problem("source-not-utf8", f, p.message, p.help, p.line, p.column))
                    return out
                files.remove(f)  # the check reports it; nothing of it is fixed
        _fix_locked(path, data, [f for f in files if f in texts], originals, texts, boms, out)
    finally:
        for fd in fds.values():
            os.close(fd)
    _fix_submodels(path, files, out, _seen)
    return out


def _fix_submodels(path: str, files: list[str], out: FixOutcome, seen: set | None) -> None:
    """The sub-models a ``main`` of ``path`` loads (checked with it: :mod:`pyopl.script.flow.submodels`) that have
    machine-applicable fixes are fixed the same way, each on its own (their data come from ``main`` at run
    time, so none is given); each file once."""
    seen = seen if seen is not None else set()
    seen.update(os.path.realpath(f) for f in files)
    root = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    subs = []
    for d in out.diagnostics or []:
        real = os.path.realpath(d.file) if not d.file.startswith("<") else None
        if real is None or real in seen or not d.file.endswith(".mod") or not d.is_error or d.fix is None \
                or d.fix.applicability != "machine-applicable" or os.path.commonpath([root, real]) != root:
            continue
        seen.add(real)
        subs.append(d.file)
    for sub in subs:
        got = fix_file(sub, None, seen)
        out.applied += got.applied
        out.backups.update(got.backups)
        out.problems.extend(got.problems)


def _fix_locked(path: str, data: Any, files: list[str], originals: dict, texts: dict, boms: dict,
                out: FixOutcome) -> None:
    """The fixes of ``files`` (locked, read into ``texts``), found and written; ``out`` filled."""
    from ..api import _Named
    from ..files.safe_write import WriteError, _from_oserror, write_bytes_safely
    from .select import fix_in_rounds

    texts = {f: texts[f] for f in files}
    items = data if isinstance(data, (list, tuple)) else ([] if data is None else [data])

    def check(t: dict[str, str]):
        named = [_Named(t[name], name) if name in t else d
                 for d, name in ((d, str(d).strip() if isinstance(d, (str, Path)) else None) for d in items)]
        return _check_text(t[path], path, named if isinstance(data, (list, tuple)) else (named[0] if named else None))

    new_texts, n, diags = fix_in_rounds(texts, check)
    out.diagnostics = diags
    changed = [f for f in files if new_texts[f] != texts[f]]
    if not n or not changed:
        return
    for f in changed:  # an editor that ignores the lock may have written meanwhile
        with open(os.path.realpath(f), "rb") as fh:
            if fh.read() != originals[f]:
                out.problems.append(_problem("fix-file-changed", f,
                                             "`%s` changed while its fixes were computed; nothing was written" % f,
                                             "run `pyopl check --fix` again"))
                return
    for f in changed:
        target = os.path.realpath(f)
        mode = stat.S_IMODE(os.stat(target).st_mode)
        try:
            backup = _backup(target, originals[f], mode)
        except OSError as e:
            err = _from_oserror(target + ".bak", e)
            out.problems.append(_problem(_SLUG_OF.get(err.code, "write-failed"), f, err.message, err.help))
            return
        if backup is None:
            out.problems.append(_problem("fix-backup-refused", f, "no free backup name: `%s.bak` to `%s.bak.%d` are all taken"
                                         % (target, target, MAX_BACKUPS - 1), "remove old backups and run again"))
            return
        try:
            write_bytes_safely(target, (BOM if boms[f] else b"") + new_texts[f].encode("utf-8"), mode=mode)
        except WriteError as e:
            os.unlink(backup)
            out.problems.append(_problem(_SLUG_OF.get(e.code, "write-failed"), f, e.message, e.help))
            return
        out.backups[f] = backup
        if f == path or out.backup is None:
            out.backup = backup
    out.applied = n


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
