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
from ..syntax.scripts import _line_col, _match_brace, blank, next_code_match

_SCRIPT = re.compile(r"prepare\s*\{|invoke\s+([A-Za-z_][A-Za-z0-9_]*)")


def strip_dat_scripts(text: str, file: str, reporter: Any) -> str:
    """``text`` with ``prepare`` blocks and ``invoke NAME`` clauses blanked; one error for each."""
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
            reporter.emit("dat-script-unsupported", Span(file, line, col, line, col + len("prepare")),
                          "`prepare` blocks in data files are not run by pyopl",
                          help="compute the values in the model (an `execute` block or OPL declarations) "
                               "and remove `prepare` and `invoke` from the data")
        else:
            end = m.end()
            reporter.emit("dat-script-unsupported", Span(file, line, col, line, col + len(m.group(0))),
                          "`invoke %s` is not run by pyopl: the value is read as written" % m.group(1),
                          help="check or transform the value in the model instead, and remove `invoke %s`" % m.group(1))
        blank(out, i, end)
        i = end
    return "".join(out)
