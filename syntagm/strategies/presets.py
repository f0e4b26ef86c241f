"""Strategies that are presets of the loop's options.

- ``standard``: one generation, fix-its, solve; no revision, no judge (the single-shot baseline).
- ``cot``: ``standard`` with a chain-of-thought prompt (reasoning first, then the model).
- ``reflexion``: revise on compiler and solver feedback with a self-reflection prompt that also shows
  the earlier reflections (a memory of at most ``memory_size``, default 3, as Reflexion keeps,
  Shinn et al., 2023); no fix-its, no judge.
- ``syntagm``: the full loop: fix-its, targeted syntax repair, solver feedback, the LLM-free semantic
  checks of :mod:`syntagm.assess.semantic` (their findings sent back like diagnostics), alignment judge.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..loop import LoopOptions, LoopResult, run_loop
from .base import StrategyContext

#: Overrides the user may give to any preset (others are fixed by the strategy).
USER_OVERRIDES = ("max_iterations", "time_limit_s", "exemplars", "grammar_mode", "solver", "compile_timeout_s",
                  "use_judge", "use_fixits", "diagnostics", "memory_size", "semantic_checks")
#: The ablations (``--no-judge``, ``--no-fixits``, ``--diagnostics``): settings of a run, ``None`` when not given.
ABLATIONS = ("use_judge", "use_fixits", "diagnostics")


def options_for(base: LoopOptions, overrides: dict[str, Any], fixed_budget: bool = False) -> LoopOptions:
    """``base`` with the user's overrides (those in :data:`USER_OVERRIDES` that are not ``None``);
    ``fixed_budget`` ignores ``max_iterations``."""
    given = {k: v for k, v in overrides.items() if k in USER_OVERRIDES and v is not None}
    if fixed_budget:
        given.pop("max_iterations", None)
    return replace(base, **given)


@dataclass
class PresetStrategy:
    """A strategy defined by :class:`LoopOptions`; ``fixed_budget`` keeps ``max_iterations`` at 1."""

    name: str
    description: str
    options: LoopOptions
    fixed_budget: bool = False

    def options_for(self, overrides: dict[str, Any]) -> LoopOptions:
        return options_for(self.options, overrides, fixed_budget=self.fixed_budget)

    def solve(self, problem: str, ctx: StrategyContext) -> LoopResult:
        return run_loop(problem, ctx.llm, self.options_for(ctx.overrides), ctx.retriever, ctx.progress)


STANDARD = PresetStrategy("standard", "single shot: generate once, apply fix-its, solve",
                          LoopOptions(max_iterations=1, use_judge=False), fixed_budget=True)
COT = PresetStrategy("cot", "single shot with chain-of-thought reasoning before the model",
                     LoopOptions(max_iterations=1, use_judge=False, generate_prompt="cot"), fixed_budget=True)
REFLEXION = PresetStrategy("reflexion", "revise on compiler/solver feedback after a self-reflection; no judge",
                           LoopOptions(use_fixits=False, use_judge=False, repair_style="reflect"))
SYNTAGM = PresetStrategy("syntagm", "the full loop: fix-its, diagnostics-driven repair, solver feedback, LLM-free "
                         "semantic checks, LLM judge", LoopOptions(semantic_checks="feed"))
