"""LLM-free semantic checks of a compiled model against its problem statement.

A model can compile, solve and still mean the wrong thing.  These checks need no LLM; each
returns :class:`Finding` s that the loop feeds into the alignment repair prompt the way compiler
diagnostics are fed into the syntax repair prompt (``LoopOptions.semantic_checks``):

- ``number-unused``: a limit the statement states (a number after ``at most``, ``a capacity
  of``, ``at least``, ``a demand of``...) appears nowhere in the model or data (as written, as a
  fraction for a percentage, times 1,000 after a ``k``), nor in a comment of the model that
  explains it (a literate comment) — a constraint left out.  Other numbers of the statement may
  be there for the reader (a table's totals, a scale's ends), so they are not required;
- ``number-unstated``: a number of the model or data that the statement neither contains nor
  implies (0 and 1; the number words it uses; a percentage as a fraction or its complement; a product,
  quotient, sum or difference of two stated numbers; a sum of three; a power of ten far above
  them where a comment says it means no limit) — a unit slip, a typo, an invented datum;
- ``number-association``: in an array indexed by a set of names (``cost = [3, 5]`` over
  ``{"tables", "chairs"}``), two values each stated for the other's name (in a table, the row's
  first cell; in prose, the name last mentioned before the number in its sentence) — swapped
  coefficients;
- ``strict-limit``: an inclusive limit of the statement (``at most 20``) compared strictly in the
  model (``< 20``, or ``< maxJuniors`` with ``maxJuniors = 20``): on integers OPL reads it as
  ``<= 19``;
- ``datum-unused`` / ``dvar-unused``: a declared numeric datum used nowhere else in the model
  (a set of names may be there only to read the data); a decision variable in no constraint and
  not in the objective;
- ``sense``: the objective's sense against the statement's goal verb (``maximise profit``);
- ``sensitivity``: a number the statement calls a limit (``at most 40``, ``a capacity of``;
  ``at least``, ``a demand of``) that occurs once in the model and data is raised and the model
  solved again: raising an upper limit must not make the optimum worse, raising a lower limit
  must not make it better (otherwise the limit is written the wrong way round).

The rules are conservative: on the knowledge-base exemplars they find nothing (a test), so a
finding is worth a repair; docs/syntagm.md gives the catch rates on scripted wrong models.
Nothing here runs model text as Python: the re-solves go through a ``solve`` callable (the loop
passes the sandboxed compiler).
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Callable, Optional

#: the tolerance on numbers (relative)
TOL = 1e-6

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s*%|k\b|\s*percent\b)?")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_LIST_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+", re.M)
_HEADING = re.compile(r"^\s*#.*$", re.M)
_WORDS = {"half": 0.5, "twice": 2, "double": 2, "triple": 3, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "dozen": 12, "hundred": 100,
          "thousand": 1000, "quarter": 0.25, "third": 1 / 3}
_MAX_VERB = re.compile(r"\bmaximi[sz](?:e|es|ing|ation)\b|\bas (?:much|many|high) as possible\b|"
                       r"\b(?:highest|largest|greatest|most) (?:possible )?(?:total )?"
                       r"(?:profit|revenue|return|income)", re.I)
_MIN_VERB = re.compile(r"\bminimi[sz](?:e|es|ing|ation)\b|\bas (?:few|little|low|cheap(?:ly)?) as possible\b|"
                       r"\b(?:lowest|least|smallest|cheapest) (?:possible )?(?:total )?(?:cost|expense|spend)", re.I)
_UPPER = re.compile(r"(?:\bat most|\bno more than|\bup to|\bnot (?:to )?exceed(?:ing)?|\bmaximum of|\bcapacity of|"
                    r"\bcapacity is|\bavailable|\bbudget of|\blimit(?:ed)? (?:of|to)|\bonly|\bout of|"
                    r"\bcan (?:hold|store|"
                    r"carry|take|supply|produce|process))\s*(?:a |an |the )?(?:total of )?\$?\s*$", re.I)
_LOWER = re.compile(r"(?:\bat least|\bno (?:less|fewer) than|\bminimum of|\bdemand of|\bdemand is|\brequires?|"
                    r"\bneeds?|\bmust (?:receive|get|have|deliver))\s*(?:a |an |the )?(?:total of )?\$?\s*$", re.I)
_DECL = re.compile(r"^\s*(?:(?:ordered|sorted)\s+)?(?:\{\s*\w+\s*\}|int\+?|float\+?|string|boolean|range|tuple\s+\w+|"
                   r"\w+)\s+([A-Za-z_]\w*)\s*(?:\[[^\]=]*\])?\s*=", re.M)
_DVAR = re.compile(r"\bdvar\s+(?:float\+?|int\+?|boolean|interval|sequence)\s+([A-Za-z_]\w*)")
_SENSE = re.compile(r"\b(maximize|minimize)\b")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NO_LIMIT = re.compile(r"\blarge\b|\bbig\b|\bbig-?m\b|\bno (?:cap|limit|bound)\b|\bunbounded\b|\bunlimited\b", re.I)
_RESTATED = re.compile(r"^[^.;\d]{0,30}?(?:that is|i\.e\.|which is|or|=|\()\s*\$?(\d[\d,]*(?:\.\d+)?)")
_CLAUSE = re.compile(r",(?!\d{3})|;|\(|\)|\.(?!\d)|\n\s*\n|:\s|\band\b|\bwhile\b|\bwhereas\b")


@dataclass(frozen=True)
class Finding:
    """One finding: ``check`` (its code, as in the module docstring), ``message`` (what is
    wrong, in the user's names) and ``fix`` (what to do)."""
    check: str
    message: str
    fix: str

    def as_issue(self) -> dict[str, str]:
        """The finding as a judge-style issue (what the alignment repair prompt lists)."""
        return {"constraint": self.check, "problem": self.message, "fix": self.fix}


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def _blank(m: re.Match) -> str:
    return re.sub(r"[^\n]", " ", m.group(0))


def _code(text: str) -> str:
    """``text`` with comments and string literals blanked out, same length (offsets stay valid)."""
    return _STRING.sub(_blank, _COMMENT.sub(_blank, text))


def statement_numbers(problem: str) -> list[tuple[str, float, str, int]]:
    """``[(as written, value, kind, offset)]`` of the statement's numbers: kind ``""``, ``"%"`` or
    ``"k"``; Markdown headings and list markers are skipped."""
    text = _LIST_MARKER.sub(lambda m: " " * len(m.group(0)), _HEADING.sub(lambda m: " " * len(m.group(0)), problem))
    out = []
    for m in _NUMBER.finditer(text):
        suffix = (m.group(2) or "").strip().lower()
        kind = "%" if suffix in ("%", "percent") else ("k" if suffix == "k" else "")
        out.append((m.group(0).strip(), float(m.group(1).replace(",", "")), kind, m.start()))
    return out


def code_numbers(text: str) -> list[tuple[str, float]]:
    """The numbers of model or data text, comments and strings left out."""
    return [(m.group(1), float(m.group(1).replace(",", ""))) for m in _NUMBER.finditer(_code(text))]


def _forms(v: float, kind: str) -> list[float]:
    if kind == "%":
        return [v, v / 100, 1 - v / 100, 1 + v / 100]
    if kind == "k":
        return [v, v * 1000]
    return [v]


def _table_cells(problem: str) -> list[tuple[int, int, str]]:
    """``(offset, row start, first cell)`` of every Markdown table line of the statement."""
    out = []
    for m in re.finditer(r"^\s*\|(.*)\|\s*$", problem, re.M):
        first = m.group(1).split("|")[0].strip()
        out.append((m.start(), m.end(), first))
    return out


def check_numbers(problem: str, model: str, data: str) -> list[Finding]:
    """``number-unused`` (a stated limit missing from the model) and ``number-unstated``
    (module docstring)."""
    stated = statement_numbers(problem)
    used = [v for _, v in code_numbers(model) + code_numbers(data)]
    comments = " ".join(_COMMENT.findall(model) + _COMMENT.findall(data))
    explained = [v for _, v, _, _ in statement_numbers(comments)]
    findings = []
    unused = []
    for written, v, side, sentence in limits(problem, with_sentence=True):
        kind = "%" if "%" in written or "percent" in written else ("k" if written.endswith("k") else "")
        if any(_same(f, u) for f in _forms(v, kind) for u in used + explained):
            continue
        # the statement may restate the limit in another unit right after it ("8 hours a day, that is
        # 480 minutes"): the restated number counts
        m = _RESTATED.search(sentence[sentence.find(written) + len(written):] if written in sentence else "")
        if m is None or not any(_same(float(m.group(1).replace(",", "")), u) for u in used):
            unused.append(written)
    if unused:
        findings.append(Finding("number-unused", "these limits of the problem statement appear nowhere in the model "
                                "or its data: " + ", ".join(dict.fromkeys(unused)),
                                "add the constraint each one states (or say in a comment why it is not needed)"))
    words = {v for w, v in _WORDS.items() if re.search(rf"\b{w}\b", problem, re.I)}
    base = sorted({f for _, v, kind, _ in stated for f in _forms(v, kind)} | words | {0.0, 1.0})
    derived = set(base)
    for a, b in itertools.product(base, repeat=2):
        derived.update((a * b, a + b, a - b))
        if b:
            derived.add(a / b)
    plain = sorted({v for _, v, kind, _ in stated if not kind})
    for trio in itertools.combinations_with_replacement(plain, 3):
        derived.add(sum(trio))
    derived_list = sorted(derived)
    # a power of ten far above every stated number, where a comment says it stands for "no limit"
    # (big-M, "a large number: no cap"), is the modeller's stand-in, not a datum
    big = max([abs(v) for _, v, _, _ in stated] or [0.0]) * 10
    stand_in = bool(_NO_LIMIT.search(comments))
    unstated = [w for w, v in code_numbers(model) + code_numbers(data) if not _derived(v, derived_list)
                and not (stand_in and v >= max(big, 1000) and _same(10 ** round(math.log10(v)), v))]
    if unstated:
        findings.append(Finding("number-unstated", "these numbers of the model or data are not in the problem "
                                "statement (nor a percentage, sum, difference, product or ratio of its numbers): "
                                + ", ".join(dict.fromkeys(unstated)),
                                "check each against the statement: a unit slip (minutes for hours, thousands) or a "
                                "mistyped value changes the answer"))
    return findings


def check_strict(problem: str, model: str, data: str) -> list[Finding]:
    """``strict-limit``: a limit the statement states inclusively (``at most 20``, ``at least 5``)
    that the model compares strictly (``< 20``, ``> 5``, directly or through a datum set to it in
    the data): on integer expressions OPL reads ``< 20`` as ``<= 19``, one unit off the statement."""
    code = _code(model)
    names: dict[float, list[str]] = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*=\s*(\d[\d,]*(?:\.\d+)?)\s*;", _code(data) + "\n" + code):
        names.setdefault(float(m.group(2).replace(",", "")), []).append(m.group(1))
    findings = []
    for written, v, side in limits(problem):
        op, word = ("<", "at most") if side == "upper" else (">", "at least")
        targets = [re.escape(n) for n in names.get(v, [])] + [re.escape(written.replace(",", ""))]
        pattern = rf"{op}(?![=<>])\s*(?:{'|'.join(targets)})(?![\w.])"
        rev = rf"(?:{'|'.join(targets)})\s*{'>' if op == '<' else '<'}(?![=<>])"
        m = re.search(pattern, code) or re.search(rev, code)
        if m:
            findings.append(Finding("strict-limit", f"the statement says {word} {written}, but the model compares "
                                    f"strictly (`{m.group(0).strip()}`): on integers that is one unit off",
                                    f"write `{op}=` for a limit the statement includes"))
    return findings


def _derived(v: float, derived: list[float]) -> bool:
    import bisect

    eps = TOL * max(1.0, abs(v))
    i = bisect.bisect_left(derived, v - eps)
    return i < len(derived) and derived[i] <= v + eps


def _parse_sets_and_arrays(data: str) -> tuple[dict[str, list[str]], dict[str, list[float]]]:
    """String sets ``S = {"a", "b"};`` and flat number arrays ``p = [1, 2];`` of the data."""
    code = _COMMENT.sub(" ", data)
    sets = {m.group(1): re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2))
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*=\s*\{([^{}]*)\}\s*;", code)}
    arrays = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*=\s*\[([^\[\]]*)\]\s*;", code):
        nums = code_numbers(m.group(2))
        if nums and len(nums) == len([x for x in m.group(2).split(",") if x.strip()]):
            arrays[m.group(1)] = [v for _, v in nums]
    return {k: v for k, v in sets.items() if v}, arrays


