"""Repair rate of pyopl's fix-its on single-edit mistakes of the kinds LLMs make (not part of the test suite).

Usage: python tools/fix_repair_rate.py [--limit N] [--kinds k1,k2] [--show]

Each knowledge-base exemplar (knowledge_base/*/model.mod + data.dat, with the optimum in meta.json) gets
one injected mistake per kind below, where the kind applies. For each mutant it records:
  detected   pyopl check reports an error (or, for `=>`, any error at all: no silent wrong answer)
  on_line    the first error is on the line that was edited (not counted where the mistake is a removal:
             a missing `}` is reported at its `{`, a removed declaration at the name's first use)
  repaired   the fix-its alone (pyopl.fixes.select.repair: tried one by one, kept only when they help) give a
             model with no error whose optimum equals the exemplar's (the same text needs no solve)
  worse      after the fixes there are more errors than before, or the model compiles and solves to
             another optimum (a silent change)
and the same for `naive`: every machine-applicable fix applied at once, three times (the old `--fix`).
Prints the rates per kind and overall.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Mutant = Optional[tuple]  # (model, data, line of the edit) or None when the kind does not apply


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _constraints_start(model: str) -> int:
    m = re.search(r"\bsubject\s+to\b|\bconstraints\s*\{", model)
    return m.start() if m else len(model)


def _replace_first(pattern: str, new: str, after_constraints: bool = True, flags=0) -> Callable:
    def mutate(model: str, data: str) -> Mutant:
        start = _constraints_start(model) if after_constraints else 0
        code = _strip_comments(model)
        m = re.compile(pattern, flags).search(code, start)
        if not m:
            return None
        return model[:m.start()] + m.expand(new) + model[m.end():], data, _line_of(model, m.start())
    return mutate


def _strip_comments(text: str) -> str:
    """Comments blanked out (same length), so mutations never land inside one."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def _drop_semicolon_dvar(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    m = re.search(r"^\s*dvar\b[^;\n]*(;)", code, re.M)
    if not m:
        return None
    return model[:m.start(1)] + model[m.end(1):], data, _line_of(model, m.start(1))


