"""The model's names read at the solution: each decision variable as data holding its value, so that
an expression OPL cannot take as a linear form (``x[1] / x[2]``, ``abs(a - b) / sum(...)``) is still
computed from the solution, as IBM computes a dexpr a post-processing script reads (IBM extracts only
what the model uses: a dexpr the objective and constraints never name is no error)."""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, Iterator

from ...lowering.errors import NONLINEAR_SLUGS  # noqa: F401  (read from here by the host)
from ...semantics.values import OplArray

def _product(dims: list):
    return itertools.product(*[list(d) for d in dims])


@contextlib.contextmanager
def decisions_as_data(ctx: Any, fresh_dexprs: bool = False) -> Iterator[dict]:
    """While the block runs, every ``dvar`` of ``ctx``'s instance is data holding its solution value
    (an array over its index sets, or a number); with ``fresh_dexprs``, every dexpr is declared again
    with empty caches (its definition is then evaluated on those values). A fresh evaluator and a
    scratch reporter are used; everything is put back after. Yields the symbols as they were."""
    from ...diagnostics.reporter import Reporter
    from ...lowering.expressions import Evaluator
    from ...lowering.instance import Symbol
    from ...lowering.symbols import DexprArray, DexprScalar

    inst = ctx.inst
    saved_symbols, saved_reporter, saved_ev = dict(inst.symbols), inst.reporter, inst.ev
    values = {}
    for name, sym in saved_symbols.items():  # (all read first: none is replaced while another is read)
        if sym.kind == "dvar":
            dims = ctx.dvar_dims(name)
            if dims:
                data = {k: ctx.solution_value(ctx.column_of(name, k), name, None) for k in _product(dims)}
                values[name] = Symbol("param", name, OplArray(name, dims, data), sym.decl)
            else:
                values[name] = Symbol("param", name, ctx.solution_value(ctx.column_of(name, ()), name, None), sym.decl)
        elif sym.kind == "dexpr" and fresh_dexprs:
            v = sym.value
            fresh = DexprScalar(name, sym.decl) if isinstance(v, DexprScalar) else DexprArray(name, v.dims, sym.decl)
            values[name] = Symbol("dexpr", name, fresh, sym.decl)
    try:
        inst.symbols.update(values)
        inst.reporter = Reporter(1000)
        inst.ev = Evaluator(inst)
        inst.interval_solution = getattr(ctx, "_interval_value", None)  # (cumulFunctionValue reads the intervals)
        yield saved_symbols
    finally:
        inst.symbols.clear()
        inst.symbols.update(saved_symbols)
        inst.reporter, inst.ev = saved_reporter, saved_ev
        inst.interval_solution = None


def dexpr_at_solution(ctx: Any, name: str, key: tuple, span: Any) -> float:
    """The dexpr ``name`` (cell ``key``) computed from the solution's values: its definition evaluated
    with every decision variable replaced by its value. Raises the EvalError of the definition."""
    from ...lowering.linear import LinExpr, QuadExpr
    from ...lowering.symbols import DexprScalar

    with decisions_as_data(ctx, fresh_dexprs=True):
        inst = ctx.inst
        d = inst.symbols[name].value
        v = inst.dexpr_scalar(d, span) if isinstance(d, DexprScalar) else inst.dexpr_value(d, key, d.decl)
    if isinstance(v, (LinExpr, QuadExpr)):  # (no decision left in it: its constant)
        v = v.const
    return float(v)
