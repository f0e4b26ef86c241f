"""Integer arithmetic and set functions over arrays, for the array paths of :mod:`pyopl.lowering.arrays.vectorised`.

Filters and data of real models use ``div``, ``mod`` and a few built-in functions
(``(k div ftoi(pow(2, ord(S, i)))) mod 2 == 1``, ``card(S[k]) - 1``).  This module gives
:class:`~pyopl.lowering.arrays.vectorised._Sum` their values over a whole iteration space, the
same values the Evaluator computes one binding at a time (OPL manual, "Functions and
operators"; the rules are those of :mod:`pyopl.lowering.functions.builtins` and :mod:`pyopl.lowering.evaluate.compiled`):

- ``a div b`` and ``a mod b`` on integers (Python ``int`` values, held exactly below 2**53):
  ``div`` truncates toward zero, ``mod`` takes the dividend's sign (``math.fmod``);
- ``ftoi``, ``trunc``, ``floor``, ``ceil``, ``round`` (``floor(v + 0.5)``): an int in OPL's 32-bit range;
- ``abs``; ``pow(a, b)`` of integers with ``b >= 0`` (an exact Python int);
- ``ord(S, e)``, ``prev``/``next``/``prevc``/``nextc(S, e)`` and ``item(S, k)`` with ``S`` free of the
  iterators, and ``card(A[...])`` of an array of sets;
- a tuple literal of the iterators in a tuple set (``<i, j> in Arcs``) and as an index (``x[<i, j>]``):
  :func:`tuple_positions`;
- ``presenceOf(a[...])`` of an array of interval variables (``using CP;``) in a sum's body, alone or
  times data: :func:`presence_calls`, :func:`presence_lin`.

Anything else, and any value the one-by-one path would report (a division by zero, a
result outside the 32-bit ``int`` range, a NaN, an element missing from ``S``), raises
``_Fallback``: the caller then evaluates one binding at a time and reports what it reports.
A call whose arguments do not depend on the iterators is evaluated once by the Evaluator
(these functions are pure), see :func:`pure_invariant`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import OplArray, OplRange, OplSet, TupleType
from ...syntax import ast as A
from ...syntax.nesting import child_nodes
from ..forms.int32 import INT_MAX, INT_MIN
from .array_types import _Fallback, _flatten_index, _Lin, _Vec

#: functions whose value depends on their arguments only (no state, no warning): evaluated once when invariant
PURE_CALLS = frozenset({"card", "ord", "pow", "ftoi", "trunc", "floor", "ceil", "round", "abs",
                        "minl", "maxl", "min", "max", "prev", "next", "prevc", "nextc", "item"})
_STEP = {"prev": -1, "next": 1, "prevc": -1, "nextc": 1}
_ROUNDING = {"ftoi": np.trunc, "trunc": np.trunc, "floor": np.floor, "ceil": np.ceil,
             "round": lambda x: np.floor(x + 0.5)}
_EXACT = 2.0 ** 53


def _fallback() -> Exception:
    return _Fallback()


def pure_invariant(space: Any, n: A.Expr) -> bool:
    """Whether ``n`` (free of the iterators) is data made of constants, names of data, indexing,
    fields, arithmetic, comparisons, ``?:``, :data:`PURE_CALLS`, and ``sum``/``min``/``max``/``prod`` of such data
    (``x[i] <= sum(k in K) d[k]``): then evaluating it once gives the value every binding would get."""
    stack = [n]
    bound: set = set()  # an aggregate's own iterators
    while stack:
        x = stack.pop()
        if isinstance(x, A.Call):
            if x.func not in PURE_CALLS:
                return False
            stack.extend(x.args)
        elif isinstance(x, A.Aggregate):
            if x.op not in ("sum", "min", "max", "prod"):
                return False
            for b in x.quals.binders:
                if b.ordered or any(p.name is None for p in b.patterns):
                    return False
                bound.update(p.name for p in b.patterns)
                stack.extend([b.domain] if b.filter is None else [b.domain, b.filter])
            stack.append(x.body)
        elif isinstance(x, A.Conditional):
            stack.extend((x.cond, x.then, x.other))
        elif isinstance(x, A.RangeLit):
            stack.extend((x.lo, x.hi))
        elif isinstance(x, (A.SetLit, A.TupleLit)):  # `j in {1, 5, 9}`
            stack.extend(x.items)
        elif isinstance(x, A.Name):
            if x.id not in space.env and x.id not in bound:
                sym = space.symbols.get(x.id)
                if sym is None or sym.kind not in ("param", "set", "range"):
                    return False
        elif isinstance(x, A.Index):
            stack.append(x.base)
            stack.extend(x.indices)
        elif isinstance(x, A.Field):
            stack.append(x.base)
        elif isinstance(x, (A.Unary, A.Binary)):
            stack.extend([x.operand] if isinstance(x, A.Unary) else [x.left, x.right])
        elif isinstance(x, A.Compare):
            stack.extend(x.operands)
        elif not isinstance(x, A.Const):
            return False
    return True


def extra_data(space: Any, n: A.Expr) -> Any:
    """The value of ``n`` (``div``/``mod`` or a call, depending on the iterators) over the iteration space, a ``_Vec``."""
    if isinstance(n, A.Binary):
        a, b = space.data(n.left), space.data(n.right)
        if not (a.exact_int and b.exact_int):
            raise _fallback()  # float operands: left to the one-by-one path
        x, y = _ints(space, a), _ints(space, b)
        if np.any(y == 0):
            raise _fallback()  # division by zero: reported there
        if n.op == "div":
            q = np.abs(x) // np.abs(y)
            q = np.where((x >= 0) == (y >= 0), q, -q)
            _int_range(q)
        else:
            q = np.fmod(x, y)  # C's remainder: the dividend's sign, as math.fmod
        return _Vec(num=np.broadcast_to(q.astype(np.float64), (space.size,)), exact_int=True)
    f = n.func
    if f in _ROUNDING or f == "abs":
        if len(n.args) != 1:
            raise _fallback()
        v = space.data(n.args[0])
        x = space.num(v)
        if f == "abs":
            r = np.abs(x)
            if v.exact_int:
                _int_range(r)
            return _Vec(num=np.broadcast_to(r, (space.size,)), exact_int=v.exact_int)
        r = _ROUNDING[f](x)
        if not np.all(np.isfinite(r)):
            raise _fallback()  # math-domain there
        _int_range(r)
        return _Vec(num=np.broadcast_to(r + 0.0, (space.size,)), exact_int=True)  # (+ 0.0: int(-0.0) is 0)
    if f in ("minl", "maxl", "min", "max") and len(n.args) >= 2:  # of numbers (Python's min/max of the values)
        vs = [space.data(a) for a in n.args]
        xs = [np.broadcast_to(space.num(v), (space.size,)) for v in vs]
        if any(np.isnan(x).any() for x in xs):
            raise _fallback()  # Python's min/max of a NaN depends on the order: the one-by-one path
        r = xs[0]
        for x in xs[1:]:
            r = np.minimum(r, x) if f in ("minl", "min") else np.maximum(r, x)
        # ints stay exact ints; a float among them: the value is the same, its kind is not known here
        return _Vec(num=r, exact_int=all(v.exact_int for v in vs))
    if f == "pow" and len(n.args) == 2:
        a, b = space.data(n.args[0]), space.data(n.args[1])
        if not (a.exact_int and b.exact_int):
            raise _fallback()
        x, y = _ints(space, a), _ints(space, b)
        if np.any(y < 0):
            raise _fallback()  # a float result
        mag = np.abs(x).astype(np.float64)
        with np.errstate(divide="ignore"):
            bits = np.where(mag > 1, y * np.log2(np.maximum(mag, 1.0)), 0.0)
        if np.any(bits >= 52):
            raise _fallback()  # beyond exact: the one-by-one path (and its checks) then
        return _Vec(num=np.broadcast_to(np.power(x, y).astype(np.float64), (space.size,)), exact_int=True)
    if f == "ord" and len(n.args) == 2:
        if not space.cache.names(n.args[0])[1].isdisjoint(space.iters):
            raise _fallback()
        s = space._invariant(n.args[0])
        if type(s) is not OplSet and type(s) is not OplRange:
            raise _fallback()
        v = space.data(n.args[1])
        pos = space._positions_in(s, v)  # a value not in the set: KeyError, reported there
        return _Vec(num=np.broadcast_to(np.asarray(pos, dtype=np.float64), (space.size,)), exact_int=True)
    if (f in _STEP or f == "item") and len(n.args) == 2:
        return _neighbour(space, n)
    if f == "card" and len(n.args) == 1 and isinstance(n.args[0], A.Index):
        base, idx = _flatten_index(n.args[0])
        arr = space._global(base)
        if not isinstance(arr, OplArray) or len(idx) != len(arr.dims):
            raise _fallback()
        lens = set_lengths(space.cache, arr)
        if lens is None:
            raise _fallback()
        return _Vec(num=np.broadcast_to(lens[space.positions(arr.dims, idx)], (space.size,)), exact_int=True)
    raise _fallback()


def _neighbour(space: Any, n: A.Call) -> Any:
    """``prev(S, e)``, ``next``, ``prevc``, ``nextc`` (the element before or after ``e`` in ``S``, the
    ``c`` forms wrapping around) and ``item(S, k)`` (the element at 0-based position ``k``), ``S`` free of
    the iterators: the element's position in ``S`` per iteration, so ``x[prev(T, t)]`` indexes by it
    directly. Past either end (``prev`` of the first), an element not in ``S``, a position that is not
    an integer of ``S``: ``_Fallback`` (the one-by-one path reports it)."""
    f = n.func
    if not space.cache.names(n.args[0])[1].isdisjoint(space.iters):
        raise _fallback()
    s = space._invariant(n.args[0])
    if (type(s) is not OplSet and type(s) is not OplRange) or not len(s):
        raise _fallback()
    size = len(s)
    v = space.data(n.args[1])
    if f == "item":
        if not v.exact_int:
            raise _fallback()  # (a tuple of key values: item by key, the one-by-one path)
        k = np.broadcast_to(np.asarray(space.num(v), dtype=np.float64), (space.size,)).astype(np.int64)
    else:
        k = np.broadcast_to(np.asarray(space._positions_in(s, v), dtype=np.int64), (space.size,)) + _STEP[f]
        if f in ("prevc", "nextc"):
            k = k % size
    if np.any(k < 0) or np.any(k >= size):
        raise _fallback()
    if isinstance(s, OplRange):
        lo = s.lo
        return _Vec(exact_int=True, it=(s, k), make=lambda: (k + lo).astype(np.float64))
    dom = space.cache.domain(s)
    num = dom.num
    return _Vec(exact_int=dom.exact, it=(s, k), make=None if num is None else lambda: num[k])


def _ints(space: Any, v: Any) -> np.ndarray:
    """Exact integer values (below 2**53) as int64."""
    x = np.asarray(space.num(v))
    return x.astype(np.int64)


def _int_range(r: np.ndarray) -> None:
    if np.size(r) and (np.max(r) > INT_MAX or np.min(r) < INT_MIN):
        raise _fallback()  # int-overflow there


def set_lengths(cache: Any, arr: OplArray) -> np.ndarray | None:
    """``card`` of every element of an array of sets (float64, shaped as the array), made once per
    array; None when an element is not an OplSet or OplRange."""
    store = cache.__dict__.setdefault("set_lengths", {})
    hit = store.get(id(arr))
    if hit is None or hit[0] is not arr:
        mask = getattr(arr.flat, "mask", None)  # MaskedSets (vectorised_subsets.py): its sets not made
        vals = None if mask is not None else set_values(cache, arr)
        lens = None
        if mask is not None:
            lens = mask.sum(axis=1).astype(np.float64).reshape(tuple(len(d) for d in arr.dims))
        elif vals is not None:
            lens = np.fromiter(map(len, vals), dtype=np.float64, count=len(vals))
            lens = lens.reshape(tuple(len(d) for d in arr.dims))
        hit = (arr, lens)
        store[id(arr)] = hit
    return hit[1]


def set_values(cache: Any, arr: OplArray) -> list | None:
    """The elements of an array of sets in key order (product of the dims), or None when one of
    them is missing or not an OplSet/OplRange."""
    keys = cache._keys(arr)
    data = arr.data
    vals = list(data.values()) if len(data) == len(keys) and list(data) == keys else [data.get(k) for k in keys]
    if not all(type(v) is OplSet or type(v) is OplRange for v in vals):
        return None
    return vals


def tuple_member(space: Any, n: A.Binary) -> np.ndarray:
    """``<e1, ..., ek> in S`` (or ``not in``) at every iteration of ``space``, ``S`` a tuple set free of the
    iterators: the Evaluator's ``OplTuple(values) in S``, a tuple's equality component by component
    (:func:`tuple_positions`)."""
    if not space.cache.names(n.right)[1].isdisjoint(space.iters):
        raise _Fallback()
    found = tuple_positions(space, n.left, space._invariant(n.right), False) >= 0
    return found if n.op == "in" else ~found


def tuple_positions(space: Any, lit: A.TupleLit, d: Any, strict: bool = True) -> np.ndarray:
    """The position in the tuple set ``d`` of the tuple ``<e1, ..., ek>`` (``lit``, its components data of
    the iterators) at each iteration of ``space``, -1 where no tuple of ``d`` equals it (``strict``: an
    index, where the row path reports such a tuple: ``_Fallback``).

    Tuples are equal when their components are, as Python compares the ``OplTuple`` the row path makes
    (``1 == 1.0``; strings by value): each component is coded by its rank among the distinct values of
    that field of ``d`` (one more code for a value no tuple has), the codes of a tuple combined into one
    integer, and those of the iterations looked up among those of ``d`` with ``searchsorted``. A set
    whose type declares keys, a literal of another length, NaN, mixed numbers and strings, and more
    than 2**62 combinations of codes raise ``_Fallback``: the row path decides.  In a set whose type
    declares keys, a literal of the keys' length is the tuple with those keys (``itvs[<t2id>]`` for
    ``tuple Task { key int id; ... }``: the row path's ``by_key``), the same way over the key fields."""
    et = getattr(d, "elem_type", None)
    if type(d) is not OplSet or not isinstance(et, TupleType) or not len(d) or not space.cache._one_tuple_type(d):
        raise _Fallback()
    if not et.keys and len(lit.items) == len(et.fields):
        fields = list(range(len(et.fields)))
    elif et.keys and len(lit.items) == len(et.keys) < len(et.fields):
        fields = [et.index(k) for k in et.keys]  # (a whole tuple of this length cannot equal one of d)
    else:
        raise _Fallback()
    m = len(d)
    key_set = np.zeros(m, dtype=np.int64)
    key_it = np.zeros(space.size, dtype=np.int64)
    radix = 1
    for k, item in zip(fields, lit.items):
        v = space.data(item)
        num, _exact = space.cache.field_column(d, k)
        if num is not None and space._numeric_or_none(v) is not None:
            x = np.broadcast_to(np.asarray(space.num(v), dtype=np.float64), (space.size,))
            if np.isnan(num).any() or np.isnan(x).any():
                raise _Fallback()
            uniq = np.unique(num)
            code_set = np.searchsorted(uniq, num)
            at = np.minimum(np.searchsorted(uniq, x), len(uniq) - 1)
            code_it = np.where(uniq[at] == x, at, len(uniq))
        elif num is None and v.num is None:
            vals = space.cache.domain(d).field_values(k, list(range(m)))
            xs = space.objs(v)
            if not (all(type(u) is str for u in vals) and all(type(u) is str for u in xs)):
                raise _Fallback()
            codes: dict = {}
            code_set = np.fromiter((codes.setdefault(u, len(codes)) for u in vals), dtype=np.int64, count=m)
            uniq = codes
            code_it = np.fromiter((codes.get(u, len(codes)) for u in xs), dtype=np.int64, count=len(xs))
        else:
            raise _Fallback()  # (a number for a string field, or the other way: the row path decides)
        radix *= len(uniq) + 1
        if radix >= 2 ** 62:
            raise _Fallback()
        key_set = key_set * (len(uniq) + 1) + code_set
        key_it = key_it * (len(uniq) + 1) + code_it
    order = np.argsort(key_set, kind="stable")
    ranked = key_set[order]
    if et.keys and np.any(ranked[1:] == ranked[:-1]):
        raise _Fallback()  # (two tuples with one key: the row path's `by_key` decides which)
    at = np.minimum(np.searchsorted(ranked, key_it), m - 1)
    pos = np.where(ranked[at] == key_it, order[at], -1)
    if strict and np.any(pos < 0):
        raise _Fallback()  # a tuple not in the index set: the row path words it
    return pos


