"""Safe file output for every syntagm writer: atomic replacement, no symlink or device
ever replaced, JSON that always encodes, a lock on an output folder, and file names
made from arbitrary ids.

- :func:`write_atomic` writes into a temporary file beside the target and renames it over
  the target, keeping an existing target's permission bits; a target that exists and is
  not a regular file (a symlink, a device node, a FIFO, a folder) is refused with
  :class:`~syntagm.errors.SyntagmError`, never replaced.
- :func:`open_append` opens a regular file for appending without following a symlink.
- :func:`json_line` / :func:`json_text` never fail on text that holds lone surrogates
  (an LLM reply may): such a document is written with ``\\uXXXX`` escapes instead.
- :class:`FolderLock` is an exclusive ``flock`` on ``DIR/.lock`` holding the owner's pid
  (released by the kernel when the process dies, ``kill -9`` included).
- :func:`safe_name` encodes any string as one file-name component, injectively.

Every text and JSON document written through this module has the registered secrets (the API
key, the header values the client sends) removed first, wherever they appear
(:func:`syntagm.redact.redact_secrets`): this is the one recording layer, so a reply that echoes
the key cannot get it into a transcript, a result, a cache entry or a report (issue 33).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from .errors import SyntagmError
from .redact import redact_bytes, redact_secrets, redact_value

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def _refuse_non_regular(path: Path) -> os.stat_result | None:
    """The ``lstat`` of ``path`` (``None`` when it does not exist); raises when it is not a regular file."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        kind = next((word for test, word in _KINDS if test(st.st_mode)), "not a regular file")
        raise SyntagmError(f"refusing to write {path}: it is {kind}; syntagm only replaces regular files "
                           "(remove it or choose another output folder)")
    return st


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def make_out_folder(out: Path) -> None:
    """Create the ``--out`` folder ``out`` (and its parents) if needed.

    Raises :class:`~syntagm.errors.ConfigError` (exit status 2) when ``out`` exists and is not a
    folder (``mkdir`` said only ``File exists: OUT``)."""
    from .errors import ConfigError

    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a folder: give the folder the results are written into")
    out.mkdir(parents=True, exist_ok=True)


