"""The bulk number reader of the .dat fast path (pyopl/data/numscan.py) reads every token as ``float()``.

- Property test: random tokens of every shape (many digits, leading zeros, signs, ``-0``, ``.5``,
  ``5.``, exponents, huge, tiny, random doubles' ``repr``, tokens that are no number) in random
  layouts (white space, commas and brackets between them, tokens near the start of the text),
  read in batches of several sizes: each value is, bit for bit, ``float()`` of its token; whether
  it is written as a float is whether it holds ``.``, ``e`` or ``E``; any token that ``float()``
  refuses makes the whole read None; and every token on Clinger's fast path (no exponent, at most
  15 digits) is read without calling ``float()``.
- Hand-written edge cases around each limit (8 and 16 characters, 2**53, ``-0``, ...).
- The layout helpers: runs of number characters at both ends of the text, the comma rule read as
  16-bit pairs at both offsets against a byte-by-byte loop.
"""
from __future__ import annotations

import random
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.data import fastpath, numscan

SLOW = settings(max_examples=examples(250), deadline=None, suppress_health_check=SPEED_CHECKS)

_BAD = ["1-2", "--1", "+-1", ".", "-", "+", "1..2", "1.2.3", "1e", "e5", "E", "1e+", ".e1", "-.", "1.5e2.5", "5-",
        "1+1", "-.e", "1e5e5", "1.e.5"]


def _float(tok: str) -> float | None:
    try:
        return float(tok)
    except ValueError:
        return None


def _simple(tok: str) -> bool:
    """On the fast path: a number without exponent of at most 15 digits."""
    return _float(tok) is not None and not any(c in tok for c in "eE") and sum(c.isdigit() for c in tok) <= 15


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


@st.composite
def _token(draw):
    kind = draw(st.integers(0, 19))
    if kind == 0:  # any finite double, as repr writes it (17 digits, exponents, tiny, huge)
        x = struct.unpack("<d", struct.pack("<Q", draw(st.integers(0, 2 ** 64 - 1))))[0]
        return repr(x) if x == x and abs(x) != float("inf") else "1e400"
    if kind == 1:
        return draw(st.sampled_from(_BAD))
    sign = draw(st.sampled_from(["", "", "", "-", "+"]))
    most = draw(st.sampled_from([2, 4, 8, 9, 16, 20]))
    whole = draw(st.text("0123456789", max_size=most))
    if draw(st.integers(0, 3)):  # a point, maybe nothing on either side of it
        frac = "." + draw(st.text("0123456789", max_size=most))
    else:
        frac = ""
    if not any(c.isdigit() for c in whole + frac):
        whole = draw(st.sampled_from(["0", "7", "00"]))
    exp = draw(st.sampled_from([""] * 12 + ["e5", "E-3", "e+300", "e-330", "e400", "E0", "e-07"]))
    return sign + whole + frac + exp


_SEP = st.sampled_from([" ", ",", ", ", "\n", "\t", "\r\n", " , ", "<", ">", "> <", ">,\n  <", "  "])


def _text(tokens: list[str], seps: list[str]) -> bytes:
    return (seps[0] + "".join(t + s for t, s in zip(tokens, seps[1:]))).encode("ascii")


def _read(buf: bytes, chunk: int):
    real = numscan._CHUNK
    numscan._CHUNK = chunk
    calls = []
    numscan.float = lambda t: calls.append(t) or float(t)  # (a module global: found before the builtin)
    try:
        starts, ends = numscan.token_bounds(numscan.number_mask(buf))
        return starts, ends, numscan.read_tokens(buf, starts, ends), calls
    finally:
        numscan._CHUNK = real
        del numscan.float


@SLOW
@given(st.lists(_token(), min_size=1, max_size=300), st.data(), st.sampled_from([7, 64, 8192]))
def test_each_token_reads_as_float_reads_it(tokens, data, chunk):
    seps = data.draw(st.lists(_SEP, min_size=len(tokens) + 1, max_size=len(tokens) + 1))
    buf = _text(tokens, seps)
    starts, ends, got, calls = _read(buf, chunk)
    assert [buf[a:b].decode() for a, b in zip(starts.tolist(), ends.tolist())] == tokens
    expected = [_float(t) for t in tokens]
    if None in expected:  # a token float() refuses: the caller reads the text its own way
        assert got is None
        return
    others = sum(not _simple(t) for t in tokens)
    if others + 8 <= 64:  # (at most 8 tokens end in the text's first 16 bytes)
        assert got is not None
        assert len(calls) <= others + 8  # the rest read without float()
    if got is not None:
        values, points = got
        assert [_bits(v) for v in values.tolist()] == [_bits(x) for x in expected]
        assert points.tolist() == [any(c in t for c in ".eE") for t in tokens]


_EDGES = ["0", "-0", "+0", "-0.0", "0.", ".0", "-.0", "5.", ".5", "-.5", "+.5", "007", "00.100", "-007.70",
          "12345678", "-1234567", "1234567.", ".1234567", "-.123456", "123456789", "-12345678", "+1234567.8",
          "999999999999999", "-999999999999999", "99999999.9999999", "0.000000000000001", "1234567890123456",
          "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "123456789012345.6",
          "0.1", "0.2", "0.3", "2.675", "1.7976931348623157e308", "5e-324", "1e400", "-1e400", "1E5", "1e-5",
          "0.30000000000000004", "00000000000000000000001", "1." + "0" * 30, "." + "0" * 40 + "1",
          "4503599627370496.5", "4503599627370497", "72057594037927936", "18446744073709551616"]


