"""Expressions compiled once into Python closures, for the paths that evaluate one tree many times.

A ``forall`` evaluates its constraint once per iteration, a filter once per candidate and
a ``sum`` that NumPy does not take its body once per term: the tree walk of
:meth:`Evaluator.evaluate <pyopl.lowering.expressions.Evaluator.evaluate>` then spends most
of its time dispatching on node classes, testing value types it has already seen, and
re-resolving the same names.  :func:`compile_expr` turns a tree of the common node kinds
(constants, names, full indexing of data, ``dvar`` and computed ``dexpr`` arrays, tuple fields,
operators, comparisons, ``?:``, built-in calls and casts over data: :mod:`compiled_calls
<pyopl.lowering.compiled_calls>`) into nested closures ``f(env)``, once per node, the second time the
node is evaluated.  The tree walk itself tries the closures of the operands it meets (an operator or
comparison beside a ``sum`` is not compiled as a whole, its other operand may be).

Exactness: a closure computes the value with the Evaluator's own operations (``arith``,
``compare``, ``unary_value``, ``logical_values``, ``_membership``, ``_setop``) on the same
operand values in the same order, so every number, row and record is the tree walk's to the
bit; names and indexing give what :meth:`e_name` and :meth:`e_index` give.  A closure never has
a side effect (it adds no column or row, evaluates no ``dexpr``, reports nothing).  Whatever it
does not cover (a name that is not data, a ``dvar`` or a ``dexpr`` computed already, an index
outside its set or of another type, a constraint used as a number, any error) makes it raise, and :meth:`Compiled.evaluate_fast` then evaluates the node through the tree walk, which
does and reports exactly what it always did (and as a closure has no side effect, a caller may
also evaluate the node again through the tree walk after a closure's value, to word an error).
"""
from __future__ import annotations

import math
from typing import Any, Callable

from ..semantics.values import OplArray, OplRange, OplSet, OplTuple
from ..syntax import ast as A
from .budget import MAX_POWER_BITS, power_bits
from .closure_base import (_BIG, _MISSING, _NEG_BIG, MAX_DEPTH, NOT_COVERED, NUMBER_COMPARE,  # noqa: F401  (re-exported)
                           Closure, _Bail, _Unsupported)
from .compiled_calls import compile_call, compile_cast
from .int32 import INT_MAX, INT_MIN
from .linear import Leaf, LinExpr, Logic, QuadExpr
from .shapes import index_chain
from .tupleindex import foreign_tuple
from .symbols import DexprArray, DexprScalar, VarArray

_LATER = object()  # a node seen once, not compiled yet (see `try_closure`)
# kinds whose value `Instance.lookup` returns as is (an interval, sequence or cumul array's elements are
# its records: an `IntervalVar`, read by the index closures as data)
_VALUE_KINDS = frozenset(("param", "set", "range", "dvar", "interval", "sequence", "cumul"))
_MAX_BAILS = 16  # a closure that has fallen back this often is dropped (its data do not fit it)


