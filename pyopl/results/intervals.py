"""The value of an interval variable in a solution (``using CP;`` scheduling models)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IntervalValue:
    """``present`` (1 or 0), ``start``, ``end`` and ``size`` of an interval variable in a solution
    (all 0 when it is absent).  ``str`` gives IBM's form ``<present start end size>``, as OPL's
    ``writeln(a)`` prints it (OPL manual, "Interval variables" in post-processing)."""

    present: int
    start: int
    end: int
    size: int

    def __str__(self) -> str:
        return "<%d %d %d %d>" % (self.present, self.start, self.end, self.size)

    def to_json(self) -> dict:
        """``{"present": 1, "start": s, "end": e, "size": z}`` (JSON results)."""
        return {"present": self.present, "start": self.start, "end": self.end, "size": self.size}
