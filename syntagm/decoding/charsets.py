"""Character sets as sorted code-point ranges, written as GBNF over their JSON-escaped form.

The grammars constrain text that sits *inside a JSON string* (the reply's ``"model"`` and
``"data"`` values), so every character is matched as JSON writes it: ``"`` as ``\\"``, ``\\`` as
``\\\\``, a newline as ``\\n``, a tab as ``\\t`` (RFC 8259, section 7). Other control characters
(which JSON writes only as ``\\u00XX``) are left out: model text does not need them.

Unicode classes are taken as ASCII sets plus "every non-ASCII character" where Python's class
holds some (``\\w`` holds letters of every script): the grammar may accept a few odd non-ASCII
names, never reject a text pyopl reads.
"""
from __future__ import annotations

MAX_CODE = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)
NON_ASCII = ((0x80, MAX_CODE),)

Ranges = tuple[tuple[int, int], ...]

#: The JSON escapes (RFC 8259) of the characters that a JSON string cannot hold raw.
JSON_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r", 0x0C: "\\f", 0x08: "\\b"}


def normalise(ranges) -> Ranges:
    """Sorted, merged, non-overlapping ``(lo, hi)`` ranges (inclusive)."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


def union(*sets: Ranges) -> Ranges:
    """The union of ``sets``."""
    return normalise([r for s in sets for r in s])


def complement(s: Ranges) -> Ranges:
    """Every code point (0..U+10FFFF) not in ``s``."""
    out, nxt = [], 0
    for lo, hi in normalise(s):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CODE:
        out.append((nxt, MAX_CODE))
    return tuple(out)


def minus(a: Ranges, b: Ranges) -> Ranges:
    """``a`` without ``b``."""
    return intersect(a, complement(b))


def intersect(a: Ranges, b: Ranges) -> Ranges:
    """The characters in both ``a`` and ``b``."""
    out = []
    for lo1, hi1 in a:
        for lo2, hi2 in b:
            lo, hi = max(lo1, lo2), min(hi1, hi2)
            if lo <= hi:
                out.append((lo, hi))
    return normalise(out)


def contains(s: Ranges, code: int) -> bool:
    """Whether code point ``code`` is in ``s``."""
    return any(lo <= code <= hi for lo, hi in s)


def of_chars(chars: str) -> Ranges:
    """The set of the characters of ``chars``."""
    return normalise((ord(c), ord(c)) for c in chars)


DIGIT = of_chars("0123456789")
WORD = union(of_chars("_"), ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)), NON_ASCII)
SPACE = of_chars(" \t\n\r\f\v")
#: ``\W`` keeps only its ASCII part exactly; ``[^\W\d]`` is then letters, ``_`` and non-ASCII.
NOT_WORD = minus(((0, 0x7F),), WORD)
NOT_DIGIT = complement(DIGIT)
NOT_SPACE = complement(SPACE)
ANY = ((0, MAX_CODE),)


def _class_char(code: int) -> str:
    """One code point inside a GBNF ``[...]`` class (anything not alphanumeric escaped)."""
    ch = chr(code)
    if ch.isascii() and ch.isalnum():
        return ch
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return ch  # raw: GBNF reads UTF-8 in a class (a `\\U` escape is misread by some converters)


def gbnf_literal(text: str) -> str:
    """``text`` as a GBNF string literal (``"..."``, with ``\\``, ``"`` and controls escaped)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def json_escaped(text: str) -> str:
    """``text`` as it stands inside a JSON string (the escapes of :data:`JSON_ESCAPES`)."""
    return "".join(JSON_ESCAPES.get(ord(c), c) for c in text)


def json_literal(text: str) -> str:
    """A GBNF literal matching ``text`` as written inside a JSON string."""
    return gbnf_literal(json_escaped(text))


def json_class(s: Ranges) -> str:
    """A GBNF expression matching one character of ``s`` as written inside a JSON string.

    Raw characters (not ``"``, ``\\``, controls or surrogates) form one ``[...]`` class; each
    character of ``s`` with a JSON escape adds that escape as an alternative. ``""`` never
    arises: raises :class:`ValueError` for a set with nothing JSON can write."""
    raw = minus(s, union(of_chars('"\\'), ((0, 0x1F),), (SURROGATES,)))
    parts = []
    if raw:
        body = "".join(_class_char(lo) if lo == hi else f"{_class_char(lo)}-{_class_char(hi)}" for lo, hi in raw)
        parts.append(f"[{body}]")
    for code, esc in JSON_ESCAPES.items():
        if contains(s, code):
            parts.append(gbnf_literal(esc))
    if not parts:
        raise ValueError("a character set with no character JSON can write")
    return parts[0] if len(parts) == 1 else "(" + " | ".join(parts) + ")"
