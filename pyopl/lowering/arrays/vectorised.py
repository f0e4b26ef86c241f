"""``sum`` over index sets with NumPy: the common shapes at array speed, the same result as term by term.

The :class:`~pyopl.lowering.evaluate.expressions.Evaluator` sums ``sum(i in I, j in J : f) body``
one iteration at a time, a Python dict per term.  This module handles the
shapes that fill large models in whole arrays instead:

- binders ``i in D`` (one name each), whose domains do not depend on the
  sum's own iterators, with filters made of comparisons (``==``, ``!=``,
  ``<``, ``<=``, ``>``, ``>=``, ``&&``, ``||``, ``!``) of data, and of membership
  ``e in S`` / ``e not in S`` of an iterator or its field in a set free of the iterators
  (tested once per distinct value: the subtour rows ``sum(e in Edges : e.i in S[k] && e.j in S[k])``);
- a body that is linear: ``+``, ``-``, unary ``-``, ``*`` and ``/`` by data,
  of decision elements ``x[i][j]`` (a ``dvar`` indexed by data) and data
  (numbers, iterators, tuple fields ``a.cost``, array elements ``c[i][j]``).

The iteration space is built as arrays of positions (outer binder first, as
the nested loops run); array elements are gathered from dense copies of
the arrays (made once per array); a filter ``a.src == v`` on a tuple field
is answered from a per-field index, so ``forall(v in Nodes) sum(a in Arcs :
a.src == v)`` costs the size of the answer, not of ``Arcs``.

Exactness: every coefficient goes through the same IEEE operations, in the
same order, as the term-by-term path (``float64`` is Python's ``float``);
integer data stay exact below 2**53, and a product beyond that falls back.
Anything not covered above, any value that does not fit (a missing
element, an index outside its set, a division by zero) and any error makes
:func:`vector_sum` return ``None``, and the Evaluator then sums term by
term, reporting what it would have reported anyway.
"""
from __future__ import annotations

import itertools
import math
import operator
import weakref
from typing import Any

import numpy as np

from ...semantics.values import FloatColumn, OplArray, OplRange, OplSet, OplTuple, TupleType
from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.linear import LinExpr
from ..forms.tupleindex import foreign_tuple
from . import vectorised_inline  # (it takes this module's cache and errors as arguments: no import back)
from ..forms.shapes import binder_equalities, conjuncts
from .array_types import (EXACT, Domain, _Fallback, _flatten_index, _Lin, _numeric, _Small, _stable_order,  # noqa: F401
                          _Vec, consecutive_columns, whole_or_gathered)  # (re-exported for the array paths)
from .ragged import CellItems, cell_member, cell_positions, data_aggregate, merged_blocks, picked_blocks
from .vectorised_calls import (PURE_CALLS, extra_data, presence_calls, presence_lin, pure_invariant, settled_compare,
                               tuple_member, tuple_positions)


INT_MAX = 2 ** 31 - 1  # OPL's maxint (:mod:`pyopl.lowering.forms.int32`)
MIN_ITERATIONS = 8  # below this, the term-by-term path is as fast
MIN_JOINED = 64  # a sum whose filter was a join, with fewer terms than this: the tree walk (which joins too) is faster


