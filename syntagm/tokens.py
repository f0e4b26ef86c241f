"""Offline token estimate, used only when an endpoint omits ``usage``.

No tokenizer is bundled (``tiktoken`` would be a dependency and needs its
vocabulary files). The estimate is documented and deliberately simple:

- a text costs ``ceil(characters / 4)`` tokens (OpenAI's rule of thumb for
  English; OPL code with short identifiers and punctuation is close to it);
- a chat message adds 4 tokens of framing, and a request adds 3 more for the
  reply's priming (the published ChatML overhead).

Every telemetry record built from an estimate says so (``usage_estimated``).
"""
from __future__ import annotations

import math
from typing import Iterable, Mapping

CHARS_PER_TOKEN = 4
MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3


def estimate_text_tokens(text: str) -> int:
    """Tokens in ``text`` (an estimate: ``ceil(len(text) / 4)``; 0 for empty text)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


def estimate_prompt_tokens(messages: Iterable[Mapping[str, str]]) -> int:
    """Prompt tokens of a chat request: the sum over messages of content tokens plus framing."""
    total = REPLY_PRIMING_TOKENS
    for m in messages:
        total += MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(str(m.get("content") or ""))
    return total
