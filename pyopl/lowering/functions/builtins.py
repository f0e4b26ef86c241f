"""OPL's built-in functions (OPL manual, "Functions and operators"): set functions,
numeric functions, and the few that take decision expressions (``abs``, ``maxl``, ``minl``).

:data:`FUNCTIONS` is the one table of callable built-ins: name -> ``handler(ev, node, env)``, each
entry made by :func:`builtin`.  The tree walk (:meth:`Evaluator.e_call
<pyopl.lowering.evaluate.expressions.Evaluator.e_call>`) calls :func:`call_builtin`, which looks the name up
there; a name missing from it is an ``unknown-function`` diagnostic.  To add a built-in: write its
handler here with ``@builtin("name")`` (it raises :class:`EvalError` for every mistake).  A closure
for it in :mod:`pyopl.lowering.evaluate.compiled_calls` is optional (a speed-up for data arguments, tested bit for bit
against this handler by ``tests/test_compiled_builtins.py``); without one, calls to it take the tree walk.
"""
from __future__ import annotations

import bisect
import math
import random
from typing import Any, Callable

from ...diagnostics.reporter import did_you_mean
from ...limits import MAX_ITERATIONS
from ...syntax import ast as A
from ...semantics.values import OplRange, OplSet, OplTuple, is_set, show
from ..forms.budget import check_power
from ..forms.describe import type_word
from ..forms.errors import EvalError
from ..forms.int32 import int_bounds, int_result
from ..forms.value_tests import is_decision, is_number
from ..linearise.minmax import decision_abs, decision_minmax
from ..linearise.cp_arith import cp_power, cp_power_of_data, cp_rounding, cp_sign, float_function_error, is_cp
from ..forms.linear import LinExpr

Handler = Callable[[Any, A.Call, dict], Any]
#: name -> handler(ev, node, env) for every built-in function a call may name (see the module docstring)
FUNCTIONS: dict[str, Handler] = {}


#: Constraint functions of IBM's CP Optimizer (OPL manual, "Constraints available in constraint programming").
CP_FUNCTIONS = frozenset("""allDifferent allMinDistance alternative count distribute endAtEnd endAtStart
endBeforeEnd endBeforeStart forbidEnd forbidExtent forbidStart inverse lex noOverlap pack presenceOf
pulse span startAtEnd startAtStart startBeforeEnd startBeforeStart startOf endOf sizeOf lengthOf
synchronize cumulFunction stateFunction alwaysIn alwaysEqual alwaysConstant alwaysNoState
allowedAssignments forbiddenAssignments element stepAtStart stepAtEnd heightAtStart heightAtEnd
startEval endEval sizeEval lengthEval overlapLength typeOfNext typeOfPrev startOfNext startOfPrev endOfNext
endOfPrev sizeOfNext sizeOfPrev lengthOfNext lengthOfPrev before strong isomorphism step append standardDeviation
sameSequence sameCommonSubsequence cumulFunctionValue stateFunctionValue segmentStart segmentEnd segmentValue
numberOfSegments subCircuit""".split())
#: CP Optimizer functions that IBM also defines on data, outside constraints, in CP and CPLEX models alike
#: (OPL Language Quick Reference, "element", "standardDeviation"): computed when no argument is a decision.
DATA_CP_FUNCTIONS = frozenset({"element", "standardDeviation"})
#: every built-in name the name checker (pyopl/semantics/static.py) accepts, sorted: the callable ones of
#: :data:`FUNCTIONS` (kept in step by :func:`builtin`, also for modules that register later, such as
#: :mod:`pyopl.lowering.cp.constraints`), and OPL names that are values here (``maxint``, ``infinity``) or not supported as calls
#: (``dist``): calling one of those is an ``unknown-function`` diagnostic
BUILTINS: list[str] = sorted(["dist", "maxint", "infinity"])
#: the forms of ``first``, ``last``, ``prev`` on a ``dvar sequence`` (one argument more than the set
#: functions of those names): name -> (number of arguments, handler); filled by :mod:`pyopl.lowering.cp.sequences`
SEQUENCE_FUNCTIONS: dict[str, tuple[int, Handler]] = {}


def builtin(*names: str) -> Callable[[Handler], Handler]:
    """Register the decorated handler in :data:`FUNCTIONS` and :data:`BUILTINS` under each of ``names``
    (each name once; ValueError on a second registration)."""
    def register(fn: Handler) -> Handler:
        for name in names:
            if name in FUNCTIONS:
                raise ValueError("built-in %r registered twice" % name)
            FUNCTIONS[name] = fn
            bisect.insort(BUILTINS, name)
        return fn
    return register


