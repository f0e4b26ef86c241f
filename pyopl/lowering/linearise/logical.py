"""Logical constraints (``&&``, ``||``, ``!``, ``=>``, ``==`` between constraints) -> big-M rows.

The formula is put in negation normal form, then enforced: conjunctions
row by row, disjunctions through binary literals ``l_k`` with
``sum(l_k) >= 1``.  A literal implies its sub-formula; for a linear
constraint ``lo <= e <= hi`` that is ``e <= hi + M(1 - l)`` with
``M = max(e) - hi`` taken from the variables' bounds (and the mirror row
for ``lo``).  Where a variable of ``e`` is free (no bound on either side, so
no ``M`` exists) the implication becomes a native indicator constraint
(:class:`pyopl.ir.Indicator`) for SCIP, CPLEX or Gurobi instead.  A binary variable compared with 0 or 1 is used directly as
the literal, without a new column.  Reference: H.P. Williams, *Model
Building in Mathematical Programming*, 5th ed., chapter 9.
"""
from __future__ import annotations

import math
from typing import Any, Iterator

from ...ir import Indicator, IndicatorAlternative, opl_label
from .bounds import column_bounds
from ..forms.errors import EvalError
from ..forms.linear import Leaf, Logic
from .notes import JoinedNote, LeafNote

TRUE, FALSE = "true", "false"
#: A big-M above this is numerically unsafe: an integrality tolerance of 1e-6 (HiGHS, SCIP) lets the
#: row move by M * 1e-6 = 100 units without its binary (issue 43, class 15); ``--solver auto`` then
#: takes the implication as a native indicator on a backend that has them.
BIGM_INDICATOR_LIMIT = 1e8


def binary_truth(inst: Any, f: Leaf) -> tuple[int, bool, bool] | None:
    """For a leaf over a single binary column ``j``: ``(j, holds when j = 0, holds when j = 1)``; else None.

    Such a leaf (``b == 1``, ``b >= 1``, ``b == 0``, ...) is the column or its complement itself,
    so logical constraints and constraints used as values need no new column for it.
    """
    nz = [(j, c) for j, c in f.expr.terms.items() if c != 0]
    if len(nz) != 1:
        return None
    j, c = nz[0]
    cols = inst.cols
    if not (cols.integer.flat()[j] and cols.lower.flat()[j] == 0.0 and cols.upper.flat()[j] == 1.0):
        return None
    k = f.expr.const
    return j, f.lo - 1e-9 <= k <= f.hi + 1e-9, f.lo - 1e-9 <= c + k <= f.hi + 1e-9


def negate_leaf(leaf: Leaf, eps: float) -> Any:
    """``not (lo <= e <= hi)`` as ``e < lo or e > hi``. On an integer-valued e that is
    ``e <= lo - 1 or e >= hi + 1`` (exact); on a continuous e the open sides hold with CPLEX's
    linearisation margin ``eps`` (eplin): ``e <= lo - eps or e >= hi + eps``. The complement of an
    open leaf (``e < b``, kept open) is the closed ``e >= b``, exact."""
    e, lo, hi = leaf.expr, leaf.lo, leaf.hi
    step = 1.0 if leaf.integral else 0.0 if leaf.strict is not None else eps
    parts = []
    if lo > -math.inf:
        parts.append(Leaf(e, -math.inf, lo - step, leaf.integral, leaf.span))
    if hi < math.inf:
        parts.append(Leaf(e, hi + step, math.inf, leaf.integral, leaf.span))
    if not parts:
        return FALSE
    return parts[0] if len(parts) == 1 else Logic("or", parts, leaf.span)


def open_leaf(leaf: Leaf, eps: float) -> Leaf:
    """A strict comparison on a continuous expression inside a logical constraint, as CPLEX
    linearises it: ``e < 0`` holds as ``e <= -eps``, ``e > 0`` as ``e >= eps`` (eps = eplin)."""
    lo = leaf.lo + eps if leaf.lo > -math.inf else leaf.lo
    hi = leaf.hi - eps if leaf.hi < math.inf else leaf.hi
    return Leaf(leaf.expr, lo, hi, leaf.integral, leaf.span, leaf.text)