class Compiled:
    """Mixin of :class:`~pyopl.lowering.expressions.Evaluator`: evaluation through cached closures."""

    def evaluate_fast(self, node: A.Expr, env: dict) -> Any:
        """``self.evaluate(node, env)``, through the node's closure when it has one and it covers ``env``."""
        v = self.try_closure(node, env)
        return v if v is not NOT_COVERED else self.evaluate(node, env)

    def eval_data_fast(self, node: A.Expr, env: dict, what: str) -> Any:
        """``self.eval_data(node, env, what)``, through the node's closure when it covers ``env``."""
        v = self.try_closure(node, env)
        if v is NOT_COVERED or isinstance(v, (LinExpr, QuadExpr, Leaf, Logic)):
            return self.eval_data(node, env, what)  # (which words the error; evaluating again is exact)
        return v

    def eval_bool_fast(self, node: A.Expr, env: dict, what: str) -> bool:
        """``self.eval_bool(node, env, what)``, through the node's closure when it gives a boolean."""
        v = self.try_closure(node, env)
        if v is True or v is False:
            return v
        return self.eval_bool(node, env, what)

    def closure_runner(self, node: A.Expr) -> Callable[[dict], Any]:
        """``lambda env: self.try_closure(node, env)`` for a loop (a filter, a set's elements): once the
        node is compiled, its entry is not looked up again (one call per evaluation instead of two)."""
        run = self._runners.get(node)
        if run is not None:
            return run
        closures, try_closure = self._closures, self.try_closure
        found: list = []  # the node's entry in `_closures`, once compiled

        def run(env: dict) -> Any:
            if not found:
                v = try_closure(node, env)
                entry = closures.get(node)
                if entry is not None and entry[0] is not _LATER:
                    found.append(entry)
                return v
            entry = found[0]
            fn = entry[0]
            if fn is None:
                return NOT_COVERED
            try:
                return fn(env)
            except Exception:  # as in `try_closure`
                entry[1] += 1
                if entry[1] >= _MAX_BAILS:
                    entry[0] = None
                return NOT_COVERED
        self._runners[node] = run
        return run

    def try_closure(self, node: A.Expr, env: dict) -> Any:
        """The value of ``node`` from its closure, or :data:`NOT_COVERED` (then nothing has happened)."""
        entry = self._closures.get(node)
        if entry is None:
            # A node met once (a constraint outside any loop) is left to the tree walk: compiling it
            # would cost more than it saves.  It is compiled the second time it is evaluated.
            self._closures[node] = [_LATER, 0]
            return NOT_COVERED
        fn = entry[0]
        if fn is _LATER:
            try:
                fn = compile_expr(self, node)
            except (_Unsupported, RecursionError):  # (compiling has no side effect; the tree walk takes over)
                fn = None
            entry[0] = fn
        if fn is None:
            return NOT_COVERED
        try:
            return fn(env)
        except Exception:  # _Bail, or an error that the tree walk will word when it evaluates the node
            entry[1] += 1
            if entry[1] >= _MAX_BAILS:
                entry[0] = None
            return NOT_COVERED


def compile_expr(ev: Any, node: A.Expr, depth: int = 0) -> Closure:
    """A closure computing ``ev.evaluate(node, env)`` (see the module's contract); raises
    :class:`_Unsupported` for a tree with a node kind or operator it does not cover, or deeper than
    :data:`MAX_DEPTH` (``depth``: that of ``node`` in the tree being compiled)."""
    make = _MAKERS.get(type(node))
    if make is None or depth >= MAX_DEPTH:
        raise _Unsupported
    return make(ev, node, depth + 1)


def _const(ev: Any, node: A.Const, depth: int) -> Closure:
    value = node.value
    return lambda env: value


def _name(ev: Any, node: A.Name, depth: int) -> Closure:
    name, symbols = node.id, ev.inst.symbols
    found: list = []  # a data or dvar value once seen: a declared name keeps its symbol and value

    def name_value(env: dict) -> Any:
        v = env.get(name, _MISSING)
        if v is not _MISSING:
            return v
        if found:
            return found[0]
        sym = symbols.get(name)
        if sym is None:
            raise _Bail
        if sym.kind in _VALUE_KINDS:
            found.append(sym.value)
            return sym.value
        if sym.kind != "dexpr":
            raise _Bail
        if type(sym.value) is not DexprScalar:
            return sym.value  # a dexpr array, as `Instance.lookup` returns it
        return _computed(sym.value.value)
    return name_value


def _computed(v: Any) -> Any:
    """A dexpr's cached value as ``Instance.dexpr_scalar``/``dexpr_value`` return it once computed; not yet
    computed (or being computed): evaluating it would add columns or report, the tree walk's business."""
    if v is None or type(v) is str:
        raise _Bail
    return v.copy() if isinstance(v, (LinExpr, QuadExpr)) else v


def _plain_in(idx: Any, domain: Any) -> bool:
    """``idx`` is an index that :meth:`Evaluator.e_index` looks up directly: an int, string or tuple in ``domain``."""
    t = type(idx)
    if t is int:
        if type(domain) is OplRange and _NEG_BIG < idx < _BIG:
            return domain.lo <= idx <= domain.hi
        return idx in domain
    if t is OplTuple:  # a tuple of another tuple type goes to the tree walk, which reports it
        return idx in domain and not foreign_tuple(idx, domain)
    return t is str and idx in domain