_NUMERIC_1 = {
    "floor": math.floor, "ceil": math.ceil, "round": lambda v: math.floor(v + 0.5), "trunc": math.trunc,
    # IBM's OPL functions: `log` is the base-10 logarithm, `ln` the natural one, `lg` base 2 (OPL
    # Language Quick Reference, "log": log(100) gives 2; "lg": lg(128) gives 7)
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log10, "lg": math.log2, "ln": math.log,
    "frac": lambda v: v - math.trunc(v), "sgn": lambda v: (v > 0) - (v < 0), "sin": math.sin, "cos": math.cos,
    "tan": math.tan, "atan": math.atan, "asin": math.asin, "acos": math.acos,
}
_NUMERIC_1["ftoi"] = math.trunc  # float to int (OPL manual: "ftoi")
_INT_RESULT = {"floor", "ceil", "round", "trunc", "sgn", "ftoi"}
_SET_1 = {"card", "first", "last"}
_SET_2 = {"ord", "next", "prev", "nextc", "prevc", "item"}


def _names_a_sequence(ev: Any, arg: A.Expr) -> bool:
    """Whether ``arg`` names a ``dvar sequence`` (``prev(seq, a, b)``), not a set (``prev(S, e, n)``)."""
    sym = ev.inst.symbols.get(arg.id) if isinstance(arg, A.Name) else None
    return sym is None or sym.kind == "sequence"


def _arity(node: A.Call, n: int) -> None:
    if len(node.args) != n:
        raise EvalError("call-arity", node.span, "`%s` takes %d argument%s, %d given" % (
            node.func, n, "" if n == 1 else "s", len(node.args)),
            help="call it as `%s(%s)`" % (node.func, ", ".join("a%d" % (k + 1) for k in range(n))))


def _number(ev: Any, arg: A.Expr, env: dict, v: Any, what: str) -> Any:
    """``v``, the value of ``arg`` already computed, checked as ``ev.eval_number`` checks it.

    The argument is evaluated once (nested calls such as ``ftoi(pow(2, ord(S, i)))`` used to
    evaluate each level twice, 2**depth in all); only a value that is not a number is evaluated
    again, so that the Evaluator words the diagnostic.
    """
    if isinstance(v, bool):
        return int(v)
    if is_number(v):
        return v
    return ev.eval_number(arg, env, what)


def call_builtin(ev: Any, node: A.Call, env: dict) -> Any:
    """The value of the built-in call ``node`` (its handler from :data:`FUNCTIONS`); raises
    :class:`EvalError` (``unknown-function`` with a near-miss suggestion) for a name that is not one."""
    handler = FUNCTIONS.get(node.func)
    if handler is None:
        return _unknown(ev, node, env)  # (element/standardDeviation on data give their value; the rest raise)
    return handler(ev, node, env)


@builtin(*_NUMERIC_1)
def _numeric_1(ev: Any, node: A.Call, env: dict) -> Any:
    f = node.func
    _arity(node, 1)
    v = ev.evaluate(node.args[0], env)
    if is_decision(v) and is_cp(ev.inst) and isinstance(v, LinExpr):  # pyopl/lowering/linearise/cp_arith.py
        if f == "sgn":
            return cp_sign(ev.inst, v, node.span)
        if f in _INT_RESULT:
            return cp_rounding(ev.inst, f, v, node.span)
        raise float_function_error(f, node)
    if is_decision(v):
        raise EvalError("nonlinear-function", node.span, "`%s` of a decision expression is not linear" % f,
                        help="apply `%s` to data only; for rounding decisions use an `int` variable" % f)
    v = _number(ev, node.args[0], env, v, "the argument of `%s`" % f)
    try:
        r = _NUMERIC_1[f](v)
    except (ValueError, OverflowError):
        raise EvalError("math-domain", node.span, "`%s(%s)` is not defined" % (f, show(v)),
                        help="check the argument's range (for example `sqrt` and `log` need positive values)")
    return int_result(int(r), node, int_bounds(ev.inst)) if f in _INT_RESULT else r


@builtin("abs")
def _abs(ev: Any, node: A.Call, env: dict) -> Any:
    _arity(node, 1)
    v = ev.evaluate(node.args[0], env)
    if is_decision(v):
        return decision_abs(ev, node, v)
    r = abs(_number(ev, node.args[0], env, v, "the argument of `abs`"))
    return int_result(r, node, int_bounds(ev.inst)) if type(r) is int else r


