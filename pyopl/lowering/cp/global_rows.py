"""More global constraints of ``using CP;`` models (OPL manual, "Constraints available in constraint
programming"): ``allMinDistance``, ``pack`` and ``lex``, each made of rows, 0/1 columns and
conditional rows (CP-SAT's ``only_enforce_if``), exact on integers."""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplRange
from ...syntax import ast as A
from ..functions.builtins import _arity, builtin
from .constraints import array_elements, array_items, need_cp
from ..forms.cp_record import CpConstraint, conditional
from ..forms.errors import EvalError
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr
from ..forms.symbols import VarArray

INF = float("inf")


def _posted(node: A.Call) -> CpConstraint:
    return CpConstraint("posted", [], node.span)


def _args(node: A.Call, lo: int, hi: int) -> None:
    if not lo <= len(node.args) <= hi:
        raise EvalError("call-arity", node.span, "`%s` takes %s arguments, not %d" % (
            node.func, lo if lo == hi else "%d or %d" % (lo, hi), len(node.args)),
            help="see the OPL manual's entry for `%s`" % node.func)


def _ints(ev: Any, arg: A.Expr, env: dict, what: str) -> list[LinExpr]:
    """The elements of an array argument as integer linear forms (numbers become constants)."""
    out = []
    for v in array_items(ev, arg, env, what):
        if isinstance(v, bool):
            v = int(v)
        if is_number(v) and float(v).is_integer():
            out.append(LinExpr(None, float(v)))
        elif isinstance(v, LinExpr) and ev.inst.is_integral(v):
            out.append(v)
        else:
            raise EvalError("cp-bad-argument", arg.span, "`%s` takes integer expressions" % what,
                            help="use integer decisions and whole coefficients")
    return out


def _diff(a: LinExpr, b: LinExpr) -> LinExpr:
    d = a.copy()
    d.iadd(b, -1.0)
    return d


