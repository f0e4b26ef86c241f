"""Constraint statements (``forall``, ``if``, labelled constraints) -> rows.

A linear constraint becomes one row; a logical one goes through
:mod:`pyopl.lowering.linearise.logical`.  An error inside a ``forall`` is reported
once, with the loop values that produced it, and the rest of that
``forall`` is skipped (its other iterations would repeat the message).
"""
from __future__ import annotations

import math
from typing import Any

from ...semantics.values import show
from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.describe import type_word
from ..forms.value_tests import is_number
from .instance import Instance
from ..forms.linear import Leaf, Logic
from ..linearise.logical import enforce
from ..cp.constraints import CpConstraint
from ..linearise.epigraph import AbsContext, row_ok, settle
from ..arrays.vectorised_rows import vector_forall
from ..cp.precedence_rows import precedence_forall


def lower_block(inst: Instance, block: A.ConstraintsBlock) -> None:
    meter = inst.rows.meter
    for stmt in block.stmts:
        if inst.budget.exhausted:
            break  # past a budget: every later statement would fail the same way
        try:
            meter.begin(inst, stmt, inst.rows.nnz())  # the model size limit's projection follows this statement
            _stmt(inst, stmt, {})
            meter.check(inst.rows.nnz(), len(inst.rows))  # (rows made one by one are checked every few thousand)
        except EvalError as e:
            loop = getattr(e, "loop_env", None)
            notes = []
            if loop and not any(n.startswith("the loop values here") for n in e.notes):
                notes.append("in the iteration where %s" % ", ".join("%s = %s" % (k, show(v)) for k, v in loop.items()))
            e.report(inst.reporter, notes)
    meter.end()


def _stmt(inst: Instance, s: A.Stmt, env: dict) -> None:
    if isinstance(s, A.ConsStmt):
        inst.rows.meter.env = env  # the binding whose rows these are (the model size limit's progress)
        try:
            _cons(inst, s, env)
        except EvalError as e:
            if env and not hasattr(e, "loop_env"):
                e.loop_env = dict(env)
            raise
    elif isinstance(s, A.Forall):
        inst.rows.meter.env = env
        if vector_forall(inst, s, env) or precedence_forall(inst, s, env):  # the common shapes, all rows
            return  # at once (and CP precedences over interval arrays); False: row by row
        for e in inst.ev.iterate(s.quals, env, s):
            _stmt(inst, s.body, e)
    elif isinstance(s, A.Block):
        for sub in s.stmts:
            _stmt(inst, sub, env)
    elif isinstance(s, A.IfStmt):
        if inst.ev.eval_bool_fast(s.cond, env, "the condition of `if` in a constraint block"):
            _stmt(inst, s.then, env)
        elif s.other is not None:
            _stmt(inst, s.other, env)


def _label(inst: Instance, s: A.ConsStmt, env: dict) -> tuple[str, tuple]:
    lab = s.label
    if lab is None:
        return "", ()
    if isinstance(lab, A.Name):
        # OPL indexes a label inside `forall` by the loop's values.
        return lab.id, tuple([v for k, v in env.items() if k[:1] != "$"])
    key: list[Any] = []
    while isinstance(lab, A.Index):
        key[:0] = [inst.ev.eval_data_fast(i, env, "a constraint label index") for i in lab.indices]
        lab = lab.base
    if isinstance(lab, A.Name):
        return lab.id, tuple(key)
    return "", ()


def _cons(inst: Instance, s: A.ConsStmt, env: dict) -> None:
    label, key = _label(inst, s, env)
    inst._aux_label, inst._aux_key = label, key
    inst.rows.set_statement(s.span)
    ctx = inst.abs_context = AbsContext()
    try:
        v = inst.ev.evaluate_fast(s.expr, env)
    finally:
        inst.abs_context = None
    if ctx.pending:  # `abs` made with an epigraph: exact rows where the row could push it up
        settle(inst, ctx, row_ok(v.expr.terms, v.lo, v.hi) if isinstance(v, Leaf) and v.strict is None else (lambda t, sign=1.0: False))
    if isinstance(v, Leaf):
        if v.strict is not None:
            raise v.strict
        _leaf_row(inst, v, label, key)
    elif isinstance(v, Logic):
        enforce(inst, v, label, key)
    elif isinstance(v, CpConstraint):
        v.label, v.key = label, key
        inst.cp_constraints.append(v)
    elif isinstance(v, bool):
        bounds = _constant_bounds(inst, s.expr, env) if v and label else None
        if bounds is not None:  # a labelled constraint on data only is still a constraint IBM's scripts can change
            inst.rows.add({}, bounds[0], bounds[1], label, key)
            return
        if not v and _holds_within_tolerance(inst, s.expr, env):
            return
        if not v:
            inst.reporter.emit("constraint-always-false", s.span,
                               "this constraint%s compares data only and is false%s, so the model is infeasible" % (
                                   " `%s`" % label if label else "",
                                   " for %s" % ", ".join("%s = %s" % (k, show(x)) for k, x in env.items()) if env else ""),
                               help="check the data, or filter this case out of the `forall`")
            inst.rows.add({}, 1.0, 1.0, label or "#false", key)  # 0 == 1: the solver reports infeasible
    else:
        from ..linearise.quadratic import QuadLeaf  # (loaded by the first quadratic comparison: none before)

        if isinstance(v, QuadLeaf):
            _quad_row(inst, v, s, label, key)
            return
        raise EvalError("constraint-not-boolean", s.expr.span,
                        "this is %s, not a constraint" % ("a " + type_word(v) if not is_number(v) else "the number %s" % show(v)),
                        help="a constraint compares two expressions with `<=`, `>=` or `==`")