@pytest.mark.parametrize("tok", _EDGES + _BAD)
@pytest.mark.parametrize("before", ["", " " * 3, "<" * 17])
def test_edge_tokens(tok, before):
    buf = (before + tok + ", 1, 22, 333.5>" + " 4" * 30).encode()
    _s, _e, got, calls = _read(buf, 8192)
    if _float(tok) is None:
        assert got is None
        return
    values, points = got
    assert _bits(values[0]) == _bits(float(tok)) and values[1:4].tolist() == [1.0, 22.0, 333.5]
    assert points.tolist()[:2] == [any(c in tok for c in ".eE"), False]
    if before and _simple(tok):
        assert tok not in calls  # read on the fast path


def test_a_large_random_batch_is_read_without_float():
    rng = random.Random(20)
    tokens = []
    for _ in range(60000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 15)))
        cut = rng.randint(0, len(digits))
        point = rng.random() < 0.6
        tok = rng.choice(["", "-", "+", ""]) + (digits[:cut] + "." + digits[cut:] if point else digits)
        tokens.append(tok)
    buf = (", ".join("<%s>" % t for t in tokens)).encode()
    _s, _e, (values, points), calls = _read(buf, 8192)
    assert len(calls) <= 8
    assert values.tobytes() == np.array([float(t) for t in tokens]).tobytes()
    assert points.tolist() == ["." in t for t in tokens]


def test_many_tokens_off_the_fast_path_are_left_to_the_caller():
    tokens = ["%de%d" % (i, i % 7) for i in range(1000)]  # exponents: float() would read all of them
    buf = " ".join(tokens).encode()
    _s, _e, got, calls = _read(buf, 8192)
    assert got is None and len(calls) == 0
    few = " ".join(tokens[:60] + [str(i) for i in range(1000)]).encode()  # 60 of 1060: float() reads those
    _s, _e, (values, _p), calls = _read(few, 8192)
    assert values.tolist() == [float(t) for t in tokens[:60]] + [float(i) for i in range(1000)]
    assert len(calls) >= 60


@pytest.mark.parametrize("text, runs", [("12 3", [(0, 2), (3, 4)]), (" 1,2 ", [(1, 2), (3, 4)]), ("", []),
                                         ("<-1.5e3>", [(1, 7)]), ("7", [(0, 1)]), (" , ", [])])
def test_token_bounds_at_both_ends(text, runs):
    starts, ends = numscan.token_bounds(numscan.number_mask(text.encode()))
    assert list(zip(starts.tolist(), ends.tolist())) == runs


@given(st.lists(st.sampled_from([fastpath._WS_B, fastpath._NUM_B, fastpath._COMMA_B, fastpath._LT_B, fastpath._GT_B]),
                max_size=40))
def test_comma_rule_read_as_pairs_equals_a_byte_loop(classes):
    flat = bytes(classes)
    before = (fastpath._WS_B, fastpath._COMMA_B, fastpath._LT_B)  # white space, a comma or a `<`, then a comma
    loop = any(b == fastpath._COMMA_B and a in before for a, b in zip(flat, flat[1:]))
    real = fastpath._BLOCK
    try:
        for block in (real, 1, 3):  # (in blocks of any size: pairs across a block's edge are read)
            fastpath._BLOCK = block
            assert fastpath._comma_after(flat) == loop
            assert fastpath._comma_after(memoryview(b"\x01" + flat)[1:]) == loop  # (a view at an odd offset)
            assert fastpath._count_at_least(np.frombuffer(flat, np.uint8), fastpath._GT_B) == \
                sum(c >= fastpath._GT_B for c in flat)
    finally:
        fastpath._BLOCK = real


@SLOW
@given(st.lists(st.sampled_from([0, 1, 2, 3]), max_size=60), st.sampled_from([1, 2, 3, 7, 1 << 18]))
def test_runs_of_a_block_at_a_time_equal_the_whole_mask(codes, block):
    cls = np.array(codes, dtype=np.uint8)
    want = numscan.token_bounds(cls == 1)
    real = numscan._RUN_BLOCK
    try:
        numscan._RUN_BLOCK = block  # (runs across a block's edge, and more runs than the first guess holds)
        got = numscan.runs_of(cls, 1)
    finally:
        numscan._RUN_BLOCK = real
    assert got[0].dtype == got[1].dtype == np.int32 and got[0].tolist() == want[0].tolist()
    assert got[1].tolist() == want[1].tolist()


def test_runs_of_more_runs_than_the_first_guess():
    cls = np.frombuffer(b"\x01\x00" * 500 + b"\x01", dtype=np.uint8)  # 501 runs: 1,002 edges, guessed 397
    starts, ends = numscan.runs_of(cls, 1)
    assert starts.tolist() == list(range(0, 1001, 2)) and ends.tolist() == list(range(1, 1002, 2))
