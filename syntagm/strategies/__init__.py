"""Strategies: one interface (:class:`Strategy`), looked up by name with :func:`get_strategy`."""
from __future__ import annotations

from ..errors import ConfigError
from .base import STRATEGY_SETTINGS, Strategy, StrategyContext
from .coe_published import CHAIN_OF_EXPERTS_LLM
from .experts import CHAIN_OF_EXPERTS
from .presets import COT, REFLEXION, STANDARD, SYNTAGM, PresetStrategy
from .refine_tree import REFINE_TREE
from .staged import STAGED
from .tot import TOT

STRATEGIES: dict[str, Strategy] = {s.name: s for s in (STANDARD, COT, TOT, REFLEXION, CHAIN_OF_EXPERTS,
                                                       CHAIN_OF_EXPERTS_LLM, SYNTAGM, STAGED, REFINE_TREE)}


def get_strategy(name: str) -> Strategy:
    """The strategy called ``name``; :class:`ConfigError` listing the known ones otherwise."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ConfigError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})") from None


__all__ = ["STRATEGY_SETTINGS", "Strategy", "StrategyContext", "PresetStrategy", "STRATEGIES", "get_strategy"]
