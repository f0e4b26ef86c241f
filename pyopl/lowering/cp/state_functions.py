"""State functions of ``using CP;`` models: ``stateFunction f;``, ``alwaysEqual``, ``alwaysConstant``,
``alwaysNoState`` and ``alwaysIn`` on it, over an interval or a fixed window ``[s, e)``, with IBM's alignment
arguments (OPL Language Quick Reference, "stateFunction", "alwaysEqual", "alwaysConstant", "alwaysNoState",
"alwaysIn"; OPL Language Reference, "Constraints on state functions").

IBM: a state function is a set of non-overlapping segments, each keeping one non-negative state.
``alwaysEqual(f, a, v)``: while ``a`` is present, ``f`` is defined, constant and equal to ``v`` on
``[start(a), end(a))`` (one segment covers it); ``alwaysConstant(f, a)``: defined and constant there (its
state is the solver's, a column here); with ``aligns`` the segment starts at ``start(a)``, with
``aligne`` it ends at ``end(a)``.  ``alwaysNoState(f, a)``: no state anywhere on ``a``.
``alwaysIn(f, a, lo, hi)``: where ``f`` is defined on ``a``, its state is in ``lo..hi``.

Without a transition distance these are exactly conditions on pairs of requirements that overlap
(both present, both of positive length: an empty ``[s, s)`` asks for nothing): two defined ones have
equal states (different data states: they do not overlap); a defined one and ``alwaysNoState`` do not
overlap; a defined one's state is in the range of an ``alwaysIn``; and an aligned start (end) lies
inside no other defined requirement (``start(b) < start(a) < end(b)`` is refused).  From a schedule
meeting them the segments are the union of the defined requirements of each state cut at the aligned
points, and every requirement holds; conversely every requirement implies them.  Each condition is
"apart, or the alternative": 0/1 columns and enforced rows, one of them true while both are present.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...syntax import ast as A
from ..functions.builtins import builtin
from .constraints import CpConstraint, need_cp
from ..forms.cp_record import conditional
from ..forms.errors import EvalError
from .intervals import IntervalVar, arity, function_arg, interval_arg
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr


@dataclass(eq=False)
class Requirement:
    """One constraint on a state function: ``kind`` ``"equal"``, ``"constant"``, ``"none"`` or ``"in"``,
    over the interval ``iv`` (or the fixed ``window``, with ``iv`` its fixed columns); ``state`` an int
    (``equal``) or the state column (``constant``); ``lo..hi`` for ``in``; the alignments."""

    kind: str
    iv: IntervalVar
    state: Any = None
    lo: int = 0
    hi: int = 0
    align_start: bool = False
    align_end: bool = False
    window: tuple | None = None

    @property
    def defined(self) -> bool:
        return self.kind in ("equal", "constant")


@dataclass(eq=False)
class StateFunction:
    """A ``stateFunction``: its name and the requirements made on it so far (``uses``: in order)."""

    name: str
    uses: list = field(default_factory=list)

    def __repr__(self) -> str:  # (never the Python form in a message)
        return "the stateFunction `%s`" % self.name

    def fresh_copy(self) -> "StateFunction":
        """A copy without requirements (for the solution check, which evaluates the constraints again:
        what it posts must not add to the model's own requirements, which the segments are read from)."""
        return StateFunction(self.name)


def state_function_decl(inst: Any, d: A.ParamDecl, dims: list | None = None, keys: list | None = None) -> Any:
    """``stateFunction f;`` or an array ``stateFunction f[dims];`` (without a transition distance) in a
    ``using CP;`` model: the value to declare (``keys``: the array's keys over the index sets ``dims``).
    Raises EvalError ``cp-needs-using-cp`` without ``using CP;``, ``unsupported-cp-variable`` for a
    transition distance (``with M``) or an initializer."""
    from ...semantics.values import OplArray, show

    need_cp(inst, d.name_span, "`stateFunction`")
    if d.init is not None or getattr(d, "with_clause", None):
        raise EvalError("unsupported-cp-variable", d.type.span, "a `stateFunction` is compiled to CP-SAT without a "
                        "transition distance (`stateFunction f;`), and this one has %s" % (
                            "a value" if d.init is not None else "one"),
                        help="declare `stateFunction f;` (or an array `stateFunction f[I];`) without `with`")
    if dims:
        return OplArray(d.name, dims, {k: StateFunction(d.name + "".join("[%s]" % show(x) for x in k))
                                       for k in keys})
    return StateFunction(d.name)


def _size_can_be_zero(inst: Any, iv: IntervalVar) -> bool:
    """Whether ``iv``'s extent ``[start, end)`` can be empty (its length 0; the size, unless an intensity)."""
    return inst.cols.lower[iv.size if iv.length is None else iv.length] <= 0


def _extent(iv: IntervalVar) -> LinExpr:
    return LinExpr({iv.end: 1.0, iv.start: -1.0})


def _either(inst: Any, a: IntervalVar, b: IntervalVar, options: list, span: Any) -> None:
    """While ``a`` and ``b`` are present, one of ``options`` (``(expr, lo, hi)``: ``lo <= expr <= hi``, or a
    0/1 column standing for itself) holds, or one of the two is empty."""
    both = a.when() + [w for w in b.when() if w not in a.when()]
    options = list(options) + [(_extent(a), -float("inf"), 0.0)] * _size_can_be_zero(inst, a) \
        + [(_extent(b), -float("inf"), 0.0)] * (a is not b and _size_can_be_zero(inst, b))
    pick = LinExpr()
    for e, lo, hi in options:
        z = inst.new_column(0.0, 1.0, True, "state_option")
        conditional(inst, e, lo, hi, [(z, True)], span)
        pick.iadd(LinExpr.var(z))
    conditional(inst, pick, 1.0, float("inf"), both, span)


def _apart(inst: Any, a: IntervalVar, b: IntervalVar, span: Any, alternatives: list = ()) -> None:
    """``a`` and ``b`` do not overlap while both are present (or one of ``alternatives`` holds), unless one
    of them is empty."""
    options = [] if a is b else [(LinExpr({a.end: 1.0, b.start: -1.0}), -float("inf"), 0.0),
                                 (LinExpr({b.end: 1.0, a.start: -1.0}), -float("inf"), 0.0)]
    _either(inst, a, b, options + list(alternatives), span)


def _state_expr(r: Requirement) -> LinExpr:
    return LinExpr.var(r.state) if r.kind == "constant" else LinExpr(None, float(r.state))


def _pair(inst: Any, r: Requirement, q: Requirement, span: Any) -> None:
    """The conditions of the module's docstring between the requirements ``r`` and ``q``."""
    if r.defined and q.defined:
        if r.kind == "equal" and q.kind == "equal":
            if r.state != q.state:
                _apart(inst, r.iv, q.iv, span)
        else:
            d = _state_expr(r)
            d.iadd(_state_expr(q), -1.0)
            _apart(inst, r.iv, q.iv, span, [(d, 0.0, 0.0)])  # the same state where they overlap
    elif (r.defined and q.kind == "none") or (q.defined and r.kind == "none"):
        _apart(inst, r.iv, q.iv, span)
    elif (r.defined and q.kind == "in") or (q.defined and r.kind == "in"):
        d, i = (r, q) if r.defined else (q, r)
        if d.kind == "equal":
            if not i.lo <= d.state <= i.hi:
                _apart(inst, d.iv, i.iv, span)
        else:
            _apart(inst, d.iv, i.iv, span, [(LinExpr.var(d.state), float(i.lo), float(i.hi))])
    for a, b in ((r, q), (q, r)):  # an aligned start (end) of a lies inside no defined b
        if not (a.defined and b.defined) or a.iv is b.iv:
            continue
        for point, on in (("start", a.align_start), ("end", a.align_end)):
            if on:
                p = getattr(a.iv, point)
                _either(inst, a.iv, b.iv, [(LinExpr({p: 1.0, b.iv.start: -1.0}), -float("inf"), 0.0),
                                           (LinExpr({p: 1.0, b.iv.end: -1.0}), 0.0, float("inf"))], span)


def _post(ev: Any, node: A.Call, f: StateFunction, r: Requirement) -> CpConstraint:
    inst = ev.inst
    inst.budget.spend(len(f.uses), node)  # (a pair with each earlier requirement)
    for q in f.uses:
        _pair(inst, r, q, node.span)
    f.uses.append(r)
    return CpConstraint("posted", [], node.span)


def _window(ev: Any, node: A.Call, env: dict, k: int) -> tuple[IntervalVar, tuple | None, int]:
    """The time argument at ``k``: an interval (then the next argument is at ``k + 1``) or two integers
    ``s, e`` (a fixed window ``[s, e)``, as fixed columns; next at ``k + 2``)."""
    from .intervals import data_int_arg

    v = ev.evaluate(node.args[k], env)
    if isinstance(v, IntervalVar):
        return v, None, k + 1
    if len(node.args) <= k + 1:
        interval_arg(ev, node, k, env)  # (its error: an interval is expected)
    s = data_int_arg(ev, node, k, env, "the window's start")
    e = data_int_arg(ev, node, k + 1, env, "the window's end")
    if e < s:
        raise EvalError("cp-bad-argument", node.args[k + 1].span, "the window [%d, %d) of `%s` ends before it "
                        "starts" % (s, e, node.func), help="give `s <= e`")
    inst = ev.inst
    cs = inst.new_column(float(s), float(s), True, "window.start")
    ce = inst.new_column(float(e), float(e), True, "window.end")
    cz = inst.new_column(float(e - s), float(e - s), True, "window.size")
    return IntervalVar("window", (), cs, cz, ce, None, -1), (s, e), k + 2


def _flags(ev: Any, node: A.Call, env: dict, k: int) -> tuple[bool, bool]:
    """The alignment arguments from ``k`` on (booleans or 0/1, data), false when not given."""
    out = []
    for j in (k, k + 1):
        if j >= len(node.args):
            out.append(False)
            continue
        v = ev.evaluate(node.args[j], env)
        if isinstance(v, bool) or (is_number(v) and v in (0, 1)):
            out.append(bool(v))
            continue
        raise EvalError("cp-bad-argument", node.args[j].span, "the alignment arguments of `%s` are booleans (true "
                        "or 1: aligned)" % node.func, help="write `true`, `false`, 1 or 0")
    return out[0], out[1]


def _state_value(ev: Any, node: A.Call, env: dict, k: int) -> int:
    v = ev.evaluate(node.args[k], env)
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int) or v < 0:
        raise EvalError("cp-bad-argument", node.args[k].span, "the state of `%s` is a non-negative "
                        "integer (data), but this is %s" % (node.func, "a decision expression" if isinstance(v, LinExpr)
                                                            else repr(v)),
                        help="give a whole number >= 0")
    return v


