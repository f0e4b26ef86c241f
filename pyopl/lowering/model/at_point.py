"""The model evaluated at a point: its objective and constraint statements with numbers for decisions.

The solution check (:mod:`pyopl.backends.solution_check`) asks, for a point the solver returned,
what the *model* says there: not the rows lowering made (an ``abs`` became an epigraph column, a
logical constraint big-M rows), but the declarations evaluated again. :class:`AtPoint` swaps each
``dvar`` of the instance for a data array of its values and each ``dexpr`` for a fresh one (so it is
computed from those values), with a new :class:`~pyopl.lowering.evaluate.expressions.Evaluator`; the same
tree walk and closures that lowered the model then give numbers and booleans.

A comparison is judged with a feasibility tolerance relative to the values compared (as a solver
judges a row): ``a <= b`` holds when ``a <= b + tol * max(1, |a|, |b|)``; a strict comparison or
``!=`` is judged leniently (``a < b`` as ``a < b + tol``...), so only a clear violation counts.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ...diagnostics.reporter import Reporter
from ...semantics.fields import child_fields
from ...semantics.values import OplArray, OplRange, OplSet, ProductKeys
from ...syntax import ast as A
from ..forms.errors import EvalError
from .instance import Symbol
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr
from ..forms.symbols import DexprArray, DexprScalar, VarArray

#: Calls and operators whose lowering is a linearisation (aux columns, big-M rows, indicators).
LINEARISED_CALLS = frozenset(("abs", "min", "max", "maxl", "minl"))
_LOGICAL = frozenset(("&&", "||", "=>"))
#: Work the sampled instances of plain linear statements may take together (by default), in the
#: compile's own unit (candidate bindings examined, :class:`~pyopl.lowering.forms.budget.Budget`)
#: plus one per instance: a count, not a time, so the same model and point check the same instances
#: on every run and machine.
PLAIN_WORK = 5000
_NEGATED = {"<=": ">", ">=": "<", "==": "!=", "<": ">=", ">": "<=", "!=": "=="}


class Unchecked(Exception):
    """A statement the point evaluation cannot judge (a CP global constraint, a value that is not a number)."""


@dataclass
class StatementFailure:
    """A constraint instance that does not hold at the point: its label and key (``name``), where it is
    written, and the comparisons that decided it (``left``, ``op``, ``right`` values, in order)."""

    name: str
    span: Any
    comparisons: list = field(default_factory=list)


def _cmp(a: float, op: str, b: float, tol: float) -> bool:
    """``a op b``: ``<=``, ``>=`` and ``==`` within ``tol`` relative to max(1, |a|, |b|); ``<``, ``>`` and
    ``!=`` exactly (lowering kept their sides eplin, or 1 for integers, apart: only a clear violation
    fails them)."""
    t = tol * max(1.0, abs(a), abs(b))
    if op == "<=":
        return a <= b + t
    if op == ">=":
        return a >= b - t
    if op == "==":
        return abs(a - b) <= t
    if op == "<":
        return a < b
    if op == ">":
        return a > b
    return a != b


def needs_semantics(node: Any, inst: Any, seen: dict | None = None) -> bool:
    """True when lowering ``node`` needed a linearisation (``abs``, ``min``/``max``, ``maxl``/``minl``,
    ``piecewise``, a logical operator, a strict or ``!=`` comparison), looking into the
    ``dexpr``s it uses: such a statement is evaluated from the model at every instance."""
    seen = {} if seen is None else seen
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, A.Node) or isinstance(n, A.Qualifiers):  # (filters and index sets are data)
            continue
        if isinstance(n, (A.Forall, A.IfStmt)):
            stack.append(n.body if isinstance(n, A.Forall) else [n.then, n.other])
            continue
        if isinstance(n, A.Piecewise):
            return True
        if isinstance(n, A.Call) and (n.func in LINEARISED_CALLS or _symbol_kind(inst, n.func) not in (None, "param")):
            return True
        if isinstance(n, A.Aggregate) and n.op in ("min", "max", "and", "or"):
            return True
        if isinstance(n, A.Binary) and n.op in _LOGICAL or isinstance(n, A.Unary) and n.op == "!":
            return True
        if isinstance(n, A.Compare) and (any(op in ("!=", "<", ">") for op in n.ops)
                                         or any(isinstance(o, (A.Compare, A.Binary)) and getattr(o, "op", "") in _LOGICAL
                                                or isinstance(o, A.Compare) for o in n.operands)):
            return True
        if isinstance(n, A.Name):
            sym = inst.symbols.get(n.id)
            if sym is not None and sym.kind == "dexpr" and n.id not in seen:
                seen[n.id] = False
                seen[n.id] = needs_semantics(sym.decl.expr, inst, seen)
            if seen.get(n.id):
                return True
            continue
        names = child_fields(n)
        for f in (names if names is not None else vars(n)):
            v = getattr(n, f, None)
            if isinstance(v, (A.Node, list, tuple)):
                stack.append(v)
    return False


def _symbol_kind(inst: Any, name: str) -> str | None:
    sym = inst.symbols.get(name)
    return None if sym is None else sym.kind if sym.kind != "param" or not callable(getattr(sym.value, "at", None)) \
        else "pwl"


class PointCells(Mapping):
    """The values of a ``dvar`` block over the whole product of ``dims`` as a read-only mapping from
    index keys to numbers, read by position in ``values`` (a NumPy array in key order, last index
    fastest): no dict of a million keys is made to look at a few of them."""

    def __init__(self, dims: list, values: Any):
        self.dims, self.values = dims, values
        self._pos = [d.positions() if isinstance(d, OplSet) else None if isinstance(d, OplRange)
                     else {v: k for k, v in enumerate(d)} for d in dims]
        strides, step = [], 1
        for d in reversed(dims):
            strides.append(step)
            step *= len(d)
        self._strides = strides[::-1]

    def _position(self, key: Any) -> int:
        if type(key) is not tuple or len(key) != len(self.dims):
            raise KeyError(key)
        k = 0
        for v, d, pos, stride in zip(key, self.dims, self._pos, self._strides):
            if pos is None:  # a range
                if type(v) is not int or not d.lo <= v <= d.hi:
                    raise KeyError(key)
                k += (v - d.lo) * stride
            else:
                try:
                    k += pos[v] * stride
                except (KeyError, TypeError):
                    raise KeyError(key) from None
        return k

    def __getitem__(self, key: Any) -> Any:
        return self.values[self._position(key)].item()

    def __iter__(self):
        return iter(ProductKeys(self.dims))

    def __len__(self) -> int:
        return len(self.values)


class AtPoint:
    """``with AtPoint(inst, x, integer):`` the instance's decisions are the numbers ``x`` (one per column;
    ``integer[j]`` True for an integer column, given as a Python int) and its ``dexpr``s are computed
    from them; ``ev`` is the evaluator to use. The instance is restored on exit."""

    def __init__(self, inst: Any, x: Any, integer: Any):
        self.inst, self.x, self.integer = inst, x, integer

    def _value(self, col: int) -> Any:
        v = float(self.x[col])
        return int(v) if self.integer[col] and v.is_integer() and abs(v) < 2 ** 53 else v

    def _array(self, sym: Symbol, arr: VarArray) -> OplArray:
        if arr._cols is None and arr.first is not None:  # a block over the whole product: read by position
            n = 1
            for d in arr.dims:
                n *= len(d)
            part = self.x[arr.first:arr.first + n]
            ints = bool(self.integer[arr.first:arr.first + n].all()) and bool(np.all(part == np.round(part)))
            return OplArray(arr.name, arr.dims, data=PointCells(arr.dims, part.astype(np.int64) if ints else part))
        return OplArray(arr.name, arr.dims, data={k: self._value(c) for k, c in arr.cols.items()})

    def __enter__(self) -> "AtPoint":
        from ..evaluate.expressions import Evaluator

        inst = self.inst
        self.saved = (dict(inst.symbols), inst.reporter, inst.ev)
        for name, sym in self.saved[0].items():
            v = sym.value
            if sym.kind == "dvar":
                if isinstance(v, VarArray):
                    inst.symbols[name] = Symbol("param", name, self._array(sym, v), sym.decl)
                elif isinstance(v, LinExpr) and len(v.terms) == 1:
                    (col, _c), = v.terms.items()
                    inst.symbols[name] = Symbol("param", name, self._value(col), sym.decl)
            elif callable(getattr(v, "fresh_copy", None)):  # (a state function: what the check posts stays apart)
                inst.symbols[name] = Symbol(sym.kind, name, v.fresh_copy(), sym.decl)
            elif isinstance(v, OplArray) and v.data and callable(getattr(next(iter(v.data.values())), "fresh_copy", None)):
                inst.symbols[name] = Symbol(sym.kind, name, OplArray(v.name, v.dims, {
                    k: x.fresh_copy() for k, x in v.data.items()}), sym.decl)
            elif sym.kind == "dexpr":
                fresh = DexprArray(v.name, v.dims, v.decl) if isinstance(v, DexprArray) else \
                    DexprScalar(v.name, v.decl) if isinstance(v, DexprScalar) else v
                inst.symbols[name] = Symbol("dexpr", name, fresh, sym.decl)
        inst.reporter = Reporter(100)
        self.ev = inst.ev = Evaluator(inst)
        return self

    def __exit__(self, *exc: Any) -> None:
        inst = self.inst
        inst.symbols.clear()
        inst.symbols.update(self.saved[0])
        inst.reporter, inst.ev = self.saved[1], self.saved[2]

    # -------------------------------------------------------------- judging

    def number(self, node: A.Expr, env: dict) -> float:
        """``node``'s value at the point; a constraint used as a number (``(max(x, y) == 1) >= 1``) is 1
        where it holds and 0 where not, as OPL counts it (and as a sum of such values is evaluated)."""
        v = self.ev.evaluate_fast(node, env)
        if isinstance(v, bool) and _is_constraint(node):
            return 1.0 if v else 0.0
        if isinstance(v, bool) or not is_number(v):
            raise Unchecked(node)
        return float(v)

    def holds(self, node: A.Expr, env: dict, tol: float, seen: list, neg: bool = False) -> bool:
        """Whether constraint ``node`` holds (does not hold, ``neg``) in ``env``, each comparison within
        ``tol``; the comparisons judged are appended to ``seen`` as ``(text, left, op, right, ok)``."""
        if isinstance(node, A.Unary) and node.op == "!":
            return self.holds(node.operand, env, tol, seen, not neg)
        if isinstance(node, A.Binary) and node.op in _LOGICAL:
            op = node.op
            if op == "=>":
                # in negation normal form, so that each comparison's tolerance favours the constraint:
                # a => b  is  !a || b ;  !(a => b)  is  a && !b
                if not neg:
                    return self.holds(node.left, env, tol, seen, True) or self.holds(node.right, env, tol, seen)
                return self.holds(node.left, env, tol, seen) and self.holds(node.right, env, tol, seen, True)
            conj = (op == "&&") != neg
            a = self.holds(node.left, env, tol, seen, neg)
            if conj and not a:
                return False
            if not conj and a:
                return True
            return self.holds(node.right, env, tol, seen, neg)
        if isinstance(node, A.Compare):
            if len(node.ops) == 1 and node.ops[0] in ("==", "!=") and \
                    _is_constraint(node.operands[0]) != _is_constraint(node.operands[1]):
                # `(x >= 3) == 1`, `1 == (c && d)`, `(c) != 0`: the constraint itself, or its negation,
                # judged with the tolerance (was skipped as unchecked)
                c, k = node.operands if _is_constraint(node.operands[0]) else node.operands[::-1]
                v = self.number(k, env)
                if v in (0.0, 1.0):
                    want = (v == 1.0) == (node.ops[0] == "==")
                    return self.holds(c, env, tol, seen, neg == want)
            if all(_is_constraint(o) for o in node.operands) and len(node.ops) == 1 and node.ops[0] in ("==", "!="):
                p, q = node.operands
                same = (node.ops[0] == "==") != neg  # (p and q) or (!p and !q); else (p and !q) or (!p and q)
                if self.holds(p, env, tol, seen) and self.holds(q, env, tol, seen, not same):
                    return True
                return self.holds(p, env, tol, seen, True) and self.holds(q, env, tol, seen, same)
            vals = [self.number(o, env) for o in node.operands]
            oks = []
            for op, a, b in zip(node.ops, vals, vals[1:]):
                ok = _cmp(a, op, b, tol) if not neg else _cmp(a, _NEGATED[op], b, tol)
                seen.append((op, a, b, ok, neg))
                oks.append(ok)
            return all(oks) if not neg else any(oks)  # not (a <= e <= b): one side fails
        v = self.ev.evaluate_fast(node, env)
        if isinstance(v, bool):
            return v != neg
        raise Unchecked(node)


def _is_constraint(node: Any) -> bool:
    return isinstance(node, A.Compare) or isinstance(node, A.Binary) and node.op in _LOGICAL or \
        isinstance(node, A.Unary) and node.op == "!"


def constraint_statements(inst: Any) -> list:
    """The statements of every ``subject to`` block of the instance's model, in order."""
    out = []
    for item in inst.model.items:
        if isinstance(item, A.ConstraintsBlock):
            out.extend(item.stmts)
    return out


