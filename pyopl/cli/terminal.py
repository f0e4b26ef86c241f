"""Text for a terminal: control characters shown, never obeyed.

A model's scripts print what they like (``writeln("\\x1b[2J")``, ``"\\r"``), and a thrown string
ends up in a diagnostic: written to a terminal as they are, such characters move the cursor, clear
the screen or rewrite a line, so a model could overwrite the objective the report printed above.
The text report and the text diagnostics of the command line pass through :func:`shown`, which
writes every control character as an escape (``\\x1b``, ``\\r``, ``\\u202e``); newlines and tabs
stay. JSON output is unchanged (its encoder escapes control characters itself).
"""
from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates
# (U+202A-U+202E, U+2066-U+2069: text shown in another order than it is read)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f", "\x08": "\\b", "\x00": "\\0"}


def _escape(m: re.Match) -> str:
    c = m.group(0)
    named = _NAMED.get(c)
    if named is not None:
        return named
    return "\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c)


def shown(text: str) -> str:
    """``text`` with every control character but newline and tab written as an escape."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text
