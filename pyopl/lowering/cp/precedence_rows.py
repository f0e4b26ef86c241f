"""Interval arrays over an index space, from arrays.  A ``forall`` over one precedence constraint
(``endBeforeStart(a[j][o], a[j][o+1])``, ``endBeforeEnd``, ``startBeforeStart``, ... with an
optional delay of data) made over its whole
index space at once: the loop's bindings and the intervals' positions as NumPy arrays (the array
path's ``_Sum``, :mod:`pyopl.lowering.arrays.vectorised`), no expression evaluated per row.

What it adds is what the row path (``scheduling._precedence`` through ``constraints._cons``) adds,
in the same order: a row ``point(a) - point(b) <= -delay`` (``==`` for the ``...At...`` ones) for
each binding whose intervals are both always present (one block of rows), an enforced ``linear_if``
record where one is optional, and after each binding's row or record the ``posted`` record the
statement keeps.  Anything else (another shape, an index outside its set, a delay that is not a
whole number, two intervals sharing a column) returns False with nothing added, and the row path
builds the statement and words its errors.

The same index space serves a ``sum`` of elementary cumulative functions (``cumulFunction usage =
sum(t in Tasks) pulse(itv[t], t.demand);``, :func:`elementary_sum`): the intervals and heights read
from arrays, the terms in the loop's order.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import OplArray, OplRange
from ...syntax import ast as A
from ..arrays.ragged import CellItems, bind_cells, bind_range_per_row
from ..arrays.row_blocks import binder_names
from ..arrays.vectorised import NOT_COVERED, _names, _Small, _Sum, vector_cache
from ..arrays.vectorised_inline import PATTERN_NAME, single_name_form
from ..forms.cp_record import CpConstraint
from ..forms.linear import LinExpr
from .intervals import IntervalVar
from .scheduling import PRECEDENCES, CumulExpr, alternative_rows

#: the elementary cumulative functions of an interval and a height
ELEMENTARY = ("pulse", "stepAtStart", "stepAtEnd")

_DATA_KINDS = ("param", "set", "range")


def precedence_forall(inst: Any, s: A.Forall, env: dict) -> bool:
    """Add the rows and records of ``forall(q) [label:] precedence(a[..], b[..][, delay]);`` from
    arrays; False (nothing added) when the row path must build it.

    ``env``: the enclosing loop values.  Source of the rule: OPL manual, "Precedence constraints
    between interval variables" (``point(a) + z <= point(b)`` when both are present)."""
    cons = s.body
    if not isinstance(cons, A.ConsStmt) or not isinstance(cons.expr, A.Call) or getattr(inst, "engine", "mp") != "cp":
        return False
    node = cons.expr
    if not (cons.label is None or isinstance(cons.label, A.Name)):
        return False
    if node.func == "alternative" and len(node.args) == 2:
        return _alternatives(inst, s, env)
    if node.func not in PRECEDENCES or len(node.args) not in (2, 3):
        return False
    if len(s.quals.binders) == 1 and s.quals.binders[0].patterns[0].items is not None:
        # `forall(<j, o> in Ops)`: as `forall($t in Ops)` with `j`, `o` read as `$t.j`, `$t.o`
        cache = vector_cache(inst.ev)
        s = single_name_form(inst.ev, s, env, cache.__dict__.setdefault("patterns", {}), cache, NOT_COVERED)
        if s is None:
            return False
        cons = s.body
        node = cons.expr
    names = binder_names(s.quals)
    if names is None or set(names) & set(env):
        return False
    symbols = inst.symbols
    arrays = [_interval_array(symbols, a) for a in node.args[:2]]
    if None in arrays:
        return False
    if len(node.args) == 3:
        for n in _names(node.args[2]):
            sym = symbols.get(n)
            if n not in names and (sym is None or sym.kind not in _DATA_KINDS):
                return False  # a decision delay, an enclosing loop's value, ...: the row path
    try:
        with np.errstate(all="ignore"):
            made = _Made(inst, s, env, arrays)
            return made.run()
    except (_Small,) + NOT_COVERED:
        return False


