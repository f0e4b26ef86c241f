"""Small file helpers."""
from __future__ import annotations


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` safely (kept for callers of the old name): see
    :func:`pyopl.files.safe_write.write_text_safely`, which every writer now uses."""
    from .files.safe_write import write_text_safely

    write_text_safely(path, text)
