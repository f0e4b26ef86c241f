"""The README and the docs tell the truth (issue 48).

- Every command-line option the README names is in the ``--help`` of a `pyopl` or `syntagm`
  command (or of the `%%opl` notebook magic), and every solver it names is a choice of ``pyopl solve --solver`` (and every choice is
  named: a solver added to the CLI must reach the README).
- No page contradicts ``docs/conformance.md``, the one source of truth on what runs: a construct
  that a page's status table marks supported is not "not supported" there, and one it marks
  unsupported is not "supported" there.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    """The help text of a parser and of every sub-command below it, as ``--help`` prints them."""
    out = [parser.format_help()]
    for action in parser._actions:  # argparse keeps sub-parsers only here
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out.extend(_helps(sub))
    return out


def _all_help() -> str:
    from pyopl.cli.commands import _parser
    from syntagm.cli import build_parser

    helps = _helps(_parser()) + _helps(build_parser())
    try:  # the `%%opl` cell magic's options (IPython: the `notebook` extra)
        from pyopl.magic import opl

        helps.append(opl.parser.format_help())
    except ImportError:
        pass
    return "\n".join(helps)


def _solver_choices() -> list[str]:
    from pyopl.cli.commands import _parser

    solve = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["solve"]
    return list(next(a for a in solve._actions if "--solver" in a.option_strings).choices)


def test_every_option_the_readme_names_is_in_help():
    # a comment line in a command block shows another program's options (llama-server --port)
    ours = "\n".join(line for line in README.splitlines() if not line.lstrip().startswith("#"))
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", ours))
    assert "--solver" in named and "--time-limit" in named  # the pattern finds them
    helps = _all_help()
    missing = sorted(o for o in named if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), helps))
    assert not missing, "README names options no --help lists: %s" % missing


def test_every_solver_the_readme_names_is_a_choice_and_every_choice_is_named():
    choices = _solver_choices()
    spelled = re.findall(r"--solver ([a-z|]+)", README)
    assert spelled, "the README shows no `--solver` choices"
    named = {s for group in spelled for s in group.split("|")}
    assert named <= set(choices), "README names solvers `--solver` refuses: %s" % sorted(named - set(choices))
    assert set(choices) <= named, "README does not name the solver choices %s" % sorted(set(choices) - named)


def _conformance() -> dict[str, str]:
    """Entry name -> "supported" / "not supported", from docs/conformance.md's entry rows."""
    out = {}
    for line in (DOCS / "conformance.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `([^`]+)` \| (supported|not supported) \|", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


_NAMES = re.compile(r"^`([A-Za-z_][\w]*)`(?:/`([A-Za-z_][\w]*)`)*$")
_SYNTAX = re.compile(r"^`([A-Za-z_]\w*) (?:\{ *\}|[A-Za-z_]\w*)`$")


def _listed_names(cell: str) -> list[str]:
    """The construct names a table cell lists plainly: segments (split at commas and "and") that are
    only backticked names joined by "/". A cell with a qualified mention (`alternative` with a
    cardinality; `first`, `last` inside a logical constraint) names forms of the constructs, where
    the qualifier may cover every name before it: none of its names is taken."""
    cell = re.sub(r"^`[^`]*`:\s*", "", cell.strip())  # "`.dat`: `SheetConnection`, ..."
    names = []
    for seg in re.split(r",\s*|\s+and\s+", cell):
        seg = seg.strip()
        if _NAMES.match(seg):
            names.extend(re.findall(r"`([^`]+)`", seg))
        elif _SYNTAX.match(seg):  # `prepare { }`, `invoke f`: the keyword's own syntax, not a form of it
            names.append(_SYNTAX.match(seg).group(1))
        elif seg.startswith("`"):
            return []
    return names


def _status_rows(text: str):
    """(construct cell, status) for each row of a table with a `status` or `code` column: "code"
    tables list what is refused."""
    header = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if line.startswith("|---"):
            continue
        if "status" in header:
            status = cells[header.index("status")].lower()
            if re.match(r"(unsupported|not supported)", status):
                yield cells[0], "not supported"
            elif re.match(r"(supported|runs)", status):
                yield cells[0], "supported"
        elif header[:2] == ["construct", "code"]:
            yield cells[0], "not supported"


PAGES = sorted(p for p in DOCS.glob("*.md") if p.name not in ("conformance.md", "diagnostics.md"))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_contradicts_conformance(page):
    truth = _conformance()
    clashes = []
    for cell, status in _status_rows(page.read_text(encoding="utf-8")):
        for name in _listed_names(cell):
            if name in truth and truth[name] != status:
                clashes.append("%s: %s here, %s in conformance.md" % (name, status, truth[name]))
    assert not clashes, clashes


def test_the_contradiction_check_sees_one():
    """The check finds a contradiction when there is one (the one issue 48 found)."""
    page = "| Construct | Status | Notes |\n|---|---|---|\n| `distribute`, `allowedAssignments` | unsupported | OPL0627 |\n"
    rows = list(_status_rows(page))
    assert rows == [("`distribute`, `allowedAssignments`", "not supported")]
    assert _listed_names(rows[0][0]) == ["distribute", "allowedAssignments"]
    assert _conformance()["allowedAssignments"] == "supported"
    assert _listed_names("`alternative` with a cardinality, `stepFunction`") == []
    assert _listed_names("`stepFunction`, an array of `stateFunction`") == ["stepFunction"]
    assert _listed_names("`.dat`: `prepare { }`, `invoke f`") == ["prepare", "invoke"]
    assert _listed_names("`alwaysIn(f, a, lo, hi)`, `stepFunction`") == []


def test_what_the_readme_says_does_not_run_does_not_run():
    """Every entry the README's "What does not" paragraph names is an entry conformance.md marks not
    supported (it named CP Optimizer's step functions and neighbour expressions long after they ran)."""
    m = re.search(r"\*\*What does not\*\*(.*?)\n\n", README, re.S)
    assert m, "the README has no \"What does not\" paragraph"
    truth = _conformance()
    named = [n for n in re.findall(r"`([^`]+)`", m.group(1)) if re.fullmatch(r"[A-Za-z_][\w.]*", n)]
    assert named, "the paragraph names no construct"
    for name in named:
        entries = {name: truth[name]} if name in truth else {
            e: st for e, st in truth.items() if e.startswith((name + " (", name + "."))}
        assert entries, "README names `%s`, which conformance.md does not list" % name
        assert set(entries.values()) == {"not supported"}, "README says `%s` does not run: %s" % (name, entries)
    paragraph = " ".join(m.group(1).split())
    for words in ("step function", "neighbour"):
        assert words not in paragraph, "README says %s do not run; conformance.md says they do" % words
