"""Numbers written with a point or an exponent, as the model and data readers take them.

``float()`` reads ``1e309``, ``1.8e308`` and ``1e999999999`` as infinity without a word; a
capacity written that way would then be no bound at all. OPL (C's ``strtod``) reports such a
literal as out of range, and so does pyopl: :func:`float_literal` gives None for it and the
reader reports ``number-too-large`` (OPL1128) at the literal. A literal too small to be told
from zero (``1e-400``) is zero, as ``strtod`` gives it.
"""
from __future__ import annotations

import math
import re

#: A number in data text that may lie beyond the double range: an exponent of 200 or more, or
#: 100 digits in a row. Text holding one is read by the full parser, which reports it at its place.
MAYBE_TOO_LARGE = re.compile(r"[eE]\+?0*(?:[2-9]\d\d|\d{4,})|\d{100}")
_LARGE_EXPONENTS = (("e", re.compile(r"e\+?0*(?:[2-9]\d\d|\d{4,})")), ("E", re.compile(r"E\+?0*(?:[2-9]\d\d|\d{4,})")))
_DIGIT_RUN = re.compile(r"\d{100}")
_ASCII_DIGITS = bytes(0x31 if 0x30 <= c <= 0x39 else 0x30 for c in range(256))  # a digit -> "1", else "0"


def maybe_too_large(text: str, cleared: list[tuple[int, int]] = ()) -> bool:
    """Whether :data:`MAYBE_TOO_LARGE` finds a match in ``text``, answered faster on a large text.

    The regex tries its two branches at every offset (0.38 s for a 14 MB network file); here each
    exponent branch is searched from its literal letter (which the regex engine finds without
    trying every offset), and in an ASCII text (where ``\\d`` is ``[0-9]``) the 100 digits are a run
    of 100 ``1`` bytes in the text translated to digit / not digit.  Same answer on every text.

    ``cleared``: increasing, disjoint ``(start, end)`` ranges of ``text`` known to hold no run of 100
    digits (the .dat fast path's bulk readers measure every run of number characters in the bodies
    they read); the run of digits is not searched for there.  A range whose first or last character
    is a digit is searched all the same (a run could cross its edge)."""
    if any(_found_from(text, letter, rx) for letter, rx in _LARGE_EXPONENTS):
        return True
    if len(text) < 100:
        return False
    pieces, last = [], 0
    for a, b in cleared:
        if a < b and not text[a].isdigit() and not text[b - 1].isdigit():
            pieces.append(text[last:a])
            last = b
    if pieces:  # (joined by a space: no run of digits is made across a range left out)
        text = " ".join(pieces) + " " + text[last:]
    if text.isascii():
        return b"1" * 100 in text.encode("ascii").translate(_ASCII_DIGITS)
    return _DIGIT_RUN.search(text) is not None


def _found_from(text: str, letter: str, rx: "re.Pattern[str]", tries: int = 64) -> bool:
    """``rx.search(text)`` for a pattern whose matches start with ``letter``, tried at the places of
    ``letter`` (each found by one C scan: a text of numbers holds few, in its names; the regex
    engine steps through every character of it); after ``tries`` places that do not match, the
    regex searches the rest."""
    i = text.find(letter)
    for _ in range(tries):
        if i < 0:
            return False
        if rx.match(text, i):
            return True
        i = text.find(letter, i + 1)
    return i >= 0 and rx.search(text, i) is not None


def float_literal(text: str) -> float | None:
    """The value of ``text`` (digits with ``.``, ``e`` or ``E``, as the grammars' number terminals
    match them) as a Python float; None when it is beyond the largest double (about 1.8e308)."""
    value = float(text)
    return None if math.isinf(value) else value


def shown(text: str) -> str:
    """``text`` for a message: whole up to 24 characters, else its ends and its length."""
    if len(text) <= 24:
        return text
    return "%s...%s (%d characters)" % (text[:8], text[-6:], len(text))