_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def settled_compare(space: Any, n: A.Compare) -> np.ndarray | None:
    """``p.f OP k`` (or ``k OP p.f``) with ``p`` an iterator over a set of tuples, ``f`` a numeric field
    and ``k`` a number free of the iterators, where the field's smallest and largest values over the
    whole set settle it (``p.c >= 0`` on costs that are all non-negative): every iteration's answer,
    without gathering the field in the iterations' order; None where they do not (the caller compares
    value by value).  The same float64 comparisons: every value lies in [min, max] (no NaN: with one,
    min and max are NaN and nothing is settled)."""
    op = n.ops[0]
    if op not in _MIRRORED:
        return None
    left, right = n.operands
    if isinstance(right, A.Field) and not isinstance(left, A.Field):
        left, right, op = right, left, _MIRRORED[op]
    if not (isinstance(left, A.Field) and isinstance(left.base, A.Name) and left.base.id in space.iters) \
            or not space.cache.names(right)[1].isdisjoint(space.iters):
        return None
    domain, _pos = space.iters[left.base.id]
    tt = space.cache.domain(domain).ttype
    if tt is None or left.name not in tt.fields:
        return None
    k = tt.index(left.name)
    span = _field_span(space.cache, domain, k)
    if span is None:
        return None
    v = space.data(right)
    if not v.is_scalar or space._numeric_or_none(v) is None:
        return None
    y = space.num(v)
    lo, hi = span
    every = {"<": hi < y, "<=": hi <= y, ">": lo > y, ">=": lo >= y, "==": lo == hi == y, "!=": y < lo or y > hi}[op]
    never = {"<": lo >= y, "<=": lo > y, ">": hi <= y, ">=": hi < y, "==": y < lo or y > hi, "!=": lo == hi == y}[op]
    if not (every or never):
        return None
    return np.full(space.size, bool(every))


