"""Interval variables of ``using CP;`` models (OPL manual, "Interval variables", "Expressions on
interval variables"): their declaration, ``startOf``/``endOf``/``sizeOf``/``lengthOf``/``presenceOf``,
and the conditional rows the scheduling constraints are made of.

An interval ``a`` is three integer columns, start, size and end, with ``start + size == end`` when
it is present, and for an optional one a 0/1 presence column; CP-SAT gets it as an interval
variable (``new_interval_var`` / ``new_optional_interval_var``, pyopl/backends/cpsat.py).  IBM's
default window is ``0..maxint/2`` for the start and end, ``0..maxint/2-1`` for the size.  The
expressions on an optional interval take their "absent value" (0 unless given) when it is absent,
an integer column tied to the attribute by two conditional rows.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...semantics.values import ArraySlice, OplArray, OplRange, show
from ...ir import format_key_part
from ...syntax import ast as A
from ..functions.builtins import builtin
from .constraints import need_cp
from ..forms.cp_record import conditional
from ..forms.errors import EvalError
from ..forms.value_tests import is_number
from ..forms.linear import Leaf, LinExpr
from .sequence_groups import grouped_domains

#: IBM's bound of interval starts and ends (``maxint / 2``, OPL manual "dvar interval")
INTERVAL_MAX = 1073741823


@dataclass(eq=False)
class IntervalVar:
    """One interval variable: its columns (``presence`` None when it is always present) and its
    name and key, for messages and results."""

    name: str
    key: tuple
    start: int
    size: int
    end: int
    presence: int | None
    index: int = 0  # its place in ``Instance.intervals`` (the IR's ``intervals``)
    length: int | None = None  # with an ``intensity``: the length column (end - start), which CP-SAT's interval spans

    def label(self) -> str:
        """``name[k1][k2]``, each index part as an OPL literal (a string's ``"`` and ``\\`` escaped:
        ``t["a\\"b"]``, as the results print it; a tuple as ``<2, "1">``)."""
        return self.name + "".join("[%s]" % format_key_part(k, ", ") for k in self.key)

    def when(self) -> list:
        """The literals under which the interval is present: ``[(presence column, True)]`` or ``[]``."""
        return [] if self.presence is None else [(self.presence, True)]


def _int_data(inst: Any, node: A.Expr, env: dict, what: str, v: Any = None) -> int:
    """``node``'s value (``v`` when already evaluated) as an ``int``; EvalError ``cp-bad-argument``
    for anything but a whole number."""
    if v is None:
        v = inst.ev.eval_data(node, env, what)
    if isinstance(v, bool):
        v = int(v)
    if not is_number(v) or (isinstance(v, float) and not v.is_integer()):
        raise EvalError("cp-bad-argument", node.span, "%s must be an integer, but this is %s" % (what, show(v)),
                        help="interval variables take whole numbers (scale the time unit)")
    return int(v)


def _pair(inst: Any, node: A.Expr | None, env: dict, what: str, default: tuple[int, int]) -> tuple[int, int]:
    """An ``a..b`` range or a single integer of a declaration (data only)."""
    if node is None:
        return default
    v = inst.ev.eval_data_fast(node, env, what)
    if isinstance(v, OplRange):
        return int(v.lo), int(v.hi)
    n = _int_data(inst, node, env, what, v)
    return n, n


def interval_decl(inst: Any, d: A.IntervalDecl, dims: list, envs: list) -> Any:
    """``dvar interval a[dims] [optional[(c)]] [in lo..hi] [size s | size lo..hi];``: the columns of
    every element (``envs``: ``(key, env)`` over the index sets ``dims``); returns the value to
    declare, an :class:`IntervalVar` or an array of them (OPL manual, "dvar interval")."""
    need_cp(inst, d.name_span, "`dvar interval`")
    data: dict[tuple, IntervalVar] = {}
    # The columns (start, size, end[, present] of each interval, in order) are added in one block at
    # the end (or where an error stops the loop), numbered as one-by-one additions would number them.
    cols: list[list] = [[], [], [], []]
    names = (d.name + ".start", d.name + ".size", d.name + ".end", d.name + ".present")
    first = len(inst.cols.lower)
    try:
        for key, env in envs:
            lo, hi = _pair(inst, d.domain, env, "the window of `%s`" % d.name, (0, INTERVAL_MAX))
            smin, smax = _pair(inst, d.size, env, "the size of `%s`" % d.name, (0, INTERVAL_MAX - 1))
            optional = d.optional is not None and bool(inst.ev.eval_data(d.optional, env, "the optionality of `%s`" % d.name))
            if smin < 0 or smin > smax:
                raise EvalError("value-out-of-range", d.size.span, "the size of `%s`%s is %d..%d, which is empty or "
                                "negative" % (d.name, _at(key), smin, smax), help="give a size of at least 0")
            if lo > hi - smin and not optional:
                raise EvalError("value-out-of-range", (d.domain or d.size).span, "`%s`%s cannot fit its size %d in the "
                                "window %d..%d" % (d.name, _at(key), smin, lo, hi),
                                help="widen the window or make the interval `optional`")
            if len(inst.cols.lower) != first:  # (columns added meanwhile, the pending ones not yet among them:
                # a dexpr in the data; comparing with first + pending flushed at every interval, 1,000 blocks)
                _flush(inst, cols)
                first = len(inst.cols.lower)
            j = first + len(cols[0])
            cols[0].extend((lo, smin, lo))
            cols[1].extend((hi, smax, hi))
            cols[2].extend(names[:3])
            cols[3].extend((key, key, key))
            if optional:
                cols[0].append(0.0)
                cols[1].append(1.0)
                cols[2].append(names[3])
                cols[3].append(key)
            iv = IntervalVar(d.name, key, j, j + 1, j + 2, j + 3 if optional else None, len(inst.intervals))
            if d.intensity is not None:  # the size is then the work done (pyopl/lowering/cp/step_functions.py)
                iv.length = first + len(cols[0])
                cols[0].append(0)
                cols[1].append(hi - lo)
                cols[2].append(d.name + ".length")
                cols[3].append(key)
            inst.intervals.append(iv)
            data[key] = iv
    finally:
        _flush(inst, cols)
    inst.interval_blocks[d.name] = (len(dims), list(data.values()))
    return OplArray(d.name, dims, data) if dims else data[()]


def _flush(inst: Any, cols: list[list]) -> None:
    """Add the columns collected in ``cols`` (lower bounds, upper bounds, names, keys: lists the
    columns may keep) and start four new lists."""
    if cols[0]:
        inst.add_columns(cols[0], cols[1], True, cols[2], cols[3])
    cols[:] = [[], [], [], []]


def sequence_decl(inst: Any, d: A.SequenceDecl, dims: list, envs: list, from_arrays: Any = None) -> Any:
    """``dvar sequence s[dims] in A [types T];``: kept as the list of its intervals (and their types),
    which ``noOverlap(s)`` orders (OPL manual, "dvar sequence"); ``envs``: ``(key, env)`` over the
    index sets ``dims``; ``from_arrays``: see :func:`.sequence_groups.grouped_domains`.  Returns the
    value to declare."""
    need_cp(inst, d.name_span, "`dvar sequence`")
    data = {}
    grouped = grouped_domains(inst.ev, d.domain, envs, from_arrays) if dims else None
    for key, env in envs:
        ivs = interval_list(inst.ev, d.domain, env, "dvar sequence", None if grouped is None else grouped[key])
        types = None
        if d.types is not None:
            types = _int_list(_type_values(inst, d.types, env, d.name), d.types, len(ivs), "the types of `%s`" % d.name)
        data[key] = Sequence(d.name + _at(key), ivs, types)
    return OplArray(d.name, dims, data) if dims else data[()]


@dataclass(eq=False)
class Sequence:
    """A ``dvar sequence``: its intervals and their integer types (None without ``types``)."""

    name: str
    intervals: list
    types: list | None


def _type_values(inst: Any, node: A.Expr, env: dict, name: str) -> Any:
    """The types of a ``dvar sequence``: an integer array (data), ``all(i in I) t[i]`` (IBM's
    ``sched_setup`` writes ``types all(i in Tasks) task[i].type``) or ``append`` of those."""
    if isinstance(node, A.Aggregate) and node.op == "all":
        return [inst.ev.eval_data(node.body, e, "the types of `%s`" % name) for e in inst.ev.iterate(node.quals, env, node)]
    if isinstance(node, A.Call) and node.func == "append":
        out: list = []
        for a in node.args:
            v = _type_values(inst, a, env, name)
            out.extend(list(v.data.values()) if isinstance(v, OplArray) else v if isinstance(v, list) else [v])
        return out
    return inst.ev.eval_data(node, env, "the types of `%s`" % name)


def _int_list(v: Any, node: A.Node, n: int, what: str) -> list[int]:
    vals = list(v.data.values()) if isinstance(v, OplArray) else list(v) if isinstance(v, (list, tuple)) else None
    if vals is None or len(vals) != n or not all(is_number(x) and float(x).is_integer() for x in vals):
        raise EvalError("cp-bad-argument", node.span, "%s must be an array of %d integers" % (what, n),
                        help="give one integer type per interval, in the order of the intervals")
    return [int(x) for x in vals]


def _at(key: tuple) -> str:
    return "".join("[%s]" % show(k) for k in key)


def interval_list(ev: Any, arg: A.Expr, env: dict, what: str, values: list | None = None) -> list[IntervalVar]:
    """The intervals of an argument: an interval array (or a slice of one), a ``dvar sequence``,
    ``all(i in I) a[i]``, a literal ``[a, b]``, ``append(...)`` of those; EvalError otherwise.
    ``values``: the values of ``arg`` (an ``all``) already evaluated (:mod:`.sequence_groups`), checked here."""
    if values is not None:
        vals = values
    elif isinstance(arg, A.Call) and arg.func == "append":
        return [iv for a in arg.args for iv in interval_list(ev, a, env, what)]
    elif isinstance(arg, A.Aggregate) and arg.op == "all":
        vals = [ev.evaluate(arg.body, e) for e in ev.iterate(arg.quals, env, arg)]
    elif isinstance(arg, A.ArrayLit):
        vals = [ev.evaluate(x, env) for x in arg.items]
    else:
        v = ev.evaluate(arg, env)
        if isinstance(v, Sequence):
            return list(v.intervals)
        if isinstance(v, ArraySlice):
            n = len(v.prefix)
            vals = [x for k, x in v.array.data.items() if k[:n] == v.prefix]
        elif isinstance(v, OplArray):
            vals = list(v.data.values())
        else:
            vals = [v]
    bad = next((x for x in vals if not isinstance(x, IntervalVar)), None)
    if bad is not None or not vals and not isinstance(arg, A.Aggregate):
        raise EvalError("cp-bad-argument", arg.span, "`%s` takes interval variables, but this is %s" % (
            what, "empty" if bad is None else show(bad) if not isinstance(bad, LinExpr) else "a decision expression"),
            help="pass an array of `dvar interval`, `all(i in I) a[i]` or `[a, b]`")
    return vals


def interval_arg(ev: Any, node: A.Call, k: int, env: dict) -> IntervalVar:
    """Argument ``k`` of ``node``, an interval variable; EvalError otherwise."""
    v = ev.evaluate_fast(node.args[k], env)
    if not isinstance(v, IntervalVar):
        raise EvalError("cp-bad-argument", node.args[k].span, "`%s` takes an interval variable here, but this is "
                        "%s" % (node.func, "a decision expression" if isinstance(v, LinExpr) else show(v)),
                        help="pass a `dvar interval` (an element of an interval array: `a[i]`)")
    return v


def int_arg(ev: Any, node: A.Call, k: int, env: dict, default: int = 0) -> Any:
    """Argument ``k`` (an integer expression, data or decisions), or ``default`` when absent."""
    if len(node.args) <= k:
        return default
    v = ev.evaluate(node.args[k], env)
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, LinExpr) and ev.inst.is_integral(v):
        return v
    if not is_number(v) or not float(v).is_integer():
        raise EvalError("cp-bad-argument", node.args[k].span, "`%s` takes an integer here, but this is %s" % (
            node.func, "a non-integer expression" if isinstance(v, LinExpr) else show(v)),
            help="use whole numbers (scale the time unit)")
    return int(v)


def data_int_arg(ev: Any, node: A.Call, k: int, env: dict, what: str, default: int = 0) -> int:
    """Argument ``k`` as :func:`int_arg`, which must be data (``what`` names it in the error: "the absent
    height"); EvalError ``cp-bad-argument`` at the argument for a decision expression."""
    v = int_arg(ev, node, k, env, default)
    if isinstance(v, LinExpr):
        raise EvalError("cp-bad-argument", node.args[k].span, "%s of `%s` is data" % (what, node.func),
                        help="give a number")
    return v


def function_arg(ev: Any, node: A.Call, k: int, env: dict, cls: type, kind: str, help: str) -> Any:
    """Argument ``k``, which must be a ``cls`` (a cumul or state function; ``kind`` is its OPL word);
    EvalError ``cp-bad-argument`` at the argument otherwise."""
    f = ev.evaluate(node.args[k], env)
    if not isinstance(f, cls):
        raise EvalError("cp-bad-argument", node.args[k].span, "`%s` takes a `%s` %s" % (
            node.func, kind, ("first", "second", "third")[k]), help=help)
    return f


def arity(node: A.Call, lo: int, hi: int) -> None:
    if not lo <= len(node.args) <= hi:
        raise EvalError("call-arity", node.span, "`%s` takes %s arguments, not %d" % (
            node.func, lo if lo == hi else "%d to %d" % (lo, hi), len(node.args)),
            help="see the OPL manual's entry for `%s`" % node.func)


def _attr(inst: Any, iv: IntervalVar, part: str, absent: int, span: Any) -> LinExpr:
    """``startOf``/``endOf``/``sizeOf``/``lengthOf`` of ``iv``: the column (or ``end - start``); for an
    optional interval a column equal to it when present and to ``absent`` when not."""
    if part == "length":
        e = LinExpr({iv.end: 1.0, iv.start: -1.0})
    else:
        e = LinExpr.var(getattr(iv, part))
    if iv.presence is None:
        return e
    lo, hi = inst.bounds(e)
    v = inst.new_column(min(lo, absent), max(hi, absent), True, "%sOf" % part)
    d = LinExpr({v: 1.0})
    d.iadd(e, -1.0)
    conditional(inst, d, 0.0, 0.0, [(iv.presence, True)], span)
    conditional(inst, LinExpr({v: 1.0}), absent, absent, [(iv.presence, False)], span)
    return LinExpr({v: 1.0})


def _of(part: str):
    def handler(ev: Any, node: A.Call, env: dict) -> LinExpr:
        arity(node, 1, 2)
        need_cp(ev.inst, node.span, "`%s`" % node.func)
        iv = interval_arg(ev, node, 0, env)
        absent = int_arg(ev, node, 1, env)
        if isinstance(absent, LinExpr):
            raise EvalError("cp-bad-argument", node.args[1].span, "the absent value of `%s` must be data" % node.func,
                            help="give a number, e.g. `%s(a, 0)`" % node.func)
        return _attr(ev.inst, iv, part, absent, node.span)
    handler.__doc__ = "``%sOf(a, absent=0)``: the %s of the interval ``a`` (``absent`` when it is absent)." % (part, part)
    return handler


for _part in ("start", "end", "size", "length"):
    builtin(_part + "Of")(_of(_part))


@builtin("presenceOf")
def _presence_of(ev: Any, node: A.Call, env: dict) -> Any:
    """``presenceOf(a)``: true when the interval is present; a constraint (a 0/1 column ``>= 1``) for
    an optional interval, ``true`` for one that always is."""
    arity(node, 1, 1)
    need_cp(ev.inst, node.span, "`presenceOf`")
    iv = interval_arg(ev, node, 0, env)
    if iv.presence is None:
        return True
    return Leaf(LinExpr.var(iv.presence), 1.0, float("inf"), True, node.span)
