"""How a family of array rows joins the model's rows: its keys, and a braced body's statements in order.

:mod:`pyopl.lowering.arrays.vectorised_rows` builds each constraint's rows over a ``forall``'s whole loop;
this module appends them as the row path would have: the row keys a label gives (``ct:`` the loop
values, ``ct[t][u]:`` the named ones (or values of expressions, ``ct[t-1]:``), made only when asked for: :class:`PickedKeys`), and for a braced
body (``forall(u) { c1; forall(t) { c2; c3; } if (f[u]) c4; }``) every constraint as a family over all
the loops around it (:func:`body_families`, an ``if`` as a filter), the families' rows put in the
row path's order (:func:`body_order`: each loop's iteration, outside in, then the statement's place)
and appended as one block (:func:`add_interleaved`, keys :class:`InterleavedKeys`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...semantics.values import ProductKeys
from ...sparse_order import sort_uniform_blocks
from ...syntax import ast as A
from .array_types import Domain
from .vectorised_inline import split_binders

_ONE_NUMBER = 2.0 ** 62  # a row's place as one int64 below this (else its digits sorted as columns)


def body_families(s: A.Forall) -> list[tuple[A.Forall, list]] | None:
    """Each constraint of the body of ``s`` as a ``forall`` over every loop around it (an ``if``'s
    condition, or its negation for ``else``, a filter on the innermost loop bound when it is met), with
    its place: ``[(loop names, statement number), ...]`` from the outside in (the names of the loop whose
    iteration the row is made in, ``[]`` within one iteration). None: a statement of another kind."""
    out: list = []

    def walk(st: Any, binders: list, path: list, conds: list) -> bool:
        if isinstance(st, A.ConsStmt):
            bs = list(binders)
            for at, cond in conds:
                b = bs[at]
                bs[at] = A.Binder(b.span, b.patterns, b.domain,
                                  cond if b.filter is None else A.Binary(cond.span, "&&", b.filter, cond), b.ordered)
            out.append((A.Forall(s.span, A.Qualifiers(s.quals.span, bs), st), path))
            return True
        if isinstance(st, A.Block):
            return all(walk(x, binders, path + [([], j)], conds) for j, x in enumerate(st.stmts))
        if isinstance(st, A.IfStmt):
            at = len(binders) - 1
            return walk(st.then, binders, path, conds + [(at, st.cond)]) and (
                st.other is None or walk(st.other, binders, path, conds + [(at, A.Unary(st.cond.span, "!", st.cond))]))
        if isinstance(st, A.Forall):  # (`forall(ordered i, j in S[k])` split as the outer loops are)
            st = split_binders(st, {})
            names = binder_names(st.quals)
            return names is not None and walk(st.body, binders + st.quals.binders, path + [(names, 0)], conds)
        return False

    names = binder_names(s.quals)
    if names is None or not walk(s.body, list(s.quals.binders), [(names, 0)], []):
        return None
    return out


def body_order(families: list, paths: list) -> tuple | None:
    """The row path's order of the families' rows (concatenated): by each loop's iteration, outside in,
    and the statements' places within it; and the families in the order the row path first meets them
    (each one's first iteration, a row made or not) and the one it meets last. None where a loop's
    positions do not fit one int64.

    Each row's place is one number, the levels' digits in mixed radix (a level's loop positions, then
    its statement number; a digit every family has the same is left out), and the rows one stable
    sort of those numbers: each family's rows come in loop order, so the sort merges a few runs. Where
    the numbers do not fit one int64, the digits are sorted as columns (``lexsort``)."""
    depth = max(len(p) for p in paths)
    digits: list[list] = [[] for _ in range(len(families))]  # per family: (rank over m, its radix, idx) per level
    for c, ((_s, r), path) in enumerate(zip(families, paths)):
        for level in range(depth):
            names, idx = path[level] if level < len(path) else ([], 0)
            rank, size = None, 1
            if names:
                dims = [max(len(r["iters"][k][0]), 1) for k in names]
                size = float(np.prod(dims, dtype=np.float64))
                if size >= 2.0 ** 62:
                    return None
                rank = np.ravel_multi_index(tuple(r["iters"][k][1] for k in names), tuple(dims))
            digits[c].append((rank, int(size), idx))
    radix = [(max(d[level][1] for d in digits), max(d[level][2] for d in digits) + 1) for level in range(depth)]
    span = float(np.prod([float(a) * float(b) for a, b in radix]))
    keys, firsts, lasts = [], [], []
    for (_s, r), d in zip(families, digits):
        kept, m = r["kept"], r["m"]
        if span < _ONE_NUMBER:
            key = np.zeros(m, dtype=np.int64)
            for (rank, _size, idx), (rank_radix, idx_radix) in zip(d, radix):
                if rank_radix > 1:
                    key *= rank_radix
                    if rank is not None:
                        key += rank
                if idx_radix > 1:
                    key *= idx_radix
                    key += idx
            keys.append(key if kept is None else key[kept])
            end = key[[0, -1]] if m else np.zeros(2, dtype=np.int64)
            firsts.append(int(end[0]))
            lasts.append(int(end[1]))
            continue
        cols = []  # (the numbers do not fit: each digit a column)
        for rank, _size, idx in d:
            rank = np.zeros(m, dtype=np.int64) if rank is None else rank
            cols += [rank, np.full(m, idx, dtype=np.int64)]
        keys.append(np.stack(cols) if kept is None else np.stack(cols)[:, kept])
        firsts.append(tuple(int(x[0]) if m else 0 for x in cols))
        lasts.append(tuple(int(x[-1]) if m else 0 for x in cols))
    if span < _ONE_NUMBER:
        order = np.argsort(np.concatenate(keys), kind="stable")
    else:
        cat = np.concatenate(keys, axis=1)
        order = np.lexsort(np.concatenate([np.arange(cat.shape[1])[None, :], cat[::-1]]))
    live = [c for c, (_s, r) in enumerate(families) if r["m"]]
    met = sorted(live, key=lambda c: (firsts[c], c))
    last = max(live, key=lambda c: (lasts[c], c)) if live else len(families) - 1
    return order, met, last


def label_id(cons: A.ConsStmt) -> str:
    """The label's name (``ct`` of ``ct:`` and of ``ct[i][j]:``), or "" for none."""
    lab = cons.label
    while isinstance(lab, A.Index):
        lab = lab.base
    return lab.id if isinstance(lab, A.Name) else ""


def label_indices(lab: A.Expr) -> list[A.Expr] | None:
    """The indices of an indexed label ``ct[i][j, k - 1]``, outermost first; None when it is not one."""
    out: list[A.Expr] = []
    while isinstance(lab, A.Index):
        out[:0] = list(lab.indices)
        lab = lab.base
    return out if isinstance(lab, A.Name) and out else None


def binder_names(q: A.Qualifiers) -> list[str] | None:
    """The binders' names, one plain name each and distinct; None otherwise. (``ordered`` only as
    ``vectorised_inline.split_binders`` marks it: on a binder whose domain is the one before's own node.)"""
    names = []
    for k, b in enumerate(q.binders):
        if len(b.patterns) != 1 or b.patterns[0].name is None \
                or (b.ordered and not (k and q.binders[k - 1].domain is b.domain)):
            return None
        names.append(b.patterns[0].name)
    return names if len(set(names)) == len(names) else None


class PickedKeys(ProductKeys):
    """The row keys of a filtered family: key ``k`` is ``outer + (items[0][pos[0][k]], ...)``, made only
    when asked for (a 3.6-million-row family made 3.6 million tuples); a sequence as ProductKeys is
    (``len``, iteration, ``keys[k]``, ``==`` with a list), which the row lists keep whole."""

    __slots__ = ("_pos", "_outer")

    def __init__(self, domains: list[Domain], positions: list[np.ndarray], outer: tuple = ()):
        self.dims = domains
        self._items = None  # the domains' items, read when a key is first asked for
        self._lens = [len(x) for x in domains]
        self._pos = positions
        self._outer = outer
        self._len = len(positions[0])

    def _lists(self) -> list[list]:
        if self._items is None:
            self._items = [d.items for d in self.dims]
        return self._items

    def __iter__(self):
        cols = [list(map(x.__getitem__, pos.tolist())) for x, pos in zip(self._lists(), self._pos)]
        outer = self._outer
        return (outer + k for k in zip(*cols)) if outer else zip(*cols)

    def _key(self, k: int) -> tuple:  # (ProductKeys.__getitem__ checks k)
        return self._outer + tuple(x[int(pos[k])] for x, pos in zip(self.dims, self._pos))

    def __repr__(self) -> str:
        return "PickedKeys(%d keys)" % self._len


def add_family(inst: Any, cons: A.ConsStmt, r: dict) -> None:
    """Append the rows as the row path's :meth:`Rows.add` calls would, as one block of arrays."""
    rows = inst.rows
    rows.set_statement(cons.span)
    label = label_id(cons)
    m = len(r["indptr"]) - 1
    keys = r["keys"] if label else [()] * m
    rows.add_block(r["indptr"], r["col"], r["coef"], r["lo"], r["hi"], label, keys, owned=False)
    inst._aux_label, inst._aux_key = label, (r["last"] if label else ())


def add_interleaved(inst: Any, families: list[tuple[A.Forall, dict]], placed: tuple) -> None:
    """Append the rows of several families (a braced body's statements) in the row path's order:
    ``placed`` from :func:`body_order` (rows a statement left out, those without decision terms that
    hold, are left out here too; the statements are registered in the order the row path meets them)."""
    rows = inst.rows
    order, met, last_family = placed
    for c in met:
        rows.set_statement(families[c][0].body.span)
    for _s, r in families:  # a family of k entries a row sorted as a block (the IR's build would sort each row)
        r["coef"], r["col"] = np.array(r["coef"]), np.array(r["col"])  # (sorted in place: the terms' may be shared)
        sort_uniform_blocks([(0, len(r["indptr"]) - 1)], r["coef"], r["col"], r["indptr"])
    sizes = [len(r["indptr"]) - 1 for _s, r in families]  # each family's rows (those kept)
    n = sum(sizes)
    where = np.empty(n, dtype=np.int64)
    where[order] = np.arange(n, dtype=np.int64)  # each family's rows' places in the block, family after family
    counts = [np.diff(r["indptr"]) for _s, r in families]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.concatenate(counts)[order], out=indptr[1:])
    coef, col = np.empty(int(indptr[-1]), dtype=np.float64), np.empty(int(indptr[-1]), dtype=np.int64)
    lo, hi = np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64)
    family = np.empty(n, dtype=np.int8 if len(families) < 128 else np.int64)  # each row's statement
    labels, stmts, parts = [], [], []
    first = 0
    for c, ((s, r), size, count) in enumerate(zip(families, sizes, counts)):
        at = where[first:first + size]
        first += size
        k = int(count[0]) if size else 0
        if k and len(r["col"]) == k * size and np.all(count == k):  # k entries a row: (rows, k) places
            dest = (indptr[at][:, None] + np.arange(k, dtype=np.int64)).ravel()
        else:
            dest = np.repeat(indptr[at] - r["indptr"][:-1], count) + np.arange(len(r["col"]), dtype=np.int64)
        coef[dest], col[dest] = r["coef"], r["col"]
        lo[at], hi[at] = r["lo"], r["hi"]
        family[at] = c
        cons = s.body
        label = label_id(cons)
        rows.set_statement(cons.span)
        labels.append(label)
        stmts.append(rows.current)
        parts.append((label, at, r["keys"] if label else None))
    named = [p[0] for p in parts if p[0]]
    rows.add_interleaved(indptr, col, coef, lo, hi, family, labels, InterleavedKeys([p[2] for p in parts], family, [p[1] for p in parts]),
                         stmts, [p for p in parts if p[0]] if len(set(named)) == len(named) else None)
    cons, last = families[last_family][0].body, families[last_family][1]["last"]
    label = label_id(cons)
    inst._aux_label, inst._aux_key = label, (last if label else ())


