"""A readable text report of a :class:`~pyopl.result.Result` for the command line."""
from __future__ import annotations

from .ir import IR, format_key_part
from .result import Result, Values


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return "%.6g" % v
    return str(v)


def text_report(result: Result, ir: IR | None = None, max_rows: int = 200) -> str:
    """Status, objective, then every nonzero variable value (up to ``max_rows`` lines)."""
    out = ["status: %s" % result.status]
    if result.objective is not None:
        out.append("objective: %s" % _fmt(result.objective))
    if result.best_bound is not None and result.status != "optimal":
        out.append("best bound: %s" % _fmt(result.best_bound))
    if result.mip_gap is not None and result.status != "optimal":
        out.append("gap: %.4g" % result.mip_gap)
    if result.message:
        out.append(result.message)
    out.append("solve time: %.3f s (%s)" % (result.solve_time_s, result.solver))
    lines = []
    for name, v in list(result.variables.items()) + list(result.dexprs.items()):
        if isinstance(v, Values):
            for key, x in v.items():
                if x is not None and abs(x) > 1e-9:
                    lines.append("  %s%s = %s" % (name, "".join("[%s]" % format_key_part(k) for k in key), _fmt(x)))
        elif v is not None:
            lines.append("  %s = %s" % (name, _fmt(v)))
    if lines:
        out.append("values (nonzero):")
        out += lines[:max_rows]
        if len(lines) > max_rows:
            out.append("  ... and %d more" % (len(lines) - max_rows))
    return "\n".join(out)
