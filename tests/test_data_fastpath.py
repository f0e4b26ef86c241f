"""The .dat fast path (pyopl/data/fastpath.py) gives exactly what the full Lark parser gives.

Property test: generated data files (numeric arrays in many layouts, sets,
tuple sets, scalars, comments, statements only the full parser reads, and
sometimes a syntax error) are parsed both ways; the values (with their
types, int or float), every span, and every diagnostic must be identical.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

from pyopl.data.parser import UnfilledRows
from pyopl.data.fastpath import parse_data_fast
from pyopl.diagnostics.reporter import Reporter

from dat_compare import both as _both
from dat_compare import both_with


_int = st.integers(-10**12, 10**12).map(str) | st.integers(0, 99).map(lambda i: "+%d" % i)
_float = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.sampled_from(["1.", ".5", "-.25", "3e2", "2.5E-2", "-0.0", "1e400", "007", "0.10", "+4.5", "12e+3"]))
_num = _int | _float
_sep = st.sampled_from([", ", ",", " ", "\n", ",\n  ", " , ", "\t", "\r\n"])
_ws = st.sampled_from(["", " ", "\n", "  \n\t"])
_str = st.text(st.sampled_from('abcXYZ_ 1-"\\'), max_size=6).map(
    lambda s: '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"'))


@st.composite
def _elems(draw, item, lo=0, hi=8):
    xs = draw(st.lists(item, min_size=lo, max_size=hi))
    out = ""
    for k, x in enumerate(xs):
        out += x + (draw(_sep) if k < len(xs) - 1 else draw(st.sampled_from(["", ",", " ", "\n"])))
    return out


def _wrap(open_, close):
    return lambda body_ws: open_ + body_ws[1] + body_ws[0] + body_ws[1] + close


_row = st.tuples(_elems(_num), _ws).map(_wrap("[", "]"))
_matrix = st.tuples(_elems(_row, 0, 4), _ws).map(_wrap("[", "]"))
_cube = st.tuples(_elems(_matrix, 0, 3), _ws).map(_wrap("[", "]"))
_set = st.tuples(_elems(_num | _str), _ws).map(_wrap("{", "}"))
_tuple = st.tuples(_elems(_num | _str, 1, 4), st.just("")).map(_wrap("<", ">"))
_tupleset = st.tuples(_elems(_tuple, 0, 5), _ws).map(_wrap("{", "}"))
_value = _row | _matrix | _cube | _set | _tupleset | _tuple | _num | _str
_other = st.sampled_from([
    "r = 1..5;", 'k = #["a": 1, "b": 2]#;', "s = {a, b};", "v = [1, infinity];", "w = [-infinity, maxint];",
    "nt = #<a: 1, b: 2>#;", "c = [1, /* two */ 2];", "d = [1 // one\n, 2];", 'include "other.dat";',
    "x[1] = 5;", "y = [1, 2] ;", "z = - 5;", "q = [ - 5, + 3];", "e = [1e];", "f = [1..3];", "g = [,1];",
    "h = [1,,2];", "u = < >;", "// a comment\n", "/* block\ncomment */", ";", "   \n",
])
_broken = st.sampled_from(["a = [1, 2;", "= 5;", "b = [1 2", 'c = "open;', "d = {1, 2];", "e 5;", "f = [[1], 2;"])


@st.composite
def _dat(draw):
    parts = []
    for k in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 9))
        if kind < 6:
            parts.append("v%d%s=%s%s%s;" % (k, draw(_ws), draw(_ws), draw(_value), draw(_ws)))
        elif kind < 9:
            parts.append(draw(_other))
        else:
            parts.append(draw(_broken))
        parts.append(draw(st.sampled_from(["\n", " ", "\n\n", "\r\n", ""])))
    return "".join(parts)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(_dat())
def test_fast_path_matches_the_full_parser(text):
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow
    assert d_fast == d_slow


@settings(max_examples=examples(300), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(_dat())
def test_rows_and_matrices_read_by_numscan_match_the_full_parser(text):
    from pyopl.data import fastpath

    # every container of numbers, and every matrix, read in one numscan pass
    slow, fast, d_slow, d_fast = both_with(fastpath, "_BULK_FROM", 0, text)
    assert fast == slow
    assert d_fast == d_slow


def test_large_numeric_array_is_read_by_the_fast_path_with_spans():
    rows = ["  [%s]" % ", ".join("%d.5" % (r * 1000 + c) for c in range(1000)) for r in range(20)]
    text = "n = 3;\ncost = [\n" + ",\n".join(rows) + "\n];\nS = {\"a\", \"b\"};\n"
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow and d_fast == d_slow == []
    items = parse_data_fast(text, "d.dat", Reporter())
    cost = items[1]
    assert [i.name for i in items] == ["n", "cost", "S"]
    assert cost.value[19][999] == 19999.5 and isinstance(cost.value[0][0], float)
    assert (cost.value.span.line, cost.value.span.column, cost.value.span.end_line) == (2, 8, 23)
    assert (cost.value[1].span.line, cost.value[1].span.column) == (4, 3)
    assert (cost.value[19].span.end_line, cost.value[19].span.end_column) == (22, 3 + len(rows[19].strip()))


def test_a_large_matrix_is_read_in_one_pass_and_its_rows_keep_their_types(monkeypatch):
    from pyopl.data import fastpath

    taken = []
    real = fastpath._Reader._numeric_rows
    monkeypatch.setattr(fastpath._Reader, "_numeric_rows",
                        lambda self, i, top=False: taken.append(real(self, i, top)) or taken[-1])
    rows = ["[%s]" % ", ".join(("%d" if (r + c) % 3 else "%d.25") % (r * 100 + c) for c in range(100))
            for r in range(60)]
    text = "m = [\n  " + ",\n  ".join(rows) + "\n];\n"
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow and d_fast == d_slow == []
    value = taken[0][0]
    assert type(value) is UnfilledRows  # a whole data item: the numbers kept as one array (filled when read)
    assert value.numbers.tolist() == [float(r * 100 + c) + (0.0 if (r + c) % 3 else 0.25)
                                      for r in range(60) for c in range(100)]
    assert (value.rows, value.width) == (60, 100) and not value.numbers.flags.writeable
    assert len(value) == 60 and value[59][99] == 5999 and isinstance(value[59][99], int)
    assert value[0][3] == 3.25 and isinstance(value[0][3], float) and isinstance(value[0][2], int)
    big = "m = [[%s], [1]];\n" % ", ".join(["9007199254740993"] * 400)  # an int past 2**53: row by row
    slow, fast, d_slow, d_fast = _both(big)
    assert fast == slow and taken[-1] is None


def test_syntax_error_anywhere_gives_the_full_parsers_diagnostics():
    big = "a = [%s];\n" % ", ".join(map(str, range(5000)))
    text = big + "b = [1, 2;\n" + big.replace("a =", "c =")
    slow, fast, d_slow, d_fast = _both(text)
    assert d_slow and d_fast == d_slow
    assert fast == slow


@pytest.mark.parametrize("value", ["[1,,2]", "[,1]", "[1, 2,]", "[1-2]", "[- 5]", "[+5 -.5 1.e3]", "{3, 1}", "[1e]",
                                   "[\u0661\u0662]", "[1 2\n 3\t4]", "[.]", "[1..2]", "<1, 2.5>", "[ ]", "[1 e5]",
                                   "{<1, 2>, <3, 4.5>}", "{<1, 2> <3, 4>,}", "{,<1,2>}", "{<1,2>,,<3,4>}", "{<1,<2>>}",
                                   "{<>}", "{< >, <1>}", "{<1,2>\n  <3,\n4>\n}", '{<1, 2>, <3, "a">}', "{<1,,2>}",
                                   "{<1-2, 3>}", "{<1, 2>, 5}", "{<1 2> , <3 4> ,}"])
def test_numbers_only_containers_match_the_full_parser(value):
    text = "a = %s;\nb = [%s];\n" % (value, ", ".join([value] * 3))
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow and d_fast == d_slow


def test_numeric_tuple_sets_take_the_bulk_reader_with_the_same_spans(monkeypatch):
    from pyopl.data import fastpath

    taken = []
    real = fastpath._Reader._numeric_tuples
    monkeypatch.setattr(fastpath._Reader, "_numeric_tuples", lambda self, i: taken.append(real(self, i)) or taken[-1])
    text = "Arcs = {\n" + "".join("  <%d, %d, %d.5, 20>,\n" % (i, (i * 7) % 50, i % 9) for i in range(50)) + "};\n"
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow and d_fast == d_slow == []
    assert taken and taken[0] is not None and len(taken[0][0]) == 50


def test_searching_for_the_ends_of_nested_matrices_is_bounded(monkeypatch):
    from pyopl.data import fastpath

    searched = []
    real = fastpath._ROWS_END

    class Counting:
        def search(self, text, pos):
            m = real.search(text, pos)
            searched.append((m.end() if m else len(text)) - pos)
            return m

    monkeypatch.setattr(fastpath, "_ROWS_END", Counting())
    # each `[[` would search past the long row to the first `]]`: 300 times the text without the budget
    text = "a = " + "[[1] " * 300 + "[%s]" % ", ".join(["1.5"] * 8000) + "]" * 300 + ";\n"
    r = Reporter()
    value = parse_data_fast(text, "d.dat", r)[0].value
    assert r.diagnostics == [] and value[0] == [1] and value[1][0] == [1] and value[1][1][0] == [1]
    assert len(searched) >= 2 and sum(searched) <= 3 * len(text) + 65536  # (60 times that without the budget)
