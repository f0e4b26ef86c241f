"""The client's side of grammar-constrained decoding: ask the endpoint what it is, once.

:class:`Constrainer` holds the run's :class:`~syntagm.decoding.endpoints.DecodingPlan` (found
on the first call that needs it: ``GET <base>/models``, and for vLLM ``GET <root>/version``;
each probe one request, no retries, at most 10 s) and gives each model-contract request its
extra body. A request for another contract (judge, reviewer, staged steps) carries no grammar.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from ..decoding.endpoints import DecodingPlan, names_field, plan_for, request_fields

PROBE_TIMEOUT_S = 10.0


def template_name(prompt_version: str) -> str:
    """``"generate"`` for the template id ``"generate.v1"``."""
    return prompt_version.rsplit(".v", 1)[0]


class Constrainer:
    """``mode``: ``auto``/``off``/``llama.cpp``/``vllm``; ``probe``: ``() -> (owners, version)``
    (owners ``None`` when ``/models`` failed); ``say``: one progress line."""

    def __init__(self, mode: str, probe: Callable[[], tuple[list[str] | None, str | None]],
                 say: Callable[[str], None]):
        self.mode = mode
        self._probe = probe
        self._say = say
        self._plan: DecodingPlan | None = None if mode == "auto" else plan_for(mode)
        self._lock = threading.Lock()

    @property
    def plan(self) -> DecodingPlan:
        """The run's plan, probing the endpoint the first time it is asked for."""
        with self._lock:
            if self._plan is None:
                owners, version = self._probe()
                self._plan = plan_for(self.mode, owners, version)
                self._say(f"constrained decoding: {self._plan.reason}")
            return self._plan

    def extra_body(self, prompt_version: str) -> dict[str, Any]:
        """The grammar field for a request made from template ``prompt_version`` (``{}``: none)."""
        from ..decoding.contract import MODEL_CONTRACT_TEMPLATES, contract_grammar  # loads Lark: when needed

        if self.mode == "off" or template_name(prompt_version) not in MODEL_CONTRACT_TEMPLATES:
            return {}
        return request_fields(self.plan, contract_grammar())

    def refused(self, message: str) -> bool:
        """After an HTTP 400: if it is about the grammar, stop sending it (``True``: ask again)."""
        plan = self._plan
        if plan is None or plan.field is None or not names_field(message, plan):
            return False
        with self._lock:
            self._plan = DecodingPlan(None, None, f"the endpoint refused the grammar ({plan.field})")
        self._say(f"the endpoint refuses the grammar field {plan.field}; asking without it from now on")
        return True


def probe_openai(client, base_url: str | None) -> tuple[list[str] | None, str | None]:
    """``(owned_by of each listed model, vLLM version)`` from an ``openai.OpenAI`` client; each
    part ``None`` when its request fails (any error: the probe never ends a run)."""
    quick = client.with_options(timeout=PROBE_TIMEOUT_S, max_retries=0)
    try:
        owners = [str(getattr(m, "owned_by", "") or "") for m in quick.models.list().data]
    except Exception:  # noqa: BLE001 - an endpoint without /models simply gets no grammar
        return None, None
    version = None
    if "vllm" in {o.lower() for o in owners} and base_url:
        root = base_url.rstrip("/")
        root = root[: -len("/v1")] if root.endswith("/v1") else root
        try:
            answer = quick.get(root + "/version", cast_to=dict)  # an absolute URL: the server's root
            version = str(answer.get("version")) if isinstance(answer, dict) else None
        except Exception:  # noqa: BLE001 - unknown version: the current field
            version = None
    return owners, version
