"""The MCP server end to end: the official SDK's client spawns `python -m pyopl mcp` over stdio."""
from __future__ import annotations

import asyncio
import json
import sys

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

# max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 3: optimum x=3, y=1, objective 11 (by hand)
MODEL = """dvar float+ x;
dvar float+ y;
float cap = ...;
maximize 3*x + 2*y;
subject to {
  c1: x + y <= cap;
  c2: x + 3*y <= 6;
  c3: x <= 3;
}
"""
DATA = "cap = 4;"
BAD = "dvar float+ x;\nmaximize x + yy;\nsubject to { x <= 1; }\n"


def _payload(result) -> dict:
    assert not getattr(result, "is_error", getattr(result, "isError", False)), result
    return json.loads(result.content[0].text)


async def _session_run(body):
    params = StdioServerParameters(command=sys.executable, args=["-m", "pyopl", "mcp"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


def test_mcp_tools_over_stdio():
    async def body(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        solved = _payload(await session.call_tool("solve", {"model": MODEL, "data": DATA, "time_limit": 10}))
        checked = _payload(await session.call_tool("check", {"model": BAD}))
        explained = _payload(await session.call_tool("explain", {"code": checked["diagnostics"][0]["code"]}))
        codes = _payload(await session.call_tool("list_codes", {}))
        # a one-line "model" naming a file must be read as text, never opened
        path_like = _payload(await session.call_tool("check", {"model": "examples/transport.mod"}))
        return tools, solved, checked, explained, codes, path_like

    tools, solved, checked, explained, codes, path_like = asyncio.run(_session_run(body))
    assert {"check", "solve", "explain", "list_codes", "grammar", "export"} <= tools
    assert solved["status"] == "optimal"
    assert solved["objective"] == pytest.approx(11.0)
    assert solved["variables"]["x"] == pytest.approx(3.0) and solved["variables"]["y"] == pytest.approx(1.0)
    assert checked["ok"] is False and checked["errors"] == 1
    d = checked["diagnostics"][0]
    assert (d["code"], d["line"], d["column"]) == ("OPL0101", 2, 14)
    assert "`yy`" in d["message"]
    assert explained["found"] and explained["code"] == "OPL0101" and explained["slug"] == "undeclared-name"
    assert any(c["code"] == "OPL0101" for c in codes["codes"])
    assert path_like["ok"] is False and path_like["diagnostics"][0]["code"].startswith("OPL00")


def test_export_and_limits_in_process(tmp_path, monkeypatch):
    from pyopl.mcp import work

    monkeypatch.chdir(tmp_path)  # export writes its file in the worker's (here: this) folder
    out = work.export(MODEL, DATA, "lp")
    assert out["status"] == "ok"
    text = out["text"].lower()
    assert "max" in text and "3 x" in text.replace("3.0", "3") and "c1" in text
    refused = work.too_large(model="x" * (work.MAX_TEXT_CHARS + 1), data=None)
    assert refused["status"] == "too_large"
    assert work.as_text("examples/transport.mod") == "examples/transport.mod\n"
    # an `include` in data text finds nothing outside the worker's empty folder
    (tmp_path / "secret.dat").write_text("cap = 99;\n")
    sub = tmp_path / "empty"
    sub.mkdir()
    monkeypatch.chdir(sub)
    checked = work.check(MODEL, 'include "../secret.dat";\n')
    assert [d["code"] for d in checked["diagnostics"]] == ["OPL0417"]  # points outside the folder
    assert work.check(MODEL, 'include "secret.dat";\n')["diagnostics"][0]["message"] == \
        'the included file `secret.dat` does not exist'


def test_worker_past_its_wall_clock_is_killed_and_says_so():
    from pyopl.mcp import work

    # a fresh Python process cannot import pyopl and answer within 10 ms: the limit fires
    out = work.run_bounded("check", (MODEL, DATA), wall_s=0.01)
    assert out["status"] == "time_limit" and "0 s" in out["message"]


def test_a_time_limit_that_is_not_a_number_is_an_answer_not_a_traceback():
    # issue 42 (minor): `time_limit: "NaN"` passed every clamp and the tool raised (the SDK logged a
    # traceback: UnexpectedToolError); now it answers an error naming the argument
    from pyopl.mcp.server import build_server

    server = build_server()
    for limit in ("NaN", float("nan")):
        got = asyncio.run(server.call_tool("solve", {"model": MODEL, "data": DATA, "time_limit": limit}))
        payload = json.loads(got.content[0].text)
        assert payload["status"] == "error" and "`time_limit` must be a number" in payload["message"]
    got = asyncio.run(server.call_tool("solve", {"model": MODEL, "data": DATA, "time_limit": "Infinity"}))
    assert json.loads(got.content[0].text)["status"] == "optimal"  # infinity: the longest limit allowed


def test_argument_numbers_are_checked():
    from pyopl.mcp.work import MAX_TIME_LIMIT_S, argument_number

    assert argument_number("NaN", "t", 0.1, 300)[0] is None and argument_number(True, "t", 0, 1)[0] is None
    assert argument_number([1], "t", 0, 1)[1].startswith("`t` must be a number")
    assert argument_number("inf", "t", 0.1, MAX_TIME_LIMIT_S) == (MAX_TIME_LIMIT_S, None)
    assert argument_number(-5, "n", 0, 100, integer=True) == (0, None)
