"""The constraints on a ``dvar sequence`` of ``using CP;`` models: ``first(p, a)``, ``last(p, a)``,
``before(p, a, b)``, ``prev(p, a, b)`` (OPL manual, "Constraints on sequence variables"; OPL
Language Quick Reference, "prev (scheduling)").

A sequence is a total order of its *present* intervals, free unless ``noOverlap(p)`` ties it to
time.  ``first(p, a)``: if ``a`` is present it is the first interval of ``p``; ``last`` likewise;
``before(p, a, b)``: if both are present, ``a`` comes before ``b`` (others may come between);
``prev(p, a, b)``: if both are present, ``a`` comes just before ``b``.  An absent interval makes the
constraint hold.  Each call becomes a ``CpConstraint`` of kind ``"sequence"``; the backend gives
every sequence that has one a circuit of successor literals (pyopl/backends/cpsat_sequence.py).
"""
from __future__ import annotations

from typing import Any

from ...semantics.values import show
from ...syntax import ast as A
from ..functions.builtins import SEQUENCE_FUNCTIONS, builtin
from .constraints import CpConstraint, need_cp
from ..forms.errors import EvalError
from .intervals import Sequence, interval_arg

#: the sequence functions and their number of arguments (the sequence first)
ARITY = {"first": 2, "last": 2, "before": 3, "prev": 3}


