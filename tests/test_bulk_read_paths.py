"""The shortcuts of the large-``.dat`` read and of the tuple-set conversion (issue 46, sparse assignment):
each gives what the general way gives, on the inputs it takes and on those it must leave alone.

- ``maybe_too_large(text, cleared)``: ranges the bulk readers measured are not searched for a run of
  100 digits; the answer is still the regex's on the whole text (ranges whose edge is a digit are
  searched all the same: a run could cross it).
- numscan's batches of plain ints (1-8 digits, no sign, no point): bit for bit ``float()``, and the
  general reader takes over for a batch that holds anything else.
- a tuple set whose brackets touch its numbers (``<1, 2, 3.5>``) is laid out from the places of its
  numbers (``_tight_tuples``): the same layout as from the places of all its brackets, or the same None.
- short tokens of a body without ``-``/``+`` read without looking for a sign (``signs=False``), and a
  body read from a view of the text's bytes: bit for bit ``float()``.
- a tuple set's numbers read a field at a time (``by_field``): bit for bit the read in the text's order
  (or ``float()`` where that read leaves them to the caller), the same layout and the same None.
- a large text's lines counted from the nearest offset counted before (no array of its newlines): the
  array's line and column, offsets asked in any order.
- rows written in order are distinct without hashing; a field listed in order is grouped without a
  sort (the identity is the stable sort's permutation); a field of small ints is grouped from a count
  of each value (the same arrays as from the values gathered into their order).
- a large file read both ways (fast path, full Lark parser): the same values, spans and diagnostics,
  with a number too large after, inside and before a set read in bulk.
"""
from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dat_compare import both
from property_budget import SPEED_CHECKS, examples

from pyopl.data import convert, fastpath, numscan, positions
from pyopl.lowering.arrays.vectorised import _stable_order
from pyopl.lowering.arrays.vectorised_rows import _Entries, _parts_distinct, _row_starts, _small_int_groups
from pyopl.syntax.number_literals import MAYBE_TOO_LARGE, maybe_too_large

SOME = settings(max_examples=examples(200), deadline=None, suppress_health_check=SPEED_CHECKS)


# ---------------------------------------------------------------------- maybe_too_large with cleared ranges
@SOME
@given(st.lists(st.sampled_from(["1" * 30, "7" * 60, " ", "<", ">", ",", "x", "e5", "e300", "\n", "2.5"]),
                max_size=40), st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 300)), max_size=4))
def test_cleared_ranges_give_the_regexs_answer(pieces, ranges):
    text = "".join(pieces) + " " * 100
    cleared, last = [], 0
    for a, width in sorted(ranges):  # the precondition the readers guarantee: no run of 100 digits inside
        a = max(a, last)
        b = min(a + width, len(text))
        if a < b and re.search(r"\d{100}", text[a:b]) is None:
            cleared.append((a, b))
            last = b
    assert maybe_too_large(text, cleared) == (MAYBE_TOO_LARGE.search(text) is not None)


def test_a_run_of_digits_across_the_edge_of_a_cleared_range_is_found():
    text = "a = [" + "1" * 60 + "2" * 60 + "];"
    inside = (5 + 60, 5 + 120)  # the second half of the run only: 60 digits, under 100
    assert maybe_too_large(text, [inside]) and maybe_too_large(text)
    ok = "S = {<" + "1" * 99 + ">};" + " 4" * 80
    at = (ok.index("{") + 1, ok.index("}"))
    assert not maybe_too_large(ok, [at])
    assert maybe_too_large(ok + " 1e400", [at])  # an exponent is searched for everywhere


# ---------------------------------------------------------------------- numscan: batches of plain ints
@st.composite
def _ints_mostly(draw):
    toks = draw(st.lists(st.text("0123456789", min_size=1, max_size=8), min_size=1, max_size=200))
    for _ in range(draw(st.integers(0, 3))):  # a few others: signs, points, 9 digits, exponents
        at = draw(st.integers(0, len(toks) - 1))
        toks[at] = draw(st.sampled_from(["-3", "+7", "5.", ".5", "123456789", "1e5", "-0", "00000000", "0"]))
    return toks