def write_atomic(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` atomically, without the registered secrets.

    The file is written to a temporary name in the same folder, flushed and fsynced, given
    the target's mode (or ``0666 & ~umask`` for a new file) and renamed over the target with
    :func:`os.replace`. Raises :class:`SyntagmError` when ``path`` exists and is not a regular
    file (it is left as it is) and ``OSError`` for a failing disk (the temporary file is removed).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    st = _refuse_non_regular(path)
    # registered secrets removed; a lone surrogate in text is written as a `\udXXX` escape, never an error
    data = redact_bytes(content) if isinstance(content, bytes) else \
        redact_secrets(content).encode("utf-8", "backslashreplace")
    fd, tmp = tempfile.mkstemp(prefix="." + path.name[:100] + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode) if st else 0o666 & ~_umask())
            os.fsync(f.fileno())
        _refuse_non_regular(path)  # it may have changed while we wrote
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def open_append(path: str | Path):
    """A text stream appending UTF-8 to the regular file ``path`` (created if missing), never
    through a symlink. Raises :class:`SyntagmError` for a non-regular ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_non_regular(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if os.path.islink(path):
            raise SyntagmError(f"refusing to write {path}: it is a symbolic link") from None
        raise e
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise SyntagmError(f"refusing to write {path}: it is not a regular file")
    return _redacting_stream(fd)


def open_new(path: str | Path):
    """A text stream writing UTF-8 to ``path``, truncating a regular file, never through a symlink."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_non_regular(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return _redacting_stream(fd)


class _RedactingStream(io.TextIOWrapper):
    """A UTF-8 text stream that removes the registered secrets from what is written, and writes
    lone surrogates (an LLM reply may hold them) as ``\\udXXX`` escapes instead of failing."""

    def write(self, s: str) -> int:
        return super().write(redact_secrets(s))


def _redacting_stream(fd: int) -> io.TextIOWrapper:
    return _RedactingStream(io.BufferedWriter(io.FileIO(fd, "w")), encoding="utf-8", errors="backslashreplace",
                            newline="\n")


def replace_file(src: str | Path, dst: str | Path) -> None:
    """``os.replace(src, dst)`` unless ``dst`` exists and is not a regular file (refused)."""
    _refuse_non_regular(Path(dst))
    os.replace(src, dst)


def json_line(obj: Any, **kw: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False)`` when the result encodes as UTF-8; else (lone
    surrogates in some string) the ASCII form, which is valid JSON and reads back the same.
    Registered secrets are removed from every string first (see the module text)."""
    try:
        obj = redact_value(obj)
    except RecursionError:  # (nested near the parser's limit: the text is still redacted below)
        pass
    text = json.dumps(obj, ensure_ascii=False, **kw)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, ensure_ascii=True, **kw)
    return redact_secrets(text)  # (a value written through ``default=str`` too)


def json_text(obj: Any) -> str:
    """An indented JSON document (``default=str``) that always encodes as UTF-8, ending in a newline."""
    return json_line(obj, indent=2, default=str) + "\n"


def plain_text(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD, so it can be written as UTF-8."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


#: Characters kept as they are in :func:`safe_name`; every other one is ``%XX``-encoded (UTF-8 bytes).
_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
#: Longest encoded name kept whole (file systems allow 255 bytes; room is left for suffixes).
MAX_NAME = 150


def safe_name(text: str) -> str:
    """One file-name component for ``text``, different for different texts.

    Letters, digits, ``-``, ``_`` and ``.`` stay; every other UTF-8 byte becomes ``%XX``
    (``%`` included, so ``a/b`` → ``a%2Fb`` and ``a_b`` → ``a_b`` differ). A leading ``.``
    is encoded too (no hidden names, no ``.``/``..``). A name longer than :data:`MAX_NAME` is
    cut and ends in ``~`` and 32 hex digits of its SHA-256 (``~`` is otherwise always encoded).
    The empty string is ``%``.
    """
    if text == "":
        return "%"
    raw = text.encode("utf-8", "surrogatepass")
    out = []
    for i, b in enumerate(raw):
        ch = chr(b)
        out.append(ch if b < 128 and ch in _KEEP and not (i == 0 and ch == ".") else f"%{b:02X}")
    name = "".join(out)
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 33] + "~" + hashlib.sha256(raw).hexdigest()[:32]
    return name


class FolderLock:
    """An exclusive lock on an output folder (``DIR/.lock``, holding the owner's pid).

    ``acquire()`` raises :class:`SyntagmError` naming the holder's pid when another process
    holds it. The kernel releases it when the holder exits, however it exits.
    """

    NAME = ".lock"

    def __init__(self, folder: str | Path, what: str = "syntagm bench"):
        self.folder = Path(folder)
        self.path = self.folder / self.NAME
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> "FolderLock":
        import fcntl

        make_out_folder(self.folder)
        _refuse_non_regular(self.path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            finally:
                os.close(fd)
            raise SyntagmError(f"{self.folder} is in use by another {self.what} (pid {holder}); wait for it to "
                               "finish or give another --out") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock; the file stays (unlinking would race)
            self._fd = None

    def __enter__(self) -> "FolderLock":
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


def lock_folder(path: str | Path, waiting: Any = None) -> int | None:
    """Take an exclusive lock on the folder ``path`` for this process (``flock`` on the folder
    itself: no lock file is left behind), waiting while another process holds it; ``waiting()`` is
    called once when it has to wait. Returns the descriptor that holds the lock (closed, or the
    process ending, releases it); None where folders cannot be locked (no ``fcntl``)."""
    try:
        import fcntl
    except ImportError:  # (Windows) no locking: runs on one folder are the user's to keep apart
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if waiting is not None:
            waiting()
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:  # a file system without locks
        os.close(fd)
        return None
    return fd


def keep_aside(path: str | Path) -> Path | None:
    """Rename the file ``path``, when it exists, to the first free ``<name>.1``, ``<name>.2``...
    beside it (a transcript a crashed run kept is never truncated by the next run); returns the new
    name, or None when there was no file."""
    path = Path(path)
    if not os.path.lexists(path):
        return None
    for n in range(1, 10_000):
        other = path.with_name(f"{path.name}.{n}")
        if not os.path.lexists(other):
            os.rename(path, other)
            return other
    raise OSError(f"{path}: too many kept copies ({path.name}.1 ... {path.name}.9999)")