def _index_set(model: str, array: str) -> Optional[str]:
    m = re.search(rf"\b{re.escape(array)}\s*\[\s*([A-Za-z_]\w*)\s*\]\s*=\s*\.\.\.", _code(model))
    return m.group(1) if m else None


def _mentions(problem: str, name: str) -> list[int]:
    stem = re.escape(name.lower().rstrip("s"))
    return [m.start() for m in re.finditer(rf"\b{stem}\w*", problem.lower())] if len(name) > 2 else []


def check_association(problem: str, model: str, data: str) -> list[Finding]:
    """``number-association``: swapped values in name-indexed arrays (module docstring)."""
    sets, arrays = _parse_sets_and_arrays(data)
    stated = statement_numbers(problem)
    findings = []
    for arr, values in arrays.items():
        s = _index_set(model, arr)
        keys = sets.get(s or "")
        if not keys or len(keys) != len(values) or len(set(values)) != len(values):
            continue
        mentions = {k: _mentions(problem, k) for k in keys}
        if not all(mentions.values()):
            continue

        rows = _table_cells(problem)

        def owner(off: int) -> Optional[str]:
            """The key a number at ``off`` belongs to: its table row's first cell, else the one key
            named in its clause (the text between commas, semicolons, brackets and sentence ends
            around it); None when that is not exactly one key."""
            for start, end, first in rows:
                if start <= off < end:
                    hit = [k for k in keys if _mentions(first, k)]
                    return hit[0] if len(hit) == 1 else None
            cuts = [m.end() for m in _CLAUSE.finditer(problem, 0, off)]
            lo = cuts[-1] if cuts else 0
            nxt = _CLAUSE.search(problem, off)
            hi = nxt.start() if nxt else len(problem)
            hit = [k for k in keys if any(lo <= p < hi for p in mentions[k])]
            return hit[0] if len(hit) == 1 else None

        def nearest(v: float) -> Optional[str]:
            places = [off for _, x, kind, off in stated if any(_same(f, v) for f in _forms(x, kind))]
            if len(places) != 1:
                return None  # absent or ambiguous: say nothing
            return owner(places[0])

        near = [nearest(v) for v in values]
        for i, j in itertools.combinations(range(len(keys)), 2):
            if near[i] == keys[j] and near[j] == keys[i]:
                findings.append(Finding(
                    "number-association",
                    f"{arr}[\"{keys[i]}\"] = {values[i]:g} and {arr}[\"{keys[j]}\"] = {values[j]:g}, but the statement "
                    f"gives {values[i]:g} next to \"{keys[j]}\" and {values[j]:g} next to \"{keys[i]}\"",
                    f"check the order of {arr}'s values against the order of the set {s}"))
    return findings