@SOME
@given(_ints_mostly(), st.sampled_from([1, 3, 7, 64, 8192]), st.sampled_from([" ", ", ", ">,\n<", "\t"]))
def test_plain_int_batches_read_as_float_reads_them(tokens, chunk, sep):
    buf = ("<" + sep.join(tokens) + ">").encode()
    plain = []
    real_chunk, real_fixed = numscan._CHUNK, numscan._read_fixed
    numscan._CHUNK = chunk
    numscan._read_fixed = lambda *a: plain.append((a[3], real_fixed(*a))) or plain[-1][1]
    try:
        starts, ends = numscan.token_bounds(numscan.number_mask(buf))
        values, points = numscan.read_tokens(buf, starts, ends)
    finally:
        numscan._CHUNK, numscan._read_fixed = real_chunk, real_fixed
    assert values.tobytes() == np.array([float(t) for t in tokens]).tobytes()
    assert points.tolist() == [any(c in t for c in ".eE") for t in tokens]
    if all(t.isdigit() and len(t) <= 8 for t in tokens):
        assert plain and all(ok for _k, ok in plain) and {k for k, _ok in plain} == {0}  # every batch plain
    # plain ints first; once a batch is not, one number of digits after the point is tried (the first
    # token's), and once a batch is not that either, the later ones go straight to the general reader
    results = [ok for _k, ok in plain]
    assert results.count(False) <= 2 and (False not in results or results[-1] is False or results.count(False) == 1)
    assert [k for k, _ok in plain] == sorted(k for k, _ok in plain)  # (0 first, then one k)
    assert len({k for k, _ok in plain}) <= 2


@SOME
@given(st.lists(st.tuples(st.integers(0, 10 ** 7 - 1), st.integers(1, 7)), min_size=1, max_size=200),
       st.integers(0, 3), st.sampled_from([1, 3, 64, 8192]), st.sampled_from([", ", ">,\n<", " "]))
def test_batches_with_as_many_digits_after_the_point_read_as_float_reads_them(pairs, odd, chunk, sep):
    # a column of prices (`91.0`, `12.50`): digits with a point k digits before the end, read as
    # plain ints divided by 10**k; a few others (another k, no point, a sign, an exponent, too long,
    # a point and no digit before it) leave the batch to the general reader, or read as they are
    k = pairs[0][1]
    tokens = [("" if m < 10 ** k and (k == 7 or m % 3) else str(m // 10 ** k)) + "." + "%0*d" % (k, m % 10 ** k)
              for m, _k in pairs]  # (`.5` too: no digit before the point)
    tokens = [t for t in tokens if len(t) <= 8] or ["." + "0" * k]
    for j in range(odd):
        tokens[(j * 7) % len(tokens)] = ["1.5", "-2.0", "3e1", "123456789.5", "." + "5" * k, "7", "+0.1"][j * 3 % 7]
    buf = (" " * 20 + "<" + sep.join(tokens) + ">").encode()
    calls = []
    real_chunk, real_fixed = numscan._CHUNK, numscan._read_fixed
    numscan._CHUNK = chunk
    numscan._read_fixed = lambda *a: calls.append((a[3], real_fixed(*a))) or calls[-1][1]
    try:
        starts, ends = numscan.token_bounds(numscan.number_mask(buf))
        values, points = numscan.read_tokens(buf, starts, ends)
        signed = numscan.read_tokens(buf, starts, ends, signs=False)  # (signs are refused by the check itself)
    finally:
        numscan._CHUNK, numscan._read_fixed = real_chunk, real_fixed
    want = np.array([float(t) for t in tokens])
    assert values.tobytes() == want.tobytes() == signed[0].tobytes()
    assert points.tolist() == [any(c in t for c in ".eE") for t in tokens] == signed[1].tolist()
    if not odd:
        assert (k, True) in calls  # the batches read as k digits after the point


def test_a_plain_batch_after_the_texts_first_bytes():
    buf = b"1 22 333 " + b" ".join(b"%08d" % k for k in range(5000)) + b" 99999999"
    starts, ends = numscan.token_bounds(numscan.number_mask(buf))
    values, points = numscan.read_tokens(buf, starts, ends)
    assert values.tolist() == [1.0, 22.0, 333.0] + [float(k) for k in range(5000)] + [99999999.0]
    assert not points.any()


# ---------------------------------------------------------------------- sorted rows, sorted fields
@SOME
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from([0.0, -0.0, 1.0, 2.5]), st.integers(0, 2)),
                max_size=60), st.booleans())
