"""Closures for built-in calls and casts over data (see :mod:`pyopl.lowering.evaluate.compiled` for the contract).

A data filter such as ``(k div ftoi(pow(2, ord(S, i)))) mod 2 == 1`` is evaluated once per candidate,
millions of times in a computed set; the tree walk goes through :func:`call_builtin
<pyopl.lowering.functions.builtins.call_builtin>` and its checks at every level.  A closure here computes what
``call_builtin`` (or :meth:`Evaluator.e_cast`) computes, with the same Python operations on the same
values, for the plain cases only: numbers of type ``int``/``float``/``bool`` for the numeric
functions, an :class:`OplSet` or :class:`OplRange` for the set functions.  Anything else (a decision
expression, which ``abs``/``min``/``max`` linearise with new columns; a wrong type; an element not in
the set; a math domain error; ``rand`` with its generator; ``asSet``; a wrong number of arguments)
raises, and the tree walk evaluates the node and reports what it always reported.  A call remembers
its values by the values of the names it reads (:func:`_memoised`): in such a filter,
``ftoi(pow(2, ord(S, i)))`` is computed once per ``i``, not once per ``(k, i)``.
"""
from __future__ import annotations

from typing import Any

from ...semantics.values import OplRange, OplSet
from ...syntax import ast as A
from ..forms.budget import MAX_POWER_BITS, power_bits
from ..functions.builtins import _INT_RESULT, _NUMERIC_1
from ..forms.int32 import INT_MAX, INT_MIN
from .closure_types import _BIG, _MISSING, _NEG_BIG, MAX_DEPTH, Closure, Compile, _Bail, _Unsupported
from ..forms.linear import Leaf, LinExpr, Logic, QuadExpr
from ..arrays.vectorised import _names  # every Name read under a node (the AST walk the array paths use)

_MEMO_SIZE = 4096  # values a call keeps at most (see `_memoised`)
_SET_ARITY = {"card": 1, "first": 1, "last": 1, "ord": 2, "next": 2, "prev": 2, "nextc": 2, "prevc": 2, "item": 2}


def _num(v: Any) -> Any:
    """``v`` as ``Evaluator.eval_number`` passes it on (a boolean as 0/1); raises :class:`_Bail` for
    anything that is not a plain number (the tree walk words that error)."""
    t = type(v)
    if t is int or t is float:
        return v
    if t is bool:
        return int(v)
    raise _Bail


def compile_call(ev: Any, node: A.Call, depth: int, compile_expr: Compile) -> Closure:
    """A closure computing ``call_builtin(ev, node, env)`` for data arguments (module docstring), its
    values remembered by the values of the names it reads (see :func:`_memoised`); ``compile_expr``
    makes an argument's closure (:func:`pyopl.lowering.evaluate.compiled.compile_expr`)."""
    return _memoised(_call_closure(ev, node, depth, compile_expr), sorted(set(_names(node))))


def _memoised(fn: Closure, names: list[str]) -> Closure:
    """``fn`` remembering its values by the values of ``names`` in ``env``.

    ``ftoi(pow(2, ord(S, i)))`` in a filter evaluated for every ``k`` and ``i`` has one value per ``i``.
    A call's value depends on nothing else: a name missing from ``env`` is a declared name, whose
    value never changes once it has one (``_name`` in compiled.py keeps it too), and an array element
    never changes once it is there.  Only ``int`` and ``str`` keys are used (``1``, ``1.0`` and
    ``True`` are equal keys; ``-0.0`` and ``0.0`` too) and only ``int``/``float``/``bool``/``str``
    values are kept (immutable; a linear form is made anew each time).  A call whose keys do not
    repeat keeps no more than :data:`_MEMO_SIZE` values.
    """
    memo: dict = {}

    def value(key: Any, env: dict) -> Any:
        v = memo.get(key, _MISSING)
        if v is _MISSING:
            v = fn(env)  # (an exception, a fall back, is not remembered)
            t = type(v)
            if (t is int or t is float or t is bool or t is str) and len(memo) < _MEMO_SIZE:
                memo[key] = v
        return v
    if len(names) == 2:  # (the common case without a loop: `ord(S, i)`)
        n0, n1 = names

        def memoised2(env: dict) -> Any:
            a = env.get(n0, _MISSING)
            b = env.get(n1, _MISSING)
            ta, tb = type(a), type(b)
            if (ta is int or ta is str or a is _MISSING) and (tb is int or tb is str or b is _MISSING):
                v = memo.get((a, b), _MISSING)
                return v if v is not _MISSING else value((a, b), env)
            return fn(env)
        return memoised2

    def memoised(env: dict) -> Any:
        key = tuple([env.get(n, _MISSING) for n in names])
        for k in key:
            t = type(k)
            if t is not int and t is not str and k is not _MISSING:
                return fn(env)
        return value(key, env)
    return memoised


