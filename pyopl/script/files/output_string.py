"""``new IloOplOutputString()``: text collected in memory (IBM ILOG Script for OPL, class
``IloOplOutputString``: ``write``, ``writeln`` and ``getString``).

It writes no file, so it needs no output folder; its size is bounded as every script output is
(:data:`pyopl.script.flow.opl_runtime.MAX_OUTPUT` characters).
"""
from __future__ import annotations

from typing import Any

from ..language.budgets import charge_chars, hold
from ..opl.host_errors import host_error
from ..opl.opl_objects import _Host
from ..language.values import UNDEFINED

#: characters one output string may hold (as much as a run may print)
MAX_CHARS = 20_000_000


class OutputStringHost(_Host):
    """One ``IloOplOutputString``: ``write(a, b, ...)`` and ``writeln(...)`` append their arguments as
    ``writeln`` prints them; ``getString()`` returns everything written so far."""

    type_name = "IloOplOutputString"

    def __init__(self, ctx: Any):
        super().__init__(ctx)
        self.parts: list[str] = []
        self.size = 0

    def _methods(self) -> dict[str, Any]:
        return {"write": lambda a, s: self._write(a, "", s), "writeln": lambda a, s: self._write(a, "\n", s),
                "getString": self._get_string, "end": lambda a, s: UNDEFINED,
                "close": lambda a, s: UNDEFINED}

    def _get_string(self, args: list, span: Any) -> str:
        charge_chars(self.size, span)  # a copy of everything written
        return "".join(self.parts)

    def _write(self, args: list, end: str, span: Any) -> Any:
        from ..opl.host import show_values

        text = show_values(args) + end
        self.size += len(text)
        charge_chars(len(text), span)
        hold(len(text), span)  # the characters it keeps count against the script's memory budget
        if self.size > MAX_CHARS:
            raise host_error("script-memory-budget", "an IloOplOutputString grew past %d million characters"
                             % (MAX_CHARS // 1_000_000), span, help="write less into it")
        self.parts.append(text)
        return UNDEFINED