def _alternatives(inst: Any, s: A.Forall, env: dict) -> bool:
    """``forall(q) [label:] alternative(a[..], all(r) b[..]);``: the loop's bindings, each one's ``a`` and
    its own ``all`` comprehension's intervals (bound ragged after the loop's, ``$row`` telling whose)
    from arrays, then each binding's rows and records made by the row path's own
    ``scheduling.alternative_rows``, in the loop's order; False (nothing added) where the row path
    must evaluate it (another shape, an index outside its set, a comprehension whose names clash)."""
    cons = s.body
    node = cons.expr
    comp = node.args[1]
    names = binder_names(s.quals)
    if names is None or set(names) & set(env) or not (isinstance(comp, A.Aggregate) and comp.op == "all"):
        return False
    inner = binder_names(comp.quals)
    symbols = inst.symbols
    arr_a, arr_b = _interval_array(symbols, node.args[0]), _interval_array(symbols, comp.body)
    if inner is None or arr_a is None or arr_b is None or set(inner) & (set(names) | set(env) | {"$row"}):
        return False
    try:
        with np.errstate(all="ignore"):
            made = _Made(inst, s, env, [])
            space = made.space
            if not _bind_all(space, s.quals):
                return False
            m = space.size
            keys = made._keys(m) if cons.label is not None else [()] * m
            ivs_a = np.broadcast_to(interval_columns(made.cache, arr_a[0])["interval"][
                space.positions(arr_a[0].dims, arr_a[1])], (m,)).tolist()
            space.iters["$row"] = (OplRange(0, m - 1), np.arange(m, dtype=np.int64))
            if m and not _bind_all(space, comp.quals):
                return False
            rows = space.iters["$row"][1] if m else np.zeros(0, dtype=np.int64)
            at = space.positions(arr_b[0].dims, arr_b[1]) if space.size else None
            ivs_b = np.broadcast_to(interval_columns(made.cache, arr_b[0])["interval"][at], (space.size,)).tolist() \
                if space.size else []
    except (_Small,) + NOT_COVERED:
        return False
    ends = np.cumsum(np.bincount(rows, minlength=m)).tolist()
    starts = [0] + ends[:-1]
    if any(b is ivs_a[r] for r, b in zip(rows.tolist(), ivs_b)):
        return False  # (an interval its own alternative: the row path sums the terms as it does)
    label = cons.label.id if cons.label is not None else ""
    out = inst.cp_constraints
    for k in range(m):
        inst._aux_label, inst._aux_key = label, keys[k]
        inst.rows.set_statement(cons.span)
        rec = alternative_rows(inst, ivs_a[k], ivs_b[starts[k]:ends[k]], 1, node)
        rec.label, rec.key = label, keys[k]
        out.append(rec)
    return True


def _interval_array(symbols: Any, n: A.Expr) -> tuple | None:
    """(the array, its index expressions) of ``a[i][j]`` with ``a`` an array of intervals, or None."""
    idx: list = []
    while isinstance(n, A.Index):
        idx[:0] = n.indices
        n = n.base
    if not isinstance(n, A.Name) or not idx:
        return None
    sym = symbols.get(n.id)
    arr = getattr(sym, "value", None)
    if not isinstance(arr, OplArray) or len(arr.dims) != len(idx):
        return None
    return arr, idx


def _bind_all(space: Any, quals: A.Qualifiers) -> bool:
    """Bind the loop's binders in ``space`` in order (a set made of earlier binders' values ragged:
    each binding's own range or set, as offsets); False where one cannot be (the row path then)."""
    for b in quals.binders:
        outer = not space.cache.names(b.domain)[1].isdisjoint(space.iters)
        if outer and isinstance(b.domain, A.RangeLit):
            bind_range_per_row(space, b)  # `o in 0..j-1`: each binding's own range, as offsets
        elif outer and isinstance(b.domain, (A.Index, A.Field)):
            bind_cells(space, b)  # `pre in predecessors[i]`, `t2 in t1.succs`: each binding's own set
        elif outer:
            return False  # (another set made of the outer indices: the row path)
        else:
            space._bind(b)
    return True


