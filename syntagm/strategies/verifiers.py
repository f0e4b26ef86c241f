"""Checks of the ``staged`` strategy's stages against the problem text (after A-LAMP's per-stage
verification). Each check is deterministic (no LLM call) and returns a list of findings, plain
sentences the stage's redo prompt quotes; an empty list means the stage passes.

- :func:`check_numbers` – every number of the problem text is used as a parameter value or set
  aside with a reason; every value in the data appears in the text (as is, or as a percentage)
  or is justified. 0 and 1 need no justification (ranges, switches).
- :func:`check_variables` – every declared ``dvar`` has a meaning, a domain and units.
- :func:`check_objective` – the sense is ``minimize``/``maximize``, agrees with the goal words of
  the text where the text has goal words of one direction only, and the summed quantities are named.
- :func:`check_constraints` – every labelled constraint is mapped to a sentence of the text, each
  mapped sentence is one of the text's, and every constraint-like sentence of the text (one with
  a limit word such as "at most") is mapped to a constraint or set aside (label ``none``).
"""
from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s*%)?")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TOL = 1e-9

_MAX_WORDS = re.compile(r"\bmaximi[sz]e|\bas (?:much|many) as possible|\bhighest\b|\blargest\b|\bgreatest\b|"
                        r"\bmost profitable\b", re.I)
_MIN_WORDS = re.compile(r"\bminimi[sz]e|\bas (?:few|little|cheap(?:ly)?) as possible|\blowest\b|\bfewest\b|"
                        r"\bcheapest\b|\bsmallest\b", re.I)
_LIMIT_WORDS = re.compile(r"\bat (?:most|least)\b|\bno (?:more|less|fewer) than\b|\bnot exceed|\bexceed\b|\bmust\b|"
                          r"\bcannot\b|\bcan't\b|\bup to\b|\blimit|\bout of\b|\bavailable\b|\bexactly\b|"
                          r"\brequire|\bonly\b|\bcapacity\b", re.I)
_DVAR = re.compile(r"\bdvar\s+(?:float\+?|int\+?|boolean)\s+([A-Za-z_]\w*)")
_LABEL = re.compile(r"^\s*(?:forall\s*\(.*\)\s*)?([A-Za-z_]\w*)\s*:(?!:)", re.M)
_WORD = re.compile(r"[a-z0-9]+")


def numbers_in(text: str, code: bool = False) -> list[tuple[str, float, bool]]:
    """``[(as written, value, is a percentage)]`` of the numbers in ``text``; with ``code``,
    string literals and comments (OPL) are skipped first."""
    if code:
        text = _STRING.sub(" ", _COMMENT.sub(" ", text))
    out = []
    for m in _NUMBER.finditer(text):
        out.append((m.group(0).strip(), float(m.group(1).replace(",", "")), bool(m.group(2))))
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOL * max(1.0, abs(a), abs(b))


def _reasoned(entries: Any, key: str) -> list[float]:
    """Values of ``[{key: number, "reason": text}]`` entries that give a reason."""
    vals = []
    for e in entries if isinstance(entries, list) else []:
        if isinstance(e, dict) and str(e.get("reason") or "").strip():
            try:
                vals.append(float(str(e.get(key)).replace(",", "").rstrip("%")))
            except ValueError:
                continue
    return vals


def check_numbers(problem: str, declarations: str, data: str, set_aside: Any = None,
                  justified: Any = None) -> list[str]:
    """Findings on the numbers of the parameters stage (see the module doc)."""
    used = [v for _, v, _ in numbers_in(declarations + "\n" + data, code=True)]
    aside = _reasoned(set_aside, "number")
    just = _reasoned(justified, "value")
    text_nums = numbers_in(problem)
    findings = []
    missing = []
    for written, v, pct in text_nums:
        forms = (v, v / 100) if pct else (v,)
        if not any(_same(f, u) for f in forms for u in used) and not any(_same(v, a) for a in aside):
            missing.append(written)
    if missing:
        findings.append("numbers in the problem text neither used as a parameter value nor set aside: "
                        + ", ".join(dict.fromkeys(missing))
                        + ' (give each a parameter, or list it in "set_aside" with a reason)')
    allowed = [v for _, v, _ in text_nums] + [v / 100 for _, v, p in text_nums if p] + just
    stray = [w for w, v, _ in numbers_in(data, code=True)
             if not _same(v, 0) and not _same(v, 1) and not any(_same(v, a) for a in allowed)]
    if stray:
        findings.append("values in the data that do not appear in the problem text: " + ", ".join(dict.fromkeys(stray))
                        + ' (correct them, or list each in "justified" with a reason)')
    return findings


