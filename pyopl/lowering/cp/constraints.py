"""Constraint programming (``using CP;``): the CP constraints that lowering keeps for CP-SAT, and
the checks that a CP model uses only what CP-SAT takes.

A ``using CP;`` model is lowered as any other (its linear, strict, ``!=`` and logical constraints
become integer rows, exact on integers, see :mod:`pyopl.lowering.evaluate.comparisons` and :mod:`pyopl.lowering.linearise.logical`); the global
constraints that have no row form, ``allDifferent``, are kept as :class:`CpConstraint` values in
``Instance.cp_constraints`` and reach the IR's ``cp_constraints``; ``count`` is an expression, the
sum of 0/1 truth values.  Reference: IBM ILOG OPL
Language Reference Manual, "Constraints available in constraint programming" and "using".
"""
from __future__ import annotations

from typing import Any

from ...semantics.values import ArraySlice
from ...syntax import ast as A
from ..functions.array_args import array_items, dvar_slice, is_append, is_array_arg  # (re-exported: cp_globals and the CP constraints read them here)
from ..functions.builtins import _arity, builtin
from ..forms.cp_record import CpConstraint
from ..forms.errors import EvalError
from ..forms.value_tests import is_number
from ..forms.linear import Leaf, LinExpr
from ..forms.symbols import VarArray

#: OPL's types of decision variable that CP-SAT takes (it has integer variables only).
CP_KINDS = ("int", "int+", "boolean")


def _affine(v: Any, node: A.Node) -> tuple[dict, float]:
    if isinstance(v, bool):
        v = int(v)
    if is_number(v):
        return {}, float(v)
    if isinstance(v, LinExpr):
        return {j: c for j, c in v.terms.items() if c}, float(v.const)
    raise EvalError("cp-bad-argument", node.span, "an element of this array is not an integer expression",
                    help="`allDifferent` takes an array of integer decision expressions")


def array_elements(ev: Any, arg: A.Expr, env: dict, what: str = "allDifferent") -> list[tuple[dict, float]]:
    """The elements of a CP array argument as affine expressions: a dvar array's name (every
    element, in index order), ``all(i in I) e`` or a literal ``[e1, e2, ...]``; EvalError otherwise."""
    inst = ev.inst
    if is_append(arg):
        return [x for a in arg.args for x in (array_elements(ev, a, env, what) if is_array_arg(ev, a, env)
                                               else [_affine(ev.evaluate(a, env), a)])]
    if isinstance(arg, A.Name) and arg.id not in env and arg.id in inst.dvar_blocks:
        first, keys, _dims, _kind = inst.dvar_blocks[arg.id]
        return [({first + k: 1.0}, 0.0) for k in range(len(keys))]
    if isinstance(arg, A.Aggregate) and arg.op == "all":
        return [_affine(ev.evaluate(arg.body, e), arg.body) for e in ev.iterate(arg.quals, env, arg)]
    if isinstance(arg, A.ArrayLit):
        return [_affine(ev.evaluate(x, env), x) for x in arg.items]
    if isinstance(arg, A.Index) and dvar_slice(ev, arg, env) is not None:  # `x[i]` of a 2-D dvar array
        return [({c: 1.0}, 0.0) for c in dvar_slice(ev, arg, env)]
    if isinstance(arg, (A.Name, A.Index)) and isinstance(ev.evaluate(arg, env), (VarArray, ArraySlice)):
        return [_affine(v, arg) for v in array_items(ev, arg, env, what)]  # an alias, or a slice `x[i]` of a dvar array
    raise EvalError("cp-bad-argument", arg.span, "the array argument of `%s` must be an array of decision "
                    "expressions" % what, help="pass a dvar array (`%s(x)`), `all(i in I) x[i] + i`, or "
                                               "`[x, y, z]`" % what)


