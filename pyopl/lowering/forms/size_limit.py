"""The model size limit of one compilation (:attr:`pyopl.limits.Limits.max_nonzeros`, OPL1144).

The work budget (:mod:`pyopl.lowering.forms.budget`) counts the candidates that iterations examine; this
limit counts what the constraints *make*: the nonzeros of the constraint matrix. It stops a
runaway before its memory and minutes are spent, in two ways:

- **The limit itself**: the rows are counted as they are made (one check per 4,096 rows made one
  by one, one at the end of each constraint statement, and one before each family of rows made
  with arrays is kept); past the limit the compilation stops at the constraint statement that
  made them.
- **A projection, early**: for a top-level constraint statement whose candidates are known before
  it starts (nested ``forall``s over declared sets or ranges, or ranges ``a..b``, binding plain
  names, no domain depending on another's iterator, no ``ordered``), the candidates examined so far
  are read off the position of the current binding in the product of its domains (the loops run in
  that order; a level done all at once, by a family of rows, counts whole). Once
  :data:`MIN_SAMPLE` candidates are behind, the nonzeros made so far are scaled to all of them;
  a projection more than :data:`PROJECTION_FACTOR` times what is left of the limit refuses the
  statement there, with the product of its domains in the message. The factor leaves room for
  statements whose first candidates make more rows than the later ones (``t < u < v`` over a
  set's triples). The position only runs ahead of the work (a filter's join may visit a level's
  elements out of order: the furthest is kept), so a projection only errs low.
"""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
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
#: nonzeros of an LP row that one arc of a sequence's order weighs on CP-SAT (3.4 kB of memory and
#: its share of the solve, measured at n = 300: docs/limits.md)
ORDER_WEIGHT = 100


class SizeMeter:
    """Counts the nonzeros made against ``limit``; :meth:`begin` names the statement being lowered,
    and the lowering sets :attr:`env` to the binding whose rows are being made."""

    def __init__(self, limit: int, budget: Any):
        self.limit = limit
        self.budget = budget  # (:class:`pyopl.lowering.forms.budget.Budget`: marked exhausted on a refusal)
        self.stmt: A.Node | None = None
        self.levels: list[tuple[str, Any, int]] | None = None  # (name, domain, size) per level of ``stmt``
        self.total = 0
        self.nnz0 = 0
        self.furthest = 0
        self.env: dict = {}
        self.made_nnz = 0  # the nonzeros of the last check (what rows made so far)
        self.solver_made = 0  # weighted size of what the CP backend makes beside the rows (sequence orders)
        self.ordered: set = set()  # the sequences whose order is already counted

    def order_sequence(self, name: str, n: int, span: Any, fn: str) -> None:
        """Count the order CP-SAT makes for sequence ``name`` of ``n`` intervals when ``first``,
        ``last``, ``before`` or ``prev`` use it (:mod:`pyopl.backends.cpsat_sequence`: n^2 arc literals
        and as many enforced rank constraints, about 3.4 kB each, :data:`ORDER_WEIGHT` nonzeros of
        an LP row); past the limit OPL1144 at the call ``span`` before anything is made."""
        if name in self.ordered:
            return
        self.ordered.add(name)
        cost = ORDER_WEIGHT * (n + 1) * (n + 1)
        self.solver_made += cost
        if self.made_nnz + self.solver_made > self.limit:
            self.budget.exhausted = True
            raise EvalError("size-limit", span, "`%s` orders the sequence `%s` of %s intervals: CP-SAT makes %s arc "
                            "literals and as many rank constraints for it, about as large as %s nonzeros, past the "
                            "model size limit (%s nonzeros)" % (fn, name, _n(n), _n((n + 1) * (n + 1)),
                                                                _n(self.made_nnz + self.solver_made), _n(self.limit)),
                            help="order fewer intervals in one sequence (split it), or use `noOverlap` alone "
                                 "without `first`/`last`/`before`/`prev`; " + _HELP)

    def begin(self, inst: Any, stmt: A.Node, nnz: int) -> None:
        """Start counting for top-level constraint statement ``stmt``; ``nnz`` made before it."""
        self.stmt, self.nnz0, self.furthest, self.env = stmt, nnz, 0, {}
        self.levels = candidate_levels(inst, stmt)
        self.total = 1
        for _name, _domain, n in self.levels or ():
            self.total *= n

    def end(self) -> None:
        """The constraint block is done: rows made from now on (linearisations of the objective)
        are placed by the statement that makes them."""
        self.stmt = self.levels = None
        self.env = {}

    def check(self, nnz: int, rows: int, where: Any = None, subject: str = "this statement", made: int | None = None
              ) -> None:
        """Raise OPL1144 when ``nnz`` (all made so far, in ``rows`` rows) is past the limit, or when
        the current statement's projection is too far past it. ``where``: the span of the statement
        making the rows, used outside a constraint block (None there: not checked), named ``subject``
        in the message, ``made``: the nonzeros it made itself (None: not known)."""
        self.made_nnz = nnz
        if nnz > self.limit and (self.stmt is not None or where is not None):
            own = nnz - self.nnz0 if self.stmt is not None else made
            if own is not None and 0 < own < nnz:  # earlier statements made some: say how many are its own
                self._refuse("has made %s nonzeros%s, which bring the model to %s (%s rows in all), past the model "
                             "size limit (%s nonzeros)" % (_n(own), self._product(), _n(nnz), _n(rows),
                                                           _n(self.limit)), where, subject)
            self._refuse("has made %s nonzeros (%s rows in all)%s, past the model size limit (%s nonzeros)" % (
                _n(nnz), _n(rows), self._product(), _n(self.limit)), where, subject)
        if self.levels is None or self.stmt is None:
            return
        seen = self._examined()
        made = nnz - self.nnz0
        if seen is None or seen < MIN_SAMPLE or made <= 0 or seen >= self.total:
            return
        projected = made * self.total // seen
        if projected > PROJECTION_FACTOR * (self.limit - self.nnz0):
            self._refuse("has made %s nonzeros from the first %s of its %s candidates%s; at this rate it would make "
                         "about %s, past the model size limit (%s nonzeros)" % (
                             _n(made), _n(seen), _n(self.total), self._product(), _n(projected), _n(self.limit)))

    def _examined(self) -> int | None:
        """Candidates behind the current binding :attr:`env`, its own included, in the product order
        of the levels; levels it does not bind (done all at once) count whole. None: not known."""
        p = 0
        rest = self.total
        for name, domain, n in self.levels or ():
            rest //= n
            if name not in self.env:
                p = (p + 1) * n * rest
                break
            try:
                p = p * n + domain.ord(self.env[name])
            except (KeyError, TypeError, ValueError, AttributeError):
                return None
        else:
            p += 1
        self.furthest = max(self.furthest, p)
        return self.furthest

    def _product(self) -> str:
        if not self.levels or len(self.levels) < 2:
            return ""
        return " (%s)" % " x ".join(_n(n) for _name, _domain, n in self.levels)

    def _refuse(self, text: str, where: Any = None, outside: str = "this statement") -> None:
        self.budget.exhausted = True  # the compilation stops here: later statements would add more
        node = self.stmt
        subject, span = (_subject(node), node.span) if node is not None else (outside, where)
        err = EvalError("size-limit", span, "%s %s" % (subject, text), help=_HELP)
        err.loop_env = {}  # the whole statement is refused: no one iteration to name
        raise err