def test_rows_in_order_are_distinct_exactly_when_a_dict_says_so(rows, in_order):
    if in_order:
        rows = sorted(rows)
    cols = [np.array([float(r[k]) for r in rows]) for k in range(3)]
    want = len(set(rows)) == len(rows)
    assert convert._distinct_rows(cols) == want
    if len(rows) > 1 and convert._strictly_increasing(cols):
        assert want and all(a < b for a, b in zip(rows, rows[1:]))


@SOME
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.0, 3.5, 1e300, -7.0]), max_size=80), st.booleans())
def test_a_field_in_order_keeps_the_stable_sorts_permutation(values, in_order):
    num = np.array(sorted(values) if in_order else values, dtype=np.float64)
    exact = bool(len(num)) and bool(np.all(num == np.round(num))) and bool(np.all(np.abs(num) < 2.0 ** 53))
    assert _stable_order(num, exact).tolist() == np.argsort(num, kind="stable").tolist()


@SOME
@given(st.lists(st.integers(-3, 40) | st.sampled_from([-0.0, 70000]), min_size=1, max_size=80))
def test_groups_of_small_ints_from_their_counts_are_those_from_the_sorted_values(values):
    # sorted_groups of a field of ids: each value's run found from a count of each code, not by
    # gathering the values into their order (the same four arrays, bit for bit, or None past 2**16)
    num = np.array(values, dtype=np.float64)
    order = np.argsort(num, kind="stable")
    ranked = num[order]
    starts = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
    want = (ranked[starts], starts, np.append(starts[1:], len(order)), order)
    got = _small_int_groups(num)
    if num.max() - num.min() >= 2 ** 16:
        assert got is None
        return
    for x, y in zip(want, got):
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()


@SOME
@given(st.lists(st.integers(0, 12), max_size=40), st.integers(0, 3), st.lists(st.integers(0, 6), max_size=40))
def test_row_starts_and_rising_columns_as_counted(rows, extra, cols):
    row = np.sort(np.array(rows, dtype=np.int64))
    m = (int(row.max()) + 1 if len(row) else 0) + extra
    want = np.concatenate(([0], np.cumsum(np.bincount(row, minlength=m))))
    got = _row_starts(row, m)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    col = np.resize(np.array(cols or [0], dtype=np.int64), len(row))
    if len(col):  # no column twice in a row, each row's columns rising: as the pairwise test of neighbours
        rising = not np.any((row[1:] == row[:-1]) & (col[1:] <= col[:-1]))
        assert _parts_distinct([_Entries(row, np.ones(len(col)), col, 0.0, True)]) == rising


@SOME
@given(st.binary(max_size=300).map(lambda b: b.replace(b"\r", b"\n")), st.integers(0, 300), st.integers(0, 300),
       st.sampled_from([1, 2, 5, 64]))
def test_newlines_counted_a_block_at_a_time(data, a, b, block):
    a, b = sorted((min(a, len(data)), min(b, len(data))))
    real = positions._COUNT_BLOCK
    try:
        positions._COUNT_BLOCK = block  # (every range then counted by blocks, across their edges)
        assert positions.newlines_in(data, a, b) == data.count(b"\n", a, b)
    finally:
        positions._COUNT_BLOCK = real


