"""``.dat`` scripting (``prepare { ... }`` and ``... invoke f;``, OPL manual "Data files: prepare
and invoke"): found before the data is parsed and reported as unsupported (OPL1063).

An ``invoke`` function may check or change the value it is given, so running the data without it
could silently differ from IBM's; each place is an error naming it.  The blocks are blanked
(newlines kept, so every other span stays exact) so the rest of the file still parses and its own
mistakes are still reported.
"""
from __future__ import annotations

import re
from typing import Any

from ..diagnostics.diagnostic import Span
from ..syntax.scripts import _line_col, _match_brace, _skip_string_or_comment

_PREPARE = re.compile(r"\bprepare\s*\{")
_INVOKE = re.compile(r"\binvoke\s+([A-Za-z_][A-Za-z0-9_]*)")


def strip_dat_scripts(text: str, file: str, reporter: Any) -> str:
    """``text`` with ``prepare`` blocks and ``invoke NAME`` clauses blanked; one error for each."""
    if "prepare" not in text and "invoke" not in text:
        return text
    out = list(text)
    i = 0
    while i < len(text):
        j = _skip_string_or_comment(text, i)
        if j != i:
            i = j
            continue
        m = _PREPARE.match(text, i) if text[i] == "p" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        n = _INVOKE.match(text, i) if text[i] == "i" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:
            close = _match_brace(text, m.end() - 1)
            end = close + 1 if close >= 0 else len(text)
            line, col = _line_col(text, i)
            reporter.emit("dat-script-unsupported", Span(file, line, col, line, col + len("prepare")),
                          "`prepare` blocks in data files are not run by pyopl",
                          help="compute the values in the model (an `execute` block or OPL declarations) "
                               "and remove `prepare` and `invoke` from the data")
        elif n:
            end = n.end()
            line, col = _line_col(text, i)
            reporter.emit("dat-script-unsupported", Span(file, line, col, line, col + len(n.group(0))),
                          "`invoke %s` is not run by pyopl: the value is read as written" % n.group(1),
                          help="check or transform the value in the model instead, and remove `invoke %s`" % n.group(1))
        else:
            i += 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out)