@builtin("pow")
def _pow(ev: Any, node: A.Call, env: dict) -> Any:
    _arity(node, 2)
    if is_cp(ev.inst):  # a decision base or exponent (pyopl/lowering/linearise/cp_arith.py)
        a, b = ev.evaluate(node.args[0], env), ev.evaluate(node.args[1], env)
        if isinstance(a, LinExpr) and is_number(b):
            return cp_power(ev.inst, a, b, node.span)
        if is_number(a) and isinstance(b, LinExpr):
            return cp_power_of_data(ev.inst, a, b, node.span)
    a = ev.eval_number(node.args[0], env, "the base of `pow`")
    b = ev.eval_number(node.args[1], env, "the exponent of `pow`")
    check_power(node, a, b)  # (before computing)
    try:
        return a ** b
    except (ZeroDivisionError, OverflowError):
        raise EvalError("math-domain", node.span, "`pow(%s, %s)` is not defined" % (show(a), show(b)),
                        help="check the arguments")


@builtin("minl", "maxl", "min", "max")
def _min_max(ev: Any, node: A.Call, env: dict) -> Any:
    f = node.func
    if not node.args:
        raise EvalError("call-arity", node.span, "`%s` needs at least one argument" % f, help="pass the values to compare")
    vals = [ev.evaluate(a, env) for a in node.args]
    op = "min" if f in ("minl", "min") else "max"
    if any(is_decision(v) for v in vals):
        return decision_minmax(ev, node, op, vals)
    if len(vals) == 1 and is_set(vals[0]):
        vals = list(vals[0])
    for v, a in zip(vals, node.args):
        if not is_number(v) and not isinstance(v, bool):
            raise EvalError("type-expected-number", a.span, "`%s` compares numbers, not %s" % (f, type_word(v)),
                            help="pass numeric arguments")
    if not vals:
        raise EvalError("empty-aggregate", node.span, "`%s` of an empty set" % f, help="check the set is not empty")
    return min(vals) if op == "min" else max(vals)


@builtin("staticLex")
def _static_lex(ev: Any, node: A.Call, env: dict) -> Any:
    raise EvalError("staticlex-position", node.span, "`staticLex` can only be the whole objective",
                    help="write `minimize staticLex(e1, e2, ...);`")


def _on_data(ev: Any, node: A.Call, env: dict | None) -> Any:
    """``element(a, n)`` and ``standardDeviation(a)`` when no argument is a decision (OPL Language Quick
    Reference: ``element`` is the item at position ``n``, from 0, of the flattened array; the standard
    deviation uses the n formula); None when one is (a CP Optimizer expression: refused by the caller)."""
    import itertools

    from ...semantics.values import ArraySlice, OplArray
    from .array_args import array_items

    env = env if env is not None else {}
    f = node.func
    if len(node.args) != (2 if f == "element" else 1):
        raise EvalError("call-arity", node.span, "`%s` takes %s" % (f, "an array and a position" if f == "element"
                                                                     else "one array"), help="see IBM's page on `%s`" % f)
    arg = node.args[0]
    v = ev.evaluate(arg, env) if isinstance(arg, A.Name) else None
    if isinstance(v, OplArray) and len(v.dims) > 1:  # the flattened view: last index fastest
        data = v.data
        vals = [data.get(k) for k in itertools.product(*(list(d) for d in v.dims))]
    elif isinstance(v, ArraySlice) and not hasattr(v.array, "cols") and len(v.array.dims) - len(v.prefix) > 1:
        data, pre = v.array.data, tuple(v.prefix)
        vals = [data.get(pre + k) for k in itertools.product(*(list(d) for d in v.array.dims[len(pre):]))]
    else:
        vals = array_items(ev, arg, env, f)
    pos = ev.evaluate(node.args[1], env) if f == "element" else None
    if any(is_decision(x) for x in vals) or is_decision(pos):
        return None
    for x, a in ((x, arg) for x in vals):
        if not is_number(x) or isinstance(x, bool):
            raise EvalError("type-expected-number", a.span, "`%s` takes an array of numbers, not of %s" % (
                f, type_word(x)), help="pass an `int` or `float` array")
    if f == "element":
        if not is_number(pos) or float(pos) != int(pos) or not 0 <= int(pos) < len(vals):
            raise EvalError("index-out-of-set", node.args[1].span, "`element`: position %s is outside 0..%d" % (
                pos, len(vals) - 1), help="positions count from 0 in the flattened array")
        return vals[int(pos)]
    if not vals:
        raise EvalError("empty-aggregate", node.span, "`standardDeviation` of an empty array",
                        help="pass an array with at least one item")
    mean = sum(vals) / len(vals)
    return math.sqrt(sum((x - mean) ** 2 for x in vals) / len(vals))


