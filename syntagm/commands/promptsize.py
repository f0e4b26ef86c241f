"""How big is the first generation prompt? Token counts over a benchmark's problems.

The issue asks for a compact prompt: competing implementations paste a grammar
of about 8,000 tokens into every call. :func:`prompt_size_report` builds the
exact first generation request syntagm would send for each problem of a
dataset (``[{"en_question": ...}, ...]``) and counts its prompt tokens exactly with the
model's tokenizer where one is available offline, else with the documented estimate
(:mod:`syntagm.tokens`); the report says which (``method``).
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from ..errors import SyntagmError
from ..loop import LoopOptions, _Run
from ..tokens import count_prompt_tokens


class _NoLLM:
    model = "none"

    def chat(self, *a, **k):  # pragma: no cover - never called
        raise SyntagmError("no LLM calls while measuring prompts")


def load_questions(path: str | Path) -> list[str]:
    """The ``en_question`` (or ``question``/``problem``) texts of a JSON or JSONL dataset."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise SyntagmError(f"cannot read the dataset {p}: {e.strerror or e}") from None
    try:
        rows = json.loads(text)
    except json.JSONDecodeError:
        try:
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise SyntagmError(f"{p}: neither JSON nor JSONL ({e.msg} at line {e.lineno})") from None
    if isinstance(rows, dict):
        rows = rows.get("problems") or rows.get("data") or list(rows.values())
    out = []
    for r in rows if isinstance(rows, list) else []:
        if isinstance(r, dict):
            q = r.get("en_question") or r.get("question") or r.get("problem")
            if isinstance(q, str) and q.strip():
                out.append(q)
    if not out:
        raise SyntagmError(f"{p}: no problems found (expected a list of objects with \"en_question\")")
    return out


def prompt_size_report(questions: list[str], retriever=None, options: LoopOptions | None = None,
                       model: str | None = None) -> dict[str, Any]:
    """``{"count", "min", "median", "mean", "p90", "max", "method"}`` of first-prompt tokens for
    ``model`` (``method``: ``"exact: <encoding>"`` or the estimate's description)."""
    sizes = []
    method = ""
    for q in questions:
        run = _Run(q, _NoLLM(), options or LoopOptions(), retriever, None)
        messages, _purpose, _tid = run.first_prompt()
        n, method = count_prompt_tokens(messages, model)
        sizes.append(n)
    sizes.sort()
    p90 = sizes[min(len(sizes) - 1, int(round(0.9 * (len(sizes) - 1))))]
    return {"count": len(sizes), "min": sizes[0], "median": statistics.median(sizes),
            "mean": round(statistics.fmean(sizes), 1), "p90": p90, "max": sizes[-1],
            "model": model, "method": method}
