"""``printExternalData()`` / ``printInternalData()`` of ``IloOplModel`` (IBM, "Printing data to a
stream": "print all the data to a stream, using the .dat file syntax"; the external data are the
elements declared with ``= ...``, the internal data those the model computes, IBM's "Exporting
internal data").

In a script both return the text (IBM's IDE writes it with ``out.writeln(m.printExternalData())``):
one ``name = value;`` line per element, in declaration order, in a form a ``.dat`` file takes
back (numbers as scripts print them, `infinity` as the keyword, strings quoted with ``\\`` escapes, ``{a, b}`` sets,
``<a, b>`` tuples, ``[a, b]`` arrays over their whole index sets, ``lo..hi`` ranges).  The text
is bounded by what a script may print (:data:`pyopl.script.flow.opl_runtime.MAX_OUTPUT` characters).
"""
from __future__ import annotations

import math
from typing import Any

from ...semantics.values import FloatRange, OplArray, OplRange, OplSet, OplTuple
from ...syntax import ast as A
from ..language.budgets import charge_chars
from ..language.convert import CHARS_PER_STEP
from .host_errors import host_error

_CHARGE_EVERY = 1000 * CHARS_PER_STEP  # characters taken between two charges of the step budget
from .opl_objects import js_number


#: The characters a string of a .dat file writes escaped (pyopl/syntax/handlers.py reads them back).
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


class _Budget:
    """The characters the printed data may still take; every value taken is also charged to the
    script's step budget (one step per ``CHARS_PER_STEP`` characters, and one per value)."""

    def __init__(self, limit: int, span: Any):
        self.left = limit
        self.span = span
        self.pending = 0  # characters and values not yet charged

    def take(self, text: str) -> str:
        self.left -= len(text)
        self.pending += len(text) + CHARS_PER_STEP  # a value costs a step, however short
        if self.pending >= _CHARGE_EVERY:
            charge_chars(self.pending, self.span)
            self.pending = 0
        if self.left < 0:
            from ..language.values import ScriptError

            raise ScriptError("script-memory-budget", "the printed data would be longer than the output budget", self.span,
                              help="print the elements you need with writeln", catchable=False)
        return text


def dat_value(v: Any, budget: _Budget) -> str:
    """``v`` in ``.dat`` syntax (see the module docstring)."""
    if isinstance(v, bool):
        return budget.take("1" if v else "0")
    if isinstance(v, (int, float)):
        if v in (math.inf, -math.inf):  # the .dat keyword (`Infinity`, as a script prints it, reads back as a name)
            return budget.take("infinity" if v > 0 else "-infinity")
        return budget.take(js_number(v))
    if isinstance(v, str):
        return budget.take('"%s"' % "".join(_ESCAPES.get(c, c) for c in v))
    if isinstance(v, OplTuple):
        return "<" + ", ".join(dat_value(x, budget) for x in v) + ">"
    if isinstance(v, (OplRange, FloatRange)):
        return budget.take("%s..%s" % (js_number(v.lo), js_number(v.hi)))
    if isinstance(v, OplSet):
        return "{" + ", ".join(dat_value(x, budget) for x in v) + "}"
    if isinstance(v, OplArray):
        data = v.data

        def walk(k: int, prefix: tuple) -> str:
            if k == len(v.dims):
                return dat_value(data.get(prefix, 0), budget)
            return "[" + ", ".join(walk(k + 1, prefix + (x,)) for x in v.dims[k]) + "]"
        return walk(0, ())
    raise host_error("script-value-type", "a value of the data cannot be printed in .dat syntax", budget.span,
                     help="print it with writeln")


def is_external(sym: Any) -> bool:
    """Whether the data element ``sym`` is external (declared with ``= ...``)."""
    init = getattr(sym.decl, "init", None)
    return isinstance(init, A.External)


def data_text(ctx: Any, external: bool, span: Any, limit: int) -> str:
    """The external (or internal) data of the model of ``ctx`` as ``.dat`` text, at most ``limit``
    characters (a script error past it)."""
    from .host import element

    budget = _Budget(limit, span)
    lines = []
    for name, sym in list(ctx.inst.symbols.items()):
        if sym.kind not in ("param", "set", "range") or is_external(sym) != external:
            continue
        element(ctx, name, span)  # (IBM's lazy initialisation: an internal datum is computed when first used)
        value = ctx.inst.symbols[name].value
        if value is None:
            continue
        lines.append(budget.take("%s = " % name) + dat_value(value, budget) + budget.take(";"))
    charge_chars(budget.pending, span)
    return "".join(line + "\n" for line in lines)
