"""``syntagm mcp``: a Model Context Protocol server over stdio with syntagm's tools.

pyopl's own server (``pyopl mcp``) cannot carry them: pyopl never imports syntagm.  Tools:
``compare`` (two models with their data, as TEXT: the equivalence verdict of
:mod:`syntagm.equiv.compare`, computed in a bounded worker process).  No tool takes a file path.
"""
from __future__ import annotations

import asyncio
from typing import Any, Optional

INSTRUCTIONS = ("syntagm compares OPL models: call `compare` with two models (and their .dat data) as text to "
                "learn whether they are equivalent, with the evidence (verdict equivalent, "
                "equivalent_by_solutions, different or unknown).")
#: the most characters of each model or data text a tool takes
MAX_TEXT = 1_000_000


def build_server() -> Any:
    """The MCP server with syntagm's tools registered (not yet running)."""
    from pyopl.mcp.server import _server_class

    server = _server_class()(name="syntagm", instructions=INSTRUCTIONS)

    @server.tool()
    async def compare(model_a: str, model_b: str, data_a: Optional[str] = None, data_b: Optional[str] = None,
                      tolerance: float = 1e-6, time_limit: float = 30.0) -> dict[str, Any]:
        """Are two OPL models (text, with optional .dat text) equivalent? Returns {"verdict"
        (equivalent | equivalent_by_solutions | different | unknown), "method" (structure,
        feasible_sets, objective, solutions, compile, none), "reason", "evidence" (normalisation
        steps, column map, witness point), "generated" and "reference" ({status, objective} of A and B)}."""
        texts = (model_a, model_b, data_a or "", data_b or "")
        if any(len(t) > MAX_TEXT for t in texts):
            return {"verdict": "unknown", "reason": f"a text is longer than {MAX_TEXT} characters"}
        from pyopl.mcp.work import argument_number

        from ..bench.equivalence import compare_models

        # NaN was taken as it came: "compiling took longer than nan s", and a NaN tolerance made every
        # objective differ; each is now a clear answer, as `pyopl mcp` gives for its numbers
        limit, why = argument_number(time_limit, "time_limit", 0.1, 300.0)
        tol, why_tol = argument_number(tolerance, "tolerance", 0.0, 1.0)
        if why or why_tol:
            return {"verdict": "unknown", "equivalent": None, "reason": why or why_tol}
        return await asyncio.to_thread(compare_models, model_a, data_a or "", model_b, data_b or "", tol, limit)

    return server


def main() -> int:
    """Serve on stdin/stdout until the client disconnects."""
    build_server().run(transport="stdio")
    return 0