class VectorCache:
    """Dense copies of arrays and domains, made once per object (the objects are kept alive here)."""

    def __init__(self):
        self._dense: dict[int, tuple] = {}
        self._domain: dict[int, tuple] = {}
        self._groups: dict[tuple, tuple] = {}
        self._names: dict[int, tuple] = {}  # id(node) -> (node, its names in walk order, as a set, plain-data names)
        self.unfit: set[int] = set()  # ids of sum nodes whose shape or data is not covered
        self.failures: dict[int, int] = {}
        self.fit: dict[int, Any] = {}  # sum nodes whose shape is covered (kept alive, so ids stay unique)

    def covers(self, node: Any, fits: Any) -> bool:
        """Whether ``node``'s shape is one the array path takes (``fits()`` is asked once per node)
        and its data have not failed it three times."""
        if id(node) in self.unfit:
            return False
        if id(node) not in self.fit:
            if not fits():
                self.unfit.add(id(node))
                self.fit[id(node)] = node  # kept alive, so that its id stays unique
                return False
            self.fit[id(node)] = node
        return True

    def failed(self, node: Any) -> None:
        """One more failure of ``node``'s data; after three it is not tried again."""
        self.failures[id(node)] = self.failures.get(id(node), 0) + 1
        if self.failures[id(node)] >= 3:
            self.unfit.add(id(node))

    def domain(self, d: Any) -> Domain:
        """The :class:`Domain` of the index set ``d`` (its items, positions and numbers, made when read)."""
        hit = self._domain.get(id(d))
        if hit is None or hit.set is not d:
            hit = Domain(d)
            self._domain[id(d)] = hit
        return hit

    def dense(self, arr: Any) -> tuple:
        """(values over the product of the dims, or None when not all numeric, exact ints) for OplArray;
        column numbers (-1 where missing) for VarArray."""
        hit = self._dense.get(id(arr))
        if hit is None or hit[0] is not arr:
            shape = tuple(len(d) for d in arr.dims)
            if isinstance(arr, OplArray):
                aligned = arr.flat_aligned()  # (False after a script added to one of its index sets)
                if aligned and type(arr.flat) is FloatColumn:  # read from data as one array: taken as it is
                    num, exact = arr.flat.array, False
                elif aligned and arr.flat_floats:  # Python floats in key order: nothing to check
                    num, exact = np.array(arr.flat, dtype=np.float64), False
                else:
                    if aligned:  # read as plain numbers in key order: no keys to look up
                        vals = arr.flat
                    else:
                        data, keys = arr.data, self._keys(arr)
                        vals = list(data.values()) if list(data) == keys else [data.get(k) for k in keys]
                    num, exact = _numeric(vals)
                hit = (arr, num.reshape(shape) if num is not None else None, exact)
            elif arr.first is not None and arr._cols is None:  # one consecutive block of columns
                hit = (arr, np.arange(arr.first, arr.first + math.prod(shape), dtype=np.int64).reshape(shape), True)
            else:
                cols, keys = arr.cols, self._keys(arr)
                vals = list(cols.values()) if list(cols) == keys else [cols.get(k, -1) for k in keys]
                hit = (arr, np.array(vals, dtype=np.int64).reshape(shape), True)
            self._dense[id(arr)] = hit
        return hit[1:]

    def _keys(self, arr: Any) -> list[tuple]:
        return list(itertools.product(*[self.domain(d).items for d in arr.dims]))

    def names(self, n: Any) -> tuple:
        """``(names in walk order, the same as a frozenset, names if n is plain data else None)`` of an
        AST node, found once per node: a sum inside a ``forall`` meets the same nodes on every row."""
        hit = self._names.get(id(n))
        if hit is None or hit[0] is not n:
            order = tuple(_names(n))
            plain: list | None = []
            for x in _walk(n):
                if isinstance(x, (A.Call, A.Aggregate, A.Piecewise, A.ArrayComp, A.SetComp)):
                    plain = None
                    break
                if isinstance(x, A.Name):
                    plain.append(x.id)
            hit = (n, order, frozenset(order), None if plain is None else tuple(plain))
            self._names[id(n)] = hit
        return hit[1:]

    def group(self, d: Any, field: str | None) -> tuple[dict, str | None] | None:
        """Positions of the items of ``d`` by the value of a tuple field (or of the item itself), and the
        common kind of those values ("number" or "string", None when mixed); None when ``d`` has items
        that are not tuples of one type with that field."""
        key = (id(d), field)
        hit = self._groups.get(key)
        if hit is None or hit[0] is not d:
            dom = self.domain(d)
            out = None
            tt = dom.ttype if field is not None else None
            if field is None or (tt is not None and field in tt.fields and self._one_tuple_type(d)):
                k = tt.index(field) if field is not None else None
                out = self._number_groups(d, k)
                if out is None:
                    items = dom.items
                    groups: dict[Any, list[int]] = {}
                    for p, v in enumerate(items):
                        groups.setdefault(v if k is None else v[k], []).append(p)
                    kinds = {_kind(g) for g in groups}
                    out = ({v: np.asarray(p, dtype=np.int64) for v, p in groups.items()},
                           kinds.pop() if len(kinds) == 1 else None)
            hit = (d, out)
            self._groups[key] = hit
        return hit[1]

    def _one_tuple_type(self, d: Any) -> bool:
        """Whether every item of ``d`` is an OplTuple of the first one's type (asked once per domain)."""
        key = (id(d), "one type")
        hit = self._groups.get(key)
        if hit is None or hit[0] is not d:
            if type(d) is OplSet and len(d) and d.column(0) is not None:  # read in bulk: one type, made so
                hit = (d, True)
                self._groups[key] = hit
                return True
            items = self.domain(d).items
            same = all(map(isinstance, items, itertools.repeat(OplTuple)))
            if same:
                types = set(map(_TTYPE, items))
                same = len(types) == 1 and types.pop() is items[0].ttype
            hit = (d, same)
            self._groups[key] = hit
        return hit[1]

    def _number_groups(self, d: Any, k: int | None) -> tuple[dict, str] | None:
        """:meth:`group` for values that are all plain numbers (ints below 2**53, no NaN), with NumPy: a
        stable sort by value, so each group keeps the items' order, and the groups in the order of their
        first items, each keyed by its first item's value, as the dict the loop fills; None otherwise."""
        dom = self.domain(d)
        if not len(dom):
            return None
        try:
            num, exact = (dom.num, dom.exact) if k is None else self.field_column(d, k)
        except OverflowError:  # an int too large for a float: the loop groups it
            return None
        if num is None or np.isnan(num).any():
            return None
        order = _stable_order(num, exact)
        order.flags.writeable = False  # the groups are views of it, shared by every sum that asks
        ranked = num[order]
        starts = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
        firsts = order[starts]  # each group's first item (equal values: -0.0 and 0.0, 3 and 3.0, are one group)
        by_first = np.argsort(firsts, kind="stable").tolist()
        bounds = np.append(starts, len(order)).tolist()
        firsts = firsts.tolist()
        firsts = [firsts[g] for g in by_first]
        keys = [dom.items[p] for p in firsts] if k is None else dom.field_values(k, firsts)
        return dict(zip(keys, [order[bounds[g]:bounds[g + 1]] for g in by_first])), "number"

    def codes(self, d: Any, field: str | None) -> tuple[list, np.ndarray] | None:
        """(distinct values, code of each item) of the items of ``d`` (or of their tuple field ``field``);
        values of different Python types stay distinct (``1``, ``1.0``, ``True``).  None when ``field``
        is not a field of every item."""
        key = (id(d), "codes", field)
        hit = self._groups.get(key)
        if hit is None or hit[0] is not d:
            items = self.domain(d).items
            out = None
            t0 = items[0] if items else None
            if field is None or (isinstance(t0, OplTuple) and t0.ttype is not None and field in t0.ttype.fields
                                 and all(isinstance(t, OplTuple) and t.ttype is t0.ttype for t in items)):
                k = t0.ttype.index(field) if field is not None else None
                seen: dict[tuple, int] = {}
                uniq: list = []
                codes = np.empty(len(items), dtype=np.int64)
                for p, v in enumerate(items):
                    x = v if k is None else v[k]
                    c = seen.setdefault((type(x), x), len(uniq))
                    if c == len(uniq):
                        uniq.append(x)
                    codes[p] = c
                out = (uniq, codes)
            hit = (d, out)
            self._groups[key] = hit
        return hit[1]

    def field_column(self, d: Any, k: int) -> tuple:
        """(numeric values or None, all exact ints) of field ``k`` of the tuples of ``d``."""
        key = (id(d), "field", k)
        hit = self._groups.get(key)
        if hit is None or hit[0] is not d:
            kept = d.column(k) if type(d) is OplSet else None  # the data reader's column: no tuple read
            hit = (d, kept if kept is not None else
                   _numeric(list(map(operator.itemgetter(k), self.domain(d).items))))
            self._groups[key] = hit
        return hit[1]


