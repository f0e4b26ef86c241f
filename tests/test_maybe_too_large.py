"""``maybe_too_large`` (the .dat fast path's test for a number that may be beyond every double) gives the
answer of the regex :data:`MAYBE_TOO_LARGE` on every text: random texts over an alphabet rich in digits,
exponent letters, signs and non-ASCII digits (where ``\\d`` is more than ``[0-9]``), and the limits by hand."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.syntax.number_literals import MAYBE_TOO_LARGE, maybe_too_large

ALPHABET = "0123456789" * 6 + "eE+-.,; <>\n" + "\u0663\u0969" + "xa"  # (Arabic-Indic and Devanagari digits)


def _regex(text: str) -> bool:
    return MAYBE_TOO_LARGE.search(text) is not None


@settings(max_examples=examples(400), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(st.text(ALPHABET, max_size=400), st.lists(st.tuples(st.integers(0, 400), st.sampled_from(
    ["e200", "E+0199", "e+00300", "e1000", "E99", "e-500", "1" * 99, "1" * 100, "\u0663" * 100, "9" * 101]))))
def test_same_answer_as_the_regex(text, inserts):
    for at, piece in inserts:
        text = text[:at] + piece + text[at:]
    assert maybe_too_large(text) == _regex(text)


def test_limits_by_hand():
    assert not maybe_too_large("x = 1e199;") and maybe_too_large("x = 1e200;") and maybe_too_large("x = 1E+0200;")
    assert maybe_too_large("x = 2e1000;") and not maybe_too_large("x = 1e-0199;")
    assert not maybe_too_large("a = [" + "1" * 99 + "];") and maybe_too_large("a = [" + "1" * 100 + "];")
    assert maybe_too_large("\u0663" * 100) and maybe_too_large("\u0663" * 99 + "1")
    assert not maybe_too_large("\u0663" * 99 + "x")
    big = "Arcs = {" + "<1, 2, 3.5, 7>, " * 20000 + "};"  # ASCII, long: the bytes path
    assert not maybe_too_large(big) and maybe_too_large(big + "1" * 100) and maybe_too_large(big + " 4e250")
