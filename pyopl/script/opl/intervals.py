"""Interval variables seen from ILOG Script after a CP solve (OPL manual, "Interval variables" in
scripts; IBM ILOG Script reference, class ``IloIntervalVar``): ``a.start``, ``a.end``, ``a.size``,
``a.length``, ``a.present``, ``a.absent``, ``a.name``, and ``writeln(a)`` in
IBM's form ``<present start end size>`` (``<0 0 0 0>`` for an absent interval)."""
from __future__ import annotations

from typing import Any

from .host_errors import host_error
from .opl_objects import _Host, _domain_words, display, to_key, to_script


class IntervalHost(_Host):
    """An interval variable, or an array of them (``prefix``: the indices given so far)."""

    type_name = "interval"
    script_class = "IloIntervalVar"

    def __init__(self, ctx: Any, name: str, prefix: tuple = ()):
        super().__init__(ctx)
        self.name, self.prefix = name, prefix
        self.dims = list(ctx.inst.symbols[name].value.dims) if prefix or _is_array(ctx, name) else []

    @property
    def is_item(self) -> bool:
        return len(self.prefix) == len(self.dims)

    def __eq__(self, other: object) -> bool:
        # one OPL interval however it was reached (`s != seq.last()` in IBM's VRP example ends its loop)
        return isinstance(other, IntervalHost) and (other.ctx, other.name, other.prefix) == (self.ctx, self.name, self.prefix)

    def __hash__(self) -> int:
        return hash((self.name, self.prefix))

    def _label(self) -> str:
        return self.name + "".join("[%s]" % display(p, True) for p in self.prefix)

    def _properties(self) -> list[str]:
        return ["start", "end", "size", "length", "present", "absent", "name"] if self.is_item else []

    def _value(self, span: Any) -> Any:
        ctx = self.ctx
        ctx._need_solution("`%s`" % self._label(), span)
        v = ctx.result.variables.get(self.name)
        return v[self.prefix] if self.prefix else v

    def get_member(self, name: str, span: Any) -> Any:
        if self.is_item and name == "name":  # the declared name with its indices, as IBM prints it
            return self._label()
        if self.is_item and name in ("start", "end", "size", "present", "absent", "length"):
            v = self._value(span)
            if name in ("present", "absent"):  # a boolean (OPL manual, "Accessing solutions in postprocessing")
                return bool(v.present) == (name == "present")
            return float(v.end - v.start if name == "length" else getattr(v, name))
        return self._method(name, span)

    def get_index(self, key: Any, span: Any) -> Any:
        if self.is_item:
            return super().get_index(key, span)
        dom = self.dims[len(self.prefix)]
        k = to_key(key)
        if k not in dom:
            raise host_error("script-index-out-of-range", "index %s is outside the index set of `%s` (%s)" % (
                display(k, True), self._label(), _domain_words(dom)), span,
                help="index with an element of the interval array's index set")
        return IntervalHost(self.ctx, self.name, self.prefix + (k,))

    def iter_keys(self):
        if self.is_item:
            return iter(())
        return (to_script(self.ctx, k) for k in list(self.dims[len(self.prefix)]))

    def to_display(self) -> str:
        if not self.ctx.has_solution():
            return self._label()
        if self.is_item:
            return str(self._value(None))
        return "[%s]" % " ".join(IntervalHost(self.ctx, self.name, self.prefix + (k,)).to_display()
                                 for k in self.dims[len(self.prefix)])


def _is_array(ctx: Any, name: str) -> bool:
    return bool(getattr(ctx.inst.symbols[name].value, "dims", None))


