"""State functions of ``using CP;`` models: ``stateFunction f;`` and ``alwaysEqual(f, a, v)`` (OPL
Language Quick Reference, "stateFunction", "alwaysEqual").

``alwaysEqual(f, a, v)`` says that, if ``a`` is present, ``f`` is defined, constant and equal to
``v`` everywhere on ``[start(a), end(a))``.  Without a transition distance and without alignment
this is exactly: two intervals that ask for different states of the same function do not overlap
while both are present (intervals asking for the same state may overlap: one segment of ``f``
covers them), and an interval of size 0 asks for nothing (its ``[start, end)`` is empty).  Each
new pair becomes 0/1 columns and conditional rows: ``end(a) <= start(b)``, ``end(b) <= start(a)``,
``size(a) == 0`` or ``size(b) == 0`` (the size cases only where the size can be 0).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..syntax import ast as A
from .builtins import builtin
from .cp import CpConstraint, need_cp
from .cp_record import conditional
from .errors import EvalError
from .intervals import IntervalVar, arity, function_arg, interval_arg
from .linear import LinExpr


@dataclass(eq=False)
class StateFunction:
    """A ``stateFunction``: its name and the ``(interval, state)`` pairs ``alwaysEqual`` asked for so far."""

    name: str
    uses: list = field(default_factory=list)


def state_function_decl(inst: Any, d: A.ParamDecl) -> StateFunction:
    """``stateFunction f;`` (a scalar, without a transition distance) in a ``using CP;`` model: the
    value to declare.  Raises EvalError ``cp-needs-using-cp`` without ``using CP;``,
    ``unsupported-cp-variable`` for an array of them or a transition distance (``with M``)."""
    need_cp(inst, d.name_span, "`stateFunction`")
    if d.dims or d.init is not None or getattr(d, "with_clause", None):
        raise EvalError("unsupported-cp-variable", d.type.span, "a `stateFunction` is compiled to CP-SAT as a "
                        "single function without a transition distance (`stateFunction f;`), and this is not one",
                        help="declare `stateFunction f;`; for several, declare each on its own")
    return StateFunction(d.name)


def _size_can_be_zero(inst: Any, iv: IntervalVar) -> bool:
    """Whether ``iv``'s extent ``[start, end)`` can be empty (its length 0; the size, unless an intensity)."""
    return inst.cols.lower[iv.size if iv.length is None else iv.length] <= 0


@builtin("alwaysEqual")
def _always_equal(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alwaysEqual(f, a, v)``: see the module's docstring.  The fixed-window form
    ``alwaysEqual(f, s, e, v)`` and the alignment arguments are ``unsupported-cp-construct``."""
    arity(node, 3, 6)
    inst = ev.inst
    need_cp(inst, node.span, "`alwaysEqual`")
    f = function_arg(ev, node, 0, env, StateFunction, "stateFunction", "declare `stateFunction f;` and pass `f`")
    if len(node.args) != 3 or not isinstance(ev.evaluate(node.args[1], env), IntervalVar):
        raise EvalError("unsupported-cp-construct", node.span, "`alwaysEqual` is compiled to CP-SAT in the form "
                        "`alwaysEqual(f, a, v)` (an interval, no alignment), and this is not it",
                        help="use an interval variable for the time window, and drop the alignment arguments")
    a = interval_arg(ev, node, 1, env)
    v = ev.evaluate(node.args[2], env)
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int) or v < 0:
        raise EvalError("cp-bad-argument", node.args[2].span, "the state of `alwaysEqual` is a non-negative "
                        "integer (data), but this is %s" % ("a decision expression" if isinstance(v, LinExpr)
                                                              else repr(v)),
                        help="give a whole number >= 0")
    inst.budget.spend(len(f.uses), node)  # (a pair with each earlier use)
    for b, w in f.uses:
        if w != v and b is not a:
            _apart(inst, a, b, node.span)
        elif w != v:  # the same interval in two different states: it cannot be present with a size
            _apart(inst, a, a, node.span)
    f.uses.append((a, v))
    return CpConstraint("posted", [], node.span)


def _extent(iv: IntervalVar) -> LinExpr:
    return LinExpr({iv.end: 1.0, iv.start: -1.0})


def _apart(inst: Any, a: IntervalVar, b: IntervalVar, span: Any) -> None:
    """``a`` and ``b`` do not overlap while both are present, unless one of them has size 0."""
    both = a.when() + [w for w in b.when() if w not in a.when()]
    options = [(LinExpr({a.end: 1.0, b.start: -1.0}), a is not b), (LinExpr({b.end: 1.0, a.start: -1.0}), a is not b),
               (_extent(a), _size_can_be_zero(inst, a)),
               (_extent(b), a is not b and _size_can_be_zero(inst, b))]
    pick = LinExpr()
    for e, possible in options:
        if not possible:
            continue
        z = inst.new_column(0.0, 1.0, True, "state_apart")
        conditional(inst, e, -float("inf"), 0.0, [(z, True)], span)  # e <= 0 when chosen
        pick.iadd(LinExpr.var(z))
    conditional(inst, pick, 1.0, float("inf"), both, span)  # one of them while both are present


#: the state of a state function where no interval defines it (IBM's ``IloCP::NoState``)
NO_STATE = -1
#: the ends of the time line the segments of a state function cover (IBM's interval window, maxint / 2)
HORIZON = 1073741823


def state_segments(f: StateFunction, value_of: Any) -> list[tuple[int, int, int]]:
    """The segments ``(start, end, state)`` of ``f`` in a solution, in time order, covering
    ``[-HORIZON, HORIZON)``: maximal stretches of one state (the present intervals ``alwaysEqual`` put
    in that state, of size > 0, back to back or overlapping), ``NO_STATE`` between them.
    ``value_of(iv)``: the solution's ``IntervalValue`` of the interval ``iv``."""
    spans = []
    for iv, v in f.uses:
        x = value_of(iv)
        if x is not None and x.present and x.end > x.start:
            spans.append((x.start, x.end, v))
    spans.sort()
    merged: list = []
    for s, e, v in spans:
        if merged and merged[-1][2] == v and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e), v)
        else:
            merged.append((s, e, v))
    out, t = [], -HORIZON
    for s, e, v in merged:
        if s > t:
            out.append((t, s, NO_STATE))
        out.append((s, e, v))
        t = e
    if t < HORIZON:
        out.append((t, HORIZON, NO_STATE))
    return out


@builtin("stateFunctionValue")
def _state_function_value(ev: Any, node: A.Call, env: dict) -> int:
    """``stateFunctionValue(f, t)``: the state of ``f`` at the time ``t`` in the solution, ``-1`` where no
    interval defines it (OPL manual, "Accessing solutions in postprocessing"); post-processing data."""
    from .intervals import int_arg

    arity(node, 2, 2)
    need_cp(ev.inst, node.span, "`stateFunctionValue`")
    f = function_arg(ev, node, 0, env, StateFunction, "stateFunction", "pass the name of a `stateFunction`")
    t = int_arg(ev, node, 1, env)
    solution = getattr(ev.inst, "interval_solution", None)
    if isinstance(t, LinExpr) or solution is None:
        raise EvalError("decision-in-data", node.span, "`stateFunctionValue` reads the solution, which exists only "
                        "after the solve", help="declare the data after the constraints (post-processing)")
    return next((v for s, e, v in state_segments(f, solution) if s <= t < e), NO_STATE)
