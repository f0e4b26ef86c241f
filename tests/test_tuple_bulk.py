"""Tuple sets read, converted and grouped in bulk give exactly what the tuple-by-tuple paths give.

- ``.dat``: a numeric tuple set read by the fast path's bulk reader (NumPy layout check, one split,
  column conversion, spans made on first use) against the full Lark parser: values, int/float
  types, every span, every diagnostic, on generated text that is sometimes malformed.
- conversion: ``_plain_tuples`` / ``_plain_scalars`` / ``OplTuple.many`` against ``convert_scalar``
  item by item: values, types, tuple types, and the error (code, message, span) when one is raised.
- ``OplSet`` built from a list against the loop it replaces (first of equal values kept).
- ``VectorCache.group``'s NumPy grouping against the dict loop it replaces.
- whole models: the IR with every bulk path on equals the IR with them all off.
"""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.data import convert, fastpath
from pyopl.data.convert import SetOf
from pyopl.data.fastpath import parse_data_fast
from pyopl.data.parser import DataItem, DSet, DTuple
from pyopl.diagnostics.diagnostic import Span
from pyopl.diagnostics.reporter import Reporter
from pyopl.lowering.arrays import vectorised
from pyopl.lowering.forms.errors import EvalError
from pyopl.semantics.values import OplSet, OplTuple, TupleType

from dat_compare import both as _both
from dat_compare import both_with

SPAN = Span("d.dat", 1, 1, 1, 2)
SLOW = settings(max_examples=examples(150), deadline=None, suppress_health_check=SPEED_CHECKS)


# ---------------------------------------------------------------------------- text
_INT = st.integers(-10**9, 10**9).map(str) | st.sampled_from(["+3", "-0", "007", "0", "+0"])
_FLOAT = st.floats(-1e6, 1e6, allow_nan=False).map(repr) | st.sampled_from(
    ["1.", ".5", "-.25", "3e2", "2.5E-2", "-0.0", "1e400", "+4.5", "12e+3", "1.e5", "-1E-3"])
_BAD_NUM = st.sampled_from(["1-2", "+", ".", "1e", "e5", "1..2", "--1", "1.5.5", "-.", "1e2.5"])
_SEP = st.sampled_from([", ", ",", " ", "\n", " ,", ",\n  ", "\t", "\r\n", ",  "])
_GAP = st.sampled_from(["", ",", ", ", "\n", " ,\n", ",\n  ", " ", "\r\n"])
_WS = st.sampled_from(["", " ", "\n", "  \n\t", "\r\n  "])
_JUNK = st.sampled_from(["<>", "< >", "<,1>", "<1,,2>", "<1, <2>>", "5", '"a"', "<1 2", ",,", "<1>>", ">",
                         "<1,2> 3", "<1, 2>, , <3>", "<1, x>", "<1, 2>; <3>", "<1, \x0b2>", "<1, \u00a02>",
                         "<\u0661>", "/* c */", "<1, 2> // c\n", "<1, 2>, ,"])


@st.composite
def _tuple_set(draw):
    """The text of a numeric tuple set: uniform (one arity, each field one way) or free, maybe damaged."""
    n = draw(st.integers(0, 40))
    uniform = draw(st.booleans())
    width = draw(st.integers(1, 5))
    kinds = draw(st.lists(st.sampled_from([_INT, _FLOAT]), min_size=width, max_size=width))
    tuples = []
    for _ in range(n):
        if uniform:
            nums = [draw(k) for k in kinds]
        else:
            nums = draw(st.lists(_INT | _FLOAT, min_size=1, max_size=5))
        if draw(st.integers(0, 60)) == 0:
            nums[draw(st.integers(0, len(nums) - 1))] = draw(_BAD_NUM)
        body = "".join(x + (draw(_SEP) if k < len(nums) - 1 else draw(st.sampled_from(["", ",", " ", ", "])))
                       for k, x in enumerate(nums))
        tuples.append("<" + draw(_WS) + body + draw(_WS) + ">")
    if tuples and draw(st.integers(0, 8)) == 0:
        tuples.insert(draw(st.integers(0, len(tuples))), draw(_JUNK))
    out = "".join(t + (draw(_GAP) if k < len(tuples) - 1 else draw(st.sampled_from(["", ",", " ,", "\n"])))
                  for k, t in enumerate(tuples))
    return "{" + draw(_WS) + out + draw(_WS) + "}"


