"""A ``forall`` over one precedence constraint (``endBeforeStart(a[j][o], a[j][o+1])``,
``endBeforeEnd``, ``startBeforeStart``, ... with an optional delay of data) made over its whole
index space at once: the loop's bindings and the intervals' positions as NumPy arrays (the array
path's ``_Sum``, :mod:`pyopl.lowering.arrays.vectorised`), no expression evaluated per row.

What it adds is what the row path (``scheduling._precedence`` through ``constraints._cons``) adds,
in the same order: a row ``point(a) - point(b) <= -delay`` (``==`` for the ``...At...`` ones) for
each binding whose intervals are both always present (one block of rows), an enforced ``linear_if``
record where one is optional, and after each binding's row or record the ``posted`` record the
statement keeps.  Anything else (another shape, an index outside its set, a delay that is not a
whole number, two intervals sharing a column) returns False with nothing added, and the row path
builds the statement and words its errors.
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
from .intervals import IntervalVar
from .scheduling import PRECEDENCES

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
    if node.func not in PRECEDENCES or len(node.args) not in (2, 3) or not (cons.label is None or isinstance(cons.label, A.Name)):
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


class _Made:
    def __init__(self, inst: Any, s: A.Forall, env: dict, arrays: list):
        self.inst, self.s, self.env, self.arrays = inst, s, env, arrays
        self.cache = vector_cache(inst.ev)
        self.space = _Sum(inst.ev, self.cache, None, env)
        self.space.owner = s

    def _columns(self, arr: OplArray) -> dict:
        """start, end and presence columns (presence -1: always present) over ``arr``'s index space,
        in the shape of its dims (made once per array and compile)."""
        kept = self.cache.__dict__.setdefault("interval_columns", {})
        hit = kept.get(id(arr))
        if hit is not None and hit[0] is arr:
            return hit[1]
        shape = tuple(len(d) for d in arr.dims)
        wheres = [None if isinstance(d, OplRange) else self.cache.domain(d).where for d in arr.dims]
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
        if (out["start"] == -2).any():
            raise _Small()  # an element that is not there: the row path says so
        kept[id(arr)] = (arr, out)
        return out

    def run(self) -> bool:
        space, s = self.space, self.s
        cons = s.body
        node = cons.expr
        for b in s.quals.binders:
            outer = not self.cache.names(b.domain)[1].isdisjoint(space.iters)
            if outer and isinstance(b.domain, A.RangeLit):
                bind_range_per_row(space, b)  # `o in 0..j-1`: each binding's own range, as offsets
            elif outer and isinstance(b.domain, (A.Index, A.Field)):
                bind_cells(space, b)  # `pre in predecessors[i]`, `t2 in t1.succs`: each binding's own set
            elif outer:
                return False  # (another set made of the outer indices: the row path)
            else:
                space._bind(b)
        m = space.size
        pa, pb, op = PRECEDENCES[node.func]
        picked = []
        for (arr, idx), point in zip(self.arrays, (pa, pb)):
            cols = self._columns(arr)
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
