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

from ..semantics.values import show
from ..syntax import ast as A
from .builtins import SEQUENCE_FUNCTIONS, builtin
from .cp import CpConstraint, need_cp
from .errors import EvalError
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