@st.composite
def _dat(draw):
    parts = []
    for k in range(draw(st.integers(1, 4))):
        choice = draw(st.integers(0, 5))
        if choice < 4:
            parts.append("T%d%s=%s%s;" % (k, draw(_WS), draw(_WS), draw(_tuple_set())))
        elif choice == 4:
            parts.append(draw(st.sampled_from(["n = 3;", "a = [1, 2.5];", 'S = {"a", "b"};', "r = 1..4;",
                                               "// note\n", "/* x */", "b = [1, 2;"])))
        else:
            parts.append("P%d = {<1, \"a\">, <2, \"b\">};" % k)
        parts.append(draw(st.sampled_from(["\n", " ", "\n\n", "\r\n", ""])))
    return "".join(parts)


@SLOW
@given(_dat(), st.integers(1, 40))
def test_bulk_tuple_reader_matches_the_full_parser(text, lazy_from):
    # spans made eagerly below `lazy_from` tuples, on first use from it
    slow, fast, d_slow, d_fast = both_with(fastpath, "_LAZY_SPANS_FROM", lazy_from, text)
    assert fast == slow
    assert d_fast == d_slow


def _arcs_text(n: int, gap: str = ",\n  ") -> str:
    return "Arcs = {\n  " + gap.join("<%d, %d, %d.5, %d>" % (i, (i * 7) % 50, i % 9, 20 + i % 3)
                                     for i in range(n)) + "\n};\n"


def test_large_set_takes_the_bulk_reader_and_its_lazy_spans_behave_as_plain_ones():
    text = _arcs_text(500)
    items = parse_data_fast(text, "d.dat", Reporter())
    value = items[0].value
    assert type(value[0]) is not DTuple and isinstance(value[0], DTuple)  # the lazily spanned subclass
    assert value.fields == (500, (int, int, float, int))  # what conversion then takes without looking
    slow, fast, d_slow, d_fast = _both(text)
    assert fast == slow and d_fast == d_slow == []
    again = parse_data_fast(text, "d.dat", Reporter())[0].value
    t = again[123]
    for other in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):  # before any span was read
        assert type(other) is DTuple and other == t and other.span == t.span
    assert (t.span.line, t.span.column, t.span.end_column) == (125, 3, 3 + len("<123, 23, 6.5, 20>"))
    pickle.loads(pickle.dumps(items[0]))  # a DataItem holding such a set still pickles


_JUNK_CASES = ["<1, 2> 3, <4, 5>", "<1, 2>, 3, <4, 5>", "<1, 2>, 3", "<1, 2> 3", "3, <1, 2>", ", <1, 2>",
               "<1, 2>,, <3, 4>", "<1, 2>, , <3, 4>", "<,1>, <2>", "<1,,2>, <3>", "<1, 2,>, <3,>", "<>, <1>",
               "< >, <1>", "<1, <2>>", "<1 <2>", "<1>>, <2>", "<1>, >", "<1>, <2", "<1-2, 3>", "<1, 2e>",
               "<1, 1E5>, <2, 2E5>", "<1, .>, <2, 3>", "<1, +>", "<1, 2>; <3, 4>", "<1, x>", "<1, \"a\">, <2, 3>",
               "<1, 2>, <3, 4>,", "<1, 2> <3, 4> ,", "<1 2>\n<3 4>", "<\u0661, 2>", "<1, \x0b2>",
               # the comma rule across white space, at even and odd offsets; numbers between tuples of one width
               "<", "<1", "<1>,\n,<2>", "<1>, \n ,", "<1,\n ,2>", "<\n ,1>", " , <1>", "<1, 2>,  ,<3, 4>",
               "<1>, 2, <3, 4>", "<1, 2>, 3, <4>", "<1, 2> 3 <4, 5> 6", "<1, 2>, <3, 4> 5, 6",
               "<12345678901234567, 1>, <1, 2>", "<-.5, +.5>, <5., -0>", "<1e5, 2>, <3, 4.0e-2>"]


