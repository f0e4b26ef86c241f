"""Iteration over qualifiers (``forall(i in I, <a,b> in Arcs : filter)``): the Evaluator's bindings.

OPL's rules (manual, "Iterators"): binders are evaluated left to right, each one's domain may use the
names bound before it; a filter applies once its names are bound; in a tuple pattern a name that an
enclosing loop already bound is a condition on that component, not a new name; ``ordered i, j in S``
keeps only pairs in set order.
"""
from __future__ import annotations

from typing import Any, Iterator

from ...syntax import ast as A
from ..forms.budget import binder_size, bound_before, domain_len
from ..forms.errors import EvalError
from ...semantics.values import OplRange
from ..arrays.joins import candidates, join_plan, range_slice, slices_range


class Iteration:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator` (uses its ``eval_set``, ``eval_bool_fast``, ``eval_data``).

    ``joins``: whether a filter's equality conjunct is evaluated as a hash join (:mod:`pyopl.lowering.arrays.joins`);
    False scans every domain (the reference the tests compare with)."""

    joins = True

    def iterate(self, quals: A.Qualifiers, env: dict, node: A.Node | None = None) -> Iterator[dict]:
        """Every binding of the qualifiers' iterators that passes their filters.

        ``node``: the expression or statement that iterates, where a work-limit diagnostic points
        (the qualifiers themselves when None). The candidates are counted against the work budget
        (:mod:`pyopl.lowering.forms.budget`); an iteration whose size is known up front and exceeds it
        raises before its first binding."""
        owner = quals if node is None else node
        pre = self._known_domains(quals, env, owner)
        return self._iter_from(quals.binders, 0, env, pre, owner)

    def _known_domains(self, quals: A.Qualifiers, env: dict, owner: A.Node) -> list:
        """The domains of the first binders that do not depend on one another, evaluated once
        (the same value at every binding of the binders before them), up to the first filter or
        tuple pattern; refuses the iteration when their product already exceeds the budget."""
        binders = quals.binders
        self.upfront = (0, False)
        if not binders or self._slicing(binders[0]):
            return []
        pre = [self.eval_set(binders[0].domain, env)]
        shape = [binder_size(binders[0], domain_len(pre[0]))]
        size = shape[0]
        if len(binders) > 1 and size:
            bound = self._binder_scopes.get(quals)
            if bound is None:
                bound = self._binder_scopes[quals] = bound_before(quals)
            for k in range(1, len(binders)):
                prev = binders[k - 1]
                if prev.filter is not None or any(p.name is None for p in prev.patterns) or bound[k] \
                        or self._slicing(binders[k]):
                    break  # unknown from here: counted as it runs
                pre.append(self.eval_set(binders[k].domain, env))
                shape.append(binder_size(binders[k], domain_len(pre[k])))
                size *= shape[k]
                if not size:
                    break
        self.inst.budget.refuse_size(size, owner, shape)
        last = binders[-1]
        # (size, exact): the candidate count known up front, and whether every candidate is a binding
        # (each domain known, no filter, no pattern that selects): a comprehension makes that many
        self.upfront = (size, len(pre) == len(binders) and last.filter is None
                        and all(p.name is not None for p in last.patterns))
        return pre

    def _iter_from(self, binders: list[A.Binder], k: int, env: dict, pre: list, owner: A.Node) -> Iterator[dict]:
        if k == len(binders):
            yield env
            return
        b = binders[k]
        budget = self.inst.budget
        cond = b.filter
        sliced = False
        if k < len(pre):
            domain = pre[k]
        elif cond is not None and self._slicing(b):  # `i in 1..n : i == e`: the one element, whatever n
            domain = self.eval_set(b.domain, env, whole=False)
            if isinstance(domain, OplRange):
                picked = range_slice(self, self._join_plans[b], domain, env)
                sliced = picked is not None
                domain = picked if sliced else self.eval_set(b.domain, env)
        else:
            domain = self.eval_set(b.domain, env)
        if cond is not None and self.joins and not sliced:
            plan = self._join_plans.get(b, False)
            if plan is False:
                plan = self._join_plans[b] = join_plan(b)
            if plan is not None:
                picked = candidates(self, b, plan, domain, env)
                if picked is not None:  # a hash join: only the elements the filter's equality can match
                    domain = picked
        budget.used += binder_size(b, domain_len(domain))  # (inline `charge`: once per level, not per element)
        if budget.used > budget.max_work:
            budget.charge(0, owner)
        last = k + 1 == len(binders)  # then yield the bindings themselves, without one more generator each
        if len(b.patterns) == 1 and b.patterns[0].name is not None:
            name = b.patterns[0].name  # `i in D`, the common binder: bound here rather than by `_bind`
            if cond is None:
                for v in domain:
                    e = {**env, name: v}  # a new dict per binding: callers may keep it
                    if last:
                        yield e
                    else:
                        yield from self._iter_from(binders, k + 1, e, pre, owner)
                return
            # `eval_bool_fast(cond, e, "a filter")` with the filter's closure found once for the loop
            run, eval_bool = self.closure_runner(cond), self.eval_bool
            for v in domain:
                e = {**env, name: v}
                t = run(e)
                if t is not True and t is not False:
                    t = eval_bool(cond, e, "a filter")
                if not t:
                    continue
                if last:
                    yield e
                else:
                    yield from self._iter_from(binders, k + 1, e, pre, owner)
            return
        for e in self._bind(b, domain, env):
            if cond is not None and not self.eval_bool_fast(cond, e, "a filter"):
                continue
            if last:
                yield e
            else:
                yield from self._iter_from(binders, k + 1, e, pre, owner)

    def _slicing(self, b: A.Binder) -> bool:
        """Whether binder ``b`` takes one element of a range by its filter's ``i == e`` (joins.slices_range)."""
        if b.filter is None or not self.joins or len(b.patterns) != 1 or b.patterns[0].name is None:
            return False
        plan = self._join_plans.get(b, False)
        if plan is False:
            plan = self._join_plans[b] = join_plan(b)
        return slices_range(plan)

    def _bind(self, b: A.Binder, domain: Any, env: dict) -> Iterator[dict]:
        pats = b.patterns
        if len(pats) == 1:
            p = pats[0]
            if p.name is not None:  # (`_iter_from` binds these itself)
                for v in domain:
                    yield {**env, p.name: v}
                return
            for v in domain:
                e = self._match(p, v, env, b)
                if e is not None:
                    yield e
            return
        items = list(domain)
        names = [p.name for p in pats]
        if b.ordered:
            yield from self._ordered(names, items, 0, -1, env)
            return
        yield from self._product(names, items, 0, env)

    def _product(self, names: list[str], items: list, k: int, env: dict) -> Iterator[dict]:
        if k == len(names):
            yield env
            return
        for v in items:
            e = dict(env)
            e[names[k]] = v
            yield from self._product(names, items, k + 1, e)

    def _ordered(self, names: list[str], items: list, k: int, last: int, env: dict) -> Iterator[dict]:
        if k == len(names):
            yield env
            return
        for pos in range(last + 1, len(items)):
            e = dict(env)
            e[names[k]] = items[pos]
            yield from self._ordered(names, items, k + 1, pos, e)

    def match_pattern(self, p: A.Pattern, v: Any, env: dict) -> dict:
        """Bind the names of pattern ``p`` to the components of ``v`` (a declaration's index key)."""
        e = self._match(p, v, env, None, rebind=True)
        return e if e is not None else dict(env)

    def _match(self, p: A.Pattern, v: Any, env: dict, b: A.Binder | None, rebind: bool = False) -> dict | None:
        """Bind a tuple pattern to ``v``; a name already bound by an enclosing loop must match."""
        if p.expr is not None:  # `<n, s.dept> in S`: this component must equal the value
            return env if self.eval_data(p.expr, env, "a tuple pattern component") == v else None
        if p.name is not None:
            if p.name in env and not p.name.startswith("$") and not rebind:
                return env if env[p.name] == v else None
            e = dict(env)
            e[p.name] = v
            return e
        if not isinstance(v, tuple) or len(v) != len(p.items):
            raise EvalError("pattern-arity", p.span, "the pattern has %d components but the set's elements have %s" % (
                len(p.items), "%d fields" % len(v) if isinstance(v, tuple) else "no fields (they are not tuples)"),
                help="write one pattern component per tuple field")
        e = env
        for sub, x in zip(p.items, v):
            e = self._match(sub, x, e, b, rebind)
            if e is None:
                return None
        return e if e is not env else dict(env)