def _sum_space(ev: Any, node: A.Aggregate, env: dict, data_args: list) -> tuple | None:
    """(the loop's iteration space, bound; the interval array and index of the body's first argument;
    the sum as evaluated: a pattern binder in single-name form) of ``sum(q) f(a[..], data...)``, or None
    where the sum goes term by term (a decision or an enclosing loop's value in ``data_args``' place,
    no binding, a shape the array path does not take)."""
    cache = vector_cache(ev)
    if len(node.quals.binders) == 1 and node.quals.binders[0].patterns[0].items is not None:
        node = single_name_form(ev, node, env, cache.__dict__.setdefault("patterns", {}), cache, NOT_COVERED)
        if node is None:
            return None
    names = binder_names(node.quals)
    symbols = ev.inst.symbols
    if names is None or set(names) & set(env):
        return None
    arr = _interval_array(symbols, node.body.args[0])
    if arr is None:
        return None
    for k in data_args:
        for n in _names(node.body.args[k]):
            sym = symbols.get(n)
            if n not in names and (sym is None or sym.kind not in _DATA_KINDS):
                return None  # (a decision height, an enclosing loop's value: term by term)
    space = _Sum(ev, cache, None, env)
    space.owner = node
    if not _bind_all(space, node.quals) or not space.size:
        return None
    return space, arr, node


def presence_sum(ev: Any, node: A.Aggregate, env: dict) -> LinExpr | int | None:
    """``sum(q) presenceOf(a[..])`` with ``a`` an array of intervals, from arrays: what the term-by-term
    sum makes (``presenceOf`` of an optional interval is its 0/1 presence column as a value, ``true``
    (1) for one always present): the columns in the order they first appear, each counted, and the
    count of the always present ones as the constant; an int where no interval is optional.  None
    where the sum goes term by term (another shape; a presence column whose bounds are no longer
    0..1, where ``truth_value`` decides)."""
    body = node.body
    if not (isinstance(body, A.Call) and body.func == "presenceOf" and len(body.args) == 1) \
            or getattr(ev.inst, "engine", "mp") != "cp":
        return None
    try:
        with np.errstate(all="ignore"):
            made = _sum_space(ev, node, env, [])
            if made is None:
                return None
            space, arr, node = made
            at = space.positions(arr[0].dims, arr[1])
            q = np.broadcast_to(interval_columns(space.cache, arr[0])["presence"][at], (space.size,))
    except (_Small,) + NOT_COVERED:
        return None
    cols = q[q >= 0]
    always = len(q) - len(cols)
    if not len(cols):
        return always
    table = ev.inst.cols
    integer, lower, upper = table.integer.flat(), table.lower.flat(), table.upper.flat()
    picked = cols.tolist()
    if not all(integer[j] and lower[j] == 0.0 and upper[j] == 1.0 for j in set(picked)):
        return None
    terms: dict = {}
    for j in picked:
        terms[j] = terms.get(j, 0.0) + 1.0
    return LinExpr(terms, float(always))


def elementary_sum(ev: Any, node: A.Aggregate, env: dict) -> CumulExpr | None:
    """``sum(q) pulse(a[..], h)`` (``stepAtStart``, ``stepAtEnd``) with ``a`` an array of intervals and
    ``h`` data: the cumulative function's terms made from arrays, in the order of the loop's bindings,
    as the term-by-term sum adds them (``cumul_arith``: each term ``(kind, interval, h)``); None where
    the sum goes term by term (another shape, no binding, a height that is not a whole number, an index
    outside its set: that path words the error).  Source of the rule: OPL manual, "Cumulative
    functions" (a cumul function expression is a sum of elementary ones)."""
    body = node.body
    if not (isinstance(body, A.Call) and body.func in ELEMENTARY and len(body.args) == 2) \
            or getattr(ev.inst, "engine", "mp") != "cp":
        return None
    try:
        with np.errstate(all="ignore"):
            made = _sum_space(ev, node, env, [1])
            if made is None:
                return None
            space, arr, node = made
            m = space.size
            at = space.positions(arr[0].dims, arr[1])
            ivs = np.broadcast_to(interval_columns(space.cache, arr[0])["interval"][at], (m,)).tolist()
            num = np.broadcast_to(np.asarray(space.num(space.data(node.body.args[1])), dtype=np.float64), (m,))
    except (_Small,) + NOT_COVERED:
        return None
    if not np.all(num == np.floor(num)) or np.any(np.abs(num) >= 2 ** 53):
        return None  # (not a whole number: `int_arg` words it)
    kind = body.func
    return CumulExpr([(kind, iv, h) for iv, h in zip(ivs, num.astype(np.int64).tolist())])