class SequenceHost(_Host):
    """A ``dvar sequence`` after a CP solve (OPL manual, "Accessing solutions in postprocessing"):
    ``p.first()``, ``p.last()``, ``p.next(a)``, ``p.prev(a)`` (an interval, or ``null`` at the end) and
    ``writeln(p)``, the present intervals in the sequence's order (``{a[1] a[3]}``); an array of
    sequences is indexed first.  The order of a solution is that of the present intervals by start,
    then end, then their place in the declaration (the order ``noOverlap`` makes)."""

    type_name = "sequence"
    script_class = "IloIntervalSequenceVar"

    def __init__(self, ctx: Any, name: str, value: Any, prefix: tuple = ()):
        super().__init__(ctx)
        self.name, self.value, self.prefix = name, value, prefix

    def _is_array(self) -> bool:
        from ...semantics.values import OplArray

        return isinstance(self.value, OplArray)

    def _label(self) -> str:
        return self.name + "".join("[%s]" % display(p, True) for p in self.prefix)

    def _methods(self) -> dict:
        if self._is_array():
            return {}
        return {"first": lambda a, s: self._end(s, 0), "last": lambda a, s: self._end(s, -1),
                "next": lambda a, s: self._step(a, s, 1), "prev": lambda a, s: self._step(a, s, -1)}

    def order(self, span: Any) -> list:
        """The present intervals of the sequence in the solution's order."""
        ctx = self.ctx
        ctx._need_solution("`%s`" % self._label(), span)
        seq = self.value
        rows = []
        for k, iv in enumerate(seq.intervals):
            v = ctx.result.variables.get(iv.name)
            v = v[iv.key] if iv.key else v
            if v is not None and v.present:
                rows.append((v.start, v.end, k, iv))
        return [iv for *_r, iv in sorted(rows, key=lambda r: r[:3])]

    def _host(self, iv: Any) -> Any:
        host = IntervalHost(self.ctx, iv.name)
        for k in iv.key:
            host = IntervalHost(self.ctx, iv.name, host.prefix + (k,))
        return host

    def _end(self, span: Any, at: int) -> Any:
        from ..language.values import NULL

        order = self.order(span)
        return self._host(order[at]) if order else NULL

    def _step(self, args: list, span: Any, d: int) -> Any:
        from ..language.values import NULL

        a = args[0] if args else None
        if not isinstance(a, IntervalHost) or not a.is_item:
            raise host_error("script-value-type", "`%s.%s(a)` takes an interval variable of the sequence" % (
                self._label(), "next" if d > 0 else "prev"), span, help="pass `a[i]`, an interval of the sequence")
        order = self.order(span)
        keys = [(iv.name, iv.key) for iv in order]
        here = (a.name, a.prefix)
        if here not in keys:
            return NULL
        k = keys.index(here) + d
        return self._host(order[k]) if 0 <= k < len(order) else NULL

    def get_index(self, key: Any, span: Any) -> Any:
        if not self._is_array():
            return super().get_index(key, span)
        k = to_key(key)
        sub = {kk[1:]: v for kk, v in self.value.data.items() if kk[0] == k}
        if not sub:
            raise host_error("script-index-out-of-range", "index %s is outside the index set of `%s`" % (
                display(k, True), self._label()), span, help="index with an element of the sequence array's index set")
        if len(self.value.dims) == 1:
            return SequenceHost(self.ctx, self.name, sub[()], self.prefix + (k,))
        from ...semantics.values import OplArray

        return SequenceHost(self.ctx, self.name, OplArray(self.name, self.value.dims[1:], sub), self.prefix + (k,))

    def iter_keys(self):
        if not self._is_array():
            return iter(())
        return (to_script(self.ctx, k) for k in list(self.value.dims[0]))

    def to_display(self) -> str:
        if self._is_array():
            return "[%s]" % " ".join(self.get_index(k, None).to_display() for k in self.value.dims[0])
        if not self.ctx.has_solution():
            return self._label()
        return "{%s}" % " ".join(iv.label() for iv in self.order(None))