def objective_item(inst: Any) -> A.Objective | None:
    for item in inst.model.items:
        if isinstance(item, A.Objective):
            return item
    return None


def walk(point: AtPoint, stmt: A.Stmt, env: dict, visit: Callable[[A.ConsStmt, dict], bool]) -> bool:
    """Call ``visit(cons, env)`` for each constraint instance of ``stmt`` (``forall`` iterations,
    ``if`` branches) until it returns False; returns False when stopped."""
    ev = point.ev
    if isinstance(stmt, A.ConsStmt):
        return visit(stmt, env)
    if isinstance(stmt, A.Forall):
        for e in ev.iterate(stmt.quals, env, stmt):
            if not walk(point, stmt.body, e, visit):
                return False
        return True
    if isinstance(stmt, A.Block):
        for sub in stmt.stmts:
            if not walk(point, sub, env, visit):
                return False
        return True
    if isinstance(stmt, A.IfStmt):
        if ev.eval_bool_fast(stmt.cond, env, "the condition of `if` in a constraint block"):
            return walk(point, stmt.then, env, visit)
        return walk(point, stmt.other, env, visit) if stmt.other is not None else True
    return True


def check_statements(inst: Any, x: Any, integer: Any, tol: float, sample: int,
                     budget_work: int = PLAIN_WORK) -> tuple[list, int, int]:
    """Evaluate the constraint statements of ``inst`` at the point ``x``: every instance of a statement
    that :func:`needs_semantics`; of each other one the first ``sample``, while the plain statements
    together have taken less than ``budget_work`` (see :data:`PLAIN_WORK`; a statement begun finishes
    its current instance). The compile's work budget is left as it was found.
    Returns ``(failures, evaluated, unchecked)`` (a list of :class:`StatementFailure`)."""
    from .constraints import _label

    failures: list = []
    counts = [0, 0]
    spent = [0]  # work the plain statements' instances have taken
    budget = inst.budget
    kept = (budget.used, budget.exhausted)
    try:
        with AtPoint(inst, x, integer) as point:
            for stmt in constraint_statements(inst):
                full = needs_semantics(stmt, inst)
                left = [sample]
                if not full and spent[0] >= budget_work:
                    continue  # the plain statements' budget is spent: their rows were checked in arrays

                def visit(cons: A.ConsStmt, env: dict) -> bool:
                    seen: list = []
                    used = budget.used
                    try:
                        ok = point.holds(cons.expr, env, tol, seen)
                    except (Unchecked, EvalError):
                        counts[1] += 1
                        return full or counts[1] < 1000
                    except Exception:  # a value the evaluator has no rule for on numbers: not judged
                        counts[1] += 1
                        return full or counts[1] < 1000
                    finally:
                        if not full:  # (the iterations the instance's own sums examined, and itself)
                            spent[0] += budget.used - used + 1
                    counts[0] += 1
                    if not ok:
                        try:
                            label, key = _label(inst, cons, env)
                        except EvalError:
                            label, key = "", ()
                        failures.append(StatementFailure(_name(label, key, cons, env), cons.span, seen))
                    left[0] -= 1
                    # a plain statement: more instances while the budget lasts (a filtered `sum` may scan a
                    # whole set for each row)
                    return full or (left[0] > 0 and spent[0] < budget_work)

                try:
                    walk(point, stmt, {}, visit)
                except EvalError:
                    counts[1] += 1
    finally:
        budget.used, budget.exhausted = kept
    return failures, counts[0], counts[1]


