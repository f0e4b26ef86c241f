"""Text rendering in the style of rustc and Elm: header, source line, caret, help."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: diagnostic imports this module to render itself
    from .diagnostic import Diagnostic, Span


def _source_line(sources: dict[str, str], span: Span) -> str | None:
    text = sources.get(span.file)
    if text is None:
        return None
    lines = text.split("\n")  # as diagnostics count lines (pyopl/files/source_io.py), not str.splitlines
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1].rstrip("\r").expandtabs(1)
    return None


def _snippet(sources: dict[str, str], span: Span, message: str, gutter: int, mark: str) -> list[str]:
    line = _source_line(sources, span)
    if line is None:
        return []
    start = max(span.column, 1)
    if span.end_line == span.line:
        width = max(span.end_column - span.column, 1)
    else:
        width = max(len(line) - start + 1, 1)
    pad = " " * gutter
    out = ["%s |" % pad, "%s | %s" % (str(span.line).rjust(gutter), line),
           "%s | %s%s%s" % (pad, " " * (start - 1), mark * width, (" " + message) if message else "")]
    return out


def _where(span: Span) -> str:
    """``file:line:column``; for a command-line argument (a span whose "file" is ``--option NAME=VALUE``
    or ``--solver NAME``: the place a solver's refusal came from) ``command line: `--solver NAME```,
    which has no line or column (it printed ``--solver cpsat:1:1``)."""
    if span.file.startswith("--"):
        return "command line: `%s`" % span.file
    return "%s:%d:%d" % (span.file, span.line, span.column)


def render_text(d: Diagnostic, sources: dict[str, str]) -> str:
    """Render one diagnostic as multi-line text (no trailing newline)."""
    gutter = len(str(max([d.span.line] + [l.span.line for l in d.labels])))
    out = ["%s[%s]: %s" % (d.severity, d.code, d.message),
           "%s--> %s" % (" " * gutter, _where(d.span))]
    out += _snippet(sources, d.span, "", gutter, "^")
    for label in d.labels:
        other_file = label.span.file != d.span.file
        if other_file:
            out.append("%s--> %s" % (" " * gutter, _where(label.span)))
        snip = _snippet(sources, label.span, label.message, gutter, "-")
        if not snip:
            out.append("%s = %s (%s:%d)" % (" " * gutter, label.message, label.span.file, label.span.line))
        elif not other_file and label.span.line == d.span.line:
            out.append(snip[2])  # same source line as the caret: only a second marker line
        else:
            out += snip if other_file else snip[1:]
    for note in d.notes:
        out.append("%s = note: %s" % (" " * gutter, note))
    if d.help:
        out.append("%s = help: %s" % (" " * gutter, d.help))
    if d.fix:
        for e in d.fix.edits:
            # `fix:` is what `--fix` applies (machine-applicable); `maybe:` is shown, not applied
            out.append("%s = %s: %s (replace %d:%d-%d:%d with `%s`)" % (
                " " * gutter, "fix" if d.fix.applicability == "machine-applicable" else "maybe", d.fix.message, e.span.line, e.span.column, e.span.end_line, e.span.end_column, e.replacement))
    return "\n".join(out)


def render_all(diags: list[Diagnostic], sources: dict[str, str], limit: int = 50) -> str:
    """Render diagnostics one after another with a summary line."""
    parts = [render_text(d, sources) for d in diags[:limit]]
    if len(diags) > limit:
        parts.append("... and %d more" % (len(diags) - limit))
    errors = sum(d.is_error for d in diags)
    warnings = sum(d.severity == "warning" for d in diags)
    if errors or warnings:
        parts.append("%d error%s, %d warning%s" % (errors, "" if errors == 1 else "s", warnings, "" if warnings == 1 else "s"))
    return "\n\n".join(parts)
