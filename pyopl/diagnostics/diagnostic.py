"""The diagnostic record: one frozen dataclass, rendered as text or JSON."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Span:
    """A source range. Lines and columns are 1-based; ``end_column`` is exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def point(file: str, line: int, column: int, width: int = 1) -> "Span":
        return Span(file, line, column, line, column + max(width, 1))

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column,
                "end_line": self.end_line, "end_column": self.end_column}


NO_SPAN = Span("<input>", 1, 1, 1, 2)


@dataclass(frozen=True)
class Label:
    """A secondary span with a short message ("first declared here")."""

    span: Span
    message: str


@dataclass(frozen=True)
class Edit:
    """Replace the text of ``span`` with ``replacement`` (an empty span inserts)."""

    span: Span
    replacement: str


@dataclass(frozen=True)
class Fix:
    """A suggested change. ``applicability`` follows rustc: ``machine-applicable``
    (safe to apply without review), ``maybe-incorrect`` or ``has-placeholders``."""

    message: str
    edits: tuple[Edit, ...]
    applicability: str = "machine-applicable"

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "applicability": self.applicability,
                "edits": [{**e.span.to_dict(), "replacement": e.replacement} for e in self.edits]}


@dataclass(frozen=True)
class Diagnostic:
    """One message about the user's model or data.

    ``code`` is a stable registry code (``OPL0101``); ``severity`` is
    ``error``, ``warning`` or ``note``; ``message`` names the user's own
    identifiers in backticks; ``span`` is the primary place; ``labels`` are
    secondary places; ``notes`` add context; ``help`` says how to fix it;
    ``fix`` is an optional machine edit.
    """

    code: str
    severity: str
    message: str
    span: Span
    labels: tuple[Label, ...] = ()
    notes: tuple[str, ...] = ()
    help: str | None = None
    fix: Fix | None = None

    @property
    def file(self) -> str:
        return self.span.file

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    @property
    def end_line(self) -> int:
        return self.span.end_line

    @property
    def end_column(self) -> int:
        return self.span.end_column

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self, sources: dict[str, str] | None = None) -> dict[str, Any]:
        """JSON form: every field, plus ``rendered`` (the text a user sees)."""
        from .render import render_text

        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            **self.span.to_dict(),
            "labels": [{**l.span.to_dict(), "message": l.message} for l in self.labels],
            "notes": list(self.notes),
            "help": self.help,
            "fix": self.fix.to_dict() if self.fix else None,
            "rendered": render_text(self, sources or {}),
        }

    def __str__(self) -> str:
        return "%s:%d:%d: %s[%s]: %s" % (self.file, self.line, self.column, self.severity, self.code, self.message)


class CompileError(Exception):
    """Raised by the Python API when a model or its data has errors.

    ``diagnostics`` holds every diagnostic found (errors and warnings);
    ``str(err)`` is their rendered text; ``script_output`` what the pre-processing ``execute``
    blocks wrote before the compile failed (IBM's ``oplrun`` shows it as it runs; "" when none).
    """

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None,
                 script_output: str = ""):
        from .render import render_all

        self.diagnostics = diagnostics
        self.sources = sources or {}
        self.script_output = script_output
        super().__init__(render_all(diagnostics, self.sources))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]
