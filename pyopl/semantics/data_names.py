"""A name the data gives but the model never declares (`range R = 1..n;` with `n = 3;` in the .dat).

The static checker reports each use of `n` as undeclared and the loader warns that the data sets an
unknown name; both say the same thing from two sides. This merges them into one error at the first
use (OPL1167) that says what to write: `int n = ...;`, typed after the data's value.
"""
from __future__ import annotations

import re
from typing import Any

from ..diagnostics.diagnostic import Diagnostic, Edit, Fix, Label, Span
from ..diagnostics.registry import BY_SLUG
from ..syntax import ast as A

_UNDECLARED = re.compile(r"^`([^`]+)` is not declared$")
_UNKNOWN_DATA = re.compile(r"^the data sets `([^`]+)`, which the model does not declare$")


def _type_word(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return None


def merge_undeclared_data_names(model: A.Model, data: dict, reporter: Any) -> None:
    """Replace the undeclared-name errors (OPL0101) and unknown-data warnings (OPL0402) of every name the
    data gives by one OPL1167 error at its first use, with a fix that declares it `= ...` (machine-applicable
    for a scalar number or string; an array or set is left to the user)."""
    if not data:
        return
    uses: dict[str, list[Diagnostic]] = {}
    for d in reporter.diagnostics:
        m = _UNDECLARED.match(d.message) if d.code == BY_SLUG["undeclared-name"].code else None
        if m and m.group(1) in data:
            uses.setdefault(m.group(1), []).append(d)
    if not uses:
        return
    drop = set()
    for name, ds in uses.items():
        drop.update(id(d) for d in ds)
    for d in reporter.diagnostics:
        m = _UNKNOWN_DATA.match(d.message)
        if m and m.group(1) in uses:
            drop.add(id(d))
    for d in reporter.diagnostics:
        if id(d) in drop:  # the place is free again for the merged error (the reporter drops repeats per place)
            reporter._error_at.discard((d.span.file, d.span.line, d.span.column))
    reporter.diagnostics[:] = [d for d in reporter.diagnostics if id(d) not in drop]
    # An `include` that could not be read may be where these names are declared (an IBM sample
    # keeps its declarations in `production_data.mod`): then that is the fix, not a new declaration.
    missing = [d for d in reporter.diagnostics if d.code == BY_SLUG["include-not-found"].code]
    for name, ds in uses.items():
        first = min(ds, key=lambda d: (d.line, d.column))
        item = data[name]
        word = _type_word(getattr(item, "value", None))
        decl = "%s %s = ...;" % (word or "<type>", name)
        fix = None
        at = _item_start(model, first.span)
        if at is not None and word is not None:
            fix = Fix("declare `%s` before its first use" % name, (Edit(at, decl + ("\n" if at.column == 1 else " ")),),
                      "machine-applicable")
        more = " (used %d times)" % len(ds) if len(ds) > 1 else ""
        labels = [Label(item.name_span, "given here")]
        help = "declare it in the model before its first use: `%s`" % decl
        if missing:
            inc = missing[0].span
            labels.insert(0, Label(inc, "this include could not be read"))
            help = "make the include on line %d readable (it may declare `%s`); else %s" % (inc.line, name, help)
            fix = None
        reporter.emit("data-name-not-declared", first.span,
                      "`%s` is given in the data but not declared in the model%s" % (name, more),
                      labels=labels, help=help, fix=fix)


def _item_start(model: A.Model, use: Span) -> Span | None:
    """An empty span at the start of the top-level item that holds ``use`` (where a declaration can go)."""
    for it in model.items:
        s = it.span
        if (s.line, s.column) <= (use.line, use.column) <= (s.end_line, s.end_column):
            return Span(s.file, s.line, s.column, s.line, s.column)
    return None
