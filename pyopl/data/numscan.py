"""Bulk, exact reading of the numbers of a large ASCII text with NumPy (the .dat fast path's number reader).

A ``.dat`` tuple set of half a million tuples holds two million numbers such as ``27.0`` or ``-3``.
Reading them one at a time (``float()``, or NumPy's ``fromstring``, which calls the C library per
number) costs about 0.2 µs each; here all of them are read at once, eight characters to one 64-bit
word ("SWAR": SIMD within a register), in about 40 array operations over the whole batch.

**Exactness** (Clinger's fast path: W. D. Clinger, "How to read floating point numbers
accurately", PLDI 1990).  A token ``[+-]?D*[.D*]`` with at least one digit and no exponent has the
value ``m / 10**k`` where ``m`` is the integer its digits spell and ``k`` the number of digits after
the point.  When ``m < 2**53`` and ``k <= 22`` both ``m`` and ``10**k`` are exact doubles, so one
IEEE division, correctly rounded, gives the double nearest the decimal value: what ``float()``
gives (and the sign is exact, ``-0`` included: ``float("-0") == -0.0``).  Every token outside that
case (an exponent, more than 16 characters after the sign, ``m >= 2**53``) is read by ``float()``
itself, one by one; a token that ``float()`` refuses, or more such tokens than make the batch worth
it, gives None and the caller reads the text its own way.

A token is read from the 8 (or 16) bytes that end where it ends; the few tokens that end in the
text's first 16 bytes are left to ``float()``.  A batch whose tokens are all digits with a point the
same ``k`` digits before their end (``k = 0``: plain ints, a column of ids; ``91.0``: prices) is read
in half the operations, as the integer its digits spell divided by ``10**k`` (the same case).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

_U = np.uint64
_ASCII0 = _U(0x3030303030303030)  # b"00000000": digits -> 0..9 by exclusive or
_HIGH = _U(0x8080808080808080)
_TENS = _U(0x0A0A0A0A0A0A0A0A)
_LOW7 = _U(0x7F7F7F7F7F7F7F7F)
_POINT = _U(0x1E1E1E1E1E1E1E1E)  # "." ^ "0" in every byte
_KEEP = np.array([(0xFFFFFFFFFFFFFFFF << (8 * q)) & 0xFFFFFFFFFFFFFFFF for q in range(9)], dtype=np.uint64)
_POW10 = 10.0 ** np.arange(23)  # exact doubles (10**22 is the last)
_SIGNED_POW10 = np.concatenate((_POW10, np.ones(9), -_POW10, np.ones(9)))  # index k, or 32 + k for -10**k
_EXACT = 2 ** 53
# :func:`_read_fixed`: digits -> 0..9 and a point k digits before the end (byte 7 - k) -> 0; the bytes before it;
# and what, added to a word of bytes below 0x80, sets a byte's high bit where the byte is not a digit 0..9
# (+0x76) or, at the point's byte, not 0 (+0x7F: a sign there reads as 3 or 5, not as a point)
_FIXED = [_ASCII0] + [_ASCII0 ^ _U(0x1E << (8 * (7 - k))) for k in range(1, 8)]
_NOT_DIGIT = [_U(0x7676767676767676)] + [_U(0x7676767676767676 ^ ((0x76 ^ 0x7F) << (8 * (7 - k)))) for k in range(1, 8)]
_BELOW = [None] + [_U((1 << (8 * (7 - k))) - 1) for k in range(1, 8)]
# each level joins neighbouring lanes of digits (1, 2, then 4 digits each) into lanes twice as wide: lane i of
# ``y * (scale << width + 1)`` is ``scale * lane[i - 1] + lane[i]`` (no carry: it stays below 10**(2 * digits))
_JOIN = [(_U(10 << 8 | 1), _U(8), _U(0x00FF00FF00FF00FF)), (_U(100 << 16 | 1), _U(16), _U(0x0000FFFF0000FFFF)),
         (_U(10000 << 32 | 1), _U(32), None)]
_CHUNK = 8192  # tokens per batch: the batch's temporaries stay in the processor's cache
# white space and the separators `,<>` -> 0; the characters of a number (`+-.0-9eE`) -> 1
_NUMBER_BYTES = bytes(int(c in b"+-.0123456789eE") for c in range(256))


def token_bounds(isnum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, end) offsets of every maximal run of True in ``isnum`` (which characters of a text
    belong to a number), ``end`` exclusive; int64 arrays in order."""
    edges = np.flatnonzero(isnum[1:] != isnum[:-1])
    edges += 1
    if len(isnum) and isnum[0]:
        edges = np.concatenate(([0], edges))
    if len(isnum) and isnum[-1]:
        edges = np.append(edges, len(isnum))
    return edges[0::2], edges[1::2]


