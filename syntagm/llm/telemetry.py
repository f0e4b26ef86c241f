"""Telemetry records: one per LLM call, with run totals.

Units: tokens are counts, ``latency_s`` is wall-clock seconds from the first
HTTP request to the parsed reply (retries and backoff included), ``cost_usd``
is dollars from the price table (``None`` when the model is unpriced).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CallTelemetry:
    """One LLM call.

    ``purpose`` names the step (``generate``, ``syntax_repair``, ``alignment_repair``,
    ``judge``...); ``iteration`` is the loop iteration (1-based) it belongs to;
    ``prompt_tokens`` includes ``cached_tokens``; ``usage_estimated`` is true when
    the endpoint sent no ``usage`` and the counts come from :mod:`syntagm.tokens`, and
    ``usage_source`` says how they were counted (``endpoint``, ``exact: o200k_base``, or the
    estimate's description);
    ``retries`` counts HTTP requests beyond the first; ``error`` is set (and the
    token counts are 0) when the call failed after every retry; ``cache_hit`` is true when
    the reply came from the request cache (``--cache``): its tokens are those of the cached
    reply and it costs 0 dollars and 0 seconds.
    """

    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0
    usage_estimated: bool = False
    latency_s: float = 0.0
    retries: int = 0
    cost_usd: float | None = None
    prompt_version: str = ""
    iteration: int = 0
    error: str | None = None
    cache_hit: bool = False
    usage_source: str = "endpoint"

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["total_tokens"] = self.total_tokens
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "CallTelemetry":
        names = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass
class RunTelemetry:
    """Every call of a run, with totals computed from them (never kept separately)."""

    calls: list[CallTelemetry] = field(default_factory=list)

    def add(self, call: CallTelemetry) -> None:
        self.calls.append(call)

    def totals(self) -> dict[str, Any]:
        """Sums over the calls: tokens, seconds, retries, dollars (``None`` if any call is unpriced)."""
        costs = [c.cost_usd for c in self.calls]
        return {
            "llm_calls": len(self.calls),
            "prompt_tokens": sum(c.prompt_tokens for c in self.calls),
            "completion_tokens": sum(c.completion_tokens for c in self.calls),
            "cached_tokens": sum(c.cached_tokens for c in self.calls),
            "total_tokens": sum(c.total_tokens for c in self.calls),
            "latency_s": round(sum(c.latency_s for c in self.calls), 6),
            "retries": sum(c.retries for c in self.calls),
            "cost_usd": (round(sum(costs), 8) if costs and all(c is not None for c in costs)
                         else (0.0 if not costs else None)),
            "usage_estimated": any(c.usage_estimated for c in self.calls),
            "cache_hits": sum(1 for c in self.calls if c.cache_hit),
        }

    def by_iteration(self) -> list[dict[str, Any]]:
        """Per-iteration sums: ``[{"iteration", "llm_calls", "prompt_tokens", ...}]`` in order."""
        out: dict[int, RunTelemetry] = {}
        for c in self.calls:
            out.setdefault(c.iteration, RunTelemetry()).add(c)
        return [{"iteration": i, **t.totals()} for i, t in sorted(out.items())]
