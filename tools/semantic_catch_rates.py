"""Catch rates and false alarms of syntagm's LLM-free semantic checks (not part of the test suite).

Usage: python tools/semantic_catch_rates.py

Prints, for each check of :mod:`syntagm.assess.semantic`:
  false alarms   findings on the knowledge-base exemplars (must be 0) and on the ten correct
                 models of tests/syntagm/semantic_cases.py;
  scripted       the 50 wrong-but-compiling models of tests/syntagm/semantic_cases.py (swapped
                 coefficients, a missing constraint, the wrong sense, a unit slip, a limit the wrong
                 way round; 10 each): how many get a finding, per kind and per check, and how many
                 of them the solver already rejects (infeasible or unbounded: the loop repairs those
                 without any check);
  repair corpus  the single-edit mutants of tools/fix_repair_rate.py that compile without an error
                 (the compiler's silent ones) and solve to another optimum than the exemplar: how
                 many get a finding.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "syntagm"))
sys.path.insert(0, str(ROOT / "tools"))


def _run(model: str, data: str) -> tuple[str, float | None]:
    import pyopl

    try:
        r = pyopl.compile_model(model, data=data or None, source="text").solve(time_limit=10)
    except pyopl.CompileError:
        return "compile_error", None
    return r.status, r.objective if r.status == "optimal" else None


def _solve(model: str, data: str) -> float | None:
    return _run(model, data)[1]


def _checks(problem: str, model: str, data: str, objective: float | None) -> set[str]:
    from syntagm.assess import semantic

    sense = re.search(r"\b(maximize|minimize)\b", semantic._code(model))
    return {f.check for f in semantic.check(problem, model, data, sense=sense.group(1) if sense else None,
                                            objective=objective, solve=_solve)}


def main() -> None:
    import pyopl
    from fix_repair_rate import KINDS
    from semantic_cases import CASES, mutants

    exemplars = [d for d in sorted((ROOT / "knowledge_base").iterdir()) if (d / "model.mod").is_file()]
    alarms = Counter()
    for d in exemplars:
        data = (d / "data.dat").read_text() if (d / "data.dat").is_file() else ""
        meta = json.loads((d / "meta.json").read_text())
        for c in _checks((d / "description.md").read_text(), (d / "model.mod").read_text(), data, meta["objective"]):
            alarms[c] += 1
    base_alarms = Counter()
    for c in CASES:
        for k in _checks(c["problem"], c["model"], c["data"], _solve(c["model"], c["data"])):
            base_alarms[k] += 1
    print(f"false alarms: {sum(alarms.values())} on {len(exemplars)} exemplars {dict(alarms)}; "
          f"{sum(base_alarms.values())} on the {len(CASES)} correct scripted models {dict(base_alarms)}")

    total, caught, solver, by_check = Counter(), Counter(), Counter(), Counter()
    for c, kind, model, data in mutants():
        status, obj = _run(model, data)
        found = _checks(c["problem"], model, data, obj)
        total[kind] += 1
        caught[kind] += bool(found)
        solver[kind] += status in ("infeasible", "unbounded", "infeasible_or_unbounded")
        for k in found:
            by_check[k] += 1
    print("scripted wrong models (caught / total; rejected by the solver anyway):")
    for kind in total:
        print(f"  {kind:10s} {caught[kind]:2d} / {total[kind]:2d}   solver {solver[kind]}")
    print(f"  {'all':10s} {sum(caught.values()):2d} / {sum(total.values()):2d}   solver {sum(solver.values())}")
    print("  findings per check:", dict(by_check))

    silent = found_silent = 0
    per_kind = Counter()
    for d in exemplars:
        model = (d / "model.mod").read_text()
        data = (d / "data.dat").read_text() if (d / "data.dat").is_file() else ""
        want = json.loads((d / "meta.json").read_text())["objective"]
        for kind, mutate in KINDS.items():
            mut = mutate(model, data)
            if mut is None:
                continue
            m2, d2, _line = mut
            if any(x.is_error for x in pyopl.check(m2, d2)):
                continue
            status, obj = _run(m2, d2)
            if obj is not None and abs(obj - want) <= 1e-6 * max(1.0, abs(want)):
                continue  # the same answer: not wrong
            silent += 1
            hit = bool(_checks((d / "description.md").read_text(), m2, d2, obj))
            found_silent += hit
            per_kind[(kind, hit)] += 1
    print(f"repair corpus: {silent} mutant(s) compile without an error and answer differently; "
          f"{found_silent} get a finding {dict(per_kind)}")


if __name__ == "__main__":
    main()
