"""``results.jsonl``: one JSON record per finished problem, appended as it finishes.

Each record is one line, written with a single ``write`` then flushed and
fsynced, so a crash or Ctrl-C loses at most the problems still running; a
line cut short by a crash is reported (``corrupt``) and its problem is run
again, and once its problem has run again the file is rewritten without it
(atomically), so later runs do not warn again. A record is identified by
``(run_id, model, strategy, dataset, id, sample)`` (see :mod:`.identity`):
rerunning the bench skips every problem already recorded for that key, and a
run with other settings has another run id, so it never reuses old answers.

Record fields: ``type`` (``"result"``), ``run_id``, ``sample`` (0-based), ``dataset``, ``dataset_path``, ``id``,
``strategy``, ``model``, ``status`` (the strategy's: ``aligned``/``solved``/
``unaligned``/``failed``), ``objective`` (``null`` without a solved model),
``solver_status``, ``answer`` (the reference as a float or ``null``),
``answer_raw``, ``compiled`` (the final model compiles), ``solved``,
``aligned`` (the judge's last verdict: ``true``/``false``, ``null`` when no
judge ran), ``iterations``, ``llm_calls``, ``prompt_tokens``,
``completion_tokens``, ``cached_tokens``, ``cost_usd`` (``null`` if unpriced),
``latency_s`` (LLM seconds, retries and backoff included), ``wall_s`` (the
problem's wall clock: LLM, compile and solve), ``retries``,
``usage_estimated``, ``error`` (an endpoint failure or internal error that
ended the run), ``endpoint_error`` (the kind of endpoint failure that ended it, else ``null``)
and ``retryable`` (true for such a record: it measured the endpoint, not the method, so it is
counted as pending and run again by a rerun; a problem's own cost cap is not retryable),
``settings`` (every setting of the run, :mod:`.identity`),
``transcript`` (its path when recorded),
``finished_at`` (UTC, ISO 8601), ``syntagm`` (version).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..safeio import json_line, open_append, write_atomic

RESULTS_FILE = "results.jsonl"

Key = tuple[str, str, str, str, str, int]


def record_key(rec: dict[str, Any]) -> Key:
    """``(run_id, model, strategy, dataset, id, sample)`` of a record (records written before run
    ids existed have run id ``""`` and belong to no new run)."""
    return (str(rec.get("run_id") or ""), str(rec.get("model")), str(rec.get("strategy")), str(rec.get("dataset")),
            str(rec.get("id")), int(rec.get("sample") or 0))


_STR, _NUM, _INT, _BOOL = (str,), "number", "integer", (bool,)
#: the type each field of a record must have when present (None allowed where listed); a record
#: written by hand or damaged on disk with another type is skipped and reported, never a crash
FIELD_TYPES: dict[str, tuple[Any, bool]] = {
    "run_id": (_STR, True), "model": (_STR, True), "strategy": (_STR, True), "dataset": (_STR, True),
    "id": ((str, int), False), "sample": (_INT, False), "dataset_path": (_STR, True),
    "question_sha256": (_STR, True), "status": (_STR, True), "objective": (_NUM, True),
    "solver_status": (_STR, True), "answer": (_NUM, True), "answer_raw": ((str, int, float), True),
    "fields": ((dict,), True), "compiled": (_BOOL, True), "solved": (_BOOL, True), "contract_only": (_BOOL, True),
    "attempts": (_INT, False), "aligned": (_BOOL, True), "iterations": (_INT, False), "llm_calls": (_INT, False),
    "prompt_tokens": (_INT, False), "completion_tokens": (_INT, False), "cached_tokens": (_INT, False),
    "cost_usd": (_NUM, True), "cache_hits": (_INT, False), "latency_s": (_NUM, True), "wall_s": (_NUM, True),
    "retries": (_INT, False), "usage_estimated": (_BOOL, True), "error": (_STR, True), "settings": ((dict,), True),
    "trace": ((list,), True), "transcript": (_STR, True), "finished_at": (_STR, True), "syntagm": (_STR, True),
}


def _type_word(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


def record_problem(rec: dict[str, Any]) -> str | None:
    """What is wrong with the fields of result record ``rec`` (``FIELD_TYPES``), or None."""
    for name, (want, nullable) in FIELD_TYPES.items():
        if name not in rec:
            continue
        v = rec[name]
        if v is None:
            if nullable:
                continue
            ok = False
        elif want == _NUM:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        elif want == _INT:
            ok = isinstance(v, int) and not isinstance(v, bool) and v >= 0
        elif want == (str, int):
            ok = isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))
        else:
            ok = isinstance(v, want) and (bool not in want or isinstance(v, bool)) and \
                (want == _BOOL or not isinstance(v, bool))
        if not ok:
            return f"field `{name}` is {_type_word(v)}"
    return None


@dataclass
class CorruptLine:
    """A line of ``results.jsonl`` that is not a record: 1-based ``line``, ``last`` (the file's
    last line, typically cut short by a crash) and ``reason``."""

    line: int
    last: bool
    reason: str
    raw: bytes = b""

    def describe(self) -> str:
        where = "the last line" if self.last else f"line {self.line}"
        return f"{where} ({self.reason})"


@dataclass
class ResultsLog:
    """The results file: ``records`` by key (read at open), ``corrupt`` lines found, and
    :meth:`append` for new records."""

    path: Path
    records: dict[Key, dict[str, Any]] = field(default_factory=dict)
    corrupt: list[CorruptLine] = field(default_factory=list)
    _sink: TextIO | None = None
    _needs_newline: bool = False

    @classmethod
    def open(cls, path: str | Path) -> "ResultsLog":
        """Read the existing records of ``path`` (a missing file is an empty log).

        Lines that are not JSON result objects are skipped and listed in ``corrupt``;
        a later record for the same key replaces an earlier one.
        """
        log = cls(Path(path))
        if not log.path.exists():
            return log
        raw = log.path.read_bytes()
        log._needs_newline = bool(raw) and not raw.endswith(b"\n")
        lines = raw.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        last_nonblank = max((i for i, ln in enumerate(lines) if ln.strip()), default=-1)
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            reason = None
            try:
                rec = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError:
                reason = "not UTF-8"
            except json.JSONDecodeError as e:
                reason = f"invalid JSON: {e.msg}"
            else:
                if not isinstance(rec, dict) or rec.get("type") != "result":
                    reason = "not a result record"
                else:
                    reason = record_problem(rec)
            if reason is not None:
                log.corrupt.append(CorruptLine(i + 1, i == last_nonblank, reason, line))
                continue
            log.records[record_key(rec)] = rec
        return log

    def done(self, key: Key) -> bool:
        """Whether ``key`` has a record that settles it: a record of an endpoint failure
        (``retryable``) does not, so a rerun runs that problem again."""
        rec = self.records.get(key)
        return rec is not None and not rec.get("retryable")

    def append(self, rec: dict[str, Any]) -> None:
        """Append ``rec`` as one line, flushed and fsynced before returning."""
        if self._sink is None:
            self._sink = open_append(self.path)
            if self._needs_newline:  # a line cut short by a crash stays on its own line
                self._sink.write("\n")
                self._needs_newline = False
        self._sink.write(json_line(rec, sort_keys=True) + "\n")
        self._sink.flush()
        os.fsync(self._sink.fileno())
        self.records[record_key(rec)] = rec

    def close(self) -> None:
        """Close the file; when a torn last line was found at :meth:`open` and records were
        appended since (its problem ran again), rewrite the file without that line."""
        if self._sink is not None:
            self._sink.close()
            self._sink = None
            self._drop_torn_line()

    def _drop_torn_line(self) -> None:
        torn = next((c for c in self.corrupt if c.last), None)
        if torn is None or not torn.raw:
            return
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        if len(lines) < torn.line or lines[torn.line - 1] != torn.raw:
            return  # the file changed under us: leave it
        del lines[torn.line - 1]
        write_atomic(self.path, b"\n".join(lines))
        self.corrupt.remove(torn)
