"""The values of an array argument of a CP function or of ``element``/``standardDeviation``: an
array's name (or a slice of one), ``all(i in I) e`` or ``[e1, e2, ...]``. A module of its own so that
:mod:`pyopl.lowering.functions.builtins` (data) and :mod:`pyopl.lowering.cp.constraints` (decisions) share it without
importing each other."""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
from ..forms.errors import EvalError
from ..forms.linear import LinExpr


def is_append(arg: A.Expr) -> bool:
    """Whether ``arg`` is ``append(a1, a2, ...)``: arrays (or single elements) concatenated in order
    (OPL Language Quick Reference, "append"), which the CP constraints take as an array argument."""
    return isinstance(arg, A.Call) and arg.func == "append"


def is_array_arg(ev: Any, arg: A.Expr, env: dict) -> bool:
    """Whether an argument of ``append`` is an array (a name of one, a slice, ``all``, a literal, a
    nested ``append``) rather than one element."""
    from ...semantics.values import ArraySlice, OplArray
    from ..forms.symbols import VarArray

    if is_append(arg) or isinstance(arg, A.ArrayLit) or (isinstance(arg, A.Aggregate) and arg.op == "all"):
        return True
    if isinstance(arg, A.Name) and arg.id not in env and arg.id in ev.inst.dvar_blocks:
        return bool(ev.inst.dvar_blocks[arg.id][2])
    return isinstance(ev.evaluate(arg, env), (ArraySlice, OplArray, VarArray))


def dvar_slice(ev: Any, arg: A.Expr, env: dict) -> list | None:
    """The columns of ``x[i]`` (``x[i][j]``, ...) when ``arg`` indexes a decision array by fewer
    indices than it has dimensions (a slice, IBM's ``allDifferent(x[i])``), in index order; None
    for anything else."""
    from ..forms.symbols import VarArray

    indices: list = []
    node = arg
    while isinstance(node, A.Index):
        indices[:0] = node.indices
        node = node.base
    if not isinstance(node, A.Name) or node.id in env or not indices:
        return None
    sym = ev.inst.symbols.get(node.id)
    arr = getattr(sym, "value", None)
    if not isinstance(arr, VarArray) or len(indices) >= len(arr.dims):
        return None
    prefix = tuple(ev.eval_data(i, env, "an index of `%s`" % node.id) for i in indices)
    prefix = tuple(int(k) if isinstance(k, float) and k.is_integer() else k for k in prefix)
    cols = [c for k, c in arr.cols.items() if k[:len(prefix)] == prefix]
    if not cols:
        raise EvalError("index-out-of-range", arg.span, "`%s` has no element under this index" % node.id,
                        help="index with elements of the array's index sets")
    return cols


def array_items(ev: Any, arg: A.Expr, env: dict, what: str) -> list:
    """The values of a CP array argument, in order: an array's name (or a slice of one), ``all(i in I) e``
    or ``[e1, e2, ...]``."""
    from ...semantics.values import ArraySlice, OplArray
    from ..forms.symbols import VarArray

    if is_append(arg):
        return [x for a in arg.args for x in (array_items(ev, a, env, what) if is_array_arg(ev, a, env)
                                               else [ev.evaluate(a, env)])]
    if isinstance(arg, A.Aggregate) and arg.op == "all":
        return [ev.evaluate(arg.body, e) for e in ev.iterate(arg.quals, env, arg)]
    if isinstance(arg, A.ArrayLit):
        return [ev.evaluate(x, env) for x in arg.items]
    if isinstance(arg, A.ArrayComp):  # `[x[i] | i in R]`, `[i : x[i] | i in R]`: the values in order
        return [ev.evaluate(arg.value, e) for e in ev.iterate(arg.quals, env, arg)]
    if isinstance(arg, A.Name) and arg.id not in env and arg.id in ev.inst.dvar_blocks:
        first, keys, _dims, _kind = ev.inst.dvar_blocks[arg.id]
        return [LinExpr.var(first + k) for k in range(len(keys))]
    if isinstance(arg, A.Index) and (cols := dvar_slice(ev, arg, env)) is not None:  # `x[i]` of a 2-D dvar array
        return [LinExpr.var(c) for c in cols]
    v = ev.evaluate(arg, env)
    if isinstance(v, ArraySlice):
        n = len(v.prefix)
        if isinstance(v.array, VarArray):
            return [LinExpr.var(c) for k, c in v.array.cols.items() if k[:n] == v.prefix]
        return [x for k, x in v.array.data.items() if k[:n] == v.prefix]
    if isinstance(v, VarArray) and len(v.dims) == 1:  # an alias (`dvar int y[R] = ...;`)
        return [LinExpr.var(c) for c in v.cols.values()]
    if isinstance(v, OplArray) and len(v.dims) == 1:
        return list(v.data.values())
    raise EvalError("cp-bad-argument", arg.span, "the argument of `%s` must be a one-dimensional array" % what,
                    help="pass an array (`%s(x)`), `all(i in I) x[i]`, or `[x, y, z]`" % what)
