"""The value of cumulative and state functions in a CP solution (OPL manual, "Accessing solutions in
postprocessing"): ``cumulFunctionValue``, ``stateFunctionValue``'s companions ``numberOfSegments``,
``segmentStart``, ``segmentEnd``, ``segmentValue``, and the segments scripts read
(``f.getNumberOfSegments()`` ...; IBM: "a segment is an interval [start, end) on which the value of the
function is constant").

A cumulative function's segments cover ``[-HORIZON, HORIZON)`` (IBM's interval bounds, as a state
function's do, pyopl/lowering/cp/state_functions.py): the level is 0 before the first event, changes at
each event of the solution (a present pulse's start and end, a step's time), and neighbouring
stretches of one level are one segment.
"""
from __future__ import annotations

from typing import Any

from ...syntax import ast as A
from ..functions.builtins import builtin
from .constraints import need_cp
from ..forms.errors import EvalError
from .intervals import arity, data_int_arg
from .scheduling import CumulExpr, VarHeight
from .state_functions import HORIZON, StateFunction, state_segments


def cumul_segments(f: CumulExpr, value_of: Any, column_of: Any = None) -> list[tuple[int, int, int]]:
    """The segments ``(start, end, level)`` of the cumulative function ``f`` in a solution, in time order,
    covering ``[-HORIZON, HORIZON)``.  ``value_of(iv)``: the solution's ``IntervalValue`` of ``iv``;
    ``column_of(j)``: the value of column ``j`` (a height the solver chose)."""
    changes: dict = {}
    for kind, iv, h in f.terms:
        if isinstance(h, VarHeight):
            if column_of is None:
                raise ValueError("a chosen height needs the column values")
            h = int(round(column_of(h.col))) * h.sign
        if kind == "step":
            changes[iv] = changes.get(iv, 0) + h
            continue
        x = value_of(iv)
        if x is None or not x.present:
            continue
        for t, dh in {"pulse": ((x.start, h), (x.end, -h)), "stepAtStart": ((x.start, h),),
                      "stepAtEnd": ((x.end, h),)}[kind]:
            changes[t] = changes.get(t, 0) + dh
    out: list = []
    level, since = 0, -HORIZON
    for t in sorted(changes):
        new = level + changes[t]
        if new == level or t <= -HORIZON:
            level = new
            continue
        out.append((since, t, level))
        level, since = new, t
    out.append((since, HORIZON, level))
    return out


def solution_segments(ev: Any, node: A.Call, f: Any) -> list[tuple[int, int, int]]:
    """The segments of the cumulative or state function ``f`` in the solution post-processing data
    reads; EvalError ``decision-in-data`` before the solve."""
    inst = ev.inst
    solution = getattr(inst, "interval_solution", None)
    if solution is None:
        raise EvalError("decision-in-data", node.span, "`%s` reads the solution, which exists only after the "
                        "solve" % node.func, help="declare the data after the constraints (post-processing) or "
                                                  "read it in an `execute` block after the model")
    columns = getattr(inst, "column_solution", None)
    if isinstance(f, StateFunction):
        return state_segments(f, solution, columns)
    return cumul_segments(f, solution, columns)


def _function(ev: Any, node: A.Call, env: dict) -> Any:
    f = ev.evaluate(node.args[0], env)
    if not isinstance(f, (CumulExpr, StateFunction)):
        raise EvalError("cp-bad-argument", node.args[0].span, "`%s` takes a `cumulFunction` or a `stateFunction`"
                        % node.func, help="pass the name of a `cumulFunction` or a `stateFunction`")
    return f


@builtin("cumulFunctionValue")
def _cumul_function_value(ev: Any, node: A.Call, env: dict) -> int:
    """``cumulFunctionValue(f, t)``: the level of the cumulative function ``f`` at the time ``t`` in the
    solution: the heights of the pulses whose present interval covers ``t`` (``start <= t < end``) and of
    the steps at or before ``t`` (a chosen height as the solution chose it).  It reads the solution, so
    a declaration using it after the model is computed after the solve (``decision-in-data`` before it,
    which makes the declaration post-processing data)."""
    arity(node, 2, 2)
    need_cp(ev.inst, node.span, "`cumulFunctionValue`")
    f = ev.evaluate(node.args[0], env)
    if not isinstance(f, CumulExpr):
        raise EvalError("cp-bad-argument", node.args[0].span, "`cumulFunctionValue` takes a `cumulFunction` first",
                        help="pass the name of a `cumulFunction`")
    t = data_int_arg(ev, node, 1, env, "the time")
    return next(v for s, e, v in solution_segments(ev, node, f) if s <= t < e)


@builtin("numberOfSegments")
def _number_of_segments(ev: Any, node: A.Call, env: dict) -> int:
    """``numberOfSegments(f)``: how many segments the cumulative or state function ``f`` has in the solution."""
    arity(node, 1, 1)
    need_cp(ev.inst, node.span, "`numberOfSegments`")
    return len(solution_segments(ev, node, _function(ev, node, env)))


def _segment_part(part: int):
    def handler(ev: Any, node: A.Call, env: dict) -> int:
        arity(node, 2, 2)
        need_cp(ev.inst, node.span, "`%s`" % node.func)
        f = _function(ev, node, env)
        k = data_int_arg(ev, node, 1, env, "the segment's number")
        segs = solution_segments(ev, node, f)
        if not 0 <= k < len(segs):
            raise EvalError("index-out-of-set", node.args[1].span, "`%s`: segment %d is outside 0..%d" % (
                node.func, k, len(segs) - 1), help="loop over `0..numberOfSegments(f) - 1`")
        return segs[k][part]
    handler.__doc__ = "``%s(f, i)``: the %s of segment ``i`` (from 0) of ``f`` in the solution." % (
        ("segmentStart", "segmentEnd", "segmentValue")[part], ("start", "end", "value")[part])
    return handler


builtin("segmentStart")(_segment_part(0))
builtin("segmentEnd")(_segment_part(1))
builtin("segmentValue")(_segment_part(2))
