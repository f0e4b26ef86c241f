"""Applying fix-its: machine-applicable edits of diagnostics, to text or to a file (with a backup)."""
from __future__ import annotations

import shutil
from typing import Iterable

from .diagnostics.diagnostic import Diagnostic
from .util import write_atomic


def _offset(lines: list[str], line: int, col: int) -> int:
    """Character offset of 1-based ``(line, col)``, clamped to the text (an edit may sit at its end)."""
    if line < 1:
        return 0
    if line > len(lines):
        return sum(len(l) for l in lines)
    return sum(len(l) for l in lines[: line - 1]) + min(max(col, 1) - 1, len(lines[line - 1]))


def apply_fixes(text: str, diagnostics: Iterable[Diagnostic], applicability: str = "machine-applicable") -> tuple[str, int]:
    """Apply the fixes of ``diagnostics`` with the given applicability to ``text``.

    Returns ``(new_text, number_of_fixes_applied)``. Overlapping edits are skipped
    (the later one wins nothing); edits are applied from the end backwards so
    earlier offsets stay valid.
    """
    lines = text.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    fixes = 0
    for d in diagnostics:
        if d.fix is None or d.fix.applicability != applicability:
            continue
        spans = []
        for e in d.fix.edits:
            start = _offset(lines, e.span.line, e.span.column)
            end = max(start, _offset(lines, e.span.end_line, e.span.end_column))
            spans.append((start, end, e.replacement))
        if any(s < oe and os_ < e for s, e, _ in spans for os_, oe, _ in edits) or \
                any(s == os_ == e == oe for s, e, _ in spans for os_, oe, _ in edits):
            continue
        edits.extend(spans)
        fixes += 1
    for start, end, rep in sorted(edits, key=lambda t: (t[0], t[1]), reverse=True):
        text = text[:start] + rep + text[end:]
    return text, fixes


def apply_fixes_to_file(path: str, diagnostics: Iterable[Diagnostic]) -> int:
    """Apply machine-applicable fixes to the file at ``path``, keeping ``path + '.bak'``. Returns the count."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new, n = apply_fixes(text, diagnostics)
    if n:
        shutil.copyfile(path, path + ".bak")
        write_atomic(path, new)
    return n