def _uses_eplin(leaf: Leaf, neg: bool) -> bool:
    if leaf.integral:
        return False
    return leaf.strict is not None if not neg else leaf.strict is None


def nnf(f: Any, neg: bool = False, eps: float = 1e-3, used: list | None = None) -> Any:
    """``f`` in negation normal form (negated when ``neg``); strict and negated comparisons on
    continuous expressions take the margin ``eps`` (appended to ``used`` when it was needed)."""
    if isinstance(f, bool):
        return (TRUE if f else FALSE) if not neg else (FALSE if f else TRUE)
    if isinstance(f, Leaf):
        if used is not None and _uses_eplin(f, neg):
            used.append(f.span)
        if neg:
            return negate_leaf(f, eps)
        return open_leaf(f, eps) if f.strict is not None else f
    op = f.op

    def rec(a: Any, n: bool = False) -> Any:
        return nnf(a, n, eps, used)

    if op == "not":
        return rec(f.args[0], not neg)
    if op in ("and", "or"):
        flipped = {"and": "or", "or": "and"}[op] if neg else op
        return Logic(flipped, [rec(a, neg) for a in f.args], f.span)
    a, b = f.args
    if op == "implies":
        if not neg:
            return Logic("or", [rec(a, True), rec(b)], f.span)
        return Logic("and", [rec(a), rec(b, True)], f.span)
    if op == "iff":
        if not neg:
            return Logic("and", [Logic("or", [rec(a, True), rec(b)], f.span), Logic("or", [rec(a), rec(b, True)], f.span)], f.span)
        return Logic("or", [Logic("and", [rec(a), rec(b, True)], f.span), Logic("and", [rec(a, True), rec(b)], f.span)], f.span)
    raise ValueError("unknown logical operator %r" % op)  # pragma: no cover - internal invariant


def _shape(f: Any, depth: int = 0) -> Any:
    """A hashable form of the condition ``f`` (a Leaf or a Logic of them), None where it has parts
    this does not cover (a strict comparison's pending error, a nesting deeper than 8)."""
    if f in (TRUE, FALSE):
        return f
    if isinstance(f, Leaf):
        if f.strict is not None:
            return None
        return ("leaf", tuple(sorted((j, c) for j, c in f.expr.terms.items() if c)), f.expr.const, f.lo, f.hi)
    if depth > 8 or not hasattr(f, "args"):
        return None
    parts = tuple(_shape(a, depth + 1) for a in f.args)
    return None if any(p is None for p in parts) else (f.op, parts)


