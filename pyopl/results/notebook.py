"""HTML tables for notebooks (Jupyter calls ``_repr_html_``): results and diagnostics.

Every text comes from the user's model or data, so all of it is escaped. Long
tables are cut at ``max_rows`` lines per name, with a line saying how many are left.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ..ir import format_key_part
from .numbers import format_number

_STYLE = "border-collapse:collapse;text-align:left"
_CELL = "padding:2px 8px;border-bottom:1px solid #ddd"


def _table(header: list[str], rows: list[list[Any]], caption: str = "") -> str:
    out = ['<table style="%s">' % _STYLE]
    if caption:
        out.append('<caption style="text-align:left;font-weight:bold">%s</caption>' % escape(caption))
    out.append("<tr>" + "".join('<th style="%s">%s</th>' % (_CELL, escape(h)) for h in header) + "</tr>")
    for r in rows:
        out.append("<tr>" + "".join('<td style="%s">%s</td>' % (_CELL, escape(str(c))) for c in r) + "</tr>")
    out.append("</table>")
    return "".join(out)


def result_html(result: Any, max_rows: int = 50) -> str:
    """Status, objective (bound and gap when not optimal), then one table per decision, dexpr and
    constraint label: index, value (and dual, slack, reduced cost when present)."""
    head = [["status", result.status], ["objective", format_number(result.objective)]]
    if result.status != "optimal" and result.best_bound is not None:
        head.append(["best bound", format_number(result.best_bound)])
    if result.status != "optimal" and result.mip_gap is not None:
        head.append(["gap", "%.4g%%" % (100.0 * result.mip_gap)])
    head.append(["solver", "%s, %.3f s" % (result.solver, result.solve_time_s)])
    if result.message:
        head.append(["message", result.message])
    parts = [_table(["", ""], head)]
    by_name: dict[str, dict[tuple, dict[str, Any]]] = {}
    columns: dict[str, list[str]] = {}
    for kind, name, key, v in result.rows():
        col = "value" if kind in ("variable", "dexpr") else kind
        by_name.setdefault(name, {}).setdefault(key, {})[col] = v
        if col not in columns.setdefault(name, []):
            columns[name].append(col)
    for name, keys in by_name.items():
        cols = columns[name]
        levels = result.index_names.get(name) or []
        index_header = ", ".join(n or "" for n in levels) if levels else "index"
        rows = [["".join("[%s]" % format_key_part(k) for k in key)] + [format_number(vals.get(c)) for c in cols]
                for key, vals in list(keys.items())[:max_rows]]
        if len(keys) > max_rows:
            rows.append(["... and %d more" % (len(keys) - max_rows)] + [""] * len(cols))
        parts.append(_table([index_header] + cols, rows, caption=name))
    return "".join(parts)


def diagnostics_html(diags: Any, max_rows: int = 200) -> str:
    """One row per diagnostic: severity, code, file:line:column, message, help."""
    rows = [[d.severity, d.code, "%s:%d:%d" % (d.file, d.span.line, d.span.column), d.message, d.help or ""]
            for d in list(diags)[:max_rows]]
    if not rows:
        return "<p>no problems found</p>"
    if len(diags) > max_rows:
        rows.append(["", "", "", "... and %d more" % (len(diags) - max_rows), ""])
    return _table(["severity", "code", "where", "message", "help"], rows)
