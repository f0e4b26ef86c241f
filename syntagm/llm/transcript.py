"""Record and replay of LLM exchanges as a JSONL transcript.

Format (one JSON object per line, UTF-8):

- line 1, the header: ``{"type": "header", "format": "syntagm-transcript",
  "version": 1, "syntagm": <version>, "model": ..., "base_url": ...,
  "run": {strategy, max_iterations, retriever, exemplars, ...}}`` (never the
  API key; ``run`` lets a replay default to the recorded settings);
- then one line per call, in order: ``{"type": "exchange", "seq": n,
  "purpose": ..., "iteration": ..., "request": {"model", "messages",
  "json_mode", "temperature"}, "request_sha256": ..., "reply":
  {"content", "finish_reason"}, "usage": <as received or null>,
  "telemetry": <CallTelemetry dict>}``; a call that failed after every retry
  has ``"error": {"kind", "message", "attempts", "latency_s", "cost_usd"}`` instead of ``reply``.

:class:`RecordingClient` wraps a live client and appends each exchange as it
finishes (flushed, so a crash keeps what was said). :class:`ReplayClient`
serves the recorded replies in order, offline, with the recorded telemetry,
so a replayed run reproduces the recorded artefacts and telemetry exactly.
It checks that each request is the one recorded and raises
:class:`~syntagm.errors.ReplayError` where the run diverges.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, TextIO

from .. import __version__
from ..errors import LLMError, ReplayError, SyntagmError
from ..redact import redact_secrets, scrub
from ..safeio import json_line
from .client import ChatClient, ChatReply, Message
from .telemetry import CallTelemetry

FORMAT = "syntagm-transcript"
VERSION = 1


def request_digest(messages: list[Message]) -> str:
    """SHA-256 of the messages (role and content), the identity of a request for replay.

    Taken over the messages as they are recorded, registered secrets removed (a request that
    quotes a reply which echoed the key is recorded with ``[REDACTED]``, and its replay sends that),
    and encoded with ``surrogatepass``: a lone surrogate that an LLM reply carried into the next
    prompt is hashed, never an error (the digest of any other text is unchanged)."""
    canon = json.dumps([[m.get("role"), m.get("content")] for m in messages], ensure_ascii=False,
                       separators=(",", ":"))
    return hashlib.sha256(redact_secrets(canon).encode("utf-8", "surrogatepass")).hexdigest()


class RecordingClient:
    """Wraps ``inner`` and appends every exchange to the open text stream ``sink``."""

    def __init__(self, inner: ChatClient, sink: TextIO, base_url: str | None = None,
                 run: dict[str, Any] | None = None):
        self.inner = inner
        self.model = inner.model
        self.sink = sink
        self.seq = 0
        self._write({"type": "header", "format": FORMAT, "version": VERSION, "syntagm": __version__,
                     "model": inner.model, "base_url": scrub(base_url) if base_url else None,
                     "run": run or {}})

    def _write(self, obj: dict[str, Any]) -> None:
        self.sink.write(json_line(obj, sort_keys=True) + "\n")
        self.sink.flush()

    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply:
        self.seq += 1
        entry: dict[str, Any] = {"type": "exchange", "seq": self.seq, "purpose": purpose, "iteration": iteration,
                                 "prompt_version": prompt_version,
                                 "request": {"model": self.model, "messages": messages, "json_mode": json_mode},
                                 "request_sha256": request_digest(messages)}
        try:
            reply = self.inner.chat(messages, purpose=purpose, json_mode=json_mode, iteration=iteration,
                                    prompt_version=prompt_version)
        except LLMError as e:
            entry["error"] = {"kind": e.kind, "message": str(e), "attempts": e.attempts, "latency_s": e.latency_s,
                              "cost_usd": e.cost_usd}
            self._write(entry)
            raise
        entry["request"]["temperature"] = reply.request.get("temperature")
        entry["reply"] = {"content": reply.content, "finish_reason": reply.finish_reason}
        entry["usage"] = reply.usage
        entry["telemetry"] = reply.telemetry.to_dict()
        self._write(entry)
        return reply


_S, _N, _I, _B, _D, _L = (str,), "number", "integer", (bool,), (dict,), (list,)
#: the type of each field a transcript line may hold (and whether null is allowed)
_HEADER_FIELDS = {"model": (_S, True), "base_url": (_S, True), "run": (_D, True)}
_EXCHANGE_FIELDS = {"purpose": (_S, True), "request_sha256": (_S, True), "request": (_D, True), "reply": (_D, True),
                    "error": (_D, True), "telemetry": (_D, True), "seq": (_I, True), "iteration": (_I, True)}
#: the recorded settings a replay takes as its defaults
_RUN_FIELDS = {"strategy": (_S, True), "retriever": (_S, True), "grammar_mode": (_S, True), "max_iterations": (_I, True),
               "exemplars": (_I, True), "time_limit_s": (_N, True), "compile_timeout_s": (_N, True)}
_REPLY_FIELDS = {"content": (_S, True), "finish_reason": (_S, True)}
_ERROR_FIELDS = {"message": (_S, True), "kind": (_S, True), "attempts": (_I, True), "latency_s": (_N, True),
                 "cost_usd": (_N, True)}
_TELEMETRY_FIELDS = {"purpose": (_S, False), "model": (_S, False), "prompt_tokens": (_I, False),
                     "completion_tokens": (_I, False), "cached_tokens": (_I, False), "usage_estimated": (_B, False),
                     "latency_s": (_N, False), "retries": (_I, False), "cost_usd": (_N, True),
                     "prompt_version": (_S, False), "iteration": (_I, False), "error": (_S, True),
                     "cache_hit": (_B, False), "usage_source": (_S, False)}
_REQUIRED_TELEMETRY = ("purpose", "model", "prompt_tokens", "completion_tokens")


def _fields_problem(obj: dict[str, Any], fields: dict[str, tuple[Any, bool]], prefix: str = "") -> str | None:
    """What is wrong with the fields of ``obj`` (see ``fields``), or None."""
    if fields is _TELEMETRY_FIELDS:
        missing = [k for k in _REQUIRED_TELEMETRY if k not in obj]
        if missing:
            return f"`{prefix}{missing[0]}` is missing"
    for name, (want, nullable) in fields.items():
        if name not in obj:
            continue
        v = obj[name]
        if v is None:
            ok = nullable
        elif want == _N:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        elif want == _I:
            ok = isinstance(v, int) and not isinstance(v, bool) and v >= 0
        else:
            ok = isinstance(v, want) and (want == _B or not isinstance(v, bool))
        if not ok:
            return f"`{prefix}{name}` is {type(v).__name__ if v is not None else 'null'}, not the type a transcript holds"
    return None


def read_transcript(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(header, exchanges)`` of a transcript file. Raises :class:`SyntagmError` on a bad file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise SyntagmError(f"cannot read the transcript {p}: {e.strerror or e}") from None
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:  # was an internal error
        line = data.count(b"\n", 0, e.start) + 1
        raise SyntagmError(f"{p}:{line}: not a transcript line (not UTF-8 text)") from None
    header: dict[str, Any] | None = None
    exchanges: list[dict[str, Any]] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise SyntagmError(f"{p}:{n}: not a transcript line (invalid JSON: {e.msg})") from None
        if not isinstance(obj, dict):
            raise SyntagmError(f"{p}:{n}: not a transcript line (expected a JSON object)")
        if obj.get("type") == "header":
            if obj.get("format") != FORMAT:
                raise SyntagmError(f"{p}: not a syntagm transcript (format {obj.get('format')!r})")
            why = _fields_problem(obj, _HEADER_FIELDS)
            run = obj.get("run")
            if why is None and isinstance(run, dict):
                why = _fields_problem(run, _RUN_FIELDS, "run.")
            if why is None and isinstance(run, dict) and run.get("settings") is not None \
                    and not isinstance(run["settings"], dict):
                why = "`run.settings` is not an object"
            header = obj
        elif obj.get("type") == "exchange":
            why = _fields_problem(obj, _EXCHANGE_FIELDS)
            for part, fields in (("reply", _REPLY_FIELDS), ("error", _ERROR_FIELDS), ("telemetry", _TELEMETRY_FIELDS)):
                if why is None and isinstance(obj.get(part), dict):
                    why = _fields_problem(obj[part], fields, part + ".")
            exchanges.append(obj)
        else:
            why = None
        if why is not None:  # a damaged or hand-edited line: said where, never an internal error later
            raise SyntagmError(f"{p}:{n}: not a transcript line ({why})")
    if header is None:
        raise SyntagmError(f"{p}: not a syntagm transcript (no header line)")
    return header, exchanges


class ReplayClient:
    """Serves a transcript's replies in order. ``strict``: refuse requests that differ from the recording.

    ``expect_model`` / ``expect_run``: the model and run (``run_id``, ``strategy``, ``sample``,
    ``settings``) the replaying run is; a transcript recorded for another raises
    :class:`ReplayError` at once, naming what differs.  ``settings_differences(recorded, this)``
    words how two settings dicts differ (``["name: A → B", ...]``; the bench passes
    :func:`syntagm.bench.identity.setting_differences`); without it the settings are compared whole.
    """

    def __init__(self, path: str | Path, strict: bool = True, expect_model: str | None = None,
                 expect_run: dict[str, Any] | None = None,
                 settings_differences: Callable[[dict, dict], list[str]] | None = None):
        self.path = Path(path)
        self.header, self.exchanges = read_transcript(self.path)
        self.model = str(self.header.get("model") or "replay")
        self.strict = strict
        self.pos = 0
        diff = []
        if expect_model is not None and self.model != expect_model:
            diff.append(f"model: recorded {self.model!r}, this run {expect_model!r}")
        recorded = self.header.get("run") or {}
        for k, v in (expect_run or {}).items():
            if k == "settings" and settings_differences is not None:
                diff += [f"setting {d}" for d in settings_differences(recorded.get("settings") or {}, v or {})]
            elif recorded.get(k) != v:
                diff.append(f"{k}: recorded {recorded.get(k)!r}, this run {v!r}")
        if diff:
            raise ReplayError(f"the transcript {self.path} was recorded for another run (" + "; ".join(diff) + ")")

    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply:
        if self.pos >= len(self.exchanges):
            raise ReplayError(f"the run asked for call {self.pos + 1} ({purpose}) but the transcript "
                              f"{self.path} holds only {len(self.exchanges)}: it was recorded with other settings "
                              "(strategy, --max-iterations) or an older syntagm")
        entry = self.exchanges[self.pos]
        self.pos += 1
        if self.strict:
            if entry.get("purpose") != purpose or entry.get("request_sha256") != request_digest(messages):
                raise ReplayError(f"call {self.pos} ({purpose}) differs from the transcript's call {self.pos} "
                                  f"({entry.get('purpose')}): the prompts, knowledge base or compiler changed "
                                  "since it was recorded")
        if "error" in entry:
            err = entry["error"] or {}
            raise LLMError(str(err.get("message", "recorded failure")), str(err.get("kind", "other")),
                           int(err.get("attempts", 1)), float(err.get("latency_s", 0.0)),
                           cost_usd=err.get("cost_usd", 0.0))
        reply = entry.get("reply") or {}
        tel = CallTelemetry.from_dict(entry.get("telemetry") or {"purpose": purpose, "model": self.model,
                                                                  "prompt_tokens": 0, "completion_tokens": 0})
        return ChatReply(str(reply.get("content") or ""), tel, reply.get("finish_reason"),
                         entry.get("request") or {}, entry.get("usage"))
