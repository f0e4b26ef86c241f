"""Which brackets are open at a point of model text (strings and comments skipped).

A leaf module, shared by error recovery (:mod:`.recovery`) and the catalogue of common mistakes
(:mod:`.mistakes`).
"""
from __future__ import annotations

_OPENERS = {"(": ")", "[": "]", "{": "}"}


def unclosed_bracket(text: str, offset: int) -> tuple[str, int] | None:
    """The innermost bracket opened before ``offset`` and still open there (char, offset)."""
    stack = _open_stack(text, offset)
    return stack[-1] if stack else None


def _open_stack(text: str, offset: int) -> list[tuple[str, int]]:
    """Brackets opened before ``offset`` and still open there, outermost first (strings and comments skipped)."""
    stack: list[tuple[str, int]] = []
    i = 0
    while i < offset:
        ch = text[i]
        if ch == '"':
            j = text.find('"', i + 1)
            i = offset if j < 0 else j + 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = offset if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = offset if j < 0 else j + 2
            continue
        if ch in _OPENERS:
            stack.append((ch, i))
        elif ch in ")]}" and stack and _OPENERS[stack[-1][0]] == ch:
            stack.pop()
        i += 1
    return stack