def check_variables(variables: str, meanings: Any) -> list[str]:
    """Findings on the variables stage: each ``dvar`` of ``variables`` needs a ``meanings`` entry
    ``{name, meaning, domain, units}`` with all three descriptions given."""
    names = _DVAR.findall(_COMMENT.sub(" ", variables))
    if not names:
        return ["no decision variable is declared (`dvar ...;`)"]
    given = {str(m.get("name")): m for m in (meanings if isinstance(meanings, list) else []) if isinstance(m, dict)}
    findings = []
    for n in names:
        m = given.get(n)
        if m is None:
            findings.append(f"variable `{n}` has no entry in \"meanings\" (its meaning, domain and units)")
            continue
        lacking = [k for k in ("meaning", "domain", "units") if not str(m.get(k) or "").strip()]
        if lacking:
            findings.append(f"variable `{n}`: give its {', '.join(lacking)}")
    return findings


def goal_sense(problem: str) -> str | None:
    """``"maximize"``/``"minimize"`` when the text's goal words point one way only, else ``None``."""
    up, down = bool(_MAX_WORDS.search(problem)), bool(_MIN_WORDS.search(problem))
    if up != down:
        return "maximize" if up else "minimize"
    return None


def check_objective(problem: str, sense: Any, quantities: Any) -> list[str]:
    """Findings on the objective stage (sense valid and as the text says; summed quantities named)."""
    s = str(sense or "").lower()
    if s not in ("minimize", "maximize"):
        return ['"sense" must be "minimize" or "maximize"']
    findings = []
    want = goal_sense(problem)
    if want is not None and want != s:
        findings.append(f"the problem text asks to {want} (its goal words say so), but the objective's sense is {s}")
    if not isinstance(quantities, list) or not [q for q in quantities if str(q).strip()]:
        findings.append('name the quantities the objective sums in "quantities" (e.g. "profit per table × tables")')
    return findings


def sentences(problem: str) -> list[str]:
    """The problem's sentences (split after ``.``, ``!``, ``?`` and at line breaks)."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", problem)
    return [p.strip() for p in parts if p.strip()]


def _words(s: str) -> set[str]:
    return {w for w in _WORD.findall(s.lower()) if len(w) > 2 or w.isdigit()}


def _match(mapped: str, sents: list[str]) -> int | None:
    """Index of the sentence ``mapped`` quotes or paraphrases (60 % of its words in it), else ``None``."""
    mw = _words(mapped)
    if not mw:
        return None
    best, score = None, 0.0
    for i, s in enumerate(sents):
        share = len(mw & _words(s)) / len(mw)
        if share > score:
            best, score = i, share
    return best if score >= 0.6 else None


def constraint_labels(constraints: str) -> list[str]:
    """Labels of the constraints in a ``subject to`` body (``ctA: ...``, ``forall (...) ctB: ...``)."""
    return _LABEL.findall(_COMMENT.sub(" ", constraints))


def check_constraints(problem: str, constraints: str, mapping: Any) -> tuple[list[str], list[str]]:
    """``(findings, unmapped constraint-like sentences)`` of the constraints stage (module doc)."""
    sents = sentences(problem)
    entries = [m for m in (mapping if isinstance(mapping, list) else []) if isinstance(m, dict)]
    findings = []
    covered: set[int] = set()
    by_label = {}
    for e in entries:
        idx = _match(str(e.get("sentence") or ""), sents)
        label = str(e.get("label") or "")
        if idx is None:
            findings.append(f"the sentence mapped to `{label}` is not one of the problem's: "
                            f"{str(e.get('sentence') or '')[:120]!r}")
        else:
            covered.add(idx)
        by_label[label] = e
    for label in constraint_labels(constraints):
        if label not in by_label:
            findings.append(f"constraint `{label}` is not mapped to the sentence of the problem it encodes")
    unmapped = [s for i, s in enumerate(sents) if i not in covered and _LIMIT_WORDS.search(s)
                and not (_MAX_WORDS.search(s) or _MIN_WORDS.search(s))]
    for s in unmapped:
        findings.append(f"this sentence of the problem is not mapped to any constraint: {s!r} "
                        '(encode it, or map it with label "none" and say why in "reason")')
    return findings, unmapped
