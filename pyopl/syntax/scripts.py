"""Cut IBM ILOG Script bodies (``execute NAME { ... }``, ``main { ... }``) out of model text.

Script bodies are JavaScript-like: braces may sit inside strings and comments,
so a plain brace count is not enough.  The body is blanked (every character
but newlines becomes a space) so that line and column numbers of everything
after it stay exact; the parser then sees ``execute NAME {   }``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

_KEYWORD = re.compile(r"\b(execute|main)\b\s*([A-Za-z_][A-Za-z0-9_]*)?\s*\{")


@dataclass
class ScriptSpan:
    kind: str  # "execute" or "main"
    name: str | None
    line: int
    column: int
    end_offset: int  # offset just past the closing brace (or len(text) if unclosed)
    closed: bool
    body: str = ""  # the text between the braces
    body_line: int = 0  # where the body starts (just after `{`)
    body_column: int = 0


def _skip_string_or_comment(text: str, i: int) -> int:
    """If ``text[i]`` opens a string or comment, return the offset just past it; else ``i``."""
    c = text[i]
    if c in "\"'":
        j = i + 1
        while j < len(text) and text[j] != c and text[j] != "\n":
            j += 2 if text[j] == "\\" else 1
        return min(j + 1, len(text))
    if text.startswith("//", i):
        j = text.find("\n", i)
        return len(text) if j < 0 else j
    if text.startswith("/*", i):
        j = text.find("*/", i + 2)
        return len(text) if j < 0 else j + 2
    return i


def _code_offsets(text: str, start: int) -> Iterator[int]:
    """The offsets from ``start`` on of the characters outside strings and comments, in order."""
    i = start
    while i < len(text):
        j = _skip_string_or_comment(text, i)
        if j != i:
            i = j
            continue
        yield i
        i += 1


def _match_brace(text: str, open_at: int) -> int:
    """Offset of the ``}`` matching the ``{`` at ``open_at``, or -1."""
    depth = 0
    for i in _code_offsets(text, open_at):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def next_code_match(text: str, pattern: "re.Pattern[str]", start: int, first_chars: str) -> "re.Match[str] | None":
    """The first match of ``pattern`` at or after ``start`` that begins a word outside strings and
    comments, or None.  ``first_chars`` holds the characters a match can begin with (a fast filter)."""
    for i in _code_offsets(text, start):
        if text[i] in first_chars and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = pattern.match(text, i)
            if m:
                return m
    return None


def blank(out: list[str], start: int, end: int) -> None:
    """Blank ``out[start:end]`` in place, keeping newlines so later spans stay exact."""
    for k in range(start, end):
        if out[k] != "\n":
            out[k] = " "


def strip_scripts(text: str) -> tuple[str, list[ScriptSpan]]:
    """Blank script bodies; return the new text and where each script was.

    Occurrences of ``execute``/``main`` inside strings and comments of the
    model itself are ignored.
    """
    out = list(text)
    found: list[ScriptSpan] = []
    i = 0
    while (m := next_code_match(text, _KEYWORD, i, "em")) is not None:
        i = m.start()
        kind, name = m.group(1), m.group(2)
        if kind == "main" and name:  # `main` takes no name: this is something else
            i += 1
            continue
        open_at = m.end() - 1
        close_at = _match_brace(text, open_at)
        line, col = _line_col(text, i)
        end = close_at if close_at >= 0 else len(text)
        blank(out, open_at + 1, end)
        if close_at < 0:  # unclosed: blank to the end and close virtually
            out.append("}")
        bline, bcol = _line_col(text, open_at + 1)
        found.append(ScriptSpan(kind, name, line, col, end + 1, close_at >= 0, text[open_at + 1:end], bline, bcol))
        i = end + 1
    return "".join(out), found