def _constant_bounds(inst: Instance, expr: A.Expr, env: dict) -> tuple[float, float] | None:
    """The bounds of the empty row a labelled comparison of data stands for: ``ct: a <= b`` is
    ``0 <= b - a``, ``a >= b`` is ``0 >= b - a``, ``a == b`` both, ``lo <= e <= hi`` is ``lo - e <= 0 <=
    hi - e``. IBM keeps such a constraint (``ctEmpty: 0 <= 0;`` in IBM's incremental zoo example), and a
    ``main`` block then gives it coefficients (``setCoef``) and bounds. None where the text names a
    decision (``x <= infinity`` always holds and stays out of the problem, as does a ``sum`` of
    decisions over an empty subset)."""
    inf = float("inf")
    if not isinstance(expr, A.Compare) or any(op not in ("<=", ">=", "==") for op in expr.ops):
        return None
    from ..forms.budget import names_in

    if any(getattr(inst.symbols.get(n), "kind", None) in ("dvar", "dexpr") for n in names_in(expr)):
        return None  # (written over decisions that vanished, e.g. a `sum` over an empty subset: no row, as before)
    try:
        vals = [inst.ev.eval_data_fast(o, env, "a side of a constraint") for o in expr.operands]
    except EvalError:
        return None
    if not all(is_number(v) for v in vals):
        return None
    vals = [float(v) for v in vals]
    if len(vals) == 3:
        return vals[0] - vals[1], vals[2] - vals[1]
    a, b = vals
    op = expr.ops[0]
    return (b - a if op != "<=" else -inf), (b - a if op != ">=" else inf)


def _leaf_row(inst: Instance, leaf: Leaf, label: str, key: tuple) -> None:
    e = leaf.expr
    lo = leaf.lo - e.const
    hi = leaf.hi - e.const
    if not any(e.terms.values()):
        if lo <= 1e-9 and hi >= -1e-9:
            return
        inst.reporter.emit("constraint-always-false", leaf.span,
                           "this constraint%s has no decision variables left and cannot hold (%s <= 0 <= %s)" % (
                               " `%s`" % label if label else "", _fmt(lo), _fmt(hi)),
                           help="check the data; the variables in it may all have zero coefficients")
        inst.rows.add({}, lo, hi, label, key)
        return
    inst.rows.add(e.terms, lo, hi, label, key)


def _quad_row(inst: Instance, leaf: QuadLeaf, s: A.ConsStmt, label: str, key: tuple) -> None:
    """Keep a quadratic constraint for the IR's ``qcons`` (never a row of the linear matrix)."""
    from ..linearise.quadratic import QuadRow, product_site

    e = leaf.expr
    quad = {k: c for k, c in e.quad.items() if c != 0}
    if not quad:  # the squares cancelled: an ordinary row
        _leaf_row(inst, Leaf(e.lin, leaf.lo, leaf.hi, inst.is_integral(e.lin), leaf.span), label, key)
        return
    product, what = product_site(s.expr, lambda n: inst.is_dvar_name(n, {}))
    inst.qcons.append(QuadRow({j: c for j, c in e.lin.terms.items() if c != 0}, quad, leaf.lo - e.lin.const,
                              leaf.hi - e.lin.const, label, key, leaf.span, product, what))


def _fmt(v: float) -> str:
    return "inf" if v == math.inf else "-inf" if v == -math.inf else show(v)


def _holds_within_tolerance(inst: Instance, expr: A.Expr, env: dict, tol: float = 1e-6) -> bool:
    """A data-only comparison judged as the solver would: within a feasibility tolerance
    (so `sum(s in S) prob[s] == 1` holds for probabilities that add up to 0.9999999999)."""
    if not isinstance(expr, A.Compare):
        return False
    vals = [inst.ev.evaluate(o, env) for o in expr.operands]
    if not all(is_number(v) or isinstance(v, bool) for v in vals):
        return False
    for op, a, b in zip(expr.ops, vals, vals[1:]):
        t = tol * max(1.0, abs(a), abs(b))
        ok = {"==": abs(a - b) <= t, "<=": a <= b + t, ">=": a >= b - t, "<": a < b, ">": a > b, "!=": a != b}[op]
        if not ok:
            return False
    return True