@pytest.mark.parametrize("body", _JUNK_CASES)
@pytest.mark.parametrize("size", [1, 40])
def test_bulk_reader_on_odd_layouts_matches_the_full_parser(body, size):
    good = ", ".join("<%d, %d.5>" % (i, i) for i in range(size))
    for text in ("S = {%s};\n" % body, "S = {%s, %s};\n" % (good, body), "S = {%s, %s};\n" % (body, good)):
        slow, fast, d_slow, d_fast = _both(text)
        assert fast == slow and d_fast == d_slow


@pytest.mark.parametrize("body", ["<1, 2>, <3, 4.5>", "<1 2> <3 4>,", "<1,2>,<3,4>,", "<1, 2.>, <3e1, 4>",
                                  "<1, 2>\n<3>", "<-1, +2>, <.5, 5.>", "<1, 1E5>, <2, 3E+2>", "<1, 2,>, <3,>"])
def test_small_sets_read_in_bulk(body):
    text = "S = {%s};\n" % body
    taken = []
    real = fastpath._Reader._numeric_tuples
    fastpath._Reader._numeric_tuples = lambda self, i: taken.append(real(self, i)) or taken[-1]
    try:
        slow, fast, d_slow, d_fast = _both(text)
    finally:
        fastpath._Reader._numeric_tuples = real
    assert fast == slow and d_fast == d_slow == []
    assert taken and taken[0] is not None


# ---------------------------------------------------------------------------- conversion
def _convert_both(value, elem, order=None):
    """convert_set with the bulk paths, then item by item: (values with types, or the error) each."""
    out = []
    for bulk in (True, False):
        real_t, real_s = convert._plain_tuples, convert._plain_scalars
        if not bulk:
            convert._plain_tuples = lambda v, t: None
            convert._plain_scalars = lambda v, t: None
        try:
            got = convert.convert_set(value, SetOf(elem, order), "S", SPAN)
            out.append(("ok", [_typed(x) for x in got], got.elem_type, len(got)))
        except EvalError as e:
            out.append(("error", e.slug, e.message, e.span, e.help))
        finally:
            convert._plain_tuples, convert._plain_scalars = real_t, real_s
    return out


def _typed(x):
    if isinstance(x, OplTuple):
        return ("tuple", x.ttype, tuple((type(v).__name__, v) for v in x))
    return (type(x).__name__, x)


_FIELD = st.sampled_from(["int", "float", "string"])


@SLOW
@given(st.data())
def test_tuple_sets_convert_in_bulk_as_item_by_item(data):
    types = data.draw(st.lists(_FIELD, min_size=1, max_size=4))
    ttype = TupleType("T", ["f%d" % k for k in range(len(types))], types,
                      keys=data.draw(st.sampled_from([[], ["f0"]])))
    value_st = st.integers(-5, 5) | st.sampled_from([1.0, 2.5, -0.0, True, "a", "b"])
    rows = data.draw(st.lists(st.lists(value_st, min_size=len(types), max_size=len(types)), max_size=12))
    if rows and data.draw(st.booleans()):
        rows.append(list(rows[0]))  # a value twice
    if rows and data.draw(st.integers(0, 5)) == 0:
        rows[-1] = rows[-1][:-1]  # a short tuple
    value = DSet(DTuple(r) for r in rows)
    for k, t in enumerate(value):
        t.span = Span("d.dat", k + 2, 3, k + 2, 9)
    fast, slow = _convert_both(value, ttype, data.draw(st.sampled_from([None, "sorted"])))
    assert fast == slow


