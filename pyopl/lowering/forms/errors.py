"""The signal an evaluation step raises when the user's model or data is wrong.

It carries everything a :class:`~pyopl.diagnostics.Diagnostic` needs; the
statement-level driver catches it, reports it and moves on to the next
statement, so one compile reports every independent error.
"""
from __future__ import annotations

from typing import Iterable

from ...diagnostics.diagnostic import Fix, Label, Span


class EvalError(Exception):
    def __init__(self, slug: str, span: Span, message: str, *, help: str | None = None,
                 labels: Iterable[Label] = (), notes: Iterable[str] = (), fix: Fix | None = None):
        super().__init__(message)
        self.slug = slug
        self.span = span
        self.message = message
        self.help = help
        self.labels = list(labels)
        self.notes = list(notes)
        self.fix = fix

    def report(self, reporter, extra_notes: Iterable[str] = ()) -> None:
        reporter.emit(self.slug, self.span, self.message, help=self.help, labels=self.labels,
                      notes=list(self.notes) + list(extra_notes), fix=self.fix)


class FollowOnError(EvalError):
    """Raised when a statement uses a name whose declaration already failed: the first
    error was reported, so this one is silent (no cascades of follow-on noise)."""

    def __init__(self, span: Span):
        super().__init__("internal-error", span, "follow-on error")

    def report(self, reporter, extra_notes: Iterable[str] = ()) -> None:
        return None


#: Errors of a linear form that a numeric evaluation at the solution does not meet: a dexpr that only
#: scripts read (IBM extracts only what the model uses) is computed from the solution instead.
NONLINEAR_SLUGS = frozenset({"nonlinear-division", "nonlinear-product", "nonlinear-expression",
                             "nonlinear-function", "decision-in-condition", "decision-as-index",
                             "decision-in-membership", "decision-in-filter", "decision-in-iteration",
                             "strict-inequality-float", "nonlinear-not-equal-float"})