def candidate_levels(inst: Any, stmt: A.Node) -> list[tuple[str, Any, int]] | None:
    """``(name, domain, size)`` for each level of nested ``forall`` ``stmt`` (each name of a binder
    ``i, j in S`` one level), outermost first, when all are known before it starts: every binder
    binds plain names, distinct, over a declared set or range or a range ``a..b`` that uses no name
    bound before it, and none is ``ordered``. None otherwise."""
    levels: list[tuple[str, Any, int]] = []
    bound: set[str] = set()
    node = stmt
    while isinstance(node, A.Forall):
        binders = node.quals.binders
        if any(bound_before(node.quals)) or any(names_in(b.domain) & bound for b in binders):
            return None
        for b in binders:
            if b.ordered or any(p.name is None or p.name in bound for p in b.patterns):
                return None
            domain = _known_domain(inst, b.domain)
            if domain is None or not len(domain):  # (an empty domain: the statement makes no row)
                return None
            for p in b.patterns:
                levels.append((p.name, domain, len(domain)))
                bound.add(p.name)
        node = node.body
        while isinstance(node, A.Block) and len(node.stmts) == 1:
            node = node.stmts[0]
    return levels or None


def _known_domain(inst: Any, domain: A.Expr) -> Any:
    """The value of a declared set or range named by ``domain``, or of a range ``a..b``; None for
    any other domain (evaluating a comprehension here would be work of its own)."""
    if isinstance(domain, A.Name):
        sym = inst.symbols.get(domain.id)
        if sym is None or sym.kind not in ("set", "range"):
            return None
    elif not isinstance(domain, A.RangeLit):
        return None
    try:
        value = inst.ev.eval_set(domain, {})
        len(value)
    except (EvalError, TypeError):
        return None
    return value if hasattr(value, "ord") else None


def _subject(node: A.Node) -> str:
    if isinstance(node, A.Forall):
        return "this `forall`"
    return "this constraint" if isinstance(node, A.ConsStmt) else what(node)


def _n(n: int) -> str:
    return f"{n:,}"