@SLOW
@given(_dat())
def test_tuple_sets_read_from_text_convert_in_bulk_as_item_by_item(text):
    for item in parse_data_fast(text, "d.dat", Reporter()):
        if isinstance(item, DataItem) and isinstance(item.value, DSet) and item.value:
            width = max(len(t) if isinstance(t, list) else 1 for t in item.value)
            for types in (["int"] * width, ["float"] * width, ["int"] + ["float"] * (width - 1)):
                ttype = TupleType("T", ["f%d" % k for k in range(width)], types)
                fast, slow = _convert_both(item.value, ttype)
                assert fast == slow


@pytest.mark.parametrize("elem,items", [
    ("int", [3, 1, 2]), ("int", [1, 2, 1]), ("int", [1, True]), ("int", [1, 2.0]), ("float", [1, 2.5, -0.0]),
    ("float", [1.5, 1.5]), ("float", [1, 1.0]), ("float", [True, 2]), ("string", ["a", "b"]), ("string", ["a", 1]),
    ("int", []), ("string", ["b", "a", "b"]), ("boolean", [1, 0]), ("float", [float("nan"), 1.0]),
])
@pytest.mark.parametrize("order", [None, "sorted", "reversed"])
def test_scalar_sets_convert_in_bulk_as_item_by_item(elem, items, order):
    value = DSet(items)
    value.span = SPAN
    fast, slow = _convert_both(value, elem, order)
    assert fast == slow


def test_opl_tuples_made_in_bulk_are_plain_opl_tuples():
    t = TupleType("Arc", ["a", "b"], ["int", "float"])
    made = OplTuple.many([(1, 2.0), (3, 4.5)], t)
    assert made == [OplTuple((1, 2.0), t), OplTuple((3, 4.5), t)]
    assert all(type(x) is OplTuple and x.ttype is t and x.field("b") == x[1] for x in made)
    again = pickle.loads(pickle.dumps(made[1]))
    assert again == made[1] and again.ttype.name == "Arc"
    assert copy.copy(made[0]).ttype is t


@given(st.lists(st.integers(-3, 3) | st.sampled_from([1.0, -0.0, 0.0, True, False, "a", 2.5]), max_size=12))
def test_opl_set_keeps_the_first_of_equal_values(items):
    pos, uniq = {}, []
    for v in items:
        if v not in pos:
            pos[v] = len(uniq)
            uniq.append(v)
    s = OplSet(items)
    assert [(type(x), x) for x in s.items()] == [(type(x), x) for x in uniq]
    assert list(s.positions().items()) == list(pos.items())
    assert [(type(k), k) for k in s.positions()] == [(type(k), k) for k in pos]


# ---------------------------------------------------------------------------- grouping
def _loop_groups(items, k):
    """VectorCache.group's dict loop, as it was before the NumPy grouping."""
    groups: dict = {}
    for p, v in enumerate(items):
        groups.setdefault(v if k is None else v[k], []).append(p)
    kinds = {vectorised._kind(g) for g in groups}
    return {v: np.asarray(p, dtype=np.int64) for v, p in groups.items()}, (kinds.pop() if len(kinds) == 1 else None)


def _same_groups(a, b):
    (ga, ka), (gb, kb) = a, b
    assert ka == kb
    assert [(type(k), k) for k in ga] == [(type(k), k) for k in gb]  # same keys, objects' types, order
    for key in ga:
        assert ga[key].dtype == gb[key].dtype and ga[key].tolist() == gb[key].tolist()


_FIELD_VALUE = st.integers(-4, 4) | st.sampled_from([0.0, -0.0, 1.0, 2.5, float("inf"), 2 ** 53, 2 ** 53 + 1, True])


@SLOW
@given(st.lists(st.tuples(_FIELD_VALUE, _FIELD_VALUE | st.sampled_from(["a", "b", float("nan")])), max_size=30))
def test_groups_by_field_match_the_dict_loop(rows):
    t = TupleType("T", ["x", "y"], ["float", "float"])
    d = OplSet([OplTuple(r, t) for r in rows], t)
    items = list(d.items())
    for field, k in (("x", 0), ("y", 1)):
        got = vectorised.VectorCache().group(d, field)
        if not items:
            assert got is None
            continue
        _same_groups(got, _loop_groups(items, k))