def interval_groups(ev: Any, quals: A.Qualifiers, key: A.Expr, body: A.Expr, env: dict) -> tuple | None:
    """(each binding's ``key``, each binding's interval) of ``all(quals) body`` with ``body`` an element
    of an interval array (``itv[o]``), the bindings in the comprehension's order, from arrays: what
    :func:`~pyopl.lowering.cp.sequence_groups.grouped_domains` groups a ``dvar sequence`` array's
    intervals by; None where it evaluates them one by one (another shape, an index outside its set)."""
    arr = _interval_array(ev.inst.symbols, body)
    names = binder_names(quals)
    if arr is None or names is None or set(names) & set(env):
        return None
    cache = vector_cache(ev)
    try:
        with np.errstate(all="ignore"):
            space = _Sum(ev, cache, None, env)
            space.owner = body
            if not _bind_all(space, quals) or not space.size:
                return None
            m = space.size
            at = space.positions(arr[0].dims, arr[1])
            ivs = np.broadcast_to(interval_columns(cache, arr[0])["interval"][at], (m,)).tolist()
            v = space.data(key)
            if v.is_scalar:
                keys = [v.scalar] * m
            elif v.exact_int and v.num is not None:
                keys = np.broadcast_to(v.num, (m,)).astype(np.int64).tolist()
            else:
                keys = space.objs(v)
    except (_Small,) + NOT_COVERED:
        return None
    return keys, ivs


def interval_columns(cache: Any, arr: OplArray) -> dict:
    """start, end and presence columns (presence -1: always present) and each place's IntervalVar over
    ``arr``'s index space, in the shape of its dims (made once per array and compile); ``_Small`` where
    an element is missing or not an interval."""
    kept = cache.__dict__.setdefault("interval_columns", {})
    hit = kept.get(id(arr))
    if hit is not None and hit[0] is arr:
        return hit[1]
    shape = tuple(len(d) for d in arr.dims)
    wheres = [None if isinstance(d, OplRange) else cache.domain(d).where for d in arr.dims]
    out = {k: np.full(shape, -2, dtype=np.int64) for k in ("start", "end", "presence")}
    keys, ivs = list(arr.data.keys()), list(arr.data.values())
    if not all(isinstance(iv, IntervalVar) for iv in ivs):
        raise _Small()
    if keys:  # each element's place, then the three columns written at once
        at = tuple(np.fromiter((k[i] - d.lo for k in keys) if w is None else (w[k[i]] for k in keys),
                               dtype=np.int64, count=len(keys))
                   for i, (d, w) in enumerate(zip(arr.dims, wheres)))
        flat = np.ravel_multi_index(at, shape)
        out["start"].flat[flat] = np.fromiter((iv.start for iv in ivs), dtype=np.int64, count=len(ivs))
        out["end"].flat[flat] = np.fromiter((iv.end for iv in ivs), dtype=np.int64, count=len(ivs))
        out["presence"].flat[flat] = np.fromiter((-1 if iv.presence is None else iv.presence for iv in ivs),
                                                 dtype=np.int64, count=len(ivs))
    out["interval"] = np.empty(shape, dtype=object)  # (each place's IntervalVar, for a sum of pulses)
    out["interval"].flat[flat if keys else []] = ivs
    if (out["start"] == -2).any():
        raise _Small()  # an element that is not there: the row path says so
    kept[id(arr)] = (arr, out)
    return out


