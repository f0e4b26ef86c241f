"""``.dat`` scripting (OPL Language Quick Reference, "prepare" and "invoke"): ``prepare { ... }``
blocks define IBM ILOG Script functions; ``name = value invoke f;`` calls ``f(element, "name")``
once the element is read, and ``f`` may check or change it.

:func:`strip_dat_scripts` runs before the data is parsed: it blanks the blocks and clauses
(newlines kept, so every other span stays exact) and records them in the
:class:`~pyopl.data.parser.DataItems` being filled. :func:`invoke_dat` runs when the model's
declaration of the element has been evaluated (before any ``execute`` block that follows it): the
``prepare`` bodies run once, then the function is called with the element as a script object.
A function that no ``prepare`` block defines, one that returns ``false``, and an ``invoke`` with
scripts turned off are errors (OPL1063) naming it.
"""
from __future__ import annotations

import re
from typing import Any

from ...diagnostics.diagnostic import Span
from ...syntax.scripts import _line_col, _match_brace, blank, next_code_match

_SCRIPT = re.compile(r"prepare\s*\{|invoke\s+([A-Za-z_][A-Za-z0-9_]*)")
_TARGET = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=")


def strip_dat_scripts(text: str, file: str, reporter: Any, scripts: Any = None) -> str:
    """``text`` with ``prepare`` blocks and ``invoke NAME`` clauses blanked. Each is recorded in
    ``scripts`` (``.prepare``: ``(body, file, line, column)``; ``.invokes``: element name ->
    ``(function, span)``); with ``scripts`` None each is an error (OPL1063)."""
    if "prepare" not in text and "invoke" not in text:
        return text
    out = list(text)
    i = 0
    while (m := next_code_match(text, _SCRIPT, i, "pi")) is not None:
        i = m.start()
        line, col = _line_col(text, i)
        if m.group(1) is None:  # prepare { ... }
            close = _match_brace(text, m.end() - 1)
            end = close + 1 if close >= 0 else len(text)
            span = Span(file, line, col, line, col + len("prepare"))
            if scripts is not None and close >= 0:
                bline, bcol = _line_col(text, m.end())
                scripts.prepare.append((text[m.end():close], file, bline, bcol))
            else:
                reporter.emit("dat-script-unsupported", span, "this `prepare` block cannot be run (no closing `}`)"
                              if close < 0 else "`prepare` blocks in data files are not run here",
                              help="close the block with `}`, or compute the values in the model")
        else:
            end = m.end()
            span = Span(file, line, col, line, col + len(m.group(0)))
            target = _target(out, i)
            if scripts is not None and target is not None:
                scripts.invokes[target] = (m.group(1), span)
            else:
                reporter.emit("dat-script-unsupported", span, "`invoke %s` follows no `name = value`" % m.group(1),
                              help="write `name = value invoke %s;`" % m.group(1))
        blank(out, i, end)
        i = end
    return "".join(out)


def _target(out: list, at: int) -> str | None:
    """The element name of the statement that ends in the ``invoke`` at ``at`` (the text before it
    back to the previous ``;``, with earlier blocks already blanked)."""
    k = at - 1
    while k >= 0 and out[k] != ";":
        k -= 1
    m = _TARGET.match("".join(out[k + 1:at]).strip())
    return m.group(1) if m else None


def invoke_dat(inst: Any, name: str, context_of: Any) -> None:
    """Call the ``invoke`` function of the data element ``name`` (just declared in ``inst``):
    ``f(element, "name")``; its changes to the element are what the model sees. ``context_of``:
    the instance's script context maker (:func:`pyopl.script.flow.processing.context_of`)."""
    from ..opl.host import ModelHost
    from ..language.budgets import metered
    from ..engine.interpreter import Interpreter
    from ..engine.parser import parse_script
    from ..language.values import ScriptError

    fn_name, span = inst.data.invokes[name]
    inst.has_scripts = True  # the data's scripts print and set data like the model's own
    ctx = context_of(inst)
    if not ctx.options.enabled:
        inst.reporter.emit("dat-script-unsupported", span, "`invoke %s` was not run (scripts are turned off), but it "
                           "may change `%s`" % (fn_name, name), help="run the scripts (drop `--no-scripts`)")
        return
    interp = getattr(ctx, "dat_interpreter", None)
    try:
        if interp is None:
            interp = Interpreter(ModelHost(ctx), ctx.write, max_steps=ctx.options.max_steps,
                                 max_memory=ctx.options.max_memory, file=span.file)
            for body, file, line, col in inst.data.prepare:
                program = parse_script(body, file, line, col)
                if isinstance(program, list):
                    inst.reporter.diagnostics.extend(program)
                    ctx.failed = True
                    return
                ctx.phase = "pre"
                with metered(ctx.meter, interp):
                    interp.run(program)
            ctx.dat_interpreter = interp
        fn = interp.globals.get(fn_name)
        if fn is None:
            inst.reporter.emit("dat-script-unsupported", span, "`invoke %s`: no `prepare` block defines a function `%s`"
                               % (fn_name, fn_name), help="define `function %s(element, name) { ... }` in a `prepare` "
                               "block of the data" % fn_name)
            return
        ctx.phase = "pre"
        element = ModelHost(ctx).get_member(name, span)
        with metered(ctx.meter, interp):
            value = interp.call(fn, [element, name], span=span)
        ctx.invalidate()
        if value is False:
            inst.reporter.emit("dat-script-unsupported", span, "`invoke %s` returned false for `%s`: the data is "
                               "refused" % (fn_name, name), help="fix the data, or the check in `%s`" % fn_name)
    except ScriptError as e:
        inst.reporter.diagnostics.append(e.to_diagnostic())
        ctx.failed = True
