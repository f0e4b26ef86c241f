"""The strategy interface: one problem in, one :class:`~syntagm.loop.LoopResult` out."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..llm.client import ChatClient
from ..loop import LoopResult, Progress


@dataclass
class StrategyContext:
    """What every strategy may use: the LLM client, a retriever (or ``None``), a progress
    callback, and overrides (``max_iterations``, ``time_limit_s``, ``exemplars``, ``grammar_mode``)."""

    llm: ChatClient
    retriever: Any = None
    progress: Progress | None = None
    overrides: dict[str, Any] = field(default_factory=dict)


class Strategy(Protocol):
    """A named way of turning a problem into a model. ``solve`` never raises for LLM or model failures."""

    name: str
    description: str

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult: ...
