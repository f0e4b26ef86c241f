"""``pyopl mcp``: a Model Context Protocol server over stdio (the official ``mcp`` SDK).

Tools: ``check``, ``solve``, ``export`` (each on model and data TEXT, in a bounded worker
process, :mod:`pyopl.mcp.work`), ``explain``, ``list_codes`` and ``grammar``.  No tool takes
a file path.
"""
from __future__ import annotations

import asyncio
from typing import Any, Optional

from . import work

INSTRUCTIONS = ("pyopl compiles OPL models (IBM ILOG OPL's modelling language) and solves them with HiGHS. "
                "Pass the model (.mod text) and data (.dat text) as text. Call `check` for diagnostics, `solve` "
                "for status, objective and values, `explain` for a diagnostic code, `grammar` for the language "
                "reference.")


def _server_class() -> Any:
    try:  # mcp >= 2
        from mcp.server.mcpserver import MCPServer

        return MCPServer
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP

        return FastMCP


def build_server() -> Any:
    """The MCP server with pyopl's tools registered (not yet running)."""
    server = _server_class()(name="pyopl", instructions=INSTRUCTIONS)

    @server.tool()
    async def check(model: str, data: Optional[str] = None) -> dict[str, Any]:
        """Check an OPL model (and optional .dat data), both given as text. Returns
        {"ok", "errors", "warnings", "diagnostics": [{code, severity, message, line, column, end_line,
        end_column, labels, notes, help, fix, rendered}]}; `file` is "<model>" or "<data>"."""
        refused = work.too_large(model=model, data=data)
        if refused:
            return refused
        return await asyncio.to_thread(work.run_bounded, "check", (model, data), work.COMPILE_MARGIN_S)

    @server.tool()
    async def solve(model: str, data: Optional[str] = None, time_limit: float = work.DEFAULT_TIME_LIMIT_S,
                    max_values: int = 1000) -> dict[str, Any]:
        """Compile and solve an OPL model (text) with optional .dat data (text) using HiGHS.
        `time_limit`: solver seconds (at most 300). `max_values`: most solution entries returned.
        Returns {"status" (optimal, feasible, infeasible, unbounded, time_limit, compile_error, ...),
        "objective", "variables": {name: number or [{"index": [...], "value": x}]}, "dexprs", "size",
        "values_truncated", "script_output", "diagnostics" (compile errors, warnings, and the errors of a
        post-processing block or `main` that failed: the run then failed, whatever the solve said), "errors"
        (how many of the diagnostics are errors)}. Scripts write no file here (the model is text)."""
        refused = work.too_large(model=model, data=data)
        if refused:
            return refused
        limit, problem = work.argument_number(time_limit, "time_limit", 0.1, work.MAX_TIME_LIMIT_S)
        count, problem2 = work.argument_number(max_values, "max_values", 0, 100_000, integer=True)
        if problem or problem2:  # a number the tool cannot use: an answer, never a traceback
            return {"status": "error", "message": problem or problem2}
        args = (model, data, limit, count)
        return await asyncio.to_thread(work.run_bounded, "solve", args, limit + work.COMPILE_MARGIN_S)

    @server.tool()
    async def export(model: str, data: Optional[str] = None, format: str = "lp") -> dict[str, Any]:
        """The compiled model as LP (`format="lp"`) or MPS (`"mps"`) text."""
        fmt = format.lower()
        if fmt not in ("lp", "mps"):
            return {"status": "error", "message": "format is `lp` or `mps`, not `%s`" % format}
        refused = work.too_large(model=model, data=data)
        if refused:
            return refused
        return await asyncio.to_thread(work.run_bounded, "export", (model, data, fmt), work.COMPILE_MARGIN_S)

    @server.tool()
    def explain(code: str) -> dict[str, Any]:
        """Explain a diagnostic code (such as OPL0101, or its slug): title, explanation, examples."""
        from ..diagnostics.registry import explain as explain_text, lookup

        kind = lookup(code)
        if kind is None:
            return {"found": False, "message": "unknown code `%s`; `list_codes` lists them" % code}
        return {"found": True, "code": kind.code, "slug": kind.slug, "severity": kind.severity, "title": kind.title,
                "explanation": kind.explanation, "bad_example": kind.bad, "good_example": kind.good,
                "text": explain_text(kind)}

    @server.tool()
    def list_codes() -> dict[str, Any]:
        """Every diagnostic code with its slug, severity and title."""
        from ..diagnostics.registry import all_kinds

        return {"codes": [{"code": k.code, "slug": k.slug, "severity": k.severity, "title": k.title}
                          for k in all_kinds()]}

    @server.tool()
    def grammar() -> str:
        """The compact reference of the OPL subset pyopl accepts (Markdown)."""
        from importlib.resources import files

        return files("pyopl.grammar").joinpath("PyOPL.md").read_text(encoding="utf-8")

    return server


def main() -> int:
    """Serve on stdin/stdout until the client disconnects."""
    build_server().run(transport="stdio")
    return 0
