"""Benchmark datasets, read from a path the user gives.

The format is the one of the cleaned public collections (NL4OPT, NLP4LP,
IndustryOR, ComplexOR...): a JSON list of objects with ``en_question`` (the
problem text) and ``en_answer`` (the optimal objective, a number or a string
holding one), optionally ``id`` (or ``index``) and other fields, which are
ignored. JSONL (one object per line) is read too.

A problem's id is its ``id`` field when every entry has a distinct one, else
its ``index`` field under the same condition, else its 0-based position in
the list (so ``--ids 178`` is ``data[178]``).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SyntagmError


@dataclass(frozen=True)
class BenchProblem:
    """One benchmark problem.

    ``dataset``: the dataset's name (the file name without extension);
    ``id``: its id within the dataset (a string); ``question``: the text;
    ``answer``: the reference optimal objective as a finite float, or ``None``
    when the entry has none that is numeric (then it is *unscorable*);
    ``answer_raw``: ``en_answer`` as given (JSON value); ``fields``: the entry's own
    classification fields where present (:data:`BREAKDOWN_FIELDS`: ``difficulty``,
    ``question_type``, ``type``, ``class``, ``problem_class``, ``category``), as strings;
    ``reference_model``/``reference_data``: the entry's reference OPL model and data where it
    carries them (fields ``reference_model``, ``reference_data``), for the equivalence check
    of :mod:`.equivalence`.
    """

    dataset: str
    id: str
    question: str
    answer: float | None
    answer_raw: Any
    fields: dict[str, str] | None = None
    reference_model: str | None = None
    reference_data: str = ""


#: Entry fields the report breaks accuracy down by, when a dataset has them.
BREAKDOWN_FIELDS = ("difficulty", "question_type", "type", "class", "problem_class", "category")


def parse_answer(raw: Any) -> float | None:
    """The reference objective as a finite float, or ``None`` when ``raw`` holds no number.

    Accepts numbers and strings holding one (``"3050.0"``, ``" -12 "``, ``"1,200"``
    with thousands separators); booleans, ``NaN``/``inf``, empty strings and
    texts (``"No Best Solution"``) give ``None``.
    """
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, (int, float)):
        v = float(raw)
    elif isinstance(raw, str):
        text = raw.strip().replace(",", "")
        if not text:
            return None
        try:
            v = float(text)
        except ValueError:
            return None
    else:
        return None
    return v if math.isfinite(v) else None


def _rows(path: Path) -> list[Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SyntagmError(f"dataset {path} does not exist") from None
    except IsADirectoryError:
        raise SyntagmError(f"dataset {path} is a folder; give the JSON file") from None
    except UnicodeDecodeError:
        raise SyntagmError(f"dataset {path} is not UTF-8 text") from None
    except OSError as e:
        raise SyntagmError(f"cannot read the dataset {path}: {e.strerror or e}") from None
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as first:
        try:
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            raise SyntagmError(f"dataset {path} is neither JSON nor JSONL "
                               f"({first.msg} at line {first.lineno})") from None
    if isinstance(rows, dict):
        rows = rows.get("problems") or rows.get("data")
    if not isinstance(rows, list):
        raise SyntagmError(f"dataset {path}: expected a JSON list of objects with \"en_question\"")
    return rows


def _ids(rows: list[dict[str, Any]]) -> list[str]:
    for key in ("id", "index"):
        values = [r.get(key) for r in rows]
        if all(v is not None and not isinstance(v, (dict, list)) for v in values):
            ids = [str(v) for v in values]
            if len(set(ids)) == len(ids):
                return ids
    return [str(i) for i in range(len(rows))]


def load_dataset(path: str | Path, name: str | None = None) -> list[BenchProblem]:
    """Every problem of the dataset at ``path``, in file order.

    ``name`` defaults to the file name without extension (``NL4OPT``). Entries
    that are not objects or have no ``en_question`` (also read: ``question``,
    ``problem``) raise :class:`SyntagmError` naming the entry, as does an empty dataset.
    """
    p = Path(path)
    rows = _rows(p)
    name = name or p.stem
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise SyntagmError(f"dataset {p}: entry {i} is not an object")
    ids = _ids(rows)
    out = []
    for i, (r, pid) in enumerate(zip(rows, ids)):
        q = r.get("en_question") or r.get("question") or r.get("problem")
        if not isinstance(q, str) or not q.strip():
            raise SyntagmError(f"dataset {p}: entry {i} (id {pid}) has no \"en_question\" text")
        raw = r.get("en_answer", r.get("answer"))
        fields = {k: str(r[k]) for k in BREAKDOWN_FIELDS if isinstance(r.get(k), (str, int, float))
                  and not isinstance(r.get(k), bool)}
        ref = r.get("reference_model")
        ref_data = r.get("reference_data")
        out.append(BenchProblem(name, pid, q, parse_answer(raw), raw, fields or None,
                                ref if isinstance(ref, str) and ref.strip() else None,
                                ref_data if isinstance(ref_data, str) else ""))
    if not out:
        raise SyntagmError(f"dataset {p} holds no problems")
    return out
