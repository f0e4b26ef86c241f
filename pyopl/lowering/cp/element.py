"""CP's ``element``: an array indexed by decisions, ``a[x]`` or ``w[i][x][y]`` (OPL manual,
"Constraints available in constraint programming": an array of constants or of decisions indexed
by an integer decision expression), in a ``using CP;`` model.

The indices are read one at a time (:meth:`Indexing.index_one <pyopl.lowering.evaluate.indexing.Indexing.index_one>`);
while some are missing the partial result is an :class:`ElementSlice`.  Once all are known, the
array's elements over the decision dimensions (the others fixed) become one list, the decisions
one position in it (``sum(stride_k * position_k)``, a decision's position ``x - lo`` over a range,
or a column tied to ``x`` by an element of its own over a set with holes), and the value is a new
column equal to the selected element (CP-SAT's ``add_element``).  A decision index stays inside
its index set, as in CP Optimizer.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from ...semantics.values import ArraySlice, OplRange, OplSet, show
from ...syntax import ast as A
from ..forms.cp_record import CpConstraint
from ..forms.errors import EvalError
from ..forms.value_tests import is_decision, is_number
from ..forms.linear import LinExpr
from ..forms.symbols import VarArray

#: the most elements one element constraint may list (the product of the decision dimensions)
MAX_ELEMENTS = 1_000_000


@dataclass(eq=False)
class ElementSlice:
    """``a[...]`` with some indices given, at least one a decision: ``steps`` per given index,
    ``("at", key)`` or ``("var", LinExpr, node)``."""

    array: Any
    steps: list


def _affine(e: LinExpr) -> tuple[dict, float]:
    return {j: c for j, c in e.terms.items() if c}, float(e.const)


def index_with_decision(ev: Any, base: Any, idx: Any, node: A.Index, idx_node: A.Node, env: dict) -> Any:
    """``base[idx]`` where ``base`` is an :class:`ElementSlice` or ``idx`` is a decision: the next
    :class:`ElementSlice`, or the element's value (a new column) once every index is given."""
    if isinstance(base, ElementSlice):
        arr, steps = base.array, list(base.steps)
    elif isinstance(base, ArraySlice):
        arr, steps = base.array, [("at", k) for k in base.prefix]
    else:
        arr, steps = base, []
    dim = len(steps)
    if dim >= len(arr.dims):
        raise EvalError("index-too-many", idx_node.span, "`%s` has %d dimension%s but is indexed %d times" % (
            arr.name, len(arr.dims), "" if len(arr.dims) == 1 else "s", dim + 1), help="remove the extra index")
    if is_decision(idx):
        if type(idx) is not LinExpr or not ev.inst.is_integral(idx):
            raise EvalError("cp-bad-argument", idx_node.span, "an index must be an integer expression",
                            help="index with integer decisions and whole coefficients")
        steps.append(("var", idx, idx_node))
    else:
        steps.append(("at", ev._check_index(node, arr, arr.dims[dim], idx, idx_node, env, dim)))
    if len(steps) < len(arr.dims):
        return ElementSlice(arr, steps)
    return _element(ev, arr, steps, node)


def _position(inst: Any, domain: Any, idx: LinExpr, arr: Any, idx_node: A.Node) -> tuple[LinExpr, int]:
    """The position of the decision ``idx`` in ``domain`` (0-based) and the domain's size."""
    keys = list(domain)
    if not isinstance(domain, (OplRange, OplSet)) or not keys or \
            not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        raise EvalError("unsupported-cp-construct", idx_node.span, "`%s` is indexed by a decision over %s; CP-SAT's "
                        "element is compiled for integer index sets" % (arr.name, show(domain)),
                        help="index the array over an integer range or set")
    pos = idx.copy()
    if keys == list(range(keys[0], keys[0] + len(keys))):
        pos.iadd(LinExpr(None, -float(keys[0])))
        return pos, len(keys)
    p = inst.new_column(0.0, float(len(keys) - 1), True, "element_position")
    inst.cp_constraints.append(CpConstraint("element", [({}, float(k)) for k in keys], idx_node.span, data={
        "index": ({p: 1.0}, 0.0), "positions": list(range(len(keys))), "target": _affine(idx)}))
    return LinExpr.var(p), len(keys)


def _value(arr: Any, key: tuple, node: A.Node) -> LinExpr:
    if isinstance(arr, VarArray):
        col = arr.cols.get(key)
        if col is None:
            raise EvalError("index-out-of-set", node.span, "`%s%s` does not exist, and a decision index may select "
                            "it" % (arr.name, "".join("[%s]" % show(k) for k in key)),
                            help="declare the variable over the whole index set")
        return LinExpr.var(col)
    v = arr.data.get(key) if hasattr(arr, "data") else None
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, LinExpr):  # a cell of a dexpr array (a decision expression)
        return v
    if not is_number(v):
        raise EvalError("cp-bad-argument", node.span, "`%s%s` is %s, and CP-SAT's element takes numbers or "
                        "decision expressions" % (arr.name, "".join("[%s]" % show(k) for k in key),
                                                  "missing" if v is None else show(v)),
                        help="give every element a value (a decision index may select any element)")
    return LinExpr(None, float(v))


def _element(ev: Any, arr: Any, steps: list, node: A.Node) -> LinExpr:
    inst = ev.inst
    if not isinstance(arr, VarArray) and not hasattr(arr, "data"):
        raise EvalError("unsupported-cp-construct", node.span, "`%s` indexed by a decision is compiled for arrays of "
                        "data or of decision variables" % arr.name, help="index a data or `dvar` array")
    var_dims = [k for k, s in enumerate(steps) if s[0] == "var"]
    index = LinExpr(None, 0.0)
    stride, sizes = 1, {}
    for k in reversed(var_dims):
        pos, n = _position(inst, arr.dims[k], steps[k][1], arr, steps[k][2])
        index.iadd(pos.scaled(float(stride)))
        sizes[k] = n
        stride *= n
    if stride > MAX_ELEMENTS:
        raise EvalError("limit-too-large", node.span, "`%s` indexed by decisions has %d elements to choose from, more "
                        "than pyopl allows in one element (%d)" % (arr.name, stride, MAX_ELEMENTS),
                        help="index fewer dimensions with decisions")
    vals = []
    for combo in itertools.product(*[list(arr.dims[k]) for k in var_dims]):
        it = iter(combo)
        key = tuple(next(it) if s[0] == "var" else s[1] for s in steps)
        vals.append(_value(arr, key, node))
    scale = 1
    if not all(inst.is_integral(v) for v in vals):  # decimal data or expressions: an element over them scaled
        from ..linearise.cp_arith import common_scale

        scale = common_scale(inst, vals, node.span, "an element of `%s`" % arr.name)
        vals = [LinExpr({j: float(round(c * scale)) for j, c in v.terms.items()}, float(round(v.const * scale)))
                for v in vals]
    bounds = [inst.bounds(v) for v in vals]
    t = inst.new_column(min(b[0] for b in bounds), max(b[1] for b in bounds), True, "element")
    inst.cp_constraints.append(CpConstraint("element", [_affine(v) for v in vals], node.span, data={
        "index": _affine(index), "positions": list(range(len(vals))), "target": ({t: 1.0}, 0.0)}))
    return LinExpr({t: 1.0 / scale})