def _arg(ev: Any, node: A.Expr, depth: int, compile_expr: Compile) -> Closure:
    """``compile_expr`` for an argument: a call directly inside a call is not remembered again."""
    if type(node) is A.Call:
        if depth >= MAX_DEPTH:
            raise _Unsupported
        return _call_closure(ev, node, depth + 1, compile_expr)
    return compile_expr(ev, node, depth)


def _call_closure(ev: Any, node: A.Call, depth: int, compile_expr: Compile) -> Closure:
    f, args = node.func, node.args
    if f in _NUMERIC_1:
        if len(args) != 1:
            raise _Unsupported
        return _numeric1(f, _arg(ev, args[0], depth, compile_expr))
    if f == "abs":
        if len(args) != 1:
            raise _Unsupported
        arg = _arg(ev, args[0], depth, compile_expr)

        def absolute(env: dict) -> Any:
            r = abs(_num(arg(env)))
            if type(r) is int and not INT_MIN <= r <= INT_MAX:
                raise _Bail  # the tree walk reports the 32-bit overflow
            return r
        return absolute
    if f == "pow":
        if len(args) != 2:
            raise _Unsupported
        base, exponent = _arg(ev, args[0], depth, compile_expr), _arg(ev, args[1], depth, compile_expr)
        a0 = args[0].value if type(args[0]) is A.Const else None
        if type(a0) is int or type(a0) is float:  # `pow(2, k)`: the base read once
            def power_of(env: dict) -> Any:
                b = exponent(env)
                t = type(b)
                if t is not int and t is not float:
                    b = _num(b)
                if power_bits(a0, b) >= MAX_POWER_BITS:
                    raise ValueError("too large")  # (the tree walk reports it, before computing)
                return a0 ** b  # (ZeroDivisionError, OverflowError: the tree walk reports them)
            return power_of

        def power(env: dict) -> Any:
            a = _num(base(env))  # the base is checked before the exponent is evaluated, as in the tree walk
            b = _num(exponent(env))
            if power_bits(a, b) >= MAX_POWER_BITS:
                raise ValueError("too large")  # (the tree walk reports it, before computing)
            return a ** b
        return power
    if f in ("minl", "maxl", "min", "max"):
        if not args:
            raise _Unsupported
        return _minmax(min if f in ("minl", "min") else max, [_arg(ev, a, depth, compile_expr) for a in args])
    if f in _SET_ARITY:
        if len(args) != _SET_ARITY[f]:
            raise _Unsupported
        return _set_function(f, [_arg(ev, a, depth, compile_expr) for a in args],
                             [a.id if type(a) is A.Name else None for a in args])
    raise _Unsupported  # rand (a generator and a warning), asSet, staticLex, unknown names


def _numeric1(f: str, arg: Closure) -> Closure:
    fn = _NUMERIC_1[f]
    if f in _INT_RESULT:
        def to_int(env: dict) -> Any:
            v = arg(env)
            t = type(v)
            if t is not int and t is not float:
                v = _num(v)
            r = int(fn(v))  # (ValueError, OverflowError: reported by the tree walk)
            if not INT_MIN <= r <= INT_MAX:
                raise _Bail  # the tree walk reports the 32-bit overflow
            return r
        return to_int

    def numeric(env: dict) -> Any:
        v = arg(env)
        t = type(v)
        if t is not int and t is not float:
            v = _num(v)
        return fn(v)
    return numeric


