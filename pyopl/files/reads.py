"""Which files a run read: the model, its data files, every ``include``d file and the
sub-models and data files a ``main`` block loaded.

Every source file is read by :func:`pyopl.files.source_io.read_source_file`, which records the
file here while a run is :func:`recording`.  Writers then refuse any recorded file (a script's
``IloOplOutputFile``, ``solve -o/--csv/--log-file``, ``export --lp/--mps``): a run must never
replace what it read (issue 33, docs/safety.md).
"""
from __future__ import annotations

import contextlib
import contextvars
import os
from typing import Iterator

_CURRENT: contextvars.ContextVar["FilesRead | None"] = contextvars.ContextVar("pyopl_files_read", default=None)


class FilesRead:
    """The files one run read: their real paths and ``(st_dev, st_ino)`` identities (a hard link
    to a read file is the same file under another name)."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.ids: set[tuple[int, int]] = set()

    def add(self, path: str, st: os.stat_result | None = None) -> None:
        """Record ``path`` (any spelling; stored by real path) and, when given or found, its identity."""
        self.paths.add(os.path.realpath(path))
        try:
            st = st or os.stat(path)
            self.ids.add((st.st_dev, st.st_ino))
        except OSError:
            pass

    def holds(self, path: str) -> bool:
        """Whether ``path`` (followed through links) is a file of the run: same real path, or the same
        file by device and inode (a hard link)."""
        if os.path.realpath(path) in self.paths:
            return True
        try:
            st = os.stat(path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) in self.ids

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.paths))

    def __len__(self) -> int:
        return len(self.paths)


def current() -> FilesRead | None:
    """The record of the run in progress (None outside a run)."""
    return _CURRENT.get()


def note(path: str, st: os.stat_result | None = None) -> None:
    """Record that the run in progress read ``path`` (nothing outside a run)."""
    rec = _CURRENT.get()
    if rec is not None:
        rec.add(path, st)


@contextlib.contextmanager
def recording(rec: FilesRead | None = None) -> Iterator[FilesRead]:
    """Record the files read inside the block into ``rec`` (default: the run already recording,
    so a sub-model compiled by ``main`` adds to its run, else a new record). Yields the record."""
    outer = _CURRENT.get()
    rec = rec if rec is not None else (outer if outer is not None else FilesRead())
    token = _CURRENT.set(rec)
    try:
        yield rec
    finally:
        _CURRENT.reset(token)