class _Made:
    def __init__(self, inst: Any, s: A.Forall, env: dict, arrays: list):
        self.inst, self.s, self.env, self.arrays = inst, s, env, arrays
        self.cache = vector_cache(inst.ev)
        self.space = _Sum(inst.ev, self.cache, None, env)
        self.space.owner = s

    def run(self) -> bool:
        space, s = self.space, self.s
        cons = s.body
        node = cons.expr
        if not _bind_all(space, s.quals):
            return False
        m = space.size
        pa, pb, op = PRECEDENCES[node.func]
        picked = []
        for (arr, idx), point in zip(self.arrays, (pa, pb)):
            cols = interval_columns(self.cache, arr)
            at = space.positions(arr.dims, idx)
            picked.append((np.broadcast_to(cols[point][at], (m,)), np.broadcast_to(cols["presence"][at], (m,))))
        (ca, qa), (cb, qb) = picked
        if np.any(ca == cb) or np.any((qa == qb) & (qa >= 0)):
            return False  # the same interval twice: the row path sums the terms as it does
        if len(node.args) == 3:
            num = np.broadcast_to(np.asarray(space.num(space.data(node.args[2])), dtype=np.float64), (m,))
            if not np.all(num == np.floor(num)) or np.any(np.abs(num) > 2 ** 53):
                return False  # not a whole number: the row path words it
            delay = num.tolist()
        else:
            delay = [0] * m
        self._add(m, ca, qa, cb, qb, delay, op == "==")
        return True

    def _keys(self, m: int) -> list:
        """Each binding's loop values, outer ones first (the key the row path gives a named label)."""
        outer = tuple(v for k, v in self.env.items() if not k.startswith("$"))
        cols = []
        for b in self.s.quals.binders:
            d, pos = self.space.iters[b.patterns[0].name]
            items = d if isinstance(d, CellItems) else self.cache.domain(d).items
            if b.patterns[0].name == PATTERN_NAME:  # `<j, o> in Ops`: the key is (j, o), each field
                cols.extend(zip(*[items[p] for p in pos.tolist()]))
            else:
                cols.append([items[p] for p in pos.tolist()])
        return [outer + tuple(k) for k in zip(*cols)] if cols else [outer] * m

    def _add(self, m: int, ca: np.ndarray, qa: np.ndarray, cb: np.ndarray, qb: np.ndarray, delay: list,
             equal: bool) -> None:
        inst, cons = self.inst, self.s.body
        label = cons.label.id if cons.label is not None else ""
        keys = self._keys(m) if label else [()] * m
        aux = label + "#aux" if label else "#aux"
        inst.rows.set_statement(cons.span)
        # the row path's bounds: lo - const and hi - const, const = 0.0 + delay (a LinExpr's float)
        consts = [0.0 + d for d in delay]
        his = [0.0 - c for c in consts]
        los = his if equal else [-float("inf")] * m
        plain = (qa < 0) & (qb < 0)
        rows = np.flatnonzero(plain)
        if len(rows):
            indptr = np.arange(0, 2 * len(rows) + 1, 2, dtype=np.int64)
            col = np.empty(2 * len(rows), dtype=np.int64)
            col[0::2], col[1::2] = ca[rows], cb[rows]
            coef = np.tile(np.array([1.0, -1.0]), len(rows))
            r = rows.tolist()
            inst.rows.add_block(indptr, col, coef, np.array([los[k] for k in r]), np.array([his[k] for k in r]),
                                aux, [keys[k] for k in r])
        out = inst.cp_constraints
        span = cons.expr.span
        conditional = (~plain).tolist()
        ca_l, cb_l, qa_l, qb_l = ca.tolist(), cb.tolist(), qa.tolist(), qb.tolist()
        for k in range(m):
            if conditional[k]:
                when = ([(qa_l[k], True)] if qa_l[k] >= 0 else []) + ([(qb_l[k], True)] if qb_l[k] >= 0 else [])
                out.append(CpConstraint("linear_if", [], span, data={
                    "terms": {ca_l[k]: 1.0, cb_l[k]: -1.0}, "lo": los[k], "hi": his[k], "when": when}))
            out.append(CpConstraint("posted", [], span, label=label, key=keys[k]))
        if m:
            inst._aux_label, inst._aux_key = label, keys[-1]
