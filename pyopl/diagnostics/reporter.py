"""Collecting diagnostics while compiling, with a cap and without duplicates."""
from __future__ import annotations

from typing import Iterable

from .diagnostic import Diagnostic, Fix, Label, Span
from .registry import BY_SLUG


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


def near_miss(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest candidate to a misspelled ``name``, or None.

    A case-insensitive match wins; otherwise the candidate with the smallest edit
    distance (at most a third of the name's length, at least 1), ties broken by
    difflib's similarity ratio; failing that, difflib's best match above ``cutoff``.
    Names longer than :data:`MAX_COMPARED` characters get only the case-insensitive match
    (edit distance is quadratic in the length: a name of megabytes would take hours).
    """
    import difflib  # (only for a misspelling: not on a clean compile's path)

    cands = [c for c in set(candidates) if c != name]
    lower = {c.lower(): c for c in cands}
    if name.lower() in lower:
        return lower[name.lower()]
    if len(name) > MAX_COMPARED:
        return None
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
        return min(scored)[2]
    hits = difflib.get_close_matches(name, cands, n=1, cutoff=cutoff)
    return hits[0] if hits else None


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
    best = near_miss(name, candidates)
    return "did you mean `%s`?" % best if best else None