class _Array:
    """The array an index closure read last, with what its lookups need (found again only when the base changes)."""

    __slots__ = ("base", "dims", "kind", "mapping")

    def __init__(self) -> None:
        self.base: Any = _MISSING
        self.mapping: Any = None

    def see(self, base: Any, n: int) -> None:
        t = type(base)
        self.base = base
        if (t is not OplArray and t is not VarArray and t is not DexprArray) or len(base.dims) != n:
            self.mapping = None  # not indexed by the closure: the tree walk's business
            return
        self.dims = base.dims
        self.kind = t
        self.mapping = base.cols if t is VarArray else base.data if t is OplArray else base.cache

    def element(self, key: tuple) -> Any:
        """``base[key]`` as the tree walk finds it for a full key of plain indices in their sets (a dexpr
        element: once computed); raises :class:`_Bail` otherwise."""
        if self.kind is VarArray:
            col = self.mapping.get(key)
            if col is None:
                raise _Bail
            return LinExpr({col: 1.0}, 0.0)
        if self.kind is DexprArray:
            return _computed(self.mapping.get(key))
        v = self.mapping.get(key, _MISSING)
        if v is _MISSING:
            raise _Bail
        return v


def _index(ev: Any, node: A.Index, depth: int) -> Closure:
    root, steps = index_chain(node)
    root_fn = compile_expr(ev, root, depth)
    fns = [compile_expr(ev, i, depth) for _, i in steps]
    # An index that is a name is read from `env` here (one call less); None is never in `env`.
    names = [i.id if type(i) is A.Name else None for _, i in steps]
    n = len(fns)
    arr = _Array()
    # The indices are evaluated before they are checked (the tree walk checks each one before it
    # evaluates the next): without side effects the order cannot show.
    if n == 1:
        f0, n0 = fns[0], names[0]

        def index1(env: dict) -> Any:
            base = root_fn(env)
            if base is not arr.base:
                arr.see(base, 1)
            if arr.mapping is None:
                raise _Bail
            i = env.get(n0, _MISSING)
            if i is _MISSING:
                i = f0(env)
            if not _plain_in(i, arr.dims[0]):
                raise _Bail
            return arr.element((i,))
        return index1
    if n == 2:
        (f0, f1), (n0, n1) = fns, names

        def index2(env: dict) -> Any:
            base = root_fn(env)
            if base is not arr.base:
                arr.see(base, 2)
            if arr.mapping is None:
                raise _Bail
            i = env.get(n0, _MISSING)
            if i is _MISSING:
                i = f0(env)
            j = env.get(n1, _MISSING)
            if j is _MISSING:
                j = f1(env)
            d0, d1 = arr.dims
            if not (_plain_in(i, d0) and _plain_in(j, d1)):
                raise _Bail
            return arr.element((i, j))
        return index2

    def index_n(env: dict) -> Any:
        base = root_fn(env)
        if base is not arr.base:
            arr.see(base, n)
        if arr.mapping is None:
            raise _Bail
        key = tuple([f(env) for f in fns])
        for i, domain in zip(key, arr.dims):
            if not _plain_in(i, domain):
                raise _Bail
        return arr.element(key)
    return index_n


def _field(ev: Any, node: A.Field, depth: int) -> Closure:
    base_fn, name = compile_expr(ev, node.base, depth), node.name
    seen: list = [None, 0]  # the tuple type met last and the field's position in it (`OplTuple.field`'s)
    base_name = node.base.id if type(node.base) is A.Name else None  # (read from `env` here: one call less)

    def field_value(env: dict) -> Any:
        base = env.get(base_name, _MISSING)
        if base is _MISSING:
            base = base_fn(env)
        if type(base) is OplTuple:
            tt = base.ttype
            if tt is seen[0] and tt is not None:
                return base[seen[1]]
        if not isinstance(base, OplTuple) or base.ttype is None:
            raise _Bail
        v = base.field(name)  # ValueError for a field it lacks: the tree walk reports it
        seen[0], seen[1] = base.ttype, base.ttype.index(name)
        return v
    return field_value


def _unary(ev: Any, node: A.Unary, depth: int) -> Closure:
    fn, unary_value = compile_expr(ev, node.operand, depth), ev.unary_value

    def unary(env: dict) -> Any:
        return unary_value(node, fn(env))
    return unary


