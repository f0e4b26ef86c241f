"""Collecting diagnostics while compiling, with a cap and without duplicates."""
from __future__ import annotations

from typing import Any, Iterable

from .diagnostic import Diagnostic, Edit, Fix, Label, Span


class TooManyErrors(Exception):
    """Internal signal: stop compiling once the error cap is reached."""


class Reporter:
    """Accumulates :class:`Diagnostic` records for one compilation.

    ``emit(slug, span, message, ...)`` looks the slug up in the registry to get
    the stable code and default severity (the first look-up loads the registry's entries).  Errors beyond ``max_errors`` stop
    the compilation (the renderer says how many were left out).
    """

    def __init__(self, max_errors: int = 100):
        self.diagnostics: list[Diagnostic] = []
        self.max_errors = max_errors
        self._seen: set[tuple] = set()
        self._error_at: set[tuple] = set()  # where errors start: a second error there is a follow-on
        self.sources: dict[str, str] = {}  # files read along the way (`include`d models): name -> text, for snippets
        self.includes_read = 0  # `include`d files read by this compilation, models and data (a budget: source_io)
        self.max_string: int | None = None  # the compilation's Limits.max_string, for data strings (None: the default)

    def emit(self, slug: str, span: Span, message: str, *, help: str | None = None,
             labels: Iterable[Label] = (), notes: Iterable[str] = (), fix: Fix | None = None,
             severity: str | None = None) -> Diagnostic:
        from .registry import BY_SLUG  # (loaded by the first diagnostic: a clean compile never needs it)

        kind = BY_SLUG[slug]  # KeyError here is a bug in pyopl, reported as an internal error
        d = Diagnostic(kind.code, severity or kind.severity, message, span, tuple(labels), tuple(notes), help, fix)
        key = (d.code, span.file, span.line, span.column, message)
        at = (span.file, span.line, span.column)
        if d.is_error and at in self._error_at:
            return d  # an earlier stage already reported the problem at this place
        if key not in self._seen:
            self._seen.add(key)
            if d.is_error:
                self._error_at.add(at)
            self.diagnostics.append(d)
            if d.is_error and self.error_count >= self.max_errors:
                kind = BY_SLUG["error-limit-reached"]
                self.diagnostics.append(Diagnostic(
                    kind.code, kind.severity, "stopped after %d errors" % self.max_errors, span,
                    help="fix these first and compile again (or raise `max_errors`)"))
                raise TooManyErrors()
        return d

    @property
    def error_count(self) -> int:
        return sum(d.is_error for d in self.diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=lambda d: (d.severity != "error", d.file, d.line, d.column))


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Damerau-Levenshtein with adjacent swaps), case-sensitive."""
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


#: Longest name that :func:`near_miss` compares character by character (real names are far shorter).
MAX_COMPARED = 100


def near_misses(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> list[str]:
    """Every candidate closest to a misspelled ``name``, best first; ``[]`` when none is close.

    The closeness rule, in order: a case-insensitive match; otherwise the smallest edit distance
    (at most a third of the name's length, at least 1); failing that, difflib's similarity ratio
    above ``cutoff``. All candidates that tie under the first rule that finds any are returned
    (``capC`` with ``capA`` and ``capB`` declared: both), ordered by difflib's ratio then name:
    two or more means the choice is ambiguous, and no fix may be applied for it (issue 25).
    Names longer than :data:`MAX_COMPARED` characters get only the case-insensitive match
    (edit distance is quadratic in the length: a name of megabytes would take hours).
    """
    import difflib  # (only for a misspelling: not on a clean compile's path)

    cands = sorted(c for c in set(candidates) if c != name)
    same_case = [c for c in cands if c.lower() == name.lower()]
    if same_case:
        return same_case
    if len(name) > MAX_COMPARED:
        return []
    cands = [c for c in cands if len(c) <= MAX_COMPARED]
    limit = max(1, len(name) // 3)
    scored = []
    for c in cands:
        if abs(len(c) - len(name)) > limit:
            continue
        d = edit_distance(name.lower(), c.lower())
        if d <= limit:
            scored.append((d, -difflib.SequenceMatcher(None, name, c).ratio(), c))
    if scored:
        scored.sort()
        return [c for d, _r, c in scored if d == scored[0][0]]
    ratios = sorted((-difflib.SequenceMatcher(None, name, c).ratio(), c) for c in cands)
    ratios = [(r, c) for r, c in ratios if -r >= cutoff]
    return [c for r, c in ratios if r == ratios[0][0]] if ratios else []


def near_miss(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest candidate to a misspelled ``name`` only when it is the unique best, else None
    (see :func:`near_misses`; ``did_you_mean`` lists every tied candidate for a help text)."""
    best = near_misses(name, candidates, cutoff)
    return best[0] if len(best) == 1 else None


def one_of(names: list[str]) -> str:
    """```a```, ```a` or `b```, ```a`, `b` or `c``` for a help text."""
    quoted = ["`%s`" % n for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def rename_applicability(name: str, best: str) -> str:
    """How safe it is to rename ``name`` to ``best`` without review (rustc's applicability levels).

    Only a near-certain typo is machine-applicable: both names at least 4 characters long and at most
    two edits apart. A short name (`y` -> `x`) may be a different variable the user forgot to declare,
    so renaming it could silently change the model: that fix is ``maybe-incorrect``.
    """
    if min(len(name), len(best)) >= 4 and edit_distance(name.lower(), best.lower()) <= 2:
        return "machine-applicable"
    return "maybe-incorrect"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """``did you mean `x`?`` (every tied candidate: ``did you mean `capA` or `capB`?``), or None."""
    best = near_misses(name, candidates)
    return "did you mean %s?" % one_of(best[:5]) if best else None


def rename_suggestion(name: str, candidates: Iterable[str], span: Any) -> tuple[list[str], Any]:
    """The candidates for a misspelled ``name`` and the fix renaming it at ``span``.

    Returns ``(best, fix)``: ``best`` from :func:`near_misses`; ``fix`` a :class:`Fix` only when
    exactly one candidate is best (its applicability from :func:`rename_applicability`), None when
    none or several tie: an ambiguous rename is offered in the help, never applied (issue 25)."""
    best = near_misses(name, candidates)
    if len(best) != 1:
        return best, None
    return best, Fix("rename to `%s`" % best[0], (Edit(span, best[0]),), rename_applicability(name, best[0]))