def _drop_semicolon_external(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    m = re.search(r"= \.\.\.(;)", code)
    if not m:
        return None
    return model[:m.start(1)] + model[m.end(1):], data, _line_of(model, m.start(1))


def _ampl_sum(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    m = re.search(r"\bsum\(", code)
    if not m:
        return None
    lp = m.end() - 1
    depth = 0
    for i in range(lp, len(code)):
        depth += code[i] == "("
        depth -= code[i] == ")"
        if depth == 0:
            return model[:lp] + "{" + model[lp + 1:i] + "}" + model[i + 1:], data, _line_of(model, lp)
    return None


def _python_sum(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    m = re.search(r"\bsum\((\w+ in [\w.]+)\)\s*([A-Za-z_]\w*(?:\[[^\[\]]*\])*)(?!\s*[\[.(])", code)
    if not m:
        return None
    new = "sum(%s for %s)" % (m.group(2), m.group(1))
    return model[:m.start()] + new + model[m.end():], data, _line_of(model, m.start())


def _missing_close(model: str, data: str) -> Mutant:
    k = model.rstrip().rfind("}")
    if k < 0 or model.rstrip()[k + 1:].strip():
        return None
    return model[:k] + model[k + 1:], data, None  # the error is at the `{` left open


def _undeclared_data(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    for m in re.finditer(r"^(int|float) (\w+) = \.\.\.;[^\n]*\n", code, re.M):
        name = m.group(2)
        if re.search(r"^\s*%s\s*=\s*[-\d.]+\s*;" % name, data, re.M):
            return model[:m.start()] + model[m.end():], data, None  # the error is at the first use
    return None


def _typo(model: str, data: str) -> Mutant:
    code = _strip_comments(model)
    decls = re.findall(r"^(?:\w+\+?|\{\w+\})\s+(\w{6,})\b[^;\n]*=", code, re.M)
    for name in decls:
        uses = [u for u in re.finditer(r"\b%s\b" % name, code)][1:]
        if uses:
            u = uses[0]
            bad = name[:2] + name[3] + name[2] + name[4:]
            if bad == name:
                continue
            return model[:u.start()] + bad + model[u.end():], data, _line_of(model, u.start())
    return None


def _dat(pattern: str, new: str) -> Callable:
    def mutate(model: str, data: str) -> Mutant:
        m = re.search(pattern, _strip_comments(data), re.M)
        if not m:
            return None
        return model, data[:m.start()] + m.expand(new) + data[m.end():], _line_of(data, m.start())
    return mutate


KINDS: dict[str, Callable] = {
    "le_reversed": _replace_first(r" <= ", " =< "),
    "eq_single": _replace_first(r" == ", " = "),
    "ge_as_implication": _replace_first(r" >= ", " => "),
    "strict_lt_float": _replace_first(r" <= ", " < "),
    "drop_semicolon": _drop_semicolon_dvar,
    "drop_semicolon_external": _drop_semicolon_external,
    "st_abbreviation": _replace_first(r"\bsubject to\b", "s.t.", after_constraints=False),
    "subject_to_colon": _replace_first(r"\bsubject to(\s*)\{", r"subject to:\1{", after_constraints=False),
    "minimise": _replace_first(r"\b(minimi|maximi)ze\b", r"\1se", after_constraints=False),
    "dvar_integer": _replace_first(r"\bdvar int\b(?!\+)", "dvar integer", after_constraints=False),
    "dvar_binary": _replace_first(r"\bdvar boolean\b", "dvar binary", after_constraints=False),
    "ampl_sum": _ampl_sum,
    "python_sum": _python_sum,
    "missing_close_brace": _missing_close,
    "undeclared_data_name": _undeclared_data,
    "typo_in_name": _typo,
    "dat_colon_equals": _dat(r"^(\w+)\s*=", r"\1 :="),
}


def _errors(model: str, data: str) -> list:
    import pyopl

    return [d for d in pyopl.check(model, data) if d.is_error]


def _optimum(model: str, data: str) -> float | None:
    import pyopl

    try:
        r = pyopl.compile_model(model, data).solve(time_limit=20, explain_infeasible=False)
    except pyopl.CompileError:
        return None
    return r.objective if r.status == "optimal" else None


def _naive(model: str, data: str) -> tuple[str, str]:
    import pyopl
    from pyopl.fixes.edit import apply_fixes

    for _ in range(3):
        diags = list(pyopl.check(model, data))
        m2, n1 = apply_fixes(model, [d for d in diags if d.file == "<model>"])
        d2, n2 = apply_fixes(data, [d for d in diags if d.file == "<data>"])
        if not (n1 or n2):
            break
        model, data = m2, d2
    return model, data


def _outcome(model: str, data: str, orig: tuple, want: float | None, n_before: int, mutant: tuple) -> tuple[bool, bool]:
    """(repaired, worse) of a fixed model; only an edit by the fixes can make things worse."""
    errs = _errors(model, data)
    changed = (model, data) != mutant
    if errs:
        return False, changed and len(errs) > n_before
    if (model, data) == orig:
        return True, False
    got = _optimum(model, data)
    same = want is not None and got is not None and abs(got - want) <= 1e-6 * max(1.0, abs(want))
    return same, changed and not same


def main() -> None:
    from pyopl.fixes.select import repair

    args = sys.argv[1:]
    limit = int(args[args.index("--limit") + 1]) if "--limit" in args else None
    kinds = args[args.index("--kinds") + 1].split(",") if "--kinds" in args else list(KINDS)
    show = "--show" in args
    dirs = sorted(p for p in (ROOT / "knowledge_base").iterdir() if (p / "model.mod").exists())[:limit]
    rows = []
    for d in dirs:
        model = (d / "model.mod").read_text(encoding="utf-8")
        data = (d / "data.dat").read_text(encoding="utf-8") if (d / "data.dat").exists() else ""
        meta = json.loads((d / "meta.json").read_text()) if (d / "meta.json").exists() else {}
        want = meta.get("objective")
        for kind in kinds:
            mut = KINDS[kind](model, data)
            if mut is None:
                continue
            m, dt, line = mut
            errs = _errors(m, dt)
            detected = bool(errs)
            on_line = None if line is None else (detected and errs[0].line == line and
                                                 (errs[0].file == "<data>") == kind.startswith("dat_"))
            fm, fd, _applied = repair(m, dt)
            rep, worse = _outcome(fm, fd, (model, data), want, len(errs), (m, dt))
            nm, nd = _naive(m, dt)
            nrep, nworse = _outcome(nm, nd, (model, data), want, len(errs), (m, dt))
            rows.append((kind, d.name, detected, on_line, rep, worse, nrep, nworse))
            if show and not rep:
                print("not repaired: %s %s -> %s" % (kind, d.name, [(e.code, e.line, e.message) for e in errs[:2]]))
    print("%-24s %5s %9s %8s %9s %6s %13s %11s" % ("kind", "cases", "detected", "on_line", "repaired", "worse",
                                                 "naive_repair", "naive_worse"))
    for kind in kinds + ["ALL"]:
        rs = [r for r in rows if r[0] == kind or kind == "ALL"]
        if not rs:
            continue
        n = len(rs)
        def pct(k: int) -> str:
            known = [r for r in rs if r[k] is not None]
            return "%5.1f%%" % (100.0 * sum(r[k] for r in known) / len(known)) if known else "    -"
        print("%-24s %5d %9s %8s %9s %6s %13s %11s" % (kind, n, pct(2), pct(3), pct(4), sum(r[5] for r in rs),
                                                     pct(6), sum(r[7] for r in rs)))


if __name__ == "__main__":
    main()
