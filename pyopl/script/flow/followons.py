"""Diagnostics that only follow from a failed pre-processing script, left out.

When an ``execute`` block fails before the model is built, the elements it would have assigned keep
their zeros (or no value), and the model built from them draws warnings that mislead: `cap` "has no
initializer and no script sets it" (one does: it failed), a constraint over `cap` "cannot hold", a
`total` the script sets "is declared without a value". The script's error is the one to fix; so the
diagnostics that come after it and concern an element the failed block may set (named in the
message, or in the source lines the diagnostic points at) are dropped, and the script's error says
how many were. Which elements: :func:`pyopl.script.flow.model_writes.may_set` on the block's AST and
:func:`pyopl.script.flow.model_writes.assigns` on its text (both err on the side of "may set").
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

#: Errors that are follow-ons when they name an element the failed block sets (warnings always are).
FOLLOW_ON_ERRORS = {"OPL0413"}  # data-no-value: `total` is declared without a value


def note_failed_block(ctx: Any, inst: Any, block: Any) -> None:
    """Record on ``ctx`` the elements ``block`` (which just failed) may set, and where the diagnostics
    it caused begin (``ctx.failed_sets``, ``ctx.failed_mark``, ``ctx.failed_error``)."""
    from .model_writes import assigns, may_set
    from ..engine.parser import parse_script

    names = [n for n, s in inst.symbols.items() if s.kind in ("param", "set", "dvar", "failed")]
    scalars = [n for n in names if isinstance(getattr(inst.symbols[n], "value", None), (bool, int, float, str))]
    program = parse_script(block.body, block.span.file, block.body_line, block.body_column)
    found = may_set(program, names, scalars) if not isinstance(program, list) else set()
    # names declared later in the file are not symbols yet: the text rule finds them
    declared_later = {d for d in _declared_names(inst) if d not in inst.symbols}
    found |= {n for n in list(names) + sorted(declared_later) if assigns(block.body, n)}
    ctx.failed_sets = found
    ctx.failed_mark = len(ctx.reporter.diagnostics)
    ctx.failed_error = ctx.failed_mark - 1 if ctx.failed_mark else None


def _declared_names(inst: Any) -> list[str]:
    return [getattr(it, "name", None) for it in getattr(inst.model, "items", []) if isinstance(getattr(it, "name", None), str)]


def drop_followons(ctx: Any, inst: Any) -> None:
    """Drop the diagnostics after ``ctx.failed_mark`` that follow from the failed block (see the module
    docstring); a note on the script's error counts them. Nothing happens when no block failed."""
    names = getattr(ctx, "failed_sets", None)
    if not names:
        return
    diags = ctx.reporter.diagnostics
    mark = ctx.failed_mark
    word = re.compile(r"\b(%s)\b" % "|".join(re.escape(n) for n in sorted(names)))
    lines = _model_lines(ctx)
    kept, dropped = [], set()
    for d in diags[mark:]:
        about = set(re.findall(r"`([^`]+)`", d.message)) & names
        if not about and d.file == ctx.model_file and lines:
            text = "\n".join(lines[d.span.line - 1:d.span.end_line])
            about = set(word.findall(text))
        if about and (d.severity == "warning" or d.code in FOLLOW_ON_ERRORS):
            dropped.update(about)
            continue
        kept.append(d)
    if len(kept) == len(diags) - mark:
        return
    n = len(diags) - mark - len(kept)
    diags[mark:] = kept
    i = ctx.failed_error
    if i is not None and 0 <= i < len(diags):
        note = ("%d diagnostic%s that follow%s from this error (about %s) %s not shown: fix this first"
                % (n, "" if n == 1 else "s", "s" if n == 1 else "", ", ".join("`%s`" % x for x in sorted(dropped)), "is" if n == 1 else "are"))
        diags[i] = dataclasses.replace(diags[i], notes=tuple(diags[i].notes) + (note,))


def _model_lines(ctx: Any) -> list[str]:
    model = getattr(getattr(ctx, "inst", None), "model", None)
    src = getattr(model, "source", None) or getattr(ctx.reporter, "sources", {}).get(ctx.model_file)
    return src.split("\n") if isinstance(src, str) else []