@builtin("allMinDistance")
def _all_min_distance(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``allMinDistance(x, k)``: every two elements of ``x`` differ by at least ``k`` (a 0/1 column per
    pair says which is the larger)."""
    _args(node, 2, 2)
    need_cp(ev.inst, node.span, "`allMinDistance`")
    xs = _ints(ev, node.args[0], env, "allMinDistance")
    k = ev.eval_number(node.args[1], env, "the distance of `allMinDistance`")
    inst = ev.inst
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            b = inst.new_column(0.0, 1.0, True, "allMinDistance")
            conditional(inst, _diff(xs[i], xs[j]), float(k), INF, [(b, True)], node.span)
            conditional(inst, _diff(xs[j], xs[i]), float(k), INF, [(b, False)], node.span)
    return _posted(node)


@builtin("lex")
def _lex(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``lex(x, y)``: ``x`` is lexicographically at most ``y`` (OPL manual, "lex"): 0/1 columns
    ``e_k`` say the first ``k`` elements are equal; where they stop being equal, ``x_k < y_k``."""
    _args(node, 2, 2)
    need_cp(ev.inst, node.span, "`lex`")
    xs, ys = _ints(ev, node.args[0], env, "lex"), _ints(ev, node.args[1], env, "lex")
    if len(xs) != len(ys):
        raise EvalError("cp-bad-argument", node.span, "the arrays of `lex` have %d and %d elements" % (len(xs), len(ys)),
                        help="compare arrays of the same length")
    inst = ev.inst
    prev = None  # e_k as a column (None: e_0, true)
    for x, y in zip(xs, ys):
        e = inst.new_column(0.0, 1.0, True, "lex")
        if prev is not None:
            inst.add_aux_row(LinExpr({e: 1.0, prev: -1.0}), -INF, 0.0, node.span)  # e_{k+1} => e_k
        now = [] if prev is None else [(prev, True)]
        conditional(inst, _diff(x, y), -INF, 0.0, now, node.span)  # equal so far: x_k <= y_k
        conditional(inst, _diff(x, y), 0.0, 0.0, [(e, True)], node.span)  # still equal
        conditional(inst, _diff(x, y), -INF, -1.0, now + [(e, False)], node.span)  # first difference: x_k < y_k
        prev = e
    return _posted(node)


def _containers(ev: Any, arg: A.Expr, env: dict) -> tuple[list, list]:
    """The containers of ``pack`` (the values ``where`` takes) and their loads: the index set of a
    ``dvar int`` array over an integer range, else positions from 0 (an ``all(...)`` array is indexed
    from 0, OPL Language Reference Manual, "The all syntax"; CP Optimizer numbers containers from 0)."""
    sym = ev.inst.symbols.get(arg.id) if isinstance(arg, A.Name) and arg.id not in env else None
    arr = getattr(sym, "value", None)
    if isinstance(arr, VarArray) and len(arr.dims) == 1 and isinstance(arr.dims[0], OplRange):
        return list(arr.dims[0]), [LinExpr.var(arr.cols[(c,)]) for c in arr.dims[0]]
    loads = _ints(ev, arg, env, "pack")
    return list(range(len(loads))), loads


@builtin("pack")
def _pack(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``pack(load, where, weight[, used])``: item ``i`` of weight ``weight[i]`` goes in the container
    ``where[i]``, ``load[c]`` is the weight in container ``c`` and ``used`` the number of containers
    with a positive load (OPL manual, "pack"); containers as :func:`_containers` finds them."""
    _args(node, 3, 4)
    need_cp(ev.inst, node.span, "`pack`")
    inst = ev.inst
    containers, loads = _containers(ev, node.args[0], env)
    where = _ints(ev, node.args[1], env, "pack")
    weights = _ints(ev, node.args[2], env, "pack")
    if len(where) != len(weights) or any(w.terms or w.const < 0 for w in weights):
        raise EvalError("cp-bad-argument", node.args[2].span, "`pack` needs one weight (a number >= 0) per item",
                        help="give the weights as data, as many as the items of `where`")
    inside = {c: LinExpr(None, 0.0) for c in containers}
    used = {c: inst.new_column(0.0, 1.0, True, "pack_used") for c in containers} if len(node.args) == 4 else {}
    for item, w in zip(where, weights):
        picks = {c: inst.new_column(0.0, 1.0, True, "pack") for c in containers}
        inst.add_aux_row(LinExpr({b: 1.0 for b in picks.values()}), 1.0, 1.0, node.span)  # one container
        at = LinExpr({b: float(c) for c, b in picks.items()})
        inst.add_aux_row(_diff(at, item), 0.0, 0.0, node.span)  # where[i] == the container picked
        for c, b in picks.items():
            inside[c].iadd(LinExpr({b: w.const}))
            if used and w.const > 0:
                inst.add_aux_row(LinExpr({b: 1.0, used[c]: -1.0}), -INF, 0.0, node.span)  # picked => used
    for c, load in zip(containers, loads):
        inst.add_aux_row(_diff(load, inside[c]), 0.0, 0.0, node.span)
        if used:
            total = inside[c].copy()
            total.iadd(LinExpr({used[c]: -1.0}))
            inst.add_aux_row(total, 0.0, INF, node.span)  # used => some weight inside
    if used:
        count = _ints(ev, A.ArrayLit(node.args[3].span, [node.args[3]]), env, "pack")[0]
        inst.add_aux_row(_diff(count, LinExpr({u: 1.0 for u in used.values()})), 0.0, 0.0, node.span)
    return _posted(node)


@builtin("subCircuit")
def _sub_circuit(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``subCircuit(next)``: ``next[i]`` is the position (0-based) of the element that follows ``i``; the
    elements with ``next[i] != i`` form one circuit, the others (``next[i] == i``) are left out (OPL
    Language Quick Reference, "subCircuit").  CP-SAT's ``add_circuit`` over one 0/1 literal per arc
    ``i -> j`` equal to ``next[i] == j`` (a self-loop: ``i`` left out)."""
    _args(node, 1, 1)
    need_cp(ev.inst, node.span, "`subCircuit`")
    xs = _ints(ev, node.args[0], env, "subCircuit")
    return CpConstraint("subCircuit", [(dict(x.terms), float(x.const)) for x in xs], node.span)


@builtin("element")
def _element(ev: Any, node: A.Call, env: dict) -> Any:
    """``element(A, n)``: the element at the 0-based position ``n`` of the flattened array ``A`` (OPL
    Language Quick Reference, "element"); ``n`` data gives that element, ``n`` a decision CP-SAT's
    ``add_element`` over the elements (data or decision expressions)."""
    from .constraints import array_items

    _args(node, 2, 2)
    from ..functions.builtins import _on_data

    on_data = _on_data(ev, node, env)  # no decision among the arguments: IBM defines it on data in any model
    if on_data is not None:
        return on_data
    need_cp(ev.inst, node.span, "`element`")
    items = array_items(ev, node.args[0], env, "element")
    n = ev.evaluate(node.args[1], env)
    if isinstance(n, bool):
        n = int(n)
    if is_number(n):
        if not float(n).is_integer() or not 0 <= n < len(items):
            raise EvalError("set-position-out-of-range", node.args[1].span, "position %s is outside the array, whose "
                            "positions are 0..%d (0-based)" % (n, len(items) - 1), help="use a position in range")
        return items[int(n)]
    vals = [v if isinstance(v, LinExpr) else LinExpr(None, float(int(v) if isinstance(v, bool) else v)) for v in items]
    if not isinstance(n, LinExpr) or not all(isinstance(v, LinExpr) for v in vals):
        raise EvalError("cp-bad-argument", node.span, "`element` takes an array of numbers or decision expressions "
                        "and an integer position", help="write `element(all(i in I) x[i], n)`")
    inst = ev.inst
    bounds = [inst.bounds(v) for v in vals]
    t = inst.new_column(min(b[0] for b in bounds), max(b[1] for b in bounds), True, "element")
    inst.cp_constraints.append(CpConstraint("element", [(dict(v.terms), float(v.const)) for v in vals], node.span,
                                            data={"index": (dict(n.terms), float(n.const)),
                                                  "positions": list(range(len(vals))), "target": ({t: 1.0}, 0.0)}))
    return LinExpr.var(t)


@builtin("strong")
def _strong(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``strong(x)``: CP Optimizer's hint to propagate the variables of ``x`` together more strongly (OPL
    Language Quick Reference, "strong"); it removes no solution, so on CP-SAT, which chooses its own
    propagation, it adds nothing (the array is still checked)."""
    _arity(node, 1)
    need_cp(ev.inst, node.span, "`strong`")
    array_elements(ev, node.args[0], env, "strong")
    return CpConstraint("posted", [], node.span)
