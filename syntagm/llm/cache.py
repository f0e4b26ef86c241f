"""A content-addressed cache of LLM calls (``--cache DIR``), and a per-problem cost cap.

:class:`CachingClient` wraps a client. The key of a call is the SHA-256 of the exact request
(endpoint model name, base URL, messages, JSON mode, temperature, max tokens, seed, and the
digest of the grammar sent for constrained decoding when one is sent) as canonical JSON; the reply (content, finish reason, usage, the original telemetry) is kept in
``DIR/<2 hex>/<64 hex>.json``, written atomically. An identical request later — from another
strategy, a rerun or another sample — is answered from the file: its telemetry carries
``cache_hit: true``, the tokens of the cached reply, 0 dollars and 0 seconds. Only
deterministic requests are cached: temperature 0, or a seed given; others always go to the
endpoint (sampling at temperature 0.7 must not return one sample K times).

:class:`BudgetClient` stops a problem once its calls have cost ``cap_usd`` dollars: the next
call raises :class:`~syntagm.errors.LLMError` (kind ``cost_cap``), which ends the run like an
endpoint failure, keeping what it has.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import LLMError
from ..safeio import json_line, write_atomic
from .client import ChatClient, ChatReply, Message
from .telemetry import CallTelemetry


def request_key(request: dict[str, Any]) -> str:
    """SHA-256 hex of the canonical JSON of ``request``."""
    canon = json_line(request, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8", "surrogatepass")).hexdigest()  # (json_line: ASCII if surrogates)


class CachingClient:
    """``inner`` with replies cached under ``root`` (see the module docstring). ``settings``:
    the request fields the messages do not show (``base_url``, ``temperature``, ``max_tokens``,
    ``seed``); ``hits``/``misses`` count this client's calls."""

    def __init__(self, inner: ChatClient, root: str | Path, settings: dict[str, Any]):
        self.inner = inner
        self.model = inner.model
        self.root = Path(root)
        self.settings = dict(settings)
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()

    @property
    def cacheable(self) -> bool:
        return self.settings.get("temperature") == 0 or self.settings.get("seed") is not None

    def _constraint(self, prompt_version: str) -> str | None:
        """SHA-256 of the grammar field the inner client would send with this request, ``None``
        when it sends none: a reply decoded under a grammar is never reused for a request made
        without one, nor the other way round."""
        constrainer = getattr(self.inner, "constrainer", None)
        body = constrainer.extra_body(prompt_version) if constrainer is not None else {}
        return request_key(body) if body else None

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply:
        if not self.cacheable:
            return self.inner.chat(messages, purpose=purpose, json_mode=json_mode, iteration=iteration,
                                   prompt_version=prompt_version)
        request = {"model": self.model, "messages": messages, "json_mode": bool(json_mode), **self.settings}
        constraint = self._constraint(prompt_version)
        if constraint is not None:  # (absent when no grammar is sent: earlier keys stay valid)
            request["constraint_sha256"] = constraint
        key = request_key(request)
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entry = None
        if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("telemetry"), dict):
            with self._lock:
                self.hits += 1
            tel = replace(CallTelemetry.from_dict(entry["telemetry"]), purpose=purpose, iteration=iteration,
                          prompt_version=prompt_version, latency_s=0.0, retries=0, cost_usd=0.0, cache_hit=True)
            return ChatReply(str(entry.get("content") or ""), tel, entry.get("finish_reason"), request,
                             entry.get("usage"))
        reply = self.inner.chat(messages, purpose=purpose, json_mode=json_mode, iteration=iteration,
                                prompt_version=prompt_version)
        with self._lock:
            self.misses += 1
        write_atomic(path, json_line({"key": key, "request": request, "content": reply.content,
                                      "finish_reason": reply.finish_reason, "usage": reply.usage,
                                      "telemetry": reply.telemetry.to_dict()}, sort_keys=True) + "\n")
        return reply


class BudgetClient:
    """``inner`` that refuses further calls once ``cap_usd`` dollars are spent (``spent_usd``);
    an unpriced call (cost ``None``) counts as unknown and is noted in ``unpriced``."""

    def __init__(self, inner: ChatClient, cap_usd: float):
        self.inner = inner
        self.model = inner.model
        self.cap_usd = cap_usd
        self.spent_usd = 0.0
        self.unpriced = 0

    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply:
        if self.spent_usd >= self.cap_usd:
            raise LLMError(f"the problem's cost cap of ${self.cap_usd:g} is spent (${self.spent_usd:.6f}); "
                           "no further LLM call was made", "cost_cap", 0, 0.0)
        reply = self.inner.chat(messages, purpose=purpose, json_mode=json_mode, iteration=iteration,
                                prompt_version=prompt_version)
        if reply.telemetry.cost_usd is None:
            self.unpriced += 1
        else:
            self.spent_usd += reply.telemetry.cost_usd
        return reply
