"""Generate ``docs/diagnostics.md`` from the registry (the single source of truth).

``python -m pyopl.diagnostics.docs`` rewrites the file; ``--check`` exits 1 when it is
stale (a test runs the same comparison).
"""
from __future__ import annotations

import sys
from pathlib import Path

from .registry import Kind, all_kinds

GROUPS = [("00", "Syntax"), ("01", "Names"), ("02", "Types"), ("03", "Indexing"), ("04", "Data"),
          ("05", "Linearity and decision variables"), ("06", "Unsupported features and dialect"),
          ("07", "Solver outcomes"), ("08", "Limits and command line"), ("09", "Warnings"),
          ("10", "Scripts (IBM ILOG Script)"), ("11", "Semantics, files and limits"),
          ("12", "Command line output and the Python interface")]
DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"


def _entry(k: Kind) -> list[str]:
    out = ["### %s: %s" % (k.code, k.title), "",
           "`%s` · %s%s" % (k.slug, k.severity, " · fix-it (%s)" % k.fixable if k.fixable else ""), ""]
    if k.explanation:
        out += [k.explanation, ""]
    if k.bad:
        lang = "sh" if k.via == "cli" else "opl"
        where = " (reported at line %d, column %d)" % k.at if k.at else ""
        out += ["Triggers it%s:" % where, "", "```" + lang, k.bad, "```", ""]
        if k.bad_data:
            out += ["with data:", "", "```opl", k.bad_data, "```", ""]
    if k.good:
        out += ["Corrected:", "", "```" + ("sh" if k.via == "cli" else "opl"), k.good, "```", ""]
        if k.good_data:
            out += ["with data:", "", "```opl", k.good_data, "```", ""]
    return out


def render_markdown() -> str:
    """The whole page, deterministic (sorted by code)."""
    kinds = all_kinds()
    out = ["# pyopl diagnostics", "",
           "Generated from `pyopl/diagnostics/codes/` by `python -m pyopl.diagnostics.docs`; do not edit by hand.",
           "`pyopl explain CODE` prints one entry; `pyopl explain --list` lists them all.", "",
           "%d kinds; %d carry a fix-it that `pyopl check --fix` can apply." % (
               len(kinds), sum(1 for k in kinds if k.fixable)), ""]
    for prefix, name in GROUPS:
        group = [k for k in kinds if k.code[3:5] == prefix]
        if not group:
            continue
        out += ["## %sxx: %s" % (prefix, name), ""]
        out += ["| code | severity | title |", "|---|---|---|"]
        out += ["| [%s](#%s) | %s | %s |" % (k.code, _anchor(k), k.severity, k.title.replace("|", "\\|")) for k in group]
        out.append("")
        for k in group:
            out += _entry(k)
    return "\n".join(out).rstrip() + "\n"


def _anchor(k: Kind) -> str:
    text = ("%s: %s" % (k.code, k.title)).lower()
    return "".join(c for c in text.replace(" ", "-") if c.isalnum() or c in "-_")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render_markdown()
    if "--check" in argv:
        current = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
        if current != text:
            print("docs/diagnostics.md is stale; run `python -m pyopl.diagnostics.docs`", file=sys.stderr)
            return 1
        return 0
    DOC_PATH.write_text(text, encoding="utf-8")
    print("wrote %s" % DOC_PATH)
    return 0


if __name__ == "__main__":
    sys.exit(main())