def sequence_constraint(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``first(p, a)``, ``last(p, a)``, ``before(p, a, b)``, ``prev(p, a, b)`` as a ``CpConstraint``
    with ``data = {"seq": name, "intervals": [interval numbers of p], "fn": name, "at": [positions of
    a (and b) in p]}``.  Raises EvalError: ``call-arity``, ``cp-bad-argument`` when the first
    argument is not a ``dvar sequence`` or an interval is not one of its intervals."""
    f = node.func
    if len(node.args) != ARITY[f]:
        raise EvalError("call-arity", node.span, "`%s` on a sequence takes %d arguments, %d given" % (
            f, ARITY[f], len(node.args)), help="call it as `%s(p, %s)`" % (f, "a" if ARITY[f] == 2 else "a, b"))
    need_cp(ev.inst, node.span, "`%s`" % f)
    seq = ev.evaluate(node.args[0], env)
    if not isinstance(seq, Sequence):
        raise EvalError("cp-bad-argument", node.args[0].span, "`%s` takes a `dvar sequence` first, but this is %s"
                        % (f, "a decision expression" if type(seq).__name__ == "LinExpr" else show(seq)),
                        help="declare `dvar sequence p in A;` and pass `p`")
    meter = getattr(getattr(ev.inst, "rows", None), "meter", None)
    if meter is not None:  # the n^2 order CP-SAT will make for the sequence: sized before anything is made
        meter.order_sequence(seq.name, len(seq.intervals), node.span, f)
    pos = {iv.index: k for k, iv in enumerate(seq.intervals)}
    at = []
    for k in range(1, ARITY[f]):
        iv = interval_arg(ev, node, k, env)
        if iv.index not in pos:
            raise EvalError("cp-bad-argument", node.args[k].span, "`%s` is not an interval of the sequence `%s`"
                            % (iv.label(), seq.name), help="pass one of the intervals the sequence is declared over")
        at.append(pos[iv.index])
    return CpConstraint("sequence", [], node.span, data={
        "seq": seq.name, "intervals": [iv.index for iv in seq.intervals], "fn": f, "at": at})


builtin("before")(sequence_constraint)
for _name in ("first", "last", "prev"):  # the set functions of those names take one argument fewer
    SEQUENCE_FUNCTIONS[_name] = (ARITY[_name], sequence_constraint)


#: the expressions on a neighbour in a sequence: name -> (the neighbour, its attribute)
NEIGHBOUR = {"%sOf%s" % (attr, side): (side.lower(), attr) for attr in ("type", "start", "end", "size", "length")
             for side in ("Next", "Prev")}


def neighbour_expression(ev: Any, node: A.Call, env: dict) -> Any:
    """``typeOfNext(p, a, lastValue=0, absentValue=0)`` and the other ``...OfNext``/``...OfPrev`` (OPL
    Language Quick Reference, "typeOfNext"): the type (start, end, size, length) of the interval just
    after (before) ``a`` in the sequence ``p``; ``lastValue`` (``firstValue``) when ``a`` is the last
    (first) one, ``absentValue`` when ``a`` is absent.  An integer column ``t`` tied by the sequence's
    circuit (pyopl/backends/cpsat_sequence.py): each arc ``a -> b`` makes ``t`` the value of ``b``."""
    from .intervals import int_arg
    from ..forms.linear import LinExpr

    f = node.func
    side, attr = NEIGHBOUR[f]
    if not 2 <= len(node.args) <= 4:
        raise EvalError("call-arity", node.span, "`%s` takes 2 to 4 arguments, %d given" % (f, len(node.args)),
                        help="call it as `%s(p, a, lastValue, absentValue)`" % f)
    need_cp(ev.inst, node.span, "`%s`" % f)
    seq = ev.evaluate(node.args[0], env)
    if not isinstance(seq, Sequence):
        raise EvalError("cp-bad-argument", node.args[0].span, "`%s` takes a `dvar sequence` first" % f,
                        help="declare `dvar sequence p in A;` and pass `p`")
    iv = interval_arg(ev, node, 1, env)
    pos = {x.index: k for k, x in enumerate(seq.intervals)}
    if iv.index not in pos:
        raise EvalError("cp-bad-argument", node.args[1].span, "`%s` is not an interval of the sequence `%s`"
                        % (iv.label(), seq.name), help="pass one of the intervals the sequence is declared over")
    ends = [int_arg(ev, node, k, env) for k in (2, 3)]
    if any(isinstance(v, LinExpr) for v in ends):
        raise EvalError("cp-bad-argument", node.span, "the last and absent values of `%s` are data" % f,
                        help="give numbers")
    types = seq.types if seq.types is not None else list(range(len(seq.intervals)))  # (IBM: the position)
    inst = ev.inst
    if attr == "type":
        vals = list(types)
    else:
        cols = inst.cols
        L, U = cols.lower.flat(), cols.upper.flat()
        part = {"start": "start", "end": "end", "size": "size"}.get(attr)
        if part is None:  # length: end - start
            vals = [L[x.end] - U[x.start] for x in seq.intervals] + [U[x.end] - L[x.start] for x in seq.intervals]
        else:
            vals = [L[getattr(x, part)] for x in seq.intervals] + [U[getattr(x, part)] for x in seq.intervals]
    vals = [float(v) for v in vals] + [float(v) for v in ends]
    t = inst.new_column(min(vals), max(vals), True, f)
    inst.cp_constraints.append(CpConstraint("neighbour", [], node.span, data={
        "seq": seq.name, "intervals": [x.index for x in seq.intervals], "at": pos[iv.index], "side": side,
        "attr": attr, "types": list(types), "target": t, "last": ends[0], "absent": ends[1]}))
    return LinExpr.var(t)


for _name in NEIGHBOUR:
    builtin(_name)(neighbour_expression)


@builtin("sameSequence", "sameCommonSubsequence")
def _same_sequence(ev: Any, node: A.Call, env: dict) -> CpConstraint:
    """``sameSequence(p1, p2[, A1, A2])``: the two sequences are the same modulo the mapping of their
    intervals (by their order in the declarations, or ``A1[i]`` to ``A2[i]``): corresponding intervals
    are present together and come in the same order (OPL Language Quick Reference, "sameSequence").
    Both sequences get their circuits (pyopl/backends/cpsat_sequence.py), tied arc by arc.
    ``sameCommonSubsequence(p1, p2[, A1, A2])``: the pairs ``(A1[i], A2[i])`` with both present come in
    the same order in both sequences (the arrays may name part of each sequence, each interval once;
    "sameCommonSubsequence"): the circuits' ranks compared pair by pair."""
    from .intervals import interval_list

    f = node.func
    if len(node.args) not in (2, 4):
        raise EvalError("call-arity", node.span, "`%s` takes 2 or 4 arguments, %d given" % (f, len(node.args)),
                        help="call it as `%s(p1, p2)` or `%s(p1, p2, A1, A2)`" % (f, f))
    need_cp(ev.inst, node.span, "`%s`" % f)
    seqs = [ev.evaluate(a, env) for a in node.args[:2]]
    for s, a in zip(seqs, node.args[:2]):
        if not isinstance(s, Sequence):
            raise EvalError("cp-bad-argument", a.span, "`%s` takes two `dvar sequence`s first" % f,
                            help="declare `dvar sequence p in A;` and pass `p`")
    p1, p2 = seqs
    if len(node.args) == 2 and len(p1.intervals) != len(p2.intervals):
        raise EvalError("cp-bad-argument", node.span, "the sequences of `%s` have %d and %d intervals" % (
            f, len(p1.intervals), len(p2.intervals)), help="relate sequences of the same size")
    if len(node.args) == 2:
        pairs = [(k, k) for k in range(len(p1.intervals))]
    else:
        a1, a2 = (interval_list(ev, a, env, f) for a in node.args[2:])
        pos1 = {iv.index: k for k, iv in enumerate(p1.intervals)}
        pos2 = {iv.index: k for k, iv in enumerate(p2.intervals)}
        pairs = [(pos1.get(x.index), pos2.get(y.index)) for x, y in zip(a1, a2)]
        whole = f == "sameCommonSubsequence" or (len({i for i, _ in pairs}) == len(p1.intervals)
                                                  and len({j for _, j in pairs}) == len(p2.intervals))
        if len(a1) != len(a2) or any(i is None or j is None for i, j in pairs) or not whole or \
                len({i for i, _ in pairs}) != len(pairs) or len({j for _, j in pairs}) != len(pairs):
            raise EvalError("cp-bad-argument" if f == "sameCommonSubsequence" else "unsupported-cp-construct",
                            node.span, "the arrays of `%s` map intervals of the first sequence one to one to "
                            "intervals of the second%s" % (f, "" if f == "sameCommonSubsequence" else
                                                            ", every interval (as pyopl compiles it)"),
                            help="give two arrays of the same length, each naming intervals of its sequence once")
    return CpConstraint(f, [], node.span, data={
        "seq": p1.name, "intervals": [iv.index for iv in p1.intervals],
        "seq2": p2.name, "intervals2": [iv.index for iv in p2.intervals], "pairs": pairs})