@SOME
@given(st.integers(0, 200), st.sampled_from(["e5", "E300", "e+0400", "e199", "x"]), st.sampled_from(["e", "E", "ee"]))
def test_large_exponents_searched_from_their_letters_give_the_regexs_answer(many, last, filler):
    text = "name%s = 1;\n" % (filler * many) + "x = 1%s;\n" % last  # (past the 64 places tried one by one)
    assert maybe_too_large(text) == (MAYBE_TOO_LARGE.search(text) is not None)


# ---------------------------------------------------------------------- tuple layouts from the numbers' places
_PIECES = ["<", ">", "1", "22", "3.5", "-4", ",", " ", "\n", "<7, 8, 9.5>", "<1,2,3>", ">,\n<"]


@SOME
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30), st.integers(0, 3))
def test_a_layout_from_the_numbers_places_is_the_layout_from_every_bracket(pieces, pad):
    body = ("{" * pad + "".join(pieces)).encode()  # (read at an offset: the body starts after `pad` bytes)
    bounds = (pad, len(body))

    def layout(tight: bool):
        real = fastpath._tight_tuples
        if not tight:
            fastpath._tight_tuples = lambda *a: None
        try:
            return fastpath._tuple_layout(body, fastpath._CLASS_BYTES, bounds)
        finally:
            fastpath._tight_tuples = real

    fast, general = layout(True), layout(False)
    assert (fast is None) == (general is None)
    if fast is not None:
        for x, y in zip(fast[:4], general[:4]):
            assert x.tolist() == y.tolist()
        assert (fast[4] is None) == (general[4] is None) and fast[5] == general[5]
        if fast[4] is not None:
            assert fast[4].tobytes() == general[4].tobytes()


@SOME
@given(st.lists(st.from_regex(r"[0-9]{1,4}(\.[0-9]{0,3})?|\.[0-9]{1,3}", fullmatch=True), min_size=1, max_size=300),
       st.sampled_from([1, 7, 8192]), st.integers(0, 9))
def test_short_tokens_without_signs_read_as_float_reads_them(tokens, chunk, at):
    buf = (" " * at + "<" + ", ".join(tokens) + ">").encode()
    view = memoryview(b"xy" + buf)[2:]  # (the text's bytes seen from an offset, as the reader sees a body)
    real_chunk = numscan._CHUNK
    numscan._CHUNK = chunk
    try:
        starts, ends = numscan.token_bounds(numscan.number_mask(buf))
        longest: list = []
        values, points = numscan.read_tokens(view, starts, ends, longest, signs=False)
        signed = numscan.read_tokens(buf, starts, ends, signs=True)
    finally:
        numscan._CHUNK = real_chunk
    want = np.array([float(t) for t in tokens])
    assert values.tobytes() == want.tobytes() == signed[0].tobytes()
    assert points.tolist() == ["." in t for t in tokens] == signed[1].tolist()
    assert longest == [max(map(len, tokens))]


# ---------------------------------------------------------------------- a tuple set's numbers read a field at a time
_FIELD_TOKENS = st.sampled_from(["+3", "-0", "007", "1.", ".5", "-.25", "3e2", "2.5E-2", "-0.0", "1e400", "+4.5",
                                  "12e+3", "1.e5", "-1E-3", "12345678.5", "123456789012345678", "1-2", ".", "9" * 17])
_FIELD = {"int": st.integers(0, 10**8 - 1).map(str),
          "float": st.tuples(st.integers(-10**6, 10**6), st.integers(0, 999)).map(lambda p: "%d.%d" % p),
          "any": _FIELD_TOKENS | st.integers(-10**9, 10**9).map(str)}


