"""Test helpers for syntagm: a scripted OpenAI-compatible server, canned models, a scripted compiler.

The server is stdlib only (http.server in a thread on 127.0.0.1, port chosen by
the OS). It answers ``POST /v1/chat/completions`` from a queue of scripted
items, so the real ``openai`` client code path runs; each item is a reply
(content and ``usage``), an HTTP error (429/500/400/401) or a delay (to make
the client time out). Requests are kept for assertions.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# -- the scripted server -----------------------------------------------------------------------


@dataclass
class Item:
    content: str | None = None
    status: int = 200
    usage: dict[str, Any] | None = None
    delay_s: float = 0.0
    error_message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent as is (status 200), e.g. invalid UTF-8
    content_type: str = "application/json"
    finish_reason: str = "stop"
    error_param: str | None = None  # the error body's "param" (OpenAI names the rejected parameter there)
    reject: tuple = ()  # answer 400 naming the first of these parameters the request holds, else reply
    content_from: Any = None  # a function of the request's headers (a dict) giving the content: an echoing endpoint


def usage(prompt: int = 100, completion: int = 50, cached: int = 0) -> dict[str, Any]:
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached}}


class ScriptedServer:
    """``push_reply``/``push_error``/``push_delay`` script the answers; ``url`` is the base URL (…/v1)."""

    def __init__(self):
        self.queue: deque[Item] = deque()
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.router = None  # set by route_by_marker: replies chosen by the request, not by arrival order
        self.owned_by: str | None = None  # GET /v1/models names this owner ("llamacpp", "vllm"); None: 404
        self.version: str | None = None  # GET /version answers {"version": ...}; None: 404
        self.gets: list[str] = []  # the paths of GET requests (kept apart from the chat requests)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # keep test output quiet
                pass

            def do_GET(self):
                with server.lock:
                    server.gets.append(self.path)
                if self.path.rstrip("/").endswith("/models") and server.owned_by is not None:
                    return self._send(200, {"object": "list", "data": [
                        {"id": "scripted", "object": "model", "created": 0, "owned_by": server.owned_by}]})
                if self.path.rstrip("/") == "/version" and server.version is not None:
                    return self._send(200, {"version": server.version})
                return self._send(404, {"error": {"message": "not found", "type": "not_found"}})

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with server.lock:
                    server.requests.append({"path": self.path, "body": body,
                                            "authorization": self.headers.get("authorization"),
                                            "headers": dict(self.headers)})
                    if server.router is not None:
                        item = server.router(body)
                    else:
                        item = server.queue.popleft() if server.queue else None
                if item is None:
                    return self._send(500, {"error": {"message": "the test script has no more replies",
                                                      "type": "server_error"}})
                if item.delay_s:
                    time.sleep(item.delay_s)
                if item.raw_body is not None:
                    return self._send_raw(200, item.raw_body, content_type=item.content_type)
                named = next((p for p in item.reject if p in body), None)
                if named is not None:  # an endpoint that refuses a parameter, every time it is sent
                    with server.lock:
                        server.queue.appendleft(item)
                    return self._send(400, {"error": {"message": f"Unsupported parameter: '{named}' is not "
                                                      "supported with this model.", "type": "invalid_request_error",
                                                      "param": named, "code": "unsupported_parameter"}})
                if item.status != 200:
                    return self._send(item.status, {"error": {"message": item.error_message, "type": "scripted",
                                                              "param": item.error_param}},
                                      item.headers)
                content = item.content if item.content_from is None else item.content_from(dict(self.headers))
                payload = {"id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion", "created": 0,
                           "model": body.get("model", "scripted"),
                           "choices": [{"index": 0, "finish_reason": item.finish_reason,
                                        "message": {"role": "assistant", "content": content}}]}
                if item.usage is not None:
                    payload["usage"] = item.usage
                self._send(200, payload, item.headers)

            def _send(self, status, obj, headers=None):
                self._send_raw(status, json.dumps(obj).encode("utf-8"), headers)

            def _send_raw(self, status, data, headers=None, content_type="application/json"):
                try:
                    self.send_response(status)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def push_reply(self, content: str, prompt: int = 100, completion: int = 50, cached: int = 0,
                   with_usage: bool = True) -> None:
        self.queue.append(Item(content, usage=usage(prompt, completion, cached) if with_usage else None))

    def push_error(self, status: int, message: str = "scripted error", headers: dict[str, str] | None = None) -> None:
        self.queue.append(Item(status=status, error_message=message, headers=headers or {}))

    def push_raw(self, body: bytes, content_type: str = "application/json") -> None:
        """A 200 answer whose body is ``body`` exactly (it may be invalid UTF-8 or not JSON)."""
        self.queue.append(Item(raw_body=body, content_type=content_type))

    def push_item(self, item: Item) -> None:
        """Any scripted item (e.g. ``Item(content, finish_reason="length")`` or ``Item(content, reject=(...))``)."""
        if item.usage is None and item.status == 200 and item.raw_body is None:
            item.usage = usage()
        self.queue.append(item)

    def push_delay(self, seconds: float, content: str = "{}") -> None:
        self.queue.append(Item(content, delay_s=seconds, usage=usage()))

    def route_by_marker(self, scripts: dict[str, list[str]], prompt: int = 100, completion: int = 50,
                        cached: int = 0, delay_s: float = 0.0) -> dict[str, list[str]]:
        """Answer each request from the script of the first marker (a key of ``scripts``) found in
        its first user message, in order, so concurrent problems get their own replies whatever
        the arrival order (each reply after ``delay_s`` seconds). A request with no marker, or whose
        script is spent, gets HTTP 500.
        Returns ``scripts`` (its lists are consumed as requests arrive)."""
        pending = {k: deque(v) for k, v in scripts.items()}

        def route(body: dict[str, Any]) -> Item | None:
            messages = body.get("messages") or []
            first_user = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
            for marker, replies in pending.items():
                if marker in first_user:
                    return Item(replies.popleft(), usage=usage(prompt, completion, cached),
                                delay_s=delay_s) if replies else None
            return None

        self.router = route
        return scripts

    def requests_for(self, marker: str) -> list[dict[str, Any]]:
        """The requests whose first user message names ``marker``."""
        out = []
        for r in self.requests:
            msgs = r["body"].get("messages") or []
            first_user = next((m.get("content") or "" for m in msgs if m.get("role") == "user"), "")
            if marker in first_user:
                out.append(r)
        return out

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# -- canned replies ----------------------------------------------------------------------------

def gen(model: str, data: str = "") -> str:
    """A generation reply honouring the contract."""
    return json.dumps({"model": model, "data": data})


def verdict(aligned: bool, *issues: str) -> str:
    return json.dumps({"aligned": aligned, "issues": [{"constraint": "objective", "problem": i, "fix": "use the text's numbers"}
                                                      for i in issues]})


PROBLEM = ("A workshop makes tables (profit 3 each) and chairs (profit 2 each). At most 4 items fit in the van "
           "(ctA), and tables take 1 hour while chairs take 3 hours out of 6 hours (ctB). Maximise profit.")

GOOD = ("dvar float+ x; dvar float+ y;\n"
        "maximize 3*x + 2*y;\n"
        "subject to { ctA: x + y <= 4; ctB: x + 3*y <= 6; }\n")
GOOD_DATA_MODEL = ("float cap = ...;\n"
                   "dvar float+ x; dvar float+ y;\n"
                   "maximize 3*x + 2*y;\n"
                   "subject to { ctA: x + y <= cap; ctB: x + 3*y <= 6; }\n")
GOOD_DATA = "cap = 4;\n"
WRONG = ("dvar float+ x; dvar float+ y;\n"
         "maximize 2*x + 2*y;\n"
         "subject to { ctA: x + y <= 4; ctB: x + 3*y <= 6; }\n")
INFEASIBLE = ("dvar float+ x; dvar float+ y;\n"
              "maximize 3*x + 2*y;\n"
              "subject to { ctA: x + y <= 4; ctB: x + 3*y <= 6; ctC: x + y >= 10; }\n")
BROKEN = ("dvar float+ x; dvar float+ y;\n"
          "maximize 3*x + 2*y;\n"
          "subject to { ctA: x + y <= 4; ctB: x * y <= 6; }\n")

# -- a scripted compiler (stands in for pyopl where a test is about the loop only) --------------


@dataclass(frozen=True)
class FSpan:
    file: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class FEdit:
    span: FSpan
    replacement: str


@dataclass(frozen=True)
class FFix:
    message: str
    edits: tuple
    applicability: str = "machine-applicable"


@dataclass(frozen=True)
class FDiag:
    code: str
    severity: str
    message: str
    span: FSpan
    labels: tuple = ()
    notes: tuple = ()
    help: str | None = None
    fix: FFix | None = None

    def __str__(self):
        return f"{self.span.file}:{self.span.line}:{self.span.column}: {self.severity}[{self.code}]: {self.message}"


FIXABLE = GOOD.replace("dvar float+ x;", "dvar float+ x", 1)  # the scripted compiler offers a fix-it here


class ScriptedCompiler:
    """Recognises the canned models above by text; anything else is an error without a fix."""

    def check(self, model: str, data: str, limits=None):
        from syntagm.assess.compiler import CheckReport

        if model == FIXABLE:
            span = FSpan("model.mod", 1, 14, 1, 14)
            return CheckReport([FDiag("OPL0101", "error", "expected `;` after the declaration", span,
                                      help="add `;`", fix=FFix("insert `;`", (FEdit(span, ";"),)))])
        if model in (GOOD, WRONG, INFEASIBLE) or (model == GOOD_DATA_MODEL and data.strip() == GOOD_DATA.strip()):
            return CheckReport([])
        if model == BROKEN:
            return CheckReport([FDiag("OPL0301", "error", "product of two decision variables `x * y` is not linear",
                                      FSpan("model.mod", 3, 36, 3, 41), help="rewrite the constraint linearly")])
        return CheckReport([FDiag("OPL0100", "error", "unexpected text", FSpan("model.mod", 1, 1, 1, 2))])

    def solve(self, model: str, data: str, time_limit_s: float = 30.0, solver: str = "highs", compiled=None,
              limits=None):
        from syntagm.assess.compiler import SolveOutcome

        if model in (GOOD, GOOD_DATA_MODEL):
            return SolveOutcome("optimal", 12.0, {"status": "optimal", "objective": 12.0,
                                                  "variables": {"x": 4.0, "y": 0.0}}, 0.001)
        if model == WRONG:
            return SolveOutcome("optimal", 8.0, {"status": "optimal", "objective": 8.0,
                                                 "variables": {"x": 4.0, "y": 0.0}}, 0.001)
        return SolveOutcome("infeasible", None, {"status": "infeasible", "objective": None}, 0.001,
                            "constraints ctA and ctC conflict")


def pyopl_ready() -> bool:
    try:
        import pyopl
        return callable(getattr(pyopl, "compile_model", None)) and callable(getattr(pyopl, "check", None))
    except Exception:
        return False
