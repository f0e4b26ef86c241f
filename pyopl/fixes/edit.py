"""Applying fix-its to text: the machine-applicable edits of diagnostics.

Positions are counted as the diagnostics count them (:mod:`pyopl.files.source_io`: lines end at
``"\\n"`` only, columns in characters, the byte-order mark not counted), so a fix lands where
its diagnostic points; an edit outside the text is not applied.
"""
from __future__ import annotations

from typing import Iterable

from ..diagnostics.diagnostic import Diagnostic
from ..files.source_io import line_starts, offset_of


def apply_fixes(text: str, diagnostics: Iterable[Diagnostic], applicability: str = "machine-applicable") -> tuple[str, int]:
    """Apply the fixes of ``diagnostics`` with the given applicability to ``text``.

    Returns ``(new_text, number_of_fixes_applied)``. A fix with an edit outside the text is
    skipped, and so is one that overlaps an earlier fix; edits are applied from the end
    backwards so earlier offsets stay valid. A replacement's line breaks follow the text's
    (``\\r\\n`` in a CRLF text).
    """
    starts = line_starts(text)
    newline = "\r\n" if "\r\n" in text else "\n"
    edits: list[tuple[int, int, str]] = []
    fixes = 0
    for d in diagnostics:
        if d.fix is None or d.fix.applicability != applicability:
            continue
        spans = []
        for e in d.fix.edits:
            start = offset_of(text, starts, e.span.line, e.span.column)
            end = offset_of(text, starts, e.span.end_line, e.span.end_column)
            if start is None or end is None or end < start:
                spans = None
                break
            rep = e.replacement.replace("\r\n", "\n").replace("\n", newline) if newline != "\n" else e.replacement
            spans.append((start, end, rep))
        if not spans:
            continue
        if any(s < oe and os_ < e for s, e, _ in spans for os_, oe, _ in edits) or \
                any(s == os_ == e == oe for s, e, _ in spans for os_, oe, _ in edits):
            continue
        edits.extend(spans)
        fixes += 1
    for start, end, rep in sorted(edits, key=lambda t: (t[0], t[1]), reverse=True):
        text = text[:start] + rep + text[end:]
    return text, fixes