class _Lowerer:
    def __init__(self, inst: Any, label: str, key: tuple):
        self.inst = inst
        self.label = label
        self.key = key

    def row(self, terms: dict, lo: float, hi: float) -> None:
        self.inst.rows.add(terms, lo, hi, self.label, self.key)

    def enforce(self, f: Any) -> None:
        if f == TRUE:
            return
        if f == FALSE:
            self.row({}, 1.0, 1.0)
            return
        if isinstance(f, Leaf):
            if f.strict is not None:
                raise f.strict
            self.row(f.expr.terms, f.lo - f.expr.const, f.hi - f.expr.const)
            return
        if f.op == "and":
            for a in f.args:
                self.enforce(a)
            return
        # or: at least one literal holds
        lits = []
        for a in f.args:
            lit = self.literal(a)
            if lit == TRUE:
                return
            if lit != FALSE:
                lits.append(lit)
        self._sum_at_least_one(lits)

    def _sum_at_least_one(self, lits: list) -> None:
        terms: dict[int, float] = {}
        const = 0.0
        for col, pos in lits:
            if pos:
                terms[col] = terms.get(col, 0.0) + 1.0
            else:
                terms[col] = terms.get(col, 0.0) - 1.0
                const += 1.0
        self.row(terms, 1.0 - const, math.inf)

    def literal(self, f: Any) -> Any:
        """A binary literal ``(col, positive)`` whose value 1 implies ``f`` (or TRUE/FALSE).

        In a ``using CP;`` model a literal made for a condition is shared by every later use of the
        same condition (``(x[i] == 1) => ...`` written many times): each such literal only ever has to
        be 1 for the condition to hold and nothing pushes it to 0, so one column serves all uses
        exactly (the OR of the copies), and CP-SAT gets one literal per condition instead of one per use."""
        if f in (TRUE, FALSE):
            return f
        cache = self.inst.cp_literals if getattr(self.inst, "engine", "mp") == "cp" else None
        if cache is None:
            return self._literal(f)
        key = _shape(f)
        hit = cache.get(key) if key is not None else None
        if hit is None:
            hit = self._literal(f)
            if key is not None:
                cache[key] = hit
        return hit

    def _literal(self, f: Any) -> Any:
        if isinstance(f, Leaf):
            if f.strict is not None:
                raise f.strict
            direct = self._direct(f)
            if direct is not None:
                return direct
            d = self.inst.new_column(0.0, 1.0, True, "#logic", (self.label,) + self.key if self.label else ())
            self.inst.col_notes[d] = self._leaf_note(f)
            self._implies(d, f)
            return (d, True)
        lits = [self.literal(a) for a in f.args]
        d = self.inst.new_column(0.0, 1.0, True, "#logic", (self.label,) + self.key if self.label else ())
        skip = TRUE if f.op == "and" else FALSE  # (parts that change nothing: left out of the note)
        parts = [self._part_note(a, lit) for a, lit in zip(f.args, lits) if lit != skip]
        self.inst.col_notes[d] = JoinedNote(" && " if f.op == "and" else " || ", parts, "true" if f.op == "and" else "false")
        if f.op == "and":
            for lit in lits:
                if lit == FALSE:
                    self.row({d: 1.0}, 0.0, 0.0)
                elif lit != TRUE:
                    col, pos = lit  # d <= lit
                    self.row({d: 1.0, col: -1.0}, -math.inf, 0.0) if pos else self.row({d: 1.0, col: 1.0}, -math.inf, 1.0)
            return (d, True)
        # or: d <= sum(lits)
        if any(lit == TRUE for lit in lits):
            return TRUE
        terms = {d: 1.0}
        const = 0.0
        for lit in lits:
            if lit == FALSE:
                continue
            col, pos = lit
            terms[col] = terms.get(col, 0.0) + (-1.0 if pos else 1.0)
            const += 0.0 if pos else 1.0
        self.row(terms, -math.inf, const)
        return (d, True)

    def _leaf_note(self, f: Leaf) -> LeafNote:
        """The note of the helper column standing for ``f``, written when read (``notes.ColumnNotes``)."""
        return LeafNote(self.inst.cols, f.expr.terms, f.expr.const, f.lo, f.hi)

    def _part_note(self, a: Any, lit: Any) -> Any:
        """One part of an ``and``/``or`` for its helper column's note (``notes.JoinedNote``)."""
        if isinstance(a, Leaf):
            return self._leaf_note(a)
        if lit in (TRUE, FALSE):
            return lit
        return ("col", lit[0])

    def _direct(self, f: Leaf) -> Any:
        """A leaf over one binary column is that column (or its complement) itself."""
        if not any(f.expr.terms.values()):
            return TRUE if f.lo - 1e-9 <= f.expr.const <= f.hi + 1e-9 else FALSE
        hit = binary_truth(self.inst, f)
        if hit is None:
            return None
        j, sat0, sat1 = hit
        if sat0 and sat1:
            return TRUE
        if not sat0 and not sat1:
            return FALSE
        return (j, sat1)

    def _implies(self, d: int, f: Leaf) -> None:
        """Rows for ``d = 1  =>  lo <= e <= hi``."""
        e = f.expr
        emin, emax = self.inst.bounds(e)
        used_before, rows_before = len(self.inst.assumptions_used), len(self.inst.rows)
        if (f.hi < math.inf and math.isinf(emax)) or (f.lo > -math.inf and math.isinf(emin)):
            try:
                emin, emax = self.inst.finite_bounds(e, f.span, "this logical constraint",
                                                     need_lo=f.lo > -math.inf, need_hi=f.hi < math.inf)
            except EvalError as err:
                if err.slug != "bigm-missing-bound":
                    raise
                self._indicator(d, f)
                return
        big = 0.0  # the largest M of these rows
        if f.hi < math.inf and emax > f.hi:
            m = emax - f.hi
            big = max(big, m)
            terms = dict(e.terms)
            terms[d] = terms.get(d, 0.0) + m
            self.row(terms, -math.inf, f.hi + m - e.const)
        if f.lo > -math.inf and emin < f.lo:
            m = f.lo - emin
            big = max(big, m)
            terms = dict(e.terms)
            terms[d] = terms.get(d, 0.0) - m
            self.row(terms, f.lo - m - e.const, math.inf)
        # every assumption these rows rest on, also one an earlier constraint made (issue: a second
        # constraint on the same assumed bound kept its big-M under `auto`, and the bound was dropped)
        made = list({id(a): a for a in self.inst.assumptions_used[used_before:]}.values())
        if made:
            self.inst.assumed_rows.update(range(rows_before, len(self.inst.rows)))
        if made or big > BIGM_INDICATOR_LIMIT:  # a native indicator is the exact alternative
            terms = {j: c for j, c in e.terms.items() if c != 0}
            why = "its big-M would rest on an assumed bound (%s)" % ", ".join(
                "`%s` %s %s" % (opl_label(self.inst.cols.name[a["column"]], self.inst.cols.key[a["column"]]),
                                "<=" if a["side"] == "upper" else ">=", "%g" % a["bound"]) for a in made[:3]) \
                if made else "its big-M would be %.3g, which a solver's integrality tolerance defeats" % big
            self.inst.indicator_alternatives.append(IndicatorAlternative(
                list(range(rows_before, len(self.inst.rows))),
                Indicator(d, 1, terms, f.lo - e.const, f.hi - e.const, self.label, self.key, f.span, why),
                [id(a) for a in made]))

    def _indicator(self, d: int, f: Leaf) -> None:
        """``d = 1  =>  lo <= e <= hi`` as one native indicator constraint, for an ``e`` with a free
        variable (no big-M exists); backends without indicators refuse it (OPL0703)."""
        e = f.expr
        terms = {j: c for j, c in e.terms.items() if c != 0}
        free = [j for j in terms if all(math.isinf(b) for b in column_bounds(self.inst, j))]
        names = [opl_label(self.inst.cols.name[j], self.inst.cols.key[j]) for j in free[:5]]
        quoted = ["`%s`" % n for n in names]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        why = "%s %s unbounded, so no big-M linearisation exists" % (listed, "is" if len(names) == 1 else "are")
        self.inst.indicators.append(Indicator(d, 1, terms, f.lo - e.const, f.hi - e.const,
                                              self.label, self.key, f.span, why))