_RUN_BLOCK = 1 << 18  # bytes per block of :func:`runs_of`: its masks stay in the processor's cache


def runs_of(codes: np.ndarray, code: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`token_bounds` of ``codes == code`` (the same offsets; int32 where ``codes`` is shorter than
    2**31, as any text the readers take is: half the memory to write and read again), a block at a time.

    The whole-text masks ``codes == code`` and ``mask[1:] != mask[:-1]`` (each as long as the text:
    63 MB for the sparse assignment's tuple set) and a list of edges later copied are never made:
    each block's masks are made in the same two small arrays, and its edges written straight into
    one array made for all of them (sized from a guess, made larger only when a text holds more
    runs than the guess).  Fewer fresh pages the kernel must clear: 0.03 s less system time there.
    The two arrays are views of that one, ``(start, end)`` of each run in turn: the fields of a tuple
    set lie together in it (:func:`read_columns`)."""
    n = len(codes)
    index = np.int32 if n < 2 ** 31 - 1 else np.int64
    edges = np.empty(n // 3 + 64, dtype=index)  # (a run and its separator take 2 bytes or more)
    count = 0
    mask = np.empty(min(n, _RUN_BLOCK) + 1, dtype=np.bool_)
    change = np.empty(min(n, _RUN_BLOCK), dtype=np.bool_)
    if n and codes[0] == code:
        edges[0] = 0
        count = 1
    for a in range(0, n, _RUN_BLOCK):
        lo = max(a - 1, 0)  # (the byte before the block: a run may start at its first byte)
        seg = codes[lo:a + _RUN_BLOCK]
        m = mask[:len(seg)]
        np.equal(seg, code, out=m)
        c = change[:len(seg) - 1]
        np.not_equal(m[1:], m[:-1], out=c)
        found = np.flatnonzero(c)
        found += lo + 1
        if count + len(found) + 1 > len(edges):
            edges = np.concatenate((edges[:count], np.empty(n + 1 - count, dtype=index)))
        edges[count:count + len(found)] = found
        count += len(found)
    if n and codes[-1] == code:
        edges[count] = n
        count += 1
    edges = edges[:count]
    return edges[0::2], edges[1::2]


def number_mask(data: bytes) -> np.ndarray:
    """Which bytes of ``data`` are number characters ``+-.0123456789eE`` (a bool array)."""
    return np.frombuffer(data.translate(_NUMBER_BYTES), dtype=np.bool_)


def read_tokens(buf: bytes | memoryview, starts: np.ndarray, ends: np.ndarray, longest: list[int] | None = None,
                signs: bool | Callable[[], bool] | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The value of each token ``buf[starts[i]:ends[i]]`` as ``float()`` reads it (a float64 array, bit
    for bit), and whether each is written with ``.``, ``e`` or ``E`` (a bool array); None when a token
    is no number ``float()`` reads, or when too many tokens are outside the fast path to pay off
    (the caller then reads them its own way).  ``buf``: ASCII text; ``starts``, ``ends``: increasing int64 (or int32)
    offsets with ``0 <= start < end <= len(buf)``, each token all number characters (as
    :func:`token_bounds` finds them: a longer run is no token).  ``longest``: when given, the length of
    the longest token is appended to it once every token has been measured (as the batches are read;
    nothing where the read stops at a token that is no number).  ``signs``: whether ``buf`` may hold a
    ``-`` or ``+`` (False: the short tokens are read without looking for a sign); None: looked up; a
    function: asked when first needed (:func:`read_columns`)."""
    read = read_columns(buf, [(starts, ends)], longest, signs)
    return None if read is None else read[0]


def read_columns(buf: bytes | memoryview, columns: list[tuple[np.ndarray, np.ndarray]],
                 longest: list[int] | None = None, signs: bool | Callable[[], bool] | None = None
                 ) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """:func:`read_tokens` of each column ``(starts, ends)`` of tokens of ``buf`` (a list of ``(values,
    points)``, one per column), or None where :func:`read_tokens` of any column gives None.  ``longest``:
    the longest token of all the columns.  ``signs`` may also be a function that answers it, asked
    only if a batch needs the general reader (a column of ids and prices never does).  The columns are read a batch of each in turn: the fields of
    a tuple set (``starts[k::width]``) lie together in one array of offsets, so each part of it is
    brought from memory once for all the fields, not once per field."""
    if len(buf) < 64:  # (a short text: padded, so that every load below is inside it)
        return read_columns(b" " * 16 + bytes(buf), [(s + 16, e + 16) for s, e in columns], longest, signs)
    if signs is None:
        signs = not isinstance(buf, bytes) or b"-" in buf or b"+" in buf
    raw = np.frombuffer(buf, dtype=np.uint8)
    # every 8 bytes of the buffer as one little-endian word, at every offset (overlapping, unaligned)
    words = np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    signs = [signs]  # (a function: replaced by its answer when first asked)
    reads = [_Column(s, e) for s, e in columns]
    most = 0
    for a in range(0, max((c.n for c in reads), default=0), _CHUNK):
        for c in reads:
            if a < c.n:
                most = max(most, c.read(buf, raw, words, a, signs))
    if longest is not None:
        longest.append(most)
    out = []
    for c in reads:
        got = c.finish(buf)
        if got is None:
            return None
        out.append(got)
    return out


class _Column:
    """One column of tokens being read by :func:`read_columns`, a batch at a time."""

    __slots__ = ("starts", "ends", "n", "values", "points", "ok", "head", "decimals")

    def __init__(self, starts: np.ndarray, ends: np.ndarray):
        self.starts, self.ends, self.n = starts, ends, len(starts)
        self.values = np.empty(self.n, dtype=np.float64)
        self.points = np.empty(self.n, dtype=np.bool_)
        self.ok = np.empty(self.n, dtype=np.bool_)
        # the tokens that end in the first 16 bytes: float() reads them (at most 15: a strided column is not
        # searched whole, which would copy it)
        self.head = int(np.searchsorted(ends[:16], 16))
        # the digits after the point of every token so far (0: plain ints), the next batch is tried as such
        # (:func:`_read_fixed`); None once a batch was not (the later ones go to the general reader)
        self.decimals: int | None = 0

    def read(self, buf: bytes | memoryview, raw: np.ndarray, words: np.ndarray, a: int, signs: list) -> int:
        """Read the batch of tokens from ``a``; returns the length of its longest token.  ``signs``: a list of
        :func:`read_columns`' ``signs``, answered in it when first needed."""
        b = min(a + _CHUNK, self.n)
        # where the word that ends where each token ends starts, and its bytes before the token (8 - the
        # token's length), as int64 (made together: a field of a tuple set is every third offset)
        first = np.subtract(self.ends[a:b], 8, dtype=np.int64)
        before = np.subtract(self.starts[a:b], first, dtype=np.int64)
        top = 8 - int(before.min())
        values, points, ok = self.values[a:b], self.points[a:b], self.ok[a:b]
        if top <= 8:
            lo = max(self.head - a, 0)
            if self.decimals is not None and lo < b - a:
                done = _read_fixed(words, first[lo:], before[lo:], self.decimals, values[lo:])
                if not done and self.decimals == 0:
                    # a column of numbers written with a point (`91.0`): as many digits after it as the first one
                    at = int(first[lo]) + 8
                    self.decimals = _decimals(bytes(buf[at - 8 + int(before[lo]):at]))
                    done = self.decimals is not None and _read_fixed(words, first[lo:], before[lo:], self.decimals,
                                                                     values[lo:])
                if done:
                    points[:] = self.decimals > 0
                    ok[:] = True
                    return top
                self.decimals = None
        e = first + 8
        s = first + before
        if top > 8:
            _read_batch(raw, words, 2, s, e, values, points, ok)
        else:
            if callable(signs[0]):
                signs[0] = bool(signs[0]())
            _read_short(raw, words, s, e, 8 - before, values, points, ok, signs[0])
        return top

    def finish(self, buf: bytes | memoryview) -> tuple[np.ndarray, np.ndarray] | None:
        """``(values, points)`` once every batch is read: the tokens left to ``float()`` read by it."""
        values, points, ok = self.values, self.points, self.ok
        ok[:self.head] = False  # (no two words end there)
        slow = np.flatnonzero(~ok)
        if len(slow) > max(64, self.n // 8):  # float() one by one would cost more than the caller's own read
            return None
        for i, s, e in zip(slow.tolist(), self.starts[slow].tolist(), self.ends[slow].tolist()):
            tok = bytes(buf[s:e])
            try:
                values[i] = float(tok)
            except ValueError:  # `1-2`, `1e`, `--1`: no number
                return None
            points[i] = b"." in tok or b"e" in tok or b"E" in tok
        return values, points


def _decimals(tok: bytes) -> int | None:
    """The digits after the point of ``tok`` (1 to 7) where it has one, else None."""
    k = len(tok) - 1 - tok.find(b".")
    return k if b"." in tok and 1 <= k <= 7 else None


def _eight_digits(y: np.ndarray) -> None:
    """In place: each word of ``y``, eight bytes 0..9 with its first byte the most significant digit,
    becomes the integer its digits spell (below 10**8), in three multiplications, shifts and masks
    (the products wrap modulo 2**64; what overflows is lanes already joined)."""
    for scale, shift, mask in _JOIN:
        y *= scale
        y >>= shift
        if mask is not None:
            y &= mask


def _read_fixed(words: np.ndarray, first: np.ndarray, before: np.ndarray, k: int, values: np.ndarray) -> bool:
    """:func:`_read_short` for a batch of tokens of at most 8 characters that are all digits with a point
    ``k`` digits before their end (``k == 0``: no point; a column of ids, or of prices written ``91.0``),
    in half its operations; False, with ``values`` unspecified, when one is anything else (a sign, an
    exponent, a point elsewhere or none).  The value is the integer the digits spell divided by
    ``10**k``: one correctly rounded division, as :func:`_read_short` gives it.  ``first``: where the
    word that ends where each token ends starts; ``before``: its bytes before the token (0 to 7)."""
    if k and int(before.max()) >= 8 - k:  # (the point and k digits: the point's byte is not cleared below)
        return False
    y = words[first]
    y ^= _FIXED[k]  # digits -> 0..9, and the point (byte 7 - k) -> 0
    y &= _KEEP.take(before)  # the bytes before the token read as leading zeros
    # each byte a digit, the point's 0: a byte of 10 or more, or the point's byte not 0, sets its high bit
    if int(np.bitwise_or.reduce(y + _NOT_DIGIT[k])) & 0x8080808080808080:
        return False
    if k:
        y += (y & _BELOW[k]) * _U(255)  # the bytes before the point moved one byte on, over it
    _eight_digits(y)
    if k:  # (y is below 10**7: exact as a double; as int64, converted faster than as uint64)
        np.divide(y.view(np.int64), _POW10[k], out=values)
    else:
        values[:] = y.view(np.int64)  # (below 10**8: exact)
    return True


def _read_short(raw: np.ndarray, words: np.ndarray, s: np.ndarray, e: np.ndarray, length: np.ndarray,
                values: np.ndarray, points: np.ndarray, ok: np.ndarray, signs: bool = True) -> None:
    """:func:`_read_batch` for tokens of at most 8 characters: one word each, a sign left out of it.
    ``signs``: False where no token holds a sign (the tokens' first characters are then not read)."""
    # the 8 bytes that end where the token ends, those before its first digit (or point) cleared
    y = words[e - 8]
    y ^= _ASCII0
    if signs:
        first = raw[s]
        signed = (first == 45) | (first == 43)  # "-", "+"
        y &= _KEEP.take(8 - length + signed)
    else:
        y &= _KEEP.take(8 - length)
    point = y ^ _POINT
    point += _LOW7
    point &= _HIGH
    point ^= _HIGH  # the high bit of every "." (every byte is below 0x80)
    nondigit = y | _HIGH
    nondigit -= _TENS
    nondigit &= _HIGH  # the high bit of every byte that is not 0..9
    npoints = np.bitwise_count(point)
    good = nondigit == point  # nothing but digits and points: no second sign, no exponent
    good &= npoints <= 1
    good &= length > (signed + npoints if signs else npoints)  # a digit
    point >>= _U(7)
    y -= point * _U(0x1E)  # the "." reads as 0
    low = point - (point != 0)  # the bytes before the "."
    y += (y & low) * _U(255)  # ... moved one byte on, over the "."
    _eight_digits(y)
    # digits after the point: 7 - the bytes before it (none without one)
    k = (np.uint8(7) - (np.bitwise_count(low) >> np.uint8(3))) * npoints
    if signs:
        k |= (first == 45).view(np.uint8) << np.uint8(5)  # (a "-": divided by -10**k, which is as exact)
    # (y is below 10**8: exact as a double, and the one division is correctly rounded)
    np.divide(y.view(np.int64), (_SIGNED_POW10 if signs else _POW10).take(k), out=values)
    np.not_equal(npoints, 0, out=points)
    ok[:] = good


def _read_batch(raw: np.ndarray, words: np.ndarray, nwords: int, s: np.ndarray, e: np.ndarray,
                values: np.ndarray, points: np.ndarray, ok: np.ndarray) -> None:
    """:func:`read_tokens` for one batch of tokens, into ``values``, ``points`` and ``ok`` (False: the
    token is outside the fast path, its value is left to ``float()``)."""
    length = e - s
    first = raw[s]
    negative = first == 45  # "-"
    signed = negative | (first == 43)  # "+"
    # Each token is read from the 8 * nwords bytes that end where it ends (byte 0 of a word is its
    # first character, so a word's digits read left to right are its bytes in order); the bytes
    # before the token, and its sign, are cleared, and so read as leading zeros.
    digits, points_in, others, npoints = [], [], None, None
    for j in range(nwords):
        before = 8 * (nwords - j)  # the word starts this many bytes before the token's end
        keep = before - length + signed  # the first digit's byte in the word (0 or less: all; 8 or more: none)
        y = words[e - before]
        y ^= _ASCII0
        y &= _KEEP.take(keep if nwords == 1 else np.clip(keep, 0, 8))
        nondigit = y | _HIGH
        nondigit -= _TENS
        nondigit &= _HIGH  # the high bit of every byte that is not 0..9
        point = y ^ _POINT
        point += _LOW7
        point &= _HIGH
        point ^= _HIGH  # the high bit of every "." (every byte is below 0x80)
        other = np.bitwise_count(nondigit)
        nondigit -= nondigit >> _U(7)
        y &= ~(nondigit << _U(1) | nondigit)  # the "." and sign bytes read as 0
        dots = np.bitwise_count(point)
        others = other if others is None else others + other
        npoints = dots if npoints is None else npoints + dots
        digits.append(y)
        points_in.append(point)
    # after the sign, digits and at most one point, at least one digit (`others` counts points,
    # signs and exponents), all in the words read
    good = others == npoints
    good &= npoints <= 1
    length -= signed
    good &= length > others
    good &= length <= 8 * nwords
    # Take the "." out: the bytes before it move one byte to the right (towards the token's end), a
    # word's last byte into the next word's first; then k = the digits after it.
    k = None
    later = None  # whether a later word holds the "."
    for j in range(nwords - 1, -1, -1):
        p, y = points_in[j], digits[j]
        low = p >> _U(7)
        low -= p != 0  # the bytes before the "." (none if the word holds no ".")
        after = np.bitwise_count(~(p | (p - _U(1)))) >> np.uint8(3)  # the bytes after it, in this word
        if later is not None:  # a "." in a later word moves every byte of this one
            low |= np.negative(later.astype(np.uint64))
            after += (p != 0) * np.uint8(8 * (nwords - 1 - j))  # and a "." here has the later words after it
        k = after if k is None else k + after
        moved = y & low
        y += moved * _U(255)  # = the bytes at and after the "." + the bytes before, moved
        if later is not None:
            digits[j + 1] += moved >> _U(56)  # this word's last byte: the next word's first
            later |= p != 0
        else:
            later = p != 0
    # eight digits per word (bytes as digits, the first byte most significant), words joined
    m = None
    for y in digits:
        _eight_digits(y)
        m = y if m is None else m * _U(100000000) + y
    if nwords > 1:
        good &= m < _U(_EXACT)
    np.divide(m.view(np.int64), _POW10.take(k), out=values)
    np.negative(values, out=values, where=negative)
    np.not_equal(npoints, 0, out=points)
    ok[:] = good
