"""Which endpoint takes a grammar, and under which request field.

``--constrained-decoding`` (config key ``constrained_decoding``):

- ``off``: never send a grammar.
- ``llama.cpp``: send it as ``grammar`` (llama.cpp's ``llama-server`` reads a GBNF grammar from
  that field of ``/v1/chat/completions``, as of ``/completion``).
- ``vllm``: send it as ``structured_outputs: {"grammar": ...}`` (vLLM 0.12 and later, where the
  ``guided_*`` fields were removed); under ``auto``, a vLLM server that reports an earlier
  version at ``/version`` gets ``guided_grammar`` instead.
- ``auto`` (default): ask the endpoint once per run. ``GET <base>/models`` names the server in
  each model's ``owned_by``: ``"llamacpp"`` for llama-server, ``"vllm"`` for vLLM; anything else
  (OpenAI, Ollama, a proxy, a failed request) gets no grammar. For vLLM, ``GET <root>/version``
  (the base URL without ``/v1``) gives the version that picks the field.

An endpoint that still refuses the field (HTTP 400 naming it) gets no grammar for the rest of
the run (:mod:`syntagm.llm.client`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

MODES = ("auto", "off", "llama.cpp", "vllm")

#: vLLM from this version on takes ``structured_outputs`` (``guided_grammar`` before it).
VLLM_STRUCTURED_OUTPUTS = (0, 12)


@dataclass(frozen=True)
class DecodingPlan:
    """``server``: ``"llama.cpp"``, ``"vllm"`` or ``None``; ``field``: the request field that
    carries the grammar (``"grammar"``, ``"structured_outputs"``, ``"guided_grammar"``) or
    ``None`` for no grammar; ``reason``: how it was decided, for the progress line."""

    server: str | None
    field: str | None
    reason: str


def _version(text: str | None) -> tuple[int, int] | None:
    m = re.match(r"\s*v?(\d+)\.(\d+)", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def vllm_plan(version: str | None, reason: str) -> DecodingPlan:
    """The plan for a vLLM server of ``version`` (``None``: unknown, taken as current)."""
    v = _version(version)
    if v is not None and v < VLLM_STRUCTURED_OUTPUTS:
        return DecodingPlan("vllm", "guided_grammar", f"{reason}; vLLM {version}: guided_grammar")
    return DecodingPlan("vllm", "structured_outputs", f"{reason}; structured_outputs.grammar")


def plan_for(mode: str, owners: list[str] | None = None, version: str | None = None) -> DecodingPlan:
    """The plan for ``mode`` (one of :data:`MODES`); for ``auto``, from the ``owned_by`` values
    of ``GET /models`` (``None``: the request failed) and vLLM's ``/version`` answer.

    Raises :class:`ValueError` for an unknown mode."""
    if mode not in MODES:
        raise ValueError(f"constrained decoding must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "off":
        return DecodingPlan(None, None, "constrained decoding is off")
    if mode == "llama.cpp":
        return DecodingPlan("llama.cpp", "grammar", "--constrained-decoding llama.cpp")
    if mode == "vllm":
        return vllm_plan(version, "--constrained-decoding vllm")
    if owners is None:
        return DecodingPlan(None, None, "the endpoint did not list its models; no grammar sent")
    named = {str(o).lower() for o in owners}
    if "llamacpp" in named:
        return DecodingPlan("llama.cpp", "grammar", "the endpoint is llama.cpp (models owned_by llamacpp)")
    if "vllm" in named:
        return vllm_plan(version, "the endpoint is vLLM (models owned_by vllm)")
    shown = ", ".join(sorted(named)) or "none"
    return DecodingPlan(None, None, f"the endpoint takes no grammar that syntagm knows of (owned_by: {shown})")


def request_fields(plan: DecodingPlan, grammar: str) -> dict[str, Any]:
    """The extra request body that carries ``grammar`` under ``plan`` (``{}`` for none)."""
    if plan.field is None:
        return {}
    if plan.field == "structured_outputs":
        return {"structured_outputs": {"grammar": grammar}}
    return {plan.field: grammar}


def names_field(message: str, plan: DecodingPlan) -> bool:
    """Whether an endpoint's error ``message`` is about the grammar field (or a grammar at all)."""
    text = message.lower()
    return bool(plan.field) and (plan.field in text or "grammar" in text)