def enforce(inst: Any, f: Logic, label: str, key: tuple) -> None:
    """Add rows (and binary columns) that make the logical constraint ``f`` hold; strict and
    negated comparisons on continuous expressions use ``inst.eplin()`` (noted in ``inst.eplin_used``).

    Called while a statement is evaluated (a constraint used as a 0/1 value, ``(max(x, y) == 1) + ...``),
    the rows it makes are no epigraph's: every ``abs``/``max``/``min`` column its comparisons use is
    marked as used elsewhere, so :func:`~pyopl.lowering.linearise.epigraph.settle` makes it exact
    (``(max(z, x) == 1) >= 1`` was solved with ``max`` held only by ``t >= z, t >= x``: optimal at
    z = x = -2, where the max is -2)."""
    ctx = getattr(inst, "abs_context", None)
    if ctx is not None:
        for leaf in _leaves(f):
            ctx.saw(leaf.expr.terms)
    used: list = []
    eps = inst.eplin()
    form = nnf(f, eps=eps, used=used)
    if used and inst.eplin_used is None:  # said once per compile, at the first place it applies
        inst.eplin_used = eps
        inst.reporter.emit("nonlinear-not-equal-float", used[0],
                           "this comparison on a continuous expression is linearised with CPLEX's tolerance "
                           "eplin = %g (`x > y` holds as `x >= y + %g`, `x != y` as `x <= y - %g || x >= y + %g`)"
                           % (eps, eps, eps, eps),
                           help="set another margin with `cplex.eplin = ...;` in an `execute` block before the model, "
                                "or `--eplin EPS` on the command line")
    _Lowerer(inst, label, key).enforce(form)


def _leaves(f: Any) -> Iterator[Leaf]:
    """Every comparison of the logical formula ``f``."""
    if isinstance(f, Leaf):
        yield f
    elif isinstance(f, Logic):
        for a in f.args:
            yield from _leaves(a)
