"""Step functions of ``using CP;`` models: ``stepFunction F = stepwise{v1 -> t1; ...; vLast};``, ``F(t)`` on
data, ``forbidStart``/``forbidEnd``/``forbidExtent``, ``startEval``/``endEval``/``sizeEval``/``lengthEval``
and an interval's ``intensity`` (OPL Language Quick Reference, "stepwise", "stepFunction", "forbidStart",
"forbidEnd", "forbidExtent", "startEval", "size"; OPL Language Reference, "Unary constraints on interval
variables").

``stepwise{v1 -> t1; v2 -> t2; v3}`` is ``v1`` before ``t1``, ``v2`` on ``[t1, t2)`` and ``v3`` from ``t2``
on (IBM: ``stepwise{0 -> 3; 2}`` has ``f(-1) == 0`` and ``f(3) == 2``).  On CP-SAT the value of ``F`` at an
integer decision ``p`` (a start, an end, a size, a length) is one 0/1 column per step that ``p``'s domain
meets, exactly one of them true, each enforcing ``p`` inside its step: the value is their weighted sum,
exact for every value of ``p``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...semantics.values import OplArray, show
from ...syntax import ast as A
from ..functions.builtins import builtin
from .constraints import CpConstraint, need_cp
from ..forms.cp_record import conditional
from ..forms.errors import EvalError
from .intervals import IntervalVar, arity, data_int_arg, interval_arg
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr

#: IBM's granularity of an intensity: the function is a percentage (IloIntervalVar::setIntensity)
GRANULARITY = 100


@dataclass(frozen=True)
class StepFunction:
    """A step function: ``values[0]`` before ``times[0]``, ``values[k]`` on ``[times[k-1], times[k])``,
    ``values[-1]`` from ``times[-1]`` on (``len(values) == len(times) + 1``; ``times`` do not decrease)."""

    times: tuple
    values: tuple

    def __call__(self, t: float) -> Any:
        """The value at ``t`` (a number)."""
        k = sum(1 for x in self.times if x <= t)
        return self.values[k]

    def apply(self, ev: Any, node: A.Call, env: dict) -> Any:
        """``F(t)`` in the model: see :func:`apply_step_function`."""
        return apply_step_function(ev, node, self, env)

    def steps(self, lo: int, hi: int) -> list[tuple[int, int, Any]]:
        """The steps met by the integers ``lo..hi``: ``(first, last, value)`` with ``first..last``
        inside ``lo..hi``, neighbours of one value merged, in time order."""
        bounds = [-float("inf")] + list(self.times) + [float("inf")]
        out: list = []
        for k, v in enumerate(self.values):
            a, b = max(lo, bounds[k]), min(hi, bounds[k + 1] - 1)
            if a > b:
                continue
            a, b = int(a), int(b)
            if out and out[-1][2] == v and out[-1][1] == a - 1:
                out[-1] = (out[-1][0], b, v)
            else:
                out.append((a, b, v))
        return out


def evaluate_stepwise(ev: Any, node: A.Stepwise, env: dict) -> StepFunction:
    """The :class:`StepFunction` of ``stepwise(quals){v1 -> t1; ...; vLast}`` (data only)."""
    values, times = [], []
    envs = list(ev.iterate(node.quals, env, node)) if node.quals is not None else [env]
    for e in envs:
        for v, t in zip(node.values, node.times):
            values.append(ev.eval_number(v, e, "a value of `stepwise`"))
            times.append(ev.eval_number(t, e, "a time of `stepwise`"))
    values.append(ev.eval_number(node.last, env, "the last value of `stepwise`"))
    if any(b < a for a, b in zip(times, times[1:])):
        raise EvalError("piecewise-breakpoints-order", node.span, "the times of a `stepwise` function must not "
                        "decrease (IBM: \"you must ensure that the array of values T[i] is sorted\")",
                        help="list the steps in time order")
    return StepFunction(tuple(times), tuple(values))


def step_function_decl(inst: Any, d: A.ParamDecl, dims: list, envs: list) -> Any:
    """``stepFunction F[dims] = stepwise...;``: the value to declare (a :class:`StepFunction` or an array)."""
    if d.init is None or isinstance(d.init, A.External):
        raise EvalError("unsupported-cp-variable", d.type.span, "a `stepFunction` is given in the model, as "
                        "`stepFunction F = stepwise{v1 -> t1; ...; vLast};`, and `%s` has no such value" % d.name,
                        help="write its steps with `stepwise` in the declaration")
    data = {}
    for key, env in envs:
        v = inst.ev.evaluate(d.init, env)
        if not isinstance(v, StepFunction):
            raise EvalError("cp-bad-argument", d.init.span, "a `stepFunction` is declared with `stepwise{...}`, "
                            "and this is %s" % show(v), help="write `stepFunction F = stepwise{100 -> 5; 0 -> 7; 100};`")
        data[key] = v
    return OplArray(d.name, dims, data) if dims else data[()]


def apply_step_function(ev: Any, node: A.Call, f: StepFunction, env: dict) -> Any:
    """``F(t)`` with ``F`` a step function and ``t`` data: its value there."""
    arity(node, 1, 1)
    t = ev.evaluate(node.args[0], env)
    if isinstance(t, bool):
        t = int(t)
    if not is_number(t):
        raise EvalError("cp-bad-argument", node.args[0].span, "a step function is applied to a number here; for "
                        "its value at a decision use `startEval(a, %s)` and the like" % node.func,
                        help="apply `%s` to data, or use `startEval`/`endEval`/`sizeEval`/`lengthEval`" % node.func)
    return f(t)


def _function(ev: Any, node: A.Call, k: int, env: dict) -> StepFunction:
    f = ev.evaluate(node.args[k], env)
    if not isinstance(f, StepFunction):
        raise EvalError("cp-bad-argument", node.args[k].span, "`%s` takes a `stepFunction` here, but this is %s" % (
            node.func, show(f) if not isinstance(f, LinExpr) else "a decision expression"),
            help="declare `stepFunction F = stepwise{...};` and pass `F` (a `pwlFunction` is not taken here)")
    return _integer_function(f, node.args[k])


def _integer_function(f: StepFunction, node: A.Node) -> StepFunction:
    bad = next((x for x in f.times + f.values if float(x) != int(x)), None)
    if bad is not None:
        raise EvalError("cp-bad-argument", node.span, "a step function used with interval variables has integer "
                        "times and values (IBM: \"the domain and image of the function are limited to integers\"), "
                        "and %s is not one" % show(bad), help="scale the time unit or the values to whole numbers")
    return StepFunction(tuple(int(x) for x in f.times), tuple(int(x) for x in f.values))


def _steps_of(inst: Any, f: Any, e: LinExpr, span: Any) -> list[tuple[int, int, Any, Any]]:
    """The pieces of ``f`` (a :class:`StepFunction` or :class:`PwlFunction`) over the values of the integer
    expression ``e``, each ``(first, last, value, literal)``: the 0/1 column true exactly when ``e`` lies in
    ``first..last`` (one of them is true; None for a single piece); ``value`` a number (a step) or
    ``(slope, intercept)`` as fractions (a piece of a piecewise-linear function)."""
    lo, hi = inst.bounds(e)
    steps = f.steps(int(lo), int(hi))
    out = []
    pick = LinExpr(None, -1.0)
    for a, b, v in steps:
        if len(steps) == 1:
            out.append((a, b, v, None))
            return out
        z = inst.new_column(0.0, 1.0, True, "step")
        conditional(inst, e, float(a), float(b), [(z, True)], span)
        pick.iadd(LinExpr.var(z))
        out.append((a, b, v, z))
    inst.add_aux_row(pick, 0.0, 0.0, span)  # exactly one step holds e
    return out


def value_at(inst: Any, f: Any, e: LinExpr, span: Any, absent: Any = None, presence: int | None = None) -> LinExpr:
    """``F(e)`` for the integer expression ``e``: for a step function the sum of each step's value times its
    literal; for a piecewise-linear one ``N / D``, ``N`` an integer column equal to ``D * (slope * e +
    intercept)`` on the piece its literal picks, ``D`` the least common denominator (exact).  With
    ``presence`` (an optional interval's column): ``absent`` when it is 0."""
    from fractions import Fraction
    from math import lcm

    pieces = _steps_of(inst, f, e, span)
    if isinstance(f, StepFunction):
        out = LinExpr(None, 0.0)
        for _a, _b, v, z in pieces:
            out.iadd(LinExpr(None, float(v)) if z is None else LinExpr({z: float(v)}))
        return out if presence is None else _or_absent(inst, out, absent, presence, span)
    fr = [Fraction(absent or 0)] + [x for _a, _b, v, _z in pieces for x in v]
    d = lcm(*[x.denominator for x in fr]) if fr else 1
    ends = [d * (v[0] * x + v[1]) for a, b, v, _z in pieces for x in (a, b)]
    if presence is not None:
        ends.append(d * Fraction(absent or 0))
    n = inst.new_column(float(min(ends)), float(max(ends)), True, "pwl_value")
    for _a, _b, (slope, icpt), z in pieces:  # n - d * slope * e == d * intercept on the piece
        row = LinExpr({n: 1.0})
        row.iadd(e, -float(d * slope))
        when = ([] if z is None else [(z, True)]) + ([] if presence is None else [(presence, True)])
        conditional(inst, row, float(d * icpt), float(d * icpt), when, span)
    if presence is not None:
        conditional(inst, LinExpr({n: 1.0}), float(d * Fraction(absent)), float(d * Fraction(absent)),
                    [(presence, False)], span)
    return LinExpr({n: 1.0 / d})


def _or_absent(inst: Any, val: LinExpr, absent: Any, presence: int, span: Any) -> LinExpr:
    lo, hi = inst.bounds(val)
    t = inst.new_column(min(lo, absent), max(hi, absent), True, "eval")
    d = LinExpr({t: 1.0})
    d.iadd(val, -1.0)
    conditional(inst, d, 0.0, 0.0, [(presence, True)], span)
    conditional(inst, LinExpr({t: 1.0}), absent, absent, [(presence, False)], span)
    return LinExpr.var(t)


@dataclass(frozen=True)
class PwlFunction:
    """A piecewise-linear function (a ``pwlFunction`` or ``piecewise{...}(x0, y0)`` given to ``startEval``
    and the others), as pyopl reads ``piecewise`` (pyopl/lowering/linearise/piecewise.py; a repeated breakpoint is
    a step, its value from the breakpoint on)."""

    slopes: tuple
    breaks: tuple
    x0: float
    y0: float

    def __call__(self, t: float) -> float:
        from ..linearise.piecewise import _jump, _value, split_steps

        slopes, breaks, steps = split_steps(list(self.slopes), list(self.breaks))
        return _value(slopes, breaks, self.x0, self.y0, t) + _jump(steps, t) - _jump(steps, self.x0)

    def steps(self, lo: int, hi: int) -> list[tuple[int, int, tuple]]:
        """The pieces met by the integers ``lo..hi``: ``(first, last, (slope, intercept))``, exact
        fractions; a piece between breakpoints ``b1 < b2`` holds the integers of ``[b1, b2)``."""
        import math

        cuts = sorted(set(b for b in self.breaks if lo < b <= hi))
        out = []
        starts = [lo] + [math.ceil(b) for b in cuts]
        for k, a in enumerate(starts):
            b = (starts[k + 1] - 1) if k + 1 < len(starts) else hi
            if a > b or (out and a <= out[-1][1]):
                continue
            slope = _exact(self(b) - self(a)) / (b - a) if b > a else _exact(0)
            out.append((a, b, (slope, _exact(self(a)) - slope * a)))
        return out


def _exact(x: float) -> Any:
    """``x`` as the fraction (denominator up to 10^6) it equals to within 10^-9; EvalError otherwise."""
    from fractions import Fraction

    f = Fraction(x).limit_denominator(10 ** 6)
    if abs(float(f) - x) > 1e-9 * max(1.0, abs(x)):
        raise ValueError(x)
    return f


def _pwl_of(ev: Any, node: A.Piecewise, env: dict) -> PwlFunction:
    """The :class:`PwlFunction` of ``piecewise(quals){s1 -> b1; ...; sLast}(x0, y0)`` without argument."""
    from ..linearise.piecewise import piecewise_data

    slopes, breaks, x0, y0 = piecewise_data(ev, node, env)
    return PwlFunction(tuple(slopes), tuple(breaks), x0, y0)


def _point(iv: IntervalVar, part: str) -> LinExpr:
    if part == "length":
        return LinExpr({iv.end: 1.0, iv.start: -1.0})
    return LinExpr.var(getattr(iv, part))


def _eval(part: str):  # (startEval & co.: a step function or a piecewise-linear one)
    def handler(ev: Any, node: A.Call, env: dict) -> LinExpr:
        arity(node, 2, 3)
        inst = ev.inst
        need_cp(inst, node.span, "`%s`" % node.func)
        iv = interval_arg(ev, node, 0, env)
        arg = node.args[1]
        if isinstance(arg, A.Piecewise) and arg.arg is None:  # a pwlFunction (pyopl/syntax/pwl.py)
            f = _pwl_of(ev, arg, env)
            absent = ev.eval_number(node.args[2], env, "the absent value") if len(node.args) > 2 else 0
        else:
            f = _function(ev, node, 1, env)
            absent = data_int_arg(ev, node, 2, env, "the absent value")
        try:
            return value_at(inst, f, _point(iv, part), node.span, absent, iv.presence)
        except ValueError as e:
            raise EvalError("cpsat-non-integral", arg.span, "the piecewise-linear function of `%s` takes the value "
                            "%r, which has no exact fraction with a denominator up to 10^6 (CP-SAT computes in "
                            "integers)" % (node.func, e.args[0]), help="round the function's data") from None
    handler.__doc__ = ("``%sEval(a, F[, absent])``: the step function ``F`` at the %s of the interval ``a``, "
                       "``absent`` (0) when ``a`` is absent (OPL Language Quick Reference, \"%sEval\")." % (part, part, part))
    return handler


for _part in ("start", "end", "size", "length"):
    builtin(_part + "Eval")(_eval(_part))


def _allowed(inst: Any, f: StepFunction, e: LinExpr, shift: int, iv: IntervalVar, span: Any) -> None:
    """``e - shift`` is a time where ``f`` is not 0, while ``iv`` is present: CP-SAT's domain constraint."""
    lo, hi = inst.bounds(e)
    ranges = [(a + shift, b + shift) for a, b, v in f.steps(int(lo) - shift, int(hi) - shift) if v != 0]
    if not ranges:  # never allowed: iv is absent
        if iv.presence is None:
            inst.add_aux_row(LinExpr(None, 1.0), 0.0, 0.0, span)  # infeasible, as the constraint says
        else:
            inst.add_aux_row(LinExpr.var(iv.presence), 0.0, 0.0, span)
        return
    b = inst.new_column(0.0, 1.0, True, "allowed")
    inst.cp_constraints.append(CpConstraint("in", [(dict(e.terms), float(e.const))], span,
                                            data={"literal": b, "ranges": ranges}))
    d = LinExpr({b: 1.0})
    if iv.presence is not None:
        d.iadd(LinExpr.var(iv.presence), -1.0)
        inst.add_aux_row(d, 0.0, float("inf"), span)  # present => allowed
    else:
        inst.add_aux_row(d, 1.0, 1.0, span)


def _forbid(kind: str):
    def handler(ev: Any, node: A.Call, env: dict) -> CpConstraint:
        arity(node, 2, 2)
        inst = ev.inst
        need_cp(inst, node.span, "`%s`" % node.func)
        iv = interval_arg(ev, node, 0, env)
        f = _function(ev, node, 1, env)
        if kind == "start":
            _allowed(inst, f, LinExpr.var(iv.start), 0, iv, node.span)
        elif kind == "end":  # F(end - 1) != 0
            _allowed(inst, f, LinExpr.var(iv.end), 1, iv, node.span)
        else:
            _forbid_extent(inst, f, iv, node.span)
        return CpConstraint("posted", [], node.span)
    handler.__doc__ = {
        "start": "``forbidStart(a, F)``: a present ``a`` does not start at a ``t`` with ``F(t) == 0``.",
        "end": "``forbidEnd(a, F)``: a present ``a`` does not end at a ``t`` with ``F(t - 1) == 0``.",
        "extent": "``forbidExtent(a, F)``: a present ``a`` contains no ``t`` (``start <= t < end``) with "
                  "``F(t) == 0``.",
    }[kind] + " (OPL Language Reference, \"Unary constraints on interval variables\")"
    return handler


def _forbid_extent(inst: Any, f: StepFunction, iv: IntervalVar, span: Any) -> None:
    """For each stretch ``z0..z1`` where ``F`` is 0 that ``a`` could meet: ``end <= z0``, ``start >= z1 + 1``
    or ``a`` is empty (``end == start``), one of them while ``a`` is present."""
    lo = int(inst.cols.lower[iv.start])
    hi = int(inst.cols.upper[iv.end])
    can_be_empty = inst.bounds(LinExpr({iv.end: 1.0, iv.start: -1.0}))[0] <= 0
    for z0, z1, v in f.steps(lo, hi - 1):
        if v != 0:
            continue
        choice = LinExpr(None, 0.0)
        for e, lo_b, hi_b in ((LinExpr.var(iv.end), -float("inf"), float(z0)),
                              (LinExpr.var(iv.start), float(z1 + 1), float("inf")),
                              (LinExpr({iv.end: 1.0, iv.start: -1.0}) if can_be_empty else None, -float("inf"), 0.0)):
            if e is None:
                continue
            o = inst.new_column(0.0, 1.0, True, "outside")
            conditional(inst, e, lo_b, hi_b, [(o, True)], span)
            choice.iadd(LinExpr.var(o))
        if iv.presence is not None:
            choice.iadd(LinExpr.var(iv.presence), -1.0)
            inst.add_aux_row(choice, 0.0, float("inf"), span)
        else:
            inst.add_aux_row(choice, 1.0, float("inf"), span)


builtin("forbidStart")(_forbid("start"))
builtin("forbidEnd")(_forbid("end"))
builtin("forbidExtent")(_forbid("extent"))


def intensity_rows(inst: Any, iv: IntervalVar, f: StepFunction, node: A.Node) -> None:
    """``dvar interval a ... intensity F``: ``size * 100 == the integral of F over [start, end)`` (OPL
    Language Quick Reference, "size": granularity 100, the intensity a percentage).  Exact where every
    value of ``F`` is 0 or 100 (the integral is then a multiple of 100: ``size`` counts the time units
    where ``F`` is 100); other values are refused, since IBM's pages do not say how a total that is not
    a whole number of units becomes the integer size.  ``W(t)``, the number of units before ``t`` where
    ``F`` is 100 (counted from the window's start), is linear on each step: ``W(start)`` and ``W(end)``
    come from the steps' literals (:func:`_steps_of`), and ``size == W(end) - W(start)`` while present."""
    f = _integer_function(f, node)
    bad = next((v for v in f.values if v not in (0, GRANULARITY)), None)
    if bad is not None:
        raise EvalError("unsupported-cp-construct", node.span, "an intensity of %s%% is not compiled to CP-SAT: "
                        "pyopl takes intensities of 0 and 100 (a calendar of working and idle units), where the "
                        "size is exactly the number of working units; for a fraction IBM's rounding of the work "
                        "total to an integer size is not documented" % bad,
                        help="use 0 and 100 (scale the time unit so that a partial unit is whole units)")
    lo, hi = int(inst.cols.lower[iv.start]), int(inst.cols.upper[iv.end])
    steps = f.steps(lo, hi)
    total = sum(b - a + 1 for a, b, v in steps if v)

    def worked(x: int) -> int:  # W(x): the units of lo..x-1 where F is 100
        return sum(min(b, x - 1) - a + 1 for a, b, v in steps if v and a <= x - 1)

    def w_of(col: int) -> LinExpr:
        w = inst.new_column(0.0, float(total), True, iv.name + ".worked")
        for a, _b, v, z in _steps_of(inst, f, LinExpr.var(col), node.span):
            e = LinExpr({w: 1.0, col: -1.0 if v else 0.0})  # w - (W(a) + slope * (col - a))
            e.iadd(LinExpr(None, -float(worked(a)) + (a if v else 0)))
            conditional(inst, e, 0.0, 0.0, [] if z is None else [(z, True)], node.span)
        return LinExpr.var(w)

    d = LinExpr({iv.size: 1.0})
    d.iadd(w_of(iv.end), -1.0)
    d.iadd(w_of(iv.start), 1.0)
    conditional(inst, d, 0.0, 0.0, iv.when(), node.span)