@builtin("append")
def _append(ev: Any, node: A.Call, env: dict) -> Any:
    """``append(...)`` outside a CP constraint's array argument: an error (it makes an array)."""
    raise EvalError("unsupported-cp-construct", node.span, "`append(...)` makes an array, which only a CP "
                    "constraint's array argument takes here", help="use it as in `allDifferent(append(x, y))`")


def need_cp(inst: Any, span: Any, what: str) -> None:
    """EvalError ``cp-needs-using-cp`` unless the model has ``using CP;``; ``what`` names the construct."""
    if getattr(inst, "engine", "mp") != "cp":
        raise EvalError("cp-needs-using-cp", span, "%s belongs to constraint programming, and this model has no "
                        "`using CP;`" % what, help="add `using CP;` as the model's first line to solve it with CP-SAT")


@builtin("allDifferent")
def _all_different(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    _arity(node, 1)
    need_cp(ev.inst, node.span, "`allDifferent`")
    return CpConstraint("allDifferent", array_elements(ev, node.args[0], env), node.span)


@builtin("inverse")
def _inverse(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``inverse(f, g)``: ``f[g[i]] == i`` and ``g[f[j]] == j`` over the arrays' common index range
    (OPL manual, "inverse"); both arrays over the same integer range ``lo..hi``."""
    _arity(node, 2)
    need_cp(ev.inst, node.span, "`inverse`")
    lows = []
    for a in node.args:
        dom = _range_of(ev, a, env)
        if dom is None:
            raise EvalError("unsupported-cp-construct", a.span, "`inverse` is compiled for arrays over an integer "
                            "range (`dvar int f[1..n] in 1..n`), and this is not one",
                            help="declare both arrays over the same range")
        lows.append(dom)
    if lows[0] != lows[1]:
        raise EvalError("cp-bad-argument", node.span, "the two arrays of `inverse` have different index ranges "
                        "(%d..%d and %d..%d)" % (lows[0][0], lows[0][1], lows[1][0], lows[1][1]),
                        help="declare both arrays over the same range")
    f, g = (array_elements(ev, a, env, "inverse") for a in node.args)
    return CpConstraint("inverse", f + g, node.span, data={"n": len(f), "offset": lows[0][0]})


@builtin("allowedAssignments", "forbiddenAssignments")
def _assignments(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``allowedAssignments(T, e1, ..., en)`` / ``forbiddenAssignments(T, e1, ..., en)``: the values of
    the integer expressions ``e1..en`` are (are not) one of the tuples of the set ``T``, each of arity
    ``n`` (OPL Language Quick Reference, "allowedAssignments", "forbiddenAssignments")."""
    kind = node.func
    if len(node.args) < 2:
        raise EvalError("cp-bad-argument", node.span, "`%s` takes a set of tuples and one integer expression "
                        "per field" % kind, help="write `%s(T, x, y)` with `T` a set of 2-field int tuples" % kind)
    need_cp(ev.inst, node.span, "`%s`" % kind)
    tuples = ev.evaluate(node.args[0], env)
    n = len(node.args) - 1
    rows = []
    for t in (tuples if hasattr(tuples, "__iter__") and not isinstance(tuples, (str, LinExpr)) else None) or ():
        items = tuple(t) if isinstance(t, tuple) else (t,)
        if len(items) != n or not all(is_number(v) and float(v) == int(v) for v in items):
            raise EvalError("cp-bad-argument", node.args[0].span, "`%s` needs tuples of %d integer field(s), one "
                            "per expression after the set, and %s is not one" % (kind, n, _show_tuple(items)),
                            help="give as many expressions as the tuples have fields, all of them integers")
        rows.append(tuple(int(v) for v in items))
    if not rows and not (hasattr(tuples, "__len__") and not isinstance(tuples, (str, LinExpr))):
        raise EvalError("cp-bad-argument", node.args[0].span, "the first argument of `%s` must be a set of "
                        "tuples" % kind, help="declare it as `{T} allowed = {<1, 2>, <2, 4>};`")
    exprs = [_affine(ev.evaluate(a, env), a) for a in node.args[1:]]
    return CpConstraint(kind, exprs, node.span, data={"tuples": rows})


def _show_tuple(items: tuple) -> str:
    return "<%s>" % ", ".join(str(v) for v in items)


def _range_of(ev: Any, arg: A.Expr, env: dict) -> tuple[int, int] | None:
    from ...semantics.values import OplRange
    from ..forms.symbols import VarArray

    if isinstance(arg, A.Name) and arg.id not in env:
        v = ev.inst.symbols.get(arg.id)
        arr = getattr(v, "value", None)
        if isinstance(arr, VarArray) and len(arr.dims) == 1 and isinstance(arr.dims[0], OplRange):
            return int(arr.dims[0].lo), int(arr.dims[0].hi)
    return None


@builtin("count")
def _count(ev: Any, node: A.Call, env: dict) -> Any:
    """``count(x, v)``: how many elements of the array ``x`` equal the integer ``v`` (IBM's CP
    ``count``), as the sum of their truth values (0/1 variables, exact on integers)."""
    _arity(node, 2)
    need_cp(ev.inst, node.span, "`count`")
    v = ev.eval_number(node.args[1], env, "the value counted by `count`")
    if isinstance(v, float) and not v.is_integer():
        raise EvalError("cp-bad-argument", node.args[1].span, "`count` counts an integer value, not %s" % v,
                        help="count a whole number")
    total = LinExpr(None, 0.0)
    for terms, const in array_elements(ev, node.args[0], env, "count"):
        if not terms:
            total.iadd(LinExpr(None, 1.0 if const == v else 0.0))
            continue
        e = LinExpr(dict(terms), const - float(v))
        total.iadd(ev.truth_value(Leaf(e, 0.0, 0.0, ev.inst.is_integral(e), node.span), node))
    return total


def all_outside_cp_call(node: A.Aggregate) -> EvalError:
    """The error for ``all(...)`` where no CP constraint takes it (it makes an array, not a value)."""
    return EvalError("unsupported-cp-construct", node.span, "`all(...)` makes an array of expressions, which only "
                     "a CP constraint's argument takes here", help="use it as in `allDifferent(all(i in I) x[i])`")


def check_cp_model(inst: Any) -> None:
    """Report what a ``using CP;`` model uses that CP-SAT cannot take: float decision variables and
    quadratic objectives or constraints (``cp-mp-only``), each at its declaration or expression."""
    for name, (first, keys, dims, kind) in inst.dvar_blocks.items():
        if kind in CP_KINDS or name.startswith("#"):
            continue
        sym = inst.symbols.get(name)
        decl = getattr(sym, "decl", None)
        span = getattr(decl, "name_span", None) or getattr(decl, "span", None)
        if span is None:
            continue
        inst.reporter.emit("cp-mp-only", span, "`%s` is a `%s` decision variable, which a `using CP;` model "
                           "cannot have: CP-SAT takes integer and boolean variables only" % (name, kind),
                           help="declare it `dvar int %s ... in lo..hi` (scale the unit so that values are whole "
                                "numbers), or remove `using CP;` to solve the model with a MIP solver" % name)
    obj = inst.objective
    if obj is not None and getattr(obj, "quad", None):
        span = next((i.expr.span for i in inst.model.items if isinstance(i, A.Objective)), None)
        if span is not None:
            inst.reporter.emit("cp-mp-only", span, "this objective is quadratic, which pyopl's CP-SAT backend "
                               "does not take in a `using CP;` model",
                               help="make the objective linear (an integer variable per product, bounded by "
                                    "linear constraints), or remove `using CP;` and use a MIQP solver")
    for q in inst.qcons:
        inst.reporter.emit("cp-mp-only", q.span, "this constraint is quadratic (it %s), which pyopl's CP-SAT "
                           "backend does not take in a `using CP;` model" % q.what,
                           help="linearise the product, or remove `using CP;` and use a solver that takes "
                                "quadratic constraints")