def check_use(model: str) -> list[Finding]:
    """``datum-unused`` and ``dvar-unused`` (module docstring)."""
    code = _code(model)
    tokens: dict[str, int] = {}
    for m in _IDENT.finditer(code):
        tokens[m.group(0)] = tokens.get(m.group(0), 0) + 1
    findings = []
    declared = [m.group(1) for m in _DECL.finditer(code) if not re.match(r"\s*(?:(?:ordered|sorted)\s+)?\{\s*string",
                                                                            m.group(0))]
    unused = [n for n in dict.fromkeys(declared) if tokens.get(n, 0) <= 1]
    if unused:
        findings.append(Finding("datum-unused", "declared but never used: " + ", ".join(unused),
                                "use each datum where the statement needs it, or remove it"))
    dvars = [n for n in dict.fromkeys(_DVAR.findall(code)) if tokens.get(n, 0) <= 1]
    if dvars:
        findings.append(Finding("dvar-unused", "decision variables in no constraint and not in the objective: "
                                + ", ".join(dvars), "link each variable to the constraints or objective it "
                                "belongs to, or remove it"))
    return findings


def goal_sense(problem: str) -> Optional[str]:
    """``"maximize"``/``"minimize"`` when the statement's goal verbs point one way only, else None."""
    up, down = bool(_MAX_VERB.search(problem)), bool(_MIN_VERB.search(problem))
    if up != down:
        return "maximize" if up else "minimize"
    return None