def _field_span(cache: Any, domain: Any, k: int) -> tuple[float, float] | None:
    """(smallest, largest) value of numeric field ``k`` of ``domain``'s tuples, found once; None where the
    field is not all numbers or holds a NaN."""
    key = (id(domain), "span", k)
    hit = cache._groups.get(key)
    if hit is None or hit[0] is not domain:
        num, _exact = cache.field_column(domain, k)
        span = None
        if num is not None and len(num):
            lo, hi = float(num.min()), float(num.max())
            span = (lo, hi) if lo == lo and hi == hi else None
        hit = (domain, span)
        cache._groups[key] = hit
    return hit[1]


_DECISION_KINDS = ("dvar", "dexpr", "interval", "sequence")


def presence_calls(body: A.Expr, symbols: Any) -> frozenset:
    """The ids of the ``presenceOf(a[...])`` calls the array sums take in a sum's ``body`` (``a`` an array of
    interval variables): the body itself (``sum(i in I) presenceOf(t[i])``), or one factor of a product
    whose other factor names no decision (``presenceOf(t[i]) * w[i]``, ``w[i] * presenceOf(t[i])``);
    none elsewhere (``-presenceOf(t[i])`` is the row path's error to word)."""
    def is_presence(n: Any) -> bool:
        if not (isinstance(n, A.Call) and n.func == "presenceOf" and len(n.args) == 1 and isinstance(n.args[0], A.Index)):
            return False
        base, _idx = _flatten_index(n.args[0])
        return isinstance(base, A.Name) and getattr(symbols.get(base.id), "kind", None) == "interval"

    if is_presence(body):
        return frozenset((id(body),))
    if isinstance(body, A.Binary) and body.op == "*":
        for a, b in ((body.left, body.right), (body.right, body.left)):
            if is_presence(a) and not any(getattr(symbols.get(x), "kind", None) in _DECISION_KINDS for x in _names_in(b)):
                return frozenset((id(a),))
    return frozenset()