@given(st.lists(_FIELD_VALUE | st.sampled_from(["a", float("nan")]), max_size=30))
def test_groups_of_plain_items_match_the_dict_loop(values):
    d = OplSet(values)
    _same_groups(vectorised.VectorCache().group(d, None), _loop_groups(list(d.items()), None))


@given(st.lists(st.integers(-2 ** 40, 2 ** 40) | st.integers(-3, 3) | st.integers(0, 70000), max_size=60),
       st.integers(0, 2 ** 33))
def test_stable_order_of_integers_is_numpys_stable_argsort(values, shift):
    num = np.asarray(values, dtype=np.float64) + shift
    assert vectorised._stable_order(num, True).tolist() == np.argsort(num, kind="stable").tolist()


def test_groups_need_tuples_of_one_type():
    t, u = TupleType("T", ["x"], ["int"]), TupleType("U", ["x"], ["int"])
    cache = vectorised.VectorCache()
    assert cache.group(OplSet([OplTuple((1,), t), OplTuple((2,), u)]), "x") is None
    assert cache.group(OplSet([OplTuple((1,), t), (2,)]), "x") is None
    assert cache.group(OplSet([OplTuple((1,), t), OplTuple((2,), t)]), "x")[1] == "number"


# ---------------------------------------------------------------------------- whole models
NETFLOW = """
{int} Nodes = ...;
tuple Arc { int src; int dst; float cost; float cap; }
{Arc} Arcs = ...;
float supply[Nodes] = ...;
dvar float+ flow[Arcs];
minimize sum(a in Arcs) a.cost * flow[a];
subject to {
  forall(a in Arcs) ctCap: flow[a] <= a.cap;
  forall(v in Nodes)
    ctBalance: sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a] == supply[v];
}
"""


def _ir(mod: str, dat: str):
    ir = pyopl.compile_model(mod, data=dat).ir
    A = ir.A.tocsr()
    return (A.indptr.tolist(), A.indices.tolist(), A.data.tolist(), ir.obj.tolist(), ir.row_lower.tolist(),
            ir.row_upper.tolist(), ir.col_lower.tolist(), ir.col_upper.tolist(), list(ir.row_label),
            [repr(k) for k in ir.row_key], list(ir.col_name), [repr(k) for k in ir.col_key])


@settings(max_examples=examples(25), deadline=None, suppress_health_check=SPEED_CHECKS)
@given(st.integers(2, 12), st.integers(0, 60), st.randoms(use_true_random=False), st.booleans())
def test_netflow_ir_is_the_same_with_the_bulk_paths_off(nodes, arcs, rnd, int_costs):
    pairs = sorted({(rnd.randrange(nodes), rnd.randrange(nodes)) for _ in range(arcs)})
    fmt = "<%d, %d, %d, %d>" if int_costs else "<%d, %d, %d.25, %d.0>"
    dat = "Nodes = {%s};\nArcs = {%s};\nsupply = [%s];\n" % (
        ", ".join(map(str, range(nodes))),
        ",\n".join(fmt % (a, b, rnd.randrange(-5, 20), rnd.randrange(1, 9)) for a, b in pairs),
        ", ".join(str(rnd.randrange(-3, 4)) for _ in range(nodes)))
    fast = _ir(NETFLOW, dat)
    saved = (fastpath._Reader._numeric_tuples, convert._plain_tuples, convert._plain_scalars,
             vectorised.VectorCache._number_groups)
    fastpath._Reader._numeric_tuples = lambda self, i: None
    convert._plain_tuples = lambda v, t: None
    convert._plain_scalars = lambda v, t: None
    vectorised.VectorCache._number_groups = lambda self, d, k: None
    try:
        slow = _ir(NETFLOW, dat)
    finally:
        (fastpath._Reader._numeric_tuples, convert._plain_tuples, convert._plain_scalars,
         vectorised.VectorCache._number_groups) = saved
    assert fast == slow
