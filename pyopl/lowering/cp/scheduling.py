"""Scheduling constraints of ``using CP;`` models (OPL manual, "Scheduling", "Constraints on
interval variables"): precedences, ``alternative``, ``span``, ``synchronize``, ``noOverlap`` and
cumulative functions (``pulse``, ``stepAtStart``, ``stepAtEnd``, ``f <= cap``, ``alwaysIn``).

Each becomes rows, conditional rows (``linear_if``: enforced while intervals are present) and
CP-SAT's own ``noOverlap``, ``cumulative`` and ``reservoir`` constraints (``CpConstraint`` kinds
the backend builds in pyopl/backends/cpsat_global.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...semantics.values import show
from ...syntax import ast as A
from ..functions.builtins import builtin
from .constraints import CpConstraint, need_cp
from ..forms.errors import EvalError
from ..forms.cp_record import conditional
from .intervals import IntervalVar, arity, data_int_arg, function_arg, int_arg, interval_arg, interval_list
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr
from ..forms.int32 import expr_text

#: precedence -> (the point of the first interval, the point of the second, the comparison)
PRECEDENCES = {
    "endBeforeStart": ("end", "start", "<="), "endBeforeEnd": ("end", "end", "<="),
    "startBeforeStart": ("start", "start", "<="), "startBeforeEnd": ("start", "end", "<="),
    "startAtStart": ("start", "start", "=="), "startAtEnd": ("start", "end", "=="),
    "endAtStart": ("end", "start", "=="), "endAtEnd": ("end", "end", "=="),
}


def _both(a: IntervalVar, b: IntervalVar) -> list:
    return a.when() + [w for w in b.when() if w not in a.when()]


def _posted(node: A.Call) -> CpConstraint:
    """What a scheduling constraint made of rows returns: a record the constraint statement accepts
    (a logical operator refuses it: its rows hold unconditionally)."""
    return CpConstraint("posted", [], node.span)


def _precedence(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``endBeforeStart(a, b, z)`` and the others: ``point(a) + z <= point(b)`` (or ``==``) when both
    intervals are present (OPL manual, "Precedence constraints between interval variables")."""
    arity(node, 2, 3)
    need_cp(ev.inst, node.span, "`%s`" % node.func)
    pa, pb, op = PRECEDENCES[node.func]
    a, b = interval_arg(ev, node, 0, env), interval_arg(ev, node, 1, env)
    delay = int_arg(ev, node, 2, env)
    e = LinExpr({getattr(a, pa): 1.0})
    e.iadd(LinExpr({getattr(b, pb): 1.0}), -1.0)
    e.iadd(delay)  # point(a) + z - point(b)
    conditional(ev.inst, e, 0.0 if op == "==" else -float("inf"), 0.0, _both(a, b), node.span)
    return _posted(node)


for _name in PRECEDENCES:
    builtin(_name)(_precedence)


def _presence(iv: IntervalVar) -> LinExpr:
    """The 0/1 presence of ``iv`` as a linear form (the constant 1 when it is always present)."""
    return LinExpr(None, 1.0) if iv.presence is None else LinExpr.var(iv.presence)


def _same(inst: Any, a: IntervalVar, b: IntervalVar, part: str, when: list, span: Any, op: str = "==") -> None:
    e = LinExpr({getattr(a, part): 1.0})
    e.iadd(LinExpr({getattr(b, part): 1.0}), -1.0)  # a.part - b.part
    conditional(inst, e, 0.0 if op in ("==", ">=") else -float("inf"), 0.0 if op in ("==", "<=") else float("inf"),
                when, span)