def _names_in(n: Any) -> list[str]:
    out, stack = [], [n]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            out.append(x.id)
        if isinstance(x, A.Node):
            stack.extend(child_nodes(x))
    return out


def presence_lin(space: Any, n: A.Call) -> _Lin:
    """``presenceOf(a[...])`` over ``space`` as the term-by-term path values it in a sum (``using CP;``): for
    an optional interval the constraint ``p >= 1`` on its presence column ``p``, used as a number, which
    is ``p`` itself (coefficient 1.0, constant 0.0: ``truth_value`` of a 0/1 integer column); for one
    always present ``true``, the number 1 (a constant, no column). A presence column whose bounds are
    no longer 0..1 (a script changed them), an element that is not an interval, an index outside its
    set: ``_Fallback`` (the term-by-term path decides and words)."""
    if getattr(space.ev.inst, "engine", "mp") != "cp" or len(n.args) != 1 or not isinstance(n.args[0], A.Index):
        raise _Fallback()
    base, idx = _flatten_index(n.args[0])
    if not isinstance(base, A.Name) or base.id in space.iters or base.id in space.env:
        raise _Fallback()
    sym = space.symbols.get(base.id)
    arr = getattr(sym, "value", None)
    if sym is None or sym.kind != "interval" or not isinstance(arr, OplArray) or len(idx) != len(arr.dims):
        raise _Fallback()
    q = np.broadcast_to(_presence_columns(space.cache, arr)[space.positions(arr.dims, idx)], (space.size,))
    if np.any(q == -2):
        raise _Fallback()
    live = q >= 0
    cols = np.unique(q[live])
    if len(cols):
        table = space.ev.inst.cols
        integer, lower, upper = table.integer.flat(), table.lower.flat(), table.upper.flat()
        if not all(integer[j] and lower[j] == 0.0 and upper[j] == 1.0 for j in cols.tolist()):
            raise _Fallback()
    return _Lin([(np.where(live, 1.0, 0.0), np.where(live, q, -1))], np.where(live, 0.0, 1.0))