def vector_sum(ev: Any, node: A.Aggregate, env: dict) -> Any:
    """``sum`` over ``node`` evaluated with arrays: a LinExpr, 0 for no iterations, or None (sum term by term)."""
    cache = vector_cache(ev)
    strict = False
    if isinstance(node.body, A.Aggregate):  # `sum(i in I) sum(j in J) ...`: one sum over both, if it is the same
        flat = vectorised_inline.flattened_sum(node, cache.__dict__.setdefault("flat", {}))
        node, strict = flat, flat is not node
    if node.quals.binders and node.quals.binders[0].patterns[0].items is not None:  # `<i, j> in S`
        node = vectorised_inline.single_name_form(ev, node, env, cache.__dict__.setdefault("patterns", {}), cache,
                                                  NOT_COVERED)
        if node is None:
            return None
    if not cache.covers(node, lambda: _fits(ev, node)):
        return None
    try:
        with np.errstate(all="ignore"):  # inf and nan arise as in Python floats, without a warning
            return _Sum(ev, cache, node, env, strict).run()
    except _Small:
        return None
    except NOT_COVERED:
        cache.failed(node)
        return None


#: what makes an array evaluation give up (the one-by-one path then runs, and reports any error)
NOT_COVERED = (_Fallback, EvalError, KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, OverflowError)


def vector_cache(ev: Any) -> VectorCache:
    """The Evaluator's :class:`VectorCache` (made on first use)."""
    cache = ev.__dict__.get("_vector_cache")
    if cache is None:
        cache = ev.__dict__["_vector_cache"] = VectorCache()
    return cache


def _fits(ev: Any, node: A.Aggregate) -> bool:
    """Static shape check: single-name binders, distinct names, a body with a decision variable in it."""
    names = []
    for b in node.quals.binders:
        if len(b.patterns) != 1 or b.patterns[0].name is None or b.ordered:
            return False
        names.append(b.patterns[0].name)
    if len(set(names)) != len(names):
        return False
    for k, b in enumerate(node.quals.binders):
        if set(_names(b.domain)) & set(names):
            return False
    symbols = ev.inst.symbols  # (an aggregate of data free of the names in the body: evaluated once, _invariant)
    presence = presence_calls(node.body, symbols)  # (`presenceOf(t[i]) * w[i]`, using CP)
    return (bool(presence) or any(symbols.get(n) is not None and symbols[n].kind == "dvar" for n in _names(node.body))) \
        and _linear_shape(node.body, lambda x: id(x) in presence or (isinstance(x, A.Aggregate) and x.op in (
            "sum", "min", "max", "prod") and all(k not in names and getattr(symbols.get(k), "kind", None) not in (
                "dvar", "dexpr") for k in _names(x))))


