"""``forall`` constraints with NumPy: a whole family of rows in one pass, the same rows as one by one.

The constraint path evaluates ``forall(i in I, j in J : f) ct: lhs <= rhs`` once per
iteration, an expression-tree walk and a few dicts per row (about 20-35 µs).  This
module builds the rows of the common shapes in arrays instead, with the machinery of
:mod:`pyopl.lowering.arrays.vectorised` (the iteration space as arrays of positions, data
gathered from dense copies):

- the ``forall`` binders are those :func:`~pyopl.lowering.arrays.vectorised.vector_sum` takes
  (one name each, domains free of the loop's own iterators, data filters);
- the statement is one constraint ``lhs op rhs`` with ``op`` one of ``<=``, ``>=``, ``==``,
  unlabelled or labelled by a plain name (``ct:``; the row keys are the loop values);
- each side is a left-to-right chain of ``+``/``-`` terms, each term linear in the
  sense of ``vector_sum`` (decision elements times data) or a ``sum(...)`` of such a
  body (optionally negated) whose binders do not depend on the ``forall``'s iterators
  (filters may).

Exactness: each row gets the columns, coefficients and bounds the row-by-row path
gives it, in the same order; every number goes through the same IEEE operations
(``c * k`` scalings, sign flips, the constant folded term by term as
:class:`~pyopl.lowering.forms.linear.LinExpr` folds it, ``bound - const``).  A row in which a
column appears twice, a row left without decision terms, a sum whose body has a
constant, a leading run of several data terms, and any value or index that the
vectorised evaluation does not cover make :func:`vector_forall` return False before
anything is added; the statement is then lowered row by row and reports exactly what
it reported before.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import OplRange, OplSet, ProductKeys
from ...sparse_order import shared_row_order, stable_order
from ..forms.constant_side import MIRROR, constant_side
from ...syntax import ast as A
from ..forms.int32 import INT_MAX
from ..forms.linear import LinExpr
from . import vectorised_inline
from ..forms.shapes import binder_equalities, conjuncts
from .vectorised_inline import (PATTERN_NAME, flattened_forall, forall_set_domains, inlined_expr, inlined_forall,
                                is_flattened, split_binders)
from .vectorised_subsets import subset_join
from .ragged import (bind_after, bind_cells, bind_filtered_range, bind_matches, bind_range_per_row, merge_repeats,
                     picked_rows, rows_without_entries)
from .array_types import Domain, all_live, one_number
from .row_blocks import (PickedKeys, add_family as _add, add_interleaved as _add_interleaved, body_families,
                         body_order, label_indices)
from .row_shapes import _chain, _fits, _has_sum, _scaled_parts, _side_fits, _sum_of  # noqa: F401  (_side_fits: vectorised_dexprs)
from .vectorised import NOT_COVERED, VectorCache, _Fallback, _Lin, _names, _Small, _stable_order, _Sum, vector_cache

MIN_ROWS = 2  # one row: the row-by-row path is as fast
MAX_SPACE = 20_000_000  # iterations of one sum over all rows before a filter: beyond it, row by row
_BOUNDS = {"<=": (-np.inf, 0.0), ">=": (0.0, np.inf), "==": (0.0, 0.0)}


def vector_forall(inst: Any, s: A.Forall, env: dict) -> bool:
    """Add the rows of ``s`` (a ``forall`` over one constraint, or over a braced body of constraints)
    from arrays; False when not covered.

    ``env``: the enclosing loop values (scalars).  Returns True when every row was added,
    False (and nothing added) when the statement must be lowered row by row.
    """
    cache = vector_cache(inst.ev)
    body = s.body
    while isinstance(body, A.Forall):
        body = body.body
    if not isinstance(body, A.ConsStmt):  # a braced body, an `if`, nested loops around them
        return _braced(inst, s, env, cache)
    family = _family(inst, s, env, cache)
    if family is None:
        return False
    _add(inst, family[0].body, family[1])
    return True


def _family(inst: Any, s: A.Forall, env: dict, cache: VectorCache) -> tuple[A.Forall, dict] | None:
    """(the statement as built, its rows as arrays) of a ``forall`` over one constraint; None when the
    row path must build it (nothing added either way)."""
    ev = inst.ev
    s = split_binders(s, cache.__dict__.setdefault("split", {}))  # `forall(i, j in J : i < j)`
    if len(s.quals.binders) == 1 and s.quals.binders[0].patterns[0].items is not None:
        s = _patterns(ev, cache)(s, env)  # `forall(<i, j> in Prec)`: `forall($t in Prec)`, keys (i, j) from its fields
        if s is None:
            return None
    s = forall_set_domains(ev, s, env, cache.__dict__.setdefault("set_domains", {}))  # `j in J diff {i}`
    if isinstance(s.body, A.Forall):  # `forall(p in P) forall(t in T) ...`: one family, where it is the same
        flat = flattened_forall(s, cache.__dict__.setdefault("flat", {}))
        if flat is s:
            return None
        s = flat
    if id(s) in cache.unfit:
        return None
    s = inlined_forall(ev, s, env, _patterns(ev, cache), cache.__dict__.setdefault("inline", {}),
                       cache.__dict__.setdefault("flat", {}))
    if not cache.covers(s, lambda: _fits(ev, s, env)):
        return None
    try:
        with np.errstate(all="ignore"):  # inf and nan arise as in Python floats, without a warning
            return s, _Rows(ev, cache, s, env).run()
    except _Small:
        return None
    except NOT_COVERED:
        cache.failed(s)
        return None


def _braced(inst: Any, s: A.Forall, env: dict, cache: VectorCache) -> bool:
    """``forall(q) { c1; forall(r) c2; if (f) c3; else { c4; c5; } ... }``: each constraint's rows as a
    family over its own loops (the enclosing ones and the nested ``forall``s', an ``if`` as a filter),
    then all interleaved as the row path makes them (:func:`~pyopl.lowering.arrays.row_blocks.add_interleaved`)."""
    made = cache.__dict__.setdefault("braced", {})
    hit = made.get(id(s))
    if hit is None or hit[0] is not s:  # the families' statements, made once (ids stay the cache's keys)
        hit = made[id(s)] = (s, body_families(split_binders(s, cache.__dict__.setdefault("split", {}))))
    if not hit[1]:
        return False
    families = []
    for one, _path in hit[1]:
        family = _family(inst, one, env, cache)
        if family is None:
            return False
        families.append(family)
    if len(families) == 1 and isinstance(s.body, A.IfStmt):  # `forall(q) if (f) c;`: one plain family
        _add(inst, families[0][0].body, families[0][1])
        return True
    order = body_order(families, [path for _one, path in hit[1]])
    if order is None:
        return False
    _add_interleaved(inst, families, order)
    return True


def _patterns(ev: Any, cache: VectorCache) -> Any:
    """The single-name form of a pattern sum (``vectorised_inline``), as the inliner asks for it."""
    return lambda n, e, taken=(): vectorised_inline.single_name_form(
        ev, n, e, cache.__dict__.setdefault("patterns", {}), cache, NOT_COVERED, taken)


def vector_objective(inst: Any, expr: A.Expr) -> LinExpr | None:
    """The objective ``expr`` (a chain of sums and linear terms, scalar dexprs written in place and nested
    sums flattened: see :func:`~pyopl.lowering.arrays.vectorised_inline.inlined_expr`) as an
    :class:`ArrayLinExpr`; None when not covered or small, and the Evaluator then builds it term by
    term (reporting what it would anyway)."""
    ev = inst.ev
    cache = vector_cache(ev)
    expr = inlined_expr(ev, expr, _patterns(ev, cache), cache.__dict__.setdefault("inline", {}),
                        cache.__dict__.setdefault("flat", {}))
    symbols = ev.inst.symbols
    # its own record of shapes: a refusal here must not mark the node (often one `sum`) unfit for `vector_sum`
    shapes = cache.__dict__.setdefault("objective_shapes", VectorCache())
    if not shapes.covers(expr, lambda: _side_fits(expr, set(), set(), symbols) and any(
            symbols.get(n) is not None and symbols[n].kind == "dvar" for n in _names(expr))):
        return None
    try:
        with np.errstate(all="ignore"):
            parts, const = _Rows(ev, cache, None, {})._side(expr, 1.0)
    except (_Small,) + NOT_COVERED:
        return None
    parts = [p for p in parts if len(p.col)]
    if not parts or sum(len(p.col) for p in parts) < MIN_ROWS:
        return None
    if any(not p.from_sum and not _rising(p.col) and np.bincount(p.col).max() > 1 for p in parts):
        return None  # `u - (u + 1.7 * u)`: the Evaluator adds inside the brackets first
    with np.errstate(all="ignore"):
        merged = [_merged(p.col, p.coef) for p in parts]  # each term is one LinExpr before they are added up
    if len(merged) == 1:  # (one term: its own arrays, no copy; its columns distinct, once merged)
        (cols, coefs, rising), = merged
    else:
        cols = np.concatenate([c for c, _v, _r in merged])
        coefs = np.concatenate([v for _c, v, _r in merged])
        rising = None
    if not (np.all(np.isfinite(coefs)) and np.all(np.isfinite(const))):
        return None
    return ArrayLinExpr(cols, coefs, float(const[0]), rising)


def _rising(col: np.ndarray) -> bool:
    """Whether the columns rise strictly (so none is repeated): one comparison, where a count of each
    column (``np.bincount``) reads and writes an array as long as the largest column."""
    return bool(np.all(col[1:] > col[:-1]))


def _merged(col: np.ndarray, coef: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """Repeated columns of one term added up in order from 0.0 (first appearances keep their order);
    and whether the columns rise strictly (else they are distinct, in another order)."""
    if not len(col) or _rising(col):
        return col, coef, True
    if np.bincount(col).max() <= 1:
        return col, coef, False
    uniq, first, inverse = np.unique(col, return_index=True, return_inverse=True)
    sums = np.zeros(len(uniq))
    np.add.at(sums, inverse.ravel(), coef)
    order = np.argsort(first, kind="stable")
    return uniq[order], sums[order], False


class ArrayLinExpr(LinExpr):
    """A linear form kept as arrays: ``sum(coefs[k] * x[cols[k]]) + const``, a column possibly several times.

    ``terms`` (the dict every other consumer reads) is made on first use, each column's
    coefficient folded in order from 0.0 as ``LinExpr.iadd`` folds it; from then on the
    dict is the value (it may be changed in place) and ``cols``/``coefs`` are dropped.
    ``rising``: True where the columns rise strictly, False where they are distinct in another
    order, None where a column may come several times (the arrays may be read-only views: never
    written to).
    """

    __slots__ = ("cols", "coefs", "_terms", "rising")

    def __init__(self, cols: np.ndarray, coefs: np.ndarray, const: float, rising: bool | None = None):
        self.cols, self.coefs, self.const, self._terms, self.rising = cols, coefs, const, None, rising

    @property
    def terms(self) -> dict[int, float]:
        if self._terms is None:
            t: dict[int, float] = {}
            for j, c in zip(self.cols.tolist(), self.coefs.tolist()):
                t[j] = t.get(j, 0.0) + c
            self._terms, self.cols, self.coefs = t, None, None
        return self._terms

    @terms.setter
    def terms(self, value: dict) -> None:
        self._terms, self.cols, self.coefs = value, None, None


# ---------------------------------------------------------------------- rows
class _Entries:
    """Entries of one term: row of each entry (non-decreasing), coefficient, column; and the term's constant per row."""

    __slots__ = ("_row", "coef", "col", "const", "has_decision", "from_sum", "per_row", "partial", "flat")

    def __init__(self, row, coef, col, const, has_decision, from_sum=False, per_row=None):
        self._row, self.coef, self.col, self.const, self.has_decision = row, coef, col, const, has_decision
        self.partial = False  # a term (not a `sum`) with decision terms in some rows only (`?:`)
        self.flat = False  # a flattened nest of sums (see merge_repeats)
        self.from_sum = from_sum  # one entry per term of a `sum`, in iteration order (no column twice in one)
        self.per_row = per_row  # k when every row has exactly k entries (row == repeat(arange(m), k)), else None

    @property
    def row(self) -> np.ndarray:
        """The row of each entry; made when first asked for where ``per_row`` gives it (the side-by-side
        layout of such terms never asks: a million-row family makes no row array)."""
        if self._row is None:
            k = self.per_row
            self._row = np.repeat(np.arange(len(self.col) // k, dtype=np.int64), k)
        return self._row


class _Rows:
    def __init__(self, ev: Any, cache: VectorCache, s: A.Forall, env: dict):
        self.ev, self.cache, self.s, self.env = ev, cache, s, env
        self.space = _Sum(ev, cache, None, env)
        self.space.owner = s
        self.space.per_row_sum = self._bound  # a `sum`, `min`, `max` of data in a row (ragged.data_aggregate)

    def run(self) -> dict:
        space = self.space
        for k, b in enumerate(self.s.quals.binders):
            if b.ordered:  # `ordered i, j in S` split: j after i (row_blocks.binder_names checked the mark),
                # within this row's own range or cell where S depends on earlier iterators (`in members[k]`)
                bind_after(space, b, self.s.quals.binders[k - 1].patterns[0].name,
                           not self.cache.names(b.domain)[1].isdisjoint(space.iters))
            elif isinstance(b.domain, (A.RangeLit, A.Index)) and not self.cache.names(b.domain)[1].isdisjoint(space.iters):
                (bind_range_per_row if isinstance(b.domain, A.RangeLit) else bind_cells)(space, b)  # per row
            else:
                space._bind(b)
        m = space.size
        if m < MIN_ROWS:
            raise _Small()
        cmp = self.s.body.expr
        left, right, op = cmp.operands[0], cmp.operands[1], cmp.ops[0]
        lhs = self._side(left, 1.0)
        if not any(e.has_decision for e in lhs[0]) and constant_side(cmp):
            # `k <= e`: the range k <= e <= +inf, as the row path (comparisons._linear_compare) takes it
            left, right, op = right, left, MIRROR[op]
            lhs = self._side(left, 1.0)
        rhs = self._side(right, -1.0)
        if not any(e.has_decision for e in lhs[0] + rhs[0]):
            raise _Fallback()  # no decision on either side: the row path words it
        parts = lhs[0] + rhs[0]
        const = lhs[1] + (-1.0 * rhs[1])  # LinExpr.iadd(rhs, -1.0) on the left side's constant
        lo0, hi0 = _BOUNDS[op]
        indptr, coef, col = _layout(parts, m)
        one = one_number(coef)  # (1.0 in every entry of `sum(...) x[p]`: its tests are one number's)
        if not ((np.isfinite(one) if one is not None else np.all(np.isfinite(coef))) and np.all(np.isfinite(const))):
            raise _Fallback()  # infinite bounds and non-finite numbers have their own words on the row path
        if not (_parts_distinct(parts) or _distinct_per_row(indptr, col)):
            # `+x[a] - x[a]` (a self-loop), `0.9 * x[a] - x[a]`: summed as the row path sums
            coef, col = np.array(coef), np.array(col)  # (summed in place: _layout's may be a term's own)
            merge_repeats(indptr, col, coef, _layout(_numbered(parts), m)[1].astype(np.int64), len(lhs[0]),
                          [k for k, p in enumerate(parts) if p.flat])
            one = None
        keep = (np.broadcast_to(one != 0.0, coef.shape) if one is not None  # Rows.add drops zero coefficients
                else coef != 0.0)
        if not keep.all():
            row = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
            coef, col = coef[keep], col[keep]
            indptr = np.concatenate(([0], np.cumsum(np.bincount(row[keep], minlength=m))))
        lo, hi = lo0 - const, hi0 - const
        kept = None
        empty = np.diff(indptr) == 0
        if np.any(empty):  # a row without decision terms (`sum` over an empty subset <= card - 1)
            if not np.all((lo[empty] <= 0.0) & (hi[empty] >= 0.0)):
                raise _Fallback()  # one that cannot hold: the row-by-row path words it
            kept = np.flatnonzero(~empty)  # ones that hold: the row-by-row path adds nothing for them
            indptr = np.concatenate(([0], indptr[1:][kept]))
            lo, hi = np.broadcast_to(lo, (m,))[kept], np.broadcast_to(hi, (m,))[kept]
        keys = self._keys(m)
        last = keys[-1] if len(keys) else ()  # the loop's last key, its row added or not (as row by row)
        if kept is not None:
            keys = self._keys(m, kept)
        return {"indptr": indptr, "coef": coef, "col": col, "lo": lo, "hi": hi, "keys": keys, "last": last,
                "kept": kept, "m": m, "iters": self.space.iters}

    def _side(self, side: A.Expr, sign: float, space: _Sum | None = None) -> tuple[list[_Entries], np.ndarray]:
        """The entries of one side (coefficients times ``sign``) and its constant per row, folded as LinExpr
        does; over ``space``'s rows (default: the family's)."""
        space = self.space if space is None else space
        m = space.size
        out: list[_Entries] = []
        const = None
        started = False  # a decision term has been met: the constant is a LinExpr's from here on
        for k, (s, term) in enumerate(_chain(side, self.ev.inst.symbols)):
            e = self._term(space, term)
            c = np.broadcast_to(np.asarray(e.const, dtype=np.float64), (m,))
            if k and not started and not (e.has_decision and not e.partial) \
                    and not (np.abs(const).max(initial=0.0) <= INT_MAX and np.abs(const + s * c).max(initial=0.0) <= INT_MAX):
                # `a + b + x`, `cap[t] - (t > 1 ? sum(...) : 0)`: the row path adds a and b as Python numbers
                # first, the same IEEE operations in the same order, but in 32 bits for ints (it words an overflow)
                raise _Fallback()
            started = started or (e.has_decision and not e.partial)
            const = c if const is None else const + s * c
            if s != 1.0 or sign != 1.0:
                e.coef = e.coef * (s * sign) if (s * sign) != 1.0 else e.coef
            out.append(e)
        return out, const

    def _term(self, space: _Sum, term: A.Expr) -> _Entries:
        """The entries of one term over ``space``'s rows: a ``sum``, a linear form, or a ``?:`` whose
        branches hold sums (each branch on the rows that pick it only, as the row path evaluates only
        the branch it picks; :func:`~pyopl.lowering.arrays.ragged.picked_rows` puts them together)."""
        agg = _sum_of(term)
        if agg is not None and space._has_decision(agg):
            return self._sum(agg, -1.0 if term is not agg else 1.0, space)
        scaled = _scaled_parts(term, self.ev.inst.symbols)
        if scaled is not None:
            return self._scaled(space, term, *scaled)
        if isinstance(term, A.Binary) and term.op in ("+", "-") and _has_sum(term, self.ev.inst.symbols):
            return self._bracket(space, term)
        if isinstance(term, A.Unary) and term.op == "-" and _has_sum(term, self.ev.inst.symbols):
            e = self._term(space, term.operand)  # `-(sum(...) + x)`
            empty = rows_without_entries(e, space.size)
            if len(empty) and np.any(np.broadcast_to(e.const, (space.size,))[empty] == 0):
                raise _Fallback()  # a row where it is the number 0, perhaps an int: the row path's `-0` is +0
            return _negated(e, space.size)
        if not (isinstance(term, A.Conditional) and _has_sum(term, self.ev.inst.symbols)):
            return _aligned(space.lin(term), space.size)
        m = space.size
        mask = np.broadcast_to(space.cond(term.cond), (m,))
        picked = [(np.flatnonzero(w), self._term(space.restricted(w), b) if w.any() else None)
                  for w, b in ((mask, term.then), (~mask, term.other))]
        parts = [(at, e) for at, e in picked if e is not None]
        row, order = picked_rows([at[e.row] for at, e in parts])
        const = np.zeros(m)
        for at, e in parts:
            const[at] = np.broadcast_to(np.asarray(e.const, dtype=np.float64), (len(at),))
        out = _Entries(row, np.concatenate([e.coef for _at, e in parts])[order],
                       np.concatenate([e.col for _at, e in parts])[order], const, any(e.has_decision for _at, e in parts))
        out.partial = any(not e.has_decision or e.partial for _at, e in parts)  # data picked in some rows
        out.flat = any(e.flat for _at, e in parts)
        return out

    def _bracket(self, space: _Sum, chain: A.Binary) -> _Entries:
        """A bracketed chain holding a ``sum`` of decisions (``(sum(k in K) y[k] + x) * 3``, ``y - (sum(...)
        + x)``): the row path folds it into one LinExpr first, its terms left to right (:meth:`_side`), and
        then scales or adds that; so does this, as one term. A column twice within a row of it
        (``a[i] * (sum(j) x[i][j] - sum(j) x[j][i])`` at ``j = i``) is summed first, in the row path's order
        (:func:`~pyopl.lowering.arrays.ragged.merge_repeats`), and kept once at its first place, as the
        LinExpr keeps it: what is scaled is then the merged coefficient, as on the row path."""
        m = space.size
        parts, const = self._side(chain, 1.0, space)
        indptr, coef, col = _layout(parts, m)
        row = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
        if not (_parts_distinct(parts) or _distinct_per_row(indptr, col)):
            merge_repeats(indptr, col, coef, _layout(_numbered(parts), m)[1].astype(np.int64), len(parts),
                          [k for k, p in enumerate(parts) if p.flat])
            first = np.unique(row * (int(col.max()) + 1) + col, return_index=True)[1]
            keep = np.zeros(len(col), dtype=bool)
            keep[first] = True
            row, coef, col = row[keep], coef[keep], col[keep]
        out = _Entries(row, coef, col, const, True)  # (the chain starts with a decision term: _side checked)
        out.partial, out.flat = any(p.partial for p in parts), any(p.flat for p in parts)
        return out

    def _scaled(self, space: _Sum, term: A.Binary, part: A.Expr, by: A.Expr) -> _Entries:
        """``k * S`` or ``S / k`` (``S`` holding a ``sum`` of decisions): the row path scales the folded
        ``S`` (``LinExpr.scaled(k)``, ``scaled(1.0 / k)``), each coefficient once; so does this, where no
        column repeats within a row of ``S`` (else a merged coefficient would be scaled, not its parts:
        ``_Fallback``)."""
        m = space.size
        if space._has_decision(by):
            raise _Fallback()
        k = np.broadcast_to(np.asarray(space.num(space.data(by)), dtype=np.float64), (m,))
        if term.op == "/":
            if np.any(k == 0):
                raise _Fallback()  # the row path words the division by zero
            k = 1.0 / k
        e = self._term(space, part)
        if term.op == "/" and len(rows_without_entries(e, m)):
            raise _Fallback()  # a row where S is a number (an empty sum): the row path divides it, `v / k`
        if len(e.col) and not _parts_distinct([e]):
            indptr = np.concatenate(([0], np.cumsum(np.bincount(e.row, minlength=m))))
            if not _distinct_per_row(indptr, e.col):
                raise _Fallback()
        out = _Entries(e.row if len(e.col) else np.zeros(0, np.int64), e.coef * k[e.row] if len(e.col) else e.coef,
                       e.col, np.broadcast_to(np.asarray(e.const, dtype=np.float64), (m,)) * k, e.has_decision)
        out.partial, out.flat = e.partial, e.flat
        return out

    def _sum(self, agg: A.Aggregate, factor: float, space: _Sum | None = None) -> _Entries:
        """``sum(binders) body`` for every row of ``space`` (the family's, or a ``?:`` branch's rows): its
        entries row-major (then iteration, then block)."""
        space = self.space if space is None else space
        sub = self._bound(space, agg)
        row = sub.iters["$row"][1]
        if sub.size == 0:
            return _Entries(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), 0.0, False)
        lin = sub.lin(agg.body)  # (a column twice in one iteration is merged there, as the row path merges)
        one = one_number(lin.const) if np.ndim(lin.const) == 1 else None  # (x[p]: a view of one 0.0)
        if (one != 0 if one is not None else np.any(np.broadcast_to(lin.const, (sub.size,)) != 0)):
            raise _Fallback()  # the row path folds a sum's constants in iteration order
        e = _aligned(lin, sub.size, row)
        e.flat = is_flattened(agg, self.cache.__dict__.get("flat", {}))
        if space.size == 1 and is_flattened(agg, self.cache.__dict__.get("flat", {})) and len(e.col) \
                and np.bincount(e.col).max() > 1:
            raise _Fallback()  # a nest folds each inner sum first (rows and dexpr cells check every row)
        e.from_sum = True
        if factor != 1.0:
            e.coef = e.coef * factor  # `-sum(...)`: LinExpr.scaled(-1.0)
        e.const = 0.0 * factor  # the sum's 0.0 constant, scaled as LinExpr.scaled scales it (-0.0 for `-sum`)
        return e

    def _bound(self, space: _Sum, agg: A.Aggregate) -> _Sum:
        """The iteration space of ``agg`` over every row of ``space``: the rows' iterators and ``$row``
        (each iteration's row), bound binder by binder (ragged where a domain depends on the row)."""
        sub = _Sum(self.ev, self.cache, agg, self.env)
        sub.per_row_sum = self._bound  # (an aggregate of data over its own iterators: per iteration of it)
        sub.iters = dict(space.iters)
        sub.iters["$row"] = (None, np.arange(space.size, dtype=np.int64))
        sub.size = space.size
        sub.scanned = space.size
        for b in agg.quals.binders:
            if isinstance(b.domain, A.RangeLit) and not self.cache.names(b.domain)[1].isdisjoint(sub.iters):
                bind_range_per_row(sub, b)  # `s in t-minUp[u]+1..t`: each row's own range, as offsets
                continue
            if isinstance(b.domain, A.Index) and not self.cache.names(b.domain)[1].isdisjoint(sub.iters):
                bind_cells(sub, b)  # `a in outArcs[v]`: each row's own cell of an array of sets, as offsets
                continue
            dom = sub.ev.eval_set(b.domain, self.env)
            if b.filter is not None and (self._join(sub, b, dom) or (space is self.space and subset_join(self, sub, b, dom))
                                         or bind_filtered_range(sub, b, dom)):
                continue
            if sub.size * max(len(dom), 1) > MAX_SPACE:
                raise _Fallback()
            sub._bind(b)
        return sub

    def _join(self, sub: _Sum, b: A.Binder, domain: Any) -> bool:
        """Bind ``b`` when its filter is ``a.f == e`` (or ``a == e``) with ``e`` over the earlier iterators
        (``sum(a in Arcs : a.src == v)`` inside ``forall(v in Nodes)``): each iteration gets the matching
        positions from an index of ``domain`` by that field, in the domain's order, so the cost is the
        size of the answer rather than rows times ``card(domain)``.  False: bind it the general way."""
        parts = conjuncts(b.filter)
        for f in parts:
            how = self._join_on(sub, b, domain, f)
            if how:
                if len(parts) > 1 and sub.size:  # `a.dst == v && a.cap > 0`: the rest of the filter on the matches
                    # (a join by sorted numbers holds `f` on every match, as the float `==` of `cond` would:
                    # only the other conjuncts are evaluated; after a join by groups, the whole filter)
                    rest = [g for g in parts if g is not f] if how == "sorted" else parts
                    mask = sub.cond(rest[0])
                    for g in rest[1:]:
                        mask = mask & sub.cond(g)
                    if not mask.all():  # (every match kept, `p.c >= 0` on costs: nothing to copy)
                        sub.iters = {k: (d, p[mask]) for k, (d, p) in sub.iters.items()}
                        sub.size = int(mask.sum())
                return True
        return False

    def _join_on(self, sub: _Sum, b: A.Binder, domain: Any, f: A.Expr) -> str:
        """:meth:`_join` on the conjunct ``f`` of the filter: ``"sorted"`` (bound by sorted numbers),
        ``"grouped"`` (by the groups of :meth:`VectorCache.group`), or ``""`` (not a usable equality)."""
        name = b.patterns[0].name
        for field, other in binder_equalities(f, name):
            if name in _names(other) or not (set(_names(other)) & set(sub.iters)):
                continue
            ranked = sorted_groups(self.cache, domain, field)  # plain numbers: looked up with searchsorted
            if ranked is not None:
                v = sub.data(other)
                if v.num is not None:
                    bind_matches(sub, name, domain, ranked, v.num)
                    return "sorted"
            grouped = self.cache.group(domain, field)
            if grouped is None:
                return ""
            groups, kind = grouped
            v = sub.data(other)
            if kind == "number" and v.num is not None:
                vals = v.num.tolist()  # floats: 3.0 finds the group of 3, as `3 == 3.0` holds
            elif kind == "string" and v.objs is not None and all(type(x) is str for x in v.objs):
                vals = v.objs
            else:
                return ""
            empty = np.zeros(0, dtype=np.int64)
            hits = [groups.get(x, empty) for x in vals]
            counts = np.fromiter(map(len, hits), dtype=np.int64, count=len(hits))
            sub.iters = {k: (d, np.repeat(p, counts)) for k, (d, p) in sub.iters.items()}
            sub.iters[name] = (domain, np.concatenate(hits) if hits else empty)
            sub.size = int(counts.sum())
            return "grouped"
        return ""

    def _keys(self, m: int, kept: np.ndarray | None = None) -> list[tuple]:
        """The row keys the row path gives a label inside ``forall``: the loop values, outer ones first
        (of the rows ``kept`` only, when given)."""
        label = self.s.body.label
        if label is not None and not isinstance(label, A.Name):  # `ct[t][u]:` the named values, in its order
            domains = [self._label_values(i) for i in label_indices(label)]
            if kept is not None:
                domains = [(d, pos[kept]) for d, pos in domains]
            return PickedKeys([d if isinstance(d, Domain) else self.cache.domain(d) for d, _p in domains],
                              [pos for _d, pos in domains])
        outer = tuple(v for k, v in self.env.items() if not k.startswith("$"))
        domains = [self.space.iters[b.patterns[0].name] for b in self.s.quals.binders]
        if any(b.patterns[0].name == PATTERN_NAME for b in self.s.quals.binders):
            domains = [x for b, dp in zip(self.s.quals.binders, domains) for x in _pattern_keys(self.cache, b, dp)]
        if kept is not None:
            domains = [(d, pos[kept]) for d, pos in domains]
            m = len(kept)
        items = [self.cache.domain(domain) for domain, _pos in domains]  # (their items read when a key is)
        if domains and not outer and kept is None \
                and _is_product([pos for _d, pos in domains], [len(x) for x in items]):
            return ProductKeys([x.set if isinstance(x.set, (OplSet, OplRange)) else x.items for x in items])
        if not domains:
            return [outer] * m
        return PickedKeys(items, [pos for _d, pos in domains], outer)  # made when asked for


    def _label_values(self, i: A.Expr) -> tuple:
        """(a Domain or set, each row's position in it) of the label index ``i`` as the row path evaluates it:
        an iterator's own domain, an enclosing loop's value, or the distinct values of a data expression of
        them (exact ints or strings; anything else raises ``_Fallback``: the row path makes those keys)."""
        space = self.space
        if isinstance(i, A.Name) and i.id in space.iters:
            return space.iters[i.id]
        if isinstance(i, A.Name) and i.id in self.env:
            return Domain([self.env[i.id]]), np.zeros(space.size, dtype=np.int64)
        hit = self.__dict__.setdefault("labels", {}).get(id(i))
        if hit is not None:
            return hit
        v = space.data(i)
        if v.iter is not None:
            out = v.iter
        elif v.is_scalar:
            if type(v.scalar) not in (int, str):
                raise _Fallback()
            out = Domain([v.scalar]), np.zeros(space.size, dtype=np.int64)
        elif v.objs is not None:
            if not all(type(x) is str for x in v.objs):
                raise _Fallback()
            uniq = sorted(set(v.objs))
            at = {x: k for k, x in enumerate(uniq)}
            out = Domain(uniq), np.fromiter((at[x] for x in v.objs), dtype=np.int64, count=len(v.objs))
        else:
            if not v.exact_int:
                raise _Fallback()  # (a float key: the row path's value, kept as it makes it)
            uniq, inverse = np.unique(np.broadcast_to(space.num(v), (space.size,)), return_inverse=True)
            out = Domain(uniq.astype(np.int64).tolist()), inverse.astype(np.int64).ravel()
        self.__dict__["labels"][id(i)] = out
        return out


def _pattern_keys(cache: VectorCache, b: A.Binder, dp: tuple) -> list[tuple]:
    """The key parts of one binder: itself, or for ``$t`` (a tuple pattern ``<i, j>`` in single-name form,
    which binds every field in order) each field's values, as the row path's ``(i, j)``."""
    if b.patterns[0].name != PATTERN_NAME:
        return [dp]
    d, pos = dp
    dom = cache.domain(d)
    every = list(range(len(dom)))
    return [(Domain(dom.field_values(k, every)), pos) for k in range(len(dom.ttype.fields))]


def sorted_groups(cache: VectorCache, d: Any, field: str | None) -> tuple | None:
    """The groups of :meth:`VectorCache.group` for plain-number values, as arrays: (distinct values ascending,
    start and end of each one's run in ``order``, ``order``: the items' positions stably sorted by
    value), so a whole array of values is looked up with ``searchsorted``; None when :meth:`group`
    would not give number groups.  Made once per set and field (kept in ``cache``)."""
    key = (id(d), "sorted", field)
    hit = cache._groups.get(key)
    if hit is None or hit[0] is not d:
        out = None
        dom = cache.domain(d)
        tt = dom.ttype if field is not None else None
        num = None
        if field is None:
            num, exact = dom.num, dom.exact
        elif tt is not None and field in tt.fields and cache._one_tuple_type(d):
            try:
                num, exact = cache.field_column(d, tt.index(field))
            except OverflowError:
                num = None
        if num is not None and len(num) and not np.isnan(num).any():  # (as _number_groups takes them)
            in_order = not np.any(num[1:] < num[:-1])  # (a field the data lists sorted: no sort, no gather)
            out = _small_int_groups(num) if exact and not in_order else None
            if out is None:
                order = np.arange(len(num)) if in_order else _stable_order(num, exact)
                order.flags.writeable = False  # (shared: a join over every value binds it as it is)
                ranked = num if in_order else num[order]
                starts = np.flatnonzero(ranked[1:] != ranked[:-1]) + 1  # (each run's first item; the first at 0)
                starts = np.concatenate(([0], starts))
                out = (ranked[starts], starts, np.append(starts[1:], len(order)), order)
        hit = (d, out)
        cache._groups[key] = hit
    return hit[1]


def _small_int_groups(num: np.ndarray) -> tuple | None:
    """:func:`sorted_groups`' answer for integers spanning less than 2**16 (task ids): the stable order
    that :func:`_stable_order` makes (:func:`~pyopl.sparse_order.stable_order`), and each
    value's run in it from a count of each code, so the values are not gathered into their order to
    find where runs change; None for a wider span."""
    lo = num.min()
    width = num.max() - lo
    if width >= 2.0 ** 16:
        return None
    codes = num.astype(np.int64)  # (exact integers: the same as `(num - lo).astype(...)`, one array less)
    if lo:
        codes -= int(lo)
    counts = np.bincount(codes)
    order = stable_order(codes, int(width) + 1, owned=True)  # (codes become its keys)
    order.flags.writeable = False  # (shared, as in sorted_groups)
    sizes = counts[counts > 0]
    ends = np.cumsum(sizes)
    starts = ends - sizes
    return num[order[starts]], starts, ends, order


def _is_product(positions: list[np.ndarray], sizes: list[int]) -> bool:
    """Whether the iterators' positions run through every combination, the last fastest (no filter left any out)."""
    m = len(positions[0])
    if m != int(np.prod(sizes, dtype=np.float64)) or m == 0:
        return False
    inner = 1
    for pos, n in zip(reversed(positions), reversed(sizes)):
        expect = np.tile(np.repeat(np.arange(n, dtype=np.int64), inner), m // (n * inner))
        if not np.array_equal(pos, expect):
            return False
        inner *= n
    return True


def _aligned(lin: _Lin, size: int, row: np.ndarray | None = None) -> _Entries:
    """A per-iteration linear form as entries, iteration-major and block-minor (the Evaluator's order)."""
    whole = row is None  # one iteration per row: every row gets one entry per block (rows made if asked for)
    nb = len(lin.blocks)
    if nb == 0:
        return _Entries(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), lin.const, False)
    if nb == 1 and all_live(lin.blocks[0][1]):  # the common case: no interleaving, no copy where whole
        (c, j), = lin.blocks
        # possibly read-only views (of the data cache, or of one number): _layout copies what it keeps
        coef = np.broadcast_to(np.asarray(c, dtype=np.float64), (size,))
        col = np.broadcast_to(np.asarray(j, dtype=np.int64), (size,))
        return _Entries(row, coef, col, lin.const, True, False, 1 if whole else None)
    # (stacked straight into the entries' dtypes: one new array each, no second copy to convert)
    coef = np.stack([np.broadcast_to(c, (size,)) for c, _j in lin.blocks], axis=1,
                    dtype=np.float64, casting="unsafe").ravel()
    col = np.stack([np.broadcast_to(j, (size,)) for _c, j in lin.blocks], axis=1,
                   dtype=np.int64, casting="unsafe").ravel()
    live = col >= 0  # (dead: merged into an earlier block, or a `?:` branch not picked there)
    if not live.all():
        rows = np.repeat(np.arange(size, dtype=np.int64) if whole else row, nb)[live]
        e = _Entries(rows, coef[live], col[live], lin.const, bool(live.any()))
        # a row left with data only: the row path's value there is a number (see _Rows._side)
        e.partial = whole and not live.reshape(size, nb).any(axis=1).all()  # (no np.unique of the rows: a hash)
        return e
    return _Entries(None if whole else np.repeat(row, nb), coef, col, lin.const, True, False, nb if whole else None)


def _negated(e: _Entries, m: int) -> _Entries:
    """``-(t)`` for the entries of the term ``t`` (a bracket, a scaled sum, a ``?:``): the row path folds ``t``
    into one LinExpr and takes ``scaled(-1.0)`` of it; a sign flip is exact, so a column repeated within a
    row of ``t`` needs no merging first (``-(a + b)`` is ``-a + -b`` bit for bit)."""
    const = np.broadcast_to(np.asarray(e.const, dtype=np.float64), (m,)) * -1.0
    out = _Entries(e._row, e.coef * -1.0, e.col, const, e.has_decision, e.from_sum, e.per_row)
    out.partial, out.flat = e.partial, e.flat
    return out


def _numbered(parts: list[_Entries]) -> list[_Entries]:
    """The terms with each entry's coefficient replaced by its term's number (laid out by :func:`_layout`:
    the term of each entry of the rows)."""
    out = []
    for k, p in enumerate(parts):
        q = _Entries(p._row, np.full(len(p.col), float(k)), p.col, 0.0, p.has_decision, p.from_sum, p.per_row)
        out.append(q)
    return out


def _layout(parts: list[_Entries], m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Interleave the terms' entries row by row (terms in order, each term's entries in its order).
    With one term its own arrays come back, possibly read-only views (of the data's arrays, or of one
    number): the caller copies what it changes in place (see ``Rows.add_block(owned=False)``)."""
    parts = [p for p in parts if len(p.col)]
    if parts and all(p.per_row is not None for p in parts):
        # every row has the same entries per term (`x[i][j] <= d[j] * y[i]`): side by side, no scatter
        k = sum(p.per_row for p in parts)
        indptr = np.arange(0, k * m + 1, k, dtype=np.int64)
        if len(parts) == 1:
            return indptr, parts[0].coef, parts[0].col
        coef = np.concatenate([p.coef.reshape(m, p.per_row) for p in parts], axis=1).ravel()
        col = np.concatenate([p.col.reshape(m, p.per_row) for p in parts], axis=1).ravel()
        return indptr, coef, col
    if len(parts) == 1:
        p = parts[0]
        return _row_starts(p.row, m), p.coef, p.col
    counts = [np.diff(_row_starts(p.row, m)) for p in parts]
    total = np.sum(counts, axis=0)
    indptr = np.concatenate(([0], np.cumsum(total)))
    coef = np.empty(int(indptr[-1]))
    col = np.empty(int(indptr[-1]), dtype=np.int64)
    offset = indptr[:-1].copy()  # where the next term's entries of each row start
    for p, cnt in zip(parts, counts):
        first = np.concatenate(([0], np.cumsum(cnt)))[:-1]  # index of each row's first entry within p
        rank = np.arange(len(p.row)) - first[p.row]
        dest = offset[p.row] + rank
        coef[dest] = p.coef
        col[dest] = p.col
        offset += cnt
    return indptr, coef, col


def _row_starts(row: np.ndarray, m: int) -> np.ndarray:
    """Where each of the rows ``0..m-1`` starts in a term's entries and where the last ends (``m + 1``
    int64 offsets): the entries' rows never decrease (see :class:`_Entries`), so each row's first entry
    is found by a binary search, ``m`` of them, not by counting the rows of all the entries
    (``np.bincount`` over a family's 3.2M entries); the same offsets as ``[0] + cumsum(bincount(row))``."""
    return np.searchsorted(row, np.arange(m + 1, dtype=row.dtype if row.dtype.kind == "i" else np.int64))


def _parts_distinct(parts: list[_Entries]) -> bool:
    """A sufficient test, in linear time, for no column twice in one row: each term's columns rise
    strictly within each row, and the terms' column ranges do not overlap (``sum(c) x[w][c] <= k * y[w]``
    with x and y different dvars).  False means "not shown", and :func:`_distinct_per_row` decides."""
    spans = []
    for p in parts:
        if not len(p.col):
            continue
        if p.per_row != 1:  # (where the columns do not rise, usually only from one row to the next)
            down = np.flatnonzero(p.col[1:] <= p.col[:-1])
            if np.any(p.row[down + 1] == p.row[down]):
                return False
        spans.append(p)
    if len(spans) < 2:
        return True  # (one term: no other term's columns to meet)
    spans = sorted((int(p.col.min()), int(p.col.max())) for p in spans)
    return all(a[1] < b[0] for a, b in zip(spans, spans[1:]))


def _distinct_per_row(indptr: np.ndarray, col: np.ndarray) -> bool:
    """No column twice in one row (the row path would merge them; this path leaves that to it)."""
    m = len(indptr) - 1
    if not len(col):
        return True
    k = len(col) // m
    if k * m == len(col) and k <= 16 and np.array_equal(indptr, np.arange(0, k * m + 1, k)):
        if k == 1:
            return True
        table = col.reshape(m, k)
        if shared_row_order(table) is not None:  # every row strictly increasing in one order: distinct
            return True
        rows = np.sort(table, axis=1)  # k entries in every row: compare neighbours after sorting
        return not np.any(rows[:, 1:] == rows[:, :-1])
    # NumPy only: importing SciPy here would put a quarter second into a small compile
    down = np.flatnonzero(col[1:] <= col[:-1]) + 1  # entries not above the one before them
    if np.all(indptr[np.searchsorted(indptr, down, side="right") - 1] == down):
        return True  # each of them starts a row: the columns rise strictly in every row
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
    key = rows * (int(col.max()) + 1) + col  # (row, column) as one number; below 2**63 for any model that fits in memory
    key.sort()
    return not np.any(key[1:] == key[:-1])


