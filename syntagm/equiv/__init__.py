"""Is one OPL model equivalent to another?  Normalise both compiled problems, match their
structure, and fall back to solution evidence only where structure cannot settle it.

:func:`.compare.compare_models` is the entry point (``syntagm compare``, the MCP tool
``compare`` and ``syntagm bench`` scoring all call it); docs/syntagm.md describes the verdicts.
"""
