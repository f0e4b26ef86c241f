"""Write a file without ever corrupting or replacing what must not be replaced.

Every writer of pyopl (``check --fix``, ``export --lp/--mps``, ``solve -o/--csv``) goes through
here; syntagm may use it too.  The rules, by what the target path is:

- a regular file, or nothing yet: the bytes go into a temporary file in the same folder, are
  flushed to disk, get the old file's permission bits (or ``mode``, or ``0o666`` less the umask
  for a new file), and replace the target with ``os.replace``.  A crash, a full disk or any
  error leaves the old file as it was and no temporary behind.
- a symbolic link: the file it points to is written by the rule above and the link is kept; a
  link that points nowhere is refused (it could point anywhere another user chose).
- a device, a FIFO: written in place, never replaced by a regular file (``/dev/null`` stays a
  device); a FIFO that nobody reads is refused at once instead of blocking.
- a folder, a socket, a read-only file (no write bit, even for root): refused.

Errors are :class:`WriteError`, an ``OSError`` carrying the diagnostic ``code`` (OPL1122 missing
folder, OPL1123 full disk, OPL1124 unsafe or impossible target, OPL1125 read-only, OPL1130 other
system errors) and a sentence for the user.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Callable

_DISK_FULL = {errno.ENOSPC, errno.EDQUOT} if hasattr(errno, "EDQUOT") else {errno.ENOSPC}


class WriteError(OSError):
    """A file could not be written safely; ``code`` is the diagnostic code, ``path`` the path given,
    ``message`` a sentence for the user and ``help`` how to fix it."""

    def __init__(self, code: str, path: str, message: str, help: str = ""):
        super().__init__(message)
        self.code, self.path, self.message, self.help = code, path, message, help

    def __str__(self) -> str:
        return self.message


def write_text_safely(path: "str | os.PathLike[str]", text: str, *, mode: int | None = None,
                      encoding: str = "utf-8") -> None:
    """Write ``text`` exactly (no newline translation) to ``path``, by the rules of this module.

    ``mode``: permission bits of the file (default: the existing file's, else 0o666 less the umask).
    Raises :class:`WriteError`."""
    write_bytes_safely(path, text.encode(encoding), mode=mode)


def write_bytes_safely(path: "str | os.PathLike[str]", data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path``, by the rules of this module. Raises :class:`WriteError`."""

    def fill(tmp: str) -> None:
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    target, st = _target(os.fspath(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_in_place(os.fspath(path), target, st, data)
        return
    _replace(os.fspath(path), target, st, fill, mode, suffix="")


def write_with(path: "str | os.PathLike[str]", produce: Callable[[str], None], *, suffix: str = "",
               mode: int | None = None) -> None:
    """For writers that insist on naming the file themselves (HiGHS's ``writeModel``): ``produce``
    writes a temporary path (ending in ``suffix``, in the target's folder) and the result is moved
    to ``path`` by the rules of this module (copied in place for a device or FIFO).

    ``produce`` raises OSError (or WriteError) when it fails. Raises :class:`WriteError`."""
    given = os.fspath(path)
    target, st = _target(given)
    if st is not None and not stat.S_ISREG(st.st_mode):
        folder = tempfile.mkdtemp(prefix=".pyopl-")  # private (0700): the bytes pass through it
        tmp = os.path.join(folder, "out" + suffix)
        try:
            _produce(given, produce, tmp)
            with open(tmp, "rb") as f:
                data = f.read()
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
            os.rmdir(folder)
        _write_in_place(given, target, st, data)
        return
    _replace(given, target, st, lambda tmp: _produce(given, produce, tmp), mode, suffix)


def _produce(given: str, produce: Callable[[str], None], tmp: str) -> None:
    try:
        produce(tmp)
    except WriteError:
        raise
    except OSError as e:
        raise _from_oserror(given, e) from None


def _target(given: str) -> tuple[str, "os.stat_result | None"]:
    """The path to write (a symlink's final target) and its stat (None when it does not exist)."""
    if "\0" in given:
        raise WriteError("OPL1124", given, "the file name `%s` holds a NUL byte" % given.replace("\0", "\\0"),
                         "give a file name without a NUL character")
    target = given
    if os.path.islink(given):
        target = os.path.realpath(given)
        if not os.path.lexists(target):
            piped = _stream_link(given)
            if piped is not None:  # `/dev/stdout` into a pipe: /proc's link names `pipe:[N]`, no path
                return given, piped
            raise WriteError("OPL1124", given, "`%s` is a symbolic link to `%s`, which does not exist" % (given, target),
                             "remove the link or create the file it points to")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _from_oserror(given, e) from None
    if st is None:
        folder = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(folder):
            raise WriteError("OPL1122", given, "cannot write `%s`: the folder `%s` does not exist" % (given, folder),
                             "create the folder first, or give a path in an existing folder")
        return target, None
    if stat.S_ISDIR(st.st_mode):
        raise WriteError("OPL1124", given, "`%s` is a folder, not a file" % given,
                         "give a file name, such as `%s`" % os.path.join(given, "out.txt"))
    if stat.S_ISREG(st.st_mode) and (not st.st_mode & 0o222 or not os.access(target, os.W_OK)):
        # a rename would replace it anyway (the folder is writable): its own permission decides
        raise WriteError("OPL1125", given, "`%s` is read-only, so pyopl does not overwrite it" % given,
                         "make it writable (`chmod u+w %s`) or write to another file" % given)
    if stat.S_ISSOCK(st.st_mode):
        raise WriteError("OPL1124", given, "`%s` is a socket; pyopl writes only files, devices and FIFOs" % given,
                         "give the path of a file")
    return target, st


def _stream_link(given: str) -> "os.stat_result | None":
    """The stat of what the link ``given`` opens when its target has no path but is a FIFO or a
    character device (``/dev/stdout`` -> ``/proc/self/fd/1`` -> ``pipe:[N]``, the shell's pipe or
    terminal: written in place, as a device is); None for anything else (a link pointing nowhere)."""
    try:
        st = os.stat(given)
    except OSError:
        return None
    return st if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode) else None


def _replace(given: str, target: str, st: "os.stat_result | None", fill: Callable[[str], None],
             mode: int | None, suffix: str) -> None:
    folder = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".%s." % os.path.basename(target)[:40], suffix=suffix or ".tmp")
        os.close(fd)
    except OSError as e:
        raise _from_oserror(given, e) from None
    try:
        fill(tmp)
        if mode is None:
            mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        if st is not None and (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
            try:  # keep the owner where we may (root fixing a user's file)
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass
        os.replace(tmp, target)
    except WriteError:
        _remove(tmp)
        raise
    except OSError as e:
        _remove(tmp)
        raise _from_oserror(given, e) from None
    except BaseException:
        _remove(tmp)
        raise


def _write_in_place(given: str, target: str, st: os.stat_result, data: bytes) -> None:
    flags = os.O_WRONLY
    if stat.S_ISFIFO(st.st_mode):
        flags |= os.O_NONBLOCK  # ENXIO at once when no process reads it, instead of waiting forever
    try:
        fd = os.open(target, flags)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise WriteError("OPL1124", given, "nothing reads the FIFO `%s`, so nothing can be written to it" % given,
                             "start the reading process first, or write to a regular file") from None
        raise _from_oserror(given, e) from None
    try:
        if flags & os.O_NONBLOCK:
            os.set_blocking(fd, True)
        _write_all(fd, data)
    except OSError as e:
        raise _from_oserror(given, e) from None
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _umask() -> int:
    try:  # Linux says it without changing it (os.umask would, for a moment, for every thread)
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def _from_oserror(given: str, e: OSError) -> WriteError:
    why = e.strerror or str(e)
    if e.errno in _DISK_FULL:
        return WriteError("OPL1123", given, "cannot write `%s`: the disk is full (%s); the old file, if any, is unchanged"
                          % (given, why), "free some space, or write to another disk")
    if e.errno == errno.ENOENT:
        return WriteError("OPL1122", given, "cannot write `%s`: %s" % (given, why),
                          "create the folder first, or give a path in an existing folder")
    if e.errno in (errno.EROFS,):
        return WriteError("OPL1125", given, "cannot write `%s`: %s" % (given, why), "write to another place")
    return WriteError("OPL1130", given, "cannot write `%s`: %s" % (given, why),
                      "check the folder's permissions, or write to another place")
