"""Applying machine-applicable fix-its to source text.

Kept in one small function so it can be swapped for ``pyopl.fixes.apply_fixes``
when that exists (:func:`syntagm.compiler.apply_machine_fixes` prefers it).
"""
from __future__ import annotations

from typing import Iterable, Sequence


def _offset(line_starts: Sequence[int], text_len: int, line: int, column: int) -> int:
    """Character offset of 1-based (line, column), clamped to the text."""
    if line < 1:
        return 0
    if line > len(line_starts):
        return text_len
    return min(line_starts[line - 1] + max(column, 1) - 1, text_len)


def apply_edits(text: str, edits: Iterable[tuple[int, int, int, int, str]]) -> tuple[str, int]:
    """Apply ``(line, column, end_line, end_column, replacement)`` edits (1-based, end exclusive).

    Edits are applied from last to first so earlier positions stay valid; an
    edit overlapping one already applied is skipped. Returns ``(new text,
    number of edits applied)``.
    """
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    spans = []
    for line, col, end_line, end_col, repl in edits:
        a = _offset(starts, len(text), line, col)
        b = max(a, _offset(starts, len(text), end_line, end_col))
        spans.append((a, b, repl))
    spans.sort(key=lambda s: (s[0], s[1]), reverse=True)
    applied = 0
    limit = len(text) + 1
    seen: set[tuple[int, int, str]] = set()
    for a, b, repl in spans:
        if (a, b, repl) in seen:
            continue  # the same fix reported twice
        if b > limit or (b == limit and a < b):
            continue  # overlaps an edit already applied
        text = text[:a] + repl + text[b:]
        limit = a
        applied += 1
        seen.add((a, b, repl))
    return text, applied