def _names(n: Any) -> list[str]:
    out: list[str] = []
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            out.append(x.id)
        elif isinstance(x, A.Node):
            for v in vars(x).values():
                if isinstance(v, list):
                    stack.extend(v)
                elif isinstance(v, A.Node):
                    stack.append(v)
    return out


#: A body deeper than this is left to the term-by-term path (whose chains are folded in a loop):
#: the array paths walk their trees recursively.
MAX_SHAPE_DEPTH = 64


def _linear_shape(n: A.Expr, also: Any = None) -> bool:
    """Whether ``n`` is made of constants, names, indexing and fields under ``+ - * /`` and unary
    ``-``, no deeper than :data:`MAX_SHAPE_DEPTH` (walked without recursion); ``also(x)``: other parts taken."""
    stack = [(n, 0)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_SHAPE_DEPTH:
            return False
        if isinstance(n, (A.Const, A.Name, A.Index, A.Field)) or (also is not None and also(n)):
            continue
        if isinstance(n, A.Unary) and n.op in ("-", "!"):
            stack.append((n.operand, depth + 1))
        elif isinstance(n, A.Binary) and n.op in ("+", "-", "*", "/", "div", "mod", "&&", "||", "in", "not in"):
            stack.append((n.right, depth + 1))
            stack.append((n.left, depth + 1))
        elif isinstance(n, A.Call) and n.func in PURE_CALLS:
            stack.extend((a, depth + 1) for a in n.args)
        elif isinstance(n, A.Conditional):  # `c ? a : b` of data (a decision in it: the row path)
            stack.extend(((n.cond, depth + 1), (n.then, depth + 1), (n.other, depth + 1)))
        elif isinstance(n, (A.SetLit, A.RangeLit)):  # (the set of `j in {1, 5, 9}`, `j in 3..5`)
            stack.extend((a, depth + 1) for a in (n.items if isinstance(n, A.SetLit) else (n.lo, n.hi)))
        elif isinstance(n, A.Compare) and len(n.ops) == 1:  # a comparison of data used as 0/1
            stack.extend((a, depth + 1) for a in n.operands)
        else:
            return False
    return True


class _Sum:
    def __init__(self, ev: Any, cache: VectorCache, node: A.Aggregate, env: dict, strict: bool = False):
        self.ev, self.cache, self.node, self.env = ev, cache, node, env
        self.strict = strict  # a flattened nest: no column twice and no constant, or step aside
        self.owner = node  # where a work-limit diagnostic points (a `forall` sets it: see vectorised_rows.py)
        self.symbols = ev.inst.symbols
        self.iters: dict[str, tuple] = {}  # name -> (domain, positions)
        self.size = 1
        self.scanned = 1  # iterations the term-by-term path would visit (filters included)
        self.joined = False  # a binder's filter was looked up in an index (see joins.py)

    # ------------------------------------------------------------------ the iteration space
    def run(self) -> Any:
        last = self.node.quals.binders[-1]
        for b in self.node.quals.binders:
            self._bind(b, b is last)
            if self.size == 0:
                return 0
        if self.scanned < MIN_ITERATIONS or (self.joined and self.size < MIN_JOINED):
            raise _Small()  # (a few candidates from a join: the tree walk joins too, at less cost per call)
        lin = self.lin(self.node.body)
        return _to_linexpr(lin, self.size, self.strict)

    def _bind(self, b: A.Binder, last: bool = False) -> None:
        domain = self.ev.eval_set(b.domain, self.env)
        name = b.patterns[0].name
        n = len(domain)
        budget = self.ev.inst.budget  # counted as the term-by-term path counts, before allocating
        group, whole = self._grouped_filter(b, name, domain) if b.filter is not None else (None, False)
        f = self.size
        if last and group is not None and f * len(group) < MIN_JOINED:
            raise _Small()  # (run's own test, decided before anything is charged, laid out or filtered:
            # the tree walk, which joins too, then sums this row's few terms without repeating the work)
        picks = np.arange(n, dtype=np.int64) if group is None else group
        # a grouped filter is a hash join (see joins.py): the index once (charged where it is built),
        # then the candidates it finds, not the whole domain at every binding of the iterators before
        work = f * n if group is None else f * len(picks)
        if last and self.scanned + work < MIN_ITERATIONS:
            raise _Small()  # (run's test, before anything is charged or laid out: the tree walk charges it)
        self.joined = self.joined or group is not None
        budget.refuse_size(work, self.owner)
        budget.charge(work, self.owner)
        self.scanned += work
        self.iters = {k: (d, np.repeat(p, len(picks))) for k, (d, p) in self.iters.items()}
        self.iters[name] = (domain, picks if f == 1 and group is None else np.tile(picks, f))  # (a fresh arange: no copy)
        if f == 1 and group is None:  # every item in order: its values are the domain's own (whole_or_gathered)
            self.cache.__dict__.setdefault("whole", {})[id(picks)] = weakref.ref(picks)
        self.size = f * len(picks)
        if b.filter is not None and not whole and self.size:
            mask = self.cond(b.filter)  # (the whole filter: its equality holds on the picks already)
            self.iters = {k: (d, p[mask]) for k, (d, p) in self.iters.items()}
            self.size = int(mask.sum())

    def _grouped_filter(self, b: A.Binder, name: str, domain: Any) -> tuple[np.ndarray | None, bool]:
        """A conjunct ``a.f == e`` / ``a == e`` of the filter with ``e`` free of this sum's iterators:
        (the positions it matches, from an index, or None; whether that conjunct is the whole filter)."""
        parts = conjuncts(b.filter)
        for f in parts:
            hit = self._grouped_conjunct(f, name, domain)
            if hit is not None:
                return hit, len(parts) == 1
        return None, False

    def _grouped_conjunct(self, f: A.Expr, name: str, domain: Any) -> np.ndarray | None:
        for field, other in binder_equalities(f, name):
            used = self.cache.names(other)[1]
            if name in used or not used.isdisjoint(self.iters):
                continue
            built = self.cache._groups.get((id(domain), field))
            grouped = self.cache.group(domain, field)
            if built is None or built[0] is not domain:
                self.ev.inst.budget.charge(len(domain), self.owner)  # the index: once per domain and field
            if grouped is None:
                return None
            value = self._invariant(other)
            groups, kind = grouped
            if kind is None or _kind(value) != kind:
                return None
            hit = groups.get(value)
            return hit if hit is not None else np.zeros(0, dtype=np.int64)
        return None

    # ------------------------------------------------------------------ conditions
    def cond(self, n: A.Expr) -> np.ndarray:
        if isinstance(n, A.Binary) and n.op in ("&&", "||"):
            a, b = self.cond(n.left), self.cond(n.right)
            return (a & b) if n.op == "&&" else (a | b)
        if isinstance(n, A.Unary) and n.op == "!":
            return ~self.cond(n.operand)
        if isinstance(n, A.Binary) and n.op in ("in", "not in"):
            return tuple_member(self, n) if isinstance(n.left, A.TupleLit) else self._member(n)
        if isinstance(n, A.Compare) and len(n.ops) == 1:
            settled = settled_compare(self, n)  # (`p.c >= 0` with every cost >= 0: no value gathered)
            if settled is not None:
                return settled
            a, b = self.data(n.operands[0]), self.data(n.operands[1])
            op = n.ops[0]
            if self._numeric_or_none(a) is not None and self._numeric_or_none(b) is not None:
                x, y = self.num(a), self.num(b)
                out = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
                       ">": np.greater, ">=": np.greater_equal}[op](x, y)
                return np.broadcast_to(out, (self.size,)).copy()
            if op in ("==", "!="):
                xs, ys = self.objs(a), self.objs(b)
                if not all(isinstance(v, str) for v in itertools.chain(xs[:1], ys[:1])):
                    raise _Fallback()
                if not (all(type(v) is str for v in xs) and all(type(v) is str for v in ys)):
                    raise _Fallback()
                eq = np.fromiter((u == v for u, v in zip(xs, ys)), dtype=bool, count=self.size)
                return eq if op == "==" else ~eq
        raise _Fallback()

    def _member(self, n: A.Binary) -> np.ndarray:
        """``e in S`` / ``e not in S`` with ``S`` free of this sum's iterators and ``e`` an iterator or
        its tuple field: the Evaluator's own membership test once per distinct value of ``e``."""
        if not self.cache.names(n.right)[1].isdisjoint(self.iters):
            return cell_member(self, n)  # `j in nb[i]`: each iteration's own cell (ragged.py)
        left = n.left
        if isinstance(left, A.Name) and left.id in self.iters:
            domain, pos = self.iters[left.id]
            field = None
        elif isinstance(left, A.Field) and isinstance(left.base, A.Name) and left.base.id in self.iters:
            domain, pos = self.iters[left.base.id]
            field = left.name
        else:
            raise _Fallback()
        coded = self.cache.codes(domain, field)
        if coded is None:
            raise _Fallback()
        uniq, codes = coded
        s = self._invariant(n.right)
        hits = np.fromiter((self.ev._membership(n, u, s) for u in uniq), dtype=bool, count=len(uniq))
        return hits[codes[pos]]

    # ------------------------------------------------------------------ data
    def _invariant(self, n: A.Expr) -> Any:
        """A loop-invariant data expression, evaluated once by the Evaluator (plain arithmetic only)."""
        plain = self.cache.names(n)[2]
        if plain is None:  # a call, an aggregate, ...: only pure functions of data are evaluated once
            if not pure_invariant(self, n):
                raise _Fallback()
            return self.ev.evaluate(n, self.env)
        env = self.env
        for name in plain:
            if name not in env:
                sym = self.symbols.get(name)
                if sym is None or sym.kind not in ("param", "set", "range"):
                    raise _Fallback()
        return self.ev.evaluate(n, env)

    def data(self, n: A.Expr) -> _Vec:
        if self.cache.names(n)[1].isdisjoint(self.iters):
            v = self._invariant(n)
            if isinstance(v, bool):
                raise _Fallback()
            return _Vec(scalar=v, is_scalar=True, exact_int=isinstance(v, int) and abs(v) < EXACT)
        if isinstance(n, A.Name):
            domain, pos = self.iters[n.id]
            dom = self.cache.domain(domain)
            if isinstance(domain, OplRange):
                lo = domain.lo
                return _Vec(exact_int=True, it=(domain, pos), make=lambda: (pos + lo).astype(np.float64))
            num = dom.num
            return _Vec(exact_int=dom.exact, it=(domain, pos), make=None if num is None else lambda: num[pos])
        if isinstance(n, A.Field) and isinstance(n.base, A.Name) and n.base.id in self.iters:
            domain, pos = self.iters[n.base.id]
            dom = self.cache.domain(domain)
            tt = dom.ttype
            if tt is None or n.name not in tt.fields:
                raise _Fallback()
            k = tt.index(n.name)
            num, exact = self.cache.field_column(domain, k)
            if num is not None:
                return _Vec(num=whole_or_gathered(self.cache, num, pos), exact_int=exact)
            return _Vec(objs=dom.field_values(k, pos.tolist()))
        if isinstance(n, A.Index):
            base, idx = _flatten_index(n)
            arr = self._global(base)
            if not isinstance(arr, OplArray) or len(idx) != len(arr.dims):
                raise _Fallback()
            dense, exact = self.cache.dense(arr)
            if dense is None:
                raise _Fallback()
            return _Vec(num=dense[self.positions(arr.dims, idx)], exact_int=exact)
        if isinstance(n, A.Unary) and n.op == "-":
            v = self.data(n.operand)
            out = -self.num(v)
            if v.exact_int and np.size(out) and np.max(out) > INT_MAX:
                raise _Fallback()  # -(-2**31): the term-by-term path reports the overflow
            return _Vec(num=out, exact_int=v.exact_int)
        if isinstance(n, A.Binary) and n.op in ("+", "-", "*", "/"):
            a, b = self.data(n.left), self.data(n.right)
            x, y = self.num(a), self.num(b)
            if n.op == "/":
                if np.any(y == 0):
                    raise _Fallback()
                return _Vec(num=x / y)
            out = x + y if n.op == "+" else x - y if n.op == "-" else x * y
            exact = a.exact_int and b.exact_int
            if exact and np.size(out) and np.abs(out).max() > INT_MAX:
                raise _Fallback()  # beyond OPL's 32-bit int: the term-by-term path reports the overflow
            return _Vec(num=np.broadcast_to(out, (self.size,)), exact_int=exact)
        if isinstance(n, A.Call) or (isinstance(n, A.Binary) and n.op in ("div", "mod")):
            return extra_data(self, n)  # integer arithmetic, `ord`, `card`, ... (vectorised_calls.py)
        if isinstance(n, A.Conditional):  # `c ? a : b`: each branch on the iterations that pick it only
            mask = np.broadcast_to(self.cond(n.cond), (self.size,))  # (as the row path evaluates only the
            out, exact = np.empty(self.size), True  # branch it picks: `t > 1 ? c[t-1] : 0` is fine at t = 1)
            for w, branch in ((mask, n.then), (~mask, n.other)):
                if w.any():
                    sub = self.restricted(w)
                    v = sub.data(branch)
                    out[w] = sub.num(v)
                    exact = exact and v.exact_int
            return _Vec(num=out, exact_int=exact)
        if isinstance(n, A.Compare) or (isinstance(n, A.Binary) and n.op in ("&&", "||", "in", "not in")) \
                or (isinstance(n, A.Unary) and n.op == "!"):
            return _Vec(num=self.cond(n).astype(np.float64), exact_int=True)  # true is 1, false 0 (OPL's rule)
        if isinstance(n, A.Aggregate) and n.op in ("sum", "min", "max", "prod"):
            return data_aggregate(self, n)  # per row of a `forall` (ragged.py); elsewhere the Evaluator's
        raise _Fallback()

    def _numeric_or_none(self, v: _Vec):
        if v.is_scalar:
            return v.scalar if isinstance(v.scalar, (int, float)) and not isinstance(v.scalar, bool) else None
        return v.num

    def num(self, v: _Vec) -> Any:
        if v.is_scalar:
            if isinstance(v.scalar, bool) or not isinstance(v.scalar, (int, float)):
                raise _Fallback()
            if isinstance(v.scalar, int) and abs(v.scalar) >= EXACT:
                raise _Fallback()
            return np.float64(v.scalar)
        if v.num is None:
            raise _Fallback()
        return v.num

    def objs(self, v: _Vec) -> list:
        if v.is_scalar:
            return [v.scalar] * self.size
        if v.objs is not None:
            return v.objs
        if v.iter is not None:
            items = self.cache.domain(v.iter[0]).items
            return [items[p] for p in v.iter[1].tolist()]
        raise _Fallback()

    def _global(self, name_node: A.Expr) -> Any:
        if not isinstance(name_node, A.Name) or name_node.id in self.iters or name_node.id in self.env:
            raise _Fallback()
        sym = self.symbols.get(name_node.id)
        if sym is None or sym.kind not in ("param", "dvar"):
            raise _Fallback()
        return sym.value

    # ------------------------------------------------------------------ indexing
    def positions(self, dims: list, idx: list) -> tuple:
        """A NumPy index (one array or int per dimension) for ``a[idx...]``; falls back on any index outside its set."""
        out = []
        for d, i in zip(dims, idx):  # (`x[<i, j>]`: the tuple's position in the index set)
            out.append(tuple_positions(self, i, d) if isinstance(i, A.TupleLit) else self._positions_in(d, self.data(i)))
        return tuple(out)

    def _positions_in(self, d: Any, v: _Vec) -> Any:
        if v.iter is not None and v.iter[0] is d:
            return v.iter[1]
        if v.iter is not None and type(v.iter[0]) is CellItems:  # `a in outArcs[v]`: each element looked up once
            at = cell_positions(self.cache, v.iter[0], d)
            if at is not None:
                return at[v.iter[1]]
        dom = self.cache.domain(d)
        et = getattr(d, "elem_type", None)
        if isinstance(et, TupleType):  # a tuple of another type: the Evaluator reports it
            src = getattr(v.iter[0], "elem_type", None) if v.iter is not None else None
            if isinstance(src, TupleType):
                if src.name != et.name:
                    raise _Fallback()
            elif any(foreign_tuple(x, d) for x in ([v.scalar] if v.is_scalar else self.objs(v))):
                raise _Fallback()
        if isinstance(d, OplRange):
            x = np.asarray(self.num(v), dtype=np.float64)
            if np.any(x != np.floor(x)) or np.any(x < d.lo) or np.any(x > d.hi):
                raise _Fallback()
            return (x - d.lo).astype(np.int64)
        if v.is_scalar:
            if isinstance(v.scalar, bool):
                raise _Fallback()
            return dom.where[v.scalar]  # KeyError: not in the set, the Evaluator words it
        vals = self.objs(v) if v.num is None else v.num.tolist()
        where = dom.where
        return np.fromiter((where[x] for x in vals), dtype=np.int64, count=len(vals))

    # ------------------------------------------------------------------ linear forms
    def lin(self, n: A.Expr) -> _Lin:
        """The body as blocks of (coefficient, column) per iteration; data becomes the constant."""
        out = self._lin(n)
        if isinstance(n, (A.Binary, A.Unary)) and np.size(out.const) and np.abs(out.const).max() > INT_MAX:
            raise _Fallback()  # (where a `?:` picked data, the row path adds ints in 32 bits: it words it)
        return out

    def _lin(self, n: A.Expr) -> _Lin:
        if not self._has_decision(n):
            return _Lin([], np.broadcast_to(self.num(self.data(n)), (self.size,)))
        if isinstance(n, A.Name):
            v = self._global(n)
            if not isinstance(v, LinExpr) or len(v.terms) != 1:
                raise _Fallback()
            (col, coef), = v.terms.items()
            # (zero-stride views of one number: read-only, nothing allocated per iteration)
            return _Lin([(np.broadcast_to(np.float64(coef), (self.size,)), np.broadcast_to(np.int64(col), (self.size,)))],
                        np.broadcast_to(np.float64(v.const), (self.size,)))
        if isinstance(n, A.Index):
            base, idx = _flatten_index(n)
            arr = self._global(base)
            if type(arr).__name__ != "VarArray" or len(idx) != len(arr.dims):
                raise _Fallback()
            at = self.positions(arr.dims, idx)
            one = idx[0] if len(idx) == 1 else None  # `x[p]`, p an iterator over x's own index set: no check
            cols = consecutive_columns(arr, at, self.size, isinstance(one, A.Name) and one.id in self.iters
                                       and self.iters[one.id][0] is arr.dims[0])
            if cols is None:
                dense, _ = self.cache.dense(arr)
                cols = np.broadcast_to(dense[at], (self.size,))
                if np.any(cols < 0):
                    raise _Fallback()
            one, zero = np.broadcast_to(1.0, (self.size,)), np.broadcast_to(0.0, (self.size,))  # (views, as above)
            return _Lin([(one, cols)], zero)
        if isinstance(n, A.Unary) and n.op == "-":
            return _scale(self.lin(n.operand), -1.0)
        if isinstance(n, A.Binary):
            if n.op in ("+", "-"):  # (a column in both: added into the first, as LinExpr.iadd adds)
                a, b = self.lin(n.left), self.lin(n.right)
                sign = 1.0 if n.op == "+" else -1.0
                blocks = merged_blocks(a.blocks, [(sign * c, j) for c, j in b.blocks], self.size)
                return _Lin(blocks, a.const + sign * b.const)
            if n.op == "*":
                if self._has_decision(n.left) and self._has_decision(n.right):
                    raise _Fallback()
                lin_side, data_side = (n.left, n.right) if self._has_decision(n.left) else (n.right, n.left)
                return _scale(self.lin(lin_side), self.num(self.data(data_side)))
            if n.op == "/" and not self._has_decision(n.right):
                y = self.num(self.data(n.right))
                if np.any(y == 0):
                    raise _Fallback()
                return _scale(self.lin(n.left), 1.0 / y)
        if isinstance(n, A.Call) and n.func == "presenceOf":
            return presence_lin(self, n)  # an optional interval's presence column, 1 for one always present
        if isinstance(n, A.Conditional):  # `c ? x[t-1] : k`: each branch on the iterations that pick it only
            mask = np.broadcast_to(self.cond(n.cond), (self.size,))
            then, other = (self.restricted(w).lin(b) if w.any() else None
                           for w, b in ((mask, n.then), (~mask, n.other)))
            return _Lin(*picked_blocks(mask, then, other, self.size))
        raise _Fallback()

    def restricted(self, mask: np.ndarray) -> "_Sum":
        """This iteration space with only the iterations ``mask`` keeps (for a branch of ``?:``)."""
        out = object.__new__(_Sum)
        out.__dict__.update(self.__dict__)
        out.iters = {k: (d, p[mask]) for k, (d, p) in self.iters.items()}
        out.size = int(mask.sum())
        return out

    def _has_decision(self, n: A.Expr) -> bool:
        for name in self.cache.names(n)[0]:
            if name in self.iters or name in self.env:
                continue
            sym = self.symbols.get(name)
            if sym is not None and sym.kind in ("dvar", "dexpr", "interval"):  # (an interval: `presenceOf(t[i])`)
                if sym.kind == "dexpr":
                    raise _Fallback()
                return True
        return False


