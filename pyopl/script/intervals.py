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

    def __init__(self, ctx: Any, name: str, prefix: tuple = ()):
        super().__init__(ctx)
        self.name, self.prefix = name, prefix
        self.dims = list(ctx.inst.symbols[name].value.dims) if prefix or _is_array(ctx, name) else []

    @property
    def is_item(self) -> bool:
        return len(self.prefix) == len(self.dims)

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
