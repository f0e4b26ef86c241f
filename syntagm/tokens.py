"""Offline token counts: exact where a tokenizer for the model is available, else an estimate.

**Exact.** With the optional package ``bpe-openai`` (extra ``syntagm[tokens]``; MIT, its
vocabularies are bundled, so it works offline), OpenAI models are counted with their own
encoding: ``o200k_base`` for ``gpt-4o``, ``gpt-4.1``, ``gpt-4.5``, ``gpt-5`` and the
``o1``/``o3``/``o4`` families, ``cl100k_base`` for ``gpt-4`` and ``gpt-3.5``. A chat request
counts, as OpenAI documents for these models, 3 tokens per message plus the tokens of its
role and content, plus 3 for the reply's priming. :func:`count_prompt_tokens` returns the
count with the method used.

**Estimate** (any other model, or without the package), labelled as such wherever it is used:

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


#: Encodings by model-name prefix (after any ``provider/``), for names the package does not know.
_PREFIXES = (("gpt-4o", "o200k_base"), ("gpt-4.1", "o200k_base"), ("gpt-4.5", "o200k_base"), ("gpt-5", "o200k_base"),
             ("o1", "o200k_base"), ("o3", "o200k_base"), ("o4", "o200k_base"), ("chatgpt-4o", "o200k_base"),
             ("gpt-4", "cl100k_base"), ("gpt-3.5", "cl100k_base"))
#: OpenAI's documented chat framing for these models: per message, and the reply's priming.
EXACT_MESSAGE_TOKENS = 3
EXACT_PRIMING_TOKENS = 3


def encoding_for(model: str | None):
    """``(encoding name, encoder)`` for ``model``, or ``None`` when no exact tokenizer is available."""
    if not model:
        return None
    import warnings

    try:
        with warnings.catch_warnings():  # its import reads vocabularies with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            import bpe_openai
    except ImportError:
        return None

    name = model.rsplit("/", 1)[-1]
    enc_name = None
    try:
        with warnings.catch_warnings():  # the package reads its tables with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            enc_name = bpe_openai.encoding_name_for_model(name)
    except Exception:  # unknown to the package: our prefix table
        enc_name = next((e for prefix, e in _PREFIXES if name.startswith(prefix)), None)
    if enc_name is None:
        return None
    return enc_name, _encoding(enc_name)


_ENCODINGS: dict[str, object] = {}


def _encoding(name: str):
    if name not in _ENCODINGS:
        import warnings

        import bpe_openai

        with warnings.catch_warnings():  # the package reads its vocabularies with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            _ENCODINGS[name] = bpe_openai.get_encoding(name)
    return _ENCODINGS[name]


def count_prompt_tokens(messages: Iterable[Mapping[str, str]], model: str | None = None) -> tuple[int, str]:
    """``(prompt tokens, method)`` for a chat request to ``model``: exact with the model's encoding
    when available (method ``"exact: o200k_base"``), else the estimate (method ``"estimate: ..."``)."""
    found = encoding_for(model)
    if found is None:
        return estimate_prompt_tokens(messages), ESTIMATE_METHOD
    name, enc = found
    total = EXACT_PRIMING_TOKENS
    for m in messages:
        total += EXACT_MESSAGE_TOKENS + len(enc.encode(str(m.get("role") or ""), disallowed_special=()))
        total += len(enc.encode(str(m.get("content") or ""), disallowed_special=()))
    return total, f"exact: {name}"


def count_text_tokens(text: str, model: str | None = None) -> tuple[int, str]:
    """``(tokens, method)`` of ``text`` for ``model`` (exact where available, else the estimate)."""
    found = encoding_for(model)
    if found is None:
        return estimate_text_tokens(text), ESTIMATE_METHOD
    return len(found[1].encode(text, disallowed_special=())), f"exact: {found[0]}"


ESTIMATE_METHOD = "estimate: ceil(characters/4) per message + 4 per message + 3 (syntagm.tokens)"


def estimate_text_tokens(text: str) -> int:
    """Tokens in ``text`` (an estimate: ``ceil(len(text) / 4)``; 0 for empty text)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


def estimate_prompt_tokens(messages: Iterable[Mapping[str, str]]) -> int:
    """Prompt tokens of a chat request: the sum over messages of content tokens plus framing."""
    total = REPLY_PRIMING_TOKENS
    for m in messages:
        total += MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(str(m.get("content") or ""))
    return total
