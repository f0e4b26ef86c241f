"""``results.jsonl``: one JSON record per finished problem, appended as it finishes.

Each record is one line, written with a single ``write`` then flushed and
fsynced, so a crash or Ctrl-C loses at most the problems still running; a
line cut short by a crash is reported (``corrupt``) and its problem is run
again. A record is identified by ``(dataset, strategy, model, id)``: rerunning
the bench skips every problem already recorded for that key.

Record fields: ``type`` (``"result"``), ``dataset``, ``dataset_path``, ``id``,
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
ended the run), ``settings``, ``transcript`` (its path when recorded),
``finished_at`` (UTC, ISO 8601), ``syntagm`` (version).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..safeio import json_line, open_append

RESULTS_FILE = "results.jsonl"

Key = tuple[str, str, str, str]


def record_key(rec: dict[str, Any]) -> Key:
    """``(dataset, strategy, model, id)`` of a record."""
    return (str(rec.get("dataset")), str(rec.get("strategy")), str(rec.get("model")), str(rec.get("id")))


@dataclass
class CorruptLine:
    """A line of ``results.jsonl`` that is not a record: 1-based ``line``, ``last`` (the file's
    last line, typically cut short by a crash) and ``reason``."""

    line: int
    last: bool
    reason: str

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
            if reason is not None:
                log.corrupt.append(CorruptLine(i + 1, i == last_nonblank, reason))
                continue
            log.records[record_key(rec)] = rec
        return log

    def done(self, key: Key) -> bool:
        return key in self.records

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
        if self._sink is not None:
            self._sink.close()
            self._sink = None