def _binary(ev: Any, node: A.Binary, depth: int) -> Closure:
    op = node.op
    left, right = compile_expr(ev, node.left, depth), compile_expr(ev, node.right, depth)
    if op in ("&&", "||", "=>"):
        logical_values = ev.logical_values
        stop = {"&&": False, "||": True, "=>": False}[op]  # the left value that decides alone
        result = {"&&": False, "||": True, "=>": True}[op]

        go = not stop  # the left value that leaves the result to the right one

        def logical(env: dict) -> Any:
            a = left(env)
            if a is stop:
                return result
            b = right(env)
            if a is go and (b is True or b is False):
                return b  # what `logical_values` gives for two booleans here
            return logical_values(node, a, b)
        return logical
    if op in ("in", "not in"):
        membership, negate = ev._membership, op == "not in"

        def member(env: dict) -> Any:
            v = left(env)
            s = right(env)
            ts, tv = type(s), type(v)
            # a plain value in a set: `Evaluator._membership`'s test (no decision and a set: no error)
            if (ts is OplSet or ts is OplRange) and (tv is int or tv is str or tv is OplTuple or tv is float):
                r = v in s
                if not r and tv is int and ts is OplSet and s.elem_type == "float":
                    r = float(v) in s
                return not r if negate else r
            return membership(node, v, s)
        return member
    if op in ("union", "inter", "diff", "symdiff"):
        setop = ev._setop
        return lambda env: setop(node, left(env), right(env))
    arith = ev.arith

    def other(a: Any, b: Any) -> Any:
        if type(a) is Leaf or type(a) is Logic or type(b) is Leaf or type(b) is Logic:
            raise _Bail  # a constraint used as a number gets a new column: the tree walk's business
        return arith(node, op, a, b)
    # The common operand types first, each computed as `Evaluator.arith` computes it.
    if op in ("+", "-"):
        sign, plus = (1.0, True) if op == "+" else (-1.0, False)

        def add(env: dict) -> Any:
            a = left(env)
            b = right(env)
            ta, tb = type(a), type(b)
            if ta is LinExpr:
                if tb is LinExpr or tb is float or tb is int:
                    return a.copy().iadd(b, sign)
            elif ta is float or ta is int:
                if tb is float or tb is int:
                    r = a + b if plus else a - b
                    if type(r) is int and not INT_MIN <= r <= INT_MAX:
                        return other(a, b)  # `Evaluator.arith` reports the 32-bit overflow
                    return r
                if tb is LinExpr:
                    return LinExpr(None, float(a)).iadd(b, sign)
            return other(a, b)
        return add
    if op == "*":
        def mul(env: dict) -> Any:
            a = left(env)
            b = right(env)
            ta, tb = type(a), type(b)
            if ta is float or ta is int:
                if tb is float or tb is int:
                    r = a * b
                    if type(r) is int and not INT_MIN <= r <= INT_MAX:
                        return other(a, b)  # `Evaluator.arith` reports the 32-bit overflow
                    return r
                if tb is LinExpr:
                    return b.scaled(a)
            elif ta is LinExpr and (tb is float or tb is int):
                return a.scaled(b)
            return other(a, b)
        return mul
    if op == "/":
        def div(env: dict) -> Any:
            a = left(env)
            b = right(env)
            tb = type(b)
            if (tb is float or tb is int) and b != 0:
                ta = type(a)
                if ta is float or ta is int:
                    return a / b
                if ta is LinExpr:
                    return a.scaled(1.0 / b)
            return other(a, b)
        return div
    if op == "div":
        left_name = node.left.id if type(node.left) is A.Name else None  # (`k div ...`: read here, one call less)

        def int_div(env: dict) -> Any:
            a = env.get(left_name, _MISSING)
            if a is _MISSING:
                a = left(env)
            b = right(env)
            # `Evaluator._numeric` on ints that convert to float (for its integrality test) without overflow
            if type(a) is int and type(b) is int and b != 0 and _NEG_BIG < a < _BIG and _NEG_BIG < b < _BIG:
                q = abs(a) // abs(b)
                q = q if (a >= 0) == (b >= 0) else -q
                if INT_MIN <= q <= INT_MAX:
                    return q
            return other(a, b)
        return int_div
    if op == "mod":
        m = node.right.value if type(node.right) is A.Const else None
        if type(m) is int and m != 0 and _NEG_BIG < m < _BIG:  # `i mod 2`: the divisor checked once
            def int_mod_const(env: dict) -> Any:
                a = left(env)
                if type(a) is int and _NEG_BIG < a < _BIG:
                    return int(math.fmod(a, m))
                return other(a, m)
            return int_mod_const

        def int_mod(env: dict) -> Any:
            a = left(env)
            b = right(env)
            ta, tb = type(a), type(b)
            if (ta is int or ta is float) and (tb is int or tb is float) and b != 0 and _NEG_BIG < a < _BIG \
                    and _NEG_BIG < b < _BIG:
                r = math.fmod(a, b)
                return int(r) if ta is int and tb is int else r
            return other(a, b)
        return int_mod
    if op == "^":
        def power(env: dict) -> Any:
            a = left(env)
            b = right(env)
            ta, tb = type(a), type(b)
            if (ta is float or tb is float) and (ta is int or ta is float) and (tb is int or tb is float):
                if power_bits(a, b) >= MAX_POWER_BITS:
                    raise _Bail  # (the tree walk reports it, before computing)
                return a ** b  # (OverflowError, ZeroDivisionError: the tree walk reports them)
            return other(a, b)  # two ints: `Evaluator.arith` computes them in 32 bits
        return power
    return lambda env: other(left(env), right(env))