def check_sense(problem: str, model: str) -> list[Finding]:
    """``sense``: the objective's sense against the statement's goal verb."""
    want = goal_sense(problem)
    have = _SENSE.findall(_code(model))
    if want is None or len(set(have)) != 1 or have[0] == want:
        return []
    return [Finding("sense", f"the statement asks to {want} (its goal verb), but the model says {have[0]}",
                    f"write `{want}` if the objective is what the statement optimises")]


def limits(problem: str, with_sentence: bool = False) -> list[tuple]:
    """``[(as written, value, "upper" | "lower")]``: the statement's numbers that follow a limit
    phrase (``at most``, ``a capacity of``; ``at least``, ``a demand of``); ``with_sentence``
    adds the sentence each is in."""
    out = []
    for written, v, kind, off in statement_numbers(problem):
        before = problem[max(0, off - 40):off]
        side = "upper" if _UPPER.search(before) else ("lower" if _LOWER.search(before) else None)
        if side is None:
            continue
        if not with_sentence:
            out.append((written, v, side))
            continue
        starts = [m.end() for m in re.finditer(r"[.!?](?!\d)\s|\n\s*\n", problem[:off])]
        end = re.search(r"[.!?](?!\d)(?:\s|$)|\n\s*\n", problem[off:])
        stop = off + (end.start() if end else len(problem))
        out.append((written, v, side, problem[starts[-1] if starts else 0:stop]))
    return out