def _presence_columns(cache: Any, arr: OplArray) -> np.ndarray:
    """The presence column of every element of the interval array ``arr`` in the shape of its dims (-1:
    always present, -2: no interval there), made once per array."""
    kept = cache.__dict__.setdefault("presence_columns", {})
    hit = kept.get(id(arr))
    if hit is None or hit[0] is not arr:
        shape = tuple(len(d) for d in arr.dims)
        out = np.full(shape, -2, dtype=np.int64)
        keys, ivs = list(arr.data.keys()), list(arr.data.values())
        if not all(type(iv).__name__ == "IntervalVar" for iv in ivs):
            raise _Fallback()
        if keys:
            wheres = [None if isinstance(d, OplRange) else cache.domain(d).where for d in arr.dims]
            at = tuple(np.fromiter((k[i] - d.lo for k in keys) if w is None else (w[k[i]] for k in keys),
                                   dtype=np.int64, count=len(keys)) for i, (d, w) in enumerate(zip(arr.dims, wheres)))
            out.flat[np.ravel_multi_index(at, shape)] = np.fromiter(
                (-1 if iv.presence is None else iv.presence for iv in ivs), dtype=np.int64, count=len(ivs))
        hit = (arr, out)
        kept[id(arr)] = hit
    return hit[1]
