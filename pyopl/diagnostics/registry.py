"""The registry of diagnostic kinds: the single source of truth for codes.

Each kind has a stable code (``OPL0101``; never reused), a slug used in the
compiler's source (``undeclared-name``), a default severity, a one-line
title, a Markdown explanation, and a minimal bad example with its corrected
version.  Codes are grouped by the hundred: 00xx syntax, 01xx names,
02xx types, 03xx indexing, 04xx data, 05xx linearity and decisions,
06xx unsupported features, 07xx solver outcomes, 08xx limits and CLI,
09xx warnings.  The entries themselves live in :mod:`pyopl.diagnostics.codes`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One diagnostic code of the registry: its slug, severity, title, explanation and examples."""

    code: str
    slug: str
    severity: str
    title: str
    explanation: str
    bad: str = ""  # a minimal model (``.mod`` text) that triggers the kind
    good: str = ""  # the same model corrected
    bad_data: str = ""  # optional ``.dat`` text for the bad example
    good_data: str = ""
    at: tuple[int, int] | None = None  # (line, column) of the primary span the bad example yields
    via: str = "check"  # how the bad example is run: "check" (compile), "check:SOLVER", "solve", or "cli" (``bad`` is argv)
    fixable: str = ""  # applicability of the fix-it the bad example carries ("" when none)
    script_steps: int | None = None  # the step budget the examples run under (None: the default; `--script-steps N`)

    @property
    def internal(self) -> bool:
        """An internal invariant of pyopl, never the user's mistake."""
        return self.slug == "internal-error"


class _Kinds(dict):
    """A registry table (code -> Kind, or slug -> Kind).  The entries live in
    :mod:`pyopl.diagnostics.codes`, imported on the first look-up of a key not yet here: a
    compile that reports nothing never loads them (a tenth of a small solve's own start-up)."""

    def __missing__(self, key: str) -> Kind:
        _fill()
        if key in self:
            return dict.__getitem__(self, key)
        raise KeyError(key)


def _fill() -> None:
    from . import codes  # noqa: F401  (fills the registry)


KINDS: dict[str, Kind] = _Kinds()  # code -> Kind
BY_SLUG: dict[str, Kind] = _Kinds()


def register(code: str, slug: str, severity: str, title: str, explanation: str = "",
             bad: str = "", good: str = "", bad_data: str = "", good_data: str = "",
             at: tuple[int, int] | None = None, via: str = "check", fixable: str = "",
             script_steps: int | None = None) -> Kind:
    """Add a kind; a repeated code or slug is a programming error caught at import.

    ``at`` is the (line, column) where the bad example's diagnostic starts (tested);
    ``fixable`` names the applicability of the fix-it that example carries (tested by
    applying it and recompiling); ``script_steps`` is the step budget both examples run under
    (``--script-steps N``; None: the default), so that a runaway loop's example ends at once.
    """
    if code in KINDS or slug in BY_SLUG:
        raise RuntimeError("diagnostic code registered twice: %s %s" % (code, slug))
    kind = Kind(code, slug, severity, title, explanation.strip(), bad.strip("\n"), good.strip("\n"),
                bad_data.strip("\n"), good_data.strip("\n"), at, via, fixable, script_steps)
    KINDS[code] = kind
    BY_SLUG[slug] = kind
    return kind


def lookup(code_or_slug: str) -> Kind | None:
    _fill()

    key = code_or_slug.strip()
    return KINDS.get(key.upper()) or BY_SLUG.get(key)


def all_kinds() -> list[Kind]:
    _fill()

    return sorted(KINDS.values(), key=lambda k: k.code)


def explain(kind: Kind) -> str:
    """The text ``pyopl explain CODE`` prints."""
    out = ["%s (%s, %s): %s" % (kind.code, kind.slug, kind.severity, kind.title), ""]
    if kind.explanation:
        out += [kind.explanation, ""]
    if kind.bad:
        out += ["Example that triggers it:", "", _indent(kind.bad), ""]
        if kind.bad_data:
            out += ["with data:", "", _indent(kind.bad_data), ""]
    if kind.good:
        out += ["Corrected:", "", _indent(kind.good), ""]
        if kind.good_data:
            out += ["with data:", "", _indent(kind.good_data), ""]
    return "\n".join(out).rstrip() + "\n"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