class StateFunctionHost(_Host):
    """A ``stateFunction`` after a CP solve: ``getNumberOfSegments()``, ``getSegmentStart(i)``,
    ``getSegmentEnd(i)``, ``getSegmentValue(i)`` (``-1`` where no interval defines the state) and
    ``getValue(t)``, over the segments of :func:`pyopl.lowering.cp.constraints.state_functions.state_segments`."""

    type_name = "stateFunction"
    script_class = "IloStateFunctionExpr"

    def __init__(self, ctx: Any, name: str, value: Any):
        super().__init__(ctx)
        self.name, self.value = name, value

    def _segments(self, span: Any) -> list:
        from ...lowering.cp.segments import cumul_segments
        from ...lowering.cp.state_functions import state_segments

        ctx = self.ctx
        ctx._need_solution("`%s`" % self.name, span)

        def value_of(iv: Any) -> Any:
            v = ctx.result.variables.get(iv.name)
            return v[iv.key] if iv.key else v
        segments = cumul_segments if self.type_name == "cumulFunction" else state_segments
        return segments(self.value, value_of, lambda j: float(ctx.result.column_values[j]))

    def _segment(self, args: list, span: Any, part: int) -> float:
        from .opl_objects import _arg, _num

        segs = self._segments(span)
        k = _num(self.ctx, _arg(args, 0), span, "the segment's number")
        if not float(k).is_integer() or not 0 <= k < len(segs):
            raise host_error("script-index-out-of-range", "`%s` has %d segments, numbered 0 to %d" % (
                self.name, len(segs), len(segs) - 1), span, help="loop up to `getNumberOfSegments()`")
        return float(segs[int(k)][part])

    def _methods(self) -> dict:
        return {"getNumberOfSegments": lambda a, s: float(len(self._segments(s))),
                "getSegmentStart": lambda a, s: self._segment(a, s, 0),
                "getSegmentEnd": lambda a, s: self._segment(a, s, 1),
                "getSegmentValue": lambda a, s: self._segment(a, s, 2),
                "getValue": self._value_at}

    def _value_at(self, args: list, span: Any) -> float:
        from .opl_objects import _arg, _num

        t = _num(self.ctx, _arg(args, 0), span, "the time")
        return float(next((v for s, e, v in self._segments(span) if s <= t < e), -1))

    def to_display(self) -> str:
        return self.name


class CumulFunctionHost(StateFunctionHost):
    """A ``cumulFunction`` after a CP solve: the same methods over the segments of
    :func:`pyopl.lowering.cp.constraints.segments.cumul_segments` (IloCumulFunctionExpr, IBM ILOG Script for OPL)."""

    type_name = "cumulFunction"


#: ``Opl.<name>(p, a, endVal[, absVal])`` in a script: which neighbour of ``a`` in the sequence ``p``
#: (+1 next, -1 previous) and what of it (its type, or an attribute of its solution)
NEIGHBOUR_FUNCTIONS = {fn + side: (d, what) for side, d in (("Next", 1), ("Prev", -1))
                       for fn, what in (("typeOf", "type"), ("startOf", "start"), ("endOf", "end"),
                                        ("sizeOf", "size"), ("lengthOf", "length"))}


def neighbour_value(ctx: Any, fn: str, args: list, span: Any) -> float:
    """``Opl.typeOfNext(p, a, lastVal[, absVal])`` and its kin (``typeOfPrev``, ``startOfNext``, ...,
    ``lengthOfPrev``) after a CP solve: the type (start, end, size, length) of the interval next to
    (previous to) ``a`` in the solution's order of ``p``; ``lastVal`` (``firstVal``; 0 if omitted) when
    ``a`` is the last (first) one, ``absVal`` (0) when ``a`` is absent (OPL Language Reference,
    "typeOfNext", "typeOfPrev"; IBM's VRP example reads ``Opl.typeOfPrev(seq, s, 100)``).  A script
    error when ``p`` is not one sequence or ``a`` not one of its intervals."""
    from .opl_objects import _num

    d, what = NEIGHBOUR_FUNCTIONS[fn]
    seq = args[0] if args else None
    a = args[1] if len(args) > 1 else None
    if not isinstance(seq, SequenceHost) or seq._is_array() or not isinstance(a, IntervalHost) or not a.is_item:
        raise host_error("script-value-type", "`Opl.%s(p, a, %s[, absVal])` takes a sequence variable and one of "
                         "its intervals" % (fn, "lastVal" if d > 0 else "firstVal"), span,
                         help="write e.g. `Opl.%s(seq, a[i], 0)` with `a[i]` an interval of `seq`" % fn)
    everyone = [(iv.name, iv.key) for iv in seq.value.intervals]
    here = (a.name, a.prefix)
    if here not in everyone:
        raise host_error("script-value-type", "`%s` is not an interval of the sequence `%s`" % (
            a._label(), seq._label()), span, help="pass an interval the sequence was declared over")
    extra = [_num(ctx, v, span, "a value of `Opl.%s`" % fn) for v in args[2:4]]
    if not a.get_member("present", span):
        return float(extra[1]) if len(extra) > 1 else 0.0
    order = seq.order(span)
    k = [(iv.name, iv.key) for iv in order].index(here) + d
    if not 0 <= k < len(order):
        return float(extra[0]) if extra else 0.0
    if what != "type":
        return seq._host(order[k]).get_member(what, span)
    pos = everyone.index((order[k].name, order[k].key))
    types = seq.value.types
    return float(pos if types is None else types[pos])