@builtin("alternative")
def _alternative(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alternative(a, B[, c])``: when ``a`` is present exactly one interval of ``B`` is (``c`` of them, an
    integer expression, data or decisions, at least 1: IBM's K is non-empty, so ``c <= 0`` makes ``a``
    absent), each starting and ending with ``a``; when ``a`` is absent every interval of ``B`` is (OPL
    manual, "alternative")."""
    arity(node, 2, 3)
    need_cp(ev.inst, node.span, "`alternative`")
    a = interval_arg(ev, node, 0, env)
    bs = interval_list(ev, node.args[1], env, "alternative")
    return alternative_rows(ev.inst, a, bs, int_arg(ev, node, 2, env, 1), node)


def alternative_rows(inst: Any, a: IntervalVar, bs: list, c: Any, node: A.Call) -> CpConstraint:
    """The rows and records of ``alternative(a, bs, c)`` with its arguments evaluated (``c``: an int
    or a LinExpr), and the ``posted`` record it returns; shared by :func:`_alternative` and a ``forall``
    of them made from arrays (``precedence_rows``)."""
    from ..linearise.cp_arith import cp_product

    total = LinExpr(None, 0.0)
    for b in bs:
        total.iadd(_presence(b))
    if isinstance(c, LinExpr) and a.presence is not None:
        total.iadd(cp_product(inst, c, _presence(a), node.span), -1.0)  # c * presence of a
    elif isinstance(c, LinExpr):
        total.iadd(c, -1.0)
    else:
        total.iadd(_presence(a), -float(c))
    inst.add_aux_row(total, 0.0, 0.0, node.span)  # sum(presence of B) == c * presence of a
    # IBM (OPL Language Reference, "alternative"): a present picks a non-empty K with |K| = c, so c >= 1 then
    if isinstance(c, LinExpr):
        conditional(inst, c, 1.0, float("inf"), a.when(), node.span)
    elif c <= 0:
        inst.add_aux_row(_presence(a), 0.0, 0.0, node.span)  # c <= 0: a is absent
    for b in bs:
        _same(inst, a, b, "start", b.when(), node.span)
        _same(inst, a, b, "end", b.when(), node.span)
    return _posted(node)


@builtin("span")
def _span(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``span(a, B)``: ``a`` is present when some interval of ``B`` is, and then starts at the first start
    and ends at the last end of the present ones (OPL manual, "span")."""
    arity(node, 2, 2)
    need_cp(ev.inst, node.span, "`span`")
    inst = ev.inst
    a = interval_arg(ev, node, 0, env)
    bs = interval_list(ev, node.args[1], env, "span")
    some = LinExpr(None, 0.0)
    for b in bs:
        some.iadd(_presence(b))
        d = _presence(b)
        d.iadd(_presence(a), -1.0)
        inst.add_aux_row(d, -float("inf"), 0.0, node.span)  # b present => a present
        _same(inst, a, b, "start", b.when(), node.span, "<=")
        _same(inst, a, b, "end", b.when(), node.span, ">=")
    some.iadd(_presence(a), -1.0)
    inst.add_aux_row(some, 0.0, float("inf"), node.span)  # a present => some b present
    if a.presence is None and all(b.presence is None for b in bs):  # all present: CP-SAT's own min and max
        inst.cp_constraints.append(CpConstraint("min", [({b.start: 1.0}, 0.0) for b in bs], node.span,
                                                data={"target": a.start}))
        inst.cp_constraints.append(CpConstraint("max", [({b.end: 1.0}, 0.0) for b in bs], node.span,
                                                data={"target": a.end}))
        return _posted(node)
    for part in ("start", "end"):  # one present b sets a's start (end): a chosen b, when a is present
        picks = LinExpr(None, 0.0)
        for b in bs:
            z = inst.new_column(0.0, 1.0, True, "span_" + part)
            d = LinExpr({z: 1.0})
            d.iadd(_presence(b), -1.0)
            inst.add_aux_row(d, -float("inf"), 0.0, node.span)  # chosen => present
            _same(inst, a, b, part, [(z, True)], node.span)
            picks.iadd(LinExpr.var(z))
        picks.iadd(_presence(a), -1.0)
        inst.add_aux_row(picks, 0.0, 0.0, node.span)
    return _posted(node)


@builtin("synchronize")
def _synchronize(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``synchronize(a, B)``: every present interval of ``B`` starts and ends with ``a`` when ``a`` is
    present (OPL manual, "synchronize")."""
    arity(node, 2, 2)
    need_cp(ev.inst, node.span, "`synchronize`")
    a = interval_arg(ev, node, 0, env)
    for b in interval_list(ev, node.args[1], env, "synchronize"):
        _same(ev.inst, a, b, "start", _both(a, b), node.span)
        _same(ev.inst, a, b, "end", _both(a, b), node.span)
    return _posted(node)


@builtin("isomorphism")
def _isomorphism(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``isomorphism(A, B)``: a one-to-one correspondence between the present intervals of ``A`` and those of
    ``B``, corresponding intervals starting and ending together (IloIsomorphism; CP Optimizer's concept
    "Isomorphism constraint").  A 0/1 column per pair ``(a, b)``: chosen, both are present and equal; each
    present interval has exactly one chosen partner (a bipartite matching).  The form with an index
    array (``map``) is refused: IBM's pages give its direction two ways."""
    arity(node, 2, 4)
    need_cp(ev.inst, node.span, "`isomorphism`")
    if len(node.args) > 2:
        raise EvalError("unsupported-cp-construct", node.args[2].span, "`isomorphism` with an index array is not "
                        "compiled: IBM's pages describe the direction of the index two ways (from the first "
                        "array into the second, and the reverse)", help="drop the index array: `isomorphism(A, B)`")
    inst = ev.inst
    A_ = interval_list(ev, node.args[0], env, "isomorphism")
    B_ = interval_list(ev, node.args[1], env, "isomorphism")
    inst.budget.spend(len(A_) * len(B_), node)
    rows = {("a", i): LinExpr(None, 0.0) for i in range(len(A_))}
    rows.update({("b", j): LinExpr(None, 0.0) for j in range(len(B_))})
    for i, a in enumerate(A_):
        for j, b in enumerate(B_):
            z = inst.new_column(0.0, 1.0, True, "isomorphism")
            for iv in (a, b):
                d = LinExpr({z: 1.0})
                d.iadd(_presence(iv), -1.0)
                inst.add_aux_row(d, -float("inf"), 0.0, node.span)  # chosen => present
            _same(inst, a, b, "start", [(z, True)], node.span)
            _same(inst, a, b, "end", [(z, True)], node.span)
            rows[("a", i)].iadd(LinExpr.var(z))
            rows[("b", j)].iadd(LinExpr.var(z))
    for (side, k), e in rows.items():
        e.iadd(_presence((A_ if side == "a" else B_)[k]), -1.0)
        inst.add_aux_row(e, 0.0, 0.0, node.span)  # one partner exactly when present
    return _posted(node)


@builtin("noOverlap")
def _no_overlap(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``noOverlap(A)`` / ``noOverlap(seq)`` / ``noOverlap(seq, M[, next])``: the present intervals do
    not overlap; with a transition matrix ``M[type][type]``, ``M[t(a)][t(b)]`` time units separate
    ``a`` from every later interval ``b`` of the sequence, or with ``next`` true from its immediate
    successor only (OPL Language Quick Reference, "noOverlap"; pyopl/backends/cpsat_global.py)."""
    from .intervals import Sequence

    arity(node, 1, 3)
    need_cp(ev.inst, node.span, "`noOverlap`")
    ivs = interval_list(ev, node.args[0], env, "noOverlap")
    data: dict = {"intervals": [iv.index for iv in ivs]}
    plain = isinstance(node.args[0], (A.Aggregate, A.ArrayLit)) or (isinstance(node.args[0], A.Call)
                                                                     and node.args[0].func == "append")
    seq = None if plain else ev.evaluate(node.args[0], env)
    if isinstance(seq, Sequence):
        data["seq"] = seq.name  # its order, where first/last/before/prev use it (pyopl/backends/cpsat_sequence.py)
    if len(node.args) >= 2 and not isinstance(seq, Sequence):
        raise EvalError("cp-bad-argument", node.args[0].span, "a transition matrix needs a `dvar sequence`",
                        help="declare `dvar sequence s in A types T;` and pass `s`")
    if len(node.args) >= 2:
        # without `types`, IBM types each interval by its 0-based position in the sequence
        types = list(seq.types) if seq.types is not None else list(range(len(seq.intervals)))
        data["matrix"] = _matrix(ev.evaluate(node.args[1], env), node.args[1], types)
        data["types"] = types
    if len(node.args) == 3:  # `next`: the distances between immediate successors only
        direct = int_arg(ev, node, 2, env)
        if isinstance(direct, LinExpr) or direct not in (0, 1):
            raise EvalError("cp-bad-argument", node.args[2].span, "the third argument of `noOverlap` is a "
                            "boolean (true: the distances hold between immediate successors only)",
                            help="write `true`, `false`, 1 or 0")
        data["direct"] = bool(direct)
    return CpConstraint("noOverlap", [], node.span, data=data)


def _matrix(v: Any, node: A.Node, types: list) -> dict:
    """The transition distances ``{(t1, t2): d}`` of a set of tuples ``<t1, t2, d>`` (IBM's triplet
    set) or a 2-D integer array ``M[t1][t2]``."""
    from ...semantics.values import OplArray, OplSet

    out: dict = {}
    if isinstance(v, OplSet):
        for t in v:
            vals = list(t)
            if len(vals) != 3 or not all(is_number(x) for x in vals):
                break
            out[(int(vals[0]), int(vals[1]))] = int(vals[2])
        else:
            return out
    elif isinstance(v, OplArray) and len(v.dims) == 2:
        return {(int(k[0]), int(k[1])): int(x) for k, x in v.data.items()}
    raise EvalError("cp-bad-argument", node.span, "a transition matrix is a set of `<int from, int to, int "
                    "distance>` tuples or a 2-D integer array, not %s" % show(v),
                    help="declare `tuple triplet { int t1; int t2; int d; }; {triplet} M = ...;`")


# ---------------------------------------------------------------------- cumulative functions
@dataclass
class CumulExpr:
    """A cumulative function: a sum of elementary ones, each ``(kind, interval, height)`` with kind
    ``pulse``, ``stepAtStart`` or ``stepAtEnd``, or ``("step", time, height)`` (OPL manual,
    "Cumulative functions")."""

    terms: list = field(default_factory=list)

    def plus(self, other: "CumulExpr", sign: int = 1) -> "CumulExpr":
        return CumulExpr(self.terms + [(k, iv, sign * h) for k, iv, h in other.terms])


@dataclass(frozen=True)
class VarHeight:
    """The height of ``pulse(a, lo, hi)`` (and the steps), chosen by the solver in ``lo..hi``: the integer
    column ``col``, times ``sign`` (-1 where the function is subtracted)."""

    col: int
    lo: int
    hi: int
    sign: int = 1

    def __rmul__(self, k: int) -> "VarHeight":
        return VarHeight(self.col, self.lo, self.hi, self.sign * k)

    def __ge__(self, other: int) -> bool:  # (every value >= other: `h >= 0` of a fixed height)
        return (self.lo if self.sign > 0 else -self.hi) >= other

    def __abs__(self) -> int:
        return max(abs(self.lo), abs(self.hi))


def _elementary(kind: str):
    def handler(ev: Any, node: A.Call, env: dict) -> CumulExpr:
        arity(node, 2, 3)
        need_cp(ev.inst, node.span, "`%s`" % node.func)
        if len(node.args) == 3 and kind == "pulse" and not isinstance(ev.evaluate(node.args[0], env), IntervalVar):
            # `pulse(u, v, h)`: over the fixed interval [u, v) (OPL Language Quick Reference, "pulse")
            u, v, h = (int_arg(ev, node, k, env) for k in range(3))
            if any(isinstance(x, LinExpr) for x in (u, v, h)):
                raise EvalError("cp-bad-argument", node.span, "`pulse(u, v, h)` over a fixed interval takes data",
                                help="for a pulse of an interval variable write `pulse(a, h)`")
            return CumulExpr([("step", u, h), ("step", v, -h)] if v > u else [])
        if len(node.args) == 3:  # a height in lo..hi, chosen by the solver (OPL manual, "pulse")
            iv = interval_arg(ev, node, 0, env)
            lo, hi = int_arg(ev, node, 1, env), int_arg(ev, node, 2, env)
            if isinstance(lo, LinExpr) or isinstance(hi, LinExpr) or lo > hi:
                raise EvalError("cp-bad-argument", node.span, "the height range of `%s` is two numbers, the least "
                                "first" % node.func, help="write `%s(a, 1, 5)`" % node.func)
            col = ev.inst.new_column(float(lo), float(hi), True, node.func + "_height")
            return CumulExpr([(kind, iv, VarHeight(col, lo, hi))])
        iv = interval_arg(ev, node, 0, env)
        h = int_arg(ev, node, 1, env)
        if isinstance(h, LinExpr):
            raise EvalError("unsupported-cp-construct", node.args[1].span, "a decision as the height of `%s` is "
                            "not compiled to CP-SAT yet" % node.func, help="give a fixed height (data)")
        return CumulExpr([(kind, iv, h)])
    handler.__doc__ = "``%s(a, h)``: an elementary cumulative function of the interval ``a``." % kind
    return handler


for _kind in ("pulse", "stepAtStart", "stepAtEnd"):
    builtin(_kind)(_elementary(_kind))


@builtin("step")
def _step(ev: Any, node: A.Call, env: dict) -> CumulExpr:
    """``step(t, h)``: the cumulative function that rises by ``h`` at the fixed time ``t`` (data)."""
    arity(node, 2, 2)
    need_cp(ev.inst, node.span, "`step`")
    t, h = int_arg(ev, node, 0, env), int_arg(ev, node, 1, env)
    if isinstance(t, LinExpr) or isinstance(h, LinExpr):
        raise EvalError("cp-bad-argument", node.span, "`step(t, h)` takes a time and a height that are data",
                        help="for a step at an interval's start use `stepAtStart(a, h)`")
    return CumulExpr([("step", t, h)])


def cumul_arith(node: A.Node, op: str, a: Any, b: Any) -> CumulExpr:
    """``f + g``, ``f - g`` (and ``0 + f`` from a ``sum``) of cumulative functions; EvalError otherwise."""
    if is_number(a) and a == 0 and isinstance(b, CumulExpr):
        return b if op == "+" else CumulExpr().plus(b, -1)
    if is_number(b) and b == 0 and isinstance(a, CumulExpr):
        return a
    if isinstance(a, CumulExpr) and isinstance(b, CumulExpr) and op in ("+", "-"):
        return a.plus(b, 1 if op == "+" else -1)
    raise EvalError("type-bad-operands", node.span, "a cumulative function can only be added to or subtracted "
                    "from another (`%s` is not defined here)" % op,
                    help="build it as a sum of `pulse`, `stepAtStart` and `stepAtEnd`")


def cumul_compare(ev: Any, node: A.Node, op: str, a: Any, b: Any) -> CpConstraint:
    """``f <= cap`` or ``f >= lo`` (``cap >= f`` ...): the level of ``f`` stays within the bound at all times."""
    if isinstance(b, CumulExpr):
        a, b, op = b, a, {"<=": ">=", ">=": "<=", "==": "=="}.get(op, op)
    if op == "<=" and isinstance(b, LinExpr) and ev.inst.is_integral(b) and not b.is_constant:
        # a capacity that is a decision expression (CP-SAT's cumulative takes an affine capacity)
        return _cumul(a, None, (dict(b.terms), float(b.const)), node.span)
    if isinstance(b, LinExpr) and b.is_constant:
        b = b.const
    if op not in ("<=", ">=") or not is_number(b) or not float(b).is_integer():
        raise EvalError("type-bad-comparison", node.span, "a cumulative function is compared with `<=` or `>=` "
                        "and an integer (its capacity or its minimum level)",
                        help="write `f <= capacity`, or `alwaysIn(f, start, end, lo, hi)`")
    lo, hi = (None, int(b)) if op == "<=" else (int(b), None)
    c = _cumul(a, lo, hi, node.span)
    c.data["text"] = written_text(node)
    names = [o.id for o in getattr(node, "operands", ()) if isinstance(o, A.Name)]
    if names:  # `f <= cap`: the function's name, for the Gantt chart's profile (pyopl/results/gantt.py)
        c.data["name"] = names[0]
    return c


def written_text(node: A.Node) -> str:
    """The OPL text of a constraint as written (``stock >= 0``, ``alwaysIn(f, 0, 10, 0, 3)``), for a
    conflict's line; "" where the short printer does not cover a part (the line then says the kind)."""
    if isinstance(node, A.Compare):
        parts = [expr_text(o) for o in node.operands]
        if not all(parts):
            return ""
        return " ".join(p for pair in zip(parts, node.ops + [""]) for p in pair if p)
    return expr_text(node)


def _written(c: CpConstraint, node: A.Node) -> CpConstraint:
    c.data["text"] = written_text(node)
    return c


def _cumul(f: CumulExpr, lo: int | None, hi: int | None, span: Any, window: tuple | None = None) -> CpConstraint:
    events = [(kind, iv if kind == "step" else iv.index, h) for kind, iv, h in f.terms]  # (a step: its time)
    return CpConstraint("cumul", [], span, data={"events": events, "lo": lo, "hi": hi, "window": window})


@builtin("alwaysIn")
def _always_in(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``alwaysIn(f, start, end, lo, hi)``: the level of ``f`` stays in ``lo..hi`` over ``[start, end)``;
    ``alwaysIn(f, a, lo, hi)``: over ``[start(a), end(a))`` while ``a`` is present (OPL manual, "alwaysIn")."""
    arity(node, 4, 5)
    need_cp(ev.inst, node.span, "`alwaysIn`")
    from .state_functions import StateFunction, state_always_in

    f = ev.evaluate(node.args[0], env)
    if isinstance(f, StateFunction):
        return state_always_in(ev, node, env, f)
    if not isinstance(f, CumulExpr):
        raise EvalError("cp-bad-argument", node.args[0].span, "`alwaysIn` takes a `cumulFunction` or a "
                        "`stateFunction`", help="pass the name of a `cumulFunction` or a `stateFunction`")
    if len(node.args) == 4:  # over an interval: while `a` is present, on [start(a), end(a))
        a = interval_arg(ev, node, 1, env)
        lo, hi = (int_arg(ev, node, k, env) for k in (2, 3))
        if isinstance(lo, LinExpr) or isinstance(hi, LinExpr):
            raise EvalError("unsupported-cp-construct", node.args[2].span, "`alwaysIn` with decisions as its "
                            "bounds is not compiled to CP-SAT yet", help="give data")
        return _written(_cumul(f, lo, hi, node.span, ("interval", a.index)), node)
    nums = []
    for k in range(1, 5):
        v = int_arg(ev, node, k, env)
        if isinstance(v, LinExpr):
            raise EvalError("unsupported-cp-construct", node.args[k].span, "`alwaysIn` with decisions as its "
                            "bounds is not compiled to CP-SAT yet", help="give data")
        nums.append(v)
    return _written(_cumul(f, nums[2], nums[3], node.span, (nums[0], nums[1])), node)


def cumul_decl(inst: Any, d: A.CumulDecl, dims: list, envs: list) -> Any:
    """``cumulFunction f[dims] = expr;``: evaluated at once (a sum of elementary functions), for each
    ``(key, env)`` of ``envs`` over the index sets ``dims``; returns the value to declare."""
    from ...semantics.values import OplArray

    need_cp(inst, d.name_span, "`cumulFunction`")
    data = {}
    for key, env in envs:
        v = inst.ev.evaluate(d.expr, env)
        if is_number(v) and v == 0:
            v = CumulExpr()
        if not isinstance(v, CumulExpr):
            raise EvalError("cp-bad-argument", d.expr.span, "a `cumulFunction` is a sum of `pulse`, `stepAtStart` "
                            "and `stepAtEnd`, and this is not one", help="write `cumulFunction f = sum(i in I) "
                            "pulse(a[i], h[i]);`")
        data[key] = v
    return OplArray(d.name, dims, data) if dims else data[()]


@builtin("heightAtStart", "heightAtEnd")
def _height_at_start(ev: Any, node: A.Call, env: dict) -> Any:
    """``heightAtStart(a, f[, absentH])``: how much the interval ``a`` adds to the cumulative function
    ``f`` at its start (its ``pulse`` and ``stepAtStart`` heights, a chosen height included), ``absentH``
    (0 unless given) when ``a`` is absent (OPL Language Quick Reference, "heightAtStart"; IBM's example:
    ``pulse(a, 3) + pulse(a, 2) - stepAtEnd(a, 1)`` gives 5).  ``heightAtEnd(a, f[, absentH])``: "the total
    contribution of the end of" ``a`` (IloHeightAtEnd), its ``stepAtEnd`` heights; a ``pulse`` of ``a`` in
    ``f`` is refused there, since IBM's pages do not say what a pulse's end contributes."""
    arity(node, 2, 3)
    need_cp(ev.inst, node.span, "`%s`" % node.func)
    inst = ev.inst
    a = interval_arg(ev, node, 0, env)
    f = function_arg(ev, node, 1, env, CumulExpr, "cumulFunction", "pass the name of a `cumulFunction`")
    absent = data_int_arg(ev, node, 2, env, "the absent height")
    kinds = ("pulse", "stepAtStart") if node.func == "heightAtStart" else ("stepAtEnd",)
    if node.func == "heightAtEnd" and any(kind == "pulse" and iv is a for kind, iv, _h in f.terms):
        raise EvalError("unsupported-cp-construct", node.span, "`heightAtEnd` of an interval with a `pulse` in the "
                        "function is not compiled: IBM's pages do not say what the end of a pulse contributes",
                        help="use `heightAtStart` for a pulse's height, `heightAtEnd` for `stepAtEnd` heights")
    h = LinExpr(None, 0.0)
    for kind, iv, height in f.terms:
        if kind in kinds and iv is a:
            h.iadd(LinExpr({height.col: float(height.sign)}) if isinstance(height, VarHeight) else float(height))
    if a.presence is None:
        return h
    lo, hi = inst.bounds(h)
    t = inst.new_column(min(lo, absent), max(hi, absent), True, node.func)
    d = LinExpr({t: 1.0})
    d.iadd(h, -1.0)
    conditional(inst, d, 0.0, 0.0, [(a.presence, True)], node.span)
    conditional(inst, LinExpr({t: 1.0}), absent, absent, [(a.presence, False)], node.span)
    return LinExpr.var(t)


@builtin("overlapLength")
def _overlap_length(ev: Any, node: A.Call, env: dict) -> LinExpr:
    """``overlapLength(a, b[, absent])``: the length of the overlap of ``[start(a), end(a))`` and
    ``[start(b), end(b))``, ``max(0, min(ends) - max(starts))``, when both are present, else ``absent``
    (0); ``overlapLength(a, t0, t1[, absent])``: of ``a`` with the fixed window ``[t0, t1)`` (OPL
    Language Quick Reference, "overlapLength").  CP-SAT's min/max equalities and enforced rows."""
    from ..linearise.minmax import native_minmax

    arity(node, 2, 4)
    need_cp(ev.inst, node.span, "`overlapLength`")
    inst = ev.inst
    a = interval_arg(ev, node, 0, env)
    second = ev.evaluate(node.args[1], env)
    if isinstance(second, IntervalVar):
        b, rest = second, 2
        starts = [LinExpr.var(a.start), LinExpr.var(b.start)]
        ends = [LinExpr.var(a.end), LinExpr.var(b.end)]
        when = a.when() + [w for w in b.when() if w not in a.when()]
    else:
        t0, t1 = int_arg(ev, node, 1, env), int_arg(ev, node, 2, env)
        if isinstance(t0, LinExpr) or isinstance(t1, LinExpr):
            raise EvalError("cp-bad-argument", node.span, "the window of `overlapLength` is data",
                            help="write `overlapLength(a, t0, t1)` with numbers, or pass a second interval")
        rest = 3
        starts = [LinExpr.var(a.start), LinExpr(None, float(t0))]
        ends = [LinExpr.var(a.end), LinExpr(None, float(t1))]
        when = a.when()
    absent = data_int_arg(ev, node, rest, env, "the absent value")
    slo, shi = max(inst.bounds(e)[0] for e in starts), max(inst.bounds(e)[1] for e in starts)
    elo, ehi = min(inst.bounds(e)[0] for e in ends), min(inst.bounds(e)[1] for e in ends)
    last_start = native_minmax(inst, "max", starts, slo, shi, node.span)
    first_end = native_minmax(inst, "min", ends, elo, ehi, node.span)
    gap = first_end.copy()
    gap.iadd(last_start, -1.0)
    length = native_minmax(inst, "max", [gap, LinExpr(None, 0.0)], 0.0, max(0.0, ehi - slo), node.span)
    if not when:
        return length
    t = inst.new_column(min(0.0, absent), max(ehi - slo, absent, 0.0), True, "overlapLength")
    d = LinExpr({t: 1.0})
    d.iadd(length, -1.0)
    conditional(inst, d, 0.0, 0.0, when, node.span)
    for col, _v in when:  # either absent: the absent value
        conditional(inst, LinExpr({t: 1.0}), absent, absent, [(col, False)], node.span)
    return LinExpr.var(t)
