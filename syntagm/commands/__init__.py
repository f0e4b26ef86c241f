"""The sub-commands beside ``syntagm solve`` and ``syntagm bench`` (which live in ``cli.py`` and
``bench/``): ``syntagm compare`` (the equivalence verdict on two models), ``syntagm prompt-size``
(token counts of the first generation prompt over a benchmark's problems) and ``syntagm mcp`` (the
MCP server with the ``compare`` tool).

May import: :mod:`syntagm.bench` and every row below it (docs/architecture.md, "layers syntagm").
"""
