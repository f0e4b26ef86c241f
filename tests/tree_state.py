"""A byte-level snapshot of a folder tree, for tests that a run wrote nothing it must not.

:func:`snapshot` records every entry under a root (links not followed): its type, permission
bits, inode and link count, the SHA-256 of a regular file's bytes, a symbolic link's target.
:func:`changed` lists the entries that differ between two snapshots, leaving out the
``allowed`` sub-folders (a run's output folder)."""
from __future__ import annotations

import hashlib
import os
import stat


def snapshot(root: "str | os.PathLike[str]") -> dict[str, tuple]:
    """``{relative path: (kind, mode, inode, links, content digest or link target)}`` of the tree."""
    root = os.fspath(root)
    out: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", st.st_mode, st.st_ino, st.st_nlink, os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                out[rel] = ("file", st.st_mode, st.st_ino, st.st_nlink, digest)
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", st.st_mode, st.st_ino, None, None)
            else:  # FIFO, socket, device: never opened
                out[rel] = ("other", st.st_mode, st.st_ino, st.st_nlink, None)
    return out


def changed(before: dict[str, tuple], after: dict[str, tuple], allowed: tuple[str, ...] = ()) -> list[str]:
    """The paths added, removed or changed between the snapshots, outside the ``allowed`` folders
    (relative paths; the folder itself and everything below it are allowed)."""
    def free(rel: str) -> bool:
        return any(rel == a or rel.startswith(a.rstrip("/") + os.sep) for a in allowed)

    keys = set(before) | set(after)
    return sorted(k for k in keys if before.get(k) != after.get(k) and not free(k))


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``pyopl ARGV`` in this process: (exit status, stdout, stderr)."""
    import contextlib
    import io

    from pyopl.cli import main as cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli(argv)
    return rc, out.getvalue(), err.getvalue()