def objective_at(inst: Any, x: Any, integer: Any) -> float | None:
    """The model's objective evaluated from its declaration at ``x``; None without one, or for an
    objective that is not a number there (``staticLex``)."""
    obj = objective_item(inst)
    if obj is None:
        return None
    budget = inst.budget
    kept = (budget.used, budget.exhausted)  # (the compile's work budget is left as it was found)
    try:
        with AtPoint(inst, x, integer) as point:
            return point.number(obj.expr, {})
    except (Unchecked, EvalError):
        return None
    except Exception:
        return None
    finally:
        budget.used, budget.exhausted = kept


def _name(label: str, key: tuple, cons: A.ConsStmt, env: dict) -> str:
    from ...ir import opl_label

    if label:
        return opl_label(label, key)
    where = "at line %d" % cons.span.line  # (read after the word `constraint`: "constraint at line 5")
    loop = ", ".join("%s = %s" % (k, v) for k, v in env.items() if not str(k).startswith("$"))
    return where + (" (%s)" % loop if loop else "")


def comparison_text(seen: list) -> str:
    """``7 <= 5 is false; ...`` from :meth:`AtPoint.holds`'s record."""
    parts = []
    for op, a, b, ok, neg in seen:
        shown = op if not neg else "not %s" % op
        parts.append("%s %s %s is %s" % (_g(a), shown, _g(b), "true" if ok else "false"))
    return "; ".join(parts)


def _g(v: float) -> str:
    if isinstance(v, float) and math.isinf(v):
        return "infinity" if v > 0 else "-infinity"
    return "%.10g" % v