def _unknown(ev: Any, node: A.Call, env: dict | None = None) -> Any:
    f = node.func
    sym = ev.inst.symbols.get(f) if env is None or f not in env else None
    if sym is not None and type(sym.value).__name__ == "StepFunction":  # `F(t)` (pyopl/lowering/cp/step_functions.py)
        return sym.value.apply(ev, node, env)
    if f in DATA_CP_FUNCTIONS:  # on data (IBM: "also works for integer arrays outside constraint blocks")
        got = _on_data(ev, node, env)
        if got is not None:
            return got
    if f in CP_FUNCTIONS:  # IBM's, not compiled (the static check names most of them before this point)
        if getattr(ev.inst, "engine", "mp") == "cp":
            raise EvalError("unsupported-cp-construct", node.func_span or node.span, "`%s` is a CP Optimizer function "
                            "that pyopl does not yet compile to CP-SAT" % f, help="docs/cp.md lists what runs")
        raise EvalError("unsupported-cp-function", node.func_span or node.span, "`%s` is a CP Optimizer function, "
                        "which pyopl does not support" % f, help="docs/cp.md lists the CP functions pyopl runs")
    known = BUILTINS + sorted(ev.inst.symbol_names())
    hint = did_you_mean(f, known)
    raise EvalError("unknown-function", node.func_span or node.span, "`%s` is not a known function" % f,
                    help=hint or "OPL functions include abs, card, ord, first, last, next, prev, item, minl, maxl, "
                                 "floor, ceil, round, sqrt, exp, log, pow")


@builtin(*sorted(_SET_1 | _SET_2 | {"asSet"}))
def _set_function(ev: Any, node: A.Call, env: dict) -> Any:
    f = node.func
    seq_form = SEQUENCE_FUNCTIONS.get(f)
    if seq_form is not None and len(node.args) == seq_form[0] and _names_a_sequence(ev, node.args[0]):
        return seq_form[1](ev, node, env)  # first(p, a), last(p, a), prev(p, a, b) on a sequence
    if f in _SET_1 or f == "asSet":
        _arity(node, 1)
    elif f in ("next", "prev", "nextc", "prevc") and len(node.args) == 3:
        pass  # next(S, e, n): the n-th next (OPL Language Quick Reference, "next")
    else:
        _arity(node, 2)
    s = ev.eval_data(node.args[0], env, "the first argument of `%s`" % f)
    if f == "asSet":
        if isinstance(s, (OplRange, OplSet)):
            ev.inst.budget.spend(s.size if isinstance(s, OplRange) else len(s), node)  # (before copying)
            if isinstance(s, OplRange) and s.size > MAX_ITERATIONS:  # within the budget, still gigabytes
                raise EvalError("limit-too-large", node.span, "`asSet` of the range %s would make a set of %s elements, "
                                "more than pyopl makes (%s)" % (show(s), f"{s.size:,}", f"{MAX_ITERATIONS:,}"),
                                help="iterate over the range itself (`i in %s`) instead of copying it into a set" % show(s))
            ev.inst.budget.hold(s.size if isinstance(s, OplRange) else len(s), node)
            return OplSet(list(s), getattr(s, "elem_type", None))
        if isinstance(s, list):
            return OplSet(s)
    if not is_set(s):
        raise EvalError("type-expected-set", node.args[0].span, "`%s` needs a set, not %s" % (f, type_word(s)),
                        help="pass a set or a range")
    if f == "card":
        return int_result(s.size, node, int_bounds(ev.inst)) if isinstance(s, OplRange) else len(s)  # (OPL's card is a 32-bit int)
    if f in ("first", "last"):
        if len(s) == 0:
            raise EvalError("empty-set-access", node.span, "`%s` of an empty set" % f, help="check the set is not empty")
        if isinstance(s, OplRange):
            return s.lo if f == "first" else s.hi
        return s.item(0) if f == "first" else s.item(len(s) - 1)
    v = ev.eval_data(node.args[1], env, "the second argument of `%s`" % f)
    if f == "item" and isinstance(v, (OplTuple, tuple)) and not isinstance(v, bool):
        return _item_by_key(s, v, node)
    if f == "item":
        if not is_number(v) or not float(v).is_integer():
            raise EvalError("type-int-expected", node.args[1].span, "`item` needs an integer position, got %s" % show(v),
                            help="positions are 0-based integers")
        k = int(v)
        if not 0 <= k < len(s):
            raise EvalError("set-position-out-of-range", node.args[1].span,
                            "position %d is outside the set, whose positions are 0..%d (positions are 0-based)" % (k, len(s) - 1),
                            help="use a position between 0 and card(set) - 1")
        return s.item(k)
    if v not in s and isinstance(v, (OplTuple, tuple)) and isinstance(s, OplSet) and s.by_key(tuple(v)) is not None:
        v = s.by_key(tuple(v))  # `ord(S, <"HNL">)`: the tuple of S with those key fields (OPL's key lookup)
    if v not in s:
        raise EvalError("set-element-missing", node.args[1].span, "%s is not an element of the set %s" % (show(v), show(s)),
                        help="`%s` needs an element of the set" % f)
    k = s.ord(v)
    if f == "ord":
        return k
    n = len(s)
    step = 1
    if len(node.args) == 3:
        step = ev.eval_number(node.args[2], env, "the step of `%s`" % f)
        if not float(step).is_integer():
            raise EvalError("type-int-expected", node.args[2].span, "`%s` needs an integer step, got %s" % (f, show(step)),
                            help="`%s(S, e, n)` is the n-th %s element" % (f, "next" if f.startswith("next") else "previous"))
        step = int(step)
    if f == "next":
        if k + step >= n or k + step < 0:
            raise EvalError("set-next-past-end", node.span, "`next` %sof %s goes past the last element" % (
                "by %d " % step if step != 1 else "", show(v)),
                help="use `nextc` to wrap around, or filter the last element%s out" % ("s" if step > 1 else ""))
        return s.item(k + step)
    if f == "prev":
        if k - step < 0 or k - step >= n:
            raise EvalError("set-next-past-end", node.span, "`prev` %sof %s goes past the first element" % (
                "by %d " % step if step != 1 else "", show(v)),
                help="use `prevc` to wrap around, or filter the first element%s out" % ("s" if step > 1 else ""))
        return s.item(k - step)
    if f == "nextc":
        return s.item((k + step) % n)
    return s.item((k - step) % n)  # prevc


