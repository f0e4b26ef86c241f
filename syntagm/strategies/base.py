"""The strategy interface: one problem in, one :class:`~syntagm.loop.LoopResult` out."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..llm.client import ChatClient
from ..loop import LoopResult, Progress


#: Optional settings of a run (CLI flags of ``solve`` and ``bench``; ``None`` when not given): the
#: ablations of the loop, and the strategies' own knobs. Each is part of a bench run's identity.
STRATEGY_SETTINGS = ("use_judge", "use_fixits", "diagnostics", "ucb_c", "memory_size", "stage_retries",
                     "embedding_model", "semantic_checks")


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