Solve = Callable[[str, str], Optional[float]]


def _raised(v: float) -> float:
    return v + max(1.0, round(0.1 * v)) if float(v).is_integer() else v * 1.1


def check_sensitivity(problem: str, model: str, data: str, sense: Optional[str], base: Optional[float],
                      solve: Solve, max_solves: int = 4) -> list[Finding]:
    """``sensitivity``: raise each stated limit that occurs exactly once in the model and data
    (module docstring) and solve again with ``solve(model, data) -> objective or None``; at most
    ``max_solves`` re-solves.  Says nothing without a sense or a base optimum."""
    if sense not in ("maximize", "minimize") or base is None:
        return []
    findings = []
    solves = 0
    for written, v, side in limits(problem):
        if solves >= max_solves:
            break
        where = [("model", m) for m in _NUMBER.finditer(_code(model)) if _same(float(m.group(1).replace(",", "")), v)]
        where += [("data", m) for m in _NUMBER.finditer(_code(data)) if _same(float(m.group(1).replace(",", "")), v)]
        if len(where) != 1:
            continue
        part, m = where[0]
        new = f"{_raised(v):g}"
        text = model if part == "model" else data
        changed = text[:m.start(1)] + new + text[m.end(1):]
        solves += 1
        obj = solve(changed, data) if part == "model" else solve(model, changed)
        if obj is None:
            continue
        better = obj > base if sense == "maximize" else obj < base
        worse = obj < base if sense == "maximize" else obj > base
        if not _same(obj, base) and ((side == "upper" and worse) or (side == "lower" and better)):
            how = "worse" if worse else "better"
            findings.append(Finding(
                "sensitivity",
                f"the statement gives {written} as {'an upper' if side == 'upper' else 'a lower'} limit, "
                f"but raising it to {new} in the {part} makes the optimum {how} ({base:g} → {obj:g})",
                f"check the direction of the constraint that uses {written} "
                "(`<=` for an upper limit, `>=` for a lower)"))
    return findings


def check(problem: str, model: str, data: str = "", *, sense: Optional[str] = None, objective: Optional[float] = None,
          solve: Optional[Solve] = None) -> list[Finding]:
    """Every check of the module docstring on a compiled (and, for ``sensitivity``, solved) model;
    ``sense``/``objective``: the solved model's; ``solve``: how to re-solve a variant (None: no
    sensitivity check)."""
    found = (check_numbers(problem, model, data) + check_association(problem, model, data)
             + check_strict(problem, model, data) + check_use(model) + check_sense(problem, model))
    if solve is not None:
        found += check_sensitivity(problem, model, data, sense, objective, solve)
    return found