def _function(ev: Any, node: A.Call, env: dict) -> StateFunction:
    return function_arg(ev, node, 0, env, StateFunction, "stateFunction", "declare `stateFunction f;` and pass `f`")


@builtin("alwaysEqual")
def _always_equal(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alwaysEqual(f, a, v[, aligns, aligne])`` and ``alwaysEqual(f, s, e, v[, aligns, aligne])``: see the
    module's docstring."""
    arity(node, 3, 6)
    need_cp(ev.inst, node.span, "`alwaysEqual`")
    f = _function(ev, node, env)
    iv, window, k = _window(ev, node, env, 1)
    arity(node, k + 1, k + 3)
    v = _state_value(ev, node, env, k)
    als, ale = _flags(ev, node, env, k + 1)
    return _post(ev, node, f, Requirement("equal", iv, v, align_start=als, align_end=ale, window=window))


@builtin("alwaysConstant")
def _always_constant(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alwaysConstant(f, a[, aligns, aligne])``, ``alwaysConstant(f, s, e[, aligns, aligne])``: ``f`` is
    defined and keeps one state (a column of its own, 0..maxint) on the interval."""
    arity(node, 2, 5)
    inst = ev.inst
    need_cp(inst, node.span, "`alwaysConstant`")
    f = _function(ev, node, env)
    iv, window, k = _window(ev, node, env, 1)
    arity(node, k, k + 2)
    als, ale = _flags(ev, node, env, k)
    state = inst.new_column(0.0, 2147483647.0, True, f.name + ".state")
    return _post(ev, node, f, Requirement("constant", iv, state, align_start=als, align_end=ale, window=window))


@builtin("alwaysNoState")
def _always_no_state(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alwaysNoState(f, a)``, ``alwaysNoState(f, s, e)``: ``f`` has no state on the interval."""
    arity(node, 2, 3)
    need_cp(ev.inst, node.span, "`alwaysNoState`")
    f = _function(ev, node, env)
    iv, window, k = _window(ev, node, env, 1)
    arity(node, k, k)
    return _post(ev, node, f, Requirement("none", iv, window=window))


def state_always_in(ev: Any, node: A.Call, env: dict, f: StateFunction) -> CpConstraint:
    """``alwaysIn(f, a, lo, hi)``, ``alwaysIn(f, u, v, lo, hi)`` on a state function: where ``f`` is defined
    on the interval, its state is in ``lo..hi`` (IBM: "allows the stateFunction to have the noState value")."""
    from .intervals import data_int_arg

    iv, window, k = _window(ev, node, env, 1)
    arity(node, k + 2, k + 2)
    lo = data_int_arg(ev, node, k, env, "the least state")
    hi = data_int_arg(ev, node, k + 1, env, "the greatest state")
    return _post(ev, node, f, Requirement("in", iv, lo=lo, hi=hi, window=window))


#: the state of a state function where no interval defines it (IBM's ``IloCP::NoState``)
NO_STATE = -1
#: the ends of the time line the segments of a state function cover (IBM's interval window, maxint / 2)
HORIZON = 1073741823


def state_segments(f: StateFunction, value_of: Any, column_of: Any = None) -> list[tuple[int, int, int]]:
    """The segments ``(start, end, state)`` of ``f`` in a solution, in time order, covering
    ``[-HORIZON, HORIZON)``: maximal stretches of one state (the present requirements of ``alwaysEqual``
    and ``alwaysConstant``, of length > 0, back to back or overlapping), cut where a requirement is
    aligned, ``NO_STATE`` between them.  ``value_of(iv)``: the solution's ``IntervalValue`` of the
    interval ``iv``; ``column_of(j)``: the value of column ``j`` (the state of an ``alwaysConstant``)."""
    spans, cuts = [], set()
    for r in f.uses:
        if not r.defined:
            continue
        if r.window is not None:
            start, end = r.window
        else:
            x = value_of(r.iv)
            if x is None or not x.present:
                continue
            start, end = x.start, x.end
        if end <= start:
            continue
        state = int(round(column_of(r.state))) if r.kind == "constant" else r.state
        spans.append((start, end, state))
        cuts.update(p for p, on in ((start, r.align_start), (end, r.align_end)) if on)
    spans.sort()
    merged: list = []
    for s, e, v in spans:
        if merged and merged[-1][2] == v and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e), v)
        else:
            merged.append((s, e, v))
    pieces = []
    for s, e, v in merged:  # cut at the aligned points inside
        for c in sorted(c for c in cuts if s < c < e):
            pieces.append((s, c, v))
            s = c
        pieces.append((s, e, v))
    out, t = [], -HORIZON
    for s, e, v in pieces:
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
    return next((v for s, e, v in state_segments(f, solution, getattr(ev.inst, "column_solution", None))
                 if s <= t < e), NO_STATE)