def _scale(lin: _Lin, k: Any) -> _Lin:
    # (`p.c * x[p]`: x's coefficient is a view of one 1.0, and 1.0 * k is k, bit for bit)
    return _Lin([(k if _unit(c, k) else c * k, j) for c, j in lin.blocks], lin.const * k)


def _unit(c: Any, k: Any) -> bool:
    """Whether ``c`` is a view of the one number 1.0 as long as the array ``k`` (so ``c * k`` is ``k``)."""
    return type(c) is np.ndarray and type(k) is np.ndarray and c.ndim == 1 and c.shape == k.shape and len(c) \
        and c.strides[0] == 0 and c[0] == 1.0 and k.dtype == np.float64


def _walk(n: Any):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, A.Node):
            for v in vars(x).values():
                if isinstance(v, list):
                    stack.extend(v)
                elif isinstance(v, A.Node):
                    stack.append(v)


_TTYPE = operator.attrgetter("ttype")


def _kind(v: Any) -> str | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return "number" if v == v else None  # NaN never equals itself: leave it to the Evaluator
    return "string" if isinstance(v, str) else None


def _to_linexpr(lin: _Lin, size: int, strict: bool = False) -> LinExpr:
    """Flatten (iteration-major, block-minor, as the Evaluator adds them) and merge repeated columns in order;
    ``strict`` (a flattened nest of sums, see :func:`~pyopl.lowering.arrays.vectorised_inline.flattened_sum`):
    raise :class:`_Fallback` for a repeated column or a constant instead."""
    cols = np.stack([np.broadcast_to(j, (size,)) for _c, j in lin.blocks], axis=1).ravel()
    coefs = np.stack([np.broadcast_to(c, (size,)) for c, _j in lin.blocks], axis=1, dtype=np.float64,
                     casting="unsafe").ravel()
    if np.any(cols < 0):  # entries merged into an earlier block, or of a `?:` branch not picked
        live = cols >= 0
        cols, coefs = cols[live], coefs[live]
        if not len(cols):
            raise _Fallback()  # no decision term at all: the row path's sum is a number
    const = 0.0
    consts = np.broadcast_to(lin.const, (size,))
    if np.any(consts != 0):
        if strict:
            raise _Fallback()
        for c in consts.tolist():
            const += c
    col_list = cols.tolist()
    terms = dict(zip(col_list, coefs.tolist()))
    if len(terms) == len(col_list):  # no column twice
        return LinExpr(terms, const)
    if strict:
        raise _Fallback()
    uniq, first, inverse = np.unique(cols, return_index=True, return_inverse=True)
    sums = np.zeros(len(uniq))
    np.add.at(sums, inverse.ravel(), coefs)
    order = np.argsort(first, kind="stable")
    return LinExpr(dict(zip(uniq[order].tolist(), sums[order].tolist())), const)
