"""Positions: pyopl's 1-based (line, column in code points) and LSP's 0-based (line, UTF-16 unit).

LSP counts a character as UTF-16 code units by default (LSP 3.17, "Position"), so a
character outside the Basic Multilingual Plane (an emoji in a comment) counts twice.
"""
from __future__ import annotations


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


class LineIndex:
    """The lines of one text, to convert positions both ways (clamped to the text)."""

    def __init__(self, text: str):
        self.lines = text.split("\n")

    def to_lsp(self, line: int, column: int) -> tuple[int, int]:
        """1-based ``(line, column)`` -> 0-based ``(line, utf16_character)``."""
        if not self.lines:
            return 0, 0
        line, column = line or 1, column or 1  # a span left open by error recovery
        li = min(max(line, 1), len(self.lines)) - 1
        text = self.lines[li].rstrip("\r")
        if line > len(self.lines):  # past the end: the end of the last line
            return li, _utf16_len(text)
        col = min(max(column, 1) - 1, len(text))
        return li, _utf16_len(text[:col])

    def from_lsp(self, line: int, character: int) -> tuple[int, int]:
        """0-based ``(line, utf16_character)`` -> 1-based ``(line, column)``, clamped."""
        li = min(max(line, 0), max(len(self.lines) - 1, 0))
        text = self.lines[li].rstrip("\r") if self.lines else ""
        units = 0
        for k, ch in enumerate(text):
            if units >= character:
                return li + 1, k + 1
            units += 2 if ord(ch) > 0xFFFF else 1
        return li + 1, len(text) + 1

    def offset(self, line: int, column: int) -> int:
        """Character offset in the text of 1-based ``(line, column)``, clamped."""
        li = min(max(line, 1), max(len(self.lines), 1)) - 1
        base = sum(len(l) + 1 for l in self.lines[:li])
        return base + min(max(column, 1) - 1, len(self.lines[li]) if self.lines else 0)