class InterleavedKeys(ProductKeys):
    """The row keys of a braced body's rows: key ``k`` is ``parts[which[k]][pos[k]]`` (``()`` where that
    statement is unlabelled), made only when asked for; a sequence as :class:`PickedKeys` is.
    ``places[c]``: the rows (in the block) of statement ``c``'s rows, in its order, from which ``pos``
    (each row's place in its statement) is made when a key is first asked for."""

    __slots__ = ("_parts", "_which", "_places", "_at")

    def __init__(self, parts: list, which: np.ndarray, places: list[np.ndarray]):
        self.dims, self._items, self._lens = [], [], []
        self._parts, self._which, self._places, self._at = parts, which, places, None
        self._len = len(which)

    @property
    def _pos(self) -> np.ndarray:
        if self._at is None:
            at = np.empty(self._len, dtype=np.int64)
            for rows in self._places:
                at[rows] = np.arange(len(rows), dtype=np.int64)
            self._at = at
        return self._at

    def unchanged(self) -> bool:
        return all(p is None or not isinstance(p, ProductKeys) or p.unchanged() for p in self._parts)

    def __iter__(self):
        parts = self._parts
        return (() if parts[w] is None else parts[w][p] for w, p in zip(self._which.tolist(), self._pos.tolist()))

    def _key(self, k: int) -> tuple:
        part = self._parts[int(self._which[k])]
        return () if part is None else part[int(self._pos[k])]

    def __repr__(self) -> str:
        return "InterleavedKeys(%d keys)" % self._len