@builtin("rand")
def _rand(ev: Any, node: A.Call, env: dict) -> Any:
    """``rand(n)``: a pseudo-random integer in ``0..n-1`` (``rand()``: a float in [0, 1)).

    Seeded once per compile, so the data are the same every time, but not CPLEX's numbers:
    a warning says so (once per model)."""
    inst = ev.inst
    rng = getattr(inst, "_rng", None)
    if rng is None:
        rng = inst._rng = random.Random(20240531)
        inst.reporter.emit("rand-not-reproducible", node.span,
                           "`rand` gives seeded pseudo-random data here, not the numbers CPLEX would draw",
                           help="the optimum will differ from OPL's; give the data explicitly to reproduce a result")
    if not node.args:
        return rng.random()
    _arity(node, 1)
    n = ev.eval_number(node.args[0], env, "the argument of `rand`")
    if n < 1 or not float(n).is_integer():
        raise EvalError("math-domain", node.args[0].span, "`rand(%s)` needs a positive integer" % show(n),
                        help="call it as `rand(n)` for an integer in 0..n-1")
    return rng.randrange(int(n))


def _item_by_key(s: Any, v: Any, node: A.Call) -> Any:
    """``item(S, <k1, ...>)``: the tuple of ``S`` whose ``key`` fields equal the given values
    (the whole tuple when the type declares no keys). OPL manual, "item" on tuple sets."""
    hit = s.by_key(tuple(v)) if isinstance(s, OplSet) else None
    if hit is None and v in s:
        hit = s.item(s.ord(v))
    if hit is None:
        et = getattr(s, "elem_type", None)
        keys = list(getattr(et, "keys", None) or [])
        what = "key %s =" % ", ".join("`%s`" % k for k in keys) if keys else "value"
        owner = "`%s`" % node.args[0].id if isinstance(node.args[0], A.Name) else "the set"
        raise EvalError("set-element-missing", node.args[1].span, "no tuple of %s has the %s %s" % (owner, what, show(v)),
                        help="`item(S, <...>)` looks a tuple up by its key fields; check the key values and their order"
                        + (" (%s)" % ", ".join(keys) if keys else ""))
    return hit



