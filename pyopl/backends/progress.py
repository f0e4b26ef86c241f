"""A live progress line for long solves, on stderr, fed by the solvers' callbacks.

``pyopl solve`` shows it when stderr is a terminal (``--quiet`` hides it,
``--progress`` forces it, e.g. into a log file): elapsed seconds, the incumbent
(best objective found), the best bound and the relative gap for a MIP; the
iteration count for an LP. On a terminal the line is rewritten in place
(carriage return); elsewhere each update is a line of its own. Updates are
throttled to one per ``interval_s`` so the callbacks stay cheap. Standard output
is never touched (``--format json`` stays clean).
"""
from __future__ import annotations

import math
import sys
import time
from typing import Any, TextIO

from ..results.numbers import format_number


class ProgressLine:
    """Callable taking one update ``{"elapsed_s", "incumbent", "bound", "gap", "nodes", "iterations"}``
    (any key may be missing or None) and writing at most one line per ``interval_s`` seconds."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 0.5, in_place: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s = interval_s
        self.in_place = self.stream.isatty() if in_place is None else in_place
        self._last = -math.inf
        self._width = 0
        self.lines = 0  # updates written

    def __call__(self, update: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - self._last < self.interval_s:
            return
        self._last = now
        text = render(update)
        try:
            if self.in_place:
                self.stream.write("\r" + text.ljust(self._width))
                self._width = len(text)
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is optional
            return
        self.lines += 1

    def finish(self) -> None:
        """End the in-place line (so the report starts on a fresh line)."""
        if self.in_place and self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self._width = 0


def render(update: dict[str, Any]) -> str:
    """``solving: 12.5 s, incumbent 8, bound 0, gap 100%, 5210 nodes`` (parts without a value are left out)."""
    parts = ["solving: %.1f s" % float(update.get("elapsed_s") or 0.0)]
    inc, bound = update.get("incumbent"), update.get("bound")
    if inc is not None and math.isfinite(inc):
        parts.append("incumbent " + format_number(inc))
    elif "incumbent" in update:
        parts.append("no incumbent yet")
    if bound is not None and math.isfinite(bound):
        parts.append("bound " + format_number(bound))
    gap = update.get("gap")
    if gap is not None and math.isfinite(gap) and inc is not None and math.isfinite(inc):
        parts.append("gap %.2f%%" % (100.0 * gap))
    if update.get("nodes") is not None:
        parts.append("%d nodes" % update["nodes"])
    if update.get("iterations") is not None:
        parts.append("%d iterations" % update["iterations"])
    return "pyopl " + ", ".join(parts)