def _compare(ev: Any, node: A.Compare, depth: int) -> Closure:
    fns = [compile_expr(ev, o, depth) for o in node.operands]
    if len(fns) != 2:
        compare_values = ev.compare_values
        return lambda env: compare_values(node, [f(env) for f in fns])
    left, right = fns
    compare, linear_compare, op = ev.compare, ev._linear_compare, node.ops[0]
    na, nb = node.operands
    numbers = NUMBER_COMPARE[op]
    if type(nb) is A.Const and (type(nb.value) is int or type(nb.value) is float):
        b = nb.value  # `... == 1`: the constant read once

        def compare_const(env: dict) -> Any:
            a = left(env)
            ta = type(a)
            if ta is int or ta is float:
                return numbers(a, b)
            if ta is LinExpr:
                return linear_compare(node, op, a, b)
            return compare(node, op, a, b, na, nb)
        return compare_const

    equality = op in ("==", "!=")

    def compare2(env: dict) -> Any:
        a = left(env)
        b = right(env)
        ta, tb = type(a), type(b)
        # the common cases, as `Evaluator.compare` takes them
        if ta is LinExpr and (tb is LinExpr or tb is float or tb is int):
            return linear_compare(node, op, a, b)
        if (ta is int or ta is float) and (tb is int or tb is float):
            return numbers(a, b)
        if ta is tb and (ta is str or (ta is OplTuple and equality)):
            return numbers(a, b)  # two strings, or `nb != n1` on two tuples
        return compare(node, op, a, b, na, nb)
    return compare2


def _conditional(ev: Any, node: A.Conditional, depth: int) -> Closure:
    cond, then, other = (compile_expr(ev, n, depth) for n in (node.cond, node.then, node.other))

    def conditional(env: dict) -> Any:
        c = cond(env)
        if c is True:
            return then(env)
        if c is False:
            return other(env)
        raise _Bail  # a number or a decision as the condition: the tree walk converts or reports it
    return conditional


def _call(ev: Any, node: A.Call, depth: int) -> Closure:
    return compile_call(ev, node, depth, compile_expr)  # (its arguments' closures made by this module)


def _cast(ev: Any, node: A.Cast, depth: int) -> Closure:
    return compile_cast(ev, node, depth, compile_expr)


_MAKERS: dict[type, Callable[[Any, Any, int], Closure]] = {
    A.Const: _const, A.Name: _name, A.Index: _index, A.Field: _field, A.Unary: _unary, A.Binary: _binary,
    A.Compare: _compare, A.Conditional: _conditional, A.Call: _call, A.Cast: _cast,
}
#: the node kinds whose closure beats the tree walk enough to try it for an operand the tree walk meets
COMPOUND = frozenset((A.Index, A.Field, A.Unary, A.Binary, A.Compare, A.Conditional, A.Call, A.Cast))
