"""The layout check of a large numeric tuple set (or matrix) runs piece by piece (``fastpath._LAYOUT_PIECE``
bytes at a time, each piece from a ``<`` or ``[``): the pieces give the layout of the whole body, and
the fast path still reads what the full parser reads (values, types, spans, diagnostics), including
every malformed body, with pieces as small as one byte."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.data import fastpath

from dat_compare import both_with
from test_tuple_bulk import _JUNK_CASES, _dat, _tuple_set

SLOW = settings(max_examples=examples(200), deadline=None, suppress_health_check=SPEED_CHECKS)


def _layout(body: str, table: bytes, piece: int):
    real = fastpath._LAYOUT_PIECE
    fastpath._LAYOUT_PIECE = piece
    try:
        return fastpath._tuple_layout(body, table)
    finally:
        fastpath._LAYOUT_PIECE = real


def _same_layout(whole, pieces) -> None:
    assert (whole is None) == (pieces is None)
    if whole is None:
        return
    for a, b in zip(whole[:4], pieces[:4]):  # opens, closes, counts, floats
        assert a.dtype.kind == b.dtype.kind and np.array_equal(a, b)
    if whole[4] is not None and pieces[4] is not None:  # (each may leave the numbers to the caller)
        assert whole[4].tobytes() == pieces[4].tobytes()


@SLOW
@given(_tuple_set(), st.sampled_from([1, 2, 5, 16, 64]), st.booleans())
def test_pieces_give_the_layout_of_the_whole_body(text, piece, rows):
    body = text[1:-1]
    table = fastpath._CLASS_BYTES
    if rows:  # the same text as a matrix's rows
        body, table = body.replace("<", "[").replace(">", "]"), fastpath._ROW_CLASS_BYTES
    _same_layout(_layout(body, table, 1 << 30), _layout(body, table, piece))


@SLOW
@given(_dat(), st.sampled_from([1, 3, 8, 40]))
def test_read_in_pieces_matches_the_full_parser(text, piece):
    slow, fast, d_slow, d_fast = both_with(fastpath, "_LAYOUT_PIECE", piece, text)
    assert fast == slow
    assert d_fast == d_slow


@pytest.mark.parametrize("body", _JUNK_CASES)
def test_odd_layouts_in_pieces_match_the_full_parser(body):
    good = ", ".join("<%d, %d.5>" % (i, i) for i in range(30))
    for text in ("S = {%s};\n" % body, "S = {%s, %s};\n" % (good, body), "S = {%s, %s};\n" % (body, good)):
        for piece in (1, 7, 20):
            slow, fast, d_slow, d_fast = both_with(fastpath, "_LAYOUT_PIECE", piece, text)
            assert fast == slow and d_fast == d_slow


def test_a_matrix_in_pieces_matches_the_full_parser():
    rows = ",\n".join("  [" + ", ".join("%d.%d" % (i * j % 97, j) for j in range(40)) + "]" for i in range(60))
    text = "m = [\n%s\n];\n" % rows  # (over _BULK_FROM characters: read by _numeric_rows)
    for piece in (64, 1000):
        slow, fast, d_slow, d_fast = both_with(fastpath, "_LAYOUT_PIECE", piece, text)
        assert fast == slow and d_fast == d_slow == []
    assert len(text) > fastpath._BULK_FROM


def test_a_large_body_is_read_in_pieces():
    body = ", ".join("<%d, %d, %d.5, %d>" % (i, (i * 7) % 50, i % 9, 20 + i % 3) for i in range(20000))
    assert len(body) > 2 * (fastpath._LAYOUT_PIECE // 8)  # (pieces of an eighth of the default below)
    whole = _layout(body, fastpath._CLASS_BYTES, 1 << 30)
    pieces = _layout(body, fastpath._CLASS_BYTES, fastpath._LAYOUT_PIECE // 8)
    _same_layout(whole, pieces)
    assert len(whole[0]) == 20000 and whole[4] is not None and pieces[4] is not None
    assert whole[4][:8].tolist() == [0, 0, 0.5, 20, 1, 7, 1.5, 21]
