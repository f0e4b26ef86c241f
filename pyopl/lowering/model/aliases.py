"""Decision-array aliases: ``dvar int y[R] = all[R](i in R) x[i];``, ``dvar int y2[i in R] = x[i];``,
``dvar interval itvs[1..4] = [a, b, c, d];`` (OPL manual, "Initialization of decision variable
arrays" and "Explicit arrays").

An alias makes no new decision: each of its cells is a decision variable declared before, shared
by both names ("the variables are then shared between the two arrays of variables"). Its value is
a :class:`~pyopl.lowering.forms.symbols.VarArray` over the same columns (integer and float decisions)
or an :class:`~pyopl.semantics.values.OplArray` of the same interval variables.
"""
from __future__ import annotations

from typing import Any, Callable

from ...semantics.values import OplArray, ProductKeys, show
from ...syntax import ast as A
from ..functions.array_args import array_items
from ..forms.errors import EvalError
from .instance import dim_env
from ..cp.intervals import IntervalVar, interval_list
from ..forms.linear import LinExpr
from ..forms.symbols import VarArray

_INTEGER_TYPES = ("int", "int+", "boolean")


def _cells(inst: Any, d: A.DvarDecl, dims: list, listing: Callable[[A.Expr, dict], list]) -> dict[tuple, Any]:
    """The value of each cell of the alias ``d`` by key: evaluated per key for a generic alias
    (``y[i in R] = x[i]``), else the values of the right-hand side in order, one per key."""
    ev = inst.ev
    if not dims:
        return {(): ev.evaluate(d.alias, {})}
    keys = list(ProductKeys(dims))
    if any(dim.var is not None or dim.pattern is not None for dim in d.dims):
        return {key: ev.evaluate(d.alias, dim_env(inst, d.dims, key, {})) for key in keys}
    values = listing(d.alias, {})
    if len(values) != len(keys):
        raise EvalError("cp-bad-argument", d.alias.span, "`%s` has %d cells, but this gives %d decision variables" % (
            d.name, len(keys), len(values)), help="give one decision variable per cell of `%s`, in order" % d.name)
    return dict(zip(keys, values))


def _not_a_decision(d: A.DvarDecl, key: tuple, v: Any, what: str) -> EvalError:
    at = "".join("[%s]" % show(k) for k in key)
    return EvalError("syntax-dvar-initialised", d.alias.span, "`%s%s` is an alias of decision variables, but this "
                     "gives %s" % (d.name, at, "a decision expression" if isinstance(v, LinExpr) else show(v)),
                     help="an alias names %s declared before (`dvar int y[R] = all(i in R) x[i];`); to fix a "
                          "value, write a constraint `%s == ...;`; for data, drop `dvar`" % (what, d.name))


def dvar_alias(inst: Any, d: A.DvarDecl, dims: list) -> Any:
    """The value of ``dvar T name[dims] = expr;``: a VarArray over the columns of the decisions
    ``expr`` names (a single LinExpr column without dims). Raises EvalError (OPL0028) where a cell
    is not one decision variable of a matching type."""
    cells = _cells(inst, d, dims, lambda node, env: array_items(inst.ev, node, env, "dvar " + d.name))
    integer = d.vtype in _INTEGER_TYPES
    cols: dict[tuple, int] = {}
    for key, v in cells.items():
        if not (isinstance(v, LinExpr) and v.const == 0 and len(v.terms) == 1 and next(iter(v.terms.values())) == 1):
            raise _not_a_decision(d, key, v, "decision variables")
        col = next(iter(v.terms))
        if integer and not inst.cols.integer[col]:
            raise EvalError("syntax-dvar-initialised", d.alias.span, "`%s` is `dvar %s`, but this names a float decision" % (
                d.name, d.vtype), help="declare the alias with the type of the variables it names")
        cols[key] = col
    if not dims:
        return LinExpr.var(cols[()])
    return VarArray(d.name, dims, cols, d, None)


def interval_alias(inst: Any, d: A.IntervalDecl, dims: list) -> Any:
    """The value of ``dvar interval name[dims] = expr;``: the interval variables ``expr`` names,
    as an OplArray (the IntervalVar itself without dims). Raises EvalError where a cell is not an
    interval variable."""
    cells = _cells(inst, d, dims, lambda node, env: interval_list(inst.ev, node, env, "dvar interval " + d.name))
    for key, v in cells.items():
        if not isinstance(v, IntervalVar):
            raise _not_a_decision(d, key, v, "interval variables")
    return OplArray(d.name, dims, cells) if dims else cells[()]
