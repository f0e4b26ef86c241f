"""The strategy and ablation flags shared by ``syntagm solve`` and ``syntagm bench`` (one definition, so
the two commands cannot drift; each value becomes part of a run's settings)."""
from __future__ import annotations

import argparse
from typing import Callable


def add_strategy_flags(run: argparse._ActionsContainer, positive_float: Callable[[str], float],
                       nonneg_int: Callable[[str], int]) -> None:
    """Add ``--no-judge``, ``--no-fixits``, ``--diagnostics``, ``--semantic-checks``, ``--ucb-c``, ``--memory-size``,
    ``--stage-retries`` and ``--embedding-model`` to ``run`` (defaults None: the strategy's own)."""
    run.add_argument("--no-judge", action="store_const", const=False, dest="use_judge", default=None,
                     help="ablation: no LLM alignment judge (a solved model ends the run)")
    run.add_argument("--no-fixits", action="store_const", const=False, dest="use_fixits", default=None,
                     help="ablation: do not apply the compiler's machine-applicable fix-its")
    run.add_argument("--diagnostics", choices=("full", "first", "line", "masked"), default=None,
                     help="ablation: what a syntax repair sees of the compiler's report: every diagnostic (full, "
                     "the default), the first error, line numbers only, or only that it does not compile (masked)")
    run.add_argument("--semantic-checks", choices=("feed", "off"), dest="semantic_checks", default=None,
                     help="the LLM-free semantic checks of a solved model (numbers, data use, sense, re-solves): "
                     "feed their findings into an alignment repair (syntagm's default), or off (the other "
                     "strategies' default)")
    run.add_argument("--ucb-c", type=positive_float, dest="ucb_c", default=None,
                     help="refine_tree: exploration constant of its UCB rule (default 1.0)")
    run.add_argument("--memory-size", type=nonneg_int, dest="memory_size", default=None,
                     help="reflexion: earlier reflections kept in its memory (default 3)")
    run.add_argument("--stage-retries", type=nonneg_int, dest="stage_retries", default=None,
                     help="staged: times a stage whose check fails is redone (default 1)")
    run.add_argument("--embedding-model", dest="embedding_model", default=None,
                     help="--retriever embeddings: the sentence-transformers model, a local folder or a name in "
                     "the Hugging Face cache (loaded offline; default sentence-transformers/all-MiniLM-L6-v2)")
