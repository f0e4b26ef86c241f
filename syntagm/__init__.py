"""syntagm: turn a natural-language optimisation problem into a solved PyOPL model with an LLM.

The pieces, each in its own module:

- :mod:`syntagm.llm` – one client for any OpenAI-compatible endpoint, with
  retries, timeouts, telemetry (tokens, seconds, dollars) and JSONL
  record/replay of every exchange.
- :mod:`syntagm.templates` – the versioned prompt templates in ``syntagm/prompts/``.
- :mod:`syntagm.assess` – what is learnt about a reply without an LLM: the adapter over :mod:`pyopl`
  (check, fix-its, solve) in a worker process under limits, and the semantic checks.
- :mod:`syntagm.loop` – generate → compile → solve → judge → revise.
- :mod:`syntagm.rag` – retrieval of exemplars from ``knowledge_base/``.
- :mod:`syntagm.strategies` – ``standard``, ``cot``, ``tot``, ``reflexion``,
  ``chain_of_experts``, ``syntagm`` and ``staged``.
- :mod:`syntagm.bench` – datasets, the worker pool, resumable results, scoring, reports.
- :mod:`syntagm.equiv` – is one model equivalent to another; :mod:`syntagm.decoding` – the reply's
  grammar for constrained decoding.
- :mod:`syntagm.cli` – ``syntagm solve PROBLEM.txt``, ``syntagm bench``; :mod:`syntagm.commands` –
  ``syntagm compare``, ``prompt-size`` and ``mcp``.

``syntagm`` depends on ``pyopl``; ``pyopl`` never imports ``syntagm``.
"""

__version__ = "0.1.0"
