"""The Model Context Protocol server (``pyopl mcp``; needs the ``mcp`` extra): pyopl's check,
solve, export and explain as tools for LLM agents, on text only (:mod:`.server`, :mod:`.work`)."""