def _minmax(pick: Any, fns: list[Closure]) -> Closure:
    if len(fns) == 1:
        only = fns[0]

        def of_one(env: dict) -> Any:
            v = only(env)
            t = type(v)
            if t is OplSet or t is OplRange:
                vals = list(v)  # `max(S)`: the set's elements
                if not vals:
                    raise _Bail  # an empty set: reported by the tree walk
                t = type(vals[0])  # the tree walk checks this first element only (as zip stops there)
                if t is not int and t is not float and t is not bool:
                    raise _Bail
                return pick(vals)
            if t is not int and t is not float and t is not bool:
                raise _Bail
            return pick([v])
        return of_one

    def of_many(env: dict) -> Any:
        vals = [f(env) for f in fns]
        for v in vals:
            t = type(v)
            if t is not int and t is not float and t is not bool:
                raise _Bail  # decisions (linearised with new columns) and errors: the tree walk's business
        return pick(vals)
    return of_many


def _set_of(v: Any) -> Any:
    t = type(v)
    if t is not OplSet and t is not OplRange:
        raise _Bail
    return v


def _set_function(f: str, fns: list[Closure], names: list) -> Closure:
    s_fn = fns[0]
    if f == "card":
        return lambda env: len(_set_of(s_fn(env)))
    if f in ("first", "last"):
        first = f == "first"

        def end(env: dict) -> Any:
            s = _set_of(s_fn(env))
            n = len(s)
            if n == 0:
                raise _Bail
            return s.item(0) if first else s.item(n - 1)
        return end
    v_fn = fns[1]
    if f == "item":
        def item(env: dict) -> Any:
            s = _set_of(s_fn(env))
            v = v_fn(env)
            t = type(v)
            if t is int and _NEG_BIG < v < _BIG:
                k = v
            elif t is float and v.is_integer():
                k = int(v)
            else:
                raise _Bail
            if not 0 <= k < len(s):
                raise _Bail
            return s.item(k)
        return item
    step = {"ord": None, "next": 1, "prev": -1, "nextc": 1, "prevc": -1}[f]
    wrap = f in ("nextc", "prevc")
    s_name, v_name = names
    seen: list = [None, None]  # the set met last and its `positions()` (what its `in` and `ord` read)

    def position(env: dict) -> Any:
        s = env.get(s_name, _MISSING)  # (a name is read here, one call less; None is never in `env`)
        if s is _MISSING:
            s = s_fn(env)
        v = env.get(v_name, _MISSING)
        if v is _MISSING:
            v = v_fn(env)
        t = type(v)
        if t is LinExpr or t is QuadExpr or t is Leaf or t is Logic:
            raise _Bail  # (a decision is refused by the tree walk's `eval_data` before the test)
        if s is seen[0]:
            k = seen[1].get(v)  # (TypeError for an unhashable tuple, where `in` says False: bails)
            if k is None:
                raise _Bail
        else:
            if type(s) is OplSet:
                seen[0], seen[1] = s, s.positions()
            elif type(s) is not OplRange:
                raise _Bail
            if v not in s:
                raise _Bail
            k = s.ord(v)
        if step is None:
            return k
        n = len(s)
        if wrap:
            return s.item((k + step) % n)
        k += step
        if k < 0 or k >= n:
            raise _Bail
        return s.item(k)
    return position


def compile_cast(ev: Any, node: A.Cast, depth: int, compile_expr: Compile) -> Closure:
    """A closure computing ``Evaluator.e_cast(node, env)`` for a plain number."""
    arg = compile_expr(ev, node.arg, depth)
    if node.type == "int":
        def to_int(env: dict) -> Any:
            r = int(_num(arg(env)))  # (ValueError, OverflowError for nan and inf: reported by the tree walk)
            if not INT_MIN <= r <= INT_MAX:
                raise _Bail  # the tree walk reports the 32-bit overflow
            return r
        return to_int
    return lambda env: float(_num(arg(env)))