@SOME
@given(st.integers(1, 4), st.integers(1, 60), st.data(), st.sampled_from([1, 5, 8192]), st.integers(0, 3))
def test_numbers_read_a_field_at_a_time_are_those_read_in_the_texts_order(width, n, data, chunk, pad):
    # each field drawn one way (ids, floats, exponents, signs, a token that is no number, ints past 2**53)
    kinds = [data.draw(st.sampled_from(["int", "float", "any"])) for _ in range(width)]
    row = st.tuples(*[_FIELD[k] for k in kinds])
    rows = data.draw(st.lists(row, min_size=n, max_size=n))
    body = ("{" * pad + ",\n".join("<" + ", ".join(r) + ">" for r in rows)).encode()
    bounds = (pad, len(body))
    real_chunk = numscan._CHUNK
    numscan._CHUNK = chunk
    try:
        whole = fastpath._tuple_layout(body, fastpath._CLASS_BYTES, bounds)
        fields = fastpath._tuple_layout(body, fastpath._CLASS_BYTES, bounds, by_field=True)
    finally:
        numscan._CHUNK = real_chunk
    assert (whole is None) == (fields is None)
    if whole is None:
        return
    for x, y in zip(whole[:4], fields[:4]):
        assert x.tolist() == y.tolist()
    assert whole[5] == fields[5]
    if isinstance(fields[4], list):  # read a field at a time: bit for bit the text-order read, or float()
        assert width > 1 and len(fields[4]) == width
        want = whole[4] if whole[4] is not None else np.array([float(t) for r in rows for t in r])
        for k, col in enumerate(fields[4]):
            assert col.flags.c_contiguous and col.tobytes() == want[k::width].tobytes()
    else:  # one field, or a field numscan leaves to the caller: the text-order read itself
        assert (fields[4] is None) == (whole[4] is None)
        if whole[4] is not None:
            assert fields[4].tobytes() == whole[4].tobytes()


# ---------------------------------------------------------------------- lines of a large text counted, no array
@SOME
@given(st.lists(st.sampled_from(["\n", "a", "1, 2", "\n\n", " " * 40]), min_size=1, max_size=40), st.data())
def test_lines_counted_from_the_nearest_offset_are_the_arrays(pieces, data):
    text = "".join(pieces) * (65536 // len("".join(pieces)) + 1)  # (a large ASCII text: counted, not an array)
    offsets = data.draw(st.lists(st.integers(0, len(text) - 1), min_size=1, max_size=12))  # any order, repeats
    counted, whole = positions.Positions(text), positions.Positions(text)
    whole.array()
    for at in offsets:
        assert counted.at(at) == whole.at(at) == (text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
    assert counted._nl is None  # (never made)
    lines = counted.lines()
    assert lines().tolist() == whole.array().tolist() == [k for k, c in enumerate(text) if c == "\n"]


# ---------------------------------------------------------------------- whole files, both readers
def _big_set(n: int) -> str:
    return "Pairs = {\n" + ",\n".join("<%d, %d, %d.5>" % (k // 7 + 1, k % 97 + 1, k % 13) for k in range(n)) + "\n};\n"


def test_a_large_file_reads_the_same_both_ways_with_exact_spans():
    text = "nbWorkers = 3;\n" + _big_set(6000) + "capacity = [1, 2, 3];\nname = \"a\";\n"
    assert len(text) > 65536  # (the text's lines found with NumPy)
    slow, fast, d_slow, d_fast = both(text)
    assert fast == slow and d_fast == d_slow == []


def test_a_number_too_large_is_reported_where_the_full_parser_reports_it():
    big = _big_set(6000)
    huge = "1" + "0" * 400 + ".5"  # (a run of 401 digits: past every double)
    for text in ("n = %s;\n" % huge + big,  # before the set
                 big + "c = [1, 1e999];\n",  # after it
                 big.replace("<1, 1, 0.5>", "<1, 1, %s>" % huge),  # inside it
                 big.replace("<1, 1, 0.5>", "<1, 1, 2e400>")):
        assert text != big
        slow, fast, d_slow, d_fast = both(text)
        assert [d[0] for d in d_slow] == ["OPL1128"] and d_fast == d_slow
        assert fast == slow
    # a run of 100 digits that is no error: the full parser reads the file, with the same values
    slow, fast, d_slow, d_fast = both(big.replace("<1, 1, 0.5>", "<1, 1, %s>" % ("1" * 110)))
    assert fast == slow and d_fast == d_slow == []
