"""The model size limit of one compilation (:attr:`pyopl.limits.Limits.max_nonzeros`, OPL1144).

The work budget (:mod:`pyopl.lowering.budget`) counts the candidates that iterations examine; this
limit counts what the constraints *produce*: the nonzeros of the constraint matrix. It stops a
runaway before its memory and minutes are spent, in two ways:

- **The limit itself**: the rows are counted as they are made (one check per 4,096 rows made one
  by one, and before each family of rows made with arrays is kept); past the limit the compilation
  stops at the constraint statement that made them.
- **A projection, early**: for a top-level constraint statement whose candidates are known before
  it starts (nested ``forall``s whose domains do not depend on one another, a filter only on the
  innermost binder), once it has examined :data:`MIN_SAMPLE` candidates the nonzeros it made so far
  are scaled to all its candidates. When that projection is more than :data:`PROJECTION_FACTOR`
  times what is left of the limit, the statement is refused there, with the product of its domains
  in the message. The factor leaves room for statements whose first candidates make more rows than
  the later ones (``t < u < v`` over a set's triples); the progress counted is never behind the real
  one (see :attr:`pyopl.lowering.budget.Budget.seen`), so the projection only errs low.
"""
from __future__ import annotations

from typing import Any

from ..syntax import ast as A
from .budget import bound_before, names_in, what
from .errors import EvalError

#: Candidates a statement examines before its projection is trusted.
MIN_SAMPLE = 1 << 18
#: How far past what is left of the limit a projection must go for the statement to be refused early.
PROJECTION_FACTOR = 2
#: Rows made one by one between two checks.
CHECK_EVERY = 4096

_HELP = ("check the index sets and filters of this statement (a model this large is usually a mistake); "
         "to allow more, pass `--max-nonzeros N` to `pyopl check|solve|export`, or "
         "`limits=pyopl.Limits(max_nonzeros=N)` to the API")


class SizeMeter:
    """Counts the nonzeros made against ``limit``; :meth:`begin` names the statement being lowered."""

    def __init__(self, limit: int, budget: Any):
        self.limit = limit
        self.budget = budget
        self.stmt: A.Node | None = None
        self.shape: list[int] | None = None  # the candidates of ``stmt``, per level (None: unknown)
        self.total = 0
        self.seen0 = 0
        self.nnz0 = 0

    def begin(self, inst: Any, stmt: A.Node, nnz: int) -> None:
        """Start counting for top-level constraint statement ``stmt``; ``nnz`` made before it."""
        self.stmt, self.nnz0, self.seen0 = stmt, nnz, self.budget.seen
        self.shape = candidate_shape(inst, stmt)
        self.total = 1
        for n in self.shape or ():
            self.total *= n

    def end(self) -> None:
        """The constraint block is done: rows made from now on (linearisations of the objective)
        are placed by the statement that makes them."""
        self.stmt = self.shape = None

    def check(self, nnz: int, rows: int, where: Any = None) -> None:
        """Raise OPL1144 when ``nnz`` (all made so far, in ``rows`` rows) is past the limit, or when
        the current statement's projection is too far past it. ``where``: the span of the statement
        making the rows, used outside a constraint block (None there: not checked)."""
        if nnz > self.limit and (self.stmt is not None or where is not None):
            self._refuse("has made %s nonzeros (%s rows in all)%s, past the model size limit (%s nonzeros)" % (
                _n(nnz), _n(rows), self._product(), _n(self.limit)), where)
        if self.shape is None or self.stmt is None:
            return
        seen = self.budget.seen - self.seen0
        made = nnz - self.nnz0
        if seen < MIN_SAMPLE or made <= 0 or seen >= self.total:
            return
        projected = made * self.total // seen
        if projected > PROJECTION_FACTOR * (self.limit - self.nnz0):
            self._refuse("has made %s nonzeros from the first %s of its %s candidates%s; at this rate it would make "
                         "about %s, past the model size limit (%s nonzeros)" % (
                             _n(made), _n(seen), _n(self.total), self._product(), _n(projected), _n(self.limit)))

    def _product(self) -> str:
        if not self.shape or len(self.shape) < 2:
            return ""
        return " (%s)" % " x ".join(_n(n) for n in self.shape)

    def _refuse(self, text: str, where: Any = None) -> None:
        self.budget.exhausted = True  # the compilation stops here: later statements would add more
        node = self.stmt
        subject, span = (_subject(node), node.span) if node is not None else ("this statement", where)
        err = EvalError("size-limit", span, "%s %s" % (subject, text), help=_HELP)
        err.loop_env = {}  # the whole statement is refused: no one iteration to name
        raise err


def candidate_shape(inst: Any, stmt: A.Node) -> list[int] | None:
    """The number of candidates per level of nested ``forall`` ``stmt`` (each name of a binder
    ``i, j in S`` one level), when all are known before it starts: every domain evaluated once
    without the iterators (a declared set or range, or a range ``a..b``, none using a name bound
    before it), no filter but on the innermost binder, and ``ordered`` nowhere (its pairs are not a
    product). None otherwise."""
    shape: list[int] = []
    bound: set[str] = set()
    node = stmt
    while isinstance(node, A.Forall):
        inner = node.body
        while isinstance(inner, A.Block) and len(inner.stmts) == 1:
            inner = inner.stmts[0]
        innermost = not isinstance(inner, A.Forall)
        binders = node.quals.binders
        if any(bound_before(node.quals)) or any(names_in(b.domain) & bound for b in binders):
            return None
        for k, b in enumerate(binders):
            if b.ordered or (b.filter is not None and not (innermost and k == len(binders) - 1)):
                return None
            if not isinstance(b.domain, (A.Name, A.RangeLit)):  # evaluating a comprehension here would be work
                return None
            try:
                n = len(inst.ev.eval_set(b.domain, {}))
            except (EvalError, TypeError):
                return None
            shape += [n] * len(b.patterns)
            for p in b.patterns:
                bound.update(p.names())
        node = inner
    return shape or None


def _subject(node: A.Node) -> str:
    if isinstance(node, A.Forall):
        return "this `forall`"
    return "this constraint" if isinstance(node, A.ConsStmt) else what(node)


def _n(n: int) -> str:
    return f"{n:,}"
